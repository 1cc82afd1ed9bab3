#!/usr/bin/env python3
"""Holds the documentation to the code, against the last (debug) `swift build`:

- every ```swift example in the library's doc comments, the README, docs/*.md and the DocC
  catalog type-checks (internal and package declarations' examples too, through
  `@testable import`);
- the ```console examples of the README and of docs/cli.md run, in order, each page in an
  environment of its own on a copy of Fixtures/, and print what the page shows (a transcript
  that cannot run here is a ```text block);
- the command reference at the end of docs/cli.md is what `ftsearch help` prints for every
  command;
- every relative link between README.md, CHANGELOG.md and docs/*.md reaches a file and, with a
  #fragment, a heading of it, and the README links every page of docs/;
- the newest version in CHANGELOG.md is what `ftsearch --version` prints.

    scripts/lib/check-doc-examples.py [--write] [BUILD_DIR]      (default: .build/debug)

`--write` regenerates the command reference in docs/cli.md instead of checking it. Each Swift
example becomes the body of a function whose parameters are the names examples take as given
(`index`, `request`, `person`, `kind`, `environment`), so an example that no longer compiles
fails `scripts/test` with the file and line where it is written.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARAMETERS = (
    "index: SearchIndex, request: SearchRequest, person: inout Person, kind: Kind, "
    "environment: [String: String]"
)
GUIDES = ["README.md", "CHANGELOG.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs/*.md")))
DOCC = sorted(os.path.relpath(p, ROOT) for p in glob.glob(
    os.path.join(ROOT, "Sources/FTSearchKit/FTSearchKit.docc/**/*.md"), recursive=True))
BEGIN, END = "<!-- BEGIN GENERATED: ftsearch help -->", "<!-- END GENERATED: ftsearch help -->"


def read(path):
    return open(os.path.join(ROOT, path), encoding="utf-8").read()


def package_name():
    """The name SwiftPM compiles `package` declarations under: the root package's identity,
    its folder's name in lower case, with what is not a letter, digit or `_` made `_` (a clone
    in `ftsearch-main` compiles as `ftsearch_main`)."""
    return re.sub(r"[^a-z0-9_]", "_", os.path.basename(ROOT).lower())


def comment_examples():
    """(file, line, lines) of every ```swift block in a /// comment of the library's public
    modules: FTSearchKit and the modules it re-exports."""
    paths = []
    for module in ["FTSearchKit", "FTSearchEngine", "FTSearchModels", "FTSearchFormats"]:
        paths += glob.glob(os.path.join(ROOT, "Sources", module, "**/*.swift"), recursive=True)
    for path in sorted(paths):
        lines = open(path, encoding="utf-8").read().split("\n")
        index = 0
        while index < len(lines):
            if lines[index].strip() == "/// ```swift":
                start, body = index + 1, []
                index += 1
                while lines[index].strip() != "/// ```":
                    body.append(re.sub(r"^\s*/// ?", "", lines[index]))
                    index += 1
                yield os.path.relpath(path, ROOT), start + 1, body
            index += 1


def fenced_blocks(path, language):
    """(line of the first body line, body lines) of every ```LANGUAGE block of a Markdown file."""
    lines = read(path).split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```" + language:
            indent = len(lines[index]) - len(lines[index].lstrip())
            start, body = index + 2, []
            index += 1
            while lines[index].strip() != "```":
                body.append(lines[index][indent:])
                index += 1
                if index == len(lines):
                    raise SystemExit(f"{path}:{start - 1}: a ```{language} block is never closed")
            yield start, body
        index += 1


def markdown_examples():
    for path in GUIDES + DOCC:
        for line, body in fenced_blocks(path, "swift"):
            yield path, line, [l for l in body if not l.startswith("import ")]


def check_swift(build):
    examples = list(comment_examples()) + list(markdown_examples())
    source = ["@testable import FTSearchKit", ""]
    origins = []
    for number, (path, line, body) in enumerate(examples):
        source.append(f"// {path}:{line}")
        source.append(f"func example{number}({PARAMETERS}) async throws {{")
        origins.append((len(source) + 1, path, line))
        source.extend("    " + l for l in body)
        source.append("}")
        source.append("")
    with tempfile.TemporaryDirectory() as folder:
        file = os.path.join(folder, "DocExamples.swift")
        open(file, "w", encoding="utf-8").write("\n".join(source))
        result = subprocess.run(
            ["swiftc", "-typecheck", "-swift-version", "6", "-package-name", package_name(),
             "-I", os.path.join(build, "Modules"), "-I", os.path.join(ROOT, "Sources/CSQLite"), file],
            capture_output=True, text=True)
    errors = [l for l in result.stderr.split("\n") if ": error:" in l]
    for error in errors:
        number = int(error.split(":")[1])
        first, path, line = max((o for o in origins if o[0] <= number), key=lambda o: o[0])
        print(f"{path}:{line + number - first}: {error.split(': error: ', 1)[1]}", file=sys.stderr)
    if result.returncode != 0 and not errors:
        print(result.stderr, file=sys.stderr)
    failing = {max((o for o in origins if o[0] <= int(e.split(":")[1])), key=lambda o: o[0])
               for e in errors}
    print(f"doc examples: {len(examples) - len(failing)} of {len(examples)} Swift examples type-check")
    return result.returncode == 0


