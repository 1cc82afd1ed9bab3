"""The Meilisearch-compatible API, driven by Meilisearch's official Python SDK (PyPI
`meilisearch`), which nobody here wrote: its search results must equal `ftsearch query --format
json` for the same text and options. Raw HTTP checks the error shapes the SDK hides."""

import json
import math

import meilisearch
import pytest
import requests
from meilisearch.errors import MeilisearchApiError

from conftest import run_ftsearch

ERROR_KEYS = {"message", "code", "type", "link"}


@pytest.fixture
def client(server):
    return meilisearch.Client(server.url)


def cli_query(database, text, *options):
    """What `ftsearch query --format json` finds: (ids, total, fields by id)."""
    answer = json.loads(run_ftsearch("query", text, "--db", database, "--format", "json", *options).stdout)
    return [r["id"] for r in answer["results"]], answer["total"], {r["id"]: r["fields"] for r in answer["results"]}


def meili_error(response, status, code):
    """The Meilisearch error object of `response`, checked."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == ERROR_KEYS, body
    assert body["code"] == code, body
    assert body["link"] == f"https://docs.meilisearch.com/errors#{code}"
    assert body["message"]
    return body


def sdk_error(call, code):
    with pytest.raises(MeilisearchApiError) as raised:
        call()
    assert raised.value.code == code, raised.value
    return raised.value


def test_health_version_and_is_healthy(client):
    assert client.health() == {"status": "available"}
    assert client.is_healthy()
    version = client.get_version()
    assert version["pkgVersion"] == run_ftsearch("--version").stdout.strip()
    assert set(version) == {"pkgVersion", "commitSha", "commitDate"}


SEARCHES = [
    ("ann", "people", {}, ["--kind", "people"]),
    ("ann", "people", {"limit": 3, "offset": 2}, ["--kind", "people", "--limit", "3", "--offset", "2"]),
    ("", "animals", {}, ["--kind", "animals"]),
    ("", "people", {"limit": 5}, ["--kind", "people", "--limit", "5"]),
    ("smith", "people", {"attributesToSearchOn": ["company"]}, ["--kind", "people", "--fields", "company"]),
    ("nna", "people", {"ftsearchMatch": "substring"}, ["--kind", "people", "--match", "substring"]),
    ("smiht", "people", {"ftsearchMatch": "fuzzy"}, ["--kind", "people", "--match", "fuzzy"]),
    ("ann", "people", {"ftsearchMatch": "exact"}, ["--kind", "people", "--match", "exact"]),
    ("zoe", "animals", {"matchingStrategy": "all"}, ["--kind", "animals"]),
    ("ZOË ødeg", "people", {"matchingStrategy": "all"}, ["--kind", "people"]),
]


@pytest.mark.parametrize("text,index,options,cli_options", SEARCHES)
def test_search_equals_query_json(client, database, text, index, options, cli_options):
    result = client.index(index).search(text, options)
    ids, total, fields = cli_query(database, text, *cli_options)
    assert [int(hit["id"]) for hit in result["hits"]] == ids
    assert result["estimatedTotalHits"] == total
    assert result["query"] == text
    assert result["limit"] == options.get("limit", 20) and result["offset"] == options.get("offset", 0)
    assert isinstance(result["processingTimeMs"], int)
    for hit in result["hits"]:
        # The hit is the export document: the id as a string, the fields at the top level, then
        # the record's timestamps (which query's "fields" leave out).
        assert isinstance(hit["id"], str)
        assert list(hit)[-2:] == ["created_at", "updated_at"]
        assert {k: v for k, v in hit.items() if k not in ("id", "created_at", "updated_at")} == \
            fields[int(hit["id"])]


def test_get_search_equals_post(server, client):
    posted = client.index("people").search("ann", {"limit": 2, "attributesToRetrieve": ["first_name"]})
    got = server.get("/indexes/people/search", params={"q": "ann", "limit": "2", "attributesToRetrieve": "first_name"}).json()
    assert got["hits"] == posted["hits"] and posted["hits"][0] == {"first_name": "Ann"}
    assert got["estimatedTotalHits"] == posted["estimatedTotalHits"]


def test_pages(client, database):
    result = client.index("people").search("ann", {"page": 2, "hitsPerPage": 3})
    ids, total, _ = cli_query(database, "ann", "--kind", "people", "--limit", "3", "--offset", "3")
    assert [int(hit["id"]) for hit in result["hits"]] == ids
    assert result["totalHits"] == total and result["totalPages"] == math.ceil(total / 3)
    assert result["page"] == 2 and result["hitsPerPage"] == 3
    assert "limit" not in result and "offset" not in result and "estimatedTotalHits" not in result


def test_attributes_to_retrieve(client):
    hits = client.index("people").search("ann", {"attributesToRetrieve": ["first_name", "age"]})["hits"]
    assert hits and all(set(hit) <= {"first_name", "age"} and "first_name" in hit for hit in hits)
    assert hits[0] == {"first_name": "Ann", "age": 34}


def test_highlight_with_tags_folds_accents(client):
    hits = client.index("people").search("müll", {
        "attributesToHighlight": ["*"], "highlightPreTag": "<b>", "highlightPostTag": "</b>"})["hits"]
    assert hits[0]["_formatted"]["last_name"] == "<b>Müll</b>er"
    assert hits[0]["_formatted"]["company"] == "<b>Müll</b>er-Lüdenscheid GmbH"
    assert hits[0]["last_name"] == "Müller"
    default = client.index("people").search("ann", {"attributesToHighlight": ["first_name"]})["hits"][0]
    assert default["_formatted"]["first_name"] == "<em>Ann</em>"
    assert default["_formatted"]["company"] == "Annex Ltd"  # not asked for


def test_crop_around_the_match(client):
    index = client.index("people")
    task = index.add_documents([{"id": 50, "first_name": "Kim", "last_name": "Park",
                                 "company": "The Very Long Company Name Of Zanzibar Exports And Imports Worldwide"}])
    assert client.wait_for_task(task.task_uid).status == "succeeded"
    hit = index.search("zanzi", {"attributesToCrop": ["company"], "cropLength": 3})["hits"][0]
    assert hit["_formatted"]["company"] == "…Of Zanzibar Exports…"
    hit = index.search("zanzi", {"attributesToCrop": ["company:2"], "cropMarker": "[..]",
                                 "attributesToHighlight": ["company"]})["hits"][0]
    assert hit["_formatted"]["company"] == "[..]<em>Zanzi</em>bar Exports[..]"
    short = index.search("kim", {"attributesToCrop": ["first_name"]})["hits"][0]
    assert short["_formatted"]["first_name"] == "Kim"


def test_matches_position_in_bytes(client):
    hit = client.index("people").search("müll", {"showMatchesPosition": True})["hits"][0]
    assert hit["_matchesPosition"]["last_name"] == [{"start": 0, "length": 5}]
    assert hit["_matchesPosition"]["company"] == [{"start": 0, "length": 5}]
    assert "_matchesPosition" not in client.index("people").search("müll")["hits"][0]


def test_ranking_score_is_0_to_1_in_rank_order(client):
    hits = client.index("people").search("ann", {"showRankingScore": True})["hits"]
    scores = [hit["_rankingScore"] for hit in hits]
    assert len(scores) > 3 and all(0 <= s <= 1 for s in scores)
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1]
    listed = client.index("animals").search("", {"showRankingScore": True})["hits"]
    assert {hit["_rankingScore"] for hit in listed} == {1}


def test_matching_strategy_last_drops_words_from_the_end(client, database):
    """Meilisearch's default: every word first, then all but the last word, and so on."""
    index = client.index("people")
    assert index.search("ann zzzz", {"matchingStrategy": "all"})["hits"] == []
    ids, total, _ = cli_query(database, "ann", "--kind", "people")
    for options in ({}, {"matchingStrategy": "last"}):
        result = index.search("ann zzzz", options)
        assert [int(h["id"]) for h in result["hits"]] == ids and result["estimatedTotalHits"] == total
    # Those that match both words rank before those that match the first alone.
    both, _, _ = cli_query(database, "ann smith", "--kind", "people")
    first, total, _ = cli_query(database, "ann", "--kind", "people", "--limit", "100")
    expected = both + [i for i in first if i not in both]
    result = index.search("ann smith", {"showRankingScore": True})
    assert [int(h["id"]) for h in result["hits"]] == expected[:20] and result["estimatedTotalHits"] == total
    scores = [h["_rankingScore"] for h in result["hits"]]
    assert scores == sorted(scores, reverse=True) and scores[len(both) - 1] > scores[len(both)]
    paged = index.search("ann smith", {"offset": len(both) - 1, "limit": 2})["hits"]
    assert [int(h["id"]) for h in paged] == expected[len(both) - 1:len(both) + 1]
    sdk_error(lambda: index.search("ann", {"matchingStrategy": "most"}), "invalid_search_matching_strategy")


