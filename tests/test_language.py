"""The language a TD reads: the log, ruleset names, numbers and dates in Dutch, French and English."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template
from django.test import Client
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import trans_real

from engine.ruleset import builtin_names, load_builtin
from tests.tournaments.conftest import make_settings, start_event
from tournaments import audit_text, rulesets
from tournaments.models import AuditAction, AuditEntry, Event, Round, Series
from tournaments.services import adjustments, audit, events

Translations = Callable[[str, dict[str, str]], None]


@pytest.fixture
def translations() -> Iterator[Translations]:
    """Give the catalogs a few translations for the test (they are translated separately, so the
    tests check how a page shows a translation, not what the translators wrote)."""
    added: list[tuple[dict[str, Any], str, Any]] = []
    missing = object()

    def add(language: str, messages: dict[str, str]) -> None:
        # The top catalog of Django's translation object for the language: there is no public
        # way to add to a loaded catalog, and the attribute is untyped (Django has no stubs for it).
        catalog = trans_real.translation(language)._catalog._catalogs[0]  # type: ignore[attr-defined]
        for msgid, msgstr in messages.items():
            added.append((catalog, msgid, catalog.get(msgid, missing)))
            catalog[msgid] = msgstr

    yield add
    for catalog, msgid, before in reversed(added):
        if before is missing:
            del catalog[msgid]
        else:
            catalog[msgid] = before


def browser(language: str, user: User | None = None) -> Client:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client


def text_of(html: str) -> str:
    """A page's text without its tags, spaces run together."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# -- the log ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_an_entry_written_in_english_in_dutch_and_in_french(
    td: User, translations: Translations
) -> None:
    translations("nl", {"created event %(name)s": "evenement %(name)s aangemaakt"})
    translations("nl", {"event created": "evenement aangemaakt"})
    translations("fr", {"created event %(name)s": "tournoi %(name)s créé"})
    translations("fr", {"event created": "tournoi créé"})
    event = events.create_event(td, make_settings(name="Kermis"))
    entry = AuditEntry.objects.get(event=event, action="event.create")
    assert entry.summary == "created event Kermis"  # stored in English

    dutch = text_of(browser("nl", td).get(f"/events/{event.slug}/log/").content.decode())
    french = text_of(browser("fr", td).get(f"/events/{event.slug}/log/").content.decode())
    english = text_of(browser("en", td).get(f"/events/{event.slug}/log/").content.decode())

    assert "evenement Kermis aangemaakt" in dutch
    assert "evenement aangemaakt" in dutch
    assert "tournoi Kermis créé" in french
    assert "tournoi créé" in french
    assert "created event Kermis" in english
    assert "created event" not in dutch + french
    assert "event.create" not in dutch.replace('title="event.create"', "")


@pytest.mark.django_db
def test_it_shows_the_recent_changes_on_the_event_page_in_the_readers_language(
    td: User, translations: Translations
) -> None:
    translations("fr", {"created event %(name)s": "tournoi %(name)s créé"})
    event = events.create_event(td, make_settings(name="Kermis"))

    page = browser("fr", td).get(f"/events/{event.slug}/").content.decode()

    assert "tournoi Kermis créé" in page
    assert "created event Kermis" not in page


@pytest.mark.django_db
def test_it_shows_an_entry_without_a_message_as_its_stored_summary(td: User) -> None:
    event = events.create_event(td, make_settings())
    AuditEntry.objects.create(
        event=event,
        actor=td,
        action="old.action",
        summary="something written before messages existed",
    )

    page = browser("nl", td).get(f"/events/{event.slug}/log/").content.decode()

    assert "something written before messages existed" in page
    assert "old.action" in page  # an action without a label shows as its code


def test_it_falls_back_to_the_summary_when_a_translation_does_not_fit_its_parameters(
    translations: Translations,
) -> None:
    translations("nl", {"fine of %(amount)s for %(name)s": "boete %(bedrag)s voor %(name)s"})
    entry = AuditEntry(
        action="penalty.fine",
        summary="fine of 2.50 for Anna",
        message="fine of %(amount)s for %(name)s",
        params={"amount": "2.50", "name": "Anna"},
    )

    with translation.override("nl"):
        assert entry.text == "fine of 2.50 for Anna"


