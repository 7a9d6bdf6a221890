"""Stored board scores: every player's compared boards as compact JSON, and read back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Final

from engine.errors import EngineError
from engine.standings.outcome import BoardScore

BOARD_SCORES_VERSION: Final = 1


def _exact_to_json(value: int | Fraction | None) -> int | str | None:
    if value is None or type(value) is int:
        return value
    return str(value) if value.denominator != 1 else value.numerator


def _exact_from_json(value: object) -> int | Fraction | None:
    if value is None or type(value) is int:
        return value
    if isinstance(value, str):
        exact = Fraction(value)
        return exact.numerator if exact.denominator == 1 else exact
    raise EngineError(f"a stored figure is a whole number or a fraction as text, not {value!r}")


def board_scores_to_json(players: Mapping[int, Sequence[BoardScore]]) -> dict[str, object]:
    """Every player's compared boards as compact JSON: one list of eleven figures a board."""
    return {
        "version": BOARD_SCORES_VERSION,
        "players": {
            str(player): [_line_json(item) for item in boards] for player, boards in players.items()
        },
    }


LineMemo = dict[int, tuple[BoardScore, str]]
"""Board scores already encoded as JSON text, by the identity of their ``BoardScore``."""


def board_scores_text(
    players: Mapping[int, Sequence[BoardScore]], memo: LineMemo | None = None
) -> str:
    """``board_scores_to_json`` as compact JSON text, the very text ``json.dumps`` makes of it.

    With a ``memo`` of the last call, a board score that is the very same object is not encoded
    again: after one result changed, most of an event's 80,000 lines are.
    """
    previous = memo if memo is not None else {}
    kept: LineMemo = {}
    encode = json.JSONEncoder(separators=(",", ":")).encode
    parts = []
    for player, boards in players.items():
        lines = []
        for item in boards:
            found = previous.get(id(item))
            if found is None or found[0] is not item:
                found = (item, encode(_line_json(item)))
            kept[id(item)] = found
            lines.append(found[1])
        parts.append(f"{encode(str(player))}:[{','.join(lines)}]")
    if memo is not None:
        memo.clear()
        memo.update(kept)
    return f'{{"version":{BOARD_SCORES_VERSION},"players":{{{",".join(parts)}}}}}'


def _line_json(item: BoardScore) -> list[object]:
    return [
        item.round,
        item.table,
        item.board,
        item.seat,
        item.result,
        item.score,
        _exact_to_json(item.value),
        _exact_to_json(item.matchpoints),
        item.top,
        _exact_to_json(item.datum),
        _exact_to_json(item.award),
    ]


def board_scores_from_json(
    data: Mapping[str, object], only: Iterable[int] | None = None
) -> dict[int, tuple[BoardScore, ...]]:
    """Read ``board_scores_to_json`` back, for every player or ``only`` those given."""
    if data.get("version") != BOARD_SCORES_VERSION:
        raise EngineError(f"stored board scores of version {data.get('version')!r} are not known")
    players = data.get("players")
    if not isinstance(players, dict):
        raise EngineError("stored board scores have no players")
    keys = list(players) if only is None else [str(number) for number in only]
    out: dict[int, tuple[BoardScore, ...]] = {}
    for key in keys:
        boards = players.get(key)
        if boards is None:
            continue
        player = int(key)
        out[player] = tuple(_board_score(player, line) for line in boards)
    return out


def _board_score(player: int, line: Sequence[object]) -> BoardScore:
    try:
        round_number, table, board, seat, result, score, value, mp, top, datum, award = line
    except (TypeError, ValueError) as exc:
        raise EngineError(f"a stored board score has eleven figures, not {line!r}") from exc
    if not (
        type(round_number) is int
        and type(table) is int
        and type(board) is int
        and type(top) is int
        and type(seat) is str
        and (result is None or type(result) is int)
        and (score is None or type(score) is int)
    ):
        raise EngineError(f"a stored board score's figures are not whole numbers: {line!r}")
    matchpoints = mp if type(mp) is int else _exact_from_json(mp)
    if matchpoints is None:
        raise EngineError(f"a stored board score has no matchpoints: {line!r}")
    return BoardScore(
        player,
        round_number,
        table,
        board,
        seat,
        result,
        score,
        value if type(value) is int else _exact_from_json(value),
        matchpoints,
        top,
        _datum_from_json(datum),
        _datum_from_json(award),
    )


@lru_cache(maxsize=4096)
def _datum_from_json(value: object) -> Fraction | None:
    # A group's datum is stored once per board and seat but read for each of its members.
    exact = _exact_from_json(value)
    return None if exact is None else Fraction(exact)
