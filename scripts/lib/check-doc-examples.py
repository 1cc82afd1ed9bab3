#!/usr/bin/env python3
"""Type-checks every ```swift example in the library's doc comments, and the README's library
example, against the modules of the last (debug) `swift build`: internal and package
declarations' examples too, through `@testable import`.

    scripts/lib/check-doc-examples.py [BUILD_DIR]      (default: .build/debug)

Each example becomes the body of a function whose parameters are the names examples take as
given (`index`, `request`, `person`, `kind`, `environment`), so an example that no longer
compiles fails `scripts/test` with the file and line of its comment.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARAMETERS = (
    "index: SearchIndex, request: SearchRequest, person: inout Person, kind: Kind, "
    "environment: [String: String]"
)


def package_name():
    """The name SwiftPM compiles `package` declarations under: the root package's identity,
    its folder's name in lower case."""
    return os.path.basename(ROOT).lower()


def doc_examples():
    """(file, line, lines) of every ```swift block in a /// comment of FTSearchKit."""
    for path in sorted(glob.glob(os.path.join(ROOT, "Sources/FTSearchKit/**/*.swift"), recursive=True)):
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


def readme_example():
    """The first ```swift block of the README's 'Using the library' section."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text[text.index("## Using the library"):]
    block = re.search(r"```swift\n(.*?)```", section, re.S)
    line = text[: text.index(block.group(0), text.index("## Using the library"))].count("\n") + 2
    body = [l for l in block.group(1).split("\n") if not l.startswith("import ")]
    return "README.md", line, body


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug")
    examples = list(doc_examples()) + [readme_example()]
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
        print(f"doc examples: {len(examples) - len(failing)} of {len(examples)} type-check")
        return result.returncode


if __name__ == "__main__":
    sys.exit(main())
