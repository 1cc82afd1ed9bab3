"""A live `ftsearch serve` on a free loopback port, against a temporary database with the
fixtures imported, for the API and browser tests. Every server a test starts is stopped when
the test ends, within a bounded time."""

import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

import pytest
import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Fixtures"
BIN = pathlib.Path(os.environ.get("FTSEARCH_BIN_DIR", ROOT / ".build" / "debug"))
FTSEARCH = str(BIN / "ftsearch")
START_LINE = re.compile(r"^Serving ([\d,]+) people and ([\d,]+) animals? from (.+) at (http://127\.0\.0\.1:(\d+)/)$")


def run_ftsearch(*arguments, check=True, env=None):
    """Runs ftsearch with arguments and returns the completed process (bounded)."""
    return subprocess.run(
        [FTSEARCH, *arguments], capture_output=True, text=True, timeout=60, check=check,
        env={**os.environ, "FTSEARCH_NO_HISTORY": "1", **(env or {})})


class Server:
    """One running `ftsearch serve`: its URL, its database, its log."""

    def __init__(self, database, arguments=(), env=None):
        self.database = database
        self.log_path = database + ".log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [FTSEARCH, "serve", "--db", database, "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
            env={**os.environ, **(env or {})})
        line = self._read_start_line()
        match = START_LINE.match(line)
        assert match, f"unexpected start line: {line!r}"
        self.start_line = line
        self.url = match.group(4).rstrip("/")
        self.port = int(match.group(5))
        self.session = requests.Session()

    def _read_start_line(self):
        deadline = time.monotonic() + 30
        import selectors
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if selector.select(timeout=0.5):
                line = self.process.stdout.readline()
                if line:
                    return line.rstrip("\n")
            if self.process.poll() is not None:
                break
        self.stop()
        raise AssertionError("the server did not start: " + pathlib.Path(self.log_path).read_text())

    def get(self, path, **kwargs):
        return self.session.get(self.url + path, timeout=30, **kwargs)

    def post(self, path, **kwargs):
        return self.session.post(self.url + path, timeout=30, **kwargs)

    def patch(self, path, **kwargs):
        return self.session.patch(self.url + path, timeout=30, **kwargs)

    def delete(self, path, **kwargs):
        return self.session.delete(self.url + path, timeout=30, **kwargs)

    def request(self, method, path, **kwargs):
        return self.session.request(method, self.url + path, timeout=30, **kwargs)

    def log_text(self):
        if not self.log.closed:
            self.log.flush()
        return pathlib.Path(self.log_path).read_text(errors="replace")

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Signals the server and waits for it (killing it after `timeout`); its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
                raise AssertionError(f"the server did not stop within {timeout} s of {sig!r}")
        self.session.close()
        self.log.close()
        return self.process.returncode


@pytest.fixture
def database(tmp_path):
    """A database with both fixtures imported."""
    path = str(tmp_path / "db.sqlite")
    run_ftsearch("import", "--db", path, str(FIXTURES / "people.json"), str(FIXTURES / "animals.json"))
    return path


@pytest.fixture
def start_server(database):
    """Starts servers on `database` (arguments and environment as given); stops them all."""
    servers = []

    def start(*arguments, env=None, path=None):
        server = Server(path or database, arguments, env)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(start_server):
    """One server on loopback, no key."""
    return start_server()
