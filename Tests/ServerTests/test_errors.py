"""Errors that say what happened, and a served file that is the file on disk
(docs/reliability.md). Each case answered something else before."""

import os
import shutil
import socket
import subprocess
import time

import pytest

from conftest import FIXTURES, run_ftsearch


def test_the_bearer_scheme_is_case_insensitive(start_server):
    server = start_server("--api-key", "k3y")
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"]:
        answer = server.post("/api/people", json={"first_name": "Keyed"}, headers={"authorization": f"{scheme} k3y"})
        assert answer.status_code == 201, (scheme, answer.text)
        meili = server.get("/indexes/people/search", params={"q": "ann"}, headers={"authorization": f"{scheme} k3y"})
        assert meili.status_code == 200
    assert server.post("/api/people", json={"first_name": "X"}, headers={"authorization": "bearer nope"}).status_code == 403
    assert server.post("/api/people", json={"first_name": "X"}, headers={"authorization": "bearerk3y"}).status_code == 403


@pytest.mark.parametrize("path", ["/", "/app.js", "/health", "/api/search?q=ann", "/api/stats", "/api/people/1",
                                  "/api/history", "/indexes/people/search?q=ann", "/indexes/people", "/version"])
def test_head_answers_as_get_without_a_body(server, path):
    get = server.get(path)
    head = server.request("HEAD", path)
    assert head.status_code == get.status_code == 200, head.headers
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert int(head.headers["content-length"]) == len(get.content) or path in ("/api/search?q=ann", "/indexes/people/search?q=ann")


def test_head_of_an_export_runs_no_export(server):
    for _ in range(5):
        head = server.request("HEAD", "/api/export")
        assert head.status_code == 200 and head.content == b""
    # Had the exports been left waiting, they would hold every place a client has.
    assert "Annie" in server.get("/api/export").text


