"""Filters, sort and facets through the Meilisearch-compatible API, driven as an app drives
them with both Python SDKs (`meilisearch` and `meilisearch-python-sdk`): set the filterable and
sortable attributes, wait for the task, then search with a filter (string and array form), a
sort and facets, and search facet values. The expected answers are computed here from the
fixture records; raw HTTP checks Meilisearch's error codes and messages."""

import json
import unicodedata

import meilisearch
import meilisearch_python_sdk
import pytest

from conftest import FIXTURES
from test_meilisearch import meili_error

PEOPLE = {record["id"]: record for record in json.loads((FIXTURES / "people.json").read_text())}
ANIMALS = json.loads((FIXTURES / "animals.json").read_text())


def fold(text):
    """Case and accents folded, as search, sort and text equality fold them (ø and ł too)."""
    text = unicodedata.normalize("NFKD", text.casefold()).translate(str.maketrans({"ø": "o", "ł": "l"}))
    return "".join(c for c in text if not unicodedata.combining(c))


def ids(hits):
    return [int(hit["id"]) for hit in hits]


@pytest.fixture
def official(server):
    index = meilisearch.Client(server.url).index("people")
    task = index.update_filterable_attributes(["company", "age", "tags", "address"])
    assert index.wait_for_task(task.task_uid).status == "succeeded"
    task = index.update_sortable_attributes(["last_name", "age"])
    assert index.wait_for_task(task.task_uid).status == "succeeded"
    return index


def test_official_sdk_filter_string_and_array(official):
    smiths = {i for i, r in PEOPLE.items() if fold(r["company"]) == fold("annex ltd")}
    assert set(ids(official.search("", {"filter": "company = 'ANNEX LTD'"})["hits"])) == smiths == {1, 7}
    # An array is AND of its elements; a nested array is OR.
    answer = official.search("", {"filter": [["age = 34", "tags = berlin"], "company != 'Annex Ltd'"]})
    assert ids(answer["hits"]) == [2]
    answer = official.search("", {"filter": [["age = 34", "tags = berlin"]]})
    assert sorted(ids(answer["hits"])) == [1, 2]
    # Nested fields by dotted path, allowed by their object's name.
    assert ids(official.search("", {"filter": "address.city = oslo"})["hits"]) == [5]
    # A text search with a filter keeps only the filtered matches.
    answer = official.search("mary", {"filter": "company = 'Annex Ltd'"})
    assert ids(answer["hits"]) == [7] and answer["estimatedTotalHits"] == 1
    assert official.search("mary", {"filter": "company = Renault"})["hits"] == []


def test_official_sdk_sort_and_facets(official):
    answer = official.search("", {"sort": ["last_name:desc"], "limit": 50})
    names = [hit["last_name"] for hit in answer["hits"]]
    assert names == sorted((r["last_name"] for r in PEOPLE.values()), key=fold, reverse=True)
    answer = official.search("", {"facets": ["company", "tags", "age"], "limit": 0})
    companies = {}
    for record in PEOPLE.values():
        companies[record["company"]] = companies.get(record["company"], 0) + 1
    assert answer["facetDistribution"]["company"] == companies
    # Meilisearch's default order of values: alphabetical, ignoring case.
    assert list(answer["facetDistribution"]["company"]) == sorted(companies, key=lambda v: (v.lower(), v))
    assert answer["facetDistribution"]["tags"] == {"berlin": 1, "founder": 1}
    assert answer["facetStats"] == {"age": {"min": 34, "max": 34}}
    hits = official.facet_search("company", "ann")
    assert hits["facetHits"] == [{"value": "Annex Ltd", "count": 2}] and hits["facetQuery"] == "ann"


def test_faceting_settings_order_and_cut_values(server, official):
    task = official.update_faceting_settings({"maxValuesPerFacet": 2, "sortFacetValuesBy": {"company": "count"}})
    official.wait_for_task(task.task_uid)
    distribution = official.search("", {"facets": ["company"]})["facetDistribution"]["company"]
    assert list(distribution.items())[0] == ("Annex Ltd", 2) and len(distribution) == 2


def test_python_sdk_as_an_app(server):
    client = meilisearch_python_sdk.Client(server.url)
    index = client.index("animals")
    client.wait_for_task(index.update_filterable_attributes(["species", "age"]).task_uid)
    client.wait_for_task(index.update_sortable_attributes(["name"]).task_uid)
    assert index.get_filterable_attributes() == ["species", "age"]
    answer = index.search("", filter=["species = cat"], sort=["name:asc"], facets=["species"])
    assert [hit["name"] for hit in answer.hits] == sorted(
        (a["name"] for a in ANIMALS if a["species"] == "cat"), key=fold)
    assert answer.facet_distribution == {"species": {"cat": 2}}
    everyone = index.search("", facets=["species", "age"])
    assert everyone.facet_distribution["species"] == {"cat": 2, "dog": 2, "horse": 1}
    assert everyone.facet_stats == {"age": {"min": 3, "max": 3}}
    hits = index.facet_search(None, facet_name="species", facet_query="d", filter="age NOT EXISTS")
    assert [(h.value, h.count) for h in hits.facet_hits] == [("dog", 2)]


