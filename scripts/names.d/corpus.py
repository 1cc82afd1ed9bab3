#!/usr/bin/env python3
"""A corpus of real names from 26 countries in 12 scripts, and how well ftsearch finds them.

    corpus.py build OUTDIR [--per-country N] [--seed N]
    corpus.py measure OUTDIR --ftsearch BIN [--sample N] [--seed N]

`build` writes OUTDIR/people.ndjson (first name, last name, company, country) and
OUTDIR/queries.tsv: for a seeded sample of people per country, one query of each type.
First and last names are drawn from the PyPI packages `names-dataset` (the country's most
frequent names, kept only when written in the country's script) and `faker` (the country's
locale); Serbian Cyrillic is the Serbian Latin names spelled in Cyrillic, letter for letter.
The same seed and package versions always give the same files.

`measure` imports the people into a new database with BIN and runs every query with it
(`ftsearch query --format json`), then prints a markdown table per script and query type: the
share of the sampled people found at all, and found in the top 10 among those whose full name
is unique in the corpus.

Query types (each for the sampled person's own names):
- exact: `first last` as written
- prefix: the first name and the last name's first 3 letters
- case: `first last` in upper case (swapped case where the script has no case)
- ascii: the Unidecode transliteration (Latin, Greek, Cyrillic; Latin only when it differs)
- digraph: German and Nordic ASCII spellings (ä ae, ö oe, ü ue, å aa, ø oe, æ ae), when differing
- nospace: last name and first name written together (CJK)
- noarticle: an Arabic last name starting with the article ال, without it
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import unicodedata

# country, faker locale (None: names-dataset only), script
COUNTRIES = [
    ("US", "en_US", "Latin"), ("DE", "de_DE", "Latin"), ("DK", "da_DK", "Latin"),
    ("SE", "sv_SE", "Latin"), ("NO", None, "Latin"), ("FR", "fr_FR", "Latin"),
    ("PL", "pl_PL", "Latin"), ("TR", "tr_TR", "Latin"), ("VN", "vi_VN", "Latin"),
    ("RS", None, "Latin"), ("RU", "ru_RU", "Cyrillic"), ("UA", "uk_UA", "Cyrillic"),
    ("BG", "bg_BG", "Cyrillic"), ("RS-Cyrl", None, "Cyrillic"), ("GR", "el_GR", "Greek"),
    ("EG", "ar_AA", "Arabic"), ("SA", "ar_SA", "Arabic"), ("IL", "he_IL", "Hebrew"),
    ("IN", "hi_IN", "Devanagari"), ("TH", "th_TH", "Thai"), ("CN", "zh_CN", "Han"),
    ("TW", "zh_TW", "Han"), ("JP", "ja_JP", "Japanese"), ("KR", "ko_KR", "Hangul"),
    ("AM", "hy_AM", "Armenian"), ("GE", "ka_GE", "Georgian"),
]
ROMANIZED = {"Latin", "Greek", "Cyrillic"}
DIGRAPHS = {"ä": "ae", "ö": "oe", "ü": "ue", "å": "aa", "ø": "oe", "æ": "ae",
            "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "Å": "Aa", "Ø": "Oe", "Æ": "Ae"}


def script_of(name):
    """The script of `name`'s letters, as the corpus names them; None when mixed or other."""
    scripts = set()
    for ch in name:
        if not ch.isalpha():
            continue
        n = unicodedata.name(ch, "")
        if n.startswith("LATIN"):
            scripts.add("Latin")
        elif n.startswith("CYRILLIC"):
            scripts.add("Cyrillic")
        elif n.startswith("GREEK"):
            scripts.add("Greek")
        elif n.startswith("ARABIC"):
            scripts.add("Arabic")
        elif n.startswith("HEBREW"):
            scripts.add("Hebrew")
        elif n.startswith("DEVANAGARI"):
            scripts.add("Devanagari")
        elif n.startswith("THAI"):
            scripts.add("Thai")
        elif n.startswith("CJK"):
            scripts.add("Han")
        elif n.startswith(("HIRAGANA", "KATAKANA")):
            scripts.add("Kana")
        elif n.startswith("HANGUL"):
            scripts.add("Hangul")
        elif n.startswith("ARMENIAN"):
            scripts.add("Armenian")
        elif n.startswith("GEORGIAN"):
            scripts.add("Georgian")
        else:
            scripts.add("other")
    if scripts <= {"Han", "Kana"} and scripts:
        return "Japanese" if "Kana" in scripts else "Han"
    return scripts.pop() if len(scripts) == 1 else None


