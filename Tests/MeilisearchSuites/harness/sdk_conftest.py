"""ftsearch's harness for `meilisearch-python-sdk` 8.0.1's suite (from its sdist on PyPI),
installed as the suite's tests/conftest.py; the published one is kept beside it as
tests/conftest_published.py and every fixture not redefined here is the published one. What
changes, and why:

- The server is the one the runner started (MEILISEARCH_URL), not 127.0.0.1:7700.
- The "empty index" the tests fill is `animals`, emptied (ftsearch has two indexes, people and
  animals, and cannot create one per test), and the movies get a `name` equal to their `title`
  (see named_datasets.py).
- Clean-up deletes the indexes' documents, which ftsearch can do, instead of the indexes.
"""

import json
import os

import pytest

from tests.conftest_published import *  # noqa: F401,F403  (every published fixture)
from tests.conftest_published import SMALL_MOVIES_PATH  # noqa: E402

from named_datasets import named_json  # noqa: E402


@pytest.fixture(scope="session")
def base_url():
    return os.environ["MEILISEARCH_URL"]


async def _clear_documents(async_client):
    for uid in ("people", "animals"):
        task = await async_client.index(uid).delete_all_documents()
        await async_client.wait_for_task(task.task_uid)


@pytest.fixture(autouse=True)
async def clear_indexes(async_client):
    await _clear_documents(async_client)
    yield
    await _clear_documents(async_client)


@pytest.fixture
def small_movies():
    with open(SMALL_MOVIES_PATH) as movie_file:
        yield named_json(json.loads(movie_file.read()))


@pytest.fixture
async def async_empty_index(async_client):
    async def index_maker():
        return await async_client.get_index("animals")

    return index_maker


@pytest.fixture
def empty_index(client):
    def index_maker():
        return client.get_index("animals")

    return index_maker
