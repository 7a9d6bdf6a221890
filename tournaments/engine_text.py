"""The engine's words in the user's language: contract names and the engine's messages.

The engine is a library that speaks English. Where it gives a stable code (a contract, the code
of an adjudication problem, the code of an error) the text shown to users is looked up here and
translated, with the same parameters; a message without a code is shown as the engine wrote it.
Parameters that are words (contracts, "the end of the line") are translated too.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.game import Contract, EngineError, Problem

CONTRACT_NAMES: dict[Contract, Promise] = {
    Contract.PASS: pgettext_lazy("contract", "pass"),
    Contract.ACCEPT: pgettext_lazy("contract", "accept"),
    Contract.SOLO: pgettext_lazy("contract", "solo"),
    Contract.ABONDANCE: pgettext_lazy("contract", "abondance"),
    Contract.SOLO_SLIM: pgettext_lazy("contract", "solo slim"),
    Contract.SMALL_SOLO_SLIM: pgettext_lazy("contract", "small solo slim"),
    Contract.GRAND_SOLO: pgettext_lazy("contract", "grand solo"),
    Contract.TROEL: pgettext_lazy("contract", "troel"),
    Contract.SMALL_MISERE: pgettext_lazy("contract", "small misere"),
    Contract.PICCOLO: pgettext_lazy("contract", "piccolo"),
    Contract.MISERE: pgettext_lazy("contract", "misere"),
    Contract.OPEN_MISERE: pgettext_lazy("contract", "open misere"),
    Contract.ISRAELI: pgettext_lazy("contract", "israeli"),
    Contract.RONDE_PAS: pgettext_lazy("contract", "Ronde Pas"),
}

# The English texts are ``engine.adjudication.MESSAGES`` with the same parameters.
PROBLEM_MESSAGES: dict[str, Promise] = {
    "troel_without_aces": _(
        "Neither %(first)s (%(first_aces)s aces) nor %(second)s (%(second_aces)s aces) holds "
        "three or four aces, so they cannot play a troel."
    ),
    "troel_wrong_partner": _(
        "%(bidder)s holds %(aces)s aces, so the troel partner is %(partner)s, who holds "
        "%(called)s, not %(named)s."
    ),
    "troel_level_kept": _(
        "The called card is %(called)s and trumps stayed %(trump)s, so the troel is for "
        "%(expected)s tricks, not %(level)s."
    ),
    "troel_level_switched": _(
        "The partner switched trumps from %(kept)s to %(trump)s, so the troel is for "
        "%(expected)s tricks, not %(level)s."
    ),
    "troel_switch_not_allowed": _(
        "The called card is %(called)s, so trumps are %(kept)s, not %(trump)s: this ruleset does "
        "not let the troel partner switch trumps."
    ),
    "troel_not_played": _(
        "%(seat)s holds %(aces)s aces and had to announce troel, but %(contract)s ranks below "
        "troel: check the result, or penalise the missing troel."
    ),
    "trump_not_held": _(
        "%(seat)s holds no %(trump)s, so could not have proposed or accepted %(trump)s as trumps."
    ),
    "declarer_void_in_trump": _(
        "%(seat)s holds no %(trump)s but played %(contract)s in %(trump)s."
    ),
    "trump_not_turned": _(
        "The turned-up card is %(turned)s, so %(contract)s is played in %(turned_suit)s, not "
        "%(trump)s."
    ),
    "tricks_below_sure": _(
        "%(seat)s holds %(cards)s: trumps no opponent can beat, so the declaring side wins at "
        "least %(minimum)s tricks, not %(tricks)s."
    ),
    "tricks_above_possible": _(
        "%(seat)s holds %(cards)s: trumps the declaring side cannot beat, so the declaring side "
        "wins at most %(maximum)s tricks, not %(tricks)s."
    ),
    "player_tricks_below_sure": _(
        "%(seat)s holds %(cards)s: trumps nobody can beat, so %(seat)s wins at least %(minimum)s "
        "tricks, not %(tricks)s."
    ),
    "player_tricks_above_possible": _(
        "%(holder)s holds %(cards)s: trumps nobody can beat, so %(seat)s wins at most "
        "%(maximum)s tricks, not %(tricks)s."
    ),
    "must_win_first_trick": _(
        "%(seat)s leads to the first trick and nobody holds a card above any of %(seat)s's cards "
        "in its suit, so %(seat)s wins the first trick: %(tricks)s tricks is impossible."
    ),
    "leader_wins_every_trick": _(
        "%(seat)s leads the first trick and holds only cards nobody can beat, so without trumps %(seat)s wins all 13 tricks, the last one and all four queens."
    ),
}


# A contract as the subject of a sentence, with its article (``a_contract`` in the messages).
CONTRACTS_WITH_ARTICLE: dict[Contract, Promise] = {
    Contract.PASS: pgettext_lazy("contract with article", "a pass"),
    Contract.ACCEPT: pgettext_lazy("contract with article", "an acceptance"),
    Contract.SOLO: pgettext_lazy("contract with article", "a solo"),
    Contract.ABONDANCE: pgettext_lazy("contract with article", "an abondance"),
    Contract.SOLO_SLIM: pgettext_lazy("contract with article", "a solo slim"),
    Contract.SMALL_SOLO_SLIM: pgettext_lazy("contract with article", "a small solo slim"),
    Contract.GRAND_SOLO: pgettext_lazy("contract with article", "a grand solo"),
    Contract.TROEL: pgettext_lazy("contract with article", "a troel"),
    Contract.SMALL_MISERE: pgettext_lazy("contract with article", "a small misère"),
    Contract.PICCOLO: pgettext_lazy("contract with article", "a piccolo"),
    Contract.MISERE: pgettext_lazy("contract with article", "a misère"),
    Contract.OPEN_MISERE: pgettext_lazy("contract with article", "an open misère"),
    Contract.RONDE_PAS: pgettext_lazy("contract with article", "a Ronde Pas"),
}

# A contract after "the" (``the_contract`` in the messages): the contracts whose level or trump a
# result line can leave out.
CONTRACTS_WITH_THE: dict[Contract, Promise] = {
    Contract.ACCEPT: pgettext_lazy("contract with the", "the acceptance"),
    Contract.SOLO: pgettext_lazy("contract with the", "the solo"),
    Contract.ABONDANCE: pgettext_lazy("contract with the", "the abondance"),
    Contract.SOLO_SLIM: pgettext_lazy("contract with the", "the solo slim"),
    Contract.SMALL_SOLO_SLIM: pgettext_lazy("contract with the", "the small solo slim"),
    Contract.GRAND_SOLO: pgettext_lazy("contract with the", "the grand solo"),
    Contract.TROEL: pgettext_lazy("contract with the", "the troel"),
}

# The English texts are the ``MESSAGES`` of the engine modules named, with the same parameters.
ERROR_MESSAGES: dict[str, Promise] = {
    # engine.notation_messages: reading and writing result lines
    "empty_line": _(
        "column %(column)s: expected a result, found an empty line: e.g. NE 9H 10 or pass"
    ),
    "empty_israeli_line": _(
        "column %(column)s: expected a result, found an empty line: e.g. N 7NT 7,2,0,3 6,2,1,4"
    ),
    "seats_before_contract": _(
        "column %(column)s: expected the declarers' seats (e.g. NE or N,S) before the contract, "
        "found %(found)s"
    ),
    "expected_seat": _("column %(column)s: expected a seat (N, E, S or W), found %(found)s"),
    "seat_twice": _("column %(column)s: seat %(seat)s is named twice"),
    "space_after_seats": _("column %(column)s: expected a space after the seats, found %(found)s"),
    "space_before_contract": _(
        "column %(column)s: expected a space before the contract (e.g. 9H, sol6S, mis), found "
        "%(found)s"
    ),
    "missing_contract": _(
        "column %(column)s: expected the contract (e.g. 9H, sol6S, mis), found the end of the line"
    ),
    "seats_with_spaces": _(
        "column %(column)s: expected the contract; several declarers are written together (NE) or "
        "with commas (N,E), not with spaces"
    ),
    "expected_contract": _(
        "column %(column)s: expected a contract (e.g. 9H, sol6S, abon10D, troel H, slim C, mis, "
        "pic), found %(found)s"
    ),
    "pass_with_seats": _(
        "column %(column)s: pass is a line on its own: it takes no seats, contract or tricks"
    ),
    "suit_without_trumps": _("column %(column)s: %(a_contract)s is played without trumps"),
    "expected_level": _(
        "column %(column)s: expected the level of %(the_contract)s, found %(found)s"
    ),
    "level_out_of_range": _(
        "column %(column)s: expected the level of %(the_contract)s, found %(number)s: it must be "
        "%(low)s to %(high)s"
    ),
    "level_before_suit": _(
        "column %(column)s: expected the level of %(the_contract)s (%(low)s to %(high)s) before "
        "the suit, e.g. %(example)s, found %(found)s"
    ),
    "wiezen_solo_level_before_suit": _(
        "column %(column)s: expected the level of %(the_contract)s (%(low)s to %(high)s) before "
        "the suit, e.g. %(example)s; a Wiezen solo for 13 tricks in the turned trump is gsolo, "
        "found %(found)s"
    ),
    "expected_trump": _(
        "column %(column)s: expected the trump suit (H, D, C or S) of %(the_contract)s, found "
        "%(found)s"
    ),
    "expected_trump_after_level": _(
        "column %(column)s: expected the trump suit (H, D, C or S) after the level, found %(found)s"
    ),
    "no_trump_not_israeli": _(
        "column %(column)s: no trump exists only in Israeli Whist; give a suit H, D, C or S"
    ),
    "space_after_contract": _(
        "column %(column)s: expected a space after the contract, found %(found)s"
    ),
    "declarers_one": _("column %(column)s: %(a_contract)s has one declarer, found %(count)s"),
    "declarers_two": _(
        "column %(column)s: %(a_contract)s has two declarers (e.g. NE), found %(count)s"
    ),
    "declarers_one_to_four": _(
        "column %(column)s: %(a_contract)s has one to four declarers (e.g. N or N,S), found "
        "%(count)s"
    ),
    "space_before_tricks": _(
        "column %(column)s: expected a space before the tricks won (0 to 13, or ? when not played "
        "yet), found %(found)s"
    ),
    "missing_tricks": _(
        "column %(column)s: expected the tricks won (0 to 13, or ? when not played yet), found the "
        "end of the line"
    ),
    "expected_side_tricks": _(
        "column %(column)s: expected the tricks won by the declaring side, found %(found)s"
    ),
    "side_tricks_out_of_range": _(
        "column %(column)s: expected the tricks won by the declaring side, found %(number)s: it "
        "must be %(low)s to %(high)s"
    ),
    "one_trick_count": _(
        "column %(column)s: %(a_contract)s takes one trick count, the declaring side's together; "
        "only misère contracts give each declarer's own"
    ),
    "expected_declarer_tricks": _(
        "column %(column)s: expected the tricks won by %(seat)s, found %(found)s"
    ),
    "declarer_tricks_out_of_range": _(
        "column %(column)s: expected the tricks won by %(seat)s, found %(number)s: it must be "
        "%(low)s to %(high)s"
    ),
    "too_many_trick_counts": _(
        "column %(column)s: expected %(count)s trick counts (%(seats)s), e.g. %(example)s; found "
        "more"
    ),
    "too_few_trick_counts": _(
        "column %(column)s: expected %(count)s trick counts (%(seats)s) separated by commas, e.g. "
        "%(example)s; found %(given)s"
    ),
    "space_after_tricks": _(
        "column %(column)s: expected a space after the tricks, found %(found)s"
    ),
    "expected_flag": _(
        "column %(column)s: expected dbl, ap or the end of the line, found %(found)s"
    ),
    "ambiguous_flag": _(
        "column %(column)s: %(found)s is ambiguous: write dbl when an opponent announced double, "
        "or ap when the previous deal was passed out"
    ),
    "flag_twice": _("column %(column)s: %(flag)s is given twice"),
    "space_after_flag": _("column %(column)s: expected a space after the flag, found %(found)s"),
    "expected_israeli_declarer": _(
        "column %(column)s: expected the declarer's seat (N, E, S or W), e.g. N 7NT 7,2,0,3 "
        "6,2,1,4, found %(found)s"
    ),
    "israeli_one_declarer": _("column %(column)s: an Israeli Whist contract has one declarer"),
    "space_before_israeli_contract": _(
        "column %(column)s: expected a space before the contract (e.g. 7NT or 9H), found %(found)s"
    ),
    "missing_israeli_contract": _(
        "column %(column)s: expected the contract (e.g. 7NT or 9H), found the end of the line"
    ),
    "expected_israeli_level": _(
        "column %(column)s: expected the contract's level, found %(found)s"
    ),
    "israeli_level_out_of_range": _(
        "column %(column)s: expected the contract's level, found %(number)s: it must be %(low)s to "
        "%(high)s"
    ),
    "expected_israeli_trump": _(
        "column %(column)s: expected the trump suit (H, D, C, S or NT) after the level, found "
        "%(found)s"
    ),
    "space_before_bids": _(
        "column %(column)s: expected a space before the four bids in the order N, E, S, W, found "
        "%(found)s"
    ),
    "missing_bids": _(
        "column %(column)s: expected the four bids in the order N, E, S, W, found the end of the "
        "line"
    ),
    "expected_bid": _("column %(column)s: expected the bid of %(seat)s, found %(found)s"),
    "bid_out_of_range": _(
        "column %(column)s: expected the bid of %(seat)s, found %(number)s: it must be %(low)s to "
        "%(high)s"
    ),
    "too_many_bids": _(
        "column %(column)s: expected %(count)s bids (%(seats)s), e.g. %(example)s; found more"
    ),
    "too_few_bids": _(
        "column %(column)s: expected %(count)s bids (%(seats)s) separated by commas, e.g. "
        "%(example)s; found %(given)s"
    ),
    "space_before_player_tricks": _(
        "column %(column)s: expected a space before the four trick counts in the order N, E, S, W, "
        "or ? when not played yet, found %(found)s"
    ),
    "missing_player_tricks": _(
        "column %(column)s: expected the four trick counts in the order N, E, S, W, or ? when not "
        "played yet, found the end of the line"
    ),
    "expected_player_tricks": _(
        "column %(column)s: expected the tricks of %(seat)s, found %(found)s"
    ),
    "player_tricks_out_of_range": _(
        "column %(column)s: expected the tricks of %(seat)s, found %(number)s: it must be %(low)s "
        "to %(high)s"
    ),
    "expected_end": _("column %(column)s: expected the end of the line, found %(found)s"),
    "israeli_not_board_result": _("an Israeli Whist result is an IsraeliResult, not a BoardResult"),
    "israeli_level_range": _("level must be %(low)s to %(high)s"),
    "bids_range": _("bids.%(seat)s must be 0 to %(high)s"),
    "seat_tricks_range": _("tricks.%(seat)s must be 0 to %(high)s"),
    "contract_level_range": _(
        "the level of %(a_contract)s must be %(low)s to %(high)s (got %(level)s)"
    ),
    "contract_has_no_level": _("%(a_contract)s has no level"),
    "contract_needs_trump": _("%(a_contract)s needs a trump suit"),
    "contract_has_no_trump": _("%(a_contract)s has no trump suit"),
    "result_declarers_none": _("%(a_contract)s has no declarers, found %(count)s (each seat once)"),
    "result_declarers_one": _("%(a_contract)s has one declarer, found %(count)s (each seat once)"),
    "result_declarers_two": _(
        "%(a_contract)s has two declarers (e.g. NE), found %(count)s (each seat once)"
    ),
    "result_declarers_one_to_four": _(
        "%(a_contract)s has one to four declarers (e.g. N or N,S), found %(count)s (each seat once)"
    ),
    "misere_tricks_per_declarer": _(
        "a misère contract gives each declarer's tricks in declarer_tricks"
    ),
    "declarer_tricks_count": _("declarer_tricks must give one count for each declarer"),
    "one_trick_count_in_tricks": _("%(a_contract)s has one trick count, in tricks"),
    "pass_has_no_tricks": _("a passed deal has no tricks"),
    "tricks_range": _("tricks must be 0 to %(high)s (got %(count)s)"),
    "ronde_pas_expected_game": _(
        "column %(column)s: expected the Ronde Pas game (last, queens or tricks), found %(found)s"
    ),
    "ronde_pas_expected_seat": _(
        "column %(column)s: expected the seat that won the last trick (N, E, S or W), found %(found)s"
    ),
    "expected_seat_queens": _(
        "column %(column)s: expected a seat and the queens it took, e.g. N1 E2 S1 W0, found %(found)s"
    ),
    "expected_seat_tricks": _(
        "column %(column)s: expected a seat and the tricks it took, e.g. N3 E4 S2 W4, found %(found)s"
    ),
    "expected_queens": _("column %(column)s: expected the queens of %(seat)s, found %(found)s"),
    "queens_out_of_range": _(
        "column %(column)s: expected the queens of %(seat)s, found %(number)s: it must be %(low)s to %(high)s"
    ),
    "queens_seats_missing": _(
        "column %(column)s: expected the queens of every seat, e.g. N1 E2 S1 W0; %(seats)s missing"
    ),
    "tricks_seats_missing": _(
        "column %(column)s: expected the tricks of every seat, e.g. N3 E4 S2 W4; %(seats)s missing"
    ),
    "ronde_pas_not_board_result": _("a Ronde Pas result is a RondePasResult, not a BoardResult"),
    "ronde_pas_field_missing": _("the %(game)s game of Ronde Pas needs %(item)s"),
    "ronde_pas_field_extra": _("the %(game)s game of Ronde Pas has no %(item)s"),
    "queens_range": _("queens.%(seat)s must be 0 to %(high)s"),
    # engine.validation: results the ruleset does not allow
    "israeli_as_board_result": _(
        "an Israeli Whist result gives the declarer, every player's bid and tricks"
    ),
    "pass_with_level": _("an all-pass result has no level: nothing was played"),
    "pass_with_trump": _("an all-pass result has no trump: nothing was played"),
    "pass_with_declarers": _("an all-pass result has no declarers: nothing was played"),
    "pass_with_tricks": _("an all-pass result has no tricks: nothing was played"),
    "pass_with_doubled": _("an all-pass result has no doubled: nothing was played"),
    "trump_missing": _(
        "the trump is missing: %(contract)s is played with a trump suit (H, D, C or S)"
    ),
    "trump_not_played": _("%(contract)s is played without trumps: leave trump out"),
    "no_announced_double": _("the %(ruleset)s ruleset has no announced double: leave doubled out"),
    "level_not_bid": _("%(contract)s has no level: leave level out"),
    "level_missing": _("the level is missing: %(contract)s is bid at a level (%(levels)s)"),
    "level_not_allowed": _(
        "level %(level)s is out of range for %(contract)s: the %(ruleset)s ruleset allows "
        "%(levels)s"
    ),
    "declarer_count": _("%(contract)s has %(declarers)s declarer, not %(count)s"),
    "declarers_count": _("%(contract)s has %(declarers)s declarers, not %(count)s"),
    "declarers_count_range": _("%(contract)s has %(low)s to %(high)s declarers, not %(count)s"),
    "declarer_twice": _("declarers names %(seat)s twice"),
    "side_tricks_per_declarer": _(
        "for %(contract)s, tricks is one number: the declaring side's tricks"
    ),
    "side_tricks_missing": _("tricks is missing: give the declaring side's tricks (0-13)"),
    "side_tricks_range": _("tricks %(tricks)s is out of range: a side wins 0-13 tricks"),
    "negative_tricks_one_number": _(
        'for %(contract)s, tricks gives each declarer\'s own tricks, e.g. {"N": 0, "S": 1}, not '
        "one number"
    ),
    "negative_tricks_missing": _("tricks is missing: give each declarer's own tricks"),
    "negative_tricks_declarers": _(
        "tricks must give the tricks of every declarer and of no one else"
    ),
    "seat_tricks_out_of_range": _("%(seat)s's tricks %(count)s are out of range 0-%(most)s"),
    "declarer_tricks_total": _(
        "the declarers' tricks add up to %(total)s, more than the %(most)s tricks of %(contract)s"
    ),
    "not_israeli_ruleset": _(
        "the %(ruleset)s ruleset is not Israeli Whist; an israeli result needs an Israeli ruleset"
    ),
    "no_such_trump": _("the %(ruleset)s ruleset has no %(trump)s contract"),
    "seat_bid_out_of_range": _("%(seat)s's bid %(bid)s is out of range 0-13"),
    "declarer_bid": _("the declarer %(seat)s bids its contract's level %(level)s, not %(bid)s"),
    "bids_total": _("the bids add up to 13; the last bid must make the game over or under"),
    "player_tricks_missing": _("tricks is missing: give every player's tricks"),
    "tricks_total": _("the tricks add up to %(total)s, not 13"),
    "ronde_pas_as_board_result": _(
        "a Ronde Pas result gives the game played and the last trick's winner, the queens or the tricks"
    ),
    "ronde_pas_not_wiezen": _("Ronde Pas is a Wiezen game; the %(ruleset)s ruleset is %(game)s"),
    "ronde_pas_not_played": _(
        "the %(ruleset)s ruleset deals an all-passed deal again: it plays no Ronde Pas"
    ),
    "ronde_pas_last_trick_missing": _(
        "the last trick's winner is missing: give the seat that won it (N, E, S or W)"
    ),
    "ronde_pas_queens_missing": _("the queens are missing: give the queens each player took"),
    "ronde_pas_tricks_missing": _("the tricks are missing: give the tricks each player took"),
    "ronde_pas_other_field": _("the %(game)s game of Ronde Pas has no %(item)s: leave it out"),
    "seat_queens_out_of_range": _("%(seat)s's queens %(count)s are out of range 0-%(most)s"),
    "queens_total": _("the queens add up to %(total)s, not 4"),
    # engine.ruleset
    "contract_not_allowed": _(
        "the %(ruleset)s ruleset does not allow %(contract)s; it allows pass, %(contracts)s"
    ),
    # engine.movements.layout, engine.movements.planner and engine.boardsets: movements
    "too_few_players": _("players: a movement needs at least 4 players, not %(players)s"),
    "too_many_players": _(
        "players: at most %(most)s players can be planned at once, not %(players)s"
    ),
    "tables_of_five_impossible": _(
        "players: %(players)s players cannot sit at tables of four and five (%(fives)s tables of "
        "five needed, only %(tables)s tables); use byes instead"
    ),
    "played_rounds_out_of_range": _(
        "played_rounds: must be between 0 and %(most)s, not %(played)s"
    ),
    "fewer_rounds_than_played": _(
        "rounds: %(rounds)s rounds is fewer than the %(played)s already played"
    ),
    "players_not_a_count": _("players: expected a number of players or a list of player numbers"),
    "bad_player_number": _("players: player numbers must be whole numbers from 1, not %(player)s"),
    "players_listed_twice": _("players: player(s) %(players)s are listed more than once"),
    "rounds_out_of_range": _("rounds: must be a whole number from 1 to %(most)s, not %(rounds)s"),
    "no_such_table": _("round %(round)s, table %(table)s: no such table in the plan"),
    "bad_share": _("share: 1 (one table per set) or 2 (two tables share a set), not %(share)s"),
    "too_few_sets_for_tables": _(
        "sets: round %(round)s has %(tables)s tables, so at least %(need)s sets are needed, not "
        "%(sets)s"
    ),
    "too_few_sets_for_shared_tables": _(
        "sets: round %(round)s has %(tables)s tables, so at least %(need)s sets are needed when "
        "two tables share a set, not %(sets)s"
    ),
    "too_few_sets_for_rounds": _(
        "sets: player %(player)s plays %(rounds)s rounds, so at least %(rounds)s sets are needed "
        "for nobody to meet a board twice, not %(sets)s"
    ),
    "no_set_plan": _(
        "sets: no way found to move %(sets)s sets so that nobody meets a board twice; this "
        "movement needs %(fewest)s sets (or fewer if two tables share a set)"
    ),
    "no_shared_set_plan": _(
        "sets: no way found to move %(sets)s sets so that nobody meets a board twice; this "
        "movement needs %(fewest)s sets"
    ),
    "plan_rounds_mismatch": _(
        "rounds: the board plan has %(plan)s rounds, the movement %(movement)s"
    ),
    "plan_tables_mismatch": _(
        "round %(round)s: the board plan has %(plan)s tables, the movement %(movement)s"
    ),
    "set_at_tables": _("round %(round)s: set %(set)s is at %(tables)s tables at once"),
    "board_twice": _(
        "player %(player)s plays board %(board)s twice (rounds %(first)s and %(second)s)"
    ),
    "not_positive": _("%(name)s: must be a whole number of 1 or more, not %(value)s"),
}


PENALTY_NAMES: dict[str, Promise] = {
    "revoke": pgettext_lazy("penalty", "revoke"),
    "troel_not_announced": pgettext_lazy("penalty", "troel not announced"),
    "fine": pgettext_lazy("penalty", "fine"),
}


def penalty_name(kind: str) -> str:
    """A penalty kind in the active language: the built-in kinds translated, a club's own key
    (from its custom ruleset) as written, with spaces for underscores."""
    name = PENALTY_NAMES.get(kind)
    return str(name) if name is not None else kind.replace("_", " ")


def contract_name(contract: Contract | str) -> str:
    """A contract's name in the active language (``solo_slim`` is "solo slim" in English)."""
    try:
        contract = Contract(contract)
    except ValueError:
        return str(contract).replace("_", " ")
    return str(CONTRACT_NAMES.get(contract, contract.value.replace("_", " ")))