def test_it_shows_the_codes_in_an_entrys_parameters_as_words() -> None:
    entry = AuditEntry(
        action="penalty.fine",
        message="fine of %(amount)s for %(name)s",
        params={"amount": "2.50", "name": "Anna"},
    )
    bye = AuditEntry(
        action="bye.score",
        message="bye of %(name)s in round %(round)s scored %(award)s",
        params={"name": "Anna", "round": 3, "award": "average_plus"},
    )

    with translation.override("nl"):
        assert entry.text == "boete van 2,50 voor Anna"
    with translation.override("fr"):
        assert entry.text == "amende de 2,50 pour Anna"
    with translation.override("en"):
        assert entry.text == "fine of 2.50 for Anna"
        assert bye.text == "bye of Anna in round 3 scored average-plus"


def test_it_spells_out_an_artificial_score_in_the_log() -> None:
    entry = AuditEntry(
        action="result.record",
        summary="round 1 table 2 board 3: art N:average_plus E:average S:average_minus W:111/2",
    )

    with translation.override("nl"):
        text = entry.text
    assert "art N:" not in text
    assert "average_plus" not in text
    assert "N gemiddeld-plus, E gemiddeld, S gemiddeld-min, W 55,5 %" in text
    with translation.override("en"):
        assert "N average-plus, E average, S average-minus, W 55.5 %" in entry.text


@pytest.mark.django_db
def test_it_names_the_changed_settings_as_the_form_labels_them(td: User) -> None:
    event = events.create_event(td, make_settings())
    events.update_event(td, event, make_settings(name="Winter evening", boards_per_round=3))
    entry = AuditEntry.objects.get(event=event, action="event.update")

    with translation.override("en"):
        assert entry.text == "changed name, boards per round"
    with translation.override("nl"):
        assert "boards_per_round" not in entry.text


@pytest.mark.django_db
def test_it_names_a_requested_document_in_words(td: User) -> None:
    from documents import services as reports

    event = start_event(td, "documents", 8)
    reports.request_report(td, event, "hand_records", round_number=1, language="nl")
    entry = AuditEntry.objects.get(event=event, action="report.request")

    with translation.override("en"):
        assert entry.text == "requested hand records, round 1 (A4, Dutch)"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "action", ["\x00", "result.\x00", "x" * 10_000, "%", "_", "' OR 1=1 --", "€", ""]
)
def test_it_filters_the_log_by_any_action_without_failing(td: User, action: str) -> None:
    event = events.create_event(td, make_settings())

    response = browser("en", td).get(f"/events/{event.slug}/log/", {"action": action})

    assert response.status_code == 200
    entries = list(response.context["entries"])
    assert entries == ([] if action else list(event.audit_entries.all()))


@pytest.mark.django_db
def test_it_filters_the_log_by_the_start_of_an_action(td: User) -> None:
    event = events.create_event(td, make_settings())
    audit.record(td, AuditAction.ROUND_CLOSE, "closed", event=event)

    response = browser("en", td).get(f"/events/{event.slug}/log/", {"action": "round."})

    assert [e.action for e in response.context["entries"]] == ["round.close"]


def test_it_labels_every_action_the_services_write() -> None:
    from pathlib import Path

    from django.conf import settings

    written: set[AuditAction] = set()
    base = Path(settings.BASE_DIR)
    for path in [
        *(base / "tournaments" / "services").glob("*.py"),
        base / "ratings" / "services.py",
    ]:
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"audit\.record\(\s*[A-Za-z_.]+,\s*\"", source), (
            f"{path.name} writes an action as a string rather than an AuditAction"
        )
        for name in re.findall(r"\bAuditAction\.([A-Z_]+)\b", source):
            written.add(AuditAction[name])
    assert written, "no AuditAction found: the pattern no longer matches the services"
    # A member without a label of its own would be labelled from its name, in English only.
    unlabelled = {
        a for a in written if audit_text.action_label(a) == a or not isinstance(a.label, Promise)
    }
    assert unlabelled <= set(), (
        f"actions without a label in AuditAction (tournaments/models/audit.py): {unlabelled}"
    )


