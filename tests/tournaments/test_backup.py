"""Backups of one event: export_event writes it all, import_event restores it all or nothing."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import models

from documents import freshness
from documents.models import ReportFile
from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tests.tournaments.test_substitutes import a_line_for
from tournaments.models import (
    AuditEntry,
    Board,
    Club,
    Entry,
    Event,
    Organisation,
    Penalty,
    Player,
    Result,
    Round,
    Seating,
    SitOutScore,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services import adjustments, backup, results, rounds, standings, substitutes
from tournaments.services.substitutes import Scope

PARTS: tuple[type[models.Model], ...] = (
    Entry,
    Round,
    Table,
    Board,
    Seating,
    TableBoard,
    Result,
    Penalty,
    SitOutScore,
    AuditEntry,
    ReportFile,
    Standings,
)


@pytest.fixture(scope="module")
def module_assistant(module_db: None) -> User:
    """The second director of the module's shared evening (``assistant``)."""
    return User.objects.create_user("bob", password="bob-password", is_staff=True)


@pytest.fixture
def assistant(module_assistant: User, db: None) -> User:
    """The module's second director (bob), fetched afresh for each test."""
    return User.objects.get(pk=module_assistant.pk)


@pytest.fixture(scope="module")
def _played(module_td: User, module_assistant: User) -> Event:
    """Nine players (a bye each round) with an evening's worth of everything in round 1: a
    substitute for a no-show who stays away (vacant seats later), results keyed by two people, a
    correction, a fine, a score for the bye, round 1 closed, a report and the standings stored."""
    with as_a_test():
        event = start_event(module_td, "club-night", 9)
        event.directors.add(module_assistant)
        first = Round.objects.get(event=event, number=1)
        absent = Entry.objects.get(event=event, number=3)
        substitutes.mark_absent(module_td, first, absent, reason="did not come", later_rounds=True)
        reserve = substitutes.new_player("Reserve", "Speler", "De Troef")
        substitutes.seat_substitute(
            module_td, first, absent, reserve, scope=Scope.ROUND, reason="stand-in"
        )
        for table in first.tables.order_by("number"):
            for link in table.table_boards.select_related("board").order_by("position"):
                results.record_result(module_assistant, table, link.board, "pass", confirmed=True)
        table = first.tables.get(number=1)
        board = table.table_boards.order_by("position").first()
        assert board is not None
        line = a_line_for(board.board)
        results.record_result(
            module_td,
            table,
            board.board,
            line,
            confirmed=True,
            expected_version=1,
            reason="sheet misread",
        )
        adjustments.record_fine(
            module_td, event, Entry.objects.get(event=event, number=1), Fraction(2), "late"
        )
        bye = Seating.objects.get(round=first, seat=Seating.Seat.BYE)
        assert bye.entry is not None
        adjustments.score_bye(module_td, bye.entry, 1, "average_plus", reason="odd number")
        rounds.close_round(module_td, first)
        ReportFile.objects.create(
            event=event, kind=ReportFile.Kind.STANDINGS, status=ReportFile.Status.DONE, progress=100
        )
        standings.refresh(event.pk)
        return Event.objects.get(pk=event.pk)


@pytest.fixture
def played(_played: Event, db: None) -> Event:
    """Nine players with an evening's worth of everything in round 1 (made once for the module)."""
    return Event.objects.get(pk=_played.pk)