def test_did_you_mean_is_an_extra_field(client):
    result = client.index("people").search("smiht")
    assert result["hits"] == [] and result["didYouMean"] == "smith"
    assert "didYouMean" not in client.index("people").search("smith")


def test_multi_search_answers_in_order(client, database):
    answer = client.multi_search([
        {"indexUid": "animals", "q": "zo"},
        {"indexUid": "people", "q": "ann", "limit": 2},
    ])
    assert [r["indexUid"] for r in answer["results"]] == ["animals", "people"]
    assert [int(h["id"]) for h in answer["results"][0]["hits"]] == cli_query(database, "zo", "--kind", "animals")[0]
    assert [int(h["id"]) for h in answer["results"][1]["hits"]] == cli_query(database, "ann", "--kind", "people", "--limit", "2")[0]
    sdk_error(lambda: client.multi_search([{"indexUid": "plants", "q": "x"}]), "index_not_found")


def test_documents_added_updated_replaced_and_deleted(client, database):
    index = client.index("people")
    task = client.wait_for_task(index.add_documents([
        {"id": 100, "first_name": "Ann", "last_name": "Newcomer", "company": "Acme", "city": "Lyon"}]).task_uid)
    assert task.status == "succeeded" and task.type == "documentAdditionOrUpdate"
    assert task.details == {"receivedDocuments": 1, "indexedDocuments": 1}
    assert index.get_document(100).first_name == "Ann"
    assert [h["id"] for h in index.search("newcomer")["hits"]] == ["100"] == [
        str(i) for i in cli_query(database, "newcomer", "--kind", "people")[0]]

    client.wait_for_task(index.update_documents([{"id": "100", "company": "Globex"}]).task_uid)
    document = index.get_document("100")
    assert (document.first_name, document.company, document.city) == ("Ann", "Globex", "Lyon")

    client.wait_for_task(index.add_documents([{"id": 100, "first_name": "Bea", "last_name": "Newcomer"}]).task_uid)
    replaced = index.get_document(100, {"fields": ["first_name", "company", "city"]})
    assert (replaced.first_name, replaced.company) == ("Bea", "")
    with pytest.raises(AttributeError):
        replaced.city

    task = client.wait_for_task(index.delete_document(100).task_uid)
    assert task.status == "succeeded" and task.details["deletedDocuments"] == 1
    sdk_error(lambda: index.get_document(100), "document_not_found")

    task = client.wait_for_task(index.delete_documents([1, "2", 99999]).task_uid)
    assert task.details == {"providedIds": 3, "deletedDocuments": 2}
    assert index.get_documents().total == 10

    task = client.wait_for_task(index.delete_all_documents().task_uid)
    assert task.details["deletedDocuments"] == 10
    assert index.get_documents().total == 0
    assert client.index("animals").get_documents().total == 5