# -- ruleset names and status words ---------------------------------------------------------


def test_it_keeps_a_translatable_title_for_every_built_in_ruleset() -> None:
    with translation.override("en"):
        for name in builtin_names():
            assert rulesets.builtin_title(name) == load_builtin(name).title, name
            assert name in rulesets.BUILTIN_TITLES, name


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"), [("nl", "Israëlisch wiezen"), ("fr", "Whist israélien")]
)
def test_it_names_the_rulesets_in_the_readers_language(td: User, language: str, title: str) -> None:
    form = browser(language, td).get("/events/new/").content.decode()

    assert f">{title} (israeli)</option>" in form
    assert "Israeli Whist (israeli)" not in form


@pytest.mark.django_db
def test_it_shows_the_ruleset_of_an_event_in_the_readers_language(td: User) -> None:
    event = events.create_event(
        td, make_settings(game="israeli", ruleset_name="israeli", slug="israeli")
    )

    page = browser("fr", td).get(f"/events/{event.slug}/").content.decode()

    assert "Whist israélien · Whist israélien" in page  # the game, then the ruleset
    assert "Israeli Whist" not in page


def test_it_shows_a_club_ruleset_by_the_title_its_document_gives() -> None:
    builtin = load_builtin("whisthub")
    own = dataclasses.replace(builtin, title="Ons clubreglement")

    with translation.override("fr"):
        assert rulesets.title(own) == "Ons clubreglement"
        assert not rulesets.is_builtin(own)


@pytest.mark.django_db
def test_it_shows_the_status_words_of_the_event_page_in_dutch(td: User) -> None:
    event = start_event(td, "statuses", 8)

    page = text_of(browser("nl", td).get(f"/events/{event.slug}/").content.decode())

    with translation.override("nl"):
        words = [str(Event.Status.RUNNING.label), str(Round.Status.OPEN.label)]
    assert all(word in page for word in words), words
    assert " running " not in f" {page} "
    assert " planned " not in f" {page} "


# -- numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("nl", "52.31", "52,31"),
        ("fr", "52.31", "52,31"),
        ("en", "52.31", "52.31"),
        ("nl", "-3.50", "-3,50"),
        ("nl", "+12", "+12"),
        ("nl", Fraction(5231, 100), "52,31"),
        ("fr", Decimal("52.3"), "52,3"),
        ("nl", Fraction(1, 3), "0,33"),
        ("nl", 7, "7"),
        ("fr", 2.5, "2,50"),
        ("nl", "", ""),
        ("nl", "1=", "1="),
        ("nl", "—", "—"),
        ("nl", None, None),
    ],
)
def test_it_writes_a_decimal_in_the_notation_of_the_language(
    language: str, value: object, shown: object
) -> None:
    template = Template("{% load troef %}{{ value|decimal }}")

    with translation.override(language):
        rendered = template.render(Context({"value": value}))

    assert rendered == ("None" if shown is None else shown)


@pytest.mark.parametrize(("language", "shown"), [("nl", "52,30"), ("fr", "52,30"), ("en", "52.30")])
def test_it_writes_a_decimal_to_the_places_asked_for(language: str, shown: str) -> None:
    template = Template("{% load troef %}{{ value|decimal:2 }}")

    with translation.override(language):
        assert template.render(Context({"value": "52.3"})) == shown


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "total"), [("nl", "52,31"), ("fr", "52,31"), ("en", "52.31")])
def test_it_shows_a_series_total_with_the_decimal_separator_of_the_language(
    monkeypatch: pytest.MonkeyPatch, language: str, total: str
) -> None:
    from tournaments.services import series as series_service

    series = Series.objects.create(name="Winter", slug="winter", best_of=3)
    monkeypatch.setattr(
        series_service,
        "series_standings",
        lambda _series: {
            "events": [{"slug": "e1", "name": "One", "date": "2026-11-20"}],
            "best_of": 3,
            "rows": [
                {
                    "place": "1",
                    "name": "Anna",
                    "club": "",
                    "total": "52.31",
                    "results": {"e1": "52.31"},
                }
            ],
        },
    )

    page = browser(language).get(f"/series/{series.slug}/").content.decode()

    assert f"<strong>{total}</strong>" in page
    assert "52.31" not in page if language != "en" else "52,31" not in page


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "amount"), [("nl", "2,50"), ("fr", "2,50"), ("en", "2.50")])
def test_it_shows_a_fine_with_the_decimal_separator_of_the_language(
    td: User, language: str, amount: str
) -> None:
    event = start_event(td, "fines", 8)
    entry = event.entries.get(number=1)
    adjustments.record_fine(td, event, entry, Fraction(5, 2), "late")

    page = browser(language, td).get(f"/events/{event.slug}/penalties/").content.decode()
    log = browser(language, td).get(f"/events/{event.slug}/log/").content.decode()

    assert amount in page
    assert f"{amount} " in log or f"{amount}<" in log


