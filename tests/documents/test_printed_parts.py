"""Each kind of document is out of date only when something it prints has changed."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from documents import freshness as staleness
from documents.freshness import CURRENT, OUT_OF_DATE, Freshness
from documents.models import ReportFile
from tests.documents.conftest import freshness, record_pass, stored
from tournaments.models import AuditAction, AuditEntry, Event
from tournaments.services import audit, events, rounds
from tournaments.services.events import EventSettings

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


def change_settings(td: User, event: Event, **changes: Any) -> None:
    """The event's settings changed by the TD, as the settings page does."""
    now = {
        f.name: getattr(event, f.name)
        for f in dataclasses.fields(EventSettings)
        if f.name != "scoring_table_version_id"
    }
    events.update_event(td, event, EventSettings(**{**now, **changes}))


def test_it_follows_the_venue_only_where_it_is_printed(td: User, draft: Event) -> None:
    files = every_kind(draft)
    change_settings(td, draft, venue="Parochiezaal")
    prints_venue = {"score_sheets", "round_pack", "pbn", "standings", "score_cards", "summary"}
    out_of_date(states(draft, files), prints_venue, EVENT_CHANGED)


def test_it_follows_the_date_on_everything_but_the_dealing_machine_file(
    td: User, draft: Event
) -> None:
    files = every_kind(draft)
    change_settings(td, draft, date=draft.date.replace(day=10))
    out_of_date(states(draft, files), {kind for kind, _r in EVERY_KIND} - {"dlm"}, EVENT_CHANGED)


def test_it_follows_the_comparison_only_on_the_standings_and_the_summary(
    td: User, draft: Event
) -> None:
    files = every_kind(draft)
    change_settings(td, draft, comparison=Event.Comparison.RAW)
    found = states(draft, files)
    # The standings print the method under their title, and the totals in its terms: the
    # standings changed, and with them the totals on the score cards.
    standings_changed = Freshness(OUT_OF_DATE, ("The standings changed after this file was made.",))
    assert found.pop("standings") == standings_changed
    assert found.pop("score_cards") == standings_changed
    # The summary names the comparison, and prints the standings' leaders.
    out_of_date(found, {"summary"}, RULES_CHANGED, standings_changed.changes[0])


def test_a_new_tie_break_order_follows_on_everything_that_prints_the_standings(
    td: User, draft: Event
) -> None:
    files = every_kind(draft)
    change_settings(td, draft, tie_break=["total", "tops", "boards_won"])
    out_of_date(
        states(draft, files),
        {"standings", "score_cards", "summary"},
        "The standings changed after this file was made.",
    )


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
    change_settings(td, draft, ruleset_name="flemish")
    found = states(draft, files)
    assert found["score_sheets"] == Freshness(OUT_OF_DATE, (RULES_CHANGED,))
    assert found["round_pack"] == Freshness(OUT_OF_DATE, (RULES_CHANGED,))
    # The summary prints the ruleset's title, which is another ruleset's now.
    assert found["summary"].state == OUT_OF_DATE
    for kind in ("hand_records", "dealing_slips", "dlm", "pbn", "guide_cards", "table_cards"):
        assert found[kind] == Freshness(CURRENT), kind


def test_it_keeps_every_file_up_to_date_when_the_settings_are_saved_unchanged(
    td: User, draft: Event
) -> None:
    files = every_kind(draft)
    change_settings(td, draft)
    out_of_date(states(draft, files), set())


def test_it_shows_a_file_as_out_of_date_when_an_entry_below_its_mark_arrived_late(
    td: User, draft: Event
) -> None:
    # On PostgreSQL an entry takes its id when written and shows when committed: a change
    # committed just after the file's snapshot may have an id below the newest one it held.
    report = stored(draft, "standings", None)
    ReportFile.objects.filter(pk=report.pk).update(audit_count=(report.audit_count or 0) - 1)
    report.refresh_from_db()
    assert freshness(draft, report) == Freshness(
        OUT_OF_DATE,
        (
            "Changes were saved while this file was being made: make it again to be sure it "
            "shows them.",
        ),
    )


