"""Search-as-you-type load over HTTP: `ftsearch serve` (its native route and its
Meilisearch-compatible one) against Datasette, side by side.

    serve_load.py ROOT WORK [--quick]

For each size (100k and 1M people; 100k with --quick) it imports WORK/data/N/people.csv into an
ftsearch database and, with sqlite-utils, into a table with FTS5 enabled (`enable-fts`), starts
`ftsearch serve` (release) and `datasette` on free loopback ports, and replays typed queries
(each name's 1-, 2-, 3-... letter prefixes in turn) from 16 concurrent keep-alive clients
against each (on ftsearch, first `/api/search`, then the same prefixes as Meilisearch's SDKs
send them, `POST /indexes/people/search`), then reads the server's RSS. Prints a markdown table:
requests per second, p50 and p99 latency, RSS. The clients are Python threads (http.client), one process: on these
2 cores they share the CPU with the server, so the figures are a floor for both servers alike.
Not a test: nothing is asserted.
"""

import csv
import http.client
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

from loopback import free_port, label, log

ROOT, WORK = sys.argv[1], sys.argv[2]
QUICK = "--quick" in sys.argv
SIZES = [100_000] if QUICK else [100_000, 1_000_000]
BIN = os.path.join(ROOT, ".build", "release")
VENV_BIN = os.path.join(WORK, "venv", "bin")
CLIENTS = 16
DURATION = 15  # seconds of load per server and size
ENV = dict(os.environ, FTSEARCH_NO_HISTORY="1")
ENV.pop("FTSEARCH_DB", None)




def typed_queries(data, count=200, seed=17):
    """Every prefix of `count` names drawn from the data, as a user types them."""
    with open(os.path.join(data, "people.csv"), newline="") as f:
        rows = [row for _, row in zip(range(20000), csv.DictReader(f))]
    rng = random.Random(seed)
    words = [re.sub(r"[^\w]", "", rng.choice(rows)[rng.choice(["first_name", "last_name", "company"])])
             for _ in range(count)]
    return [word[:length].lower() for word in words if word for length in range(1, min(len(word), 8) + 1)]


def prepare(n, ftsearch_name="serve-ftsearch", ftsearch_input="people.csv"):
    """The ftsearch database WORK/<ftsearch_name>-N.db imported from WORK/data/N/<input>, and
    Datasette's (people.csv with sqlite-utils, FTS5 enabled, made once): (data, ft_db, ds_db)."""
    data = os.path.join(WORK, "data", str(n))
    ft_db = os.path.join(WORK, f"{ftsearch_name}-{label(n)}.db")
    ds_db = os.path.join(WORK, f"serve-datasette-{label(n)}.db")
    # Imported afresh every run, by the ftsearch under test: a database an older one built
    # may be of an older schema, which a --read-only server cannot upgrade.
    for suffix in ("", "-wal", "-shm", "-history"):
        if os.path.exists(ft_db + suffix):
            os.remove(ft_db + suffix)
    log(f"importing {label(n)} into ftsearch...")
    subprocess.run([os.path.join(BIN, "ftsearch"), "import", "--db", ft_db, "--quiet",
                    os.path.join(data, ftsearch_input)], check=True, env=ENV)
    if not os.path.exists(ds_db):
        log(f"importing {label(n)} with sqlite-utils...")
        subprocess.run([os.path.join(VENV_BIN, "sqlite-utils"), "insert", ds_db, "people",
                        os.path.join(data, "people.csv"), "--csv", "--pk", "id"], check=True)
        subprocess.run([os.path.join(VENV_BIN, "sqlite-utils"), "enable-fts", ds_db, "people",
                        "first_name", "last_name", "company", "--fts5",
                        "--tokenize", "unicode61 remove_diacritics 2"], check=True)
    return data, ft_db, ds_db