# -- dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "date", "short"),
    [
        ("nl", "5 maart 2026", "05-03-2026 19:30"),
        ("fr", "5 mars 2026", "05/03/2026 19:30"),
        ("en", "5 March 2026", "2026-03-05 19:30"),
    ],
)
def test_it_has_one_date_format_per_language(language: str, date: str, short: str) -> None:
    moment = timezone.make_aware(dt.datetime(2026, 3, 5, 19, 30))
    template = Template('{{ day }}|{{ moment|date:"SHORT_DATETIME_FORMAT" }}')

    with translation.override(language):
        rendered = template.render(Context({"day": dt.date(2026, 3, 5), "moment": moment}))

    assert rendered == f"{date}|{short}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "shown"),
    [("nl", "20 november 2026"), ("fr", "20 novembre 2026"), ("en", "20 November 2026")],
)
def test_it_dates_the_event_page_in_the_readers_language(
    td: User, language: str, shown: str
) -> None:
    event = events.create_event(td, make_settings())

    page = browser(language, td).get(f"/events/{event.slug}/").content.decode()

    assert shown in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_it_fills_the_date_field_of_the_event_form_in_every_language(
    td: User, language: str
) -> None:
    event = events.create_event(td, make_settings())

    form = browser(language, td).get(f"/events/{event.slug}/edit/").content.decode()

    # A browser's date input shows nothing for a value that is not an ISO date.
    assert re.search(r'<input type="date" name="date" value="2026-11-20"', form)


def test_it_uses_no_date_format_of_its_own_in_the_templates() -> None:
    from pathlib import Path

    from django.template import Engine

    named = {"DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATE_FORMAT", "SHORT_DATETIME_FORMAT"}
    mine = [
        "tournaments/event_detail.html",
        "tournaments/event_form.html",
        "tournaments/audit.html",
        "tournaments/movement.html",
        "tournaments/deals.html",
        "tournaments/adjustments.html",
        "documents/reports.html",
        "tournaments/series.html",
        "tournaments/clubs.html",
        "home.html",
        "base.html",
        "tournaments/_event_nav.html",
    ]
    for name in mine:
        _template, origin = Engine.get_default().find_template(name)
        source = Path(origin.name).read_text()
        for fmt in re.findall(r"\|date:\"([^\"]*)\"", source):
            assert fmt in named, f"{name} formats a date as {fmt!r}"


# -- no internal codes ------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_no_internal_codes_on_the_event_page_or_the_log(td: User) -> None:
    event = start_event(td, "codes", 8)
    table = event.round_set.get(number=1).tables.get(number=1)
    board = table.table_boards.order_by("position").first()
    assert board is not None
    adjustments.award_artificial(
        td,
        table,
        board.board,
        {"N": "average_plus", "E": "average", "S": "average_minus", "W": "55"},
        "the table ran out of time",
    )

    for language in ("nl", "fr", "en"):
        client = browser(language, td)
        for page in (f"/events/{event.slug}/", f"/events/{event.slug}/log/"):
            shown = text_of(client.get(page).content.decode())
            assert "art N:" not in shown, (language, page)
            assert "average_plus" not in shown, (language, page)
            assert "average_minus" not in shown, (language, page)
            assert not re.search(r"\b[a-z]+\.[a-z_]+\b", shown.replace("pagat.com", "")), (
                language,
                page,
                re.findall(r"\b[a-z]+\.[a-z_]+\b", shown),
            )