def normalized(text):
    """Output as the README shows it: lines without trailing blanks, import times as 0.01 s."""
    text = re.sub(r"in \d+\.\d\d s\.", "in 0.01 s.", text)
    return [l.rstrip() for l in text.rstrip("\n").split("\n")] if text.strip() else []


def check_console(build, page):
    """Runs a page's ```console examples in order, in one environment of their own on a copy of
    Fixtures/, and compares what they print with what the page shows."""
    failures = 0
    commands = 0
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(os.path.join(ROOT, "Fixtures"), os.path.join(folder, "Fixtures"))
        environment = {
            "PATH": build + os.pathsep + os.environ["PATH"], "HOME": folder, "LANG": "C.UTF-8",
            "FTSEARCH_DB": os.path.join(folder, "readme.sqlite"),
            "FTSEARCH_NOW": "2026-01-01T12:00:00Z", "NO_COLOR": "1", "COLUMNS": "80",
        }
        cwd = folder
        for start, body in fenced_blocks(page, "console"):
            steps = []  # (line, command, expected lines)
            for offset, line in enumerate(body):
                if line.startswith("$ "):
                    steps.append((start + offset, line[2:], []))
                elif steps:
                    steps[-1][2].append(line)
                else:
                    raise SystemExit(f"{page}:{start + offset}: a ```console block starts with "
                                     "a command ($ ...); a transcript that is not run is ```text")
            for line, command, expected in steps:
                commands += 1
                if command.startswith("cd "):
                    cwd = os.path.join(cwd, command[3:])
                    continue
                result = subprocess.run(
                    ["bash", "-c", command + " 2>&1"], cwd=cwd, env=environment,
                    capture_output=True, text=True, timeout=60)
                actual = normalized(result.stdout)
                if actual != normalized("\n".join(expected)):
                    failures += 1
                    print(f"{page}:{line}: `{command}` printed:", file=sys.stderr)
                    print("\n".join("    " + l for l in actual), file=sys.stderr)
    print(f"doc examples: {commands - failures} of {commands} commands of {page} print what it shows")
    return failures == 0


def command_names(binary):
    """Every command path, from the SUBCOMMANDS sections of the help, depth first."""
    def children(path):
        text = subprocess.run([binary, "help", *path], capture_output=True, text=True,
                              env={**os.environ, "COLUMNS": "80"}).stdout
        if "SUBCOMMANDS:" not in text:
            return []
        section = text.split("SUBCOMMANDS:", 1)[1]
        return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*)", section, re.M)]
    paths = []
    def walk(path):
        for name in children(path):
            paths.append(path + [name])
            walk(path + [name])
    walk([])
    return paths


def generated_reference(binary):
    parts = [BEGIN, ""]
    for path in [[]] + command_names(binary):
        text = subprocess.run([binary, "help", *path], capture_output=True, text=True,
                              env={**os.environ, "COLUMNS": "80"}).stdout.rstrip()
        parts += ["### `" + " ".join(["ftsearch"] + path) + "`", "", "```text", text, "```", ""]
    parts.append(END)
    return "\n".join(parts)


def check_reference(binary, write):
    text = read("docs/cli.md")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    reference = generated_reference(binary)
    if write:
        open(os.path.join(ROOT, "docs/cli.md"), "w", encoding="utf-8").write(
            text[:start] + reference + text[end:])
        print("doc examples: wrote the command reference of docs/cli.md")
        return True
    if text[start:end] != reference:
        print("docs/cli.md: the command reference differs from `ftsearch help`; run "
              "scripts/lib/check-doc-examples.py --write", file=sys.stderr)
        return False
    print("doc examples: docs/cli.md's command reference is `ftsearch help`'s")
    return True


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, counts, fenced = set(), {}, False
    for line in read(path).split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#"))
            number = counts.get(base, 0)
            counts[base] = number + 1
            found.add(base if number == 0 else f"{base}-{number}")
    return found


def check_links():
    problems = []
    for path in GUIDES:
        fenced = False
        for number, line in enumerate(read(path).split("\n"), 1):
            if line.startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target):
                    continue
                file, _, fragment = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                if not os.path.exists(os.path.join(ROOT, resolved)):
                    problems.append(f"{path}:{number}: {target}: no such file")
                elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                    problems.append(f"{path}:{number}: {target}: no such heading in {resolved}")
    readme = read("README.md")
    for page in GUIDES:
        if page.startswith("docs/") and f"]({page})" not in readme:
            problems.append(f"README.md: does not link {page}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"doc examples: links of {len(GUIDES)} pages {'ok' if not problems else 'broken'}")
    return not problems


def check_changelog(binary):
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    match = re.search(r"^## \[(\d+\.\d+\.\d+)\]", read("CHANGELOG.md"), re.M)
    if not match or match.group(1) != version:
        print(f"CHANGELOG.md: the newest version is {match and match.group(1)}, "
              f"`ftsearch --version` prints {version}", file=sys.stderr)
        return False
    print(f"doc examples: CHANGELOG.md's newest version is {version}, as `ftsearch --version` says")
    return True


def main():
    arguments = sys.argv[1:]
    write = "--write" in arguments
    arguments = [a for a in arguments if a != "--write"]
    build = os.path.abspath(arguments[0] if arguments else os.path.join(ROOT, ".build/debug"))
    binary = os.path.join(build, "ftsearch")
    results = [check_reference(binary, write), check_links(), check_changelog(binary),
               check_console(build, "README.md"), check_console(build, "docs/cli.md"),
               check_swift(build)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