def test_connect_gets_405_and_the_connection_closes(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        started = time.monotonic()
        received = b""
        while True:
            part = connection.recv(65536)
            if not part:
                break
            received += part
        assert time.monotonic() - started < 8, "the connection was held open"
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 405"), received
    assert b"connection: close" in head.lower()
    # SwiftNIO's encoder sends no body after the head of any answer to CONNECT; the log has
    # the JSON error's size.
    assert body == b""
    server.stop()
    assert "CONNECT 443 405" in server.log_text()


def test_stats_show_the_path_only_to_the_key_holder(start_server, database):
    server = start_server("--api-key", "k3y")
    assert server.get("/api/stats").json()["database"] == os.path.basename(database)
    assert server.get("/api/stats", headers={"authorization": "Bearer wrong"}).json()["database"] == "db.sqlite"
    keyed = server.get("/api/stats", headers={"authorization": "Bearer k3y"}).json()["database"]
    assert keyed == database and keyed.startswith("/")


def test_stats_without_a_key_show_no_path(server, database):
    assert server.get("/api/stats").json()["database"] == "db.sqlite"


def test_a_task_that_cannot_be_written_still_answers_the_writes_outcome(server, database):
    # The task file cannot be written: a directory stands where it goes.
    os.mkdir(database + ".meilisearch-tasks.ndjson")
    answer = server.post("/indexes/people/documents", json=[{"id": 700, "first_name": "Taskless"}])
    assert answer.status_code == 202, answer.text
    task = server.get(f"/tasks/{answer.json()['taskUid']}").json()
    assert task["status"] == "succeeded" and task["details"]["indexedDocuments"] == 1
    failed = server.post("/indexes/people/documents", json=[{"first_name": "No id"}])
    assert failed.status_code == 202
    assert server.get(f"/tasks/{failed.json()['taskUid']}").json()["status"] == "failed"
    assert server.get("/indexes/people/documents/700").json()["first_name"] == "Taskless"
    server.stop()
    assert "could not be written" in server.log_text()


@pytest.mark.parametrize("change", ["delete", "replace"])
def test_a_database_deleted_or_replaced_while_serving_is_noticed(server, database, tmp_path, change):
    assert server.post("/api/people", json={"first_name": "Before"}).status_code == 201
    if change == "delete":
        os.unlink(database)
    else:
        other = str(tmp_path / "other.sqlite")
        run_ftsearch("import", "--db", other, str(FIXTURES / "animals.json"))
        os.rename(other, database)
    health = server.get("/health")
    assert health.status_code == 503 and health.json()["status"] == "unavailable"
    assert ("deleted" if change == "delete" else "replaced") in health.json()["reason"]
    answer = server.post("/api/people", json={"first_name": "Lost"})
    assert answer.status_code == 503 and answer.json()["error"]["code"] == "database_replaced"
    meili = server.post("/indexes/people/documents", json=[{"id": 900, "first_name": "Lost"}])
    assert meili.status_code == 503 and meili.json()["code"] == "database_replaced"
    assert server.delete("/api/history").status_code == 503
    server.stop()
    assert server.log_text().count("while the server was running: changes are refused") == 1
    if change == "replace":
        # The new file is whole: nothing of the old one's was written beside it.
        assert run_ftsearch("check", "--db", database, check=False).returncode == 0
        result = run_ftsearch("query", "lost", "--db", database, "--format", "json")
        assert '"total":0' in result.stdout


def mount_tmpfs(folder, size):
    if os.geteuid() != 0:
        return False
    return subprocess.run(["/bin/mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


def test_a_full_disk_is_507_and_says_so(start_server, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if not mount_tmpfs(disk, "8m"):
        pytest.skip("mounting a tmpfs needs root and the right to mount")
    try:
        database = str(disk / "db.sqlite")
        run_ftsearch("import", "--db", database, str(FIXTURES / "people.json"), str(FIXTURES / "animals.json"))
        server = start_server(path=database)
        # An upload larger than the room left.
        body = b"first_name,notes\n" + b"".join(b"Filler%d,%s\n" % (n, b"x" * 1000) for n in range(9000))
        answer = server.post("/api/import", data=body, headers={"content-type": "text/csv"})
        assert answer.status_code == 507, answer.text[:300]
        assert answer.json()["error"] == {"code": "disk_full", "message": answer.json()["error"]["message"]}
        assert "the disk is full" in answer.json()["error"]["message"]
        # The disk filled by something else: the database cannot grow.
        with open(disk / "filler", "wb") as filler:
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass
        statuses = set()
        for number in range(200):
            answer = server.post("/api/people", json={"first_name": f"Crowded{number}", "notes": "y" * 4000})
            statuses.add(answer.status_code)
            if answer.status_code != 201:
                break
        assert 507 in statuses and statuses <= {201, 507}, statuses
        assert answer.json()["error"]["code"] == "disk_full"
        os.unlink(disk / "filler")
        assert server.post("/api/people", json={"first_name": "Roomy"}).status_code == 201
        server.stop()
        assert run_ftsearch("check", "--db", database, check=False).returncode == 0
    finally:
        subprocess.run(["/bin/umount", "-l", str(disk)], capture_output=True)


def test_ids_are_never_given_twice(server, database):
    """The API, the Meilisearch routes and the command line: a record added after the one with
    the highest id was deleted gets a new id, so a stale id reaches nothing."""
    first = server.post("/api/people", json={"first_name": "Highest"}).json()["id"]
    assert server.delete(f"/api/people/{first}").status_code == 200
    second = server.post("/api/people", json={"first_name": "Next"}).json()["id"]
    assert second == first + 1
    assert server.get(f"/api/people/{first}").status_code == 404
    assert server.patch(f"/api/people/{first}", json={"company": "Stale"}).status_code == 404
    # Deleted through the Meilisearch routes: the id is not given again either.
    task = server.delete(f"/indexes/people/documents/{second}").json()
    assert server.get(f"/tasks/{task['taskUid']}").json()["status"] == "succeeded"
    third = server.post("/api/people", json={"first_name": "Third"}).json()["id"]
    assert third == second + 1
    assert server.get(f"/indexes/people/documents/{second}").status_code == 404
    server.stop()
    added = run_ftsearch("add", "--db", database, "people", "--first-name", "Cli").stdout.strip()
    assert added.endswith(str(third + 1)), added
    run_ftsearch("delete", "--db", database, "people", str(third + 1))
    again = run_ftsearch("add", "--db", database, "people", "--first-name", "Cli2").stdout.strip()
    assert again.endswith(str(third + 2)), again
