"""PostgreSQL stopped and restarted during entry, on a cluster of the test's own.

The JSON save endpoint answers 503 with ``Retry-After`` (tournaments/middleware.py) while the
database is away, a save cut off before its commit leaves nothing behind, and saves work again as
soon as the database is back, without the person keying having to do anything.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.cluster import Cluster, postgres_bin
from tests.reliability.services import run_site_script

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    bin_dir = postgres_bin()
    if bin_dir is None:
        if os.environ.get("TROEF_REQUIRE_POSTGRES") == "1":
            pytest.fail("no PostgreSQL binaries under /usr/lib/postgresql to start a cluster with")
        pytest.skip("needs PostgreSQL's binaries (/usr/lib/postgresql/*/bin) to start a cluster")
    cluster = Cluster.create(bin_dir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(scope="module")
def outage(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the site answered and stored, run in a process of its own on the cluster."""
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env.update(
        DATABASE_URL=f"{cluster.url}?connect_timeout=3",
        DJANGO_SETTINGS_MODULE="config.settings",
        TROEF_VAR_DIR=str(tmp_path_factory.mktemp("outage")),
    )
    args = [str(cluster.bin_dir), str(cluster.home), str(cluster.port)]
    report: dict[str, Any] = run_site_script("tests.reliability.outage_site", args, env)
    return report


def test_a_save_while_the_database_is_down_answers_json_503_with_a_retry_hint(
    outage: dict[str, Any],
) -> None:
    for step in ("stopped during the save", "while down"):
        answer = outage["answers"][step]
        assert answer["status"] == 503, (step, answer)
        assert answer["content_type"].startswith("application/json"), (step, answer)
        assert answer["retry_after"] == "5"
        assert json.loads(answer["body"])["code"] == "unavailable"


def test_a_save_cut_off_by_the_outage_leaves_nothing_behind(outage: dict[str, Any]) -> None:
    cut_off = outage["answers"]["stopped during the save"]["pair"]
    refused = outage["answers"]["while down"]["pair"]
    assert "{}/{}".format(*cut_off) not in outage["stored"]
    assert "{}/{}".format(*refused) not in outage["stored"]


def test_saves_work_again_once_the_database_is_back(outage: dict[str, Any]) -> None:
    saved = ("before", "after the start", "after a restart")
    for step in saved:
        answer = outage["answers"][step]
        assert answer["status"] == 201, (step, answer)
        assert json.loads(answer["body"])["version"] == 1
    expected = {"{}/{}".format(*outage["answers"][step]["pair"]): [1, True] for step in saved}
    assert outage["stored"] == expected
    # One audit entry per stored result: none for the saves that did not happen.
    assert outage["logged"] == len(saved)
