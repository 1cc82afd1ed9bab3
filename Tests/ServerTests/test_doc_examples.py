"""The Python examples of the README and docs/meilisearch.md, run against a live server on the
fixtures: every statement runs, and a statement whose line ends in a comment holding a Python
literal (`client.is_healthy()  # True`) must evaluate to it."""

import ast
import io
import re
import tokenize

import pytest

from conftest import ROOT

PAGES = ["README.md", "docs/meilisearch.md"]


def python_blocks(page):
    """(line of the block's first line, source) of every ```python block of a page."""
    text = (ROOT / page).read_text()
    for match in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S):
        yield text[: match.start()].count("\n") + 2, match.group(1)


def expected_values(source):
    """The literal a line's trailing comment holds, by line number."""
    values = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and token.line.strip() != token.string:
            try:
                values[token.start[0]] = ast.literal_eval(token.string[1:].strip())
            except (ValueError, SyntaxError):
                pass
    return values


@pytest.mark.parametrize("page", PAGES)
def test_python_examples_run_and_answer_what_they_say(server, page):
    blocks = list(python_blocks(page))
    assert blocks, f"{page} has no python example"
    checked = 0
    for first_line, source in blocks:
        source = source.replace("http://127.0.0.1:7700", server.url)
        expected = expected_values(source)
        namespace = {}
        for statement in ast.parse(source).body:
            where = f"{page}:{first_line + statement.lineno - 1}"
            if isinstance(statement, ast.Expr) and statement.end_lineno in expected:
                value = eval(compile(ast.Expression(statement.value), where, "eval"), namespace)
                assert value == expected[statement.end_lineno], where
                checked += 1
            else:
                exec(compile(ast.Module([statement], []), where, "exec"), namespace)
    assert checked >= 2, f"{page}: only {checked} results checked"
