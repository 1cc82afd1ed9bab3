"""The OpenAPI 3.1 document `ftsearch serve` answers at /openapi.json: served as embedded, a
valid document, naming exactly the native routes the server has, and true of the live server,
as schemathesis finds it (no server error, every answer's status, content type, headers and
body as the document says)."""

import json
import os
import random
import re
import subprocess

from openapi_spec_validator import validate

from conftest import ROOT

DOCUMENT = ROOT / "Sources" / "FTSearchServer" / "Page" / "openapi.json"
SCHEMATHESIS = ROOT / ".build" / "venv" / "bin" / "schemathesis"
METHODS = {"get", "post", "put", "patch", "delete"}


def test_document_is_served_valid_and_linked_from_the_page(server):
    response = server.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert response.content == DOCUMENT.read_bytes()
    document = response.json()
    validate(document)
    assert document["openapi"].startswith("3.1")
    assert document["info"]["version"] == server.get("/version").json()["pkgVersion"]
    assert 'href="/openapi.json"' in server.get("/").text


def test_document_names_exactly_the_native_routes(server):
    """Each documented path takes exactly the documented methods (the server's 405 says which it
    takes), and every path the route files register is documented."""
    document = json.loads(DOCUMENT.read_text())
    for path, item in document["paths"].items():
        documented = {method.upper() for method in item if method in METHODS}
        # HEAD is answered wherever GET is (RFC 9110 9.3.2), documented or not.
        if "GET" in documented:
            documented.add("HEAD")
        response = server.request("TRACE", path.replace("{id}", "1"))
        assert response.status_code == 405, path
        assert response.json()["error"]["code"] == "method_not_allowed"
        assert set(response.headers["Allow"].split(", ")) == documented, path
    sources = (ROOT / "Sources" / "FTSearchServer" / "Routes").glob("*.swift")
    registered = {re.sub(r":(\w+)", r"{\1}", path)
                  for source in sources
                  for path in re.findall(r'routes\.on\("(/[^"]+)"', source.read_text())}
    registered |= {f"/api/{kind}" for kind in ("people", "animals")}
    registered |= {f"/api/{kind}/{{id}}" for kind in ("people", "animals")}
    assert registered <= set(document["paths"]), registered - set(document["paths"])


def test_schemathesis_finds_the_server_true_to_its_document(server):
    """Every operation with a fixed number of generated requests (valid and invalid, then
    sequences that follow the document's links), bounded in time. A failure prints the seed:
    FTSEARCH_FUZZ_SEED=SEED replays it."""
    seed = int(os.environ.get("FTSEARCH_FUZZ_SEED") or random.randrange(1 << 31))
    examples = int(os.environ.get("FTSEARCH_OPENAPI_EXAMPLES", "40"))
    result = subprocess.run(
        [str(SCHEMATHESIS), "run", server.url + "/openapi.json",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,"
                     "response_headers_conformance,response_schema_conformance,unsupported_method",
         "--max-examples", str(examples), "--seed", str(seed), "--workers", "2",
         "--request-timeout", "20", "--no-color", "--generation-database", "none"],
        capture_output=True, text=True, timeout=600, cwd=server.database.rsplit("/", 1)[0])
    report = result.stdout[-12000:] + result.stderr[-4000:]
    assert result.returncode == 0, f"seed {seed}:\n{report}"
    # Every generated case passed (a warning, such as ids that 404 for want of test data, is not
    # a finding).
    assert re.search(r"(\d+) generated, \1 passed", result.stdout), f"seed {seed}:\n{report}"
    assert re.search(r"Tested: +18\b", result.stdout), report
    log = server.log_text()
    assert not re.search(r" 5\d\d \d+ B ", log), log[-4000:]
