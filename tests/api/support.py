"""The API tests' cast and helpers: an event in play, its director, an assistant, an outsider."""

from __future__ import annotations

from typing import Any

import schemathesis
from django.contrib.auth.models import User
from django.test import Client

from config.wsgi import application
from tournaments.errors import UserError
from tournaments.models import Event, Round
from tournaments.services import results, standings, tokens

# The API's OpenAPI document, read once when the tests are collected (it needs no database); each
# module's property tests take the operations they cover with ``include``, which leaves it whole.
API_SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)

# Lines tried in turn on each board: the first the board's cards allow is kept.
LINES = ("pass", "N mis 0", "E mis 1", "NE 8H 8", "NE 8S 8", "NE 8D 8", "NE 8C 8")


def client_for(user: User | None = None, **headers: str) -> Client:
    client = Client(headers={"accept-language": "en", **headers})
    if user is not None:
        client.force_login(user)
    return client


def with_token(user: User, access: str, event: Event | None = None) -> Client:
    _token, key = tokens.create_token(user, f"{access} token", access, event)
    return client_for(authorization=f"Bearer {key}")


def assistant_of(event: Event, username: str = "carol") -> User:
    """A user who may key results in ``event`` and is not staff."""
    user = User.objects.create_user(username, password=f"{username}-password")
    event.assistants.add(user)
    return user


def key_round(td: User, event: Event, number: int, lines: tuple[str, ...] = LINES) -> int:
    """A result for every board of every table of round ``number``; returns how many."""
    round_ = event.round_set.get(number=number)
    saved = 0
    for table in round_.tables.order_by("number"):
        for placed in table.table_boards.select_related("board").order_by("position"):
            offset = table.number % len(lines)
            for line in lines[offset:] + lines[:offset]:
                try:
                    results.record_result(td, table, placed.board, line, confirmed=True)
                except UserError:
                    continue
                saved += 1
                break
    standings.refresh(event.pk)
    return saved


def close(td: User, event: Event, number: int) -> Any:
    from tournaments.services import rounds

    return rounds.close_round(
        td, Round.objects.get(event=event, number=number), "test", anyway=True
    )
