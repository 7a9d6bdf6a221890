"""The site on a throwaway PostgreSQL cluster that goes away during entry; run by test_database_outage.

Run as ``python -m tests.reliability.outage_site BIN_DIR HOME PORT`` with DATABASE_URL pointing at
that cluster. It migrates, starts an event, then saves results through the test client while the
cluster is stopped in the middle of a save, stays down, comes back and is restarted between two
saves. It prints what each save answered and what the database holds afterwards, as one JSON line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import django


def main(bin_dir: str, home: str, port: str) -> dict[str, Any]:
    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import close_old_connections, connections
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from tests.reliability.cluster import Cluster
    from tests.tournaments.conftest import start_event
    from tests.tournaments.test_results import a_line_for
    from tournaments.models import AuditEntry, Result, TableBoard
    from tournaments.services import audit

    cluster = Cluster(Path(bin_dir), Path(home), int(port))
    setup_test_environment()  # the test client's host name, as under pytest
    call_command("migrate", verbosity=0)
    td = User.objects.create_user("alice", password="alice-password", is_staff=True)
    event = start_event(td, "outage", 8)
    table_boards = list(
        TableBoard.objects.filter(table__round__event=event, table__round__number=1)
        .select_related("table", "board")
        .order_by("table__number", "position")
    )
    client = Client(headers={"accept-language": "en"})
    client.force_login(td)
    answers: dict[str, Any] = {}

    def save(step: str, n: int) -> None:
        table_board = table_boards[n]
        url = reverse("api-v1-results", args=[event.slug])
        line = a_line_for(table_board.board)
        body = {
            "round": 1,
            "table": table_board.table.number,
            "board": table_board.board.number,
            "text": line,
            "confirmed": True,
        }
        # A WSGI server's request_started and request_finished drop or health-check the kept
        # connection (CONN_HEALTH_CHECKS); the test client leaves that out, so it is done here.
        close_old_connections()
        response = client.post(url, body, content_type="application/json")
        close_old_connections()
        answers[step] = {
            "pair": [table_board.table.number, table_board.board.number],
            "status": response.status_code,
            "content_type": response.get("Content-Type", ""),
            "retry_after": response.get("Retry-After"),
            "body": response.content.decode(),
        }

    save("before", 0)

    # The server goes down after the result's row is written and before the transaction commits.
    original_record = audit.record

    def record_then_stop(*args: Any, **kwargs: Any) -> Any:
        cluster.stop()
        return original_record(*args, **kwargs)

    audit.record = record_then_stop  # this one save only
    try:
        save("stopped during the save", 1)
    finally:
        audit.record = original_record
    save("while down", 2)
    cluster.start()
    save("after the start", 3)
    # A restart between two saves: the kept connection is dead and must be replaced unseen.
    cluster.stop()
    cluster.start()
    save("after a restart", 4)

    # The script's own reads, outside any request: a request would have replaced a dead connection.
    connections.close_all()
    stored = {
        f"{r.table.number}/{r.board.number}": [r.version, r.is_current]
        for r in Result.objects.select_related("table", "board")
    }
    logged = AuditEntry.objects.filter(action="result.record").count()
    return {"answers": answers, "stored": stored, "logged": logged}


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:4])))
