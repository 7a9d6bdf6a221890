"""A club's own scoring tables: create one, save a new version of its text, rename it.

Every text is checked by the engine before it is kept, and a version once written is never
changed: an event that picked it keeps its own copy, and the history stays what it was.
"""

from __future__ import annotations

import unicodedata

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import rulesets
from tournaments.errors import UserError
from tournaments.game import Ruleset
from tournaments.models import AuditAction, Club, ScoringTable, ScoringTableVersion
from tournaments.services import audit
from tournaments.services.audit import Actor

NAME_LENGTH = 120
# A club's table is a page or two of TOML; anything far longer is a wrong file.
DOCUMENT_LENGTH = 100_000


def clean_name(name: str) -> str:
    """The table's name, one line, or a ``UserError`` naming the field."""
    name = name.strip()
    if not name:
        raise UserError(_("Give the table a name."), code="required", field="name")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise UserError(
            _("Remove the control character from this text."), code="invalid", field="name"
        )
    if len(name) > NAME_LENGTH:
        raise UserError(
            _("Keep this under %(n)s characters.") % {"n": NAME_LENGTH},
            code="too_long",
            field="name",
        )
    return name


def clean_document(document: str) -> str:
    """The text as it is kept: line ends as ``\\n`` (a browser sends ``\\r\\n``), no trailing
    blank lines, no control character a database cannot store."""
    document = document.replace("\r\n", "\n").replace("\r", "\n").rstrip() + "\n"
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\t\n" for c in document):
        raise UserError(
            _("The text holds a control character (such as a NUL byte): remove it."),
            code="invalid",
            field="toml",
        )
    if len(document) > DOCUMENT_LENGTH:
        raise UserError(
            _("Keep this under %(n)s characters.") % {"n": DOCUMENT_LENGTH},
            code="too_long",
            field="toml",
        )
    return document


def check_document(document: str) -> Ruleset:
    """The ruleset the text describes, or a ``UserError`` with the engine's message (which
    names the broken key) on the ``toml`` field."""
    if not document.strip():
        raise UserError(_("Give the table's ruleset document."), code="required", field="toml")
    return rulesets.parse_custom(clean_document(document), field="toml")


def _name_taken(club: Club, name: str) -> UserError:
    return UserError(
        _("%(club)s has a table named %(name)s already.") % {"club": club.name, "name": name},
        code="duplicate",
        field="name",
    )


def _club(club: Club | str) -> Club:
    """The club itself, or the club of that name (made when there is none yet, as registering
    a player of a new club does)."""
    if isinstance(club, Club):
        return club
    club_name = club.strip()
    if not club_name:
        raise UserError(_("Give the club the table belongs to."), code="required", field="club")
    if len(club_name) > 120 or any(unicodedata.category(c) in ("Cc", "Cs") for c in club_name):
        raise UserError(
            _("A club name is one line of at most 120 characters."), code="invalid", field="club"
        )
    found = Club.objects.filter(name__iexact=club_name).first()
    return found or Club.objects.create(name=club_name)


@transaction.atomic
def create_table(actor: Actor, club: Club | str, name: str, document: str) -> ScoringTable:
    """A new table of ``club`` (a club, or a club's name) with its first version."""
    name = clean_name(name)
    check_document(document)
    club = _club(club)
    if ScoringTable.objects.filter(club=club, name__iexact=name).exists():
        raise _name_taken(club, name)
    try:
        with transaction.atomic():
            table = ScoringTable.objects.create(club=club, name=name)
    except IntegrityError as exc:  # two people naming a table alike at the same moment
        raise _name_taken(club, name) from exc
    version = ScoringTableVersion.objects.create(
        table=table, number=1, toml=clean_document(document), created_by=audit.user_of(actor)
    )
    audit.record(
        actor,
        AuditAction.SCORING_TABLE_CREATE,
        "",
        obj=table,
        data={"version": version.pk, "digest": rulesets.digest(version.toml)},
        message=gettext_noop("created scoring table %(table)s of %(club)s"),
        params={"table": table.name, "club": club.name},
    )
    return table


@transaction.atomic
def save_version(actor: Actor, table: ScoringTable, document: str) -> ScoringTableVersion | None:
    """A new version of the table with ``document``; ``None`` when the text is the latest
    version's already (nothing is written). Existing versions are never changed."""
    check_document(document)
    text = clean_document(document)
    # The row lock makes two people saving at once number their versions one after the other,
    # instead of both taking the same number.
    table = ScoringTable.objects.select_for_update().get(pk=table.pk)
    latest = table.latest_version()
    if latest is not None and latest.toml == text:
        return None
    version = ScoringTableVersion.objects.create(
        table=table,
        number=(latest.number if latest is not None else 0) + 1,
        toml=text,
        created_by=audit.user_of(actor),
    )
    audit.record(
        actor,
        AuditAction.SCORING_TABLE_SAVE_VERSION,
        "",
        obj=table,
        data={"version": version.pk, "digest": rulesets.digest(text)},
        message=gettext_noop("saved version %(number)s of scoring table %(table)s of %(club)s"),
        params={"number": version.number, "table": table.name, "club": table.club.name},
    )
    return version


@transaction.atomic
def rename_table(actor: Actor, table: ScoringTable, name: str) -> ScoringTable:
    """Give the table another name (events keep the copies they made)."""
    name = clean_name(name)
    table = ScoringTable.objects.select_for_update().select_related("club").get(pk=table.pk)
    if name == table.name:
        return table
    if (
        ScoringTable.objects.filter(club=table.club, name__iexact=name)
        .exclude(pk=table.pk)
        .exists()
    ):
        raise _name_taken(table.club, name)
    old = table.name
    table.name = name
    try:
        with transaction.atomic():
            table.save(update_fields=["name"])
    except IntegrityError as exc:
        raise _name_taken(table.club, name) from exc
    audit.record(
        actor,
        AuditAction.SCORING_TABLE_RENAME,
        "",
        obj=table,
        message=gettext_noop("renamed scoring table %(old)s of %(club)s to %(new)s"),
        params={"old": old, "new": name, "club": table.club.name},
    )
    return table


def latest_versions() -> list[ScoringTableVersion]:
    """The latest version of every club's table, by club and table name."""
    newest = (
        ScoringTableVersion.objects.filter(table=OuterRef("table"))
        .order_by("-number")
        .values("number")[:1]
    )
    return list(
        ScoringTableVersion.objects.filter(number=Subquery(newest))
        .select_related("table__club")
        .order_by("table__club__name", "table__name")
    )


def version_label(version: ScoringTableVersion) -> str:
    """``Club: table (version n)``, as the event form lists it."""
    return _("%(club)s: %(table)s (version %(number)s)") % {
        "club": version.table.club.name,
        "table": version.table.name,
        "number": version.number,
    }
