"""Rankings over more than one result: series of events (best K each) and clubs (best K members).

Both read the stored standings of each event, so they cost no recomputation. An event's result for
a player is its ranking figure: the percentage in a matchpoint event, the total in a raw or datum
event. A series adds up each player's best K event results; players are matched across events by
the player record (the same federation number, or the same name and club).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tournaments.game import display, rank_labels
from tournaments.models import Entry, Event, Series, Standings


def _figure(text: str) -> Fraction:
    return Fraction(text) if text else Fraction(0)


def _rows(event: Event) -> list[dict[str, Any]]:
    state = Standings.objects.filter(event=event).first()
    return list(state.data.get("rows", [])) if state else []


@dataclass
class SeriesLine:
    player: int
    name: str
    club: str
    results: list[tuple[Event, Fraction]] = field(default_factory=list)


def series_standings(series: Series) -> dict[str, Any]:
    events = list(series.events.exclude(status=Event.Status.DRAFT).order_by("date", "name"))
    lines: dict[int, SeriesLine] = {}
    for event in events:
        players = dict(Entry.objects.filter(event=event).values_list("number", "player_id"))
        for row in _rows(event):
            if not row.get("boards"):
                continue
            player_id = players.get(row["entry"])
            if player_id is None:
                continue
            line = lines.setdefault(player_id, SeriesLine(player_id, row["name"], row["club"]))
            line.results.append((event, _figure(row["total"])))
    totals = []
    for line in lines.values():
        best = sorted((value for _event, value in line.results), reverse=True)[: series.best_of]
        totals.append(sum(best, Fraction(0)))
    labels = rank_labels(totals)
    ordered = sorted(zip(labels, totals, lines.values(), strict=True), key=lambda item: -item[1])
    return {
        "events": [{"slug": e.slug, "name": e.name, "date": e.date.isoformat()} for e in events],
        "best_of": series.best_of,
        "rows": [
            {
                "place": label,
                "name": line.name,
                "club": line.club,
                "total": display(total, 2),
                "counted": min(len(line.results), series.best_of),
                "played": len(line.results),
                "results": {e.slug: display(value, 2) for e, value in line.results},
            }
            for label, total, line in ordered
        ],
    }


def club_ranking(event: Event, best_of: int = 3) -> dict[str, Any]:
    """Clubs ranked by the sum of their best ``best_of`` members' results in the event."""
    members: dict[str, list[tuple[Fraction, str]]] = defaultdict(list)
    for row in _rows(event):
        if row.get("club") and row.get("boards"):
            members[row["club"]].append((_figure(row["total"]), row["name"]))
    clubs = []
    for club, results in members.items():
        best = sorted(results, key=lambda item: -item[0])[:best_of]
        clubs.append((club, sum((value for value, _name in best), Fraction(0)), best))
    labels = rank_labels([total for _club, total, _best in clubs])
    ordered = sorted(zip(labels, clubs, strict=True), key=lambda item: -item[1][1])
    return {
        "best_of": best_of,
        "rows": [
            {
                "place": label,
                "club": club,
                "total": display(total, 2),
                "members": [{"name": name, "total": display(value, 2)} for value, name in best],
                "complete": len(best) == best_of,
            }
            for label, (club, total, best) in ordered
        ],
    }
