"""The standings computed: every board compared, each player's rounds added up, ranked each round."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from operator import attrgetter
from typing import Final

from engine.comparison import Record
from engine.standings.groups import Compared, GroupKey, bye_scores, compared_group, groups_of, same
from engine.standings.inputs import Field
from engine.standings.lines import Rules, player_line
from engine.standings.memo import ComparedPart, Memo
from engine.standings.outcome import BoardScore, PlayerStanding, Standings
from engine.standings.parts import compared_parts
from engine.standings.ranking import ranked
from engine.standings.tally import Tally


def standings(field: Field, memo: Memo | None = None) -> Standings:
    """Compare every board, add up each player's rounds and total, and rank after each round.

    ``memo`` (``Memo``) carries what the last computation of the same event can lend this one;
    the outcome is the same with it or without.
    """
    if memo is not None:
        memo.fit(field)
    kept = Memo()
    rules = Rules.of(field)
    parts = compared_parts(field, memo, rules.by_head)
    byes: dict[tuple[int, int], list[BoardScore]] = defaultdict(list)
    for item in bye_scores(field):
        byes[item.player, item.round].append(item)
    meetings: dict[int, dict[int, dict[int, int]]] = defaultdict(dict)
    of_round: dict[int, ComparedPart] = {}
    for part in parts.values():
        for (player, number), opponents in part.met.items():
            meetings[player][number] = opponents
        for number in part.rounds:
            of_round[number] = part
    rounds = sorted(set(field.rounds) | set(of_round) | {number for _player, number in byes})
    players: dict[int, PlayerStanding] = {}
    cumulative: dict[int, list[Record]] = {number: [] for number in rounds}
    for player in field.players:
        boards, tallies = _player_boards(player, rounds, of_round, byes, rules.exact, memo, kept)
        line = player_line(
            player,
            boards,
            tallies,
            meetings.get(player, {}),
            rounds,
            field,
            rules,
            memo.lines.get(player) if memo is not None else None,
        )
        kept.lines[player] = line
        for number, record in zip(rounds, line.records, strict=True):
            if record is not None:
                cumulative[number].append(record)
        players[player] = line.standing
    if memo is not None:
        memo.retire(memo.rounds, memo.lines)
        memo.rounds, memo.lines = kept.rounds, kept.lines
    after_round = ranked(cumulative, field.tie_break, memo)
    placings = after_round[rounds[-1]] if rounds else ()
    waiting = tuple(
        sorted(
            number
            for number, line in players.items()
            if not line.boards and number not in field.unranked and number not in field.withdrawn
        )
    )
    return Standings(
        field.method,
        tuple(sorted(field.rounds)),
        players,
        placings,
        waiting,
        len(field.results),
        after_round,
    )


def compare_boards(field: Field, memo: Memo | None = None) -> list[BoardScore]:
    """Every seat of every result and every scored bye, compared with its group.

    With a ``memo`` (``Memo``), a group of the very same records as last time is not compared
    again.
    """
    previous = memo.groups if memo is not None else {}
    kept: dict[GroupKey, Compared] = {}
    scored: list[BoardScore] = []
    for key, members in groups_of(field.results).items():
        compared = compared_group(field, key, members, previous.get(key))
        kept[key] = compared
        scored.extend(compared.scores)
    if memo is not None:
        memo.groups = kept
    scored.extend(bye_scores(field))
    return scored


def _round_boards(
    key: tuple[int, int],
    listed: list[BoardScore],
    byes: list[BoardScore],
    exact: bool,
    memo: Memo | None,
    kept: Memo,
) -> tuple[tuple[BoardScore, ...], Tally]:
    """A player's boards of a round, by board, and what they add up to. The very same list of a
    part kept from last time gives what it gave; new boards that add up alike keep the tally."""
    found = memo.rounds.get(key) if memo is not None else None
    if found is not None and not byes and found[0] is listed:
        kept.rounds[key] = found
        return found[1], found[2]
    # A part lists each player's boards in board order; a bye's boards go in among them.
    these = tuple(sorted([*listed, *byes], key=_BOARD)) if byes else tuple(listed)
    if found is not None and (same(found[1], these) or _add_up_alike(found[1], these, exact)):
        tally = found[2]
    else:
        tally = Tally.of(these, exact)
        if found is not None and tally.same(found[2]):
            tally = found[2]
    kept.rounds[key] = (listed, these, tally)
    return these, tally


_BOARD = attrgetter("board")


def _add_up_alike(old: tuple[BoardScore, ...], new: tuple[BoardScore, ...], exact: bool) -> bool:
    """Whether each of the new boards is the old one, or differs from it only in what a tally
    does not read (a correction elsewhere in a group moves its datum, and the matchpoints of only
    the scores it passes): then the old tally stands, and is not made again."""
    if len(old) != len(new):
        return False
    for before, now in zip(old, new, strict=True):
        if before is now:
            continue
        if (
            before.matchpoints != now.matchpoints
            or before.score != now.score
            or before.value != now.value
            or before.top != now.top
            or (exact and before.datum != now.datum)
        ):
            return False
    return True


def _player_boards(
    player: int,
    rounds: list[int],
    of_round: Mapping[int, ComparedPart],
    byes: Mapping[tuple[int, int], list[BoardScore]],
    exact: bool,
    memo: Memo | None,
    kept: Memo,
) -> tuple[tuple[BoardScore, ...], dict[int, Tally]]:
    """A player's boards in round and board order, and each round's tally."""
    boards: list[BoardScore] = []
    tallies: dict[int, Tally] = {}
    for number in rounds:
        part = of_round.get(number)
        listed = part.items.get((player, number), _NOTHING) if part is not None else _NOTHING
        extra = byes.get((player, number), _NOTHING)
        if not listed and not extra:
            continue
        these, tallies[number] = _round_boards((player, number), listed, extra, exact, memo, kept)
        boards.extend(these)
    return tuple(boards), tallies


_NOTHING: Final[list[BoardScore]] = []
