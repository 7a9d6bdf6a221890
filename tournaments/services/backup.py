"""One event as one JSON document, and back: ``export_event`` and ``import_event``.

The document (``{"format": "troef-event", "version": 1, ...}``) holds everything the event is
made of: its settings and frozen ruleset, the deal key, the players and their clubs, the
movement (rounds, tables, seats, vacant seats and substitutes), the boards, every version of
every result, penalties, fines and scores for byes, the audit log, the reports' metadata (not the
files themselves) and the stored standings.

Rows are written field by field from the models' own fields, so a field added to a model is
exported without a change here. Each row keeps its database id under ``"id"``, used only to refer
from one row to another inside the document; an import gives every row a new id. Users
(directors, the people who keyed results, the actors of the log) are named by user name.

On import, clubs and players that already exist in the target database are reused: a player by
federation number, else by first and last name when exactly one player without a federation
number has that name; a club by name. Their data in the target is left as it is.

An event that took its ruleset from a club's scoring table names the version by club, table name
and number (``{"club": ..., "table": ..., "number": ...}``): an import links the event to that
version when the target has it with the same text, and otherwise leaves the link empty. The
event's own copy of the document is what scores it either way.
"""

from __future__ import annotations

import datetime as dt
import decimal
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DataError, IntegrityError, models, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from documents.models import ReportFile
from tournaments import rulesets
from tournaments.errors import UserError
from tournaments.models import (
    AuditAction,
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
    ScoringTableVersion,
    Seating,
    SitOutScore,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services import analysis, audit
from tournaments.services.audit import Actor

FORMAT = "troef-event"
# 2: a fine has a field of its own (``fine``); files of version 1 hold it in ``points`` and are read too.
VERSION = 2

# The event's parts in the order an import creates them: every row refers only to rows above it.
# Clubs and players come first and are handled apart (they may exist in the target already).
PARTS: tuple[tuple[str, type[models.Model]], ...] = (
    ("entries", Entry),
    ("rounds", Round),
    ("tables", Table),
    ("boards", Board),
    ("seatings", Seating),
    ("table_boards", TableBoard),
    ("results", Result),
    ("penalties", Penalty),
    ("sit_out_scores", SitOutScore),
    ("audit_entries", AuditEntry),
    ("reports", ReportFile),
)


def _rows_of(event: Event, model: type[models.Model]) -> models.QuerySet[Any]:
    """The event's rows of ``model``, in the order they were made."""
    filters: dict[type[models.Model], dict[str, Any]] = {
        Club: {"players__entries__event": event},
        Player: {"entries__event": event},
        Table: {"round__event": event},
        Seating: {"round__event": event},
        TableBoard: {"table__round__event": event},
    }
    return (
        model._default_manager.filter(**filters.get(model, {"event": event}))
        .distinct()
        .order_by("pk")
    )


def _is_user(f: models.Field[Any, Any]) -> bool:
    return f.is_relation and f.related_model is get_user_model()


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


# --- export -------------------------------------------------------------------------------------


class _Usernames:
    """User ids to user names, looked up once each."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def __call__(self, pk: int | None) -> str | None:
        if pk is None:
            return None
        if pk not in self.names:
            user = get_user_model()._default_manager.filter(pk=pk).first()
            self.names[pk] = user.get_username() if user is not None else ""
        return self.names[pk] or None


def _plain(value: Any) -> Any:
    if isinstance(value, FieldFile):
        return value.name or ""
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


def _dump(obj: models.Model, usernames: _Usernames) -> dict[str, Any]:
    row: dict[str, Any] = {"id": obj.pk}
    for f in _fields(type(obj)):
        value = f.value_from_object(obj)
        row[f.name] = usernames(value) if _is_user(f) else _plain(value)
    return row


def _version_identity(event: Event) -> dict[str, Any] | None:
    """The club table version an event copied its ruleset from, by names: its id means nothing
    in another database."""
    version = event.scoring_table_version
    if version is None:
        return None
    return {
        "club": version.table.club.name,
        "table": version.table.name,
        "number": version.number,
    }


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as one JSON-ready document (read only: nothing is written)."""
    usernames = _Usernames()
    head = _dump(event, usernames)
    head["scoring_table_version"] = _version_identity(event)
    head["directors"] = sorted(u.get_username() for u in event.directors.all())
    head["assistants"] = sorted(u.get_username() for u in event.assistants.all())
    # The club or federation account by its name, as the club tables are: ids mean nothing in
    # another database.
    head["organisation"] = event.organisation.name if event.organisation else None
    # Series are competitions of their own: the slugs say where the event belonged, an import
    # does not add it to them (docs/deploy.md).
    head["series"] = sorted(event.series.values_list("slug", flat=True))
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": head,
        "clubs": [_dump(obj, usernames) for obj in _rows_of(event, Club)],
        "players": [_dump(obj, usernames) for obj in _rows_of(event, Player)],
    }
    for key, model in PARTS:
        document[key] = [_dump(obj, usernames) for obj in _rows_of(event, model)]
    state = Standings.objects.filter(event=event).first()
    document["standings"] = _dump(state, usernames) if state is not None else None
    return document


