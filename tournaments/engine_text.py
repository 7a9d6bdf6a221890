"""The engine's words in the user's language: contract names and the adjudication messages.

The engine is a library that speaks English. Where it gives a stable code (a contract, the code
of an adjudication problem) the text shown to users is looked up here and translated; a message
without a code is shown as the engine wrote it.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine.adjudication import Problem
from engine.results import Contract

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
}


def contract_name(contract: Contract | str) -> str:
    """A contract's name in the active language (``solo_slim`` is "solo slim" in English)."""
    try:
        contract = Contract(contract)
    except ValueError:
        return str(contract).replace("_", " ")
    return str(CONTRACT_NAMES.get(contract, contract.value.replace("_", " ")))


def problem_message(problem: Problem) -> str:
    """An adjudication problem's message in the active language."""
    template = PROBLEM_MESSAGES.get(problem.code)
    if template is None:
        return problem.message
    params = dict(problem.params)
    if "contract" in params:
        params["contract"] = contract_name(str(params["contract"]))
    return str(template) % params
