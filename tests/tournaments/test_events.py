from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError

from tests.tournaments.conftest import TEST_KEY, make_settings
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Event, Round
from tournaments.services import deals, events, rounds, seating


def test_it_creates_an_event_with_its_rounds_and_its_director(td: User) -> None:
    event = events.create_event(td, make_settings(rounds=5))
    assert event.is_directed_by(td)
    assert list(event.round_set.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert AuditEntry.objects.filter(event=event, action="event.create", actor=td).exists()


def test_it_makes_an_address_from_the_name_and_date(td: User) -> None:
    event = events.create_event(td, make_settings(slug="", name="Herfsttornooi Gent"))
    assert event.slug == "herfsttornooi-gent-2026-11-20"


def test_it_refuses_an_address_that_is_taken(td: User, event: Event) -> None:
    with pytest.raises(UserError) as caught:
        events.create_event(td, make_settings())
    assert caught.value.field == "slug"


def test_it_refuses_a_ruleset_of_another_game(td: User) -> None:
    with pytest.raises(UserError) as caught:
        events.create_event(td, make_settings(slug="x", game="wiezen", ruleset_name="whisthub"))
    assert caught.value.field == "ruleset_name"


def test_it_refuses_a_broken_custom_ruleset_naming_the_key(td: User) -> None:
    with pytest.raises(UserError) as caught:
        events.create_event(
            td, make_settings(slug="x", ruleset_name="custom", ruleset_toml='name = "x"\n')
        )
    assert caught.value.field == "ruleset_toml"
    assert "ruleset document is broken" in caught.value.message


def test_it_freezes_a_copy_of_the_ruleset_when_play_starts(
    td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert event.ruleset_frozen_at is not None
    assert 'name = "whisthub"' in event.ruleset_toml
    assert events.ruleset_of(event).name == "whisthub"


def test_it_refuses_to_start_without_a_movement(td: User, event: Event) -> None:
    with pytest.raises(UserError) as caught:
        events.start_event(td, event)
    assert caught.value.code == "not_ready"


def test_it_keeps_the_rounds_in_order(td: User, event: Event, sixteen: list[object]) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    with pytest.raises(UserError):
        rounds.open_round(td, event.round_set.get(number=2))
    first = rounds.open_round(td, event.round_set.get(number=1))
    assert first.status == Round.Status.OPEN
    closed = rounds.close_round(td, first, "no sheets in this test", anyway=True)
    assert closed.status == Round.Status.CLOSED
    with pytest.raises(UserError):
        rounds.reopen_round(td, closed, reason="")
    assert rounds.reopen_round(td, closed, reason="score sheet found").status == Round.Status.OPEN


def test_it_reveals_the_key_when_the_event_finishes(
    td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    for round_ in event.round_set.order_by("number"):
        rounds.open_round(td, round_)
        if round_.number < event.rounds:
            rounds.close_round(td, round_, "no sheets in this test", anyway=True)
    with pytest.raises(UserError) as caught:
        events.finish_event(td, event)
    assert caught.value.code == "rounds_open"
    assert Event.objects.get(pk=event.pk).deal_key_revealed_at is None
    rounds.close_round(td, event.round_set.get(number=event.rounds), "no sheets", anyway=True)
    finished = events.finish_event(td, event)
    assert finished.deal_key_revealed_at is not None
    assert deals.verify(finished, finished.deal_key)
    assert not deals.verify(finished, "0" * 40)
    with pytest.raises(UserError):
        rounds.reopen_round(td, event.round_set.get(number=1), reason="too late")


def test_the_settings_of_a_started_event_still_save(
    td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    event.refresh_from_db()
    frozen = event.ruleset_toml
    changed = events.update_event(
        td, event, make_settings(venue="Zaal Nieuw", rounds=9, ruleset_toml="x", comparison="datum")
    )
    assert changed.venue == "Zaal Nieuw"
    assert changed.rounds == 4
    assert changed.ruleset_toml == frozen
    assert changed.comparison == "datum"


def test_changing_the_shape_of_a_draft_asks_for_a_new_movement_and_deals(
    td: User, event: Event, sixteen: list[object]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    events.update_event(td, event, make_settings(rounds=5))
    assert not event.boards.exists()
    assert not event.round_set.filter(tables__isnull=False).exists()
    with pytest.raises(UserError) as caught:
        events.start_event(td, event)
    assert caught.value.code == "not_ready"


@pytest.mark.django_db
def test_the_database_refuses_an_event_without_rounds() -> None:
    with pytest.raises(IntegrityError):
        Event.objects.create(
            slug="bad",
            name="Bad",
            date="2026-01-01",
            game="kleurenwiezen",
            ruleset_name="whisthub",
            rounds=0,
            boards_per_round=4,
        )