@pytest.mark.parametrize("body,code,message", [
    ({"filter": "email = x"}, "invalid_search_filter",
     "Index `people`: Attribute `email` is not filterable. Available filterable attribute patterns are: "
     "`address`, `age`, `company`, `tags`.\n1:6 email = x"),
    ({"filter": ["company = x", ["vip = true"]]}, "invalid_search_filter",
     "Index `people`: Attribute `vip` is not filterable. Available filterable attribute patterns are: "
     "`address`, `age`, `company`, `tags`.\n1:4 vip = true"),
    ({"filter": "age >="}, "invalid_search_filter", None),
    ({"filter": [["age = 1", 2]]}, "invalid_search_filter", None),
    ({"sort": ["company:asc"]}, "invalid_search_sort",
     "Index `people`: Attribute `company` is not sortable. Available sortable attributes are: `age, last_name`."),
    ({"sort": ["age:up"]}, "invalid_search_sort", None),
    ({"facets": ["email"]}, "invalid_search_facets",
     "Index `people`: Invalid facet distribution: Pattern `email` is not filterable. Available filterable "
     "attributes patterns are: `address, age, company, tags`."),
])
def test_search_errors(server, official, body, code, message):
    error = meili_error(server.post("/indexes/people/search", json=body), 400, code)
    if message:
        assert error["message"] == message
    # A multi-search query answers the same error, placed.
    error = meili_error(server.post("/multi-search", json={"queries": [{"indexUid": "people", **body}]}), 400, code)
    assert error["message"].startswith("Inside `.queries[0]`: ")


def test_facet_search_errors(server, official):
    meili_error(server.post("/indexes/people/facet-search", json={"facetQuery": "a"}), 400,
                "missing_facet_search_facet_name")
    meili_error(server.post("/indexes/people/facet-search", json={"facetName": 3}), 400,
                "invalid_facet_search_facet_name")
    error = meili_error(server.post("/indexes/people/facet-search", json={"facetName": "email"}), 400,
                        "invalid_facet_search_facet_name")
    assert error["message"].startswith("Index `people`: Attribute `email` is not facet-searchable.")
    meili_error(server.post("/indexes/people/facet-search", json={"facetName": "company", "filter": "x ="}), 400,
                "invalid_search_filter")


def test_by_default_every_attribute_filters_and_sorts(server):
    """ftsearch's difference from Meilisearch: without settings, nothing is refused."""
    answer = server.post("/indexes/people/search", json={
        "filter": "vip = true OR email EXISTS", "sort": ["first_name:asc"], "facets": ["vip"]}).json()
    assert ids(answer["hits"]) == [1, 3]
    assert answer["facetDistribution"] == {"vip": {"true": 1}}
    answer = server.get("/indexes/people/search", params={"filter": "age 30 TO 40", "sort": "last_name:asc"}).json()
    assert ids(answer["hits"]) == [1]


def test_documents_by_filter_and_sort_and_deletion_by_filter(server, official):
    answer = official.get_documents({"filter": "company = 'Annex Ltd'", "fields": ["id", "last_name"]})
    assert [d.last_name for d in answer.results] == ["Smith", "Smith-Jones"] and answer.total == 2
    fetched = server.post("/indexes/people/documents/fetch", json={
        "filter": [["tags = berlin", "age = 34"]], "sort": ["age:desc"], "limit": 1}).json()
    assert [d["id"] for d in fetched["results"]] == ["1"] and fetched["total"] == 2
    listed = server.get("/indexes/people/documents", params={"sort": "last_name:desc", "limit": 2}).json()
    assert [d["last_name"] for d in listed["results"]] == ["Wiśniewski", "Smith-Jones"]
    meili_error(server.post("/indexes/people/documents/fetch", json={"filter": "email = x"}), 400,
                "invalid_document_filter")
    meili_error(server.post("/indexes/people/documents/fetch", json={"sort": ["first_name:asc"]}), 400,
                "invalid_document_sort")
    task = official.delete_documents(filter="company = 'Annex Ltd'")
    done = official.wait_for_task(task.task_uid)
    assert done.status == "succeeded" and done.details["deletedDocuments"] == 2
    assert official.get_documents({"filter": "company = 'Annex Ltd'"}).total == 0
    assert official.get_documents().total == len(PEOPLE) - 2
    meili_error(server.post("/indexes/people/documents/delete", json={}), 400, "missing_document_filter")
