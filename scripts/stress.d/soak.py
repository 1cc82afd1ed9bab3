#!/usr/bin/env python3
"""The soak: 8 processes at a time write and read one database for a given time, and at the end
the database must equal the model built from what was acknowledged.

Each of 8 workers runs ftsearch commands in a loop: imports of new and changed records, add,
update, delete, logged queries in every match mode, suggest, history delete, export and optimize.
A worker changes only the records it owns (ids in its own range for imports, the ids `add`
printed for it), and deletes only history entries of its own searches, so that its
acknowledged commands, in its own order, say exactly what the database must hold. At the end:

- the people stored equal the union of the workers' models (lost = acknowledged writes missing
  or wrong, plus history increments missing);
- every search's history count equals the times it was acknowledged (since its last delete);
- `ftsearch check` is clean;
- no command took longer than its wait budget (readers must never wait for a writer; writers
  may wait for each other).

Before the workers start, whole-process `query` is timed on the idle database and beside a
running import, as the ratio of medians.

Usage: soak.py --binary PATH [--minutes M | --seconds S] [--workers 8] [--seed N] [--keep]
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SYLLABLES = [
    "an", "ber", "ca", "dor", "el", "fin", "ga", "hel", "is", "jo", "ka", "lin", "mar", "no",
    "ol", "pe", "qui", "ros", "sa", "tor", "ul", "vi", "wen", "xa", "yo", "zel",
]
MATCH_MODES = ["prefix", "substring", "exact", "fuzzy"]
SHARED_SEARCHES = ["shared ann", "shared lin"]
# Ids above every worker's range: `add` takes the highest id plus one, so its ids never meet an
# import's.
CEILING_ID = 100_000_000
RANGE = 1_000_000
# SortCodeMap.minimumRecords: an import of this many records makes the sort code map.
MAP_MINIMUM = 1 << 17

# Budgets, in seconds, for a whole command in a debug build sharing 2 cores with 7 others:
# searches never wait for a writer (a wait would be a busy timeout, or an import's length);
# an export reads every record (tens of thousands by the end); writers may queue behind writers.
BUDGETS = {
    "query": float(os.environ.get("FTSEARCH_SOAK_SEARCH_BUDGET", "5")),
    "suggest": float(os.environ.get("FTSEARCH_SOAK_SEARCH_BUDGET", "5")),
    "export": float(os.environ.get("FTSEARCH_SOAK_EXPORT_BUDGET", "60")),
}
WRITER_BUDGET = float(os.environ.get("FTSEARCH_SOAK_WRITER_BUDGET", "120"))


def word(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))


def person(rng):
    return [word(rng).capitalize(), word(rng).capitalize(), word(rng).capitalize() + " Ltd"]


class Soak:
    def __init__(self, binary, directory, seed, workers):
        self.binary = binary
        self.directory = directory
        self.database = os.path.join(directory, "soak.sqlite")
        self.environment = dict(os.environ, FTSEARCH_DB=self.database)
        self.environment.pop("FTSEARCH_NO_HISTORY", None)
        self.seed = seed
        self.workers = workers
        self.lock = threading.Lock()
        self.timings = {}  # kind -> [seconds]
        self.failures = []  # (kind, arguments, exit code, stderr)
        self.over_budget = []  # (kind, seconds)

    def run(self, kind, arguments, check=True):
        start = time.monotonic()
        outcome = subprocess.run(
            [self.binary] + arguments, env=self.environment, capture_output=True, text=True)
        elapsed = time.monotonic() - start
        with self.lock:
            self.timings.setdefault(kind, []).append(elapsed)
            budget = BUDGETS.get(kind, WRITER_BUDGET)
            if elapsed > budget:
                self.over_budget.append((kind, round(elapsed, 2)))
            # A reader's stderr must stay empty: a warning there is a lost history entry.
            if check and (outcome.returncode != 0
                          or (kind in ("query", "suggest") and outcome.stderr)):
                self.failures.append((kind, arguments, outcome.returncode, outcome.stderr[-300:]))
        return outcome

    # MARK: Setup and the ratio

    def setup(self, rng):
        path = os.path.join(self.directory, "initial.ndjson")
        with open(path, "w") as file:
            for worker in range(1, self.workers + 1):
                for number in range(1, 301):
                    self.write_record(file, worker * RANGE + number, person(rng))
            self.write_record(file, CEILING_ID, ["Ceiling", "Record", ""])
        subprocess.run([self.binary, "import", "--quiet", path], env=self.environment, check=True)
        # The substring index is built once, by the first substring search; built here, no
        # search in the soak waits for that build.
        subprocess.run(
            [self.binary, "query", "an", "--match", "substring", "--no-history", "--count"],
            env=self.environment, check=True, capture_output=True)

    @staticmethod
    def write_record(file, identifier, fields):
        record = {"first_name": fields[0], "last_name": fields[1], "company": fields[2]}
        if identifier is not None:
            record = {"id": identifier, **record}
        file.write(json.dumps(record) + "\n")

    def query_ratio(self, rng, people, samples=15):
        """Whole-process `query` times in a database of its own: beside the first import of
        `people` people into an empty database, idle once they are in, and beside a second
        import of as many into the filled database. Returns the medians and the maximum."""
        environment = dict(
            self.environment, FTSEARCH_DB=os.path.join(self.directory, "ratio.sqlite"),
            FTSEARCH_NO_HISTORY="1")
        path = os.path.join(self.directory, "big.ndjson")
        with open(path, "w") as file:
            for _ in range(people):
                self.write_record(file, None, person(rng))
        # The empty database, made by importing nothing (a first import into a missing file
        # builds the file aside, and searches beside it find no database until it is whole).
        empty = os.path.join(self.directory, "empty.ndjson")
        open(empty, "w").close()
        subprocess.run([self.binary, "import", "--quiet", "--kind", "people", empty],
                       env=environment, check=True)
        os.unlink(empty)

        def sample():
            start = time.monotonic()
            outcome = subprocess.run(
                [self.binary, "query", "an", "--count"], env=environment, capture_output=True)
            if outcome.returncode != 0 or outcome.stderr:
                with self.lock:
                    self.failures.append(("query beside an import", [], outcome.returncode,
                                          outcome.stderr[-300:]))
            return time.monotonic() - start

        def beside_import():
            start = time.monotonic()
            importer = subprocess.Popen([self.binary, "import", "--quiet", path], env=environment)
            time.sleep(0.3)
            times = []
            while importer.poll() is None:
                times.append(sample())
                time.sleep(0.2)
            if importer.wait() != 0:
                raise SystemExit("soak: the import beside the searches failed")
            return times, time.monotonic() - start

        first, first_import = beside_import()
        idle = [sample() for _ in range(samples)]
        filled, filled_import = beside_import()
        os.unlink(path)
        return {
            "people": people, "idle": statistics.median(idle),
            "first": statistics.median(first) if first else None,
            "filled": statistics.median(filled) if filled else None,
            "max": max(first + filled, default=None), "samples": len(first) + len(filled),
            "imports": (first_import, filled_import),
        }

    # MARK: The workers

    def worker(self, number, deadline, initial, result):
        rng = random.Random(self.seed * 100 + number)
        owned = {number * RANGE + n: initial[number * RANGE + n] for n in range(1, 301)}
        next_id = number * RANGE + 301
        searches = {f"w{number}s{k}": 0 for k in range(4)}
        shared = {text: 0 for text in SHARED_SEARCHES}
        operations = {}
        export = os.path.join(self.directory, f"export-{number}.json")
        kinds = (["import"] * 6 + ["add"] * 10 + ["update"] * 10 + ["delete"] * 5
                 + ["query"] * 40 + ["suggest"] * 15 + ["history delete"] * 3
                 + ["export"] * 3 + ["optimize"] * 1)
        # Worker 1 makes the sort code map at once (an import of as many people as make one)
        # and makes it again halfway (`rebuild`), while the others write and search: every
        # connection then codes its writes with a map another process made.
        rebuild_at = time.monotonic() + (deadline - time.monotonic()) / 2 if number == 1 else None
        if number == 1:
            path = os.path.join(self.directory, "map-import.ndjson")
            batch = {}
            for _ in range(MAP_MINIMUM + 500):
                batch[next_id] = tuple(person(rng))
                next_id += 1
            with open(path, "w") as file:
                for identifier, fields in batch.items():
                    self.write_record(file, identifier, fields)
            operations["map import"] = 1
            if self.run("map import", ["import", "--quiet", path]).returncode == 0:
                owned.update(batch)
            os.unlink(path)
        while time.monotonic() < deadline:
            if rebuild_at is not None and time.monotonic() >= rebuild_at:
                rebuild_at = None
                operations["rebuild"] = 1
                self.run("rebuild", ["rebuild"])
                continue
            kind = rng.choice(kinds)
            operations[kind] = operations.get(kind, 0) + 1
            if kind == "import":
                path = os.path.join(self.directory, f"import-{number}.ndjson")
                batch = {}
                for _ in range(rng.randint(20, 300)):
                    if owned and rng.random() < 0.4:
                        identifier = rng.choice(list(owned))
                    else:
                        identifier, next_id = next_id, next_id + 1
                    batch[identifier] = tuple(person(rng))
                with open(path, "w") as file:
                    for identifier, fields in batch.items():
                        self.write_record(file, identifier, fields)
                if self.run(kind, ["import", "--quiet", path]).returncode == 0:
                    owned.update(batch)
            elif kind == "add":
                fields = person(rng)
                outcome = self.run(kind, [
                    "add", "people", "--first-name", fields[0], "--last-name", fields[1],
                    "--company", fields[2]])
                if outcome.returncode == 0:
                    owned[int(outcome.stdout.strip())] = tuple(fields)
            elif kind == "update" and owned:
                identifier = rng.choice(list(owned))
                company = word(rng).capitalize() + " Inc"
                if self.run(kind, ["update", "people", str(identifier), "--company", company]
                            ).returncode == 0:
                    owned[identifier] = (owned[identifier][0], owned[identifier][1], company)
            elif kind == "delete" and owned:
                identifier = rng.choice(list(owned))
                if self.run(kind, ["delete", "people", str(identifier)]).returncode == 0:
                    del owned[identifier]
            elif kind == "query":
                mode = rng.choice(MATCH_MODES)
                pool = shared if rng.random() < 0.3 else searches
                text = rng.choice(list(pool))
                if self.run(kind, ["query", text, "--match", mode, "--limit", "5"]).returncode == 0:
                    pool[text] += 1
            elif kind == "suggest":
                self.run(kind, ["suggest", rng.choice(["w", "sh", f"w{number}", "an"])])
            elif kind == "history delete":
                text = rng.choice(list(searches))
                if searches[text] > 0:
                    if self.run(kind, ["history", "delete", "--query", text]).returncode == 0:
                        searches[text] = 0
            elif kind == "export":
                self.run(kind, ["export", "--kind", "people", "--format", "ndjson",
                                "--output", export, "--force"])
            elif kind == "optimize":
                self.run(kind, ["optimize"])
        result.update(owned=owned, searches=searches, shared=shared, operations=operations)

    # MARK: The end

    def stored_people(self):
        outcome = subprocess.run(
            [self.binary, "export", "--kind", "people", "--format", "ndjson"],
            env=self.environment, check=True, capture_output=True, text=True)
        people = {}
        for line in outcome.stdout.splitlines():
            record = json.loads(line)
            people[int(record["id"])] = (
                record.get("first_name", ""), record.get("last_name", ""),
                record.get("company", ""))
        return people

    def history_counts(self):
        outcome = subprocess.run(
            [self.binary, "history", "--limit", "0", "--format", "tsv"],
            env=self.environment, check=True, capture_output=True, text=True)
        counts = {}
        for line in outcome.stdout.splitlines()[1:]:
            columns = line.split("\t")
            counts[columns[1]] = int(columns[2])
        return counts


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    parser.add_argument("--keep", action="store_true", help="keep the database folder")
    parser.add_argument("--ratio-people", type=int, default=200_000,
                        help="the people imported beside the timed searches")
    parser.add_argument("--ratio-only", action="store_true",
                        help="only time searches beside an import, then stop")
    parser.add_argument("--max-ratio", type=float, default=3.0,
                        help="fail when searches beside an import take longer than this many "
                             "times idle ones (0: report only)")
    arguments = parser.parse_args()
    duration = arguments.seconds or (arguments.minutes or 1) * 60
    directory = tempfile.mkdtemp(prefix="ftsearch-soak-")
    soak = Soak(os.path.abspath(arguments.binary), directory, arguments.seed, arguments.workers)
    rng = random.Random(arguments.seed)
    print(f"soak: {arguments.workers} workers for {duration:.0f} s, seed {arguments.seed}, "
          f"in {directory}", file=sys.stderr, flush=True)
    soak.setup(rng)
    ratio = soak.query_ratio(rng, arguments.ratio_people)
    worst = max(ratio["first"] or 0, ratio["filled"] or 0)
    print(f"query beside an import of {ratio['people']} people (each import took "
          f"{ratio['imports'][0]:.1f} s and {ratio['imports'][1]:.1f} s): idle median "
          f"{ratio['idle'] * 1000:.0f} ms; beside the first import into an empty database "
          f"median {(ratio['first'] or 0) * 1000:.0f} ms, beside an import into the filled one "
          f"{(ratio['filled'] or 0) * 1000:.0f} ms, max {(ratio['max'] or 0) * 1000:.0f} ms over "
          f"{ratio['samples']} searches: {worst / ratio['idle']:.2f}x idle", flush=True)
    ratio_ok = not arguments.max_ratio or (
        ratio["samples"] > 0 and worst <= arguments.max_ratio * ratio["idle"])
    if arguments.ratio_only:
        shutil.rmtree(directory, ignore_errors=True)
        sys.exit(0 if ratio_ok and not soak.failures else 1)
    before = soak.stored_people()

    deadline = time.monotonic() + duration
    results = [{} for _ in range(arguments.workers)]
    threads = [
        threading.Thread(
            target=soak.worker, args=(number + 1, deadline, before, results[number]))
        for number in range(arguments.workers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # The model: the people nobody owns, as they were, then each worker's own.
    model = {i: fields for i, fields in before.items()
             if not RANGE <= i < (arguments.workers + 1) * RANGE}
    for result in results:
        model.update(result["owned"])  # add's ids, above the ceiling, are owned by the adder
    stored = soak.stored_people()
    missing = [i for i in model if i not in stored]
    wrong = [i for i in model if i in stored and stored[i] != model[i]]
    unexpected = [i for i in stored if i not in model]

    expected_counts = {}
    for result in results:
        for text, count in result["searches"].items():
            if count:
                expected_counts[text] = count
        for text, count in result["shared"].items():
            expected_counts[text] = expected_counts.get(text, 0) + count
    counts = soak.history_counts()
    lost_increments = sum(
        max(0, count - counts.get(text, 0)) for text, count in expected_counts.items())
    extra_increments = sum(
        max(0, counts.get(text, 0) - count) for text, count in expected_counts.items())
    check = subprocess.run([soak.binary, "check"], env=soak.environment, capture_output=True,
                           text=True)

    operations = {}
    for result in results:
        for kind, count in result["operations"].items():
            operations[kind] = operations.get(kind, 0) + count
    # Each command's whole-process time, its waits for other processes' locks included.
    print(f"{'kind':16} {'ops':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind in sorted(soak.timings):
        times = soak.timings[kind]
        print(f"{kind:16} {len(times):7d} {percentile(times, 0.5) * 1000:8.0f} "
              f"{percentile(times, 0.99) * 1000:8.0f} {max(times) * 1000:8.0f}")
    total = sum(len(times) for times in soak.timings.values())
    lost = len(missing) + len(wrong) + lost_increments
    print(f"commands {total}, people {len(stored)}, history entries {len(counts)}, "
          f"searches logged {sum(expected_counts.values())}")
    print(f"lost = {lost} (records missing {len(missing)}, wrong {len(wrong)}, history "
          f"increments {lost_increments}); unexpected records {len(unexpected)}, extra "
          f"increments {extra_increments}; failed commands {len(soak.failures)}; over budget "
          f"{len(soak.over_budget)}; check {'ok' if check.returncode == 0 else check.stderr.strip()}")
    for failure in soak.failures[:10]:
        print(f"  failed: {failure}", file=sys.stderr)
    for item in soak.over_budget[:10]:
        print(f"  over budget: {item}", file=sys.stderr)
    for identifier in (missing + wrong + unexpected)[:10]:
        print(f"  record {identifier}: model {model.get(identifier)}, stored "
              f"{stored.get(identifier)}", file=sys.stderr)
    ok = (ratio_ok and lost == 0 and not unexpected and extra_increments == 0 and not soak.failures
          and not soak.over_budget and check.returncode == 0)
    if not arguments.keep:
        shutil.rmtree(directory, ignore_errors=True)
    print("soak: " + ("passed" if ok else f"FAILED (seed {arguments.seed})"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
