"""The tests of the two Meilisearch SDK suites that are outside what ftsearch's
Meilisearch-compatible API declares (docs/meilisearch.md, "Compatibility with the SDKs' own
suites", is this list in prose): each rule names a suite, what the tests it covers have in
common, and why ftsearch does not do it. Every other test must pass."""

import fnmatch

# (suite, glob over the pytest node id, reason)
RULES = [
]


def reason_out_of_scope(suite, nodeid):
    for rule_suite, pattern, reason in RULES:
        if rule_suite in (suite, "both") and fnmatch.fnmatchcase(nodeid, pattern):
            return reason
    return None
