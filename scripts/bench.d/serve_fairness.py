"""Fair sharing over HTTP (docs/reliability.md): what slow clients cost everyone else.

    serve_fairness.py ROOT WORK [--quick] [--sizes N,...]

For each size (100k and 1M people; 100k with --quick) it imports WORK/data/N/people.csv into a
database of its own, starts `ftsearch serve` (release, writable) on a free loopback port, and
measures, each for DURATION s:

- search p99 of four clients replaying typed prefixes, idle and then while four clients read
  `/api/export` at 2 KB/s (the issue's slow exporters; two of them get 503, as a client address
  may run two exports at once);
- write p99 of one client adding people one at a time, idle and then while another client
  trickles an import, a record a second.

Prints a markdown table. Not a test: nothing is asserted.
"""

import csv
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

from loopback import free_port, label, log

ROOT, WORK = sys.argv[1], sys.argv[2]
QUICK = "--quick" in sys.argv
SIZES = [100_000] if QUICK else [100_000, 1_000_000]
if "--sizes" in sys.argv:
    SIZES = [int(n) for n in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
# The release build, or another (a smoke run of the driver with the debug build).
BIN = os.environ.get("FTSEARCH_BIN_DIR", os.path.join(ROOT, ".build", "release"))
DURATION = 10
ENV = dict(os.environ, FTSEARCH_NO_HISTORY="1")
ENV.pop("FTSEARCH_DB", None)




def typed_queries(data, count=100, seed=29):
    with open(os.path.join(data, "people.csv"), newline="") as f:
        rows = [row for _, row in zip(range(20000), csv.DictReader(f))]
    rng = random.Random(seed)
    words = [re.sub(r"[^\w]", "", rng.choice(rows)["last_name"]) for _ in range(count)]
    return [word[:length].lower() for word in words if word for length in range(1, min(len(word), 6) + 1)]


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * fraction))] if values else float("nan")


def timed_requests(port, clients, make_request):
    """`clients` keep-alive clients calling `make_request(connection, i)` for DURATION s; the
    latencies in ms and the count of answers that were not a success."""
    latencies, errors = [], [0]
    stop = time.monotonic() + DURATION

    def client(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        i = index * 1000
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                status = make_request(connection, i)
            except (OSError, http.client.HTTPException):
                errors[0] += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            latencies.append((time.perf_counter() - start) * 1000)
            if status >= 300:
                errors[0] += 1
            i += 1
        connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors[0]


def slow_exporters(port, count, stop):
    """`count` clients reading `/api/export` at 2 KB/s until `stop` is set; their statuses."""
    statuses = []

    def reader():
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.connect(("127.0.0.1", port))
        connection.sendall(f"GET /api/export HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head = connection.recv(2048)
        statuses.append(int(head.split(b" ")[1]))
        while not stop.wait(1):
            try:
                if not connection.recv(2048):
                    break
            except OSError:
                break
        connection.close()

    threads = [threading.Thread(target=reader) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, statuses


def trickling_import(port, stop):
    def trickle():
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(f"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/csv\r\n"
                           "Transfer-Encoding: chunked\r\n\r\n".encode())
        number = 0
        while not stop.wait(1):
            data = b"first_name\n" if number == 0 else b"Trickle%d\n" % number
            connection.sendall(b"%x\r\n%s\r\n" % (len(data), data))
            number += 1
        connection.sendall(b"0\r\n\r\n")
        connection.recv(65536)
        connection.close()

    thread = threading.Thread(target=trickle)
    thread.start()
    return thread


def measure(n):
    data = os.path.join(WORK, "data", str(n))
    db = os.path.join(WORK, f"serve-fairness-{label(n)}.db")
    for suffix in ("", "-wal", "-shm", "-history"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    log(f"importing {label(n)} for the fairness load...")
    subprocess.run([os.path.join(BIN, "ftsearch"), "import", "--db", db, "--quiet",
                    os.path.join(data, "people.csv")], check=True, env=ENV)
    port = free_port()
    process = subprocess.Popen([os.path.join(BIN, "ftsearch"), "serve", "--db", db, "--port", str(port), "--quiet"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
        paths = ["/api/search?" + urllib.parse.urlencode({"q": q, "limit": 20}) for q in typed_queries(data)]

        def search(connection, i):
            connection.request("GET", paths[i % len(paths)])
            response = connection.getresponse()
            response.read()
            return response.status

        def write(connection, i):
            connection.request("POST", "/api/people", body=json.dumps({"first_name": f"Bench{i}"}),
                               headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            return response.status

        timed_requests(port, 4, search)  # warm up
        rows = []
        log(f"fairness at {label(n)}: searches idle, then beside four exporters at 2 KB/s...")
        idle, idle_errors = timed_requests(port, 4, search)
        stop = threading.Event()
        threads, statuses = slow_exporters(port, 4, stop)
        time.sleep(1)
        busy, busy_errors = timed_requests(port, 4, search)
        stop.set()
        for thread in threads:
            thread.join()
        served = statuses.count(200)
        rows.append(("search p99, idle", idle, idle_errors, ""))
        rows.append((f"search p99, four exporters at 2 KB/s ({served} served, {len(statuses) - served} told 503)",
                     busy, busy_errors, percentile(busy, 0.99) / percentile(idle, 0.99)))
        log(f"fairness at {label(n)}: writes idle, then beside a trickling import...")
        idle_writes, idle_write_errors = timed_requests(port, 1, write)
        stop = threading.Event()
        trickler = trickling_import(port, stop)
        time.sleep(1)
        busy_writes, busy_write_errors = timed_requests(port, 1, write)
        stop.set()
        trickler.join()
        rows.append(("write p99, idle", idle_writes, idle_write_errors, ""))
        rows.append(("write p99, beside a trickling import", busy_writes, busy_write_errors,
                     percentile(busy_writes, 0.99) / percentile(idle_writes, 0.99)))
        return rows
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    results = [(n, measure(n)) for n in SIZES]
    print(f"\n### Fair sharing over HTTP ({DURATION} s each, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n")
    print("| people | measure | requests | p50 (ms) | p99 (ms) | errors | p99 / idle |")
    print("|---|---|---|---|---|---|---|")
    for n, rows in results:
        for name, latencies, errors, ratio in rows:
            ratio_text = f"{ratio:.2f}×" if ratio != "" else ""
            print(f"| {label(n)} | {name} | {len(latencies)} | {percentile(latencies, 0.5):.1f} | "
                  f"{percentile(latencies, 0.99):.1f} | {errors} | {ratio_text} |")


if __name__ == "__main__":
    main()
