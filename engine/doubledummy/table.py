"""A board's double-dummy table: what each side can make in each strain, as the game's leads go.

Colour Whist's first lead follows the contract: the player on the dealer's left leads in
proposal and acceptance, solo, misère and piccolo; the declarer leads in abondance and slams. So
the table holds, for a board:

- ``pairs``: for the pairings N+S, N+E and N+W, each strain, the tricks the pair takes when the
  player on the dealer's left leads (the other pair takes the rest);
- ``alone``: for each seat playing alone against three, each strain, the tricks it takes when the
  player on the dealer's left leads (``first_lead_left``) and when it leads itself
  (``first_lead_self``; the same figure when the declarer sits on the dealer's left);
- ``misere``: for each seat alone at no trump, the player on the dealer's left leading, whether it
  can make sure of taking no trick (``no_trick``) and of taking exactly one (``one_trick``).

``BoardTable.to_json`` gives the object ``python -m engine analyse`` prints (docs/engine-cli.md)
and ``from_json`` reads it back.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine.cards import SEATS, Card, Seat, Suit
from engine.deals import BoardDeal
from engine.doubledummy import solver
from engine.doubledummy.errors import TableError
from engine.errors import EngineError
from engine.hands import Deal

STRAINS: tuple[Suit | None, ...] = (Suit.S, Suit.H, Suit.D, Suit.C, None)
"""Spades, hearts, diamonds, clubs and no trump, in the table's order."""

STRAIN_NAMES: tuple[str, ...] = ("S", "H", "D", "C", "NT")

PAIRINGS: tuple[tuple[Seat, Seat], ...] = ((Seat.N, Seat.S), (Seat.N, Seat.E), (Seat.N, Seat.W))
"""The three ways of pairing North; each pairing's opponents are the other pair."""

PAIRING_NAMES: tuple[str, ...] = ("NS", "NE", "NW")

TRICKS = 13

_Row = tuple[int, ...]


def strain_name(strain: Suit | None) -> str:
    return "NT" if strain is None else strain.name


def _check_rows(name: str, rows: tuple[_Row, ...], count: int) -> None:
    if len(rows) != count or any(len(row) != len(STRAINS) for row in rows):
        raise TableError(f"{name} needs {count} rows of {len(STRAINS)} strains")
    for row in rows:
        for value in row:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= TRICKS:
                raise TableError(f"{name}: {value!r} is not a number of tricks (0-{TRICKS})")


