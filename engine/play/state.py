"""The play of one board as a state machine: ``verify_play`` / ``can_play`` / ``play``.

Hands are kept as 52-bit masks (``engine.play.masks``), which keeps ``legal_cards`` and ``play``
cheap enough for thousands of complete plays per second.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from enum import Enum

from engine.cards import ALL_CARDS, SEATS, SUITS, Card, Seat, Suit
from engine.errors import DealError, EngineError, IllegalCardError, InvalidResultError
from engine.hands import Deal
from engine.play.masks import (
    INDEX_BY_ID,
    SEAT_VALUE_BY_ID,
    SUIT_MASK,
    card_index,
    cards_of_mask,
    highest,
    lowest,
    suit_cards,
)
from engine.play.records import EarlyEnd, PlayRecord, Revoke, Trick
from engine.play.rules import ISRAELI_PLAY, KLEURENWIEZEN_PLAY, SLAM_LEVELS, EndPolicy, PlayRules
from engine.play.troel import FirstTrick, first_trick
from engine.results import (
    LONE_CONTRACTS,
    PAIR_CONTRACTS,
    BoardResult,
    Contract,
    IsraeliResult,
)

AnyContract = BoardResult | IsraeliResult

_SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


class Phase(Enum):
    DISCARD = "discard"
    PLAY = "play"
    OVER = "over"


class PlayState:
    """The play of one contract on one deal.

    ``contract`` is the auction's outcome: a ``BoardResult`` (any tricks in it are ignored) or an
    ``IsraeliResult``. ``dealer`` decides who leads where the player on the dealer's left does.
    ``rules`` defaults to Kleurenwiezen's (Israeli Whist's for an ``IsraeliResult``). With
    ``lenient``, a card that does not follow suit although the player could is accepted and
    recorded in ``revokes`` (for replaying paper records); every other rule stays strict.
    """

    def __init__(
        self,
        contract: AnyContract,
        deal: Deal,
        dealer: Seat | None = None,
        *,
        rules: PlayRules | None = None,
        lenient: bool = False,
        end: EndPolicy = EndPolicy.DECIDED,
    ) -> None:
        if isinstance(contract, IsraeliResult):
            contract = replace(contract, tricks=None)
            rules = rules or ISRAELI_PLAY
            declarers: tuple[Seat, ...] = (contract.declarer,)
        else:
            if contract.contract in (Contract.PASS, Contract.ISRAELI):
                raise InvalidResultError(
                    f"there is no play in a {contract.contract.value} contract", "contract"
                )
            contract = replace(contract, tricks=None, declarer_tricks=())
            rules = rules or KLEURENWIEZEN_PLAY
            declarers = contract.declarers
            _check_shape(contract)
        self.contract: AnyContract = contract
        self.deal = deal
        self.dealer = dealer
        self.rules = rules
        self.lenient = lenient
        self.end_policy = end
        self.trump: Suit | None = contract.trump
        self.declarers = declarers
        self._kind = contract.contract
        self._negative = self._kind.is_negative
        self._trump = -1 if contract.trump is None else contract.trump.value
        self._total = 12 if self._kind is Contract.SMALL_MISERE else 13
        self._hands = [0, 0, 0, 0]
        for index, seat in enumerate(deal.holders):
            self._hands[SEAT_VALUE_BY_ID[id(seat)]] |= 1 << index
        self._declaring = 0  # bit per seat value of the declaring side
        for seat in declarers:
            self._declaring |= 1 << seat.value
        self._won = [0, 0, 0, 0]
        self._log: list[PlayRecord] = []
        self._tricks: list[Trick] = []
        self._revokes: list[Revoke] = []
        self._trick: list[int] = []
        self._led = -1
        self._early: EarlyEnd | None = None
        self._exposed: dict[Seat, int] = {}
        self._discards: dict[Seat, Card] = {}
        self._settled: set[Seat] = set()
        self._first: FirstTrick | None = None
        if self._kind is Contract.TROEL:
            assert self.trump is not None  # _check_shape requires a trump for troel
            self._first = first_trick(declarers, self.trump, deal, self._hands, rules)
            self._leader = self._first.leader
        elif self._kind in rules.declarer_leads:
            self._leader = declarers[0].value
        else:
            if dealer is None:
                raise DealError("the dealer is needed: the player on the dealer's left leads")
            self._leader = dealer.left.value
        self._turn = self._leader
        self._phase = Phase.DISCARD if self._kind is Contract.SMALL_MISERE else Phase.PLAY
        # True while cards are played to tricks with no rule beyond following suit: the fast path.
        self._free = self._phase is Phase.PLAY and self._first is None
        if self._kind is Contract.OPEN_MISERE and rules.open_misere_exposed_after == 0:
            self._exposed = dict.fromkeys(declarers, 0)

    # -- the state, for callers ------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_finished(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def next_seat(self) -> Seat | None:
        """The player to discard or play next; ``None`` once the play is over."""
        return None if self._phase is Phase.OVER else SEATS[self._turn]

    @property
    def total_tricks(self) -> int:
        """13, or 12 in small misère (everyone first discards a card)."""
        return self._total

    @property
    def trick_number(self) -> int:
        """The trick being played (1-based); 0 during the discards."""
        return 0 if self._phase is Phase.DISCARD else len(self._tricks) + 1

    @property
    def log(self) -> tuple[PlayRecord, ...]:
        return tuple(self._log)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks."""
        return tuple(self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(
            (SEATS[(self._leader + n) % 4], ALL_CARDS[index]) for n, index in enumerate(self._trick)
        )

    @property
    def revokes(self) -> tuple[Revoke, ...]:
        return tuple(self._revokes)

    @property
    def early_end(self) -> EarlyEnd | None:
        return self._early

    @property
    def exposed(self) -> dict[Seat, int]:
        """Declarers whose hands are face up, with the number of tricks played when they went up."""
        return dict(self._exposed)

    @property
    def discards(self) -> dict[Seat, Card]:
        """The face-down discards before a small misère (for the record; not shown at the table)."""
        return dict(self._discards)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` still holds, in PBN order."""
        return tuple(cards_of_mask(self._hands[seat.value]))

    def tricks_won(self, seat: Seat) -> int:
        """Tricks ``seat`` has won in play (tricks credited by an early end are not included)."""
        return self._won[seat.value]

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play (or discard); empty once the play is over."""
        hand = self._hands[self._turn]
        if self._free:
            if self._trick:
                led = self._led
                follow = hand & SUIT_MASK[led]
                if follow:
                    return list(suit_cards(led, follow >> (13 * led)))
            return cards_of_mask(hand)
        if self._phase is Phase.OVER:
            return []
        if self._phase is Phase.DISCARD:
            return cards_of_mask(hand)
        assert self._first is not None  # not free in play: a troel's first trick
        return cards_of_mask(self._first_trick_mask(self._first, hand))

    # -- actions -------------------------------------------------------------------------

    def verify_play(self, card: Card) -> None:
        """Raise ``IllegalCardError`` saying why ``card`` may not be played now."""
        index = card_index(card)
        problem, _ = self._problem(index)
        if problem is not None:
            raise IllegalCardError(problem)

    def can_play(self, card: Card) -> bool:
        try:
            problem, _ = self._problem(card_index(card))
        except IllegalCardError:
            return False
        return problem is None

    def play(self, card: Card) -> PlayRecord:
        """Discard or play ``card`` for the player to move; return the record added to ``log``."""
        index = INDEX_BY_ID.get(id(card))
        if index is None:
            index = card_index(card)
        seat = self._turn
        hand = self._hands[seat]
        bit = 1 << index
        trick = self._trick
        revoke = False
        # The common case (a card of the suit led, or any card on a free lead) is checked here;
        # anything else goes through _problem for the precise verdict.
        if (
            not self._free
            or not hand & bit
            or (trick and index // 13 != self._led and hand & SUIT_MASK[self._led])
        ):
            problem, revoke = self._problem(index)
            if problem is not None:
                raise IllegalCardError(problem)
            if self._phase is Phase.DISCARD:
                return self._discard(seat, index)
        card = ALL_CARDS[index]
        self._hands[seat] = hand ^ bit
        if revoke:
            self._record_revoke(seat, index)
        if not trick:
            self._led = index // 13
        trick.append(index)
        if len(trick) < 4:
            self._turn = (seat + 1) % 4
            record = PlayRecord(SEATS[seat], card, len(self._tricks) + 1, False, revoke)
            self._log.append(record)
            return record
        winner, exposes = self._complete_trick()
        record = PlayRecord(
            SEATS[seat], card, len(self._tricks), False, revoke, SEATS[winner], exposes
        )
        self._log.append(record)
        return record

    # -- results -------------------------------------------------------------------------

    def result(self) -> AnyContract:
        """The contract with its tricks filled in; only once the play is over."""
        if self._phase is not Phase.OVER:
            raise EngineError(
                f"the play is not over: {len(self._tricks)} of {self._total} tricks played; "
                f"{SEATS[self._turn].name} is to play"
            )
        tricks = list(self._won)
        early = self._early
        if early is not None and early.winner is not None:
            tricks[early.winner.value] += early.remaining
        contract = self.contract
        if isinstance(contract, IsraeliResult):
            return replace(contract, tricks=(tricks[0], tricks[1], tricks[2], tricks[3]))
        if self._negative:
            return replace(
                contract, declarer_tricks=tuple(tricks[seat.value] for seat in self.declarers)
            )
        side = sum(self._won[seat.value] for seat in self.declarers)
        if early is not None and early.declaring_credit is not None:
            side += early.declaring_credit
        return replace(contract, tricks=side)

    # -- internals -----------------------------------------------------------------------

    def _problem(self, index: int) -> tuple[str | None, bool]:
        """Why the card at ``index`` may not be played now (``None`` if it may), and whether
        playing it is a revoke that lenient mode lets through."""
        card = ALL_CARDS[index]
        if self._phase is Phase.OVER:
            return f"the play is over; {card} cannot be played", False
        seat = SEATS[self._turn]
        hand = self._hands[self._turn]
        if not hand & (1 << index):
            return self._not_held(seat, card), False
        if self._phase is Phase.DISCARD:
            return None, False
        first = self._first
        if (
            first is not None
            and not self._tricks
            and (not self._trick or (first.ace_card is not None and self._turn == first.ace_seat))
        ):
            allowed = self._first_trick_mask(first, hand)
            if not allowed & (1 << index):
                return f"{seat.name} may not play {card} to the first trick: {first.why}", False
            return None, False
        if self._trick and card.suit.value != self._led:
            led = self._led
            follow = hand & SUIT_MASK[led]
            if follow:
                if self.lenient:
                    return None, True
                held = ", ".join(c.pretty for c in cards_of_mask(follow))
                return (
                    f"{seat.name} must follow suit: {_SUIT_NAMES[SUITS[led]]} were led and "
                    f"{seat.name} holds {held}"
                ), False
        return None, False

    def _not_held(self, seat: Seat, card: Card) -> str:
        for record in self._log:
            if record.card == card:
                if record.discard:
                    return f"{card} was discarded by {record.seat.name} before the play"
                return f"{card} was already played by {record.seat.name} in trick {record.trick}"
        holder = self.deal.holder(card)
        return f"{card} is in {holder.name}'s hand, and it is {seat.name}'s turn"

    def _first_trick_mask(self, first: FirstTrick, hand: int) -> int:
        """The cards of ``hand`` that may go to a troel's first trick."""
        position = len(self._trick)
        if position == 0:
            if first.lead_card is not None:
                return hand & (1 << first.lead_card)
            if first.lead_suit is not None:
                return hand & SUIT_MASK[first.lead_suit]
            return hand
        if first.ace_card is not None and self._turn == first.ace_seat:
            return hand & (1 << first.ace_card)
        follow = hand & SUIT_MASK[self._led]
        return follow or hand

    def _discard(self, seat: int, index: int) -> PlayRecord:
        self._hands[seat] ^= 1 << index
        card = ALL_CARDS[index]
        self._discards[SEATS[seat]] = card
        record = PlayRecord(SEATS[seat], card, 0, True)
        self._log.append(record)
        self._turn = (seat + 1) % 4
        if len(self._discards) == 4:
            self._phase = Phase.PLAY
            self._free = True
            self._turn = self._leader
        return record

    def _record_revoke(self, seat: int, index: int) -> None:
        held = tuple(cards_of_mask(self._hands[seat] & SUIT_MASK[self._led]))
        self._revokes.append(
            Revoke(
                SEATS[seat],
                len(self._tricks) + 1,
                ALL_CARDS[index],
                SUITS[self._led],
                held,
                len(self._log),
            )
        )

    def _complete_trick(self) -> tuple[int, tuple[Seat, ...]]:
        trick = self._trick
        trump = self._trump
        # The best card so far is of the suit led or a trump: a higher card of its suit, or a
        # first trump, beats it.
        best = 0
        best_index = trick[0]
        for position in (1, 2, 3):
            index = trick[position]
            if index // 13 == best_index // 13:
                if index < best_index:
                    best, best_index = position, index
            elif index // 13 == trump:
                best, best_index = position, index
        leader = self._leader
        winner = (leader + best) % 4
        self._won[winner] += 1
        self._tricks.append(
            Trick(
                len(self._tricks) + 1,
                SEATS[leader],
                tuple(ALL_CARDS[i] for i in trick),
                SEATS[winner],
            )
        )
        self._trick = []
        self._leader = self._turn = winner
        self._free = True
        exposes: tuple[Seat, ...] = ()
        if (
            self._kind is Contract.OPEN_MISERE
            and not self._exposed
            and len(self._tricks) >= self.rules.open_misere_exposed_after
        ):
            exposes = self.declarers
            self._exposed = dict.fromkeys(exposes, len(self._tricks))
        if len(self._tricks) == self._total:
            self._phase = Phase.OVER
            self._free = False
        elif self.end_policy is not EndPolicy.NEVER:
            self._check_early_end()
        return winner, exposes

    def _check_early_end(self) -> None:
        remaining = self._total - len(self._tricks)
        forced = self._forced_winner()
        if forced is not None:
            seat = SEATS[forced]
            credit: int | None = None
            if not self._negative and self._kind is not Contract.ISRAELI:
                credit = remaining if self._declaring >> forced & 1 else 0
            self._stop(
                EarlyEnd(
                    len(self._tricks),
                    "rest_forced",
                    remaining,
                    f"{seat.name} must win every remaining trick ({remaining})",
                    seat,
                    credit,
                )
            )
            return
        if self.end_policy is not EndPolicy.DECIDED:
            return
        if self._negative:
            self._check_negative_settled(remaining)
        elif self._kind in self.rules.flat_failures:
            need = self.contract.level or SLAM_LEVELS.get(self._kind, 13)
            against = sum(self._won[s] for s in range(4) if not self._declaring >> s & 1)
            if against > self._total - need:
                credit = self._sure_tricks(self._declaring)
                self._stop(
                    EarlyEnd(
                        len(self._tricks),
                        "defeated",
                        remaining,
                        f"the opponents have won {against} tricks, so the {self._kind.value} "
                        f"for {need} can no longer be made",
                        None,
                        credit,
                    )
                )

    def _check_negative_settled(self, remaining: int) -> None:
        limit = 2 if self._kind is Contract.PICCOLO else 1
        for seat in self.declarers:
            if seat not in self._settled and (
                self._won[seat.value] >= limit or self._cannot_win(seat.value)
            ):
                self._settled.add(seat)
        if len(self._settled) < len(self.declarers):
            return
        why = []
        for seat in self.declarers:
            won = self._won[seat.value]
            if won >= limit:
                why.append(f"{seat.name} has taken {won} trick{'s' if won > 1 else ''}")
            else:
                why.append(f"{seat.name} can no longer take a trick")
        self._stop(EarlyEnd(len(self._tricks), "settled", remaining, "; ".join(why)))

    def _cannot_win(self, seat: int) -> bool:
        """True when ``seat`` (not on lead) holds in every suit only cards below everyone else's."""
        if seat == self._leader:
            return False
        hand = self._hands[seat]
        others = self._others(seat)
        for suit_mask in SUIT_MASK:
            mine = hand & suit_mask
            theirs = others & suit_mask
            if mine and theirs and highest(mine) <= lowest(theirs):
                return False
        return True

    def _forced_winner(self) -> int | None:
        """A seat that must win every remaining trick whatever anyone plays, if there is one.

        Either all its cards are trumps above every other trump left, or it is on lead and each
        of its cards is above every other card of its suit with nobody else holding a trump.
        """
        trump = self._trump
        for seat in range(4):
            hand = self._hands[seat]
            others = self._others(seat)
            if trump >= 0:
                theirs = others & SUIT_MASK[trump]
                if hand & SUIT_MASK[trump] == hand and (
                    not theirs or lowest(hand) < highest(theirs)
                ):
                    return seat
            if seat != self._leader:
                continue
            if trump >= 0 and others & SUIT_MASK[trump] and hand & ~SUIT_MASK[trump]:
                continue
            for suit_mask in SUIT_MASK:
                mine = hand & suit_mask
                theirs = others & suit_mask
                if mine and theirs and lowest(mine) > highest(theirs):
                    break
            else:
                return seat
        return None

    def _sure_tricks(self, side: int) -> int:
        """Tricks ``side`` (a bit per seat) must still win: its members' trumps above every
        opposing trump; one member's such trumps fall in different tricks."""
        if self._trump < 0:
            return 0
        trumps = SUIT_MASK[self._trump]
        opposing = 0
        for seat in range(4):
            if not side >> seat & 1:
                opposing |= self._hands[seat] & trumps
        best = 0
        for seat in range(4):
            if side >> seat & 1:
                mine = self._hands[seat] & trumps
                if opposing:
                    mine &= (1 << highest(opposing)) - 1
                best = max(best, mine.bit_count())
        return best

    def _others(self, seat: int) -> int:
        hands = self._hands
        return hands[(seat + 1) % 4] | hands[(seat + 2) % 4] | hands[(seat + 3) % 4]

    def _stop(self, early: EarlyEnd) -> None:
        self._early = early
        self._phase = Phase.OVER
        self._free = False


def _check_shape(contract: BoardResult) -> None:
    kind = contract.contract
    count = len(contract.declarers)
    if kind in PAIR_CONTRACTS and count != 2:
        raise InvalidResultError(f"a {kind.value} has 2 declarers, not {count}", "declarers")
    if kind in LONE_CONTRACTS and count != 1:
        raise InvalidResultError(f"a {kind.value} has 1 declarer, not {count}", "declarers")
    if kind.is_negative and not 1 <= count <= 4:
        raise InvalidResultError(f"a {kind.value} has 1 to 4 declarers, not {count}", "declarers")
    if kind.has_trump and contract.trump is None:
        raise InvalidResultError(f"a {kind.value} needs a trump suit", "trump")
    if kind.is_negative and contract.trump is not None:
        raise InvalidResultError(f"a {kind.value} is played without trumps", "trump")
    if kind in (Contract.ACCEPT, Contract.SOLO, Contract.ABONDANCE, Contract.TROEL) and (
        contract.level is None or not 1 <= contract.level <= 13
    ):
        raise InvalidResultError(f"a {kind.value} needs a level from 1 to 13", "level")


def replay(
    contract: AnyContract,
    deal: Deal,
    dealer: Seat | None,
    cards: Iterable[Card],
    *,
    rules: PlayRules | None = None,
    lenient: bool = False,
    end: EndPolicy = EndPolicy.DECIDED,
) -> PlayState:
    """Rebuild a play from its cards in order (discards first in small misère)."""
    state = PlayState(contract, deal, dealer, rules=rules, lenient=lenient, end=end)
    for card in cards:
        state.play(card)
    return state
