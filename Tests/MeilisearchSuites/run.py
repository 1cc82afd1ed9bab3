#!/usr/bin/env python3
"""Runs the test suites of two Meilisearch SDKs against `ftsearch serve`, unchanged but for
their fixtures (harness/*_conftest.py), selecting the tests within ftsearch's scope
(harness/out-of-scope.tsv, with the reasons in harness/out_of_scope.py):

- official: the `meilisearch` SDK's suite at its tag v0.43.0 (meilisearch-python-v0.43.0/, MIT);
- sdk: `meilisearch-python-sdk` 8.0.1's suite, from its sdist on PyPI, pinned by its SHA-256 and
  fetched into .build once (MIT).

Each suite gets a fresh database with the fixtures imported and a server of its own on a free
loopback port, with the master key the suites use. Exits 1 when an in-scope test fails.

    run.py [--binary .build/debug/ftsearch] [--suite official|sdk] [--all] [-- pytest options]

`--all` runs every test, out of scope too, and prints the counts docs/meilisearch.md gives.
"""

import argparse
import collections
import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WORK = ROOT / ".build" / "meilisearch-suites"
SDK = "meilisearch-python-sdk==8.0.1"
SDK_ARCHIVE = "meilisearch_python_sdk-8.0.1.tar.gz"
SDK_SHA256 = "f76cf6dbc46ea9bd6150e608c07210f6168a06f207545574000be9cbf3da2962"
START_LINE = re.compile(r"^Serving .* at (http://127\.0\.0\.1:\d+)/$")
PYTEST_INI = {
    "official": "[pytest]\n",
    "sdk": "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = session\n"
    "asyncio_default_test_loop_scope = session\nmarkers =\n    no_parallel\n",
}


def prepare_official():
    target = WORK / "official"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(HERE / "meilisearch-python-v0.43.0", target)
    return target


def prepare_sdk():
    archive = WORK / SDK_ARCHIVE
    if not archive.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                        "--no-deps", "--no-binary", ":all:", SDK, "-d", str(WORK)], check=True, timeout=300)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != SDK_SHA256:
        archive.unlink()
        sys.exit(f"error: {SDK_ARCHIVE} has SHA-256 {digest}, not the pinned {SDK_SHA256}")
    target = WORK / "sdk"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    prefix = SDK_ARCHIVE.removesuffix(".tar.gz") + "/"
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix(prefix)
            if name in ("LICENSE",) or name.startswith(("tests/", "datasets/")):
                member.name = name
                tar.extract(member, target, filter="data")
    return target


def install_harness(suite, target):
    tests = target / "tests"
    (tests / "conftest.py").rename(tests / "conftest_published.py")
    shutil.copy(HERE / "harness" / f"{suite}_conftest.py", tests / "conftest.py")
    (target / "pytest.ini").write_text(PYTEST_INI[suite])
    for name in ("pyproject.toml", "setup.cfg", "tox.ini"):
        (target / name).unlink(missing_ok=True)


class Server:
    def __init__(self, binary, database, log):
        self.process = subprocess.Popen(
            [binary, "serve", "--db", database, "--port", "0", "--api-key", "masterKey"],
            stdout=subprocess.PIPE, stderr=log, text=True)
        line = self.process.stdout.readline().rstrip("\n")
        match = START_LINE.match(line)
        if not match:
            self.stop()
            sys.exit(f"error: the server did not start: {line!r}")
        self.url = match.group(1)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def run_suite(suite, binary, everything, pytest_options):
    target = prepare_official() if suite == "official" else prepare_sdk()
    install_harness(suite, target)
    with tempfile.TemporaryDirectory() as temporary:
        database = os.path.join(temporary, "db.sqlite")
        subprocess.run([binary, "import", "--db", database, str(ROOT / "Fixtures" / "people.json"),
                        str(ROOT / "Fixtures" / "animals.json")], check=True, capture_output=True,
                       timeout=60, env={**os.environ, "FTSEARCH_NO_HISTORY": "1"})
        report = os.path.join(temporary, "report.json")
        with open(WORK / f"{suite}-server.log", "w") as log:
            server = Server(binary, database, log)
            try:
                env = {**os.environ, "MEILISEARCH_URL": server.url, "FTSEARCH_SUITE": suite,
                       "FTSEARCH_SUITE_REPORT": report, "FTSEARCH_SUITE_ALL": "1" if everything else "0",
                       "PYTHONPATH": os.pathsep.join([str(HERE / "harness"), str(target)])}
                started = time.monotonic()
                subprocess.run(
                    [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "scope_plugin",
                     "--timeout", "60", "-o", "console_output_style=classic", "tests", *pytest_options],
                    cwd=target, env=env, timeout=1800,
                    stdout=open(WORK / f"{suite}-pytest.log", "w"), stderr=subprocess.STDOUT)
                seconds = time.monotonic() - started
            finally:
                server.stop()
        with open(report) as file:
            return json.load(file), seconds


def summarize(suite, result, seconds, everything):
    outcomes, reasons = result["outcomes"], result["reasons"]
    in_scope = {node: outcome for node, outcome in outcomes.items() if node not in reasons}
    counts = lambda items: {k: sum(1 for v in items.values() if v == k) for k in ("passed", "failed", "error", "skipped")}
    line = f"{suite}: {len(in_scope)} in scope: " + ", ".join(
        f"{n} {k}" for k, n in counts(in_scope).items() if n)
    if everything:
        out = {node: outcome for node, outcome in outcomes.items() if node in reasons}
        line += f"; {len(out)} out of scope: " + ", ".join(f"{n} {k}" for k, n in counts(out).items() if n)
    else:
        line += f"; {len(reasons)} out of scope, not run"
    print(f"{line} ({seconds:.0f} s)")
    by_reason = collections.Counter(reasons.values())
    print("  out of scope by reason: " + ", ".join(f"{r} {n}" for r, n in by_reason.most_common()))
    failures = sorted(node for node, outcome in in_scope.items() if outcome in ("failed", "error"))
    for node in failures:
        print(f"  FAILED {node}")
    # An entry of the out-of-scope list that passes is stale: it must go.
    stale = sorted(node for node, outcome in outcomes.items() if node in reasons and outcome == "passed")
    for node in stale:
        print(f"  PASSED, yet listed as out of scope ({reasons[node]}): {node}")
    return not failures and not stale


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "ftsearch"))
    parser.add_argument("--suite", choices=["official", "sdk"], action="append")
    parser.add_argument("--all", action="store_true", help="run the out-of-scope tests too")
    parser.add_argument("pytest_options", nargs="*")
    arguments = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    passed = True
    for suite in arguments.suite or ["official", "sdk"]:
        result, seconds = run_suite(suite, arguments.binary, arguments.all, arguments.pytest_options)
        passed = summarize(suite, result, seconds, arguments.all) and passed
    print(f"(pytest output in {WORK.relative_to(ROOT)}/*-pytest.log)")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
