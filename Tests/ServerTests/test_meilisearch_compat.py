"""What Meilisearch's clients send that its own server accepts, answered as Meilisearch answers
it: null for an optional parameter, page 0, customMetadata on tasks, compressed bodies, the tasks
filters and their deletion, CSV delimiters, documents by id, index stats and times, index
creation and deletion as tasks, Meilisearch's words rule and phrases. Each test was written
against the server before these were supported, and failed there."""

import gzip
import json
import zlib

import meilisearch
import meilisearch_python_sdk
import pytest
import requests

from test_meilisearch import cli_query, meili_error


@pytest.fixture
def client(server):
    return meilisearch.Client(server.url)


def ids(hits):
    return [int(hit["id"]) for hit in hits]


def task(server, receipt):
    assert receipt.status_code == 202, receipt.text
    return server.get(f"/tasks/{receipt.json()['taskUid']}").json()


def test_null_page_and_hits_per_page_are_unset(server, database):
    answer = server.post("/indexes/people/search", json={"q": "ann", "page": None, "hitsPerPage": None})
    assert answer.status_code == 200, answer.text
    assert answer.json()["limit"] == 20 and "page" not in answer.json()
    # meilisearch-python-sdk sends both as null on every search.
    with meilisearch_python_sdk.Client(server.url) as sdk:
        result = sdk.index("people").search("ann", limit=3)
    assert ids(result.hits) == cli_query(database, "ann", "--kind", "people", "--limit", "3")[0]
    assert result.estimated_total_hits == cli_query(database, "ann", "--kind", "people")[1]


def test_page_zero_is_an_empty_page(server, database):
    answer = server.post("/indexes/people/search", json={"q": "ann", "page": 0, "hitsPerPage": 2}).json()
    total = cli_query(database, "ann", "--kind", "people")[1]
    assert answer["hits"] == [] and answer["page"] == 0
    assert answer["totalHits"] == total and answer["totalPages"] == (total + 1) // 2


def test_custom_metadata_is_carried_on_tasks(client):
    index = client.index("animals")
    info = index.add_documents([{"id": 80, "name": "Tux"}], metadata="import #7")
    assert client.get_task(info.task_uid).custom_metadata == "import #7"
    info = index.delete_document(80, metadata="cleanup")
    assert client.get_task(info.task_uid).custom_metadata == "cleanup"
    info = index.delete_documents([1, 2], metadata="batch")
    assert client.get_task(info.task_uid).custom_metadata == "batch"
    info = index.update_documents([{"id": 81, "name": "Pip"}])
    assert client.get_task(info.task_uid).custom_metadata is None


@pytest.mark.parametrize("encoding,compress", [
    ("gzip", gzip.compress), ("deflate", zlib.compress)])
def test_compressed_bodies_are_decoded(server, encoding, compress):
    body = compress(json.dumps([{"id": 90, "name": "Squeezy", "species": "snake"}]).encode())
    written = task(server, server.post("/indexes/animals/documents", data=body, headers={
        "Content-Type": "application/json", "Content-Encoding": encoding}))
    assert written["status"] == "succeeded", written
    search = server.post("/indexes/animals/search", data=compress(b'{"q": "squeez"}'), headers={
        "Content-Type": "application/json", "Content-Encoding": encoding})
    assert ids(search.json()["hits"]) == [90]


def test_other_encodings_are_refused(server):
    meili_error(server.post("/indexes/animals/search", data=b"\x0b\x07\x80", headers={
        "Content-Type": "application/json", "Content-Encoding": "br"}), 415, "invalid_content_type")


def test_tasks_filters(server, client):
    index = client.index("animals")
    first = index.add_documents([{"id": 61, "name": "A"}]).task_uid
    middle = client.get_task(first).finished_at
    second = index.delete_document(61).task_uid
    assert [t.uid for t in client.get_tasks({"reverse": "true"}).results][-2:] == [first, second]
    assert [t.uid for t in client.get_tasks({"batchUids": [str(second)]}).results] == [second]
    stamp = middle.isoformat().replace("+00:00", "Z")
    after = [t.uid for t in client.get_tasks({"afterFinishedAt": stamp}).results]
    assert second in after and first not in after
    before = [t.uid for t in client.get_tasks({"beforeEnqueuedAt": stamp}).results]
    assert first in before and second not in before
    assert client.get_tasks({"afterEnqueuedAt": "2999-01-01"}).results == []
    meili_error(server.get("/tasks", params={"reverse": "maybe"}), 400, "invalid_task_reverse")
    meili_error(server.get("/tasks", params={"beforeStartedAt": "yesterday"}), 400,
                "invalid_task_before_started_at")
    meili_error(server.get("/tasks", params={"statuses": "done"}), 400, "invalid_task_statuses")
    meili_error(server.get("/tasks", params={"bogus": "1"}), 400, "bad_request")


