"""What the play records: each card played, each trick, each revoke and an early end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.cards import Card, Seat, Suit


# Records are NamedTuples rather than frozen dataclasses: 52 of them are made per board, and
# a NamedTuple is built three times faster while being just as immutable.
class PlayRecord(NamedTuple):
    """One card: a discard before small misère (``trick`` 0) or a card played to a trick.

    ``winner`` is set on the card that completes a trick; ``exposes`` names the declarers whose
    hands went face up once this card was played (open misère); ``revoke`` marks a card that did
    not follow suit although the player could (accepted only in lenient replay).
    """

    seat: Seat
    card: Card
    trick: int
    discard: bool = False
    revoke: bool = False
    winner: Seat | None = None
    exposes: tuple[Seat, ...] = ()


class Trick(NamedTuple):
    """A completed trick: ``cards`` in the order played, starting with the leader's."""

    number: int
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat

    @property
    def led_suit(self) -> Suit:
        return self.cards[0].suit

    def card_of(self, seat: Seat) -> Card:
        return self.cards[(seat.value - self.leader.value) % 4]


@dataclass(frozen=True, slots=True)
class Revoke:
    """A card that did not follow suit while the player held the suit led.

    ``held`` lists the cards of the suit led that the player had at that moment.
    """

    seat: Seat
    trick: int
    card: Card
    led_suit: Suit
    held: tuple[Card, ...]
    index: int
    """Position of the card in the play (0-based, discards included)."""

    @property
    def message(self) -> str:
        held = ", ".join(card.pretty for card in self.held)
        return (
            f"{self.seat.name} revoked in trick {self.trick}: played {self.card.pretty} to a "
            f"{self.led_suit.symbol} lead while holding {held}"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat.name,
            "trick": self.trick,
            "card": str(self.card),
            "led": self.led_suit.letter,
            "held": [str(card) for card in self.held],
            "index": self.index,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class EarlyEnd:
    """Why and how the play stopped before the last trick, and who is credited the rest.

    ``reason`` is ``rest_forced`` (``winner`` must win every remaining trick: credited to that
    seat), ``defeated`` (a contract whose failure scores the same however many tricks short it
    falls can no longer be made) or ``settled`` (every misère or piccolo declarer has failed or
    can no longer take a trick). For a contract to win tricks, ``declaring_credit`` is how many
    of the ``remaining`` tricks the declaring side is credited: those it is certain to win
    whatever is played; the rest go to the opponents. Misère and piccolo declarers (and Israeli
    players) are credited no further tricks unless ``winner`` is one of them; their
    ``declaring_credit`` is ``None``.
    """

    after_trick: int
    reason: str
    remaining: int
    message: str
    winner: Seat | None = None
    declaring_credit: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "after_trick": self.after_trick,
            "reason": self.reason,
            "remaining": self.remaining,
            "message": self.message,
        }
        if self.winner is not None:
            out["winner"] = self.winner.name
        if self.declaring_credit is not None:
            out["declaring_credit"] = self.declaring_credit
        return out
