"""Every route of `ftsearch serve`, its statuses and its one error shape, from outside."""

import json

import pytest

from conftest import run_ftsearch


def error_of(response, status, code=None):
    """The error object of a JSON error answer with `status` (and `code`)."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code:
        assert body["error"]["code"] == code
    return body["error"]


def history_texts(server):
    return [entry["text"] for entry in server.get("/api/history").json()["entries"]]


def test_start_line_says_what_is_served(server, database):
    assert server.start_line == f"Serving 12 people and 5 animals from {database} at {server.url}/"


def test_health_and_stats(server):
    assert server.get("/health").json() == {"status": "available"}
    stats = server.get("/api/stats").json()
    assert stats["counts"] == {"people": 12, "animals": 5, "history": 0}
    assert stats["read_only"] is False
    assert stats["schema_version"] >= 1


def test_search_is_the_query_json_object_with_matches(server, database):
    answer = server.get("/api/search", params={"q": "ann", "limit": 50}).json()
    cli = json.loads(run_ftsearch("query", "ann", "--db", database, "--format", "json", "--limit", "50").stdout)
    assert answer["total"] == cli["total"] == 7
    assert [(r["kind"], r["id"], r["fields"]) for r in answer["results"]] == [
        (r["kind"], r["id"], r["fields"]) for r in cli["results"]]
    assert answer["query"] == "ann" and answer["limit"] == 50 and answer["offset"] == 0
    for result in answer["results"]:
        assert result["matches"], result
        for field, ranges in result["matches"].items():
            text = result["fields"][field]
            for start, end in ranges:
                assert text[start:end].lower() in ("ann", "án", "ån", "ánn"), (text, start, end)


def test_matches_count_utf16_units(server):
    result = server.get("/api/search", params={"q": "müll"}).json()["results"][0]
    assert result["fields"]["last_name"] == "Müller"
    assert result["matches"]["last_name"] == [[0, 4]]


def test_search_filters_pages_and_modes(server):
    animals = server.get("/api/search", params={"q": "", "kind": "animals"}).json()
    assert animals["total"] == 5 and {r["kind"] for r in animals["results"]} == {"animals"}
    page = server.get("/api/search", params={"q": "", "limit": 2, "offset": 3}).json()
    assert page["total"] == 17 and len(page["results"]) == 2
    assert server.get("/api/search", params={"q": "nne", "match": "substring"}).json()["total"] >= 3
    assert server.get("/api/search", params={"q": "ann", "match": "exact"}).json()["total"] == 1
    assert server.get("/api/search", params={"q": "smiht", "match": "fuzzy"}).json()["total"] >= 1
    by_company = server.get("/api/search", params={"q": "", "group_by": "company", "limit": 100}).json()
    companies = [r["fields"]["company"].lower() for r in by_company["results"]]
    assert companies == sorted(companies) and by_company["total"] == 12
    fields = server.get("/api/search", params={"q": "smith", "fields": "last_name"}).json()
    assert all("smith" in r["fields"]["last_name"].lower() for r in fields["results"])
    weighted = server.get("/api/search", params={"q": "annex", "weights": "company=1,first_name=10"})
    assert weighted.status_code == 200


def test_did_you_mean(server):
    answer = server.get("/api/search", params={"q": "smiht"}).json()
    assert answer["total"] == 0 and answer["did_you_mean"] == "smith"
    assert "did_you_mean" not in server.get("/api/search", params={"q": "smith"}).json()


@pytest.mark.parametrize("query", [
    {"limit": "-1"}, {"limit": "x"}, {"limit": "100000"}, {"offset": "-3"}, {"match": "regex"},
    {"kind": "plants"}, {"fields": "email"}, {"weights": "company"}, {"weights": "company=x"},
    {"group_by": "city"}, {"group_by": "company", "kind": "animals"}, {"bogus": "1"},
])
def test_bad_search_parameters_are_400(server, query):
    error_of(server.get("/api/search", params={"q": "ann", **query}), 400, "bad_request")


def test_searching_never_writes_history(server):
    for prefix in ["a", "an", "ann"]:
        server.get("/api/search", params={"q": prefix})
    assert history_texts(server) == []


def test_history_is_recorded_listed_deleted_and_cleared(server):
    created = server.post("/api/history", json={"text": "ann"})
    assert created.status_code == 201
    entry = created.json()
    assert entry["text"] == "ann" and entry["result_count"] == 7 and entry["count"] == 1
    assert server.post("/api/history", json={"text": "ann"}).json()["count"] == 2
    server.post("/api/history", json={"text": "rex", "kind": "animals"})
    assert history_texts(server) == ["rex", "ann"]
    assert server.get("/api/suggest", params={"q": "re"}).json()["suggestions"][0] == {
        "text": "rex", "source": "history", "count": 1,
        "last_used": server.get("/api/history").json()["entries"][0]["last_used"]}
    assert server.delete(f"/api/history/{entry['id']}").json() == {"deleted": 1}
    error_of(server.delete(f"/api/history/{entry['id']}"), 404, "not_found")
    error_of(server.delete("/api/history/abc"), 404, "not_found")
    assert history_texts(server) == ["rex"]
    assert server.delete("/api/history").json() == {"deleted": 1}
    assert history_texts(server) == []


@pytest.mark.parametrize("body, headers, status", [
    (b'{"text": ', {"content-type": "application/json"}, 400),
    (b'{"text": 5}', {"content-type": "application/json"}, 400),
    (b'["ann"]', {"content-type": "application/json"}, 400),
    (b'{"text": "  "}', {"content-type": "application/json"}, 400),
    (b'{"text": "ann", "extra": 1}', {"content-type": "application/json"}, 400),
    (b'{"text": "ann", "kind": "plants"}', {"content-type": "application/json"}, 400),
    (b'{"text": "\xff\xfe"}', {"content-type": "application/json"}, 400),
    (b'{"text": "ann"}', {"content-type": "text/plain"}, 415),
    (b'{"text": "ann"}', {}, 415),
])
def test_bad_history_bodies(server, body, headers, status):
    error_of(server.post("/api/history", data=body, headers=headers), status)
    assert history_texts(server) == []


def test_suggest(server):
    answer = server.get("/api/suggest", params={"q": "an", "limit": 3}).json()
    assert len(answer["suggestions"]) == 3
    assert all(s["text"].lower().startswith("an") for s in answer["suggestions"])
    error_of(server.get("/api/suggest", params={"q": "an", "by": "size"}), 400, "bad_request")
    error_of(server.get("/api/suggest", params={"limit": "0"}), 400, "bad_request")


def test_records_are_created_read_changed_and_deleted(server):
    created = server.post("/api/people", json={"first_name": "Zed", "last_name": "Quux", "company": "Acme", "age": 40})
    assert created.status_code == 201
    record = created.json()
    assert created.headers["location"] == f"/api/people/{record['id']}"
    assert record["fields"] == {"first_name": "Zed", "last_name": "Quux", "company": "Acme", "age": 40}
    assert record["created_at"] == record["updated_at"]
    assert server.get(created.headers["location"]).json() == record
    assert server.get("/api/search", params={"q": "zed"}).json()["total"] == 1

    changed = server.patch(created.headers["location"], json={"company": "Initech", "age": None, "city": "Oslo"})
    assert changed.status_code == 200, changed.text
    assert changed.json()["fields"] == {"first_name": "Zed", "last_name": "Quux", "company": "Initech", "city": "Oslo"}
    assert changed.json()["created_at"] == record["created_at"]
    error_of(server.patch(created.headers["location"], json={"first_name": "", "last_name": ""}), 422, "invalid_record")
    error_of(server.patch(created.headers["location"], json={"id": 3}), 422, "invalid_record")

    assert server.delete(created.headers["location"]).json() == {"deleted": 1}
    error_of(server.get(created.headers["location"]), 404, "not_found")
    error_of(server.delete(created.headers["location"]), 404, "not_found")
    assert server.get("/api/search", params={"q": "zed"}).json()["total"] == 0


def test_animals_and_record_errors(server):
    animal = server.post("/api/animals", json={"name": "Tom", "species": "cat"})
    assert animal.status_code == 201 and animal.json()["kind"] == "animals"
    assert server.get("/api/animals/1").json()["fields"]["name"] == "Annie"
    error_of(server.post("/api/animals", json={"species": "cat"}), 422, "invalid_record")
    error_of(server.post("/api/people", json={"first_name": ["a"]}), 422, "invalid_record")
    error_of(server.post("/api/people", json={"id": 1, "first_name": "Dup"}), 409, "id_in_use")
    error_of(server.get("/api/people/999"), 404, "not_found")
    error_of(server.get("/api/people/0"), 404, "not_found")
    error_of(server.get("/api/people/x"), 404, "not_found")
    error_of(server.get("/api/plants/1"), 404, "not_found")
    error_of(server.patch("/api/people/999", json={"company": "X"}), 404, "not_found")
    error_of(server.post("/api/people", data="first_name=Ann"), 415, "unsupported_media_type")
    assert server.get("/api/stats").json()["counts"]["people"] == 12


def test_import_streams_the_body_atomically(server):
    csv = "first_name,last_name,company\nAda,Lovelace,Analytical\nAlan,Turing,Bletchley\n"
    answer = server.post("/api/import", data=csv, headers={"content-type": "text/csv"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["inserted"] == {"people": 2, "animals": 0}
    ndjson = '{"name": "Felix", "species": "cat"}\n{"name": "Fido"}\n'
    assert server.post("/api/import", data=ndjson, headers={"content-type": "application/octet-stream"}
                       ).json()["inserted"] == {"people": 0, "animals": 2}

    broken = "first_name,last_name\nGrace,Hopper\n,\nKaty,Perry\n"
    error = error_of(server.post("/api/import", data=broken, headers={"content-type": "text/csv"}), 422, "invalid_record")
    assert error["line"] == 3
    assert server.get("/api/search", params={"q": "grace"}).json()["total"] == 0
    skipped = server.post("/api/import", params={"skip_invalid": "true"}, data=broken, headers={"content-type": "text/csv"}).json()
    assert skipped["skipped"] == 1 and skipped["problems"][0]["line"] == 3
    error_of(server.post("/api/import", data="city\nOslo\n", headers={"content-type": "text/csv"}), 422, "unknown_kind")
    error_of(server.post("/api/import", params={"format": "xml"}, data="<a/>",
                         headers={"content-type": "application/octet-stream"}), 400, "bad_request")
    error_of(server.post("/api/import", data='[{"first_name": "A"', headers={"content-type": "application/json"}), 422)
    assert server.get("/api/stats").json()["counts"] == {"people": 16, "animals": 7, "history": 0}


def test_import_replace(server):
    answer = server.post("/api/import", params={"replace": "true", "kind": "animals"}, data="name\nSolo\n", headers={"content-type": "text/csv"})
    assert answer.status_code == 200, answer.text
    assert server.get("/api/stats").json()["counts"]["animals"] == 1


def test_export_streams_what_import_reads(server, database):
    exported = server.get("/api/export", params={"kind": "all", "format": "json"})
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/json")
    cli = run_ftsearch("export", "--db", database, "--format", "json").stdout
    assert exported.text == cli
    csv = server.get("/api/export", params={"kind": "people", "format": "csv"})
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.count("\n") == 13
    error_of(server.get("/api/export", params={"format": "csv"}), 400, "bad_request")
    error_of(server.get("/api/export", params={"format": "yaml"}), 400, "bad_request")


def test_unknown_routes_and_methods(server):
    error_of(server.get("/api/nothing"), 404, "not_found")
    error = server.request("PUT", "/api/search")
    error_of(error, 405, "method_not_allowed")
    assert error.headers["allow"] == "GET, HEAD"
    assert server.request("HEAD", "/api/export").status_code == 200
    assert server.request("DELETE", "/api/people").headers["allow"] == "POST"
    error_of(server.request("POST", "/health"), 405)


def test_read_only_server_refuses_changes_with_503(start_server):
    server = start_server("--read-only")
    assert server.get("/api/search", params={"q": "ann"}).json()["total"] == 7
    assert server.get("/api/stats").json()["read_only"] is True
    error_of(server.post("/api/people", json={"first_name": "X"}), 503, "read_only")
    error_of(server.post("/api/history", json={"text": "ann"}), 503, "read_only")
    error_of(server.delete("/api/people/1"), 503, "read_only")
    error_of(server.post("/api/import", data="name\nA\n", headers={"content-type": "text/csv"}), 503, "read_only")
    assert server.get("/api/people/1").status_code == 200


def test_page_files_are_served(server):
    page = server.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/app.js"' in page.text and "/app.css" in page.text
    for script in ("/app.js", "/facets.js", "/record.js"):
        assert f'<script src="{script}"' in page.text
        assert server.get(script).headers["content-type"].startswith("text/javascript")
    assert server.get("/app.css").headers["content-type"].startswith("text/css")
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_cors_origin(start_server):
    server = start_server("--cors-origin", "http://example.test")
    answer = server.get("/api/search", params={"q": "ann"}, headers={"origin": "http://example.test"})
    assert answer.headers["access-control-allow-origin"] == "http://example.test"
    preflight = server.request("OPTIONS", "/api/people", headers={
        "origin": "http://example.test", "access-control-request-method": "POST"})
    assert preflight.status_code in (200, 204)
    assert "POST" in preflight.headers["access-control-allow-methods"]


def test_access_log_has_one_line_per_request(start_server):
    server = start_server()
    server.get("/api/search", params={"q": "secret words"})
    server.post("/api/people", json={"first_name": "Logged"})
    server.stop()
    lines = [line for line in server.log_text().splitlines() if " /api/" in line]
    assert len(lines) == 2, lines
    assert " GET /api/search 200 " in lines[0] and lines[0].endswith(" ms")
    assert " POST /api/people 201 " in lines[1]
    assert "secret" not in server.log_text() and "Logged" not in server.log_text()


def test_quiet_logs_nothing(start_server):
    server = start_server("--quiet")
    server.get("/api/search", params={"q": "ann"})
    server.stop()
    assert "/api/search" not in server.log_text()