def _phrase(table: Mapping[Contract, Promise], token: str) -> str:
    """A contract token as a phrase of ``table``; its plain name where the table has none."""
    try:
        return str(table[Contract(token)])
    except (KeyError, ValueError):
        return contract_name(token)


def _words(params: Mapping[str, str | int]) -> dict[str, str | int]:
    """The parameters of an engine message, with those that are words in the active language."""
    words = dict(params)
    if "contract" in words:
        words["contract"] = contract_name(str(words["contract"]))
    if "a_contract" in words:
        words["a_contract"] = _phrase(CONTRACTS_WITH_ARTICLE, str(words["a_contract"]))
    if "the_contract" in words:
        words["the_contract"] = _phrase(CONTRACTS_WITH_THE, str(words["the_contract"]))
    if "contracts" in words:
        tokens = str(words["contracts"]).split(", ")
        words["contracts"] = ", ".join(contract_name(token) for token in tokens)
    if "found" in words:
        words["found"] = words["found"] or str(_("the end of the line"))
    return words


def problem_message(problem: Problem) -> str:
    """An adjudication problem's message in the active language."""
    template = PROBLEM_MESSAGES.get(problem.code)
    if template is None:
        return problem.message
    return str(template) % _words(problem.params)


def error_message(error: EngineError) -> str:
    """An engine error's message in the active language; the engine's English without a code.

    A result line's errors keep their column ("column 4: ..."), which tells the person at the
    keyboard where the line went wrong.
    """
    template = ERROR_MESSAGES.get(error.code) if error.code else None
    if template is None:
        return str(error)
    return str(template) % _words(error.params)
