"""The demo tournament that ``python manage.py demo`` loads: a living club evening.

32 players from four clubs, a Whisthub Colour Whist event of six rounds of four boards, its
movement and deals, the first two rounds played and closed and the third under way; before it, the
club's three previous evenings with the same players, finished, so that the players have ratings.
The results are made by the engine itself: each table bids a plausible contract for its cards and plays it out
card by card, so every result is one the deal allows.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.game import (
    SEATS,
    BoardResult,
    Card,
    Contract,
    Deal,
    Hand,
    Ruleset,
    Seat,
    Suit,
    format_result_line,
    new_play,
)
from tournaments.models import Club, Event, Organisation, Round
from tournaments.services import deals, events, players, results, rounds, seating
from tournaments.services.events import EventSettings

DEMO_SLUG = "demo"
DEMO_CLUB_ACCOUNT = "WC De Troef Gent (demo)"
CLUBS = ("WC De Troef Gent", "KWC Aalst", "Whistclub Brugge", "Le Pli Namurois")
FIRST_NAMES = (
    "An",
    "Bart",
    "Chantal",
    "Dirk",
    "Els",
    "Filip",
    "Greet",
    "Hilde",
    "Ivo",
    "Jan",
    "Karin",
    "Luc",
    "Marie",
    "Nathalie",
    "Olivier",
    "Patrick",
    "Rita",
    "Stefaan",
    "Tine",
    "Urbain",
    "Veerle",
    "Willy",
    "Xavier",
    "Yves",
    "Zoë",
    "Agnès",
    "Benoît",
    "Céline",
    "Didier",
    "Émilie",
    "François",
    "Geneviève",
)
LAST_NAMES = (
    "Peeters",
    "Janssens",
    "Maes",
    "Jacobs",
    "Mertens",
    "Willems",
    "Claes",
    "Goossens",
    "Wouters",
    "De Smet",
    "Dubois",
    "Lambert",
    "Dupont",
    "Martin",
    "Vermeulen",
    "Van Damme",
    "Hermans",
    "Desmet",
    "Leroy",
    "Lemaire",
    "Verstraete",
    "De Clercq",
    "Michiels",
    "Renard",
    "Cools",
    "Van den Broeck",
    "Simon",
    "Laurent",
    "Aerts",
    "De Backer",
    "Bogaert",
    "Stevens",
)


def _strength(hand: Hand) -> int:
    points = {14: 4, 13: 3, 12: 2, 11: 1}
    return sum(points.get(card.rank.value, 0) for card in hand)


def choose_contract(deal: Deal, ruleset: Ruleset, rng: random.Random) -> BoardResult:
    """A plausible contract for the cards: what a table of club players might well end in."""
    hands = {seat: deal.hand(seat) for seat in SEATS}
    for seat in SEATS:
        hand = hands[seat]
        if (
            _strength(hand) <= 2
            and max(c.rank.value for c in hand) <= 11
            and ruleset.allows(Contract.MISERE)
        ):
            return BoardResult(Contract.MISERE, declarers=(seat,))
    best = max(
        ((seat, suit) for seat in SEATS for suit in Suit),
        key=lambda item: (
            hands[item[0]].count(item[1]) * 3 + _strength(hands[item[0]]),
            item[1].bid_rank,
        ),
    )
    seat, suit = best
    if rng.random() < 0.3:  # another table bids another suit
        suit = rng.choice([s for s in Suit if hands[seat].has_suit(s)])
    if (
        hands[seat].count(suit) >= 6
        and _strength(hands[seat]) >= 12
        and ruleset.allows(Contract.SOLO, 6)
    ):
        return BoardResult(Contract.SOLO, 6, suit, (seat,))
    partner = max(
        (s for s in SEATS if s is not seat and hands[s].has_suit(suit)),
        key=lambda s: hands[s].count(suit) * 3 + _strength(hands[s]),
    )
    pair_cards = hands[seat].count(suit) + hands[partner].count(suit)
    level = 9 if pair_cards >= 8 and rng.random() < 0.5 else 8
    if rng.random() < 0.15 and ruleset.allows(Contract.SOLO, 5):
        return BoardResult(Contract.SOLO, 5, suit, (seat,))
    return BoardResult(Contract.ACCEPT, level, suit, (seat, partner))


def play_out(
    ruleset: Ruleset, contract: BoardResult, deal: Deal, dealer: Seat, rng: random.Random
) -> BoardResult:
    """Play the contract card by card, mostly sensibly: club players make the odd mistake."""
    state = new_play(ruleset, contract, deal, dealer)
    while not state.is_finished:
        legal = state.legal_cards()
        if rng.random() < 0.25:
            card = rng.choice(legal)
        elif contract.contract.is_negative:
            card = min(legal, key=lambda c: c.rank.value)
        else:
            card = max(legal, key=_card_value(contract.trump))
        state.play(card)
    played = state.result()
    assert isinstance(played, BoardResult)
    return played


def _card_value(trump: Suit | None) -> Any:
    def value(card: Card) -> tuple[int, int]:
        return (1 if card.suit is trump else 0, card.rank.value)

    return value


@transaction.atomic
def demo_club(user: Any) -> Organisation:
    """The demo club's account; ``user`` (the demo TD) becomes a member who creates events, unless
    already a member of another club or federation, which the demo then leaves alone."""
    club, _created = Club.objects.get_or_create(name=CLUBS[0], defaults={"city": "Gent"})
    organisation, _created = Organisation.objects.get_or_create(
        name=DEMO_CLUB_ACCOUNT, defaults={"kind": Organisation.Kind.CLUB, "club": club}
    )
    if not Organisation.objects.filter(members=user).exists():
        organisation.members.add(user)
    return organisation


@transaction.atomic
def demo_assistant(event: Event, username: str, password: str) -> Any:
    """The demo assistant: enters and corrects the demo event's results, changes nothing else."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username, defaults={"first_name": "Demo", "last_name": "Assistant"}
    )
    if created or not user.check_password(password):
        user.set_password(password)
        user.save()
    if not event.directors.filter(pk=user.pk).exists():
        event.assistants.add(user)
    return user