# --- import -------------------------------------------------------------------------------------


@dataclass
class Imported:
    """What an import did: the new event, and what the operator should know about it."""

    event: Event
    missing_users: list[str] = field(default_factory=list)
    players_linked: int = 0
    players_created: int = 0
    clubs_linked: int = 0
    clubs_created: int = 0


def _broken(detail: str) -> UserError:
    return UserError(
        _("The file is not a usable event backup: %(detail)s") % {"detail": detail},
        code="broken_file",
        field="file",
    )


class _Loader:
    """Turns the document's rows into new rows, keeping old id -> new row for each model."""

    def __init__(self) -> None:
        self.ids: dict[type[models.Model], dict[int, int]] = {}
        self.users: dict[str, Any] = {}
        self.missing_users: set[str] = set()

    def user_id(self, name: Any) -> int | None:
        if name in (None, ""):
            return None
        if not isinstance(name, str):
            raise _broken(f"user name {name!r}")
        if name not in self.users:
            self.users[name] = get_user_model()._default_manager.filter(username=name).first()
        user = self.users[name]
        if user is None:
            self.missing_users.add(name)
            return None
        return int(user.pk)

    def new_id(self, model: type[models.Model], old: Any) -> int | None:
        if old is None:
            return None
        try:
            return self.ids[model][old]
        except KeyError:
            raise _broken(
                f"{model._meta.model_name} {old!r} is referred to but not in the file"
            ) from None

    def build(self, model: type[models.Model], row: Any) -> models.Model:
        if not isinstance(row, dict) or "id" not in row:
            raise _broken(f"a {model._meta.model_name} row without an id")
        if model is Penalty:
            row = _typed_fine(row)
        elif model is ReportFile:
            row = self._report_row(row)
        fields = {f.name: f for f in _fields(model)}
        unknown = set(row) - set(fields) - {"id"}
        if unknown:
            names = ", ".join(sorted(unknown))
            raise _broken(f"{model._meta.model_name} has no field {names}")
        values: dict[str, Any] = {}
        for name, value in row.items():
            if name == "id":
                continue
            f = fields[name]
            if _is_user(f):
                values[f.attname] = self.user_id(value)
            elif f.is_relation:
                assert isinstance(f.related_model, type)
                values[f.attname] = self.new_id(f.related_model, value)
            elif isinstance(f, models.FileField):
                # The files are not in the document, and a name shared with the source event's
                # row would let a regeneration here delete that event's file: made again instead.
                values[f.attname] = ""
            else:
                try:
                    values[f.attname] = f.to_python(value)
                except ValidationError as error:
                    raise _broken(f"{model._meta.model_name}.{name}: {error.messages[0]}") from None
        return model(**values)

    def _report_row(self, row: dict[str, Any]) -> dict[str, Any]:
        """A report's row as this version keeps it. Its audit mark names the copy of the same
        entry (the log is created first, in its order); the digests that files made before the
        audit log told their freshness carried are dropped, and such a file shows as not checked.
        """
        row = {name: value for name, value in row.items() if name != "fingerprint"}
        mark = row.get("audit_mark")
        if mark is not None:
            row["audit_mark"] = self.ids.get(AuditEntry, {}).get(mark)
            if row["audit_mark"] is None:
                row["audit_count"] = None
        return row

    def create(self, model: type[models.Model], rows: Any) -> list[models.Model]:
        """Create ``rows`` of ``model`` and remember their new ids, keeping their timestamps."""
        if not isinstance(rows, list):
            raise _broken(f"{model._meta.model_name} rows are not a list")
        built = [self.build(model, row) for row in rows]
        made = model._default_manager.bulk_create(built)
        # auto_now(_add) fields take the time of the import on insert: put back the file's.
        stamped = [
            f
            for f in _fields(model)
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        kept = [f for f in stamped if all(f.name in row for row in rows)]
        if kept and made:
            for obj, row in zip(made, rows, strict=True):
                for f in kept:
                    setattr(obj, f.attname, f.to_python(row[f.name]))
            model._default_manager.bulk_update(made, [f.name for f in kept])
        mapping = self.ids.setdefault(model, {})
        for obj, row in zip(made, rows, strict=True):
            if row["id"] in mapping:
                raise _broken(f"{model._meta.model_name} {row['id']!r} appears twice")
            mapping[row["id"]] = obj.pk
        return made


def _typed_fine(row: dict[str, Any]) -> dict[str, Any]:
    """A fine as files made before fines had a field of their own hold it: its amount in
    ``points["total"]`` (a fraction as text), moved to ``fine``."""
    if "fine" in row or row.get("board") is not None:
        return row
    points = row.get("points")
    try:
        amount = Fraction(str(points.get("total"))) if isinstance(points, dict) else None
    except (ValueError, ZeroDivisionError):
        amount = None
    if amount is None or (amount * 100).denominator != 1:
        raise _broken(f"penalty {row['id']!r}: the fine's amount cannot be read")
    return {
        **row,
        "points": {},
        "fine": str(decimal.Decimal(amount.numerator) / amount.denominator),
    }


def _link_clubs(loader: _Loader, rows: Any, result: Imported) -> None:
    if not isinstance(rows, list):
        raise _broken("clubs are not a list")
    loader.ids[Club] = {}
    for row in rows:
        club = Club.objects.filter(name__iexact=str(row.get("name", ""))).first()
        if club is None:
            loader.create(Club, [row])
            result.clubs_created += 1
        else:
            loader.ids[Club][row["id"]] = club.pk
            result.clubs_linked += 1


def _link_players(loader: _Loader, rows: Any, result: Imported) -> None:
    if not isinstance(rows, list):
        raise _broken("players are not a list")
    loader.ids[Player] = {}
    taken: set[int] = set()
    for row in rows:
        if not isinstance(row, dict):
            raise _broken("a player is not an object")
        number = str(row.get("federation_number") or "")
        if number:
            found = list(Player.objects.filter(federation_number=number))
        else:
            found = list(
                Player.objects.filter(
                    federation_number="",
                    first_name__iexact=str(row.get("first_name", "")),
                    last_name__iexact=str(row.get("last_name", "")),
                )[:2]
            )
        # Two players of the file with one name are two people: the second gets a new row.
        if len(found) == 1 and found[0].pk not in taken:
            loader.ids[Player][row["id"]] = found[0].pk
            result.players_linked += 1
        else:
            loader.create(Player, [row])
            result.players_created += 1
        taken.add(loader.ids[Player][row["id"]])


def _repoint_audit(loader: _Loader, entries: list[models.Model]) -> None:
    """Make the log's ``object_id`` name the new rows (they named the source database's ids)."""
    by_name = {model._meta.model_name: model for model in loader.ids}
    changed = []
    for entry in entries:
        assert isinstance(entry, AuditEntry)
        model = by_name.get(entry.object_type)
        if model is None or not entry.object_id.isdigit():
            continue
        new = loader.ids[model].get(int(entry.object_id))
        if new is not None:
            entry.object_id = str(new)
            changed.append(entry)
    AuditEntry.objects.bulk_update(changed, ["object_id"])


def _find_version(identity: Any, document: str) -> ScoringTableVersion | None:
    """The target's version of the club table the event named, when it holds the text the event
    copied; ``None`` otherwise (the event's own copy scores it, the link only says where from)."""
    if identity is None:
        return None
    if not isinstance(identity, dict):
        raise _broken("the scoring table version is not an object")
    number = identity.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        raise _broken("the scoring table version has no number")
    version = (
        ScoringTableVersion.objects.filter(
            table__club__name__iexact=str(identity.get("club", "")),
            table__name__iexact=str(identity.get("table", "")),
            number=number,
        )
        .select_related("table__club")
        .first()
    )
    if version is None:
        return None
    if version.toml == document:
        return version
    # A running event holds the frozen (rewritten) copy: the same ruleset, not the same text.
    try:
        same = rulesets.parse_custom(version.toml) == rulesets.parse_custom(document)
    except UserError:
        same = False
    return version if same else None


def check_document(document: Any, slug: str | None) -> str:
    """Refuse a document this version cannot read, or whose event would clash; the slug to use."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _broken(_("it is not a Troef event export"))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _broken(_("it has no format version"))
    if version > VERSION:
        raise UserError(
            _(
                "The file was written by a newer Troef (event format version %(file)s); this "
                "installation reads up to version %(ours)s. Upgrade Troef, then import it."
            )
            % {"file": version, "ours": VERSION},
            code="newer_format",
            field="file",
        )
    head = document.get("event")
    if not isinstance(head, dict):
        raise _broken(_("it has no event"))
    slug = slug or str(head.get("slug") or "")
    try:
        validate_slug(slug)
    except ValidationError:
        raise UserError(
            _("%(slug)s is not a usable short name: letters, digits, - and _ only.")
            % {"slug": slug},
            code="invalid",
            field="slug",
        ) from None
    if Event.objects.filter(slug=slug).exists():
        raise UserError(
            _("An event with the short name %(slug)s exists already: give the import another one.")
            % {"slug": slug},
            code="slug_taken",
            field="slug",
        )
    return slug


def import_event(actor: Actor, document: Any, *, slug: str | None = None) -> Imported:
    """Create the event of an exported document, all of it or nothing (one transaction)."""
    slug = check_document(document, slug)
    try:
        with transaction.atomic():
            return _import(actor, document, slug)
    except (IntegrityError, DataError) as error:
        raise _broken(str(error).splitlines()[0] if str(error) else type(error).__name__) from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _broken(f"{type(error).__name__}: {error}") from error


def _import(actor: Actor, document: dict[str, Any], slug: str) -> Imported:
    loader = _Loader()
    head = dict(document["event"])
    directors = head.pop("directors", [])
    assistants = head.pop("assistants", [])
    head.pop("series", None)
    identity = head.pop("scoring_table_version", None)
    organisation = head.pop("organisation", None)
    head["slug"] = slug
    event = loader.create(Event, [head])[0]
    assert isinstance(event, Event)
    if organisation is not None:
        event.organisation = Organisation.objects.filter(name__iexact=str(organisation)).first()
        event.save(update_fields=["organisation"])
    version = _find_version(identity, str(head.get("ruleset_toml") or ""))
    if version is not None:
        event.scoring_table_version = version
        event.save(update_fields=["scoring_table_version"])
    result = Imported(event=event)
    if not isinstance(directors, list):
        raise _broken("directors are not a list")
    event.directors.set(
        [pk for pk in (loader.user_id(name) for name in directors) if pk is not None]
    )
    if not isinstance(assistants, list):
        raise _broken("assistants are not a list")
    event.assistants.set(
        [pk for pk in (loader.user_id(name) for name in assistants) if pk is not None]
    )
    # The table devices' links and PINs are the original event's: the copy makes its own.
    for row in document["tables"]:
        if isinstance(row, dict):
            row["device_key"] = row["device_pin"] = ""
    _link_clubs(loader, document["clubs"], result)
    _link_players(loader, document["players"], result)
    for key, model in PARTS:
        made = loader.create(model, document[key])
        if model is AuditEntry:
            _repoint_audit(loader, made)
    if document.get("standings") is not None:
        loader.create(Standings, [document["standings"]])
    result.missing_users = sorted(loader.missing_users)
    # The backup holds no double-dummy tables: the restored boards are analysed again, which the
    # import's own entry records.
    queued = analysis.schedule_analysis(event, actor=actor, record=False)
    audit.record(
        actor,
        AuditAction.EVENT_IMPORT,
        "",
        event=event,
        obj=event,
        data={
            "format_version": document["version"],
            "exported_at": str(document.get("exported_at", "")),
            "source_slug": str(document["event"].get("slug", "")),
            "missing_users": result.missing_users,
            "analysis_queued": queued,
        },
        message=gettext_noop("event restored from a backup file made on %(exported)s"),
        params={"exported": str(document.get("exported_at", ""))[:16].replace("T", " ")},
    )
    return result
