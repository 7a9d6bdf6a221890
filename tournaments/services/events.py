from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ratings.services import schedule_ratings
from tournaments import roles, rulesets
from tournaments.errors import NotAllowedError, UserError
from tournaments.game import Ruleset
from tournaments.models import AuditAction, Event, Round, ScoringTableVersion, Seating, Table
from tournaments.services import access, audit, deals, jobs, seating
from tournaments.services.audit import Actor

# Fixed once play starts: changing them would change scores already given or boards already played.
FROZEN_ONCE_STARTED = (
    "game",
    "ruleset_name",
    "ruleset_toml",
    "rounds",
    "boards_per_round",
    "board_mode",
    "seating_mode",
    "use_all_pass_rule",
    "ronde_pas_games",
)
# Settings the movement and the deals are made for.
PLAN_SHAPING = ("rounds", "boards_per_round", "board_mode", "seating_mode")


@dataclass
class EventSettings:
    """What a TD chooses when creating or editing an event."""

    name: str
    date: dt.date
    game: str
    ruleset_name: str
    rounds: int
    boards_per_round: int
    slug: str = ""
    venue: str = ""
    language: str = "nl"
    ruleset_toml: str = ""
    comparison: str = Event.Comparison.MATCHPOINTS
    seating_mode: str = Event.SeatingMode.BYES
    board_mode: str = Event.BoardMode.SAME
    use_all_pass_rule: bool = False
    ronde_pas_games: str = Event.RondePasGames.BY_BOARD
    tie_break: list[str] = field(default_factory=list)
    # A version of a club's scoring table: its document is copied into the event as a custom one.
    scoring_table_version_id: int | None = None


def _game_name(game: str) -> str:
    try:
        return str(Event.Game(game).label)
    except ValueError:
        return game


def _copy_club_table(settings: EventSettings) -> EventSettings:
    """The settings to save: with a club table's version chosen, the event takes a copy of its
    document as a custom ruleset, so a later version of the table never changes the event.
    Otherwise no link is kept."""
    if settings.scoring_table_version_id is None:
        return settings
    if settings.ruleset_name not in ("", rulesets.CUSTOM):
        return replace(settings, scoring_table_version_id=None)
    version = ScoringTableVersion.objects.filter(pk=settings.scoring_table_version_id).first()
    if version is None:
        raise UserError(
            _("That club scoring table does not exist (any more): choose another ruleset."),
            code="bad_ruleset",
            field="ruleset_name",
        )
    return replace(settings, ruleset_name=rulesets.CUSTOM, ruleset_toml=version.toml)


def _check(settings: EventSettings) -> None:
    if settings.ruleset_name == rulesets.CUSTOM and not settings.ruleset_toml.strip():
        raise UserError(
            _("A custom ruleset needs its document."), code="bad_ruleset", field="ruleset_toml"
        )
    document = settings.ruleset_toml if settings.ruleset_name == rulesets.CUSTOM else ""
    ruleset = rulesets.resolve(settings.ruleset_name, document)
    if ruleset.game != settings.game:
        raise UserError(
            _("The ruleset %(ruleset)s is for %(ruleset_game)s, not for %(game)s.")
            % {
                "ruleset": ruleset.name,
                "ruleset_game": _game_name(ruleset.game),
                "game": _game_name(settings.game),
            },
            code="bad_ruleset",
            field="ruleset_name",
        )


@transaction.atomic
def create_event(actor: Actor, settings: EventSettings, organisation: Any = None) -> Event:
    """A new event directed by ``actor``, for ``organisation`` (the actor's only one by default).

    Members of a club or federation account (and staff) create events; ``actor`` ``None`` is the
    site itself (a command), which may name any organisation.
    """
    if actor is not None:
        if not roles.may_create_events(actor):
            raise NotAllowedError(
                _("Events are created by the members of a club or federation account.")
            )
        organisation = access.organisation_for_event(actor, organisation)
    settings = _copy_club_table(settings)
    _check(settings)
    slug = settings.slug or slugify(f"{settings.name}-{settings.date:%Y-%m-%d}")[:60]
    if Event.objects.filter(slug=slug).exists():
        raise UserError(
            _("The address %(slug)s is taken by another event.") % {"slug": slug},
            code="duplicate",
            field="slug",
        )
    values = {k: v for k, v in settings.__dict__.items() if k != "slug"}
    if settings.ruleset_name != rulesets.CUSTOM:
        values["ruleset_toml"] = ""
    try:
        with transaction.atomic():
            event = Event.objects.create(slug=slug, organisation=organisation, **values)
    except IntegrityError as exc:  # two TDs taking the same address at the same moment
        raise UserError(
            _("The address %(slug)s is taken by another event.") % {"slug": slug},
            code="duplicate",
            field="slug",
        ) from exc
    director = audit.user_of(actor)
    if director is not None:
        event.directors.add(director)
    for number in range(1, event.rounds + 1):
        Round.objects.create(event=event, number=number)
    audit.record(
        actor,
        AuditAction.EVENT_CREATE,
        "",
        event=event,
        obj=event,
        message=gettext_noop("created event %(name)s"),
        params={"name": event.name},
    )
    return event


