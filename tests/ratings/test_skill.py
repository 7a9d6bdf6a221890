"""The rating maths on plain records: no database."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ratings.skill import (
    PRIOR_SIGMA,
    Contest,
    EventContests,
    RatingError,
    Skill,
    new_model,
    rate_contest,
    rate_events,
)

DAY = dt.date(2026, 1, 5)


def season(events: int, seed: int = 7, strong: int | None = 0) -> list[EventContests]:
    """Events of eight players, every board two groups of four; ``strong`` wins every group."""
    rng = random.Random(seed)
    out = []
    for number in range(events):
        contests = []
        for _board in range(8):
            players = list(range(8))
            rng.shuffle(players)
            for group in (players[:4], players[4:]):
                scores = [float(rng.randint(0, 6)) for _ in group]
                if strong in group:
                    scores[group.index(strong)] = 10.0
                contests.append(Contest(tuple(group), tuple(scores)))
        out.append(EventContests(number + 1, DAY + dt.timedelta(days=7 * number), tuple(contests)))
    return out


def test_it_gives_the_same_ratings_for_the_same_events() -> None:
    events = season(5)
    first = rate_events(events)
    again = rate_events(list(reversed(events)))  # rated by date, whatever order they come in
    assert first.skills == again.skills
    assert first.history == again.history


def test_it_rates_events_of_the_same_day_by_their_key() -> None:
    one, two = season(2)
    same_day = [EventContests(2, DAY, two.contests), EventContests(1, DAY, one.contests)]
    assert [point.event for point in rate_events(same_day).history][:1] == [1]


def test_a_player_who_keeps_winning_rises_above_everyone() -> None:
    rated = rate_events(season(6)).skills
    assert all(rated[0].display > rated[other].display for other in range(1, 8))
    assert rated[0].mu > 25


def test_the_uncertainty_shrinks_as_a_player_plays() -> None:
    history = [point for point in rate_events(season(6, strong=None)).history if point.player == 3]
    sigmas = [point.sigma for point in history]
    assert sigmas[0] < PRIOR_SIGMA
    assert sigmas == sorted(sigmas, reverse=True)
    assert sigmas[-1] < sigmas[0]


def test_it_counts_each_players_events_and_boards() -> None:
    rated = rate_events(season(3)).skills
    assert {skill.events for skill in rated.values()} == {3}
    assert {skill.boards for skill in rated.values()} == {24}


def test_a_newcomer_is_shown_at_1000() -> None:
    assert Skill().display == 1000
    assert Skill().uncertainty == round(40 * PRIOR_SIGMA)


def test_a_board_that_tells_nobody_apart_changes_nothing() -> None:
    model = new_model()
    assert rate_contest(model, {}, Contest((1, 2, 3), (4.0, 4.0, 4.0))) == {}
    assert rate_contest(model, {}, Contest((1,), (4.0,))) == {}


def test_a_tie_moves_the_tied_players_alike() -> None:
    moved = rate_contest(new_model(), {}, Contest((1, 2, 3), (4.0, 4.0, 0.0)))
    assert moved[1] == pytest.approx(moved[2])
    assert moved[1][0] > moved[3][0]


def test_it_refuses_a_player_twice_in_one_contest() -> None:
    with pytest.raises(RatingError, match="twice"):
        Contest((1, 1), (2.0, 0.0))
    with pytest.raises(RatingError, match="2 players and 1 scores"):
        Contest((1, 2), (2.0,))


def test_each_player_has_one_point_per_event_played() -> None:
    history = rate_events(season(4)).history
    assert len(history) == 4 * 8
    assert len({(point.player, point.event) for point in history}) == len(history)
