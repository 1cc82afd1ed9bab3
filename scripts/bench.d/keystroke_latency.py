"""Keystroke to results drawn, in a real browser: headless Debian Chromium driven by Playwright
against `ftsearch serve` started on a freshly imported database.

    keystroke_latency.py ROOT WORK [--quick]

Imports WORK/data/N/people.csv (1M people; 100k with --quick) into a new database, serves it,
opens the page and types typed names letter by letter (the same names as serve_load.py), 200
keystrokes in all, each after the previous one's results were drawn. For each keystroke the
page itself timestamps the keydown and the first animation frame after the results changed
(`#status` or `#results` mutated), so the figure is what a user sees: the request, the search,
the JSON, the drawing. Prints a markdown table: p50, p99 and max. Not a test: nothing is
asserted.
"""

import os
import re
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
from serve_load import BIN, ENV, free_port, label, log, typed_queries, wait_until_up  # noqa: E402

ROOT, WORK = sys.argv[1], sys.argv[2]
SIZE = 100_000 if "--quick" in sys.argv else 1_000_000
KEYSTROKES = 200
CHROMIUM = "/usr/lib/chromium/chromium"

# Installed before the page's own script runs: stamps each letter's input event, and the first frame after
# the results changed following it.
PROBE = """
window.__drawn = [];
let pending = null;
addEventListener("input", () => { pending = performance.now(); }, true);
addEventListener("DOMContentLoaded", () => {
  const observer = new MutationObserver(() => {
    if (pending === null) return;
    const started = pending;
    pending = null;
    requestAnimationFrame(() => window.__drawn.push(performance.now() - started));
  });
  for (const id of ["status", "results"]) {
    observer.observe(document.getElementById(id), {childList: true, subtree: true, characterData: true});
  }
});
"""


def words(data):
    """Whole names from the typed prefixes serve_load replays, until KEYSTROKES letters."""
    chosen, letters = [], 0
    for prefix in typed_queries(data):
        if len(prefix) == 1 and chosen and letters >= KEYSTROKES:
            break
        if len(prefix) == 1:
            chosen.append("")
        chosen[-1] = prefix
        letters += 1
    return chosen


def main():
    data = os.path.join(WORK, "data", str(SIZE))
    database = os.path.join(WORK, f"keystroke-{label(SIZE)}.db")
    for suffix in ("", "-wal", "-shm", "-history", "-history-wal", "-history-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    log(f"keystrokes at {label(SIZE)}: importing a fresh database...")
    subprocess.run([os.path.join(BIN, "ftsearch"), "import", "--db", database, "--quiet",
                    os.path.join(data, "people.csv")], check=True, env=ENV)
    port = free_port()
    server = subprocess.Popen([os.path.join(BIN, "ftsearch"), "serve", "--db", database, "--port",
                               str(port), "--quiet"], stdout=subprocess.DEVNULL, env=ENV)
    latencies = []
    try:
        wait_until_up(port, server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            # The page's Content-Security-Policy forbids eval, which Playwright's waits use.
            page = browser.new_context(bypass_csp=True).new_page()
            page.add_init_script(PROBE)
            page.goto(f"http://127.0.0.1:{port}/")
            field = page.locator("#q")
            for word in words(data):
                field.fill("")
                field.focus()
                page.keyboard.press("Escape")
                page.wait_for_timeout(50)
                page.evaluate("window.__drawn = []")
                for count, letter in enumerate(word, start=1):
                    page.keyboard.type(letter)
                    page.wait_for_function(f"window.__drawn.length >= {count}", timeout=30000)
                latencies += page.evaluate("window.__drawn")
                if len(latencies) >= KEYSTROKES:
                    break
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    latencies = sorted(latencies[:KEYSTROKES])
    print(f"\n### Keystroke to results drawn in Chromium ({len(latencies)} keystrokes, "
          f"{label(SIZE)} people, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n")
    print("| people | p50 (ms) | p99 (ms) | max (ms) |")
    print("|---|---|---|---|")
    print(f"| {label(SIZE)} | {latencies[len(latencies) // 2]:.1f} | "
          f"{latencies[int(len(latencies) * 0.99)]:.1f} | {latencies[-1]:.1f} |")


if __name__ == "__main__":
    main()
