"""The engine's errors in the user's language: result lines, refused results and movements.

The nl and fr catalogs are filled in by the translators after the code; these tests check that
every message goes through gettext with the engine's template and parameters, so they hold
whatever the catalogs say. A small catalog of their own, put before the project's, shows that a
translation, once there, is what the person at the keyboard reads.
"""

from __future__ import annotations

import array
import json
import re
import string
import struct
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext, pgettext

from engine.errors import EngineError, MovementError, RulesetError
from engine.ruleset import BUILTIN_NAMES, load_builtin
from tests.engine.error_examples import EXAMPLES, SOURCES, raised
from tests.tournaments.conftest import make_settings, register, start_event
from tournaments.engine_text import (
    ERROR_MESSAGES,
    PENALTY_NAMES,
    contract_name,
    error_message,
    penalty_name,
)
from tournaments.errors import UserError
from tournaments.models import Event
from tournaments.services import events, results

ENGLISH = {code: text for messages in SOURCES.values() for code, text in messages.items()}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")

LEVEL_OF_THE_ACCEPTANCE = (
    "column %(column)s: expected the level of %(the_contract)s, found %(number)s: it must be "
    "%(low)s to %(high)s"
)
NOT_ALLOWED = "the %(ruleset)s ruleset does not allow %(contract)s; it allows pass, %(contracts)s"
SEVEN_AT_TABLES_OF_FIVE = (
    "players: %(players)s players cannot sit at tables of four and five (%(fives)s tables of "
    "five needed, only %(tables)s tables); use byes instead"
)


def gettext_form(template: str) -> str:
    """An engine template as gettext templates are written: ``{name}`` becomes ``%(name)s``."""
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(literal.replace("%", "%%"))
        if name:
            parts.append(f"%({name})s")
    return "".join(parts)


def msgid(code: str) -> str:
    with translation.override("en"):
        return str(ERROR_MESSAGES[code])


def level_of_the_acceptance() -> str:
    """What "NE 14H 10" gets, in the active language."""
    words = {"column": 4, "number": "14", "low": 8, "high": 13}
    the_contract = pgettext("contract with the", "the acceptance")
    return gettext(LEVEL_OF_THE_ACCEPTANCE) % {**words, "the_contract": the_contract}


def piccolo_not_allowed() -> str:
    """What "N pic 1" gets under the whisthub ruleset, in the active language."""
    allowed = load_builtin("whisthub").allowed_contracts
    return gettext(NOT_ALLOWED) % {
        "ruleset": "whisthub",
        "contract": pgettext("contract", "piccolo"),
        "contracts": ", ".join(contract_name(contract) for contract in allowed),
    }


def write_catalog(path: Path, messages: dict[str, str]) -> None:
    """A compiled gettext catalog (what msgfmt writes), UTF-8, keys sorted."""
    header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
    entries = sorted({"": header, **messages}.items())
    ids = strs = b""
    places: list[tuple[int, int, int, int]] = []
    for key, value in entries:
        raw_key, raw_value = key.encode(), value.encode()
        places.append((len(raw_key), len(ids), len(raw_value), len(strs)))
        ids += raw_key + b"\0"
        strs += raw_value + b"\0"
    keys_at = 7 * 4 + 16 * len(entries)
    values_at = keys_at + len(ids)
    table = [n for size, at, _, _ in places for n in (size, keys_at + at)]
    table += [n for _, _, size, at in places for n in (size, values_at + at)]
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(entries), 28, 28 + 8 * len(entries), 0, 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(head + array.array("i", table).tobytes() + ids + strs)


@pytest.fixture
def translated(tmp_path: Path, settings: Any) -> None:
    """Dutch and French for three of the engine's messages, ahead of the project's catalogs."""
    for language in ("nl", "fr"):
        write_catalog(
            tmp_path / language / "LC_MESSAGES" / "django.mo",
            {
                LEVEL_OF_THE_ACCEPTANCE: f"[{language}] %(column)s: %(the_contract)s "
                "%(number)s %(low)s-%(high)s",
                "contract with the\x04the acceptance": f"[{language}] vraag",
                SEVEN_AT_TABLES_OF_FIVE: f"[{language}] %(players)s %(fives)s %(tables)s",
            },
        )
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]


@pytest.fixture
def running(td: User) -> Event:
    return start_event(td, "in-play", 16)


def test_every_engine_error_code_has_a_translatable_message_with_the_engines_english() -> None:
    assert set(ERROR_MESSAGES) == set(ENGLISH)
    for code, english in ENGLISH.items():
        assert msgid(code) == gettext_form(english), code


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_each_message_names_exactly_the_parameters_the_engine_passes(code: str) -> None:
    error = raised(code)

    assert error.code is not None
    assert set(PLACEHOLDER.findall(msgid(error.code))) == set(error.params)