def test_documents_as_ndjson_and_csv(client):
    index = client.index("animals")
    task = client.wait_for_task(index.add_documents_ndjson(
        '{"id": 40, "name": "Biscuit", "species": "dog"}\n{"id": 41, "name": "Whiskers"}\n'.encode()).task_uid)
    assert task.status == "succeeded" and task.details["receivedDocuments"] == 2
    task = client.wait_for_task(index.add_documents_csv("id,name,species\n42,Bramble,hedgehog\n".encode()).task_uid)
    assert task.status == "succeeded"
    assert [h["name"] for h in index.search("b")["hits"]] == ["Biscuit", "Bramble"]
    assert index.get_document(42).species == "hedgehog"


def test_bad_documents_fail_their_task(client):
    index = client.index("people")
    failed = client.wait_for_task(index.add_documents([{"first_name": "No", "last_name": "Id"}]).task_uid)
    assert failed.status == "failed" and failed.error["code"] == "missing_document_id"
    assert set(failed.error) == ERROR_KEYS
    failed = client.wait_for_task(index.add_documents([{"id": "abc", "first_name": "X"}]).task_uid)
    assert failed.error["code"] == "invalid_document_id"
    failed = client.wait_for_task(index.add_documents([{"id": 70, "first_name": "Ok"}, {"id": 71, "company": "no name"}]).task_uid)
    assert failed.status == "failed" and failed.error["code"] == "invalid_document_fields"
    sdk_error(lambda: index.get_document(70), "document_not_found")  # all or nothing