def canonical(event: Event) -> dict[str, Any]:
    """Everything of ``event`` with every id replaced by what it points at, in no given order.

    Written from the models' fields, so that a field an export leaves out shows as a difference.
    """
    seen: dict[tuple[type[models.Model], Any], Any] = {}

    def describe(obj: models.Model) -> Any:
        if isinstance(obj, Event):
            return "the event"
        if isinstance(obj, User):
            return obj.username
        key = (type(obj), obj.pk)
        if key not in seen:
            row: dict[str, Any] = {}
            for f in obj._meta.concrete_fields:
                if f.primary_key:
                    continue
                value = getattr(obj, f.name)
                row[f.name] = describe(value) if isinstance(value, models.Model) else value
                if isinstance(value, models.fields.files.FieldFile):
                    row[f.name] = value.name
            if isinstance(obj, AuditEntry) and obj.object_type:
                every: tuple[type[models.Model], ...] = (*PARTS, Player, Club, Event)
                model = next(m for m in every if m._meta.model_name == obj.object_type)
                target = model._default_manager.filter(pk=obj.object_id).first()
                row["object_id"] = describe(target) if target is not None else None
            seen[key] = row
        return seen[key]

    def rows(model: type[models.Model]) -> list[str]:
        filters = {
            Table: {"round__event": event},
            Seating: {"round__event": event},
            TableBoard: {"table__round__event": event},
        }.get(model, {"event": event})
        found = model._default_manager.filter(**filters).exclude(
            pk__in=AuditEntry.objects.filter(action="event.import").values("pk")
            if model is AuditEntry
            else []
        )
        return sorted(json.dumps(describe(obj), sort_keys=True, default=str) for obj in found)

    head = {
        f.name: getattr(event, f.name)
        for f in Event._meta.concrete_fields
        if not f.primary_key and f.name != "slug"
    }
    head["directors"] = sorted(u.username for u in event.directors.all())
    return {"event": head, **{m._meta.model_name or "": rows(m) for m in PARTS}}


def export_to(tmp_path: Path, event: Event) -> Path:
    path = tmp_path / f"{event.slug}.json"
    call_command("export_event", event.slug, str(path), stdout=StringIO())
    return path


