"""Each player's place after each closed round, and the chart of it on the public player page.

The places are those the standings stored with each row (``places``: the engine's cumulative
ranking after each round, ``engine.standings.Standings.after_round``), so the last point is the
place the standings page shows and the page reads them without a query or a computation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments import charts


@dataclass(frozen=True)
class RoundPlace:
    round: int
    place: int | None  # None: not ranked after that round (no board yet)
    label: str


def places_by_round(data: Mapping[str, Any], closed: Iterable[int]) -> dict[int, list[RoundPlace]]:
    """Every player's place after each closed round, by player number, from the stored
    standings document ``data``."""
    rounds = sorted(closed)
    out: dict[int, list[RoundPlace]] = {}
    for row in data.get("rows", []):
        stored = row.get("places") or {}
        line = []
        for number in rounds:
            label = str(stored.get(str(number), ""))
            digits = label.rstrip("=")
            line.append(RoundPlace(number, int(digits) if digits.isdigit() else None, label))
        out[int(row["entry"])] = line
    return out


def place_chart(name: str, places: list[RoundPlace], ranked: int) -> SafeString | None:
    """The line of a player's place round by round (the first place at the top)."""
    if not any(item.place is not None for item in places):
        return None
    shown = [item for item in places if item.place is not None]
    return charts.line_chart(
        "place-chart",
        _("Place of %(name)s after each round") % {"name": name},
        _("Place after round %(first)s: %(first_place)s; after round %(last)s: %(last_place)s.")
        % {
            "first": shown[0].round,
            "first_place": shown[0].label,
            "last": shown[-1].round,
            "last_place": shown[-1].label,
        },
        [
            charts.Point(
                _("R%(round)s") % {"round": item.round},
                item.place,
                _("After round %(round)s: place %(place)s")
                % {"round": item.round, "place": item.label},
            )
            for item in places
        ],
        low=1,
        high=max(ranked, 2),
        inverted=True,
    )