def test_it_reads_only_what_the_log_says_of_the_settings_changed(td: User, draft: Event) -> None:
    # An entry of the settings that does not say which changed: anything may have.
    report = stored(draft, "dlm", None)
    audit.record(td, AuditAction.EVENT_UPDATE, "changed things", event=draft, obj=draft)
    assert freshness(draft, report).state == OUT_OF_DATE


# --- the table -------------------------------------------------------------------------------

PRINTS_NOTHING = {
    AuditAction.EVENT_CREATE,  # before any document
    AuditAction.EVENT_ADD_DIRECTOR,
    AuditAction.RESULT_CONFIRM,  # a result's status is printed nowhere
    AuditAction.RESULT_CONFIRM_AT_TABLE,
    AuditAction.RESULT_KEYING_DIFFERS,
    AuditAction.RESULT_KEEP_KEYING,
    AuditAction.RESULT_SHEET,  # the points written on the sheet, kept beside the result
    AuditAction.RESULT_SHEET_ACCEPT,
    AuditAction.TOKEN_CREATE,
    AuditAction.TOKEN_REVOKE,
    AuditAction.ACCESS_ASSISTANT_ADD,
    AuditAction.ACCESS_ASSISTANT_REMOVE,
    AuditAction.ACCESS_ACCOUNT_CREATE,
    AuditAction.ACCESS_DIRECTOR_ADD,
    AuditAction.ACCESS_DIRECTOR_REMOVE,
    AuditAction.ACCESS_MEMBER_ADD,
    AuditAction.RATINGS_COMPUTE,
    AuditAction.ANALYSIS_QUEUE,  # the tables count once stored (analysis.done)
    AuditAction.REPORT_REQUEST,
    AuditAction.REPORT_REGENERATE,
    AuditAction.SCORING_TABLE_CREATE,  # a club's table: an event prints its own copy
    AuditAction.SCORING_TABLE_SAVE_VERSION,
    AuditAction.SCORING_TABLE_RENAME,
}


def test_every_action_is_either_in_the_table_or_prints_nothing() -> None:
    # A new action must be placed: in the table, or here with why it changes no document.
    assert set(AuditAction.values) - set(staleness.CHANGES) == {str(a) for a in PRINTS_NOTHING}
    assert set(staleness.CHANGES) - set(AuditAction.values) == set()
    assert set(staleness.PRINTS) == set(ReportFile.Kind.values)


def actions_for(kind: str) -> set[str]:
    """The actions that can make a document of ``kind`` out of date, from the table."""
    topics = staleness.PRINTS[kind]
    found = {
        action
        for action, change in staleness.CHANGES.items()
        if (change.whole | change.per_round) & topics
    }
    if any((change.whole | change.per_round) & topics for change in staleness.SETTINGS.values()):
        found.add(AuditAction.EVENT_UPDATE)
    return found


