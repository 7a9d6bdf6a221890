"""A player's line: each round's figure, the running record ranked after it, and the total.

A player who sits out boards (a bye without a score, or the fifth chair at a table of five)
scores their own average on them: the percentage is over the boards played, and raw and datum
totals are scaled up to every board. Substitutes count for everyone else but are not ranked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from engine.standings.groups import same
from engine.standings.inputs import Field, Method
from engine.standings.meetings import merged_meetings
from engine.standings.memo import PlayerLine
from engine.standings.outcome import BoardScore, PlayerStanding
from engine.standings.tally import Tally


@dataclass(frozen=True, slots=True)
class Rules:
    """What the method and the tie-break order ask each player's sums to keep."""

    method: Method
    needs_butler: bool
    exact: bool
    by_head: bool

    @classmethod
    def of(cls, field: Field) -> Rules:
        needs_butler = field.method == Method.DATUM or "butler" in field.tie_break
        return cls(
            field.method,
            needs_butler,
            needs_butler or field.method == Method.RAW,
            "head_to_head" in field.tie_break,
        )


def _unchanged_rounds(
    previous: PlayerLine | None,
    rounds: list[int],
    own: list[Tally | None],
    met: Mapping[int, dict[int, int]],
    sat_out: Mapping[int, int],
    fine: Fraction,
    ranked: bool,
    by_head: bool,
) -> tuple[int, bool]:
    """How many first rounds of ``previous`` still hold, and whether its meetings do."""
    if previous is None or previous.rounds != rounds:
        return 0, False
    same_met = previous.met.keys() == met.keys() and all(
        previous.met[number] is line for number, line in met.items()
    )
    if previous.sat_out != sat_out or previous.fine != fine or previous.ranked != ranked:
        return 0, same_met
    if by_head and not same_met:
        return 0, False
    start = 0
    while start < len(rounds) and previous.own[start] is own[start]:
        start += 1
    return start, same_met


def player_line(
    player: int,
    boards: tuple[BoardScore, ...],
    tallies: Mapping[int, Tally],
    met: Mapping[int, dict[int, int]],
    rounds: list[int],
    field: Field,
    rules: Rules,
    previous: PlayerLine | None,
) -> PlayerLine:
    """A player's round figures, running records and total; from ``previous`` where it holds."""
    own = [tallies.get(number) for number in rounds]
    sat_out = field.sat_out.get(player, {})
    fine = field.fines.get(player, Fraction(0))
    ranked = player not in field.unranked
    start, same_met = _unchanged_rounds(
        previous, rounds, own, met, sat_out, fine, ranked, rules.by_head
    )
    if (
        previous is not None
        and start == len(rounds)
        and same_met
        and same(previous.standing.boards, boards)
    ):
        return previous
    running = previous.running[:start] if previous is not None else []
    records = previous.records[:start] if previous is not None else []
    tally = running[-1] if running else Tally(rules.exact)
    for index in range(start, len(rounds)):
        number = rounds[index]
        mine = own[index]
        if mine is not None:
            tally = tally.plus(mine)
        running.append(tally)
        records.append(
            tally.record(
                rules.method,
                player,
                sum(count for r, count in sat_out.items() if r <= number),
                merged_meetings(met, number) if rules.by_head else {},
                fine,
                rules.needs_butler,
            )
            if tally.boards and ranked
            else None
        )
    if previous is not None and start == len(rounds) and same_met and previous.running:
        # Every round adds up as last time: only the boards are new.
        standing = dataclasses.replace(previous.standing, boards=boards)
        return PlayerLine(rounds, own, running, records, met, sat_out, fine, ranked, standing)
    # The meetings over every round, when they are those of the last computation, are its own.
    met_over_all = (
        previous.standing.record.meetings if same_met and previous else merged_meetings(met)
    )
    standing = PlayerStanding(
        player,
        boards,
        {number: tallies[number].figure(rules.method) for number in sorted(tallies)},
        tally.record(
            rules.method, player, sum(sat_out.values()), met_over_all, fine, rules.needs_butler
        ),
        sum(sat_out.values()),
        fine,
    )
    return PlayerLine(rounds, own, running, records, met, sat_out, fine, ranked, standing)
