"""Table devices, the service: keys and PINs for each table, PINs checked and their guessing
throttled, a browser's grant for its table and round."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore

from tests.tournaments.conftest import start_event
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Event, Round, Table
from tournaments.services import devices, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(td: User) -> Event:
    return start_event(td, "device-evening", 8)


def first_round(event: Event) -> Round:
    return event.round_set.get(number=1)


def test_it_gives_each_table_a_key_and_a_pin_once(td: User, running: Event) -> None:
    tables = devices.ensure_device_keys(td, first_round(running))
    assert len(tables) == 2
    for table in tables:
        assert len(table.device_key) == 22
        assert table.device_pin.isdigit()
        assert 4 <= len(table.device_pin) <= 6
    assert tables[0].device_key != tables[1].device_key
    again = devices.ensure_device_keys(td, first_round(running))
    assert [t.device_key for t in again] == [t.device_key for t in tables]
    assert [t.device_pin for t in again] == [t.device_pin for t in tables]
    assert AuditEntry.objects.filter(action="round.device_keys").count() == 1


def test_it_never_makes_a_run_or_a_repeated_digit_a_pin() -> None:
    assert devices._guessable("12345")
    assert devices._guessable("54321")
    assert devices._guessable("77777")
    assert not devices._guessable("12354")
    assert not any(devices._guessable(devices.new_pin()) for _ in range(200))


def test_new_pins_end_the_grants_given_for_the_old_ones(td: User, running: Event) -> None:
    table = devices.ensure_device_keys(td, first_round(running))[0]
    session = SessionStore()
    devices.grant(session, devices.check_pin(table.device_key, table.device_pin, "10.0.0.1"))
    assert devices.is_granted(session, Table.objects.get(pk=table.pk))
    devices.renew_pins(td, first_round(running))
    renewed = Table.objects.select_related("round").get(pk=table.pk)
    assert renewed.device_pin != table.device_pin
    assert not devices.is_granted(session, renewed)
    assert AuditEntry.objects.filter(action="round.device_pins").exists()


def test_a_grant_is_for_its_own_table_only(td: User, running: Event) -> None:
    one, two = devices.ensure_device_keys(td, first_round(running))
    session = SessionStore()
    devices.grant(session, devices.check_pin(one.device_key, one.device_pin, "10.0.0.1"))
    assert devices.is_granted(session, Table.objects.get(pk=one.pk))
    assert not devices.is_granted(session, Table.objects.get(pk=two.pk))


def test_a_grant_ends_when_the_round_is_closed(td: User, running: Event) -> None:
    table = devices.ensure_device_keys(td, first_round(running))[0]
    session = SessionStore()
    devices.grant(session, devices.check_pin(table.device_key, table.device_pin, "10.0.0.1"))
    rounds.close_round(td, first_round(running), "test", anyway=True)
    assert not devices.is_granted(session, Table.objects.get(pk=table.pk))
    with pytest.raises(UserError) as caught:
        devices.check_pin(table.device_key, table.device_pin, "10.0.0.1")
    assert caught.value.code == "round_not_open"


def test_it_refuses_a_wrong_pin_naming_the_field(td: User, running: Event) -> None:
    table = devices.ensure_device_keys(td, first_round(running))[0]
    wrong = "0" * len(table.device_pin) if table.device_pin != "0" * 5 else "1" * 5
    with pytest.raises(UserError) as caught:
        devices.check_pin(table.device_key, wrong, "10.0.0.1")
    assert (caught.value.code, caught.value.field) == ("wrong_pin", "pin")
    with pytest.raises(UserError) as unknown:
        devices.check_pin("no-such-key", table.device_pin, "10.0.0.1")
    assert unknown.value.code == "not_found"


def test_five_wrong_pins_lock_the_table_for_that_address_even_the_right_pin(
    td: User, running: Event
) -> None:
    table = devices.ensure_device_keys(td, first_round(running))[0]
    for _attempt in range(4):
        with pytest.raises(UserError) as caught:
            devices.check_pin(table.device_key, "99999x", "10.0.0.1")
        assert caught.value.code == "wrong_pin"
    with pytest.raises(devices.PinLockedError) as locked:
        devices.check_pin(table.device_key, "99999x", "10.0.0.1")
    assert 0 < locked.value.seconds <= 600
    assert "10 minutes" in locked.value.message
    with pytest.raises(devices.PinLockedError):
        devices.check_pin(table.device_key, table.device_pin, "10.0.0.1")
    # Another phone in the hall, on another address, still gets in.
    assert devices.check_pin(table.device_key, table.device_pin, "10.0.0.2").pk == table.pk


def test_wrong_pins_at_several_tables_from_one_address_lock_the_address(
    td: User, running: Event, settings: Any
) -> None:
    settings.DEVICE_PIN_THROTTLE = {**settings.DEVICE_PIN_THROTTLE, "ADDRESS_FAILURES": 8}
    one, two = devices.ensure_device_keys(td, first_round(running))[:2]
    # Unknown links do not count: one player cannot lock out a hall that shares one address.
    for _attempt in range(30):
        with pytest.raises(UserError) as caught:
            devices.check_pin("unknown-key", "1", "10.0.0.9")
        assert caught.value.code == "not_found"
    assert devices.check_pin(two.device_key, two.device_pin, "10.0.0.9") == two
    for _attempt in range(4):
        for table in (one, two):
            with pytest.raises(UserError):
                devices.check_pin(table.device_key, "99999x", "10.0.0.9")
    # Four wrong at each table: no table's own limit (5) is reached, the address's (8) is.
    with pytest.raises(devices.PinLockedError):
        devices.check_pin(one.device_key, one.device_pin, "10.0.0.9")
    # Another address is not locked.
    assert devices.check_pin(one.device_key, one.device_pin, "10.0.0.10") == one


def test_a_right_pin_does_not_count_towards_the_lock(td: User, running: Event) -> None:
    table = devices.ensure_device_keys(td, first_round(running))[0]
    for _attempt in range(10):
        assert devices.check_pin(table.device_key, table.device_pin, "10.0.0.11") == table
    for _attempt in range(4):
        with pytest.raises(UserError):
            devices.check_pin(table.device_key, "00000x", "10.0.0.11")
    assert devices.check_pin(table.device_key, table.device_pin, "10.0.0.11") == table


def test_the_table_card_link_is_under_the_site_address(
    td: User, running: Event, settings: Any
) -> None:
    settings.TROEF_SITE_URL = "https://troef.example.org/"
    table = devices.ensure_device_keys(td, first_round(running))[0]
    assert devices.device_url(table) == f"https://troef.example.org/t/{table.device_key}/"
