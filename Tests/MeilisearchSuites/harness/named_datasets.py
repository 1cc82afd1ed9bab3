"""The suites' datasets, pointed at ftsearch's `animals` index: each document gets a `name` (the
index's required searchable field) equal to its `title`, and keeps every field it had."""

import csv
import io
import json


def named(document):
    if "title" in document and "name" not in document:
        return {**document, "name": document["title"]}
    return document


def named_json(documents):
    return [named(document) for document in documents]


def named_csv(text, delimiter=","):
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows or "title" not in rows[0]:
        return text
    title = rows[0].index("title")
    output = io.StringIO()
    writer = csv.writer(output, delimiter=delimiter, lineterminator="\n")
    writer.writerow(rows[0] + ["name"])
    for row in rows[1:]:
        writer.writerow(row + [row[title] if title < len(row) else ""])
    return output.getvalue()


def named_ndjson(text):
    return "".join(json.dumps(named(json.loads(line))) + "\n" for line in text.splitlines() if line.strip())
