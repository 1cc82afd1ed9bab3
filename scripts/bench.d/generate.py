#!/usr/bin/env python3
"""Deterministic benchmark data for scripts/bench.

    generate.py OUTDIR COUNT [--seed N]

Writes OUTDIR/people.csv, people.json (one JSON array), people.ndjson, history.txt (100k past
queries, one a line) and queries.tsv (class<TAB>text: the in-process latency workload).
The same seed and COUNT always give byte-identical files (faker is pinned in requirements.txt).

Names come from faker pools of several locales (diacritics: Zoë, Müller, Łukasz, Søren),
plus apostrophes (O'Brien) and hyphenated double names; companies carry '&', ',' and '-';
a few notes are quoted CSV fields with embedded newlines; the JSON files also carry tags.
"""
import argparse
import csv
import json
import os
import random

from faker import Faker

LOCALES = ["en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "pl_PL", "da_DK", "sv_SE",
           "es_ES", "it_IT", "cs_CZ", "pt_BR", "nl_NL", "fi_FI"]
EXTRA_FIRST = ["Zoë", "Łukasz", "Søren", "Seán", "Siobhán", "Anaïs", "José", "Ånund", "Chloé", "Jürgen"]
EXTRA_LAST = ["Müller", "O'Brien", "O'Connor", "D'Angelo", "Ødegaard", "Smith-Jones", "Nuñez",
              "Wałęsa", "Çelik", "L'Estrange"]
# Tags of a person (people.json and people.ndjson only: CSV has no arrays), for the facet rows:
# none to three, a few common, most rare.
TAGS = ["customer", "lead", "vip", "partner", "supplier", "press", "investor", "alumni",
        "speaker", "volunteer", "board", "staff"]
CITIES = ["Oslo", "Zürich", "København", "Kraków", "São Paulo", "New York, NY", "Lyon", "Dublin",
          "Málaga", "Göteborg"]


def pools(seed):
    fake = Faker(LOCALES)
    Faker.seed(seed)
    first = sorted({fake.first_name() for _ in range(6000)}) + EXTRA_FIRST
    last = sorted({fake.last_name() for _ in range(9000)}) + EXTRA_LAST
    companies = sorted({fake.company() for _ in range(6000)})
    companies += [f"{a} & {b}" for a, b in zip(last[::97], last[5::97])]
    companies += [f"{a}, {b} and Sons" for a, b in zip(last[1::89], last[7::89])]
    companies += [f"{a}-{b} GmbH" for a, b in zip(last[2::83], last[9::83])]
    return first, last, companies


def people(count, seed):
    first, last, companies = pools(seed)
    rng = random.Random(seed)
    # Zipf-like popularity: a few names are very common, as in real data.
    first_w = [1.0 / (i + 10) for i in range(len(first))]
    last_w = [1.0 / (i + 10) for i in range(len(last))]
    rng.shuffle(first_w)
    rng.shuffle(last_w)
    firsts = rng.choices(first, first_w, k=count)
    lasts = rng.choices(last, last_w, k=count)
    comps = rng.choices(companies, k=count)
    # A generator of its own, so that adding tags changed no other field.
    tag_rng = random.Random(seed + 47)
    tag_w = [1.0 / (i + 1) for i in range(len(TAGS))]
    for i in range(count):
        f, l, c = firsts[i], lasts[i], comps[i]
        r = rng.random()
        if r < 0.05:
            l = f"{l}-{rng.choice(last)}"
        elif r < 0.08:
            f = f"{f} {rng.choice(first)}"
        email = (f.split()[0] + "." + l.replace("'", "").split("-")[0]).lower() + f"{i % 97}@example.org"
        row = {"id": i + 1, "first_name": f, "last_name": l, "company": c, "email": email,
               "city": CITIES[i % len(CITIES)]}
        row["tags"] = sorted(set(tag_rng.choices(TAGS, tag_w, k=tag_rng.randint(0, 3))))
        if i % 50 == 7:
            row["notes"] = f"Met at the {rng.choice(CITIES)} office.\nFollow up: \"call back\", maybe."
        else:
            row["notes"] = ""
        yield row


def words(rows, rng, n):
    sample = rng.sample(rows, min(n, len(rows)))
    return [w for row in sample for w in (row["first_name"] + " " + row["last_name"]).split()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=20260401)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    fields = ["id", "first_name", "last_name", "company", "email", "city", "notes"]
    rows = list(people(args.count, args.seed))

    with open(os.path.join(args.outdir, "people.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.outdir, "people.ndjson"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(os.path.join(args.outdir, "people.json"), "w", encoding="utf-8") as f:
        f.write("[\n")
        for i, row in enumerate(rows):
            f.write(json.dumps(row, ensure_ascii=False) + (",\n" if i + 1 < len(rows) else "\n"))
        f.write("]\n")

    rng = random.Random(args.seed + 1)
    vocabulary = words(rows, rng, 5000)
    ascii_words = [w for w in vocabulary if w.isascii() and w.isalpha() and len(w) >= 4]

    # 100k past queries: common ones repeat (so history keys have use counts), some typos.
    history = []
    popular = [rng.choice(vocabulary) + ("" if rng.random() < 0.5 else " " + rng.choice(vocabulary))
               for _ in range(20000)]
    for _ in range(100_000):
        r = rng.random()
        if r < 0.6:
            history.append(rng.choice(popular))
        elif r < 0.85:
            history.append(rng.choice(vocabulary)[: rng.randint(2, 6)])
        else:
            history.append(" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 3))))
    with open(os.path.join(args.outdir, "history.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(history) + "\n")

    # The latency workload: prefixes drawn from the data, so every query has matches.
    with open(os.path.join(args.outdir, "queries.tsv"), "w", encoding="utf-8") as f:
        for length, cls in ((1, "prefix1"), (2, "prefix2"), (3, "prefix3")):
            for _ in range(200):
                f.write(f"{cls}\t{rng.choice(ascii_words)[:length].lower()}\n")
        for _ in range(200):
            a, b = rng.choice(ascii_words), rng.choice(ascii_words)
            row = rng.choice(rows)
            # two tokens of one record, so the pair has matches: a first-name and a last-name prefix
            f_, l_ = row["first_name"].split()[0], row["last_name"].split("-")[0]
            f.write(f"twotoken\t{f_[: rng.randint(2, 4)]} {l_[: rng.randint(2, 4)]}\n")


if __name__ == "__main__":
    main()
