"""A club's own scoring table: kept once, versioned, picked for an event that keeps its copy."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.timezone import localtime

from engine.ruleset import load_builtin, ruleset_to_toml
from tests.tournaments.conftest import TEST_KEY, make_settings, register
from tests.tournaments.test_substitutes import play_table
from tournaments.errors import UserError
from tournaments.forms import CLUB_TABLE
from tournaments.models import (
    AuditEntry,
    Club,
    Event,
    Result,
    ScoringTable,
    ScoringTableVersion,
)
from tournaments.services import backup, deals, events, rounds, scoring_tables, seating, standings

pytestmark = pytest.mark.django_db

# The Whisthub table under the club's own name: accept 8 made exactly scores 8 a player.
WHISTHUB = ruleset_to_toml(load_builtin("whisthub"))
CLUB_TEXT = WHISTHUB.replace('name = "whisthub"', 'name = "de-troef"').replace(
    'title = "Whisthub standard (zero-sum)"', 'title = "De Troef clubtabel"'
)
# The next season's figures: accept 8 made exactly scores 80 a player.
NEXT_TEXT = CLUB_TEXT.replace("values = { 8 = 8,", "values = { 8 = 80,")
BROKEN_TEXT = CLUB_TEXT.replace("per_trick = -3", 'per_trick = "three"', 1)


def test_the_texts_differ_where_the_tests_expect() -> None:
    assert "values = { 8 = 8," in CLUB_TEXT
    assert NEXT_TEXT != CLUB_TEXT
    assert BROKEN_TEXT != CLUB_TEXT


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="De Troef")


@pytest.fixture
def table(td: User, club: Club) -> ScoringTable:
    return scoring_tables.create_table(td, club, "Clubtabel", CLUB_TEXT)


def pair(declarer: str, opponent: str) -> str:
    """A preview cell: each declarer's score / each opponent's, kept on one line."""
    return f"{declarer}\u00a0/\u00a0{opponent}"


def staff(user: User) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


# --- services ----------------------------------------------------------------------------------


def test_it_creates_a_table_with_its_first_version_and_an_audit_entry(
    td: User, table: ScoringTable
) -> None:
    version = table.versions.get()
    assert (version.number, version.toml, version.created_by) == (1, CLUB_TEXT, td)
    entry = AuditEntry.objects.get(action="scoring_table.create")
    assert entry.actor == td
    assert entry.summary == "created scoring table Clubtabel of De Troef"


def test_it_names_the_club_by_name_and_adds_a_new_one(td: User) -> None:
    table = scoring_tables.create_table(td, "Kaartclub Azen", "Zomer", CLUB_TEXT)
    assert table.club.name == "Kaartclub Azen"
    again = scoring_tables.create_table(td, "kaartclub azen", "Winter", CLUB_TEXT)
    assert again.club == table.club


def test_it_refuses_a_second_table_of_the_same_name_in_a_club(
    td: User, table: ScoringTable, club: Club
) -> None:
    with pytest.raises(UserError) as caught:
        scoring_tables.create_table(td, club, "CLUBTABEL", CLUB_TEXT)
    assert caught.value.field == "name"
    other = scoring_tables.create_table(td, "Andere club", "Clubtabel", CLUB_TEXT)
    assert other.name == "Clubtabel"


def test_it_refuses_a_broken_text_naming_the_key(td: User, club: Club) -> None:
    with pytest.raises(UserError) as caught:
        scoring_tables.create_table(td, club, "Clubtabel", BROKEN_TEXT)
    assert caught.value.field == "toml"
    assert "contracts.accept.failed.per_trick" in caught.value.message
    assert not ScoringTable.objects.exists()


def test_it_saves_a_new_version_only_when_the_text_changed(
    td: User, assistant: User, table: ScoringTable
) -> None:
    assert scoring_tables.save_version(td, table, CLUB_TEXT) is None
    # A browser sends \r\n: the same text still.
    assert scoring_tables.save_version(td, table, CLUB_TEXT.replace("\n", "\r\n")) is None
    second = scoring_tables.save_version(assistant, table, NEXT_TEXT)
    assert second is not None
    assert (second.number, second.created_by) == (2, assistant)
    assert [v.number for v in table.versions.all()] == [2, 1]
    assert AuditEntry.objects.filter(action="scoring_table.save_version").count() == 1


def test_saving_a_broken_text_keeps_the_versions_as_they_were(
    td: User, table: ScoringTable
) -> None:
    with pytest.raises(UserError) as caught:
        scoring_tables.save_version(td, table, BROKEN_TEXT)
    assert "per_trick" in caught.value.message
    assert list(table.versions.values_list("number", "toml")) == [(1, CLUB_TEXT)]


def test_a_version_cannot_be_changed_or_deleted(table: ScoringTable) -> None:
    version = table.versions.get()
    version.toml = NEXT_TEXT
    with pytest.raises(ValueError, match="cannot be changed"):
        version.save()
    with pytest.raises(ValueError, match="cannot be deleted"):
        version.delete()
    assert ScoringTableVersion.objects.get(pk=version.pk).toml == CLUB_TEXT


def test_it_renames_a_table_and_refuses_a_name_taken_in_the_club(
    td: User, table: ScoringTable, club: Club
) -> None:
    scoring_tables.create_table(td, club, "Oud", CLUB_TEXT)
    with pytest.raises(UserError) as caught:
        scoring_tables.rename_table(td, table, "oud")
    assert caught.value.field == "name"
    renamed = scoring_tables.rename_table(td, table, "Clubtabel 2026")
    assert renamed.name == "Clubtabel 2026"
    assert AuditEntry.objects.get(action="scoring_table.rename").params == {
        "old": "Clubtabel",
        "new": "Clubtabel 2026",
        "club": "De Troef",
    }


# --- an event picks a version and keeps its copy ------------------------------------------------


def test_an_event_copies_the_version_it_picks(td: User, table: ScoringTable) -> None:
    version = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=version.pk)
    )
    assert event.scoring_table_version == version
    assert event.ruleset_name == "custom"
    assert event.ruleset_toml == CLUB_TEXT
    assert events.ruleset_of(event).title == "De Troef clubtabel"


def test_a_built_in_ruleset_drops_the_link(td: User, table: ScoringTable) -> None:
    version = table.versions.get()
    event = events.create_event(td, make_settings(scoring_table_version_id=version.pk))
    assert event.scoring_table_version is None
    assert event.ruleset_toml == ""


def test_a_newer_version_never_rescores_an_event(td: User, table: ScoringTable) -> None:
    version = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=version.pk)
    )
    register(td, event, 8)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    first = event.round_set.get(number=1)
    rounds.open_round(td, first)
    *early, late = first.tables.order_by("number")
    for each in early:
        play_table(td, each)
    scored = sorted(Result.objects.filter(event=event).values_list("pk", "score_n", "score_e"))
    assert {s[1] for s in scored} == {8}  # accept 8 made exactly, as version 1 says
    before = standings.compute(event)

    scoring_tables.save_version(td, table, NEXT_TEXT)

    event.refresh_from_db()
    assert event.scoring_table_version == version
    after = sorted(Result.objects.filter(event=event).values_list("pk", "score_n", "score_e"))
    assert after == scored
    assert standings.compute(event)["rows"] == before["rows"]
    # A board played after the new version is scored with the event's copy too, not with 80.
    play_table(td, late)
    assert {r.score_n for r in Result.objects.filter(event=event, table=late)} == {8}


def test_a_draft_event_takes_the_newer_version_when_chosen_again(
    td: User, table: ScoringTable
) -> None:
    first = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=first.pk)
    )
    second = scoring_tables.save_version(td, table, NEXT_TEXT)
    assert second is not None
    event.refresh_from_db()
    assert event.ruleset_toml == CLUB_TEXT  # unchanged until the TD chooses again

    events.update_event(
        td, event, make_settings(ruleset_name="custom", scoring_table_version_id=second.pk)
    )
    event.refresh_from_db()
    assert (event.scoring_table_version, event.ruleset_toml) == (second, NEXT_TEXT)


def test_a_started_event_keeps_its_version_whatever_the_form_sends(
    td: User, table: ScoringTable
) -> None:
    first = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=first.pk)
    )
    register(td, event, 8)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    second = scoring_tables.save_version(td, table, NEXT_TEXT)
    assert second is not None
    event.refresh_from_db()
    frozen = event.ruleset_toml
    events.update_event(
        td, event, make_settings(ruleset_name="custom", scoring_table_version_id=second.pk)
    )
    event.refresh_from_db()
    assert (event.scoring_table_version, event.ruleset_toml) == (first, frozen)


def test_creating_and_editing_an_event_leave_the_given_settings_as_they_were(
    td: User, table: ScoringTable
) -> None:
    version = table.versions.get()
    chosen = make_settings(ruleset_name="custom", scoring_table_version_id=version.pk)
    kept = dataclasses.replace(chosen)
    event = events.create_event(td, chosen)
    assert chosen == kept

    built_in = make_settings(scoring_table_version_id=version.pk)
    kept = dataclasses.replace(built_in)
    events.update_event(td, event, built_in)
    assert built_in == kept

    register(td, event, 8)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    started = make_settings(rounds=5, ruleset_name="custom", scoring_table_version_id=version.pk)
    kept = dataclasses.replace(started)
    events.update_event(td, event, started)
    assert started == kept


def event_form_data(ruleset_name: str, **overrides: str) -> dict[str, str]:
    data = {
        "name": "Club evening",
        "date": "2026-11-20",
        "venue": "",
        "slug": "club-evening",
        "language": "en",
        "game": "kleurenwiezen",
        "ruleset_name": ruleset_name,
        "ruleset_toml": "",
        "comparison": "matchpoints",
        "rounds": "4",
        "boards_per_round": "4",
        "seating_mode": "byes",
        "board_mode": "same",
        "tie_break": "",
    }
    data.update(overrides)
    return data


def test_the_event_form_lists_the_latest_version_of_each_club_table(
    td: User, table: ScoringTable
) -> None:
    second = scoring_tables.save_version(td, table, NEXT_TEXT)
    assert second is not None
    page = staff(td).get("/events/new/").content.decode()
    assert f'value="{CLUB_TABLE}{second.pk}"' in page
    assert "De Troef: Clubtabel (version 2)" in page
    assert "(version 1)" not in page


def test_choosing_a_club_table_in_the_event_form_copies_it(td: User, table: ScoringTable) -> None:
    version = table.versions.get()
    response = staff(td).post("/events/new/", event_form_data(f"{CLUB_TABLE}{version.pk}"))
    assert response.status_code == 302
    event = Event.objects.get(slug="club-evening")
    assert (event.scoring_table_version, event.ruleset_toml) == (version, CLUB_TEXT)
    # Editing shows the table chosen, and its own older version stays listed.
    scoring_tables.save_version(td, table, NEXT_TEXT)
    page = staff(td).get("/events/club-evening/edit/").content.decode()
    assert f'<option value="{CLUB_TABLE}{version.pk}" selected>' in page
    assert "De Troef: Clubtabel (version 2)" in page
    # The overview says where the event's ruleset came from.
    overview = staff(td).get("/events/club-evening/").content.decode()
    assert "a copy of De Troef: Clubtabel (version 1)" in overview


# --- pages -------------------------------------------------------------------------------------


def test_the_pages_are_for_staff_only(outsider: User, table: ScoringTable) -> None:
    version = table.versions.get()
    addresses = [
        "/scoring-tables/",
        "/scoring-tables/new/",
        f"/scoring-tables/{table.pk}/",
        f"/scoring-tables/{table.pk}/versions/",
        f"/scoring-tables/versions/{version.pk}/export/",
    ]
    anonymous = Client()
    for address in addresses:
        assert anonymous.get(address).status_code == 302, address
        assert staff(outsider).get(address).status_code == 403, address
    assert staff(outsider).post("/scoring-tables/preview/", {"toml": CLUB_TEXT}).status_code == 403


def test_the_list_shows_each_clubs_tables_and_the_navigation_links_to_it(
    td: User, outsider: User, table: ScoringTable
) -> None:
    page = staff(td).get("/scoring-tables/").content.decode()
    assert "De Troef" in page
    assert "Clubtabel" in page
    assert 'href="/scoring-tables/"' in page
    home = staff(outsider).get("/").content.decode()
    assert 'href="/scoring-tables/"' not in home


def test_creating_a_table_through_the_form(td: User) -> None:
    response = staff(td).post(
        "/scoring-tables/new/",
        {"club": "De Troef", "name": "Clubtabel", "toml": CLUB_TEXT, "action": "save"},
    )
    table = ScoringTable.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/scoring-tables/{table.pk}/"
    assert table.versions.get().toml == CLUB_TEXT


def test_a_broken_text_keeps_what_was_typed_and_shows_the_key(td: User) -> None:
    response = staff(td).post(
        "/scoring-tables/new/",
        {"club": "De Troef", "name": "Clubtabel", "toml": BROKEN_TEXT, "action": "save"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "contracts.accept.failed.per_trick" in page
    assert "per_trick = &quot;three&quot;" in page
    assert 'value="Clubtabel"' in page
    assert not ScoringTable.objects.exists()


def test_editing_saves_a_new_version_and_renames(td: User, table: ScoringTable) -> None:
    page = staff(td).get(f"/scoring-tables/{table.pk}/").content.decode()
    assert "Latest version: 1." in page
    assert pair("+8", "-8") in page  # the payouts, drawn from the saved text
    response = staff(td).post(
        f"/scoring-tables/{table.pk}/",
        {"club": "ignored", "name": "Clubtabel 2026", "toml": NEXT_TEXT, "action": "save"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.name, table.club.name) == ("Clubtabel 2026", "De Troef")
    assert [v.number for v in table.versions.all()] == [2, 1]


def test_a_broken_edit_changes_neither_name_nor_versions(td: User, table: ScoringTable) -> None:
    response = staff(td).post(
        f"/scoring-tables/{table.pk}/",
        {"name": "Nieuw", "toml": BROKEN_TEXT, "action": "save"},
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.name == "Clubtabel"
    assert table.versions.count() == 1


def test_a_name_taken_in_the_club_saves_no_version_either(
    td: User, table: ScoringTable, club: Club
) -> None:
    scoring_tables.create_table(td, club, "Oud", CLUB_TEXT)
    response = staff(td).post(
        f"/scoring-tables/{table.pk}/",
        {"name": "Oud", "toml": NEXT_TEXT, "action": "save"},
    )
    assert "De Troef has a table named Oud already." in response.content.decode()
    assert table.versions.count() == 1


def test_the_preview_gives_every_bids_payout_for_0_to_13_tricks(td: User) -> None:
    response = staff(td).post("/scoring-tables/preview/", {"toml": CLUB_TEXT})
    data = response.json()
    assert response.status_code == 200
    assert data["ok"] is True
    assert data["title"] == "De Troef clubtabel"
    assert data["columns"] == list(range(14))
    first = data["rows"][0]
    assert first["label"] == "accept 8"
    assert [c["text"] for c in first["cells"][7:9]] == [pair("-11", "+11"), pair("+8", "-8")]
    assert first["cells"][8]["made"] is True
    small_misere = next(row for row in data["rows"] if row["label"] == "small misere")
    assert small_misere["cells"][13] is None  # only 12 tricks are played
    # Troel is played for 8 tricks, or 9 after a trump switch: a row for each.
    troel = {row["label"]: row["cells"] for row in data["rows"] if row["label"].startswith("troel")}
    assert list(troel) == ["troel 8", "troel 9"]
    assert troel["troel 8"][8] == {"text": pair("+16", "-16"), "made": True}
    assert troel["troel 9"][8] == {"text": pair("-16", "+16"), "made": False}


def test_the_preview_of_an_israeli_table_is_per_player(td: User) -> None:
    text = ruleset_to_toml(load_builtin("israeli"))
    data = staff(td).post("/scoring-tables/preview/", {"toml": text}).json()
    assert data["per_player"] is True
    assert len(data["rows"]) == 15


def test_the_preview_of_a_broken_text_is_the_engines_message(td: User) -> None:
    response = staff(td).post("/scoring-tables/preview/", {"toml": BROKEN_TEXT})
    assert response.status_code == 400
    data = response.json()
    assert data["ok"] is False
    assert data["field"] == "toml"
    assert "contracts.accept.failed.per_trick" in data["message"]
    for text in ("", "not = [toml", "x = 1\u0000"):
        assert staff(td).post("/scoring-tables/preview/", {"toml": text}).status_code == 400


def test_the_preview_needs_the_csrf_token(td: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(td)
    assert client.post("/scoring-tables/preview/", {"toml": CLUB_TEXT}).status_code == 403


def test_importing_a_file_fills_the_text_and_saves_nothing(td: User, table: ScoringTable) -> None:
    upload = SimpleUploadedFile("table.toml", NEXT_TEXT.encode(), content_type="application/toml")
    response = staff(td).post(
        f"/scoring-tables/{table.pk}/",
        {"name": "Clubtabel", "toml": CLUB_TEXT, "file": upload, "action": "import"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "values = { 8 = 80," in page
    assert pair("+80", "-80") in page
    assert table.versions.count() == 1


def test_importing_without_a_file_asks_for_one_and_saves_nothing(
    td: User, table: ScoringTable
) -> None:
    response = staff(td).post(
        f"/scoring-tables/{table.pk}/",
        {"name": "Clubtabel", "toml": NEXT_TEXT, "action": "import"},
    )
    page = response.content.decode()
    assert "Choose a .toml file to import." in page
    assert "values = { 8 = 80," in page  # what was typed stays
    assert table.versions.count() == 1


def test_importing_a_file_that_is_not_text_says_so(td: User, table: ScoringTable) -> None:
    upload = SimpleUploadedFile("table.toml", b"\xff\xfe\x00bad")
    response = staff(td).post(
        f"/scoring-tables/{table.pk}/",
        {"name": "Clubtabel", "toml": CLUB_TEXT, "file": upload, "action": "import"},
    )
    assert "The file is not UTF-8 text." in response.content.decode()
    assert table.versions.count() == 1


def test_exporting_a_version_gives_its_text(td: User, table: ScoringTable) -> None:
    scoring_tables.save_version(td, table, NEXT_TEXT)
    first = table.versions.get(number=1)
    response = staff(td).get(f"/scoring-tables/versions/{first.pk}/export/")
    assert response.status_code == 200
    assert response.content.decode() == CLUB_TEXT
    assert response["Content-Disposition"] == 'attachment; filename="de-troef-clubtabel-v1.toml"'
    assert scoring_tables.check_document(response.content.decode()).name == "de-troef"


def test_the_history_lists_each_version_with_its_date_and_author(
    td: User, assistant: User, table: ScoringTable
) -> None:
    scoring_tables.save_version(assistant, table, NEXT_TEXT)
    page = staff(td).get(f"/scoring-tables/{table.pk}/versions/").content.decode()
    assert page.index("<td>bob</td>") < page.index("<td>alice</td>")  # the newest first
    saved = table.versions.get(number=1).created_at
    assert f"<td>{localtime(saved):%Y-%m-%d %H:%M}</td>" in page
    for version in table.versions.all():
        assert f"/scoring-tables/versions/{version.pk}/export/" in page


def test_unknown_tables_and_versions_are_not_found(td: User) -> None:
    for address in ("/scoring-tables/999/", "/scoring-tables/versions/999/export/"):
        assert staff(td).get(address).status_code == 404


# --- backups -----------------------------------------------------------------------------------


def roundtrip(event: Event, slug: str) -> tuple[dict[str, Any], Event]:
    document = json.loads(json.dumps(backup.export_event(event)))
    return document, backup.import_event(None, document, slug=slug).event


def test_a_backup_names_the_version_and_relinks_it_where_it_exists(
    td: User, table: ScoringTable
) -> None:
    version = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=version.pk)
    )
    document, copy = roundtrip(event, "club-evening-copy")
    assert document["event"]["scoring_table_version"] == {
        "club": "De Troef",
        "table": "Clubtabel",
        "number": 1,
    }
    assert copy.scoring_table_version == version
    assert copy.ruleset_toml == CLUB_TEXT


def test_a_backup_of_a_started_event_relinks_its_frozen_copy(td: User, table: ScoringTable) -> None:
    version = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=version.pk)
    )
    register(td, event, 8)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    event.refresh_from_db()
    _, copy = roundtrip(event, "started-copy")
    assert copy.scoring_table_version == version
    assert copy.ruleset_toml == event.ruleset_toml


def test_a_backup_drops_the_link_when_the_target_lacks_the_version(
    td: User, table: ScoringTable
) -> None:
    version = table.versions.get()
    event = events.create_event(
        td, make_settings(ruleset_name="custom", scoring_table_version_id=version.pk)
    )
    document = json.loads(json.dumps(backup.export_event(event)))
    document["event"]["scoring_table_version"]["table"] = "Elders"
    copy = backup.import_event(None, document, slug="elsewhere").event
    assert copy.scoring_table_version is None
    assert events.ruleset_of(copy).title == "De Troef clubtabel"
    # A table of the same name with other figures is not the table the event copied.
    document["event"]["scoring_table_version"]["table"] = "Other"
    scoring_tables.create_table(td, table.club, "Other", NEXT_TEXT)
    assert backup.import_event(None, document, slug="other").event.scoring_table_version is None


def test_a_backup_without_a_club_table_still_round_trips(td: User) -> None:
    event = events.create_event(td, make_settings())
    document, copy = roundtrip(event, "plain-copy")
    assert document["event"]["scoring_table_version"] is None
    assert copy.scoring_table_version is None


def test_a_backup_with_a_broken_version_name_is_refused(td: User, table: ScoringTable) -> None:
    event = events.create_event(
        td,
        make_settings(ruleset_name="custom", scoring_table_version_id=table.versions.get().pk),
    )
    document = json.loads(json.dumps(backup.export_event(event)))
    document["event"]["scoring_table_version"] = {"club": "De Troef", "number": "one"}
    with pytest.raises(UserError) as caught:
        backup.import_event(None, document, slug="broken")
    assert caught.value.code == "broken_file"