def _demo_organisation(user: Any) -> Organisation | None:
    demo_account = demo_club(user)
    if demo_account.members.filter(pk=user.pk).exists():
        return demo_account
    return Organisation.objects.filter(members=user).order_by("name").first()


def _evening(name: str, date: dt.date, rounds: int, slug: str) -> EventSettings:
    """A Whisthub Colour Whist evening of the demo club: four boards a round, matchpoints."""
    return EventSettings(
        name=name,
        date=date,
        venue="Zaal De Kroon, Gent",
        game="kleurenwiezen",
        ruleset_name="whisthub",
        rounds=rounds,
        boards_per_round=4,
        slug=slug,
        comparison=Event.Comparison.MATCHPOINTS,
        tie_break=["total", "boards_won", "head_to_head"],
    )


def _create(user: Any, organisation: Organisation | None, settings: EventSettings) -> Event:
    """An event of the demo club with its 32 players, movement and deals."""
    event = events.create_event(user, settings, organisation)
    for index in range(32):
        players.register_player(
            user,
            event,
            first_name=FIRST_NAMES[index],
            last_name=LAST_NAMES[index],
            club=CLUBS[index % len(CLUBS)],
            federation_number=f"DEMO{index + 1:03d}",
        )
    seating.generate_movement(user, event)
    deals.generate_deals(user, event)
    return event


def _play(user: Any, event: Event, number: int, rng: random.Random, partly: bool = False) -> None:
    """Open round ``number`` and key every table's boards (``partly``: the first few only)."""
    ruleset = events.ruleset_of(event)
    round_ = rounds.open_round(user, event.round_set.get(number=number))
    for table in round_.tables.order_by("number"):
        table_boards = list(table.table_boards.select_related("board").order_by("position"))
        if partly:
            table_boards = table_boards[: 1 + table.number % 3]
        for link in table_boards:
            board = link.board
            deal = Deal.from_pbn(board.deal)
            contract = choose_contract(deal, ruleset, rng)
            played = play_out(ruleset, contract, deal, Seat[board.dealer], rng)
            results.record_result(user, table, board, format_result_line(played), confirmed=True)


#: The club's previous evenings: weeks before today, and the seed of their play.
SEASON = ((21, 2023), (14, 2024), (7, 2025))


@transaction.atomic
def load_demo_season(user: Any) -> list[Event]:
    """The club's three previous evenings, played and finished, once (ratings follow them)."""
    organisation = _demo_organisation(user)
    season = []
    for number, (days_ago, seed) in enumerate(SEASON, start=1):
        slug = f"{DEMO_SLUG}-evening-{number}"
        existing = Event.objects.filter(slug=slug).first()
        if existing is not None:
            season.append(existing)
            continue
        event = _create(
            user,
            organisation,
            _evening(
                f"Demo: clubavond {number}", dt.date.today() - dt.timedelta(days=days_ago), 4, slug
            ),
        )
        rng = random.Random(seed)
        for round_number in range(1, 5):
            _play(user, event, round_number, rng)
            rounds.close_round(user, Round.objects.get(event=event, number=round_number))
        season.append(events.finish_event(user, Event.objects.get(pk=event.pk)))
    return season


@transaction.atomic
def load_demo_event(user: Any) -> Event | None:
    """Create the demo event once; return it (as it is, when it already exists)."""
    organisation = _demo_organisation(user)
    existing = Event.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        existing.directors.add(user)
        return existing
    event = _create(
        user, organisation, _evening("Demo: clubavond Kleurenwiezen", dt.date.today(), 6, DEMO_SLUG)
    )
    rng = random.Random(2026)
    for number in (1, 2, 3):
        _play(user, event, number, rng, partly=number == 3)
        if number < 3:
            rounds.close_round(user, Round.objects.get(event=event, number=number))
    event.refresh_from_db()
    return event