@pytest.mark.parametrize("code", sorted(set(EXAMPLES) - {"contract_not_allowed"}))
def test_in_english_the_site_shows_the_engines_own_message(code: str) -> None:
    error = raised(code)

    assert error_message(error) == str(error)


def test_in_english_a_list_of_contracts_uses_the_sites_contract_names() -> None:
    error = raised("contract_not_allowed")

    english = str(error)
    for token in ("small_misere", "open_misere", "solo_slim"):
        english = english.replace(token, token.replace("_", " "))
    assert error_message(error) == english


def test_a_message_without_a_code_is_the_engines_own() -> None:
    broken = RulesetError("level 4 is below 5", "contracts.solo.levels")
    uncoded = MovementError("players: too few", code="no_such_code")

    assert error_message(broken) == "contracts.solo.levels: level 4 is below 5"
    assert error_message(uncoded) == "players: too few"
    assert error_message(EngineError("plain")) == "plain"


@pytest.mark.usefixtures("translated")
@pytest.mark.parametrize("language", ["nl", "fr"])
def test_the_results_service_gives_a_bad_line_in_the_users_language(
    running: Event, language: str
) -> None:
    board = running.boards.get(number=1)

    with translation.override(language), pytest.raises(UserError) as unreadable:
        results.check(running, board, "NE 14H 10")
    with translation.override(language), pytest.raises(UserError) as refused:
        results.check(running, board, "N pic 1")

    with translation.override(language):
        assert unreadable.value.message == level_of_the_acceptance()
        assert refused.value.message == piccolo_not_allowed()
    assert unreadable.value.message == f"[{language}] 4: [{language}] vraag 14 8-13"
    assert (unreadable.value.code, unreadable.value.field) == ("notation", "notation")
    assert (refused.value.code, refused.value.field) == ("invalid_result", "contract")
    # The project's catalogs already name the contracts: the list is not the engine's English.
    assert refused.value.message != str(raised("contract_not_allowed"))


@pytest.mark.usefixtures("translated")
def test_the_entry_page_gives_a_bad_line_in_dutch(td: User, running: Event) -> None:
    dutch = Client(headers={"accept-language": "nl"})
    dutch.force_login(td)

    response = dutch.post(
        f"/api/v1/events/{running.slug}/check/",
        json.dumps({"board": 1, "text": "NE 14H 10"}),
        content_type="application/json",
    )

    assert response.status_code == 400
    with translation.override("nl"):
        assert response.json()["message"] == level_of_the_acceptance()
    assert response.json()["message"] == "[nl] 4: [nl] vraag 14 8-13"
    assert response.json()["field"] == "notation"


def test_the_api_gives_a_refused_result_in_french(td: User, running: Event) -> None:
    french = Client(headers={"accept-language": "fr"})
    french.force_login(td)

    response = french.post(
        f"/api/events/{running.slug}/results/",
        {"round": 1, "table": 1, "board": 1, "text": "N pic 1"},
        content_type="application/json",
    )

    assert response.status_code == 400
    with translation.override("fr"):
        assert response.json()["message"] == piccolo_not_allowed()
    assert response.json()["field"] == "contract"


@pytest.mark.usefixtures("translated")
def test_the_movement_page_gives_a_movement_that_cannot_be_made_in_dutch(td: User) -> None:
    event = events.create_event(
        td, make_settings(slug="seven", seating_mode=Event.SeatingMode.TABLES_OF_FIVE)
    )
    register(td, event, 7)
    dutch = Client(headers={"accept-language": "nl"})
    dutch.force_login(td)

    page = dutch.post(f"/events/{event.slug}/movement/", {"seed": 0}).content.decode()

    with translation.override("nl"):
        expected = gettext(SEVEN_AT_TABLES_OF_FIVE) % {"players": 7, "fives": 3, "tables": 1}
    assert expected == "[nl] 7 3 1"
    assert escape(expected) in page
    assert not event.round_set.filter(tables__isnull=False).exists()


def test_every_built_in_penalty_has_a_name_in_every_language() -> None:
    kinds = {kind for name in BUILTIN_NAMES for kind in load_builtin(name).penalty_options}
    assert kinds <= set(PENALTY_NAMES)
    with translation.override("nl"):
        assert penalty_name("revoke") == pgettext("penalty", "revoke")
        assert penalty_name("revoke") != "revoke"
    assert penalty_name("late_arrival") == "late arrival"  # a club's own key, as written
