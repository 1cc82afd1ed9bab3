"""ftsearch's harness for the official `meilisearch` SDK's suite (v0.43.0), installed as the
suite's tests/conftest.py; the published one is kept beside it as tests/conftest_published.py and
every fixture not redefined here is the published one. What changes, and why:

- The index the tests fill is `animals` (ftsearch has two indexes, people and animals), and the
  datasets get a `name` equal to their `title` (see named_datasets.py).
- Clean-up deletes the indexes' documents, which ftsearch can do, instead of the indexes, which
  it cannot; webhooks, which ftsearch does not have, are not cleaned.
"""

import json

from pytest import fixture

from tests import common

common.INDEX_UID = "animals"
common.INDEX_FIXTURE[0]["uid"] = "animals"

from tests.conftest_published import *  # noqa: E402,F401,F403  (every published fixture)
from tests.conftest_published import TEST_TASK_TIMEOUT_MS  # noqa: E402

from named_datasets import named_csv, named_json, named_ndjson  # noqa: E402


def _clear_documents(meilisearch_client):
    for uid in ("people", "animals"):
        task = meilisearch_client.index(uid).delete_all_documents()
        meilisearch_client.wait_for_task(task.task_uid, timeout_in_ms=TEST_TASK_TIMEOUT_MS)


@fixture(autouse=True)
def clear_indexes(client):
    _clear_documents(client)
    yield
    _clear_documents(client)


@fixture(autouse=True)
def clear_webhooks():
    yield


def _read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


@fixture(scope="session")
def small_movies():
    yield named_json(json.loads(_read("./datasets/small_movies.json")))


@fixture(scope="session")
def small_movies_json_file():
    return json.dumps(named_json(json.loads(_read("./datasets/small_movies.json")))).encode("utf-8")


@fixture(scope="session")
def songs_csv():
    return named_csv(_read("./datasets/songs.csv")).encode("utf-8")


@fixture(scope="session")
def songs_csv_custom_separator():
    return named_csv(_read("./datasets/songs_custom_delimiter.csv"), ";").encode("utf-8")


@fixture(scope="session")
def songs_ndjson():
    return named_ndjson(_read("./datasets/songs.ndjson")).encode("utf-8")


@fixture(scope="session")
def nested_movies():
    yield named_json(json.loads(_read("./datasets/nested_movies.json")))
