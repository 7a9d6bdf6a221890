"""The auction's options: the ``[auction]`` table of a ruleset.

Which contracts exist and how they rank is the ruleset's ladder (solo 5, piccolo, troel, small
misère ... are allowed or not there), and how many tricks a troel needs, also after the partner
switched trumps, is in its ``[options]``. The options below are the bidding rules on which the
rules texts disagree. Every key is optional; a key that belongs to another game is an error, so a
typo or a copied table never passes unnoticed. docs/auction.md lists them with their defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.errors import RulesetError

GAMES = ("kleurenwiezen", "wiezen", "israeli")

FOUR_ACES_PARTNERS = ("highest_heart", "kings")
FOUR_ACES_TRUMPS = ("called", "H", "D", "C", "S")
ABONDANCE_TRUMPS = ("after_auction", "named")
# Who leads to a troel's first trick (engine.play.TroelLead); "game" is the game's own rule.
TROEL_LEADS = ("game", "called_card", "partner_leads_trump", "partner_any")

_TROEL_KEYS = frozenset(
    {"wait", "troel_four_aces", "troel_four_aces_partner", "troel_four_aces_trump", "troel_lead"}
)
KEYS_BY_GAME: dict[str, frozenset[str]] = {
    "kleurenwiezen": _TROEL_KEYS
    | {
        "proposals_per_suit",
        "pass_parole",
        "pass_parole_from_level",
        "solo_after_repeated_proposal",
        "proposals_after_negative",
        "negative_after_broken_partnership",
        "negative_after_abondance",
        "forced_fourth_small_misere",
    },
    "wiezen": _TROEL_KEYS
    | {
        "troel_before_auction",
        "carte_blanche",
        "ronde_pas",
        "abondance_trump",
        "abondance_in_trumps",
    },
    "israeli": frozenset({"dealer_opens", "redeal_after_all_pass", "gulash_rounds"}),
}


@dataclass(frozen=True, slots=True)
class AuctionOptions:
    """The bidding rules of one ruleset (docs/auction.md explains each option)."""

    game: str = "kleurenwiezen"
    # Kleurenwiezen and Wiezen
    wait: bool = True
    troel_four_aces: bool = True
    troel_four_aces_partner: str = "highest_heart"
    troel_four_aces_trump: str = "called"
    troel_lead: str = "game"
    # Kleurenwiezen
    proposals_per_suit: int = 2
    pass_parole: bool = True
    pass_parole_from_level: int = 11
    solo_after_repeated_proposal: bool = True
    proposals_after_negative: bool = True
    negative_after_broken_partnership: bool = False
    negative_after_abondance: bool = False
    forced_fourth_small_misere: bool = False
    # Wiezen
    troel_before_auction: bool = False
    carte_blanche: bool = False
    ronde_pas: bool = False
    abondance_trump: str = "after_auction"
    abondance_in_trumps: bool = False
    # Israeli Whist
    dealer_opens: bool = True
    redeal_after_all_pass: bool = True
    gulash_rounds: int = 2

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise RulesetError(f"unknown game {self.game!r}; games are {', '.join(GAMES)}", "game")
        for f in fields(self):
            if f.name != "game":
                _check_value(f.name, getattr(self, f.name), f"auction.{f.name}")

    @classmethod
    def defaults(cls, game: str) -> AuctionOptions:
        """The options of a ruleset whose ``[auction]`` table is empty."""
        return cls.from_mapping({}, game=game)

    @classmethod
    def from_mapping(
        cls, raw: Mapping[str, object], key: str = "auction", game: str = "kleurenwiezen"
    ) -> AuctionOptions:
        """Read and check an ``[auction]`` table; ``key`` is its dotted path, for messages.

        A bad key or value raises ``RulesetError`` naming it, e.g. ``auction.proposals_per_suit:
        must be from 1 to 3, not 4``.
        """
        if game not in GAMES:
            raise RulesetError(f"unknown game {game!r}; games are {', '.join(GAMES)}", "game")
        if not isinstance(raw, Mapping):
            raise RulesetError("must be a table of options", key)
        allowed = KEYS_BY_GAME[game]
        values: dict[str, Any] = {}
        for name, value in raw.items():
            path = f"{key}.{name}"
            if name not in allowed:
                other = [g for g in GAMES if name in KEYS_BY_GAME[g]]
                if other:
                    raise RulesetError(
                        f"is an option of {' and '.join(other)} auctions, not of {game}", path
                    )
                raise RulesetError(
                    f"unknown option; the options of a {game} auction are "
                    f"{', '.join(sorted(allowed))}",
                    path,
                )
            _check_value(name, value, path)
            values[name] = value
        return cls(game=game, **values)

    def to_mapping(self) -> dict[str, object]:
        """Every option of this game, as an ``[auction]`` table
        (``from_mapping(o.to_mapping(), game=o.game) == o``)."""
        return {name: getattr(self, name) for name in sorted(KEYS_BY_GAME[self.game])}


_BOOLS = frozenset(
    {
        "wait",
        "troel_four_aces",
        "pass_parole",
        "solo_after_repeated_proposal",
        "proposals_after_negative",
        "negative_after_broken_partnership",
        "negative_after_abondance",
        "forced_fourth_small_misere",
        "troel_before_auction",
        "carte_blanche",
        "ronde_pas",
        "abondance_in_trumps",
        "dealer_opens",
        "redeal_after_all_pass",
    }
)
_CHOICES: dict[str, tuple[str, ...]] = {
    "troel_four_aces_partner": FOUR_ACES_PARTNERS,
    "troel_four_aces_trump": FOUR_ACES_TRUMPS,
    "abondance_trump": ABONDANCE_TRUMPS,
    "troel_lead": TROEL_LEADS,
}
_INTS: dict[str, tuple[int, int]] = {
    "proposals_per_suit": (1, 3),
    "pass_parole_from_level": (9, 13),
    "gulash_rounds": (1, 3),
}


def _check_value(name: str, value: object, path: str) -> None:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesetError(f"must be true or false, not {value!r}", path)
    elif name in _CHOICES:
        choices = _CHOICES[name]
        if value not in choices:
            raise RulesetError(
                f"must be one of {', '.join(repr(c) for c in choices)}, not {value!r}", path
            )
    else:
        low, high = _INTS[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(f"must be a whole number from {low} to {high}, not {value!r}", path)
        if not low <= value <= high:
            raise RulesetError(f"must be from {low} to {high}, not {value}", path)
