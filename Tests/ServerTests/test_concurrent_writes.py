"""Writes of every kind from several clients at once, each followed by a search, while an import
large enough to make the sort code map runs: every write must succeed, every search must find
what its client just wrote, and the database must check clean afterwards.

Meilisearch's `PUT /indexes/{uid}/documents` (add or update) once looked the stored documents up
through the writer's SQLite connection from the import's reading thread; the connection, used by
two threads at once, broke, and every write after it failed ("the database is damaged: file is
not a database") until the server was restarted."""

import json
import threading
import time

from conftest import run_ftsearch

CLIENTS = 4
ROUNDS = 30
MAP_MINIMUM = 1 << 17  # SortCodeMap.minimumRecords: an import this large makes the map


def wait_for_task(server, uid):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        task = server.get(f"/tasks/{uid}").json()
        if task["status"] in ("succeeded", "failed"):
            return task
        time.sleep(0.01)
    raise AssertionError(f"task {uid} did not finish")


def write(server, client, round_number):
    """One write of the kind this round takes; the word a search for it must find."""
    word = f"c{client}r{round_number}x"
    kind = ["update", "replace", "update", "record", "update", "import"][round_number % 6]
    if kind == "update":  # Meilisearch add or update: merged with what is stored
        base = 100_000 + client * 1_000 + round_number * 40
        docs = [{"id": base + i, "name": f"{word} {i}"} for i in range(30)]
        answer = server.request("PUT", "/indexes/animals/documents", json=docs)
        assert answer.status_code == 202, answer.text
        task = wait_for_task(server, answer.json()["taskUid"])
        assert task["status"] == "succeeded", task
    elif kind == "replace":  # Meilisearch add or replace
        base = 200_000 + client * 1_000 + round_number * 40
        docs = [{"id": base + i, "first_name": word, "last_name": f"Lee{i}"} for i in range(30)]
        answer = server.post("/indexes/people/documents", json=docs)
        assert answer.status_code == 202, answer.text
        task = wait_for_task(server, answer.json()["taskUid"])
        assert task["status"] == "succeeded", task
    elif kind == "record":  # the native API, one record
        answer = server.post("/api/people", json={"first_name": word, "last_name": "Solo"})
        assert answer.status_code == 201, answer.text
    else:  # the native import
        body = "".join(json.dumps({"first_name": word, "last_name": f"Imp{i}"}) + "\n" for i in range(300))
        answer = server.post("/api/import", data=body, headers={"content-type": "application/x-ndjson"})
        assert answer.status_code == 200, answer.text
    return word


def test_writes_of_every_kind_beside_searches_and_a_map_making_import(server, database):
    failures = []

    def client(number):
        try:
            for round_number in range(ROUNDS):
                word = write(server, number, round_number)
                found = server.get("/api/search", params={"q": word, "kind": "all"})
                assert found.status_code == 200, found.text
                if found.json()["total"] == 0:
                    failures.append(f"{word} not found after its write")
        except AssertionError as error:
            failures.append(f"client {number}: {error}")

    def big_import():
        body = "".join(
            json.dumps({"first_name": f"Big{i}", "last_name": f"Many{i % 997}", "company": "Bulk"}) + "\n"
            for i in range(MAP_MINIMUM + 500))
        answer = server.session.post(
            server.url + "/api/import", data=body, headers={"content-type": "application/x-ndjson"},
            timeout=300)
        if answer.status_code != 200:
            failures.append(f"big import: {answer.status_code} {answer.text[:300]}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    threads.append(threading.Thread(target=big_import))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not any(thread.is_alive() for thread in threads)
    assert failures == []
    assert "failed" not in server.log_text()
    # The map was made, and the writes after it still work.
    assert write(server, 9, 0)
    assert server.stop() == 0
    checked = run_ftsearch("check", "--db", database, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
