#!/usr/bin/env python3
"""Issue 47's rows of scripts/bench: filters, facets and sort, in process, beside Tantivy's
terms aggregation on the same data.

    structured.py ROOT WORK [--quick] [--sizes N,N...]

For each size: imports WORK/data/N/people.ndjson (which carries tags) and reports the
import's wall time and the database's size; runs `ftsearch-bench structured` (see
Sources/ftsearch-bench/Structured.swift) with 100 companies drawn from the data; indexes the
same records in Tantivy (names and company as text, company and tags also as raw fast
fields) and times a terms aggregation of company and tags (100 buckets each, as ftsearch
returns at most 100 values a field) over the one-letter prefix queries ftsearch times, each
once to warm up, then once timed. Prints one markdown table.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tantivy_peer import prefix_query, percentile  # noqa: E402

import tantivy  # noqa: E402


def label(n):
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1000}k"


def db_size(path):
    return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))


def remove_db(path):
    for suffix in ("", "-wal", "-shm", "-journal", "-history"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def tantivy_index(ndjson, index_dir):
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True)
    for field in ("first_name", "last_name", "company"):
        builder.add_text_field(field, stored=True)
    builder.add_text_field("company_value", fast=True, tokenizer_name="raw")
    builder.add_text_field("tags", fast=True, tokenizer_name="raw")
    os.makedirs(index_dir, exist_ok=True)
    people = tantivy.Index(builder.build(), path=index_dir, reuse=False)
    writer = people.writer()
    with open(ndjson, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            document = tantivy.Document()
            document.add_integer("id", row["id"])
            for field in ("first_name", "last_name", "company"):
                document.add_text(field, row[field])
            document.add_text("company_value", row["company"])
            for tag in row.get("tags", []):
                document.add_text("tags", tag)
            writer.add_document(document)
    writer.commit()
    writer.wait_merging_threads()
    people.reload()
    return people


def tantivy_facets(people, texts):
    aggregation = {"company": {"terms": {"field": "company_value", "size": 100}},
                   "tags": {"terms": {"field": "tags", "size": 100}}}
    timings = []
    for text in texts:
        searcher = people.searcher()
        query = prefix_query(people.schema, text)
        searcher.aggregate(query, aggregation)  # warm the pages this query reads
        started = time.perf_counter()
        searcher = people.searcher()
        searcher.search(query, limit=20, count=True)
        searcher.aggregate(query, aggregation)
        timings.append((time.perf_counter() - started) * 1000)
    return {"p50": percentile(timings, 0.5), "p90": percentile(timings, 0.9),
            "p99": percentile(timings, 0.99), "count": len(timings)}


def parse_rows(out):
    rows = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 6:
            name, plan, p50, p90, p99, count = parts
            rows[f"{name} {plan}"] = {"p50": float(p50), "p90": float(p90), "p99": float(p99),
                                      "count": int(count)}
    return rows


def measure(root, work, n):
    data = os.path.join(work, "data", str(n))
    ftsearch = os.path.join(root, ".build", "release", "ftsearch")
    bench = os.path.join(root, ".build", "release", "ftsearch-bench")
    env = dict(os.environ, FTSEARCH_NO_HISTORY="1")
    env.pop("FTSEARCH_DB", None)
    db = os.path.join(work, f"structured-{label(n)}.db")
    remove_db(db)
    started = time.perf_counter()
    subprocess.run([ftsearch, "import", os.path.join(data, "people.ndjson"), "--db", db, "--quiet"],
                   check=True, env=env)
    import_seconds = time.perf_counter() - started
    companies = sorted({json.loads(line)["company"] for line in open(os.path.join(data, "people.ndjson"),
                                                                    encoding="utf-8")})
    chosen = random.Random(47).sample(companies, min(100, len(companies)))
    companies_file = os.path.join(work, f"companies-{label(n)}.txt")
    with open(companies_file, "w", encoding="utf-8") as f:
        f.write("\n".join(chosen) + "\n")
    out = subprocess.run([bench, "structured", db, os.path.join(data, "queries.tsv"), companies_file],
                         check=True, capture_output=True, text=True, env=env).stdout
    rows = parse_rows(out)
    one_letter = [line.split("\t", 1)[1].rstrip("\n")
                  for line in open(os.path.join(data, "queries.tsv"), encoding="utf-8")
                  if line.startswith("prefix1\t")][:100]
    people = tantivy_index(os.path.join(data, "people.ndjson"), os.path.join(work, f"tantivy-facets-{label(n)}"))
    rows["facets1 tantivy"] = tantivy_facets(people, one_letter)
    return {"import_seconds": import_seconds, "db_bytes": db_size(db), "rows": rows}


def table(results):
    lines = ["| size | row | p50 ms | p90 ms | p99 ms | n |", "|---|---|---:|---:|---:|---:|"]
    for n, result in results.items():
        for name, row in result["rows"].items():
            lines.append(f"| {label(n)} | {name} | {row['p50']:.2f} | {row['p90']:.2f} | "
                         f"{row['p99']:.2f} | {row['count']} |")
        lines.append(f"| {label(n)} | import people.ndjson (s) | {result['import_seconds']:.2f} | | | |")
        lines.append(f"| {label(n)} | database size (MiB) | {result['db_bytes'] / 2**20:.1f} | | | |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("work")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")])
    arguments = parser.parse_args()
    sizes = arguments.sizes or ([100_000] if arguments.quick else [100_000, 1_000_000])
    results = {n: measure(arguments.root, arguments.work, n) for n in sizes}
    with open(os.path.join(arguments.work, "structured.json"), "w") as f:
        json.dump(results, f, indent=2)
    print(table(results))


if __name__ == "__main__":
    main()