def test_the_table_names_what_makes_each_kind_out_of_date() -> None:
    a = AuditAction
    settings_and_backups = {a.EVENT_UPDATE, a.EVENT_IMPORT}
    dealt = {a.DEALS_GENERATE, a.DEALS_IMPORT}
    seated = {
        a.MOVEMENT_GENERATE, a.MOVEMENT_REPLAN, a.ENTRY_WITHDRAW, a.ENTRY_REINSTATE,
        a.ENTRY_LATE, a.ENTRY_REMOVE, a.SEAT_ABSENT, a.SEAT_ARRIVED, a.SEAT_SUBSTITUTE,
        a.ENTRY_EDIT,
    }  # fmt: skip
    results = {a.RESULT_RECORD, a.RESULT_CORRECT, a.RESULT_ARTIFICIAL_TABLE, a.TABLE_ARTIFICIAL}
    ranked = {
        *results, a.PENALTY_RECORD, a.PENALTY_CANCEL, a.PENALTY_FINE, a.BYE_SCORE,
        a.TABLE_SIT_OUT, a.ENTRY_WITHDRAW, a.ENTRY_REINSTATE, a.ENTRY_LATE, a.ENTRY_REMOVE,
        a.SEAT_ABSENT, a.SEAT_ARRIVED, a.SEAT_SUBSTITUTE, a.ENTRY_REGISTER, a.ENTRY_IMPORT,
        a.ENTRY_EDIT,
    }  # fmt: skip
    devices = {a.ROUND_DEVICE_KEYS, a.ROUND_DEVICE_PINS}
    hands = {*dealt, a.EVENT_FINISH, staleness.ANALYSIS_DONE}
    assert actions_for("score_sheets") == settings_and_backups | seated | results
    assert actions_for("round_pack") == (settings_and_backups | seated | results | devices | hands)
    assert actions_for("hand_records") == settings_and_backups | hands | {a.MOVEMENT_GENERATE,
        a.MOVEMENT_REPLAN}  # fmt: skip
    assert actions_for("dealing_slips") == settings_and_backups | dealt | {a.MOVEMENT_GENERATE,
        a.MOVEMENT_REPLAN}  # fmt: skip
    assert actions_for("guide_cards") == settings_and_backups | seated
    assert actions_for("table_cards") == settings_and_backups | seated | devices
    assert actions_for("standings") == settings_and_backups | ranked
    assert actions_for("score_cards") == settings_and_backups | ranked | {
        a.ENTRY_REGISTER, a.ENTRY_IMPORT,
    }  # fmt: skip
    assert actions_for("summary") >= settings_and_backups | dealt | ranked | {
        a.ROUND_OPEN, a.ROUND_CLOSE, a.ROUND_CLOSE_ANYWAY, a.ROUND_REOPEN, a.EVENT_START,
        a.EVENT_FINISH,
    }  # fmt: skip
    assert not actions_for("summary") & (devices | {staleness.ANALYSIS_DONE})


def test_it_reads_the_round_each_action_names() -> None:
    def rounds(action: str, **entry: Any) -> set[int] | None:
        """The rounds of an event of ten the entry names; ``None`` for every round."""
        found = staleness.CHANGES[action].rounds(AuditEntry(action=action, **entry))
        return None if found is None else {n for n in range(1, 11) if n in found}

    a = AuditAction
    assert rounds(a.RESULT_RECORD, params={"round": 2, "table": 1, "board": 5}) == {2}
    assert rounds(a.RESULT_ARTIFICIAL_TABLE, params={"round": 3}) == {3}
    assert rounds(a.MOVEMENT_REPLAN, params={"first": 4, "last": 6}) == {4, 5, 6}
    assert rounds(a.SEAT_ABSENT, data={"rounds": [2, 3]}) == {2, 3}
    withdrawal = {"vacated": [{"round": 4, "table": 2, "seat": "N"}], "byes": [5]}
    assert rounds(a.ENTRY_WITHDRAW, data=withdrawal) == {4, 5}
    assert rounds(a.ENTRY_REINSTATE, params={"round": 3}) == set(range(4, 11))  # after round 3
    assert rounds(a.ENTRY_LATE, params={"round": 3}) == set(range(3, 11))  # from round 3

    # A late arrival changes the tables only when they sit at an extra one.
    def tables(how: str) -> set[str]:
        entry = AuditEntry(action=a.ENTRY_LATE, params={"round": 3}, data={"how": how})
        return {t for found in staleness.changes_of(Event(), entry) for t in found.per_round}

    assert staleness.TABLES in tables("extra_table")
    assert staleness.TABLES not in tables("vacant")
    # Where an entry does not say its round, it concerns every round.
    assert rounds(a.MOVEMENT_GENERATE) is None
    assert rounds(a.ENTRY_EDIT, params={"number": 3}) is None
    assert rounds(a.RESULT_RECORD, params={}) is None
