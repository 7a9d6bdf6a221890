"""Checking a result from a paper score sheet against the board's deal, and penalties.

``adjudicate(ruleset, result, deal, dealer)`` lists what the cards say about a result that the
ruleset itself accepts (``engine.validation`` checks the result's shape and the ruleset first).
Each ``Problem`` has a stable ``code``, the ``field`` of the result it concerns and the
parameters of its message; ``MESSAGES`` gives every code's English format string, so another
language can format the same parameters its own way.

``severity`` is ``"impossible"`` when the cards prove the result cannot have happened under the
rules (a troel without three aces, a trick count the trumps rule out) and ``"suspicious"`` when it
could have happened but deserves a look (a player kept quiet about three aces, a soloist without a
trump). Only what the cards prove is claimed impossible: trick limits come from counting trumps no
opponent can beat, never from judging how a hand would be played.

Penalties are ruleset data: the ``[penalties]`` table of the ruleset, one sub-table per kind of
irregularity::

    [penalties.revoke]
    title = "Revoke"            # optional, for documents
    amount = 12                 # whole points, at least 1
    paid_to = "each_other"      # or "nobody"; default: "each_other" in balancing rulesets
    multipliers = { abondance = 2, open_misere = 2, solo_slim = 4 }   # optional, by contract

With ``paid_to = "each_other"`` the offender pays ``amount`` (times the contract's multiplier) to
each other player, so the scores still add up to zero; with ``"nobody"`` the amount is only taken
off the offender's score (for tournament tables that do not balance).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from engine.cards import SEATS, SUITS, Card, Rank, Seat, Suit
from engine.errors import RulesetError
from engine.hands import Deal
from engine.play import play_rules_for, troel_called_card, troel_trump
from engine.results import (
    RONDE_PAS_FIELDS,
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
)
from engine.ruleset import Ruleset
from engine.schedule import ALL_TRICKS

Severity = Literal["impossible", "suspicious"]
_QUEENS = 4
Params = dict[str, str | int]

MESSAGES: Mapping[str, str] = {
    "troel_without_aces": (
        "Neither {first} ({first_aces} aces) nor {second} ({second_aces} aces) holds three or "
        "four aces, so they cannot play a troel."
    ),
    "troel_wrong_partner": (
        "{bidder} holds {aces} aces, so the troel partner is {partner}, who holds {called}, "
        "not {named}."
    ),
    "troel_level_kept": (
        "The called card is {called} and trumps stayed {trump}, so the troel is for {expected} "
        "tricks, not {level}."
    ),
    "troel_level_switched": (
        "The partner switched trumps from {kept} to {trump}, so the troel is for {expected} "
        "tricks, not {level}."
    ),
    "troel_switch_not_allowed": (
        "The called card is {called}, so trumps are {kept}, not {trump}: this ruleset does not "
        "let the troel partner switch trumps."
    ),
    "troel_not_played": (
        "{seat} holds {aces} aces and had to announce troel, but {contract} ranks below troel: "
        "check the result, or penalise the missing troel."
    ),
    "trump_not_held": (
        "{seat} holds no {trump}, so could not have proposed or accepted {trump} as trumps."
    ),
    "declarer_void_in_trump": "{seat} holds no {trump} but played {contract} in {trump}.",
    "trump_not_turned": (
        "The turned-up card is {turned}, so {contract} is played in {turned_suit}, not {trump}."
    ),
    "tricks_below_sure": (
        "{seat} holds {cards}: trumps no opponent can beat, so the declaring side wins at least "
        "{minimum} tricks, not {tricks}."
    ),
    "tricks_above_possible": (
        "{seat} holds {cards}: trumps the declaring side cannot beat, so the declaring side wins "
        "at most {maximum} tricks, not {tricks}."
    ),
    "player_tricks_below_sure": (
        "{seat} holds {cards}: trumps nobody can beat, so {seat} wins at least {minimum} tricks, "
        "not {tricks}."
    ),
    "player_tricks_above_possible": (
        "{holder} holds {cards}: trumps nobody can beat, so {seat} wins at most {maximum} tricks, "
        "not {tricks}."
    ),
    "leader_wins_every_trick": (
        "{seat} leads the first trick and holds only cards nobody can beat, so without trumps "
        "{seat} wins all 13 tricks, the last one and all four queens."
    ),
    "must_win_first_trick": (
        "{seat} leads to the first trick and nobody holds a card above any of {seat}'s cards in "
        "its suit, so {seat} wins the first trick: {tricks} tricks is impossible."
    ),
}
"""Every problem code and its English message, with the parameters named in braces."""


@dataclass(frozen=True)
class Problem:
    """One thing the deal says about a result: ``code`` (a key of ``MESSAGES``), ``severity``,
    the result ``field`` concerned (``"tricks"``, ``"tricks.N"``, ``"declarers"``, ...) and the
    message parameters (seats as letters, cards and suits with their symbols, numbers)."""

    code: str
    severity: Severity
    field: str | None
    params: Mapping[str, str | int]

    @property
    def message(self) -> str:
        return MESSAGES[self.code].format(**self.params)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "field": self.field,
            "message": self.message,
            "params": dict(self.params),
        }


_LONE_TRUMP_CONTRACTS = frozenset(
    {
        Contract.SOLO,
        Contract.ABONDANCE,
        Contract.SOLO_SLIM,
        Contract.SMALL_SOLO_SLIM,
        Contract.GRAND_SOLO,
    }
)
_TURNED_TRUMP_CONTRACTS = frozenset({Contract.ACCEPT, Contract.SOLO, Contract.GRAND_SOLO})
"""Wiezen contracts played in the suit of the turned-up card (scoring-tables.md, iwwa-wiezen)."""


def adjudicate(
    ruleset: Ruleset,
    result: AnyResult,
    deal: Deal,
    dealer: Seat | None = None,
    *,
    turned_card: Card | None = None,
) -> list[Problem]:
    """What the deal says about ``result``: impossible first, then suspicious; empty if nothing.

    ``dealer`` enables the checks that depend on who leads; ``turned_card`` (Wiezen) the check
    that contracts in the turned-up trump name its suit. ``result`` should already pass
    ``engine.validation``; parts it gets wrong (a troel with one declarer) are skipped here.
    """
    problems: list[Problem] = []
    if isinstance(result, IsraeliResult):
        if result.trump is not None and result.tricks is not None:
            problems += _israeli_tricks(result, deal, result.trump)
    elif isinstance(result, RondePasResult):
        problems += _ronde_pas(result, deal, dealer)
    else:
        problems += _contract_checks(ruleset, result, deal, turned_card)
        if result.is_played and result.contract is not Contract.PASS:
            if result.contract.is_negative:
                problems += _negative_tricks(result, deal, dealer)
            elif result.trump is not None and result.tricks is not None:
                problems += _side_tricks(result, deal, result.trump, result.tricks)
    problems.sort(key=lambda problem: problem.severity != "impossible")
    return problems


def _contract_checks(
    ruleset: Ruleset, result: BoardResult, deal: Deal, turned_card: Card | None
) -> list[Problem]:
    problems: list[Problem] = []
    contract = result.contract
    trump = result.trump
    if contract is Contract.TROEL:
        if len(result.declarers) == 2 and trump is not None:
            problems += _troel(ruleset, result, deal, trump)
    else:
        problems += _troel_not_played(ruleset, result, deal)
    if trump is None:
        return problems
    if contract is Contract.ACCEPT and ruleset.game == "kleurenwiezen":
        # Whisthub: "a player needs at least one card of a suit to propose or accept it";
        # pagat likewise for the proposal and the acceptance.
        for seat in result.declarers:
            if not deal.hand(seat).has_suit(trump):
                problems.append(
                    Problem("trump_not_held", "impossible", "trump", _seat_suit(seat, trump))
                )
    if contract in _LONE_TRUMP_CONTRACTS and len(result.declarers) == 1:
        seat = result.declarers[0]
        if not deal.hand(seat).has_suit(trump):
            params = _seat_suit(seat, trump) | {"contract": contract.value}
            problems.append(Problem("declarer_void_in_trump", "suspicious", "trump", params))
    if (
        ruleset.game == "wiezen"
        and turned_card is not None
        and contract in _TURNED_TRUMP_CONTRACTS
        and trump is not turned_card.suit
    ):
        params = {
            "turned": turned_card.pretty,
            "turned_suit": turned_card.suit.symbol,
            "contract": contract.value,
            "trump": trump.symbol,
        }
        problems.append(Problem("trump_not_turned", "impossible", "trump", params))
    return problems


def _troel(ruleset: Ruleset, result: BoardResult, deal: Deal, trump: Suit) -> list[Problem]:
    first, second = result.declarers
    aces = {seat: _aces(deal, seat) for seat in SEATS}
    bidder = next((seat for seat in (first, second) if aces[seat] >= 3), None)
    if bidder is None:
        params: Params = {
            "first": first.name,
            "first_aces": aces[first],
            "second": second.name,
            "second_aces": aces[second],
        }
        return [Problem("troel_without_aces", "impossible", "declarers", params)]
    named = second if bidder is first else first
    rules = play_rules_for(ruleset)
    called = troel_called_card(deal, bidder, rules.four_aces_partner)
    partner = deal.holder(called)
    if partner is not named:
        params = {
            "bidder": bidder.name,
            "aces": aces[bidder],
            "partner": partner.name,
            "called": called.pretty,
            "named": named.name,
        }
        return [Problem("troel_wrong_partner", "impossible", "declarers", params)]
    options = ruleset.options
    level = result.level
    kept = troel_trump(called, aces[bidder] == 4, rules)
    if trump is not kept:
        expected = options.troel_switch_tricks
        if expected is None:
            params = {"trump": trump.symbol, "kept": kept.symbol, "called": called.pretty}
            return [Problem("troel_switch_not_allowed", "impossible", "trump", params)]
        code = "troel_level_switched"
    else:
        expected = options.troel_four_aces_tricks if aces[bidder] == 4 else options.troel_tricks
        code = "troel_level_kept"
    if level is None or expected is None or level == expected:
        return []
    params = {
        "trump": trump.symbol,
        "kept": kept.symbol,
        "called": called.pretty,
        "expected": expected,
        "level": level,
    }
    return [Problem(code, "impossible", "level", params)]


def _troel_not_played(ruleset: Ruleset, result: BoardResult, deal: Deal) -> list[Problem]:
    """A player with three or four aces must announce troel; only a higher bid overrides it."""
    troel_levels = ruleset.levels(Contract.TROEL)
    if not troel_levels:
        return []
    holder = next((seat for seat in SEATS if _aces(deal, seat) >= 3), None)
    if holder is None:
        return []
    if result.contract is not Contract.PASS:
        try:
            played = ruleset.bid_key(result.contract, result.level, result.trump)[0]
        except ValueError:
            return []  # not a bid of this ruleset: validation reports it
        if played >= ruleset.bid_key(Contract.TROEL, troel_levels[0], None)[0]:
            return []
    params: Params = {
        "seat": holder.name,
        "aces": _aces(deal, holder),
        "contract": result.contract.value,
    }
    return [Problem("troel_not_played", "suspicious", "contract", params)]


def _side_tricks(result: BoardResult, deal: Deal, trump: Suit, tricks: int) -> list[Problem]:
    problems: list[Problem] = []
    declarers = set(result.declarers)
    defenders = [seat for seat in SEATS if seat not in declarers]
    seat, cards = _most_masters(deal, trump, list(result.declarers), defenders)
    if len(cards) > tricks:
        params: Params = {
            "seat": seat.name,
            "cards": _pretty(cards),
            "minimum": len(cards),
            "tricks": tricks,
        }
        problems.append(Problem("tricks_below_sure", "impossible", "tricks", params))
    seat, cards = _most_masters(deal, trump, defenders, list(result.declarers))
    if tricks > 13 - len(cards):
        params = {
            "seat": seat.name,
            "cards": _pretty(cards),
            "maximum": 13 - len(cards),
            "tricks": tricks,
        }
        problems.append(Problem("tricks_above_possible", "impossible", "tricks", params))
    return problems


def _israeli_tricks(result: IsraeliResult, deal: Deal, trump: Suit) -> list[Problem]:
    assert result.tricks is not None
    problems: list[Problem] = []
    for holder in SEATS:
        others = [seat for seat in SEATS if seat is not holder]
        _, cards = _most_masters(deal, trump, [holder], others)
        if not cards:
            continue
        won = result.tricks[holder.value]
        if won < len(cards):
            params: Params = {
                "seat": holder.name,
                "cards": _pretty(cards),
                "minimum": len(cards),
                "tricks": won,
            }
            problems.append(
                Problem("player_tricks_below_sure", "impossible", f"tricks.{holder.name}", params)
            )
        for seat in others:
            won = result.tricks[seat.value]
            if won > 13 - len(cards):
                params = {
                    "holder": holder.name,
                    "cards": _pretty(cards),
                    "seat": seat.name,
                    "maximum": 13 - len(cards),
                    "tricks": won,
                }
                problems.append(
                    Problem(
                        "player_tricks_above_possible", "impossible", f"tricks.{seat.name}", params
                    )
                )
    return problems


def _negative_tricks(result: BoardResult, deal: Deal, dealer: Seat | None) -> list[Problem]:
    """No trumps: a declarer on lead whose every card tops its suit must win the first trick."""
    if dealer is None:
        return []
    leader = dealer.left
    if leader not in result.declarers:
        return []
    tricks = result.tricks_of(leader)
    if tricks > 0:
        return []
    hand = deal.hand(leader)
    for card in hand:
        if any(deal.holder(higher) is not leader for higher in _higher_cards(card)):
            return []
    params: Params = {"seat": leader.name, "tricks": tricks}
    return [Problem("must_win_first_trick", "impossible", f"tricks.{leader.name}", params)]


def _ronde_pas(result: RondePasResult, deal: Deal, dealer: Seat | None) -> list[Problem]:
    """No trumps: a leader whose every card tops its suit wins all 13 tricks.

    That is all the deal proves about a Ronde Pas. Who wins the last trick, the queens or the
    fewest tricks otherwise depends on how the hands are played: any card can be kept for the
    last trick, a higher card of its suit can go earlier, a queen can be discarded on any trick
    or be beaten by the king or ace. The counts' shape (they add up to 4 queens or 13 tricks) is
    ``engine.validation``'s.
    """
    if dealer is None:
        return []
    leader = dealer.left
    hand = deal.hand(leader)
    for card in hand:
        if any(deal.holder(higher) is not leader for higher in _higher_cards(card)):
            return []
    field = RONDE_PAS_FIELDS[result.game]
    if result.game is RondePasGame.LAST_TRICK:
        wrong = result.last_trick is not None and result.last_trick is not leader
    elif result.game is RondePasGame.QUEENS:
        wrong = result.queens is not None and result.queens[leader.value] != _QUEENS
        field = f"queens.{leader.name}"
    else:
        wrong = result.tricks is not None and result.tricks[leader.value] != ALL_TRICKS
        field = f"tricks.{leader.name}"
    if not wrong:
        return []
    return [Problem("leader_wins_every_trick", "impossible", field, {"seat": leader.name})]


def _most_masters(
    deal: Deal, trump: Suit, side: list[Seat], opponents: list[Seat]
) -> tuple[Seat, tuple[Card, ...]]:
    """The member of ``side`` holding most trumps above every trump of ``opponents``, and those.

    Each such trump wins its trick for the side (only a partner's trump could beat it), and one
    player's cards fall in different tricks: the side wins at least that many tricks.
    """
    opposing = [card for seat in opponents for card in deal.hand(seat).cards_of(trump)]
    top = max((card.rank.value for card in opposing), default=0)
    best: tuple[Seat, tuple[Card, ...]] = (side[0], ())
    for seat in side:
        cards = tuple(c for c in deal.hand(seat).cards_of(trump) if c.rank.value > top)
        if len(cards) > len(best[1]):
            best = (seat, cards)
    return best


def _aces(deal: Deal, seat: Seat) -> int:
    return sum(deal.holder(Card(suit, Rank.ACE)) is seat for suit in SUITS)


def _higher_cards(card: Card) -> list[Card]:
    return [Card(card.suit, rank) for rank in Rank if rank.value > card.rank.value]


def _pretty(cards: tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards)


def _seat_suit(seat: Seat, suit: Suit) -> Params:
    return {"seat": seat.name, "trump": suit.symbol}


# -- penalties ---------------------------------------------------------------------------------

PaidTo = Literal["each_other", "nobody"]
_KIND = re.compile(r"^[a-z][a-z0-9_]*$")
_PENALTY_KEYS = ("title", "amount", "paid_to", "multipliers")


@dataclass(frozen=True)
class Penalty:
    """One kind of irregularity from a ruleset's ``[penalties]`` table (see the module notes)."""

    kind: str
    amount: int
    paid_to: PaidTo
    multipliers: Mapping[Contract, int]
    title: str = ""

    def amounts(self, offender: Seat, contract: Contract | None) -> tuple[int, int, int, int]:
        """Each seat's score change, by ``Seat.value``."""
        due = self.amount * (self.multipliers.get(contract, 1) if contract is not None else 1)
        scores = [0, 0, 0, 0]
        if self.paid_to == "each_other":
            scores = [due] * 4
            scores[offender.value] = -3 * due
        else:
            scores[offender.value] = -due
        return (scores[0], scores[1], scores[2], scores[3])


def penalties(ruleset: Ruleset) -> dict[str, Penalty]:
    """The ruleset's penalties by kind; ``RulesetError`` naming the key if the table is broken."""
    out: dict[str, Penalty] = {}
    for kind, body in ruleset.penalty_options.items():
        key = f"penalties.{kind}"
        if not _KIND.match(kind):
            raise RulesetError("a penalty's name uses lower-case letters, digits and _", key)
        if not isinstance(body, Mapping):
            raise RulesetError("must be a table with at least an amount", key)
        for name in body:
            if name not in _PENALTY_KEYS:
                raise RulesetError(
                    f"unknown key; a penalty has {', '.join(_PENALTY_KEYS)}", f"{key}.{name}"
                )
        amount = body.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise RulesetError("must be a whole number of points, at least 1", f"{key}.amount")
        paid_to = body.get("paid_to", "each_other" if ruleset.balancing else "nobody")
        if paid_to not in ("each_other", "nobody"):
            raise RulesetError(
                f'must be "each_other" or "nobody", not {paid_to!r}', f"{key}.paid_to"
            )
        title = body.get("title", "")
        if not isinstance(title, str):
            raise RulesetError("must be text", f"{key}.title")
        out[kind] = Penalty(
            kind, amount, paid_to, _multipliers(body.get("multipliers", {}), key), title
        )
    return out


def _multipliers(raw: object, key: str) -> dict[Contract, int]:
    key = f"{key}.multipliers"
    if not isinstance(raw, Mapping):
        raise RulesetError("must be a table of contract = multiplier", key)
    out: dict[Contract, int] = {}
    for token, factor in raw.items():
        try:
            contract = Contract(token)
        except ValueError:
            raise RulesetError("is not a contract token", f"{key}.{token}") from None
        if isinstance(factor, bool) or not isinstance(factor, int) or factor < 1:
            raise RulesetError("must be a whole number, at least 1", f"{key}.{token}")
        out[contract] = factor
    return out


def penalty(
    ruleset: Ruleset,
    kind: str,
    offender: Seat,
    contract: Contract | AnyResult | None = None,
) -> tuple[int, int, int, int]:
    """The score change of each seat (by ``Seat.value``) for ``offender``'s irregularity.

    ``contract`` (a contract or a result) selects the ruleset's multiplier for that contract.
    A kind the ruleset does not define raises ``RulesetError`` naming ``penalties.<kind>``.
    """
    table = penalties(ruleset)
    found = table.get(kind)
    if found is None:
        defined = ", ".join(sorted(table)) or "none"
        raise RulesetError(
            f"the {ruleset.name} ruleset defines no such penalty (it defines: {defined})",
            f"penalties.{kind}",
        )
    if isinstance(contract, BoardResult | IsraeliResult | RondePasResult):
        contract = contract.contract
    return found.amounts(offender, contract)