@dataclass(frozen=True)
class BoardTable:
    """The double-dummy table of one board (see the module's docstring for what each part means).

    ``pairs[i][j]``: tricks of ``PAIRINGS[i]`` in ``STRAINS[j]``; ``first_lead_left[s][j]`` and
    ``first_lead_self[s][j]``: tricks of seat ``s`` (``Seat.value``) alone; ``no_trick[s]`` and
    ``one_trick[s]``: its misère and piccolo.
    """

    board: int
    dealer: Seat
    pairs: tuple[_Row, ...]
    first_lead_left: tuple[_Row, ...]
    first_lead_self: tuple[_Row, ...]
    no_trick: tuple[bool, ...]
    one_trick: tuple[bool, ...]
    trump_card: Card | None = None

    def __post_init__(self) -> None:
        if isinstance(self.board, bool) or not isinstance(self.board, int) or self.board < 1:
            raise TableError(f"a board number is a whole number from 1, not {self.board!r}")
        if not isinstance(self.dealer, Seat):
            raise TableError(f"the dealer is a Seat, not {self.dealer!r}")
        _check_rows("pairs", self.pairs, len(PAIRINGS))
        _check_rows("first_lead_left", self.first_lead_left, 4)
        _check_rows("first_lead_self", self.first_lead_self, 4)
        for name, flags in (("no_trick", self.no_trick), ("one_trick", self.one_trick)):
            if len(flags) != 4 or not all(isinstance(flag, bool) for flag in flags):
                raise TableError(f"{name} needs a true or false for each of the four seats")
        left = self.dealer.left.value
        if self.first_lead_left[left] != self.first_lead_self[left]:
            raise TableError(
                f"{self.dealer.left} sits on the dealer's left: its two leads are the same lead"
            )

    @property
    def first_leader(self) -> Seat:
        """The player on the dealer's left, who leads in every contract but abondance and slams."""
        return self.dealer.left

    def tricks(self, declarers: Collection[Seat], strain: Suit | None, leader: Seat) -> int:
        """Tricks the declarers take double dummy, with ``leader`` leading to the first trick.

        One, two or three declarers; the table answers a leader on the dealer's left, and also
        the declarer (or the one seat against three declarers) leading when a seat plays alone.
        """
        seats = frozenset(declarers)
        column = STRAINS.index(strain)
        if len(seats) == 2:
            if leader is not self.first_leader:
                raise TableError(
                    f"the table gives pairs with {self.first_leader} (the dealer's left) leading, "
                    f"not {leader}"
                )
            for row, pairing in enumerate(PAIRINGS):
                if seats == frozenset(pairing):
                    return self.pairs[row][column]
                if seats.isdisjoint(pairing):
                    return TRICKS - self.pairs[row][column]
        if len(seats) in (1, 3):
            (lone,) = seats if len(seats) == 1 else frozenset(SEATS) - seats
            own = self._alone(lone, column, leader)
            return own if len(seats) == 1 else TRICKS - own
        raise TableError(f"the declarers are one, two or three different seats, not {len(seats)}")

    def _alone(self, seat: Seat, column: int, leader: Seat) -> int:
        if leader is self.first_leader:
            return self.first_lead_left[seat.value][column]
        if leader is seat:
            return self.first_lead_self[seat.value][column]
        raise TableError(
            f"the table gives {seat} alone with {self.first_leader} (the dealer's left) or "
            f"{seat} leading, not {leader}"
        )

    def misere(self, seat: Seat) -> bool:
        """Whether ``seat`` alone can make sure of taking no trick (misère)."""
        return self.no_trick[seat.value]

    def piccolo(self, seat: Seat) -> bool:
        """Whether ``seat`` alone can make sure of taking exactly one trick (piccolo)."""
        return self.one_trick[seat.value]

    def to_json(self) -> dict[str, Any]:
        """The object ``python -m engine analyse`` prints; ``"trump_card"`` on a Wiezen board."""

        def strains(row: _Row) -> dict[str, int]:
            return dict(zip(STRAIN_NAMES, row, strict=True))

        data: dict[str, Any] = {
            "board": self.board,
            "dealer": self.dealer.name,
            "pairs": {
                name: strains(row) for name, row in zip(PAIRING_NAMES, self.pairs, strict=True)
            },
            "alone": {
                seat.name: {
                    "first_lead_left": strains(self.first_lead_left[seat.value]),
                    "first_lead_self": strains(self.first_lead_self[seat.value]),
                }
                for seat in SEATS
            },
            "misere": {
                seat.name: {
                    "no_trick": self.no_trick[seat.value],
                    "one_trick": self.one_trick[seat.value],
                }
                for seat in SEATS
            },
        }
        if self.trump_card is not None:
            data["trump_card"] = str(self.trump_card)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BoardTable:
        """Read back what ``to_json`` gives (``TableError`` naming the part that is wrong)."""
        try:
            seats = [seat.name for seat in SEATS]
            alone = data["alone"]
            misere = data["misere"]
            trump_card = data.get("trump_card")
            return cls(
                board=data["board"],
                dealer=Seat.parse(data["dealer"]),
                pairs=tuple(_row(data["pairs"][name]) for name in PAIRING_NAMES),
                first_lead_left=tuple(_row(alone[s]["first_lead_left"]) for s in seats),
                first_lead_self=tuple(_row(alone[s]["first_lead_self"]) for s in seats),
                no_trick=tuple(misere[s]["no_trick"] for s in seats),
                one_trick=tuple(misere[s]["one_trick"] for s in seats),
                trump_card=None if trump_card is None else Card.parse(trump_card),
            )
        except KeyError as exc:
            raise TableError(f"a double-dummy table needs {exc.args[0]!r}") from None
        except (TypeError, AttributeError):
            raise TableError(
                "a double-dummy table is an object of objects, as to_json gives"
            ) from None
        except TableError:
            raise
        except EngineError as exc:
            raise TableError(f"a double-dummy table: {exc}") from None


