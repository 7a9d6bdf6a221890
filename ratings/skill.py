"""Player ratings from board-by-board comparisons (OpenSkill's Plackett–Luce model), free of Django.

Each board is a contest among the players who held the same seat's cards on it: they are ranked
by what their comparison gave them (matchpoints; equal figures are a tie) and their ratings move
by OpenSkill's update, one board after the other. A rating is a mean ``mu`` and an uncertainty
``sigma``; every player starts at the model's prior and ``sigma`` shrinks as they play. What is
shown is a conservative figure, ``mu - 3 sigma`` on a scale around 1000, so that a newcomer is
not ranked above a regular on one lucky evening.

``rate_events`` replays a season from scratch: events in order of date then key, contests in the
order given. The same events in the same order give the same ratings, to the last bit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

# OpenSkill's own prior (mu 25, sigma 25/3); the shown figure maps mu - 3 sigma = 0 to 1000.
PRIOR_MU: Final = 25.0
PRIOR_SIGMA: Final = 25.0 / 3.0
# How far one board's outcome strays from the players' skills. A whist board is mostly the cards
# and the luck of the play, four times OpenSkill's default (25/6): each board moves a rating
# less, and a season's worth of boards decides (bench/bench_ratings.py measured 2, 4, 6, 8 and 12
# times the default; 4 recovered the true order best).
PERFORMANCE_SPREAD: Final = 4 * 25.0 / 6.0
DISPLAY_BASE: Final = 1000.0
DISPLAY_SCALE: Final = 40.0


class RatingError(ValueError):
    """A contest the ratings cannot read (a player twice in one group, figures not matching)."""


@dataclass(frozen=True, slots=True)
class Contest:
    """One board and seat: the players who held those cards and what each scored against the
    others (higher is better; matchpoints or scores, only their order counts)."""

    players: tuple[int, ...]
    scores: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.players) != len(self.scores):
            raise RatingError(
                f"a contest has {len(self.players)} players and {len(self.scores)} scores"
            )
        if len(set(self.players)) != len(self.players):
            raise RatingError(f"a player appears twice in one contest: {self.players}")


@dataclass(frozen=True, slots=True)
class EventContests:
    """An event's boards as contests, in the order they are rated; ``key`` breaks a tie of dates."""

    key: int
    date: dt.date
    contests: tuple[Contest, ...]


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating: the mean, the uncertainty, and how much they have played."""

    mu: float = PRIOR_MU
    sigma: float = PRIOR_SIGMA
    events: int = 0
    boards: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure: the skill the player is very probably above."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The rating as shown: 1000 for a newcomer, rising as they play and win boards."""
        return display(self.mu, self.sigma)

    @property
    def uncertainty(self) -> int:
        """The uncertainty on the shown scale (plus or minus this much)."""
        return round(DISPLAY_SCALE * self.sigma)


def display(mu: float, sigma: float) -> int:
    """``mu - 3 sigma`` on the shown scale."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class Point:
    """A player's rating after an event: one point of their history."""

    player: int
    event: int
    date: dt.date
    mu: float
    sigma: float
    boards: int


@dataclass
class Season:
    """Every player's rating after the events played, and each one's history event by event."""

    skills: dict[int, Skill] = field(default_factory=dict)
    history: list[Point] = field(default_factory=list)


def new_model() -> PlackettLuce:
    """The model every season is rated with (one place, so that figures stay comparable)."""
    return PlackettLuce(mu=PRIOR_MU, sigma=PRIOR_SIGMA, beta=PERFORMANCE_SPREAD)


def rate_contest(
    model: PlackettLuce, skills: Mapping[int, Skill], contest: Contest
) -> dict[int, tuple[float, float]]:
    """Each player's new (mu, sigma) after one contest; a contest of one player changes nothing."""
    if len(contest.players) < 2:
        return {}
    teams = [
        [model.rating(mu=skill.mu, sigma=skill.sigma)]
        for skill in (skills.get(player, Skill()) for player in contest.players)
    ]
    best = max(contest.scores)
    # OpenSkill ranks the lowest first; equal ranks are a tie.
    ranks = [best - score for score in contest.scores]
    if all(rank == ranks[0] for rank in ranks):
        # Everyone tied: OpenSkill would still move ratings towards each other, which a board
        # that told nobody apart should not do.
        return {}
    rated: list[list[PlackettLuceRating]] = model.rate(teams, ranks=ranks)
    return {
        player: (team[0].mu, team[0].sigma)
        for player, team in zip(contest.players, rated, strict=True)
    }


def rate_event(
    model: PlackettLuce, skills: dict[int, Skill], event: EventContests
) -> dict[int, int]:
    """Rate one event's contests in order, updating ``skills``; returns each player's boards."""
    boards: dict[int, int] = {}
    for contest in event.contests:
        for player, (mu, sigma) in rate_contest(model, skills, contest).items():
            skill = skills.get(player, Skill())
            skills[player] = Skill(mu, sigma, skill.events, skill.boards + 1)
            boards[player] = boards.get(player, 0) + 1
    for player in boards:
        skill = skills[player]
        skills[player] = Skill(skill.mu, skill.sigma, skill.events + 1, skill.boards)
    return boards


def rate_events(events: Iterable[EventContests], model: PlackettLuce | None = None) -> Season:
    """Replay a season from scratch: events by date then key, each one's contests in order."""
    model = model or new_model()
    season = Season()
    for event in sorted(events, key=lambda item: (item.date, item.key)):
        played = rate_event(model, season.skills, event)
        for player in sorted(played):
            skill = season.skills[player]
            season.history.append(
                Point(player, event.key, event.date, skill.mu, skill.sigma, skill.boards)
            )
    return season
