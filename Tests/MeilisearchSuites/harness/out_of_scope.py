"""The tests of the two Meilisearch SDK suites that are outside what ftsearch's
Meilisearch-compatible API declares, each with its reason: out-of-scope.tsv lists them (suite,
reason, test), REASONS says why; docs/meilisearch.md gives the reasons and their counts. Every
other test must pass. The list came from a run of every test (run.py --all) and was reviewed:
each entry is one parameter set of a test, or a test function with all of its own, and run.py
--all names any entry that passes, which must then go."""

import pathlib

# reason -> why
REASONS = {
    "index-names": (
        "ftsearch serves exactly two indexes, `people` and `animals`, that always exist: tests that "
        "create, rename, swap, list as empty or delete other indexes (uuid4 names, `indexUID2`, "
        "`books`, ...), or that need an index creation to succeed"
    ),
    "settings": (
        "the settings ftsearch does not apply (ranking rules, synonyms, stop words, typo tolerance, "
        "embedders, distinct attribute, dictionary, separators, proximity precision, localized "
        "attributes, ...), `/fields`, `/compact`, and the tests that set one up first; and tests that "
        "set filterable or sortable attributes first but expect hits from fields ftsearch does not "
        "search (`overview`, `genre`) or from a changed ranking"
    ),
    "keys": (
        "one master key (`--api-key`): the keys API (`/keys`) and tenant tokens built on its keys"
    ),
    "instance": (
        "instance features ftsearch does not have: webhooks, dumps, snapshots, batches, index "
        "swaps, network and sharding, experimental features, export, chats, template rendering, "
        "dynamic search rules, editing documents by function"
    ),
    "primary-keys": (
        "the primary key is `id` and ids are positive integers: tests that use another primary key "
        "(`book_id`, `objectID`, `release_date`) or uuid ids"
    ),
    "vectors": (
        "vectors: documents fetched with their `_vectors`, similar documents, vector and hybrid "
        "search"
    ),
    "parameters": (
        "search parameters ftsearch refuses with their `invalid_search_*` code: "
        "`rankingScoreThreshold`, `showRankingScoreDetails`, `showPerformanceDetails`"
    ),
    "searchable": (
        "the searchable fields are fixed (people: first_name, last_name, company; animals: name): "
        "tests whose expected hits come from other fields (`overview`, `genre`) or that name them "
        "in `attributesToSearchOn`"
    ),
    "names": (
        "a record needs its kind's name (animals: `name`): tests whose own documents have only a "
        "`title` (the fixtures' datasets get a `name`, inline documents cannot)"
    ),
    "sdk-quirk": (
        "the SDK sends a `str` CSV body JSON-encoded (a quoted string), which ftsearch refuses at "
        "once as `malformed_payload`"
    ),
    "tasks": (
        "a write is applied before its 202 answer, so its task has finished at the first poll: "
        "tests that expect a task still pending (a poll interval, a timeout)"
    ),
}

def _entries():
    tables = {"official": {}, "sdk": {}}
    path = pathlib.Path(__file__).with_name("out-of-scope.tsv")
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            suite, reason, node = line.split("\t")
            assert reason in REASONS, f"{node}: unknown reason {reason}"
            tables[suite][node] = reason
    return tables


TABLES = _entries()


def reason_out_of_scope(suite, nodeid):
    """The reason `nodeid` (`tests/x.py::test_y[params]`) is out of scope, or None: an entry
    names a test with its parameters, or a test function with all of them."""
    table = TABLES[suite]
    return table.get(nodeid) or table.get(nodeid.split("[")[0])
