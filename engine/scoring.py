"""Scoring a board result under a ruleset: the score of every seat.

``score(ruleset, result)`` returns the four scores indexed by ``Seat.value`` (N, E, S, W). It
validates first: a result the ruleset does not allow raises ``InvalidResultError`` naming the
field (see ``engine.validation``).

Settlement (docs/rulesets.md):

- a pair (accept, troel): each declarer gets the declarers' amount, each opponent the other;
- a lone declarer (solo, abondance, slims): the same with one declarer; in a balancing table the
  declarer's amount is three units and each opponent pays one;
- negative contracts (misères, piccolo) with one to four declarers: each declarer is settled on
  its own and the settlements are added. In a balancing table every other player (other
  declarers included) pays or receives one unit per declarer, so the board sums to zero; in a
  per-side table each declarer scores its own amount and every player who is not a declarer
  scores the opponents' amount for each declarer;
- Ronde Pas (Wiezen, after an all-pass): each seat the game settles pays (or receives) the
  ruleset's unit to (from) every other seat (``engine.ronde_pas``).

Speed: every amount is precomputed when the ruleset is loaded (``Ruleset.table``), so scoring a
board is a dictionary lookup and a few checks. The checks are the validation's own conditions;
only a result that fails one of them goes through ``validate`` to get the precise error.
"""

from __future__ import annotations

from engine.cards import SEATS
from engine.results import AnyResult, BoardResult, IsraeliResult, RondePasResult
from engine.ronde_pas import ronde_pas_scores
from engine.ruleset import Ruleset, TableEntry
from engine.schedule import ALL_TRICKS
from engine.validation import validate

Scores = tuple[int, int, int, int]
NO_SCORES: Scores = (0, 0, 0, 0)


def score(ruleset: Ruleset, result: AnyResult) -> Scores:
    """The scores of N, E, S and W for ``result`` under ``ruleset``; validates first."""
    if type(result) is BoardResult:
        scores = _board_scores(ruleset, result)
        if scores is None:
            validate(ruleset, result)
            raise AssertionError(f"a valid result could not be scored: {result.to_json()}")
        return scores
    validate(ruleset, result)
    if isinstance(result, RondePasResult):
        assert ruleset.ronde_pas is not None, "a ruleset that plays Ronde Pas has its figures"
        return ronde_pas_scores(ruleset.ronde_pas.unit, result)
    assert isinstance(result, IsraeliResult)  # a BoardResult took the branch above
    return _israeli_scores(ruleset, result)


def scores_by_seat(scores: Scores) -> dict[str, int]:
    """``{"N": .., "E": .., "S": .., "W": ..}``, the form of the command line and the API."""
    return {seat.name: scores[seat.value] for seat in SEATS}


def _board_scores(ruleset: Ruleset, result: BoardResult) -> Scores | None:
    """The scores, or ``None`` when the result breaks a rule (then ``validate`` says which)."""
    entry = ruleset.table.get((result.contract._value_, result.level))
    if entry is None:
        return None
    extra = 0
    if result.doubled:
        if not entry.doubled_ok:
            return None
        extra = 1
    if result.after_all_pass and entry.all_pass_doubles:
        extra += 1
    kind = entry.kind
    if kind == "positive":
        return _positive(entry, result, extra)
    if kind == "negative":
        return _negative(entry, result, extra, ruleset.balancing)
    if result.declarers or result.trump is not None or result.tricks is not None:
        return None
    return None if result.declarer_tricks else NO_SCORES


def _positive(entry: TableEntry, result: BoardResult, extra: int) -> Scores | None:
    tricks = result.tricks
    declarers = result.declarers
    if (
        tricks is None
        or not 0 <= tricks <= ALL_TRICKS
        or result.trump is None
        or result.declarer_tricks
        or len(declarers) != entry.declarers[0]
    ):
        return None
    declarer, other = entry.amounts[extra][tricks]
    scores = [other, other, other, other]
    first: int = declarers[0]._value_
    scores[first] = declarer
    if len(declarers) == 2:
        second: int = declarers[1]._value_
        if second == first:
            return None
        scores[second] = declarer
    return (scores[0], scores[1], scores[2], scores[3])


def _negative(entry: TableEntry, result: BoardResult, extra: int, balancing: bool) -> Scores | None:
    declarers = result.declarers
    own = result.declarer_tricks
    if (
        result.trump is not None
        or result.tricks is not None
        or not declarers
        or len(own) != len(declarers)
    ):
        return None
    in_play = entry.tricks_in_play
    row = entry.amounts[extra]
    scores = [0, 0, 0, 0]
    taken = 0
    total = 0
    to_others = 0
    for seat, tricks in zip(declarers, own, strict=True):
        index: int = seat._value_
        bit = 1 << index
        if taken & bit or not 0 <= tricks <= in_play:
            return None
        taken |= bit
        total += tricks
        declarer, other = row[tricks]
        if balancing:
            # every other seat, other declarers included, takes the other side of the unit
            scores[index] += declarer - other
        else:
            scores[index] += declarer
        to_others += other
    if total > in_play:
        return None
    for index in range(4):
        if balancing or not taken & (1 << index):
            scores[index] += to_others
    return (scores[0], scores[1], scores[2], scores[3])


def _israeli_scores(ruleset: Ruleset, result: IsraeliResult) -> Scores:
    schedule = ruleset.israeli
    tricks = result.tricks
    assert schedule is not None, "an Israeli ruleset has its schedule"
    assert tricks is not None, "validate requires the tricks"
    over = sum(result.bids) > ALL_TRICKS
    if schedule.all_failed_scores_nothing and all(
        bid != won for bid, won in zip(result.bids, tricks, strict=True)
    ):
        return NO_SCORES
    n, e, s, w = (
        schedule.player_score(bid, won, over) for bid, won in zip(result.bids, tricks, strict=True)
    )
    return (n, e, s, w)