@transaction.atomic
def update_event(actor: Actor, event: Event, settings: EventSettings, reason: str = "") -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.DRAFT:
        # Once play has started these stay as they were (the form shows them read-only); the
        # ruleset is the frozen copy, whatever the form sent back.
        settings = replace(
            settings,
            **{key: getattr(event, key) for key in FROZEN_ONCE_STARTED},
            scoring_table_version_id=event.scoring_table_version_id,
        )
    else:
        # Choosing a club's table again copies its version anew (the latest, when chosen).
        settings = _copy_club_table(settings)
        _check(settings)
    structure_before = {k: getattr(event, k) for k in PLAN_SHAPING}
    ranking_before = (event.comparison, list(event.tie_break or []))
    before = {k: str(getattr(event, k)) for k in settings.__dict__ if k != "slug"}
    for key, value in settings.__dict__.items():
        if key == "slug":
            continue
        setattr(event, key, value)
    if event.status == Event.Status.DRAFT and settings.ruleset_name != rulesets.CUSTOM:
        event.ruleset_toml = ""
    event.full_clean(exclude=["directors"])
    event.save()
    if event.status == Event.Status.DRAFT and any(
        structure_before[k] != getattr(event, k) for k in PLAN_SHAPING
    ):
        # The movement and the deals were made for the old shape: they go, and the overview asks
        # for them again, rather than leaving rounds without seating or boards never dealt.
        event.boards.all().delete()
        Table.objects.filter(round__event=event).delete()
        Seating.objects.filter(round__event=event).delete()
        deals.forget_deals(event)
    existing = set(event.round_set.values_list("number", flat=True))
    for number in range(1, event.rounds + 1):
        if number not in existing:
            Round.objects.create(event=event, number=number)
    event.round_set.filter(number__gt=event.rounds).delete()
    after = {k: str(getattr(event, k)) for k in before}
    changes = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
    audit.record(
        actor,
        AuditAction.EVENT_UPDATE,
        f"changed {', '.join(changes)}" if changes else "",
        event=event,
        obj=event,
        reason=reason,
        data={"changes": changes},
        # The fields by name: the log shows them as the form labels them, in the reader's language.
        message=gettext_noop("changed %(fields)s")
        if changes
        else gettext_noop("saved the settings unchanged"),
        params={"fields": list(changes)} if changes else {},
    )
    if event.status != Event.Status.DRAFT and ranking_before != (
        event.comparison,
        list(event.tie_break or []),
    ):
        jobs.standings_changed(event)
    return event


@transaction.atomic
def start_event(actor: Actor, event: Event) -> Event:
    """Freeze the ruleset into the event (a full copy) and mark it in play."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.DRAFT:
        return event
    if event.round_set.filter(tables__isnull=True).exists():
        raise UserError(
            _("Generate the movement before play starts."), code="not_ready", field="movement"
        )
    if event.boards.count() != seating.board_total(event):
        raise UserError(
            _("Generate the deals before play starts."), code="not_ready", field="deals"
        )
    ruleset = rulesets.resolve(event.ruleset_name, event.ruleset_toml)
    event.ruleset_toml = rulesets.frozen_document(ruleset)
    event.ruleset_frozen_at = timezone.now()
    event.status = Event.Status.RUNNING
    event.save(update_fields=["ruleset_toml", "ruleset_frozen_at", "status", "updated"])
    audit.record(
        actor,
        AuditAction.EVENT_START,
        "",
        event=event,
        obj=event,
        data={"ruleset_digest": rulesets.digest(event.ruleset_toml)},
        # A built-in ruleset by name, which the log shows by its title in the reader's language;
        # a club's own by the title its document gives.
        message=gettext_noop("play started under ruleset %(ruleset)s"),
        params={"ruleset": ruleset.name if rulesets.is_builtin(ruleset) else ruleset.title},
    )
    return event


@transaction.atomic
def finish_event(actor: Actor, event: Event) -> Event:
    """Close the event and reveal the deal key (deals dealt by Troef) so players can verify every
    deal; imported deals have no key, and the hand records name their file instead."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        return event
    if event.status != Event.Status.RUNNING:
        raise UserError(_("The event has not started."), code="not_started")
    unfinished = event.round_set.exclude(status=Round.Status.CLOSED).order_by("number").first()
    if unfinished is not None:
        # Finishing reveals the deal key: never while a board may still be played.
        raise UserError(
            _("Round %(n)s is not closed: close every round before finishing the event.")
            % {"n": unfinished.number},
            code="rounds_open",
        )
    event.status = Event.Status.FINISHED
    if event.deal_key and event.deal_key_revealed_at is None:
        event.deal_key_revealed_at = timezone.now()
    event.save(update_fields=["status", "deal_key_revealed_at", "updated"])
    audit.record(
        actor,
        AuditAction.EVENT_FINISH,
        "",
        event=event,
        obj=event,
        message=(
            gettext_noop("event finished; deal key revealed")
            if event.deal_key
            else gettext_noop("event finished")
        ),
    )
    schedule_ratings(event)
    return event


@transaction.atomic
def add_director(actor: Actor, event: Event, user: Any) -> None:
    event.directors.add(user)
    audit.record(
        actor,
        AuditAction.EVENT_ADD_DIRECTOR,
        "",
        event=event,
        obj=event,
        message=gettext_noop("%(user)s became a director"),
        params={"user": user.get_username()},
    )


def ruleset_of(event: Event) -> Ruleset:
    """The ruleset scores are computed with (the frozen copy once play has started)."""
    document = (
        event.ruleset_toml
        if (event.ruleset_frozen_at or event.ruleset_name == rulesets.CUSTOM)
        else ""
    )
    return rulesets.resolve(event.ruleset_name, document)
