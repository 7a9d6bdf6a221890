"""Ranking after each round: ``engine.comparison.rank`` of the cumulative records, spared work."""

from __future__ import annotations

from collections.abc import Mapping

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
            kept[number] = (records, _rank(records, tie_break))
    if memo is not None:
        memo.retire(memo.rankings)
        memo.rankings = kept
    return {number: placings for number, (_records, placings) in kept.items()}


def _rank(records: list[Record], tie_break: tuple[str, ...]) -> tuple[Placing, ...]:
    """``comparison.rank`` of the records, spared most of its comparisons of fractions when the
    total ranks first.

    The ranking lists level players in the order it was given them, and so does a stable sort by
    total, highest first. The sort compares floats: a float never orders two totals the wrong way
    round, it may only tie them, and where floats tie the exact totals decide.
    """
    if tie_break[0] != "total":
        return tuple(comparison.rank(records, tie_break))
    floats = [float(record.total) for record in records]
    order = sorted(range(len(records)), key=floats.__getitem__, reverse=True)
    laid_out = [records[index] for index in order]
    keys = [floats[index] for index in order]
    start, count = 0, len(laid_out)
    while start < count:
        end = start + 1
        while end < count and keys[end] == keys[start]:
            end += 1
        if end - start > 1:
            laid_out[start:end] = sorted(
                laid_out[start:end], key=lambda record: record.total, reverse=True
            )
        start = end
    return _placed_by_total(laid_out, keys, tie_break[1:])


def _placed_by_total(
    laid_out: list[Record], keys: list[float], rest: tuple[str, ...]
) -> tuple[Placing, ...]:
    """``comparison.rank`` of records already in order of total, best first (``keys``: their
    totals as floats): only the players level on total are handed to the other criteria
    (``rest``), in the order given."""
    placings: list[Placing] = []
    start, count = 0, len(laid_out)
    while start < count:
        record = laid_out[start]
        total, key = record.total, keys[start]
        end = start + 1
        while end < count and keys[end] == key and laid_out[end].total == total:
            end += 1
        decided_by = None if start == 0 else "total"
        if end - start == 1:
            placings.append(Placing(record, start + 1, str(start + 1), decided_by))
        else:
            for block, by in comparison.level_blocks(laid_out[start:end], rest, decided_by):
                comparison.add_block(placings, block, by)
        start = end
    return tuple(placings)
