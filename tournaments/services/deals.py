from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import deals as engine_deals
from tournaments.errors import UserError
from tournaments.models import Board, Event
from tournaments.services import audit, seating


def board_numbers(event: Event) -> range:
    return range(1, seating.board_total(event) + 1)


@transaction.atomic
def generate_deals(actor: Any, event: Event, *, key: str | None = None) -> list[Board]:
    """Draw a new secret key, publish its commitment and deal every board of the event from it.

    Anyone can reproduce the deals from the key alone (``python3 -m engine deal --key KEY --boards
    1-N``); the key stays secret until the event finishes.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.DRAFT:
        raise UserError(
            _("Play has started: the deals can no longer change."), code="event_started"
        )
    key = (key or "").strip() or engine_deals.new_key()
    boards = _deal(event, key)
    event.deal_key = key
    event.deal_commitment = engine_deals.commitment(key)
    event.deal_key_revealed_at = None
    event.save(update_fields=["deal_key", "deal_commitment", "deal_key_revealed_at", "updated"])
    seating.assign_boards(event)
    audit.record(
        actor,
        "deals.generate",
        "",
        event=event,
        data={"commitment": event.deal_commitment, "boards": len(boards)},
        message=gettext_noop("boards dealt: %(boards)s"),
        params={"boards": len(boards)},
    )
    return boards


def _deal(event: Event, key: str) -> list[Board]:
    event.boards.all().delete()
    dealt = engine_deals.deals_from_key(
        key, board_numbers(event), trump_card=event.game == Event.Game.WIEZEN
    )
    return Board.objects.bulk_create(
        Board(
            event=event,
            number=board.board,
            dealer=board.dealer.name,
            deal=board.deal.to_pbn(),
            deal_index=str(board.index),
            trump_card=str(board.trump_card) if board.trump_card else "",
        )
        for board in dealt
    )


def verify(event: Event, key: str) -> bool:
    """Whether ``key`` matches the event's published commitment and reproduces every stored deal."""
    if not engine_deals.verify_commitment(key, event.deal_commitment):
        return False
    stored = {b.number: b.deal for b in event.boards.all()}
    dealt = engine_deals.deals_from_key(key, sorted(stored))
    return all(stored[b.board] == b.deal.to_pbn() for b in dealt)