def test_get_documents_and_fetch(client):
    index = client.index("people")
    page = index.get_documents({"limit": 2, "offset": 1})
    assert [d.id for d in page.results] == ["2", "3"] and page.total == 12
    assert (page.limit, page.offset) == (2, 1)
    named = index.get_documents({"fields": ["first_name"], "limit": 1})
    assert named.results[0].first_name == "Ann"
    with pytest.raises(AttributeError):
        named.results[0].company


def test_stats_and_indexes(client):
    stats = client.get_all_stats()
    assert stats["indexes"]["people"]["numberOfDocuments"] == 12
    assert stats["indexes"]["animals"]["numberOfDocuments"] == 5
    assert stats["databaseSize"] > 0
    people = client.index("people").get_stats()
    assert people.number_of_documents == 12 and people.is_indexing is False
    assert people.field_distribution.first_name == 12 and people.field_distribution.email == 1
    assert sorted(i.uid for i in client.get_indexes()["results"]) == ["animals", "people"]
    assert client.get_index("people").primary_key == "id"
    sdk_error(lambda: client.get_index("dogs"), "index_not_found")
    sdk_error(lambda: client.create_index("dogs"), "invalid_index_uid")


def test_tasks_are_listed_and_survive_a_restart(start_server, database):
    first = start_server()
    client = meilisearch.Client(first.url)
    uid = client.index("animals").add_documents([{"id": 60, "name": "Pip"}]).task_uid
    assert client.get_task(uid).status == "succeeded"
    listed = client.get_tasks()
    assert listed.results[0].uid == uid and listed.total >= 1
    first.stop()
    second = start_server()
    client = meilisearch.Client(second.url)
    assert client.get_task(uid).status == "succeeded"
    later = client.index("animals").delete_document(60).task_uid
    assert later > uid
    assert [t.uid for t in client.get_tasks({"indexUids": ["animals"]}).results][:2] == [later, uid]
    assert client.get_tasks({"types": ["documentDeletion"]}).results[0].uid == later
    sdk_error(lambda: client.get_task(later + 1000), "task_not_found")


def test_keys(start_server):
    server = start_server("--api-key", "s3cret")
    assert meilisearch.Client(server.url).health() == {"status": "available"}
    sdk_error(lambda: meilisearch.Client(server.url).index("people").search("ann"), "invalid_api_key")
    sdk_error(lambda: meilisearch.Client(server.url, "wrong").get_version(), "invalid_api_key")
    keyed = meilisearch.Client(server.url, "s3cret")
    assert keyed.index("people").search("ann")["hits"]
    assert keyed.wait_for_task(keyed.index("people").delete_document(1).task_uid).status == "succeeded"
    missing = meili_error(requests.get(server.url + "/indexes", timeout=10), 401, "missing_authorization_header")
    assert missing["type"] == "auth"
    meili_error(requests.get(server.url + "/indexes", headers={"Authorization": "Bearer nope"}, timeout=10), 403,
                "invalid_api_key")
    # The native API keeps its own rule: reading needs no key.
    assert requests.get(server.url + "/api/search", params={"q": "ann"}, timeout=10).status_code == 200


def test_without_a_key_authorization_is_ignored(server):
    assert meilisearch.Client(server.url, "anything").index("people").search("ann")["hits"]


