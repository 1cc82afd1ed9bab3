"""Safe to leave running (docs/reliability.md): what a browser can be made to send, the work one
request may ask for, and the errors that say what happened. Each case failed before the server
held it."""

import pytest

FORM_TYPES = [None, "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
              "multipart/form-data; boundary=x"]

# (method, path, body) of every change, with a body a form could carry.
CHANGES = [
    ("POST", "/api/import?replace=true&kind=people", b""),
    ("POST", "/api/import?format=csv&replace=true&kind=people", b"first_name\nIntruder\n"),
    ("POST", "/api/people", b'{"first_name":"Intruder"}'),
    ("PATCH", "/api/people/1", b'{"first_name":"Intruder"}'),
    ("POST", "/api/history", b'{"text":"intruder"}'),
    ("POST", "/indexes/people/documents", b'[{"id":1,"first_name":"Intruder"}]'),
    ("PUT", "/indexes/people/documents", b'[{"id":1,"first_name":"Intruder"}]'),
    ("POST", "/indexes/people/documents/delete-batch", b"[1,2]"),
    ("POST", "/indexes", b'{"uid":"x"}'),
]


def error_code(answer):
    body = answer.json()
    return body["error"]["code"] if "error" in body else body["code"]


@pytest.mark.parametrize("content_type", FORM_TYPES)
def test_changes_in_a_forms_content_type_are_refused(server, content_type):
    before = server.get("/api/export").text
    for method, path, body in CHANGES:
        headers = {"content-type": content_type} if content_type else {}
        answer = server.request(method, path, data=body, headers=headers)
        assert answer.status_code == 415, (method, path, answer.status_code, answer.text)
        assert error_code(answer) in ("unsupported_media_type", "invalid_content_type")
    assert server.get("/api/export").text == before
    assert server.get("/api/history").json()["entries"] == []
    assert server.get("/api/stats").json()["counts"]["people"] == 12


def test_an_import_takes_only_its_documented_content_types(server):
    csv = b"first_name\nTyped\n"
    for content_type in ["text/csv", "application/octet-stream"]:
        answer = server.post("/api/import", data=csv, params={"format": "csv"}, headers={"content-type": content_type})
        assert answer.status_code == 200, answer.text
    answer = server.post("/api/import", data=csv, params={"format": "csv"}, headers={"content-type": "image/png"})
    assert answer.status_code == 415 and error_code(answer) == "unsupported_media_type"
    assert server.get("/api/search", params={"q": "typed"}).json()["total"] == 2


@pytest.mark.parametrize("path", ["/api/export", "/api/search?q=ann", "/", "/health", "/indexes/people/search?q=ann",
                                  "/api/people/1"])
def test_a_host_the_server_does_not_serve_gets_421(server, path):
    for host in ["attacker.example", f"attacker.example:{server.port}", "127.0.0.1.attacker.example"]:
        answer = server.get(path, headers={"host": host})
        assert answer.status_code == 421, (host, answer.text)
        assert error_code(answer) == "misdirected_request"
        assert "Ann" not in answer.text
    for host in [f"127.0.0.1:{server.port}", f"localhost:{server.port}", "LOCALHOST", "127.0.0.1"]:
        assert server.get(path, headers={"host": host}).status_code == 200, host


def test_a_change_for_another_host_changes_nothing(server):
    answer = server.post("/api/people", json={"first_name": "Rebound"}, headers={"host": "attacker.example"})
    assert answer.status_code == 421
    assert server.get("/api/search", params={"q": "rebound"}).json()["total"] == 0


def test_allowed_hosts_are_served(start_server):
    server = start_server("--allowed-host", "search.example", "--allowed-host", "Other.Example")
    for host in ["search.example", "search.example:80", "other.example:7700"]:
        assert server.get("/api/search", params={"q": "ann"}, headers={"host": host}).status_code == 200
    assert server.get("/api/search", params={"q": "ann"}, headers={"host": "third.example"}).status_code == 421


