"""A pytest plugin of the runner: deselects the tests out-of-scope.tsv lists (unless
FTSEARCH_SUITE_ALL=1) and writes what happened to FTSEARCH_SUITE_REPORT as JSON."""

import json
import os

from out_of_scope import reason_out_of_scope

_outcomes = {}
_reasons = {}


def pytest_collection_modifyitems(config, items):
    suite = os.environ["FTSEARCH_SUITE"]
    everything = os.environ.get("FTSEARCH_SUITE_ALL") == "1"
    kept, dropped = [], []
    for item in items:
        reason = reason_out_of_scope(suite, item.nodeid)
        if reason:
            _reasons[item.nodeid] = reason
        (dropped if reason and not everything else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        previous = _outcomes.get(report.nodeid)
        if previous in (None, "passed"):
            _outcomes[report.nodeid] = report.outcome if report.when == "call" else (
                "error" if report.outcome == "failed" else report.outcome)


def pytest_sessionfinish(session):
    with open(os.environ["FTSEARCH_SUITE_REPORT"], "w") as file:
        json.dump({"outcomes": _outcomes, "reasons": _reasons}, file, indent=1)
