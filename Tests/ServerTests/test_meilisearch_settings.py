"""The settings routes of the Meilisearch-compatible API, as an app calls them before it
filters: each write is a task that has succeeded by the first poll, reads back, applies to
search, and survives a restart; raw HTTP checks the refusals."""

import meilisearch
import pytest

from test_meilisearch import meili_error

SUBSETTINGS = [
    # (route, method, value set, expected read-back, default)
    ("filterable-attributes", "PUT", ["company", "age"], ["company", "age"], []),
    ("sortable-attributes", "PUT", ["last_name"], ["last_name"], []),
    ("searchable-attributes", "PUT", ["last_name"], ["last_name"], ["*"]),
    ("displayed-attributes", "PUT", ["id", "first_name"], ["id", "first_name"], ["*"]),
    ("faceting", "PATCH", {"maxValuesPerFacet": 7},
     {"maxValuesPerFacet": 7, "sortFacetValuesBy": {"*": "alpha"}},
     {"maxValuesPerFacet": 100, "sortFacetValuesBy": {"*": "alpha"}}),
    ("pagination", "PATCH", {"maxTotalHits": 3}, {"maxTotalHits": 3}, {"maxTotalHits": 1000}),
]


def finished(server, receipt):
    """The task of a 202 receipt, which has finished by the first poll."""
    assert receipt.status_code == 202, receipt.text
    body = receipt.json()
    assert body["status"] == "enqueued" and body["type"] == "settingsUpdate"
    task = server.get(f"/tasks/{body['taskUid']}").json()
    assert task["status"] == "succeeded", task
    return task


@pytest.mark.parametrize("route,method,value,expected,default", SUBSETTINGS)
def test_each_setting_writes_reads_back_and_resets(server, route, method, value, expected, default):
    path = f"/indexes/people/settings/{route}"
    assert server.get(path).json() == default
    task = finished(server, server.request(method, path, json=value))
    assert list(task["details"].values()) == [expected]
    assert server.get(path).json() == expected
    assert server.get("/indexes/animals/settings/" + route).json() == default
    finished(server, server.delete(path))
    assert server.get(path).json() == default
    # null resets too, as in Meilisearch.
    finished(server, server.request(method, path, json=value))
    finished(server, server.request(method, path, data=b"null", headers={"Content-Type": "application/json"}))
    assert server.get(path).json() == default


def test_settings_object_patch_delete_and_restart(server, start_server):
    settings = server.get("/indexes/people/settings").json()
    assert settings["filterableAttributes"] == [] and settings["displayedAttributes"] == ["*"]
    assert settings["pagination"] == {"maxTotalHits": 1000} and settings["synonyms"] == {}
    finished(server, server.patch("/indexes/people/settings", json={
        "filterableAttributes": ["company"], "sortableAttributes": ["age"],
        "faceting": {"sortFacetValuesBy": {"company": "count"}}, "stopWords": []}))
    changed = server.get("/indexes/people/settings").json()
    assert changed["filterableAttributes"] == ["company"] and changed["sortableAttributes"] == ["age"]
    assert changed["faceting"] == {"maxValuesPerFacet": 100, "sortFacetValuesBy": {"*": "alpha", "company": "count"}}
    # They are kept beside the database: a new server reads them.
    server.stop()
    again = start_server()
    assert again.get("/indexes/people/settings").json() == changed
    assert again.get("/indexes/animals/settings/filterable-attributes").json() == []
    finished(again, again.delete("/indexes/people/settings"))
    assert again.get("/indexes/people/settings").json() == settings


def test_settings_apply_to_search(server):
    hits = lambda body: server.post("/indexes/people/search", json=body).json()
    finished(server, server.request("PUT", "/indexes/people/settings/displayed-attributes", json=["id", "last_name"]))
    assert all(set(hit) <= {"id", "last_name"} for hit in hits({"q": "ann"})["hits"])
    assert set(hits({"q": "ann", "attributesToRetrieve": ["id", "company"]})["hits"][0]) == {"id"}
    # Searchable attributes: "smith" is a last name and a company; only last names are searched.
    both = {h["id"] for h in hits({"q": "smith"})["hits"]}
    finished(server, server.request("PUT", "/indexes/people/settings/searchable-attributes", json=["last_name"]))
    only = {h["id"] for h in hits({"q": "smith"})["hits"]}
    assert only and only < both
    meili_error(server.post("/indexes/people/search", json={"q": "x", "attributesToSearchOn": ["company"]}),
                400, "invalid_search_attributes_to_search_on")
    # maxTotalHits: no hit lies past it, and the totals stop there.
    finished(server, server.patch("/indexes/people/settings/pagination", json={"maxTotalHits": 3}))
    answer = hits({"q": "", "limit": 10})
    assert len(answer["hits"]) == 3 and answer["estimatedTotalHits"] == 3
    paged = hits({"q": "", "hitsPerPage": 2, "page": 2})
    assert len(paged["hits"]) == 1 and paged["totalHits"] == 3 and paged["totalPages"] == 2


@pytest.mark.parametrize("method,path,body,status,code", [
    ("PUT", "/indexes/people/settings/filterable-attributes", "company", 400, "invalid_settings_filterable_attributes"),
    ("PUT", "/indexes/people/settings/sortable-attributes", [3], 400, "invalid_settings_sortable_attributes"),
    ("PUT", "/indexes/people/settings/searchable-attributes", ["email"], 400,
     "invalid_settings_searchable_attributes"),
    ("PATCH", "/indexes/people/settings/faceting", {"maxValuesPerFacet": -1}, 400, "invalid_settings_faceting"),
    ("PATCH", "/indexes/people/settings/faceting", {"sortFacetValuesBy": {"*": "random"}}, 400,
     "invalid_settings_faceting"),
    ("PATCH", "/indexes/people/settings/pagination", {"maxTotalHits": 0}, 400, "invalid_settings_pagination"),
    ("PATCH", "/indexes/people/settings/pagination", {"bogus": 1}, 400, "invalid_settings_pagination"),
    ("PATCH", "/indexes/people/settings", {"synonyms": {"a": ["b"]}}, 400, "invalid_settings_synonyms"),
    ("PATCH", "/indexes/people/settings", {"filterableAttributes": ["age"], "bogus": 1}, 400, "bad_request"),
    ("PUT", "/indexes/plants/settings/filterable-attributes", [], 404, "index_not_found"),
    ("PATCH", "/indexes/people/settings/filterable-attributes", [], 405, "bad_request"),
    ("GET", "/indexes/people/settings/ranking-rules", None, 400, "bad_request"),
])
def test_settings_refusals(server, method, path, body, status, code):
    meili_error(server.request(method, path, json=body), status, code)
    # A refused write changes nothing and makes no task.
    assert server.get("/indexes/people/settings").json()["filterableAttributes"] == []
    assert server.get("/tasks").json()["total"] == 0


def test_the_official_sdk_sets_and_waits(server):
    index = meilisearch.Client(server.url).index("people")
    task = index.update_filterable_attributes(["company", "tags"])
    assert index.wait_for_task(task.task_uid).status == "succeeded"
    assert index.get_filterable_attributes() == ["company", "tags"]
    task = index.update_settings({"sortableAttributes": ["last_name"], "pagination": {"maxTotalHits": 50}})
    index.wait_for_task(task.task_uid)
    settings = index.get_settings()
    assert settings["sortableAttributes"] == ["last_name"] and settings["pagination"] == {"maxTotalHits": 50}
    assert index.get_faceting_settings().max_values_per_facet == 100
    index.wait_for_task(index.reset_settings().task_uid)
    assert index.get_filterable_attributes() == []
