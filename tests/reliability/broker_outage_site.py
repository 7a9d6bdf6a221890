"""Results saved through the site while the test's Redis is up or down; run by test_broker_outage.

Run as ``python -m tests.reliability.broker_outage_site SLUG FIRST COUNT`` with the site's
environment (the test database, the test's Redis as CELERY_BROKER_URL). It signs in as the event's
director and saves the results of the round's table boards FIRST to FIRST + COUNT - 1 through the
JSON endpoint, after one page view that warms the process up. It prints, as one JSON line, each
save's answer and its server time in milliseconds (the test client runs the view in this process,
so the time is the server's).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import django


def main(slug: str, first: str, count: str) -> list[dict[str, Any]]:
    django.setup()
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from tests.tournaments.test_results import a_line_for
    from tournaments.models import Event, TableBoard

    setup_test_environment()
    event = Event.objects.get(slug=slug)
    table_boards = list(
        TableBoard.objects.filter(table__round__event=event, table__round__number=1)
        .select_related("table", "board")
        .order_by("table__number", "position")
    )
    client = Client(headers={"accept-language": "en"})
    client.force_login(event.directors.get())
    client.get(reverse("round_entry", args=[slug, 1]))
    saves = []
    for table_board in table_boards[int(first) : int(first) + int(count)]:
        url = reverse("api-v1-results", args=[slug])
        body = {
            "round": 1,
            "table": table_board.table.number,
            "board": table_board.board.number,
            "text": a_line_for(table_board.board),
            "confirmed": True,
        }
        started = time.perf_counter()
        response = client.post(url, body, content_type="application/json")
        saves.append(
            {
                "status": response.status_code,
                "ms": (time.perf_counter() - started) * 1000,
                "body": response.content.decode()[:500],
            }
        )
    return saves


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:4])))
