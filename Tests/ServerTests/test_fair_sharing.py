"""Fair sharing (docs/reliability.md): clients that read exports slowly or send imports slowly
hold neither the searches' connections nor the writer."""

import random
import socket
import threading
import time

import pytest

from conftest import run_ftsearch


def chunk(data):
    return b"%x\r\n" % len(data) + data + b"\r\n"


@pytest.fixture
def large_database(database, tmp_path):
    """60,000 more people: an export of about 12 MB, more than the sockets between a stalled
    reader and the server hold."""
    rng = random.Random(5)
    path = tmp_path / "many.csv"
    with path.open("w") as file:
        file.write("first_name,last_name,company,notes\n")
        for number in range(60000):
            file.write(f"Name{number},Family{rng.randint(0, 999)},Firm{number % 97},{'note ' * 20}\n")
    run_ftsearch("import", "--db", database, str(path))
    return database


def stalled_export(server):
    """An export whose client reads its head and then stops reading."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(10)
    connection.connect(("127.0.0.1", server.port))
    connection.sendall(f"GET /api/export HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    head = connection.recv(1024)
    return connection, head


def test_slow_exporters_stop_neither_searches_nor_other_clients(large_database, start_server):
    server = start_server("--no-warm-up")
    exporters = [stalled_export(server) for _ in range(6)]
    try:
        statuses = [head.split(b" ")[1] for _, head in exporters]
        # Two per client address (all of these come from 127.0.0.1); the others are told to
        # come back.
        assert statuses.count(b"200") == 2, statuses
        assert statuses.count(b"503") == 4, statuses
        refused = next(head for _, head in exporters if b" 503 " in head)
        assert b"retry-after: 5" in refused.lower() and b'"code":"busy"' in refused
        time.sleep(1)
        # Every search connection is still free: eight searches at once, and more.
        answers = []
        threads = [threading.Thread(target=lambda: answers.append(
            server.session.get(server.url + "/api/search", params={"q": "ann"}, timeout=10).status_code))
            for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == [200] * 8
        assert server.get("/api/search", params={"q": "ann"}).json()["total"] == 7
        assert server.get("/health").json() == {"status": "available"}
        assert server.post("/api/people", json={"first_name": "Writer"}).status_code == 201
    finally:
        for connection, _ in exporters:
            connection.close()
    # A finished exporter frees its place.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        answer = server.session.get(server.url + "/api/export", params={"kind": "animals"}, timeout=10)
        if answer.status_code == 200:
            break
        time.sleep(0.2)
    assert answer.status_code == 200 and "Annie" in answer.text


def test_a_trickling_import_does_not_hold_the_writer(start_server):
    server = start_server("--body-timeout", "5")
    trickler = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    trickler.sendall(f"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: text/csv\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n".encode() + chunk(b"first_name\n"))
    done = threading.Event()

    def trickle():
        # A record a second, for as long as the other writes take (at most 12 s).
        for number in range(12):
            if done.wait(1):
                break
            trickler.sendall(chunk(b"Trickled%d\n" % number))

    thread = threading.Thread(target=trickle)
    thread.start()
    try:
        time.sleep(1.5)
        # Writes go on while the import is still arriving (before, they waited for its end).
        for number in range(3):
            answer = server.session.post(server.url + "/api/people", json={"first_name": f"Beside{number}"}, timeout=8)
            assert answer.status_code == 201
        assert server.session.delete(server.url + "/api/history", timeout=8).status_code == 200
    finally:
        done.set()
        thread.join()
    trickler.sendall(b"0\r\n\r\n")
    answer = b""
    while not (b'"problems"' in answer and answer.endswith(b"\n")):
        part = trickler.recv(65536)
        if not part:
            break
        answer += part
    trickler.close()
    assert b" 200 " in answer.split(b"\r\n")[0], answer
    assert server.get("/api/search", params={"q": "trickled"}).json()["total"] >= 1
    assert server.get("/api/search", params={"q": "beside"}).json()["total"] == 3
    assert run_ftsearch("check", "--db", server.database, check=False).returncode == 0


def test_an_export_whose_client_stops_reading_ends_and_frees_its_place(large_database, start_server):
    server = start_server("--no-warm-up")
    stalled = [stalled_export(server) for _ in range(2)]
    try:
        assert [head.split(b" ")[1] for _, head in stalled] == [b"200", b"200"]
        assert server.get("/api/export", params={"kind": "animals"}).status_code == 503
        # The exports wait 30 s for their clients to read, then end and give their places back.
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline:
            time.sleep(2)
            answer = server.get("/api/export", params={"kind": "animals"})
            if answer.status_code == 200:
                break
        assert answer.status_code == 200 and "Annie" in answer.text
    finally:
        for connection, _ in stalled:
            connection.close()
