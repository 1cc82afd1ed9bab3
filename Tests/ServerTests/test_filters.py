"""Filters, sort and facets in GET /api/search: the same answer as `ftsearch query
--format json`, and a malformed filter is 400 naming the problem and its column."""

import json

import pytest

from conftest import run_ftsearch
from test_api import error_of


def cli_json(database, *arguments):
    return json.loads(run_ftsearch("query", *arguments, "--db", database, "--format", "json").stdout)


@pytest.mark.parametrize("text, filter, sort, facets", [
    ("", "company = 'ANNEX LTD'", "", "company"),
    ("ann", "NOT company = 'Annex Ltd'", "last_name:desc", "company,tags"),
    ("", "age >= 30 OR tags IN [berlin] OR vip = true", "age:desc", "age,tags,vip"),
    ("", "address.city = oslo OR phone IS NULL", "", "address.city"),
    ("", "tags EXISTS AND tags IS NOT EMPTY", "first_name:asc", "tags"),
    ("zo", "email NOT EXISTS", "", "company"),
    ("", "nothing = 1", "", "company"),
])
def test_search_with_filter_sort_and_facets_answers_what_the_cli_prints(
        server, database, text, filter, sort, facets):
    params = {"q": text, "filter": filter, "facets": facets, "limit": 50}
    arguments = [text, "--filter", filter, "--facets", facets, "--limit", "50"]
    if sort:
        params["sort"] = sort
        arguments += ["--sort", sort]
    answer = server.get("/api/search", params=params)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    cli = cli_json(database, *arguments)
    assert body["total"] == cli["total"]
    assert [(r["kind"], r["id"]) for r in body["results"]] == [(r["kind"], r["id"]) for r in cli["results"]]
    assert body["facets"] == cli["facets"] and body["facet_stats"] == cli["facet_stats"]
    assert list(body["facets"]) == facets.split(",")


def test_facets_count_every_match_not_only_the_page(server):
    body = server.get("/api/search", params={"q": "", "facets": "company,age", "limit": 1}).json()
    assert len(body["results"]) == 1 and body["total"] == 17
    assert body["facets"]["company"]["Annex Ltd"] == 2
    assert sum(body["facets"]["company"].values()) == 12
    # Ann Smith is 34, Annie the cat 3.
    assert body["facet_stats"] == {"age": {"min": 3, "max": 34}}
    assert body["facets"]["age"] == {"3": 1, "34": 1}
    counts = list(body["facets"]["company"].values())
    assert counts == sorted(counts, reverse=True)


def test_filter_and_sort_order_the_people(server):
    body = server.get("/api/search", params={
        "q": "", "filter": "company IN ['annex ltd', renault]", "sort": "first_name:desc"}).json()
    assert [r["fields"]["first_name"] for r in body["results"]] == ["Mary", "Chloé", "Ann"]


@pytest.mark.parametrize("params, message", [
    ({"filter": "age >="}, "filter: expected a value after '>=' at column 7"),
    ({"filter": "company = 'Acme"}, "filter: the quote ' opened here is never closed at column 11"),
    ({"filter": "(a = 1"}, "filter: expected ')' to close the '(' before the end at column 7"),
    ({"sort": "age:up"}, "sort: 'age:up': the direction must be asc or desc, not 'up'"),
])
def test_a_malformed_filter_or_sort_is_400(server, params, message):
    answer = server.get("/api/search", params={"q": "", **params})
    error_of(answer, 400, "bad_request")
    assert answer.json()["error"]["message"] == message


def test_the_cli_exits_64_on_a_malformed_filter(database):
    outcome = run_ftsearch("query", "ann", "--db", database, "--filter", "age >=", check=False)
    assert outcome.returncode == 64 and outcome.stdout == ""
    assert "filter: expected a value after '>=' at column 7" in outcome.stderr