@pytest.mark.parametrize("body,code", [
    ({"limit": "x"}, "invalid_search_limit"),
    ({"offset": -1}, "invalid_search_offset"),
    ({"q": 3}, "invalid_search_q"),
    ({"page": -1}, "invalid_search_page"),
    ({"hitsPerPage": "x"}, "invalid_search_hits_per_page"),
    ({"attributesToRetrieve": "name"}, "invalid_search_attributes_to_retrieve"),
    ({"showRankingScore": "yes"}, "invalid_search_show_ranking_score"),
    ({"attributesToSearchOn": ["email"]}, "invalid_search_attributes_to_search_on"),
    ({"filter": "age >"}, "invalid_search_filter"),
    ({"filter": 3}, "invalid_search_filter"),
    ({"sort": ["age"]}, "invalid_search_sort"),
    ({"sort": "age:asc"}, "invalid_search_sort"),
    ({"facets": "company"}, "invalid_search_facets"),
    ({"distinct": "company"}, "invalid_search_distinct"),
    ({"ftsearchMatch": "regex"}, "invalid_search_ftsearch_match"),
    ({"bogus": 1}, "bad_request"),
])
def test_search_errors(server, body, code):
    error = meili_error(server.post("/indexes/people/search", json={"q": "ann", **body}), 400, code)
    assert error["type"] == "invalid_request"


def test_empty_unsupported_parameters_are_accepted(server):
    answer = server.post("/indexes/people/search", json={"q": "ann", "filter": None, "facets": [], "sort": []})
    assert answer.status_code == 200, answer.text


def test_error_shapes(server):
    assert "Supported search parameters" in meili_error(
        server.post("/indexes/people/search", json={"distinct": "company"}), 400, "invalid_search_distinct")["message"]
    meili_error(server.post("/indexes/plants/search", json={"q": "x"}), 404, "index_not_found")
    meili_error(server.get("/indexes/plants/documents"), 404, "index_not_found")
    meili_error(server.post("/indexes/people/documents", data=b"[]"), 415, "invalid_content_type")
    meili_error(server.post("/indexes/people/documents", data=b"", headers={"Content-Type": "application/json"}),
                400, "missing_payload")
    meili_error(server.post("/indexes/people/documents", data=b'[{"id": 1,',
                            headers={"Content-Type": "application/json"}), 400, "malformed_payload")
    meili_error(server.delete("/indexes/people/documents/abc"), 400, "invalid_document_id")
    meili_error(server.get("/indexes/people/documents/99999"), 404, "document_not_found")
    meili_error(server.get("/tasks/424242"), 404, "task_not_found")
    settings = meili_error(server.get("/indexes/people/settings/ranking-rules"), 400, "bad_request")
    assert "/indexes/{uid}/search" in settings["message"]
    meili_error(server.get("/keys"), 400, "bad_request")
    meili_error(server.get("/indexes/people/facet-search"), 405, "bad_request")
    meili_error(server.get("/indexes/people/no/such/route"), 400, "bad_request")
    meili_error(server.request("PATCH", "/multi-search"), 405, "bad_request")
    meili_error(server.post("/indexes/people/documents/delete", json={"filter": "id ="}), 400,
                "invalid_document_filter")
    meili_error(server.post("/multi-search", json={"queries": [{"q": "ann"}]}), 400, "missing_index_uid")
    meili_error(server.post("/multi-search", json={"queries": [], "federation": {"facetsByIndex": {"people": []}}}),
                400, "invalid_multi_search_federation")
    # The native API keeps its own error shape beside these routes.
    assert set(server.get("/api/people/99999").json()) == {"error"}


def test_a_front_end_on_another_origin_with_a_key(start_server):
    """What instant-meilisearch does from a page: a preflight, then keyed searches and writes."""
    server = start_server("--cors-origin", "http://app.test", "--api-key", "s3cret")
    preflight = requests.options(server.url + "/multi-search", headers={
        "Origin": "http://app.test", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"}, timeout=10)
    assert preflight.status_code in (200, 204)
    assert "PUT" in preflight.headers["access-control-allow-methods"]
    answer = requests.post(server.url + "/multi-search", json={"queries": [{"indexUid": "people", "q": "ann"}]},
                           headers={"Origin": "http://app.test", "Authorization": "Bearer s3cret"}, timeout=10)
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "http://app.test"
    assert answer.json()["results"][0]["hits"]
