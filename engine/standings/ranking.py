"""Ranking after each round: ``engine.comparison.rank`` of the cumulative records, spared work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import comparison
from engine.comparison import Placing, Record
from engine.standings.groups import same
from engine.standings.memo import Memo


def ranked(
    cumulative: Mapping[int, list[Record]], tie_break: tuple[str, ...], memo: Memo | None
) -> dict[int, tuple[Placing, ...]]:
    """Each round's ranking; a memo's round of the very same records keeps its ranking."""
    kept: dict[int, tuple[list[Record], tuple[Placing, ...]]] = {}
    for number, records in cumulative.items():
        found = memo.rankings.get(number) if memo is not None else None
        if found is not None and same(found[0], records):
            kept[number] = found
        else:
            kept[number] = (records, _rank(records, tie_break, found[1] if found else ()))
    if memo is not None:
        memo.rankings = kept
    return {number: placings for number, (_records, placings) in kept.items()}


def _rank(
    records: list[Record], tie_break: tuple[str, ...], hint: Sequence[Placing]
) -> tuple[Placing, ...]:
    """``comparison.rank`` of the records, handed to it best first when the total ranks first.

    The ranking lists level players in the order it was given them, so records sorted by total
    (highest first) and, among equal totals, in their own order give the very same ranking, and
    spare it most of its comparisons of fractions. Laid out in the order of ``hint`` (the last
    ranking of the round, nearly right already) first, they spare the sort most of its own.
    """
    if tie_break[0] != "total":
        return tuple(comparison.rank(records, tie_break))
    given = {record.player: position for position, record in enumerate(records)}
    ahead = {placing.record.player: position for position, placing in enumerate(hint)}
    laid_out = sorted(records, key=lambda record: ahead.get(record.player, len(ahead)))
    # A float never orders two totals the wrong way round (it may tie them): the exact total
    # decides only where the floats are equal.
    laid_out.sort(
        key=lambda record: (float(record.total), record.total, -given[record.player]),
        reverse=True,
    )
    return _placed_by_total(laid_out, tie_break[1:])


def _placed_by_total(laid_out: list[Record], rest: tuple[str, ...]) -> tuple[Placing, ...]:
    """``comparison.rank`` of records already in order of total, best first: only the players
    level on total are handed to the other criteria (``rest``), in the order given."""
    placings: list[Placing] = []
    start, count = 0, len(laid_out)
    while start < count:
        total = laid_out[start].total
        end = start + 1
        while end < count and laid_out[end].total == total:
            end += 1
        decided_by = None if start == 0 else "total"
        if end - start == 1:
            comparison.add_block(placings, laid_out[start:end], decided_by)
        else:
            for block, by in comparison.level_blocks(laid_out[start:end], rest, decided_by):
                comparison.add_block(placings, block, by)
        start = end
    return tuple(placings)
