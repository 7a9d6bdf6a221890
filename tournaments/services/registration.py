"""Players and entries as registration makes them: one player per person, one entry per event.

Registration before play, late arrivals and substitutes all find or make their players here.
"""

from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Club, Entry, Event, Player


def club_named(name: str) -> Club | None:
    """The club of that name (any case), made if there is none; ``None`` for no name."""
    name = name.strip()
    if not name:
        return None
    if len(name) > 120:
        raise UserError(
            _("A club name may have at most 120 characters."), code="too_long", field="club"
        )
    club = Club.objects.filter(name__iexact=name).first()
    return club or Club.objects.create(name=name)


def checked_person(first_name: str, last_name: str, federation_number: str) -> tuple[str, str, str]:
    """A player's name and federation number, trimmed and checked as registration checks them."""
    first_name, last_name = first_name.strip(), last_name.strip()
    federation_number = federation_number.strip()
    if not first_name and not last_name:
        raise UserError(_("A player needs a name."), code="required", field="last_name")
    if len(first_name) > 80 or len(last_name) > 80:
        raise UserError(
            _("A name may have at most 80 characters."), code="too_long", field="last_name"
        )
    if len(federation_number) > 20:
        raise UserError(
            _("A federation number may have at most 20 characters."),
            code="too_long",
            field="federation_number",
        )
    return first_name, last_name, federation_number


def player_named(first_name: str, last_name: str, club_name: str, federation_number: str) -> Player:
    """The player with that federation number, or of that name and club; made if there is none."""
    first_name, last_name, federation_number = checked_person(
        first_name, last_name, federation_number
    )
    club = club_named(club_name)
    if federation_number:
        player = Player.objects.filter(federation_number=federation_number).first()
        if player is not None:
            if (player.first_name.lower(), player.last_name.lower()) != (
                first_name.lower(),
                last_name.lower(),
            ):
                raise UserError(
                    _("Federation number %(number)s belongs to %(name)s.")
                    % {"number": federation_number, "name": player.full_name},
                    code="federation_number_taken",
                    field="federation_number",
                )
            return player
        return Player.objects.create(
            first_name=first_name,
            last_name=last_name,
            club=club,
            federation_number=federation_number,
        )
    player = Player.objects.filter(
        first_name__iexact=first_name, last_name__iexact=last_name, club=club, federation_number=""
    ).first()
    return player or Player.objects.create(first_name=first_name, last_name=last_name, club=club)


def enter(event: Event, player: Player, first_round: int = 1) -> Entry:
    """The player's entry in the event, with the next player number."""
    if event.entries.filter(player=player).exists():
        raise UserError(
            _("%(name)s is already registered for this event.") % {"name": player.full_name},
            code="duplicate",
            field="last_name",
        )
    number = (event.entries.aggregate(top=Max("number"))["top"] or 0) + 1
    return Entry.objects.create(event=event, player=player, number=number, first_round=first_round)
