"""Hostile and broken requests, keys, a bounded fuzz run and shutdown: after each, the server
still answers correctly and the database passes `ftsearch check`."""

import json
import random
import signal
import socket
import threading
import time

import pytest
import requests

from conftest import run_ftsearch


def raw_request(server, data, read_timeout=10):
    """Sends raw bytes and returns what came back before the server closed or `read_timeout`."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=read_timeout) as connection:
        try:
            connection.sendall(data)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass  # the server stopped reading: what it answered is still to be read
        received = b""
        try:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                received += chunk
                if b"\r\n\r\n" in received and b"connection: close" not in received.lower():
                    head, _, body = received.partition(b"\r\n\r\n")
                    length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                    if length and len(body) >= int(length[0].split(b":")[1]):
                        break
        except (socket.timeout, ConnectionResetError):
            pass
        return received


def chunk(data):
    """One chunk of a chunked body."""
    return b"%x\r\n" % len(data) + data + b"\r\n"


def status_of(raw):
    return int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else None


def still_answers(server):
    assert server.get("/health").json() == {"status": "available"}
    assert server.get("/api/search", params={"q": "ann"}).json()["total"] == 7


def check_passes(server):
    result = run_ftsearch("check", "--db", server.database, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_10_mb_query_is_refused_and_the_server_goes_on(server):
    answer = raw_request(server, b"GET /api/search?q=" + b"a" * (10 << 20) + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status_of(answer) in (None, 400, 414, 431)
    long_but_parsable = server.get("/api/search", params={"q": "a" * 40000})
    assert long_but_parsable.status_code == 414
    assert long_but_parsable.json()["error"]["code"] == "too_large"
    still_answers(server)


@pytest.mark.parametrize("target", [
    b"/api/search?q=%ff%fe", b"/api/search?q=\xff\xfe", b"/api/\xc3\x28", b"/api/search?q=%", b"/api/search?q=%zz",
    b"/api/people/%ff", b"/../../../../etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd", b"/app.js/../../etc/passwd",
    b"/..%2f..%2fetc%2fpasswd", b"//etc/passwd", b"/Sources/FTSearchServer/Page/app.js", b"/index.html",
    b"/api/search?q=ann&q=bob", b"/api/search?q=ann&&&=&limit=",
])
def test_malformed_and_traversing_targets(server, target):
    answer = raw_request(server, b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    status = status_of(answer)
    assert status in (None, 400, 404), answer[:300]
    assert b"root:" not in answer and b"<html" not in answer.lower()
    head, _, body = answer.partition(b"\r\n\r\n")
    # Targets the HTTP parser refuses get the JSON error too, and a closed connection.
    assert body.startswith(b'{"error":{"code":'), answer
    still_answers(server)


@pytest.mark.parametrize("request_bytes", [
    b"NOT HTTP AT ALL\r\n\r\n", b"GET /api/search?q=\x01\x02 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * (100 << 10) + b"\r\n\r\n",
])
def test_requests_the_parser_refuses_get_the_json_error(server, request_bytes):
    answer = raw_request(server, request_bytes)
    assert status_of(answer) == 400, answer[:300]
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower()
    assert json.loads(body)["error"]["code"] == "bad_request"
    still_answers(server)


def test_invalid_utf8_and_wrong_types_in_bodies(server):
    for body in [b'{"first_name": "\xff"}', b'{"first_name": {"a": 1}}',
                 b"\x00\x01\x02", b"[" * 100000, b'{"first_name": "A", "first_name": "B"}', b"null", b""]:
        answer = server.post("/api/people", data=body, headers={"content-type": "application/json"})
        assert answer.status_code in (400, 422), (body[:20], answer.text)
        assert "error" in answer.json()
    answer = server.post("/api/import", data=b"first_name\n\xff\xfe\n", headers={"content-type": "text/csv"})
    assert answer.status_code in (400, 422) and "error" in answer.json()
    assert server.get("/api/stats").json()["counts"]["people"] == 12
    still_answers(server)


def test_a_body_over_the_limit_is_413(server):
    answer = server.post("/api/people", data=b'{"first_name": "' + b"a" * (2 << 20) + b'"}',
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"
    still_answers(server)


def test_a_client_that_never_finishes_sending_gets_408(start_server):
    server = start_server("--body-timeout", "1")
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as stalled:
        stalled.sendall(b"POST /api/people HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 100\r\n\r\n{\"first_")
        # Meanwhile everyone else is served, changes included.
        assert server.post("/api/people", json={"first_name": "Other"}).status_code == 201
        started = time.monotonic()
        answer = stalled.recv(65536)
        assert time.monotonic() - started < 10
    assert status_of(answer) == 408, answer
    still_answers(server)
    # An import that stalls holds the writer only until the timeout, and imports nothing.
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as stalled:
        stalled.sendall(b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n" + chunk(b"first_name\nStalled\nStalled2\n"))
        answer = stalled.recv(65536)
    assert status_of(answer) == 408, answer
    assert server.get("/api/search", params={"q": "stalled"}).json()["total"] == 0
    assert server.post("/api/people", json={"first_name": "After"}).status_code == 201


def test_without_a_key_everything_is_allowed_on_loopback(server):
    assert server.post("/api/people", json={"first_name": "Free"}).status_code == 201
    assert server.delete("/api/history").status_code == 200


def test_with_a_key_changes_need_it(start_server):
    key = "s3cret-key-value"
    server = start_server("--api-key", key)
    assert server.get("/api/search", params={"q": "ann"}).status_code == 200
    changes = [("POST", "/api/people", {"first_name": "Mallory"}), ("PATCH", "/api/people/1", {"company": "Evil"}),
               ("DELETE", "/api/people/1", None), ("POST", "/api/history", {"text": "ann"}),
               ("DELETE", "/api/history", None), ("POST", "/api/import", None)]
    before = server.get("/api/export").text
    for method, path, body in changes:
        missing = server.request(method, path, json=body)
        assert missing.status_code == 401 and missing.json()["error"]["code"] == "unauthorized"
        assert missing.headers["www-authenticate"] == "Bearer"
        for wrong in ["Bearer nope", "Bearer " + key + "x", "Basic " + key, key]:
            answer = server.request(method, path, json=body, headers={"authorization": wrong})
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    assert server.get("/api/export").text == before
    assert server.get("/api/history").json()["entries"] == []
    allowed = server.post("/api/people", json={"first_name": "Trent"}, headers={"authorization": "Bearer " + key})
    assert allowed.status_code == 201
    server.stop()
    assert key not in server.log_text()
    assert server.log_text().count("POST /api/people 403") == 4


def test_a_key_from_the_environment(start_server):
    server = start_server(env={"FTSEARCH_API_KEY": "envkey"})
    assert server.post("/api/people", json={"first_name": "X"}).status_code == 401
    assert server.post("/api/people", json={"first_name": "X"}, headers={"authorization": "Bearer envkey"}).status_code == 201


def test_bounded_random_requests_never_break_the_server(server):
    rng = random.Random(17)
    methods = ["GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS", "HEAD"]
    paths = ["/api/search", "/api/suggest", "/api/history", "/api/history/1", "/api/people", "/api/people/1",
             "/api/people/2", "/api/animals", "/api/animals/3", "/api/import", "/api/export", "/api/stats",
             "/health", "/", "/app.js", "/api/people/-1", "/api/people/99999999999999999999", "/api/x"]
    names = ["q", "kind", "match", "limit", "offset", "fields", "weights", "group_by", "by", "format", "replace", "z"]
    values = ["", "ann", "0", "-1", "1e9", "people", "animals", "all", "substring", "fuzzy", "exact", "company",
              "first_name", "csv", "json", "true", "%ff", "\u00e9", "\"", "'", "*", "a" * 300, "NEAR(", "-x"]
    bodies = [None, b"", b"{}", b'{"first_name": "Fuzz"}', b'{"name": "Fuzzy"}', b'{"text": "ann"}',
              b'{"company": null}', b"[1,2", b"first_name\nFuzzed\n", b"\xff" * 10, b'{"first_name": 1}']
    deadline = time.monotonic() + 20
    statuses = set()
    for _ in range(400):
        if time.monotonic() > deadline:
            break
        query = "&".join(f"{rng.choice(names)}={rng.choice(values)}" for _ in range(rng.randint(0, 4)))
        headers = {"content-type": rng.choice(["application/json", "text/csv", "text/plain", "application/x-ndjson"])}
        answer = server.request(rng.choice(methods), rng.choice(paths) + ("?" + query if query else ""),
                                data=rng.choice(bodies), headers=headers)
        assert answer.status_code < 500, (answer.request.method, answer.request.url, answer.text)
        statuses.add(answer.status_code)
        if answer.status_code >= 400 and answer.request.method != "HEAD":
            assert "error" in answer.json()
    assert {200, 400, 404, 405} <= statuses
    still_answers(server)
    assert server.stop() == 0
    check_passes(server)


@pytest.mark.parametrize("params", [
    {"q": "ann"},
    {"q": "ann", "limit": "100"},
    {"q": "an", "match": "substring"},
    {"q": ""},
])
def test_the_largest_offsets_find_nothing_and_larger_ones_are_refused(server, params):
    total = server.get("/api/search", params=params).json()["total"]
    largest = server.get("/api/search", params={**params, "offset": str(2**31 - 1)})
    assert largest.status_code == 200, largest.text
    assert largest.json()["results"] == [] and largest.json()["total"] == total > 0
    larger = server.get("/api/search", params={**params, "offset": str(2**63 - 1)})
    assert larger.status_code == 400 and "offset" in larger.json()["error"]["message"]
    meilisearch = server.post("/indexes/people/search", json={"q": params["q"], "offset": 2**31 - 1})
    assert meilisearch.status_code == 200 and meilisearch.json()["hits"] == []
    larger = server.post("/indexes/people/search", json={"q": params["q"], "offset": 2**63 - 6})
    assert larger.status_code == 400 and larger.json()["code"] == "invalid_search_offset"
    still_answers(server)


def test_sigterm_lets_a_request_in_progress_finish(server):
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    connection.sendall(b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\n" + chunk(b"first_name\nInflightOne\n"))
    time.sleep(0.5)
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    assert server.process.poll() is None, "the server quit with a request in progress"
    connection.sendall(chunk(b"InflightTwo\n") + b"0\r\n\r\n")
    answer = b""
    while b"}" not in answer:
        part = connection.recv(65536)
        if not part:
            break
        answer += part
    connection.close()
    assert status_of(answer) == 200, answer
    assert b'"inserted":{"people":2' in answer
    assert server.process.wait(timeout=15) == 0
    # The acknowledged import is in the database.
    result = run_ftsearch("query", "inflightone", "--db", server.database, "--format", "json")
    assert '"total":1' in result.stdout
    check_passes(server)
    with pytest.raises(requests.ConnectionError):
        server.get("/health")


def test_sigint_stops_an_idle_server_with_0(server):
    assert server.stop(signal.SIGINT) == 0


def test_a_second_signal_exits_at_once(start_server):
    server = start_server("--body-timeout", "60")
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    connection.sendall(b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\n" + chunk(b"first_name\nHalfway\n"))
    time.sleep(0.5)
    server.process.send_signal(signal.SIGTERM)
    time.sleep(1)
    assert server.process.poll() is None, "the first signal did not wait for the request"
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=5) == 128 + signal.SIGTERM
    assert time.monotonic() - started < 3
    connection.close()
    # The unfinished import was never committed.
    result = run_ftsearch("query", "halfway", "--db", server.database, "--format", "json")
    assert '"total":0' in result.stdout
    check_passes(server)


def test_a_search_whose_client_has_gone_is_cancelled(start_server):
    # Every search waits 5 s first (cancellably), standing in for a slow one.
    server = start_server(env={"FTSEARCH_TEST_SEARCH_DELAY_MS": "5000"})
    leaving = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    leaving.sendall(b"GET /api/search?q=ann HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    # Meanwhile the server answers others.
    assert server.get("/health").json() == {"status": "available"}
    time.sleep(0.5)
    leaving.close()
    # The abandoned search stops at once, logged as nginx's 499 (a finished one logs 200 after 5 s).
    deadline = time.monotonic() + 4
    while "GET /api/search 499" not in server.log_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "GET /api/search 499" in server.log_text()
    assert "GET /api/search 200" not in server.log_text()
    # A client that stays gets its answer.
    assert server.get("/api/search", params={"q": "ann"}).json()["total"] == 7
