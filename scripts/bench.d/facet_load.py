"""Facet counts over HTTP: `ftsearch serve` against Datasette's `_facet`, side by side.

    facet_load.py ROOT WORK [--quick]

For each size (1M people; 100k with --quick) it imports WORK/data/N/people.ndjson into an
ftsearch database and, with sqlite-utils, people.csv into a table with FTS5 enabled (as
serve_load.py does; the same people), starts `ftsearch serve --read-only` and `datasette` on
free loopback ports and has 16 keep-alive clients replay the one-letter prefix searches of
queries.tsv with the facet counts of `company` over all their matches (about a quarter of the
people): `/api/search?q=A&limit=20&facets=company` against
`/DB/people.json?_search=A*&_searchmode=raw&_size=20&_facet=company` (Datasette's facet time
limit raised to 5 s, so that it counts rather than gives up). Prints a markdown table:
requests per second, p50 and p99 latency, errors. The clients share the 2 cores with the
servers. Not a test: nothing is asserted.
"""

import json
import os
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loopback import free_port, label, log  # noqa: E402
from serve_load import CLIENTS, DURATION, ENV, run_server  # noqa: E402
from serve_load import prepare as prepare_databases  # noqa: E402

ROOT, WORK = sys.argv[1], sys.argv[2]
SIZES = [100_000] if "--quick" in sys.argv else [1_000_000]
BIN = os.path.join(ROOT, ".build", "release")
VENV_BIN = os.path.join(WORK, "venv", "bin")


def prepare(n):
    data, ft_db, ds_db = prepare_databases(n, "facet-ftsearch", "people.ndjson")
    queries = [line.split("\t", 1)[1].rstrip("\n")
               for line in open(os.path.join(data, "queries.tsv"), encoding="utf-8")
               if line.startswith("prefix1\t")][:100]
    return ft_db, ds_db, queries


def main():
    rows = []
    for n in SIZES:
        ft_db, ds_db, queries = prepare(n)
        ft_port, ds_port = free_port(), free_port()
        ft_paths = ["/api/search?" + urllib.parse.urlencode({"q": q, "limit": 20, "facets": "company"})
                    for q in queries]
        ds_paths = [f"/{os.path.basename(ds_db)[:-3]}/people.json?"
                    + urllib.parse.urlencode({"_search": q + "*", "_searchmode": "raw", "_size": 20,
                                              "_facet": "company"})
                    for q in queries]
        log(f"facets at {label(n)}: ftsearch serve...")
        (ft,) = run_server([os.path.join(BIN, "ftsearch"), "serve", "--db", ft_db, "--port",
                            str(ft_port), "--quiet", "--read-only"], ft_port, (ft_paths, None),
                           warm_up=len(ft_paths))
        log(f"facets at {label(n)}: datasette...")
        (ds,) = run_server([os.path.join(VENV_BIN, "datasette"), "serve", "--port", str(ds_port),
                            "--host", "127.0.0.1", "--immutable", ds_db,
                            "--setting", "sql_time_limit_ms", "5000",
                            "--setting", "facet_time_limit_ms", "5000"],
                           ds_port, (ds_paths, None), warm_up=5)
        rows.append((n, ft, ds))
    with open(os.path.join(WORK, "facet_load.json"), "w") as f:
        json.dump({label(n): {"ftsearch": ft, "datasette": ds} for n, ft, ds in rows}, f, indent=2)
    print(f"\n### Facet counts of company over HTTP ({CLIENTS} keep-alive clients, {DURATION} s each, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n")
    print("| people | server | requests/s | p50 (ms) | p99 (ms) | errors |")
    print("|---|---|---|---|---|---|")
    for n, ft, ds in rows:
        for name, r in (("ftsearch serve /api/search&facets=company", ft),
                        ("Datasette _facet=company", ds)):
            print(f"| {label(n)} | {name} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | "
                  f"{r['errors']} |")
        print(f"| {label(n)} | ratio ftsearch / Datasette | {ft['rps'] / ds['rps']:.1f}× | | | |")


if __name__ == "__main__":
    main()
