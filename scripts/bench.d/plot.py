#!/usr/bin/env python3
"""Draws a scripts/bench run as one SVG.

    plot.py RESULTS.json OUT.svg

Six panels on log scales, each against the number of people: import time (ftsearch's CSV,
JSON and NDJSON imports, the sqlite3 CLI floor, sqlite-utils, Tantivy), then for each query
class the in-process p50 (solid, circles) and p99 (dashed, triangles) of ftsearch, the naive FTS5 SQL and Tantivy.
"""
import json
import statistics
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

SIZES = {"10k": 10_000, "100k": 100_000, "1M": 1_000_000}
CLASSES = (("prefix1", "1-letter prefix"), ("prefix2", "2-letter prefix"),
           ("prefix3", "3-letter prefix"), ("twotoken", "two-token prefix"))
COLORS = {"ftsearch": "#d62728", "ftsearch-first": "#ff9896", "floor": "#7f7f7f", "sqlite-utils": "#1f77b4", "tantivy": "#2ca02c"}


def series(results, value):
    """(sizes, values) over the sizes of the run for which value(size) is not None."""
    points = [(SIZES[name], value(size)) for name, size in results["sizes"].items()]
    points = [(n, v) for n, v in points if v is not None]
    return [n for n, _ in points], [v for _, v in points]


def import_panel(axes, results):
    def wall(key):
        return lambda size: statistics.median(size["imports"][key]["wall"]) if key in size["imports"] else None

    lines = [("ftsearch CSV", wall("ftsearch csv"), "ftsearch", "-"),
             ("ftsearch JSON", wall("ftsearch json"), "ftsearch", ":"),
             ("ftsearch NDJSON", wall("ftsearch ndjson"), "ftsearch", "-."),
             ("sqlite3 CLI floor (CSV)", wall("floor csv"), "floor", "-"),
             ("sqlite-utils (CSV)", wall("sqlite-utils csv"), "sqlite-utils", "-"),
             ("Tantivy (CSV read in Python)",
              lambda size: statistics.median(size["tantivy"]["index"]["wall"]) if "tantivy" in size else None,
              "tantivy", "-")]
    for title, value, tool, style in lines:
        x, y = series(results, value)
        axes.plot(x, y, style, marker="o", color=COLORS[tool], label=title)
    axes.set_title("import (s)")
    axes.legend(fontsize=7)


def query_panel(axes, results, cls, title):
    def latency(plan, p):
        return lambda size: size["latency"].get(f"{cls} {plan}", {}).get(p)

    def tantivy(p):
        return lambda size: size.get("tantivy", {}).get("latency", {}).get(cls, {}).get(p)

    for name, value, tool in (("ftsearch, kept ranking", lambda p: latency("fast", p), "ftsearch"),
                              ("ftsearch, first search", lambda p: latency("uncached", p), "ftsearch-first"),
                              ("naive FTS5 SQL", lambda p: latency("naive", p), "floor"),
                              ("Tantivy", tantivy, "tantivy")):
        for p, style, marker in (("p50", "-", "o"), ("p99", "--", "v")):
            x, y = series(results, value(p))
            axes.plot(x, y, style, marker=marker, color=COLORS[tool], label=f"{name} {p}")
    axes.set_title(f"query {title} (ms)")


def main():
    results_path, out = sys.argv[1], sys.argv[2]
    with open(results_path) as f:
        results = json.load(f)
    figure, grid = plt.subplots(2, 3, figsize=(15, 9))
    panels = grid.flatten()
    import_panel(panels[0], results)
    for axes, (cls, title) in zip(panels[1:], CLASSES):
        query_panel(axes, results, cls, title)
    for axes in panels[:5]:
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("people")
        axes.grid(True, which="both", alpha=0.3)
    machine = results["machine"]
    panels[5].axis("off")
    panels[5].legend(*panels[1].get_legend_handles_labels(), loc="upper left", title="queries")
    panels[5].text(0, 0.2, f"ftsearch benchmark, {machine['date']}\n{machine['cpu']}, "
                   f"{machine['cores']} cores, {machine['memory']}, SQLite {machine['sqlite']}\n"
                   "queries in-process: top 20 with an exact total", fontsize=9, va="top")
    figure.tight_layout()
    figure.savefig(out, metadata={"Date": None})


if __name__ == "__main__":
    main()