def _row(strains: Mapping[str, int]) -> _Row:
    return tuple(strains[name] for name in STRAIN_NAMES)


def processors() -> int:
    """The processors this process may run on: how many searches a board's table runs at once."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform (macOS, Windows)
        return os.cpu_count() or 1


def board_table(
    deal: Deal,
    dealer: Seat,
    *,
    board: int = 1,
    trump_card: Card | None = None,
    pure: bool = False,
    threads: int | None = None,
) -> BoardTable:
    """Work out a board's whole table: 15 pair, 35 lone, 4 misère and 4 piccolo searches.

    A pair takes at least what either of its players takes alone with the same lead, and the
    other pair likewise, so a strain's lone figures bound and guess its pairs' searches, which
    wait for them.

    ``threads`` searches run at once: the processors this process may use, unless told (the
    compiled search lets go of Python's lock, and each thread keeps a table of its own). The
    answers do not depend on it. A seat's searches in a strain stay together in one thread
    (``_Work.seat_in_strain``). The pure search always runs in one thread.
    """
    count = 1 if pure else processors() if threads is None else threads
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise TableError(f"a table is searched in one thread or more, not {count!r}")
    work = _Work(deal, dealer.left, pure)
    found = work.in_turn() if count == 1 else work.in_threads(count)
    columns = range(len(STRAINS))
    return BoardTable(
        board=board,
        dealer=dealer,
        pairs=tuple(
            tuple(found.pairs[row, column] for column in columns) for row in range(len(PAIRINGS))
        ),
        first_lead_left=tuple(
            tuple(found.alone[seat, column, dealer.left] for column in columns) for seat in SEATS
        ),
        first_lead_self=tuple(
            tuple(found.alone[seat, column, seat] for column in columns) for seat in SEATS
        ),
        no_trick=tuple(found.misere[seat][0] for seat in SEATS),
        one_trick=tuple(found.misere[seat][1] for seat in SEATS),
        trump_card=trump_card,
    )


@dataclass
class _Found:
    """A table's answers as they come in: lone tricks by (seat, column, leader), a pairing's by
    (row, column), and each seat's misère and piccolo."""

    alone: dict[tuple[Seat, int, Seat], int] = field(default_factory=dict)
    pairs: dict[tuple[int, int], int] = field(default_factory=dict)
    misere: dict[Seat, tuple[bool, bool]] = field(default_factory=dict)


class _Work:
    """The searches of one board's table, each of which a thread can run on its own."""

    def __init__(self, deal: Deal, left: Seat, pure: bool) -> None:
        self.deal = deal
        self.left = left
        self.pure = pure

    def position(self, column: int, leader: Seat) -> solver.Position:
        return solver.Position.from_deal(self.deal, STRAINS[column], leader)

    def tricks_alone(self, seat: Seat, column: int, leader: Seat, guess: int | None = None) -> int:
        """The seat's tricks alone against three in the strain, ``leader`` leading."""
        return solver.tricks(self.position(column, leader), (seat,), guess=guess, pure=self.pure)

    def pair(self, row: int, column: int, alone: Sequence[int]) -> int:
        """A pairing's tricks in the strain, between the bounds of the strain's lone figures with
        the dealer's left leading (``alone``, by ``Seat.value``)."""
        return _pair_tricks(self.position(column, self.left), PAIRINGS[row], alone, self.pure)

    def misere(self, seat: Seat) -> tuple[bool, bool]:
        """Whether the seat alone at no trump can take no trick, and exactly one."""
        no_trump = self.position(STRAINS.index(None), self.left)
        return (
            solver.takes_no_trick(no_trump, seat, pure=self.pure),
            solver.takes_exactly_one(no_trump, seat, pure=self.pure),
        )

    def lone_row(self, found: _Found, column: int) -> list[int]:
        return [found.alone[seat, column, self.left] for seat in SEATS]

    def seat_in_strain(
        self, seat: Seat, column: int, found: _Found, led: Callable[[], None] = lambda: None
    ) -> None:
        """A seat's searches alone in a strain, into ``found``: with the dealer's left leading
        (then ``led()``), with itself leading, guessed from the first, and at no trump its misère
        and piccolo. One thread runs them one after the other, as each learns from the table
        the ones before it left: the same seat and strain (piccolo asks the seat's lone
        questions at no trump again). Each search alone would take about twice as long."""
        tricks = self.tricks_alone(seat, column, self.left)
        found.alone[seat, column, self.left] = tricks
        led()
        if seat is not self.left:
            found.alone[seat, column, seat] = self.tricks_alone(seat, column, seat, tricks)
        if STRAINS[column] is None:
            found.misere[seat] = self.misere(seat)

    def in_turn(self) -> _Found:
        """Every search one after the other: a seat's in each strain, then the pairs'."""
        found = _Found()
        for seat in SEATS:
            for column in range(len(STRAINS)):
                self.seat_in_strain(seat, column, found)
        for row in range(len(PAIRINGS)):
            for column in range(len(STRAINS)):
                found.pairs[row, column] = self.pair(row, column, self.lone_row(found, column))
        return found

    def in_threads(self, count: int) -> _Found:
        """The searches on ``count`` threads: a job for each seat in each strain, no trump first
        (its jobs are the longest), and a strain's pairs queued as soon as its four lone figures
        with the dealer's left leading are in."""
        found = _Found()
        lock = threading.Lock()
        waiting = dict.fromkeys(range(len(STRAINS)), len(SEATS))
        pair_jobs: dict[tuple[int, int], Future[int]] = {}
        columns = sorted(range(len(STRAINS)), key=lambda column: STRAINS[column] is not None)
        with ThreadPoolExecutor(max_workers=count, thread_name_prefix="doubledummy") as pool:

            def led(column: int) -> None:
                with lock:
                    waiting[column] -= 1
                    if waiting[column]:
                        return
                    alone = self.lone_row(found, column)
                    for row in range(len(PAIRINGS)):
                        pair_jobs[row, column] = pool.submit(self.pair, row, column, alone)

            seat_jobs = [
                pool.submit(self.seat_in_strain, seat, column, found, partial(led, column))
                for column in columns
                for seat in SEATS
            ]
            for job in seat_jobs:
                job.result()
            for place, pair_job in pair_jobs.items():
                found.pairs[place] = pair_job.result()
        return found


def _pair_tricks(
    position: solver.Position, pairing: tuple[Seat, Seat], alone: Sequence[int], pure: bool
) -> int:
    """A pair's tricks, searched between the bounds its players' and its opponents' lone figures
    (``alone``, by ``Seat.value``, with the same leader and strain) give, from the guess halfway
    between their sums."""
    ours = [alone[seat.value] for seat in pairing]
    theirs = [alone[seat.value] for seat in SEATS if seat not in pairing]
    lower, upper = max(ours), TRICKS - max(theirs)
    guess = min(max((sum(ours) + TRICKS - sum(theirs) + 1) // 2, lower), upper)
    return solver.tricks(position, pairing, guess=guess, at_least=lower, at_most=upper, pure=pure)


def table_for_board(
    board: BoardDeal, *, pure: bool = False, threads: int | None = None
) -> BoardTable:
    """The table of a dealt board (from a key or a deal file), with its turned-up trump card."""
    return board_table(
        board.deal,
        board.dealer,
        board=board.board,
        trump_card=board.trump_card,
        pure=pure,
        threads=threads,
    )