def test_delete_tasks_with_filters(server, client):
    index = client.index("animals")
    kept = index.add_documents([{"id": 62, "name": "Kept"}]).task_uid
    gone = index.delete_document(62).task_uid
    meili_error(server.delete("/tasks"), 400, "missing_task_filters")
    deletion = client.wait_for_task(client.delete_tasks({"types": ["documentDeletion"]}).task_uid)
    assert deletion.status == "succeeded" and deletion.type == "taskDeletion"
    assert deletion.details["deletedTasks"] >= 1
    assert deletion.details["originalFilter"] == "?types=documentDeletion"
    meili_error(server.get(f"/tasks/{gone}"), 404, "task_not_found")
    assert client.get_task(kept).status == "succeeded"
    assert deletion.uid > gone
    cancel = client.wait_for_task(client.cancel_tasks({"statuses": ["enqueued"]}).task_uid)
    assert cancel.type == "taskCancelation" and cancel.details["canceledTasks"] == 0


def test_skip_creation_and_csv_delimiter(server, client):
    index = client.index("animals")
    # skipCreation: documents not in the index are left out; those in it are written.
    info = index.update_documents([{"id": 63, "name": "Skip"}, {"id": 1, "name": "Annie B"}], skip_creation=True)
    written = client.get_task(info.task_uid)
    assert written.status == "succeeded" and written.details == {"receivedDocuments": 2, "indexedDocuments": 1}
    assert index.get_document(1).name == "Annie B" and index.get_document(1).species == "cat"
    with pytest.raises(meilisearch.errors.MeilisearchApiError):
        index.get_document(63)
    meili_error(server.post("/indexes/animals/documents", params={"skipCreation": "perhaps"},
                            json=[{"id": 64, "name": "X"}]), 400, "invalid_skip_creation")
    body = 'id;name;species\n64;"Dot; the ""cat""";cat\n65;Comma, Jr.;dog\n'.encode()
    info = index.add_documents_csv(body, csv_delimiter=";")
    assert client.get_task(info.task_uid).status == "succeeded"
    assert index.get_document(64).name == 'Dot; the "cat"'
    assert (index.get_document(65).name, index.get_document(65).species) == ("Comma, Jr.", "dog")
    meili_error(server.post("/indexes/animals/documents", params={"csvDelimiter": ";;"}, data=body,
                            headers={"Content-Type": "text/csv"}), 400, "invalid_document_csv_delimiter")
    meili_error(server.post("/indexes/animals/documents", params={"csvDelimiter": ";"},
                            json=[{"id": 66, "name": "J"}]), 400, "invalid_document_csv_delimiter")


def test_documents_by_ids(server):
    fetched = server.post("/indexes/people/documents/fetch", json={"ids": ["7", 3, 999], "fields": ["id"]})
    assert fetched.json() == {"results": [{"id": "3"}, {"id": "7"}], "offset": 0, "limit": 20, "total": 2}
    got = server.get("/indexes/people/documents", params={"ids": "5,1", "fields": "first_name"}).json()
    assert got["results"] == [{"first_name": "Ann"}, {"first_name": "Zoë"}]
    meili_error(server.post("/indexes/people/documents/fetch", json={"ids": ["x"]}), 400,
                "invalid_document_ids")


def test_index_stats_fields(server, client):
    stats = client.index("people").get_stats()
    assert stats.number_of_documents == 12
    raw = server.get("/indexes/people/stats").json()
    assert raw["indexSize"] > 0 and 0 < raw["usedIndexSize"] <= raw["indexSize"]
    assert raw["rawDocumentDbSize"] > 0 and raw["avgDocumentSize"] == raw["rawDocumentDbSize"] // 12
    assert "internalDatabaseSizes" not in raw
    shown = server.get("/indexes/people/stats", params={"showInternalDatabaseSizes": "true"}).json()
    assert sum(shown["internalDatabaseSizes"].values()) == shown["indexSize"]
    assert "people" in shown["internalDatabaseSizes"]
    human = server.get("/stats", params={"sizeFormat": "human"}).json()
    assert human["databaseSize"].endswith("KiB") or human["databaseSize"].endswith("MiB")
    for path in ("/indexes/people/stats", "/stats", "/indexes/people", "/version", "/tasks/0"):
        meili_error(server.get(path, params={"bogus": "1"}), 400, "bad_request")
    meili_error(server.get("/stats", params={"sizeFormat": "tiny"}), 400, "invalid_stats_size_format")


def test_an_empty_index_has_times(server, client):
    client.wait_for_task(client.index("animals").delete_all_documents().task_uid)
    index = server.get("/indexes/animals").json()
    assert index["createdAt"] and index["updatedAt"] and index["createdAt"] <= index["updatedAt"]
    with meilisearch_python_sdk.Client(server.url) as sdk:
        assert sdk.get_index("animals").created_at is not None


def test_index_creation_update_and_deletion_are_tasks(server, client):
    created = task(server, server.post("/indexes", json={"uid": "people", "primaryKey": "id"}))
    assert created["status"] == "failed" and created["error"]["code"] == "index_already_exists"
    deleted = client.wait_for_task(client.index("people").delete().task_uid)
    assert deleted.status == "failed" and deleted.type == "indexDeletion"
    assert client.index("people").get_stats().number_of_documents == 12
    updated = client.wait_for_task(client.index("people").update(primary_key="id").task_uid)
    assert updated.status == "succeeded"
    refused = client.wait_for_task(client.index("people").update(primary_key="uuid").task_uid)
    assert refused.error["code"] == "index_primary_key_already_exists"