def wait_until_up(port, process, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def load(port, paths, bodies=None):
    """16 keep-alive clients, each replaying `paths` from its own offset, for DURATION s; with
    `bodies`, each path is POSTed with the JSON body at the same position."""
    latencies = [[] for _ in range(CLIENTS)]
    errors = [0] * CLIENTS
    stop = time.monotonic() + DURATION

    def client(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        position = index * len(paths) // CLIENTS
        while time.monotonic() < stop:
            item = position % len(paths)
            position += 1
            start = time.perf_counter()
            try:
                if bodies:
                    connection.request("POST", paths[item], body=bodies[item],
                                       headers={"Content-Type": "application/json"})
                else:
                    connection.request("GET", paths[item])
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors[index] += 1
            except (OSError, http.client.HTTPException):
                errors[index] += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            latencies[index].append((time.perf_counter() - start) * 1000)
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    every = sorted(latency for client in latencies for latency in client)
    return {
        "rps": len(every) / elapsed,
        "p50": every[len(every) // 2] if every else float("nan"),
        "p99": every[int(len(every) * 0.99)] if every else float("nan"),
        "errors": sum(errors),
    }


def run_server(command, port, *loads, warm_up=200):
    """Starts the server and runs each load, `(paths, bodies or None)`, against it in turn."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    try:
        wait_until_up(port, process)
        results = []
        for paths, bodies in loads:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            for position, path in enumerate(paths[:warm_up]):
                if bodies:
                    connection.request("POST", path, body=bodies[position],
                                       headers={"Content-Type": "application/json"})
                else:
                    connection.request("GET", path)
                connection.getresponse().read()
            connection.close()
            result = load(port, paths, bodies)
            result["rss"] = rss_mib(process.pid)
            results.append(result)
        return results
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    rows = []
    for n in SIZES:
        data, ft_db, ds_db = prepare(n)
        queries = typed_queries(data)
        ft_port, ds_port = free_port(), free_port()
        ft_paths = ["/api/search?" + urllib.parse.urlencode({"q": q, "limit": 20}) for q in queries]
        ds_paths = [f"/{os.path.basename(ds_db)[:-3]}/people.json?"
                    + urllib.parse.urlencode({"_search": q + "*", "_searchmode": "raw", "_size": 20})
                    for q in queries]
        meili_paths = ["/indexes/people/search"] * len(queries)
        meili_bodies = [json.dumps({"q": q, "limit": 20}) for q in queries]
        log(f"load at {label(n)}: ftsearch serve, native and Meilisearch-compatible...")
        ft, meili = run_server([os.path.join(BIN, "ftsearch"), "serve", "--db", ft_db, "--port",
                                str(ft_port), "--quiet", "--read-only"], ft_port, (ft_paths, None),
                               (meili_paths, meili_bodies))
        log(f"load at {label(n)}: datasette...")
        (ds,) = run_server([os.path.join(VENV_BIN, "datasette"), "serve", "--port", str(ds_port),
                         "--host", "127.0.0.1", "--immutable", ds_db, "--setting", "sql_time_limit_ms", "5000"],
                        ds_port, (ds_paths, None))
        rows.append((n, ft, meili, ds))
    print(f"\n### Search-as-you-type over HTTP ({CLIENTS} keep-alive clients, {DURATION} s each, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n")
    print("| people | server | requests/s | p50 (ms) | p99 (ms) | errors | RSS (MiB) |")
    print("|---|---|---|---|---|---|---|")
    for n, ft, meili, ds in rows:
        for name, r in (("ftsearch serve /api/search", ft),
                        ("ftsearch serve, Meilisearch route", meili), ("Datasette", ds)):
            print(f"| {label(n)} | {name} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | "
                  f"{r['errors']} | {r['rss']:.0f} |")
        print(f"| {label(n)} | ratio ftsearch / Datasette | {ft['rps'] / ds['rps']:.1f}× | | | | |")
        print(f"| {label(n)} | ratio Meilisearch route / native | {meili['rps'] / ft['rps']:.2f}× | | | | |")


if __name__ == "__main__":
    main()
