#!/usr/bin/env python3
"""Tantivy, the Lucene-class peer of scripts/bench, through its official Python bindings.

    tantivy_peer.py index PEOPLE.csv INDEX_DIR
    tantivy_peer.py latency INDEX_DIR QUERIES.tsv MAX-PER-CLASS MAX-ONE-LETTER

index: reads PEOPLE.csv with Python's csv module and indexes every person's first name, last
name and company (stored, Tantivy's default tokenizer), then commits and waits for merges.
Prints the seconds from opening the CSV to the end of the merges, so the CSV reading is
included as it is in ftsearch's import time.

latency: runs the queries of QUERIES.tsv ("class<TAB>text" lines, the workload of
ftsearch-bench) the way a Tantivy user would ask ftsearch's question: every word of the text
must start a word of the first name, last name or company, so each word becomes an OR of
per-field prefix queries (`fuzzy_term_query` with distance 0 and prefix=True) and the words are
AND'ed. Counts every match and loads the stored fields of the top 20. Each query runs once to
warm up, then once timed. Prints "class p50 p90 p99 count" rows in milliseconds.
"""
import csv
import os
import re
import sys
import time

import tantivy

FIELDS = ("first_name", "last_name", "company")
# Tantivy's default tokenizer splits on anything not alphanumeric and lowercases; it does not
# fold accents, so query words are lowercased only.
WORD = re.compile(r"[^\W_]+")


def schema():
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True)
    for field in FIELDS:
        builder.add_text_field(field, stored=True)
    return builder.build()


def index(csv_path, index_dir):
    os.makedirs(index_dir, exist_ok=True)
    started = time.perf_counter()
    people = tantivy.Index(schema(), path=index_dir, reuse=False)
    writer = people.writer()
    with open(csv_path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            document = tantivy.Document()
            document.add_integer("id", int(row["id"]))
            for field in FIELDS:
                document.add_text(field, row[field])
            writer.add_document(document)
    writer.commit()
    writer.wait_merging_threads()
    print(f"{time.perf_counter() - started:.6f}")


def prefix_query(people_schema, text):
    """Every word of text starts a word of some field: AND over words of OR over fields."""
    words = [
        tantivy.Query.boolean_query([
            (tantivy.Occur.Should,
             tantivy.Query.fuzzy_term_query(people_schema, field, word, distance=0, prefix=True))
            for field in FIELDS])
        for word in WORD.findall(text.lower())]
    return tantivy.Query.boolean_query([(tantivy.Occur.Must, query) for query in words])


def search(people, text):
    searcher = people.searcher()
    result = searcher.search(prefix_query(people.schema, text), limit=20, count=True)
    top = [searcher.doc(address).to_dict() for _, address in result.hits]
    return result.count, top


def percentile(values, p):
    ordered = sorted(values)
    return ordered[round(p * (len(ordered) - 1))] if ordered else float("nan")


def latency(index_dir, queries_path, maximum, maximum_one_letter):
    people = tantivy.Index.open(index_dir)
    classes = {}
    with open(queries_path, encoding="utf-8") as f:
        for line in f:
            name, _, text = line.rstrip("\n").partition("\t")
            cap = maximum_one_letter if name == "prefix1" else maximum
            texts = classes.setdefault(name, [])
            if text and len(texts) < cap:
                texts.append(text)
    for name, texts in classes.items():
        timings = []
        for text in texts:
            search(people, text)  # warm the pages this query reads
            started = time.perf_counter()
            search(people, text)
            timings.append((time.perf_counter() - started) * 1000)
        print("\t".join([name] + [f"{percentile(timings, p):.3f}" for p in (0.5, 0.9, 0.99)]
                        + [str(len(timings))]))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "index":
        index(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