def fits(name, script):
    found = script_of(name)
    return found == script or (script == "Japanese" and found == "Han")


def dataset_names(cache):
    """The top names of each country from names-dataset (slow to load: kept in `cache`)."""
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            return json.load(f)
    from names_dataset import NameDataset
    dataset = NameDataset()
    names = {}
    for country, _, _ in COUNTRIES:
        code = country[:2]
        first = dataset.get_top_names(n=300, country_alpha2=code, use_first_names=True)
        last = dataset.get_top_names(n=300, country_alpha2=code, use_first_names=False)
        names[code] = {
            "first": sorted({n for g in first.get(code, {}).values() for n in g}),
            "last": sorted(set(last.get(code, []))),
        }
    with open(cache, "w", encoding="utf-8") as f:
        json.dump(names, f, ensure_ascii=False, indent=0)
    return names


SERBIAN = {"lj": "љ", "nj": "њ", "dž": "џ", "a": "а", "b": "б", "c": "ц", "č": "ч", "ć": "ћ",
           "d": "д", "đ": "ђ", "e": "е", "f": "ф", "g": "г", "h": "х", "i": "и", "j": "ј",
           "k": "к", "l": "л", "m": "м", "n": "н", "o": "о", "p": "п", "r": "р", "s": "с",
           "š": "ш", "t": "т", "u": "у", "v": "в", "z": "з", "ž": "ж"}


def serbian_cyrillic(name):
    """Serbian Latin spelled in Serbian Cyrillic (the two alphabets map letter for letter)."""
    out, i, lower = [], 0, name.lower()
    while i < len(lower):
        pair = lower[i:i + 2]
        letter = SERBIAN.get(pair) if len(pair) == 2 else None
        step = 2 if letter else 1
        letter = letter or SERBIAN.get(lower[i], lower[i])
        out.append(letter.upper() if name[i].isupper() else letter)
        i += step
    return "".join(out)


