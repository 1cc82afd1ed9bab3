"""A page of another site, in a real browser (Debian's headless Chromium driven by Playwright),
tries every change the API offers with what a page can send without the server's consent:
forms of every encoding, `fetch` in no-cors mode, `fetch` with CORS, and `navigator.sendBeacon`.
None changes anything (docs/reliability.md: Threat model)."""

import http.server
import threading

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/lib/chromium/chromium"

# Every change a page might try, as (method, path, body). The empty import that replaces
# people deletes every person on a server that accepts forms.
WRITES = [
    ("POST", "/api/import?replace=true&kind=people", ""),
    ("POST", "/api/import?replace=true&kind=animals&format=csv", "name\nIntruder\n"),
    ("POST", "/api/import?format=ndjson", '{"first_name":"Intruder"}'),
    ("POST", "/api/people", '{"first_name":"Intruder"}'),
    ("POST", "/api/animals", '{"name":"Intruder"}'),
    ("PATCH", "/api/people/1", '{"first_name":"Intruder"}'),
    ("DELETE", "/api/people/1", ""),
    ("POST", "/api/history", '{"text":"intruder"}'),
    ("DELETE", "/api/history", ""),
    ("POST", "/indexes/people/documents", '[{"id":1,"first_name":"Intruder"}]'),
    ("PUT", "/indexes/people/documents", '[{"id":1,"first_name":"Intruder"}]'),
    ("POST", "/indexes/people/documents/delete-batch", "[1,2,3]"),
    ("DELETE", "/indexes/people/documents", ""),
    ("DELETE", "/indexes/people/documents/1", ""),
]

ATTACK = """<!doctype html><meta charset="utf-8"><title>attacking</title><body><script>
const target = %(target)s;
const writes = %(writes)s;
const attempts = [];
let frames = 0;
function form(method, path, body, enctype) {
  const name = "f" + (frames++);
  const frame = document.createElement("iframe");
  frame.name = name;
  document.body.appendChild(frame);
  const form = document.createElement("form");
  form.method = method; form.action = target + path; form.target = name; form.enctype = enctype;
  const field = document.createElement("input");
  field.name = body.slice(0, 1) || "x"; field.value = body.slice(1);
  form.appendChild(field);
  document.body.appendChild(form);
  form.submit();
}
for (const [method, path, body] of writes) {
  if (method === "POST") {
    for (const enctype of ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]) {
      form("POST", path, body, enctype);
    }
    for (const kind of ["text", "blob", "json", "form", "params"]) {
      const payload = kind === "text" ? body
        : kind === "blob" ? new Blob([body])
        : kind === "json" ? new Blob([body], {type: "application/json"})
        : kind === "form" ? (() => { const f = new FormData(); f.append("a", body); return f; })()
        : new URLSearchParams({a: body});
      try { navigator.sendBeacon(target + path, payload); } catch (e) { }
    }
  }
  for (const headers of [{}, {"Content-Type": "text/plain"}, {"Content-Type": "application/json"},
                         {"Content-Type": "text/csv"}]) {
    for (const mode of ["no-cors", "cors"]) {
      attempts.push(fetch(target + path, {method, mode, headers, body: method === "DELETE" ? undefined : body,
                                          credentials: "include"}).catch(() => null));
    }
    attempts.push(fetch(target + path, {method: "POST", mode: "no-cors", headers,
                                        body: new Blob([body])}).catch(() => null));
  }
}
Promise.all(attempts).then(() => setTimeout(() => { document.title = "done"; }, 1500));
</script>"""


class Site:
    """Another origin on loopback: a tiny HTTP server with one page."""

    def __init__(self, page):
        body = page.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def snapshot(server):
    return (server.get("/api/export").text, server.get("/api/history").json()["entries"],
            server.get("/tasks").json()["total"])


def attack(server, target):
    import json
    site = Site(ATTACK % {"target": json.dumps(target), "writes": json.dumps(WRITES)})
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(site.url)
                page.wait_for_function("document.title === 'done'", timeout=30000)
            finally:
                browser.close()
    finally:
        site.close()


@pytest.mark.parametrize("arguments", [(), ("--cors-origin", "http://example.test")],
                         ids=["default", "cors-origin"])
@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_a_page_of_another_site_changes_nothing(start_server, arguments, name):
    server = start_server(*arguments)
    before = snapshot(server)
    attack(server, f"http://{name}:{server.port}")
    assert snapshot(server) == before
    server.stop()
    log = server.log_text()
    # The attempts did reach the server, which refused them (the browser sends its Origin).
    assert log.count("POST /api/import 403") >= 3 * 3
    assert log.count("POST /indexes/people/documents 403") >= 3
    assert " 201 " not in log and " 202 " not in log and "POST /api/import 200" not in log


def test_the_cors_origin_may_change_what_it_sends_with_a_preflight(start_server):
    """The one origin the operator allows: its JSON changes pass, its forms still do not."""
    site = Site("<!doctype html><title>x</title>")
    try:
        server = start_server("--cors-origin", site.url.rstrip("/"))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(site.url)
                status = page.evaluate("""async (target) => {
                  const answer = await fetch(target + "/api/people", {method: "POST",
                    headers: {"Content-Type": "application/json"}, body: '{"first_name":"Allowed"}'});
                  await fetch(target + "/api/import?replace=true&kind=people", {method: "POST",
                    mode: "no-cors", body: ""});
                  return answer.status;
                }""", server.url)
            finally:
                browser.close()
        assert status == 201
        assert server.get("/api/search", params={"q": "allowed"}).json()["total"] == 1
        assert server.get("/api/stats").json()["counts"]["people"] == 13
    finally:
        site.close()