def test_a_change_from_another_origin_is_refused(start_server):
    server = start_server("--cors-origin", "https://app.example")
    own = f"http://127.0.0.1:{server.port}"
    for origin in ["http://evil.example", "null", f"http://localhost:{server.port + 1}", "https://app.example.evil"]:
        for method, path, body in [("POST", "/api/people", {"first_name": "Forged"}), ("DELETE", "/api/people/1", None),
                                   ("POST", "/indexes/people/documents", [{"id": 1, "first_name": "Forged"}]),
                                   ("DELETE", "/api/history", None)]:
            answer = server.request(method, path, json=body, headers={"origin": origin})
            assert answer.status_code == 403, (origin, path, answer.text)
            assert error_code(answer) == "cross_origin"
    assert server.get("/api/people/1").status_code == 200
    assert server.get("/api/search", params={"q": "forged"}).json()["total"] == 0
    for origin in [own, "https://app.example"]:
        answer = server.post("/api/people", json={"first_name": "Welcome"}, headers={"origin": origin})
        assert answer.status_code == 201, (origin, answer.text)
    # Reading is for everyone: the CORS headers decide what a page may see.
    assert server.get("/api/search", params={"q": "ann"}, headers={"origin": "http://evil.example"}).status_code == 200


def test_bounded_hostile_fuzz_beside_writers_leaves_a_sound_database(server):
    """Random requests, hostile headers among them, while two clients write: every write
    acknowledged is stored, nothing answers 500, and `ftsearch check` passes after."""
    import random
    import threading
    import time

    from conftest import run_ftsearch

    rng = random.Random(46)
    deadline = time.monotonic() + 20
    acknowledged = []
    failures = []

    def writer(number):
        session = type(server.session)()
        count = 0
        while time.monotonic() < deadline and count < 150:
            name = f"Acked{number}x{count}"
            if count % 3 == 0:
                answer = session.post(server.url + "/api/import", data=f"first_name\n{name}\n",
                                      headers={"content-type": "text/csv"}, timeout=30)
                ok = answer.status_code == 200
            else:
                answer = session.post(server.url + "/api/people", json={"first_name": name}, timeout=30)
                ok = answer.status_code == 201
            if ok:
                acknowledged.append(name.lower())
            elif answer.status_code >= 500:
                failures.append((name, answer.status_code, answer.text))
            count += 1

    # Changes that cannot remove what the writers stored (no replacing import, no deleting all).
    paths = ["/api/search?q=ann", "/api/import?kind=people", "/api/people", "/api/people/1",
             "/api/history", "/api/export", "/api/stats", "/health", "/multi-search", "/indexes/people/search",
             "/indexes/people/documents/3", "/indexes/people/documents/delete-batch", "/", "/tasks"]
    hosts = [None, None, "attacker.example", "localhost", f"127.0.0.1:{server.port}", ""]
    origins = [None, None, "http://evil.example", "null", f"http://127.0.0.1:{server.port}"]
    types = [None, "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
             "text/csv", "application/octet-stream"]
    bodies = [b"", b"{}", b"[]", b'{"first_name":"Fuzz"}', b"first_name\nFuzz\n", b"\xff\xfe", b"[1,2]",
              b'{"queries":[' + b",".join([b'{"indexUid":"people","q":"a"}'] * 150) + b"]}",
              b'{"q":"ann","highlightPreTag":"' + b"<" * 5000 + b'","attributesToHighlight":["*"]}']

    def fuzzer():
        session = type(server.session)()
        while time.monotonic() < deadline:
            headers = {}
            for name, choices in [("host", hosts), ("origin", origins), ("content-type", types)]:
                value = rng.choice(choices)
                if value is not None:
                    headers[name] = value
            method = rng.choice(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
            try:
                answer = session.request(method, server.url + rng.choice(paths), headers=headers,
                                         data=rng.choice(bodies), timeout=30)
            except Exception as error:
                failures.append(("fuzz", repr(error)))
                continue
            if answer.status_code >= 500 and answer.status_code != 503:
                failures.append((method, answer.request.url, answer.status_code, answer.text[:200]))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2)] + \
              [threading.Thread(target=fuzzer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert server.get("/health").json() == {"status": "available"}
    assert len(acknowledged) > 20
    for name in rng.sample(acknowledged, 20):
        assert server.get("/api/search", params={"q": name, "match": "exact"}).json()["total"] >= 1, name
    assert server.stop() == 0
    assert run_ftsearch("check", "--db", server.database, check=False).returncode == 0
