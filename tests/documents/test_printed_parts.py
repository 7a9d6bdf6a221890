"""Each kind of document is out of date only when something it prints has changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import translation

from documents import fingerprints
from documents.fingerprints import CURRENT, OUT_OF_DATE, Freshness
from documents.models import ReportFile
from tests.documents.conftest import freshness, record_pass, stored
from tournaments.models import Event
from tournaments.services import rounds

if TYPE_CHECKING:
    from django.contrib.auth.models import User

EVERY_KIND = [
    ("score_sheets", 1),
    ("round_pack", 1),
    ("hand_records", None),
    ("dealing_slips", 1),
    ("dlm", None),
    ("pbn", None),
    ("guide_cards", None),
    ("table_cards", 1),
    ("standings", None),
    ("score_cards", None),
    ("summary", None),
]

EVENT_CHANGED = "The event's name, date or venue changed after this file was made."
RULES_CHANGED = "The event's game, ruleset or comparison changed after this file was made."


def every_kind(event: Event) -> dict[str, ReportFile]:
    return {kind: stored(event, kind, round_number) for kind, round_number in EVERY_KIND}


def states(event: Event, files: dict[str, ReportFile]) -> dict[str, Freshness]:
    return {kind: freshness(event, report) for kind, report in files.items()}


def out_of_date(found: dict[str, Freshness], kinds: set[str], *changes: str) -> None:
    for kind, state in found.items():
        if kind in kinds:
            assert state == Freshness(OUT_OF_DATE, changes), kind
        else:
            assert state == Freshness(CURRENT), kind


def test_it_follows_the_venue_only_where_it_is_printed(td: User, draft: Event) -> None:
    files = every_kind(draft)
    Event.objects.filter(pk=draft.pk).update(venue="Parochiezaal")
    prints_venue = {"score_sheets", "round_pack", "pbn", "standings", "score_cards", "summary"}
    out_of_date(states(draft, files), prints_venue, EVENT_CHANGED)


def test_it_follows_the_date_on_everything_but_the_dealing_machine_file(
    td: User, draft: Event
) -> None:
    files = every_kind(draft)
    Event.objects.filter(pk=draft.pk).update(date=draft.date.replace(day=10))
    out_of_date(states(draft, files), {kind for kind, _r in EVERY_KIND} - {"dlm"}, EVENT_CHANGED)


def test_it_follows_the_comparison_only_on_the_standings_and_the_summary(
    td: User, draft: Event
) -> None:
    files = every_kind(draft)
    Event.objects.filter(pk=draft.pk).update(comparison=Event.Comparison.RAW)
    found = states(draft, files)
    # The standings print the method under their title, and the totals in its terms: the
    # standings changed, and with them the totals on the score cards.
    standings_changed = Freshness(OUT_OF_DATE, ("The standings changed after this file was made.",))
    assert found.pop("standings") == standings_changed
    assert found.pop("score_cards") == standings_changed
    out_of_date(found, {"summary"}, RULES_CHANGED)


def test_it_keeps_blank_score_sheets_up_to_date_when_the_first_results_come_in(
    td: User, draft: Event
) -> None:
    blank = stored(draft, "score_sheets", 1)
    blank_pack = stored(draft, "round_pack", 1)
    rounds.open_round(td, draft.round_set.get(number=1))
    record_pass(td, draft, 1)
    filled = stored(draft, "score_sheets", 1)
    assert freshness(draft, blank) == Freshness(CURRENT)  # it prints no results
    assert freshness(draft, blank_pack) == Freshness(CURRENT)
    record_pass(td, draft, 1)
    assert freshness(draft, filled) == Freshness(
        OUT_OF_DATE, ("Results of round 1 were entered or corrected after this file was made.",)
    )
    assert freshness(draft, blank) == Freshness(CURRENT)


def test_it_follows_the_score_table_only_where_it_is_printed(td: User, draft: Event) -> None:
    files = every_kind(draft)
    Event.objects.filter(pk=draft.pk).update(ruleset_name="flemish")
    found = states(draft, files)
    assert found["score_sheets"] == Freshness(OUT_OF_DATE, (RULES_CHANGED,))
    assert found["round_pack"] == Freshness(OUT_OF_DATE, (RULES_CHANGED,))
    # The summary prints the ruleset's title, which is another ruleset's now.
    assert found["summary"].state == OUT_OF_DATE
    for kind in ("hand_records", "dealing_slips", "dlm", "pbn", "guide_cards", "table_cards"):
        assert found[kind] == Freshness(CURRENT), kind


def test_it_compares_a_file_made_with_the_parts_of_before(td: User, draft: Event) -> None:
    # Files made before the event's details were split into name, date and venue stored "event".
    legacy: dict[str, Any] = {"version": 1, "parts": {}}
    report = stored(draft, "hand_records", None)
    assert report.fingerprint is not None
    parts = dict(report.fingerprint["parts"])
    parts.pop("name")
    parts.pop("date")
    parts.update(fingerprints.digests(draft, ["event"]))
    legacy["parts"] = parts
    ReportFile.objects.filter(pk=report.pk).update(fingerprint=legacy)
    report.refresh_from_db()
    assert freshness(draft, report) == Freshness(CURRENT)
    Event.objects.filter(pk=draft.pk).update(venue="Parochiezaal")
    assert freshness(draft, report) == Freshness(OUT_OF_DATE, (EVENT_CHANGED,))


def test_it_digests_what_is_printed_the_same_in_every_language(draft: Event) -> None:
    # A file is made in its own language and checked in the TD's: the digests must agree.
    keys = ["score_table", "ruleset_title", "standings", "leaders", "progress", "names:1"]
    made = []
    for language in ("nl", "fr", "en"):
        with translation.override(language):
            made.append(fingerprints.digests(draft, keys))
    assert made[0] == made[1] == made[2]