def import_from(path: Path, *args: str) -> str:
    out = StringIO()
    call_command("import_event", str(path), *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    every: tuple[type[models.Model], ...] = (*PARTS, Event, Player, Club)
    return {m._meta.model_name or "": m._default_manager.count() for m in every}


def test_an_exported_event_imports_as_the_same_event(
    td: User, played: Event, tmp_path: Path
) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    assert (document["format"], document["version"]) == ("troef-event", backup.VERSION)
    assert document["event"]["deal_key"] == played.deal_key
    import_from(path, "--slug", "club-night-copy")
    copy = Event.objects.get(slug="club-night-copy")
    original = canonical(played)
    assert original["result"]
    assert original["seating"]
    assert original["auditentry"]
    assert canonical(copy) == original
    # The copy's rows are its own, and the log points at them.
    assert not set(Result.objects.filter(event=copy)) & set(Result.objects.filter(event=played))
    fine = AuditEntry.objects.get(event=copy, action="penalty.fine")
    assert Penalty.objects.get(pk=fine.object_id).event == copy


def test_assistants_and_the_organisation_travel_and_device_links_do_not(
    td: User, played: Event, tmp_path: Path
) -> None:
    carol = User.objects.create_user("carol")
    played.assistants.add(carol)
    played.organisation = Organisation.objects.create(name="De Troef")
    played.save()
    for table in Table.objects.filter(round__event=played):
        Table.objects.filter(pk=table.pk).update(device_key=f"key{table.pk:019}", device_pin="1234")
    path = export_to(tmp_path, played)
    assert json.loads(path.read_text())["event"]["organisation"] == "De Troef"
    import_from(path, "--slug", "club-night-copy")
    copy = Event.objects.get(slug="club-night-copy")
    assert [u.username for u in copy.assistants.all()] == ["carol"]
    assert copy.organisation == played.organisation
    assert set(Table.objects.filter(round__event=copy).values_list("device_key", "device_pin")) == {
        ("", "")
    }


def test_it_keeps_every_kind_of_row_the_evening_made(played: Event, tmp_path: Path) -> None:
    document = json.loads(export_to(tmp_path, played).read_text())
    assert any(r["reason"] == "sheet misread" and r["version"] == 2 for r in document["results"])
    assert any(not r["is_current"] for r in document["results"])
    assert any(e["role"] == "substitute" for e in document["entries"])
    assert any(s["entry"] is None and s["replaces"] for s in document["seatings"])
    assert [p["kind"] for p in document["penalties"]] == ["fine"]
    assert [s["award"] for s in document["sit_out_scores"]] == ["average_plus"]
    assert [c["name"] for c in document["clubs"]] == ["De Troef"]
    assert document["event"]["directors"] == ["alice", "bob"]
    assert {r["entered_by"] for r in document["results"]} == {"alice", "bob"}
    assert document["standings"]["data"]["rows"]
    assert document["reports"][0]["file"] == ""


def test_the_import_writes_one_audit_entry(played: Event, tmp_path: Path) -> None:
    path = export_to(tmp_path, played)
    import_from(path, "--slug", "restored")
    entry = AuditEntry.objects.get(action="event.import")
    assert entry.event == Event.objects.get(slug="restored")
    assert entry.data["source_slug"] == "club-night"
    assert entry.text.startswith("event restored from a backup file made on ")


def test_it_reuses_players_and_clubs_that_exist_and_adds_the_others(
    played: Event, tmp_path: Path
) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    document["players"][0]["first_name"] = "Newcomer"
    document["players"][1]["federation_number"] = "B-1234"
    document["clubs"][0]["name"] = "de troef"  # the same club, whatever the case
    path.write_text(json.dumps(document))
    players_before = Player.objects.count()
    output = import_from(path, "--slug", "elsewhere")
    assert "Players: 8 already here, 2 added." in output
    assert "Clubs: 1 already here, 0 added." in output
    assert Player.objects.count() == players_before + 2
    assert Player.objects.filter(first_name="Newcomer").exists()
    assert Player.objects.get(federation_number="B-1234").first_name == "Player2"
    assert Club.objects.count() == 1


def test_it_leaves_users_it_does_not_know_empty_and_lists_them(
    played: Event, tmp_path: Path
) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    document["event"]["directors"] = ["alice", "carol"]
    for row in document["results"]:
        row["entered_by"] = "dave"
    path.write_text(json.dumps(document))
    output = import_from(path, "--slug", "elsewhere")
    assert "left empty (directors, keyers, the log's actors): carol, dave" in output
    copy = Event.objects.get(slug="elsewhere")
    assert [u.username for u in copy.directors.all()] == ["alice"]
    assert not Result.objects.filter(event=copy).exclude(entered_by=None).exists()


def test_it_refuses_a_file_of_a_newer_format(played: Event, tmp_path: Path) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    document["version"] = backup.VERSION + 1
    path.write_text(json.dumps(document))
    before = counts()
    newer = backup.VERSION + 1
    with pytest.raises(CommandError, match=f"newer Troef \\(event format version {newer}\\)"):
        import_from(path, "--slug", "elsewhere")
    assert counts() == before


def test_it_refuses_a_slug_that_exists_unless_renamed(played: Event, tmp_path: Path) -> None:
    path = export_to(tmp_path, played)
    before = counts()
    with pytest.raises(CommandError, match="short name club-night exists already"):
        import_from(path)
    assert counts() == before
    with pytest.raises(CommandError, match="not a usable short name"):
        import_from(path, "--slug", "no spaces")
    assert counts() == before


def test_it_refuses_a_file_that_is_not_json(db: None, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "troef-event", "version": 1, "event": {')
    with pytest.raises(CommandError, match="is not a JSON document"):
        import_from(path)
    with pytest.raises(CommandError, match="Cannot read"):
        import_from(tmp_path / "missing.json")


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda d: d["results"][-1].update(table=999999), id="unknown-table"),
        pytest.param(lambda d: d["reports"][0].update(colour="red"), id="unknown-field"),
        pytest.param(lambda d: d["audit_entries"][-1].update(at="yesterday"), id="bad-date"),
        pytest.param(lambda d: d["results"].append(dict(d["results"][-1])), id="duplicate"),
        pytest.param(lambda d: d.pop("results"), id="part-missing"),
        pytest.param(lambda d: d.update(format="something-else"), id="not-an-export"),
    ],
)
def test_a_broken_file_imports_nothing(played: Event, tmp_path: Path, damage: Any) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    # A player and a club this database lacks: they would be created before the damage is met.
    document["players"][0]["first_name"] = "Newcomer"
    document["clubs"][0]["name"] = "Elsewhere"
    damage(document)
    path.write_text(json.dumps(document))
    before = counts()
    with pytest.raises(CommandError, match="not a usable event backup"):
        import_from(path, "--slug", "elsewhere")
    assert counts() == before
    assert not Event.objects.filter(slug="elsewhere").exists()