@pytest.mark.parametrize("path", ["/webhooks", "/webhooks/abc", "/dynamic-search-rules", "/render-template",
                                  "/tasks/1/documents", "/multi-search/x", "/stats/x", "/version/x"])
def test_meilisearch_routes_answer_its_error_shape(server, path):
    meili_error(server.get(path), 400, "bad_request")


def test_phrases_are_kept(server, database):
    def search(q, **options):
        return ids(server.post("/indexes/people/search", json={"q": q, **options}).json()["hits"])
    # A phrase's words are whole words, one after the other, in one field.
    assert search('"annex ltd"') == cli_query(database, "annex ltd", "--kind", "people", "--match", "exact")[0]
    assert search('"ltd annex"') == []
    assert search('"ann"') == cli_query(database, "ann", "--kind", "people", "--match", "exact")[0]
    # The words rule drops words, never phrases: only those with "smith & sons" remain.
    assert search('zzzz "smith & sons"') == [5]
    assert search('"smith & sons" zzzz', matchingStrategy="all") == []
    # A quote left open runs to the end.
    assert search('zzzz "united nat') == []
    assert search('zzzz "united nations') == [12]


def test_every_text_field_is_highlighted_and_cropped(server):
    """As in Meilisearch, whose fields are all searchable by default; positions stay with the
    fields the search matched in."""
    hit = server.post("/indexes/animals/search", json={
        "q": "zoe", "attributesToHighlight": ["*"], "showMatchesPosition": True}).json()["hits"][0]
    assert hit["_formatted"]["name"] == "<em>Zoë</em>"
    assert hit["_formatted"]["owner"] == "<em>Zoë</em> Ødegaard"
    assert set(hit["_matchesPosition"]) == {"name"}


def test_matching_strategy_frequency_drops_the_commonest_word_first(server, database):
    both = cli_query(database, "ann smith", "--kind", "people")[0]
    smith, total, _ = cli_query(database, "smith", "--kind", "people")
    assert len(cli_query(database, "ann", "--kind", "people")[0]) > total  # ann is commoner
    answer = server.post("/indexes/people/search", json={"q": "ann smith", "matchingStrategy": "frequency"}).json()
    assert ids(answer["hits"]) == both + [i for i in smith if i not in both]
    assert answer["estimatedTotalHits"] == total


def test_locales_are_accepted_and_checked(server):
    plain = server.post("/indexes/people/search", json={"q": "zoe"}).json()["hits"]
    assert server.post("/indexes/people/search", json={"q": "zoe", "locales": ["nor", "eng"]}).json()["hits"] == plain
    assert server.get("/indexes/people/search", params={"q": "zoe", "locales": "nor"}).json()["hits"] == plain
    meili_error(server.post("/indexes/people/search", json={"q": "zoe", "locales": "nor"}), 400,
                "invalid_search_locales")


def test_federated_multi_search_merges_by_weighted_score(server, client):
    queries = [{"indexUid": "people", "q": "ann"},
               {"indexUid": "animals", "q": "zo", "federationOptions": {"weight": 2}}]
    separate = client.multi_search([{**q, "showRankingScore": True} for q in
                                    [{"indexUid": "people", "q": "ann"}, {"indexUid": "animals", "q": "zo"}]])
    expected = sorted(
        [(h["_rankingScore"] * weight, position, h["id"]) for position, (result, weight) in
         enumerate(zip(separate["results"], (1, 2))) for h in result["hits"]],
        key=lambda entry: (-entry[0], entry[1]))
    merged = client.multi_search(queries, {"limit": 4, "offset": 1})
    assert "results" not in merged and (merged["limit"], merged["offset"]) == (4, 1)
    assert [(h["_federation"]["queriesPosition"], h["id"]) for h in merged["hits"]] == \
        [(position, id) for _, position, id in expected[1:5]]
    assert merged["estimatedTotalHits"] == sum(r["estimatedTotalHits"] for r in separate["results"])
    first = merged["hits"][0]["_federation"]
    assert first["indexUid"] in ("people", "animals") and first["weightedRankingScore"] > 0
    assert "_rankingScore" not in merged["hits"][0]
    meili_error(server.post("/multi-search", json={"federation": {}, "queries": [{"indexUid": "people", "q": "a", "limit": 2}]}),
                400, "invalid_multi_search_query_pagination")


def test_a_body_that_does_not_decompress_is_malformed(server):
    meili_error(server.post("/indexes/animals/search", data=b"not gzip at all", headers={
        "Content-Type": "application/json", "Content-Encoding": "gzip"}), 400, "malformed_payload")
    bomb = gzip.compress(b"[" + b" " * 5_000_000 + b"]")
    meili_error(server.post("/indexes/animals/documents", data=bomb, headers={
        "Content-Type": "application/json", "Content-Encoding": "gzip"}), 413, "payload_too_large")