def build(args):
    from faker import Faker
    os.makedirs(args.outdir, exist_ok=True)
    names = dataset_names(os.path.join(args.outdir, "names-dataset.json"))
    serbian = {"Jovanovic": "Jovanović", "Petrovic": "Petrović", "Markovic": "Marković",
               "Nikolic": "Nikolić", "Popovic": "Popović", "Stojanovic": "Stojanović",
               "Ilic": "Ilić", "Ivanovic": "Ivanović", "Milos": "Miloš", "Dordevic": "Đorđević",
               "Zivkovic": "Živković", "Pavlovic": "Pavlović", "Todorovic": "Todorović"}
    rng = random.Random(args.seed)
    rows = []
    for country, locale, script in COUNTRIES:
        code = country[:2]
        first = [n for n in names[code]["first"] if fits(n, "Latin" if code == "RS" else script)]
        last = [n for n in names[code]["last"] if fits(n, "Latin" if code == "RS" else script)]
        companies = []
        if locale:
            fake = Faker(locale)
            fake.seed_instance(args.seed)
            first += [fake.first_name() for _ in range(400)]
            last += [fake.last_name() for _ in range(400)]
            companies = [fake.company() for _ in range(200)]
        if code == "RS":
            first = [serbian.get(n, n) for n in first]
            last = [serbian.get(n, n) for n in last]
        if country == "RS-Cyrl":
            first = [serbian_cyrillic(n) for n in first]
            last = [serbian_cyrillic(n) for n in last]
        first = sorted({n for n in first if fits(n, script) and " " not in n})
        last = sorted({n for n in last if fits(n, script) and " " not in n})
        if not companies:
            companies = [f"{rng.choice(last)} {rng.choice(['Group', 'Ltd', 'AS', 'd.o.o.'])}"
                         for _ in range(200)]
        for _ in range(args.per_country):
            rows.append({"first_name": rng.choice(first), "last_name": rng.choice(last),
                         "company": rng.choice(companies), "country": country,
                         "script": script})
    with open(os.path.join(args.outdir, "people.ndjson"), "w", encoding="utf-8") as f:
        for i, row in enumerate(rows):
            record = {"id": i + 1, "first_name": row["first_name"], "last_name": row["last_name"],
                      "company": row["company"], "country": row["country"]}
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    full = collections.Counter((r["first_name"], r["last_name"]) for r in rows)
    with open(os.path.join(args.outdir, "queries.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tcountry\tscript\tunique\ttype\tquery\n")
        by_country = collections.defaultdict(list)
        for i, row in enumerate(rows):
            by_country[row["country"]].append((i + 1, row))
        for country, _, script in COUNTRIES:
            for rid, row in rng.sample(by_country[country], min(args.sample, len(by_country[country]))):
                unique = int(full[(row["first_name"], row["last_name"])] == 1)
                for kind, text in queries(row, script):
                    f.write(f"{rid}\t{country}\t{script}\t{unique}\t{kind}\t{text}\n")


def queries(row, script):
    import unidecode
    first, last = row["first_name"], row["last_name"]
    name = f"{first} {last}"
    yield "exact", name
    yield "prefix", f"{first} {last[:3]}"
    upper = name.upper()
    yield "case", upper if upper != name else name.swapcase()
    if script in ROMANIZED:
        ascii = unidecode.unidecode(name)
        if ascii != name or script != "Latin":
            yield "ascii", ascii
    digraph = "".join(DIGRAPHS.get(c, c) for c in name)
    if digraph != name:
        yield "digraph", digraph
    if script in ("Han", "Japanese", "Hangul"):
        yield "nospace", last + first
    if script == "Arabic" and last.startswith("ال") and len(last) > 3:
        yield "noarticle", f"{first} {last[2:]}"


def measure(args):
    database = os.path.join(args.outdir, "names.db")
    if os.path.exists(database):
        os.remove(database)
    subprocess.run([args.ftsearch, "import", "--db", database,
                    os.path.join(args.outdir, "people.ndjson")],
                   check=True, stdout=subprocess.DEVNULL)
    found = collections.defaultdict(lambda: [0, 0, 0, 0])  # found, asked, top10, unique asked
    misses = collections.defaultdict(list)
    with open(os.path.join(args.outdir, "queries.tsv"), encoding="utf-8") as f:
        next(f)
        lines = [line.rstrip("\n").split("\t") for line in f]
    for rid, country, script, unique, kind, text in lines:
        result = subprocess.run(
            [args.ftsearch, "query", "--db", database, "--format", "json", "--limit", "0",
             "--", text], capture_output=True, text=True)
        ids = ([hit["id"] for hit in json.loads(result.stdout)["results"]]
               if result.returncode == 0 else [])
        key = (script, kind)
        counts = found[key]
        counts[1] += 1
        position = ids.index(int(rid)) if int(rid) in ids else None
        if position is not None:
            counts[0] += 1
        else:
            misses[key].append(text)
        if unique == "1":
            counts[3] += 1
            if position is not None and position < 10:
                counts[2] += 1
    kinds = ["exact", "prefix", "case", "ascii", "digraph", "nospace", "noarticle"]
    scripts = sorted({s for s, _ in found}, key=lambda s: [c[2] for c in COUNTRIES].index(s))
    print("| script | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for script in scripts:
        cells = []
        for kind in kinds:
            c = found.get((script, kind))
            if not c:
                cells.append("")
                continue
            top = f"{100 * c[2] / c[3]:.0f}%" if c[3] else "-"
            cells.append(f"{100 * c[0] / c[1]:.0f}% / {top}")
        print(f"| {script} | " + " | ".join(cells) + " |")
    print("\nEach cell: found at all / in the top 10 where the full name is unique.")
    if args.misses:
        for key, texts in sorted(misses.items()):
            print(key, texts[:5], file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("outdir")
    b.add_argument("--per-country", type=int, default=3000)
    b.add_argument("--sample", type=int, default=40)
    b.add_argument("--seed", type=int, default=48)
    m = sub.add_parser("measure")
    m.add_argument("outdir")
    m.add_argument("--ftsearch", required=True)
    m.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    build(args) if args.command == "build" else measure(args)


if __name__ == "__main__":
    main()