def test_export_names_an_event_that_does_not_exist(db: None, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no event with the short name 'nope'"):
        call_command("export_event", "nope", str(tmp_path / "x.json"))
    assert not (tmp_path / "x.json").exists()


def test_an_imported_report_keeps_its_metadata_but_not_the_source_file(
    played: Event, tmp_path: Path
) -> None:
    ReportFile.objects.filter(event=played).update(
        file="reports/2026/11/standings.pdf", filename="standings.pdf"
    )
    import_from(export_to(tmp_path, played), "--slug", "elsewhere")
    copy = ReportFile.objects.get(event__slug="elsewhere")
    assert (copy.filename, copy.status, copy.file.name) == ("standings.pdf", "done", "")


def test_an_imported_reports_audit_mark_names_the_copy_of_its_entry(
    played: Event, tmp_path: Path
) -> None:
    report = ReportFile.objects.get(event=played)
    for name, value in freshness.take(played, report.kind, None).items():
        setattr(report, name, value)
    report.save()
    assert report.audit_mark is not None
    marked = AuditEntry.objects.get(pk=report.audit_mark)
    import_from(export_to(tmp_path, played), "--slug", "elsewhere")
    copy = ReportFile.objects.get(event__slug="elsewhere")
    assert copy.audit_mark is not None
    entry = AuditEntry.objects.get(pk=copy.audit_mark)
    assert (entry.event_id, entry.action, entry.summary, entry.at) == (
        copy.event_id,
        marked.action,
        marked.summary,
        marked.at,
    )
    assert copy.audit_count == report.audit_count
    # The restore itself comes after the mark: the copy says so in one sentence.
    assert freshness.check(copy.event, [copy])[copy.pk] == freshness.Freshness(
        freshness.OUT_OF_DATE,
        ("The event was restored from a backup after this file was made: make it again.",),
    )


def test_a_report_of_a_file_written_before_the_audit_marks_imports_as_not_checked(
    played: Event, tmp_path: Path
) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    for row in document["reports"]:
        for name in ("audit_mark", "audit_count", "printed_results"):
            del row[name]
        row["fingerprint"] = {"standings": "2f1c0e"}
    path.write_text(json.dumps(document))
    import_from(path, "--slug", "elsewhere")
    copy = ReportFile.objects.get(event__slug="elsewhere")
    assert (copy.audit_mark, copy.audit_count, copy.printed_results) == (None, None, True)
    checked = freshness.check(copy.event, [copy])[copy.pk]
    assert checked.state == freshness.UNKNOWN


def _as_first_format(document: dict[str, Any], total: str) -> None:
    """The file as version 1 wrote it: a fine's amount in ``points["total"]``, no ``fine``."""
    document["version"] = 1
    for row in document["penalties"]:
        if row["board"] is None:
            del row["fine"]
            row["points"] = {"total": total}


def test_a_file_of_the_first_format_brings_its_fines_as_amounts(
    played: Event, tmp_path: Path
) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    _as_first_format(document, "2")
    path.write_text(json.dumps(document))
    import_from(path, "--slug", "elsewhere")
    copy = Event.objects.get(slug="elsewhere")
    assert canonical(copy) == canonical(played)
    fine = Penalty.objects.get(event=copy, board=None)
    assert (fine.fine, fine.points) == (Decimal("2.00"), {})


def test_a_first_format_fine_in_halves_keeps_its_amount(played: Event, tmp_path: Path) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    _as_first_format(document, "5/2")
    path.write_text(json.dumps(document))
    import_from(path, "--slug", "elsewhere")
    assert Penalty.objects.get(event__slug="elsewhere", board=None).fine == Decimal("2.50")


def test_a_first_format_fine_that_cannot_be_read_imports_nothing(
    played: Event, tmp_path: Path
) -> None:
    path = export_to(tmp_path, played)
    document = json.loads(path.read_text())
    _as_first_format(document, "five")
    path.write_text(json.dumps(document))
    before = counts()
    with pytest.raises(CommandError, match="the fine's amount cannot be read"):
        import_from(path, "--slug", "elsewhere")
    assert counts() == before
