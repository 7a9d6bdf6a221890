"""API v1, the read side: every resource, and what each role sees of it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from documents.models import ReportFile
from documents.tasks import build_report
from engine.movements import MAX_PLAYERS
from tests.api.support import assistant_of, client_for, close, key_round, with_token
from tests.conftest import as_a_test
from tests.tournaments.conftest import make_settings, start_event
from tournaments.models import Club, Event, Series, Table
from tournaments.services import events

ERROR_KEYS = {"code", "message", "field", "params"}


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "api-event", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """16 players in play, round 1 open (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def draft(td: User) -> Event:
    return events.create_event(td, make_settings(slug="next-week", name="Next week"))


@pytest.fixture
def carol(running: Event, draft: Event) -> User:
    """Assists both events; not staff."""
    user = assistant_of(running)
    draft.assistants.add(user)
    return user


def slugs(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return sorted(e["slug"] for e in response.json()["results"])


# --- events -----------------------------------------------------------------------------------


def test_the_public_sees_events_in_play_and_not_drafts(
    client: Client, running: Event, draft: Event
) -> None:
    assert slugs(client.get("/api/v1/events/")) == ["api-event"]
    assert client.get("/api/v1/events/next-week/").status_code == 404
    event = client.get("/api/v1/events/api-event/").json()
    assert event["status"] == "running"
    assert event["deal_key"] is None
    assert event["deal_commitment"] == running.deal_commitment


def test_directors_and_assistants_see_their_drafts(
    td: User, carol: User, outsider: User, draft: Event, running: Event
) -> None:
    assert slugs(client_for(td).get("/api/v1/events/")) == ["api-event", "next-week"]
    assert slugs(client_for(carol).get("/api/v1/events/")) == ["api-event", "next-week"]
    assert slugs(client_for(outsider).get("/api/v1/events/")) == ["api-event"]
    assert client_for(carol).get("/api/v1/events/next-week/").status_code == 200
    assert client_for(outsider).get("/api/v1/events/next-week/").status_code == 404


def test_a_read_only_token_sees_what_the_public_sees(
    td: User, draft: Event, running: Event
) -> None:
    assert slugs(with_token(td, "read").get("/api/v1/events/")) == ["api-event"]
    assert slugs(with_token(td, "direct").get("/api/v1/events/")) == ["api-event", "next-week"]
    # A token for one event sees no other event's draft.
    assert slugs(with_token(td, "direct", running).get("/api/v1/events/")) == ["api-event"]


def test_a_revoked_or_unknown_token_is_refused(client: Client, running: Event) -> None:
    response = client_for(authorization="Bearer troef_nothing").get("/api/v1/events/")
    assert response.status_code == 401
    assert set(response.json()) == ERROR_KEYS
    assert response.json()["code"] == "authentication_failed"


# --- clubs, players and entries -------------------------------------------------------------


def test_clubs_are_public(client: Client, db: None) -> None:
    club = Club.objects.create(name="De Kroon", city="Gent")
    listed = client.get("/api/v1/clubs/").json()["results"]
    assert listed == [{"id": club.pk, "name": "De Kroon", "city": "Gent"}]
    assert client.get(f"/api/v1/clubs/{club.pk}/").json()["name"] == "De Kroon"
    assert client.get(f"/api/v1/clubs/{club.pk + 1}/").status_code == 404


def test_the_player_register_is_for_directors_and_assistants(
    client: Client, td: User, carol: User, outsider: User, running: Event
) -> None:
    assert client.get("/api/v1/players/").status_code == 401
    refused = client_for(outsider).get("/api/v1/players/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert with_token(td, "read").get("/api/v1/players/").status_code == 403
    for user in (td, carol):
        players = client_for(user).get("/api/v1/players/").json()
        assert players["count"] == 16
        assert set(players["results"][0]) == {
            "id",
            "first_name",
            "last_name",
            "club",
            "federation_number",
        }
    one = players["results"][0]["id"]
    assert client_for(carol).get(f"/api/v1/players/{one}/").status_code == 200
    assert client_for(outsider).get(f"/api/v1/players/{one}/").status_code == 403


def test_entries_are_public_once_the_event_is_not_a_draft(
    client: Client, carol: User, running: Event, draft: Event
) -> None:
    entries = client.get("/api/v1/events/api-event/entries/").json()
    assert entries["count"] == 16
    assert entries["results"][0] == {
        "number": 1,
        "name": "Player1 Number1",
        "club": None,
        "status": "active",
        "role": "player",
        "first_round": 1,
        "withdrawn_after_round": None,
    }
    assert client.get("/api/v1/events/next-week/entries/").status_code == 404
    assert client_for(carol).get("/api/v1/events/next-week/entries/").status_code == 200


# --- rounds, tables and boards -----------------------------------------------------------------


def test_rounds_and_tables_show_the_seats_and_boards(client: Client, running: Event) -> None:
    rounds = client.get("/api/v1/events/api-event/rounds/").json()["results"]
    assert [(r["number"], r["status"], r["tables"]) for r in rounds] == [
        (1, "open", 4),
        (2, "planned", 4),
        (3, "planned", 4),
        (4, "planned", 4),
    ]
    assert client.get("/api/v1/events/api-event/rounds/1/").json()["status"] == "open"
    assert client.get("/api/v1/events/api-event/rounds/9/").status_code == 404
    tables = client.get("/api/v1/events/api-event/rounds/1/tables/").json()
    assert tables["count"] == 4
    table = client.get("/api/v1/events/api-event/rounds/1/tables/2/").json()
    assert sorted(s["seat"] for s in table["seatings"]) == ["E", "N", "S", "W"]
    seated = Table.objects.get(round__event=running, round__number=1, number=2)
    north = seated.seatings.get(seat="N").entry
    assert north is not None
    assert {
        "seat": "N",
        "entry": north.number,
        "name": north.player.full_name,
        "replaces": None,
    } in (table["seatings"])
    assert table["boards"] == [1, 2, 3, 4]
    assert client.get("/api/v1/events/api-event/rounds/1/tables/9/").status_code == 404


def test_only_directors_see_a_table_devices_link_and_pin(
    client: Client, td: User, carol: User, running: Event
) -> None:
    Table.objects.filter(round__event=running, round__number=1, number=1).update(
        device_key="k" * 32, device_pin="4711"
    )
    url = "/api/v1/events/api-event/rounds/1/tables/1/"
    for anyone in (client, client_for(carol), with_token(td, "enter")):
        body = anyone.get(url).json()
        assert body["device"] is None
        assert "4711" not in str(body)
        assert "k" * 32 not in str(body)
    device = client_for(td).get(url).json()["device"]
    assert device == {"link": f"http://testserver/t/{'k' * 32}/", "pin": "4711"}


def test_the_cards_are_hidden_until_every_round_playing_them_is_closed(
    client: Client, td: User, carol: User, running: Event
) -> None:
    def shown(anyone: Client) -> list[int]:
        boards = anyone.get("/api/v1/events/api-event/boards/?page_size=100").json()["results"]
        for board in boards:
            assert (board["deal"] is not None) == board["cards_shown"]
            assert (board["deal_index"] is not None) == board["cards_shown"]
        return [b["number"] for b in boards if b["cards_shown"]]

    assert shown(client) == []
    assert shown(client_for(carol)) == []
    assert shown(client_for(td)) == list(range(1, 17))
    assert shown(with_token(td, "read")) == []
    one = client.get("/api/v1/events/api-event/boards/1/").json()
    assert one == {
        "number": 1,
        "dealer": "N",
        "cards_shown": False,
        "trump_card": None,
        "deal": None,
        "deal_index": None,
    }
    close(td, running, 1)
    assert shown(client) == [1, 2, 3, 4]
    assert client.get("/api/v1/events/api-event/boards/1/").json()["deal"] == (
        running.boards.get(number=1).deal
    )
    assert client.get("/api/v1/events/api-event/boards/5/").json()["deal"] is None
    assert client.get("/api/v1/events/api-event/boards/99/").status_code == 404
    # The dealing key stays hidden until the director reveals it.
    assert client.get("/api/v1/events/api-event/").json()["deal_key"] is None


# --- standings and rankings --------------------------------------------------------------------


def test_the_standings_name_their_comparison_and_rank_one_round(
    client: Client, td: User, running: Event
) -> None:
    assert key_round(td, running, 1) == 16
    whole = client.get("/api/v1/events/api-event/standings/").json()
    assert whole["comparison"] == "matchpoints"
    assert whole["round"] is None
    assert whole["rounds"] == [1]
    assert whole["results"] == 16
    assert len(whole["rows"]) == 16
    assert {row["place"] for row in whole["rows"]} != {""}
    one = client.get("/api/v1/events/api-event/standings/?round=1").json()
    assert one["round"] == 1
    assert [r["total"] for r in one["rows"]] == [r["rounds"]["1"] for r in one["rows"]]
    figures = [float(r["total"]) for r in one["rows"]]
    assert figures == sorted(figures, reverse=True)
    assert client.get("/api/v1/events/api-event/standings/?round=2").json()["rows"] == []


@pytest.mark.parametrize("value", ["0", "x", "5", "-1", "1.5"])
def test_a_bad_round_for_the_standings_is_a_400(client: Client, running: Event, value: str) -> None:
    response = client.get(f"/api/v1/events/api-event/standings/?round={value}")
    assert response.status_code == 400
    assert response.json()["field"] == "round"


def test_the_club_ranking_counts_the_best_members(client: Client, td: User, running: Event) -> None:
    club = Club.objects.create(name="De Kroon")
    for entry in running.entries.filter(number__lte=3):
        entry.player.club = club
        entry.player.save()
    key_round(td, running, 1)
    ranking = client.get("/api/v1/events/api-event/clubs/?best=2").json()
    assert ranking["best_of"] == 2
    assert [(r["club"], len(r["members"]), r["complete"]) for r in ranking["rows"]] == [
        ("De Kroon", 2, True)
    ]
    assert client.get("/api/v1/events/api-event/clubs/?best=0").status_code == 400
    assert client.get("/api/v1/events/next-week/clubs/").status_code == 404


def test_a_series_lists_its_events_and_ranks_the_players(
    client: Client, td: User, running: Event, draft: Event
) -> None:
    series = Series.objects.create(slug="winter", name="Winter", best_of=2)
    series.events.add(running, draft)
    key_round(td, running, 1)
    listed = client.get("/api/v1/series/").json()["results"]
    assert listed == [{"slug": "winter", "name": "Winter", "best_of": 2, "events": ["api-event"]}]
    table = client.get("/api/v1/series/winter/standings/").json()
    assert [e["slug"] for e in table["events"]] == ["api-event"]
    assert len(table["rows"]) == 16
    assert client.get("/api/v1/series/summer/standings/").status_code == 404


# --- rulesets and movements ----------------------------------------------------------------


def test_it_lists_and_shows_the_built_in_rulesets(client: Client, db: None) -> None:
    listed = client.get("/api/v1/rulesets/").json()
    assert {
        "name": "whisthub",
        "game": "kleurenwiezen",
        "title": "Whisthub standard (zero-sum)",
    } in (listed["results"])
    shown = client.get("/api/v1/rulesets/whisthub/").json()
    assert shown["balancing"] is True
    assert "solo" in shown["contracts"]
    assert shown["summary"][0] == {"contract": "accept 8", "made": "+8", "failed": "-11"}
    assert shown["payouts"]["columns"] == list(range(14))
    assert 'name = "whisthub"' in shown["document"]
    missing = client.get("/api/v1/rulesets/nonesuch/")
    assert missing.status_code == 404
    assert "nonesuch" in missing.json()["message"]


def test_it_checks_a_custom_ruleset_and_names_the_fault(client: Client, db: None) -> None:
    document = client.get("/api/v1/rulesets/pagat/").json()["document"]
    custom = document.replace('name = "pagat"', 'name = "our-club"')
    checked = client.post("/api/v1/rulesets/validate/", {"document": custom}, "application/json")
    assert checked.status_code == 200
    assert checked.json()["ok"] is True
    assert checked.json()["name"] == "our-club"
    broken = client.post(
        "/api/v1/rulesets/validate/", {"document": "name = 'x'\n[[["}, "application/json"
    )
    assert broken.status_code == 400
    assert broken.json()["code"] == "bad_ruleset"
    assert broken.json()["field"] == "document"
    assert "line 2" in broken.json()["message"]
    empty = client.post("/api/v1/rulesets/validate/", {}, "application/json")
    assert empty.status_code == 400
    assert empty.json()["field"] == "document"


def test_it_scores_a_result_line_under_a_ruleset(client: Client, db: None) -> None:
    scored = client.post(
        "/api/v1/rulesets/whisthub/score/", {"result": "NE 9H 10"}, "application/json"
    )
    assert scored.status_code == 200
    assert scored.json() == {
        "ruleset": "whisthub",
        "notation": "NE 9H 10",
        "scores": {"N": 14, "E": 14, "S": -14, "W": -14},
    }
    bad = client.post("/api/v1/rulesets/whisthub/score/", {"result": "NE 9H"}, "application/json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "notation"
    assert bad.json()["field"] == "result"
    assert "column 6" in bad.json()["message"]
    not_allowed = client.post(
        "/api/v1/rulesets/whisthub/score/", {"result": "N pic 1"}, "application/json"
    )
    assert not_allowed.status_code == 400
    assert not_allowed.json()["code"] == "invalid_result"


def test_it_previews_a_movement_for_signed_in_users(client: Client, outsider: User) -> None:
    url = "/api/v1/movements/preview/?players=9&rounds=3&tables_of_five=true"
    assert client.get(url).status_code == 401
    plan = client_for(outsider).get(url).json()
    assert plan["players"] == 9
    assert [len(r["tables"]) for r in plan["rounds"]] == [2, 2, 2]
    assert all("X" in r["tables"][0] for r in plan["rounds"])
    assert plan["quality"]["repeats"] >= 0
    too_few = client_for(outsider).get("/api/v1/movements/preview/?players=3&rounds=2")
    assert too_few.status_code == 400
    assert too_few.json()["field"] == "players"


def test_it_previews_a_movement_for_a_thousand_players_in_a_moment(outsider: User) -> None:
    started = time.perf_counter()
    response = client_for(outsider).get("/api/v1/movements/preview/?players=1000&rounds=10")
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, response.content[:300]
    plan = response.json()
    assert plan["players"] == 1000
    assert [len(r["tables"]) for r in plan["rounds"]] == [250] * 10
    for played in plan["rounds"]:
        seated = sorted(t[seat] for t in played["tables"] for seat in "NESW")
        assert seated == list(range(1, 1001))
    assert plan["quality"]["repeats"] == 0
    # It takes about half a second; the bound leaves room for a slow machine.
    assert elapsed < 5


def test_it_refuses_a_preview_for_more_players_than_the_engine_plans(outsider: User) -> None:
    url = f"/api/v1/movements/preview/?players={MAX_PLAYERS + 1}&rounds=2"
    refused = client_for(outsider).get(url)
    assert refused.status_code == 400
    assert set(refused.json()) == ERROR_KEYS
    assert refused.json()["code"] == "invalid"
    assert refused.json()["field"] == "players"
    assert str(MAX_PLAYERS) in refused.json()["message"]


# --- report jobs -------------------------------------------------------------------------------


def test_report_jobs_are_for_directors_and_assistants(
    client: Client,
    td: User,
    carol: User,
    outsider: User,
    running: Event,
    tmp_path: Path,
    settings: Any,
) -> None:
    settings.MEDIA_ROOT = tmp_path
    url = "/api/v1/events/api-event/reports/"
    assert client.get(url).status_code == 401
    assert client_for(outsider).get(url).status_code == 403
    assert (
        client_for(outsider).post(url, {"kind": "standings"}, "application/json").status_code == 403
    )
    # An assistant prints the sheets, not what shows the cards before play.
    assert client_for(carol).get(url).json()["count"] == 0
    hands = client_for(carol).post(url, {"kind": "hand_records", "round": 1}, "application/json")
    assert hands.status_code == 403
    director = client_for(td)
    started = director.post(url, {"kind": "score_sheets", "round": 1}, "application/json")
    assert started.status_code == 201, started.content
    job = started.json()
    assert (job["kind"], job["round"], job["status"], job["download"]) == (
        "score_sheets",
        1,
        "queued",
        None,
    )
    progress = director.get(f"{url}{job['id']}/").json()
    assert progress["status"] == "queued"
    assert director.get(f"{url}{job['id']}/download/").status_code == 404
    build_report(job["id"])
    done = director.get(f"{url}{job['id']}/").json()
    assert (done["status"], done["progress"]) == ("done", 100)
    assert done["download"].endswith(f"/reports/{job['id']}/download/")
    file = director.get(f"{url}{job['id']}/download/")
    assert file.status_code == 200
    assert file["Content-Type"] == "application/pdf"
    assert file.content[:5] == b"%PDF-"
    assert client_for(carol).get(f"{url}{job['id']}/download/").status_code == 200
    assert director.get(url).json()["count"] == ReportFile.objects.count() == 1
    wrong = director.post(url, {"kind": "score_sheets", "round": 9}, "application/json")
    assert wrong.status_code == 400
    assert set(wrong.json()) == ERROR_KEYS


# --- one error shape ---------------------------------------------------------------------------


def test_every_refusal_has_the_one_error_shape(client: Client, running: Event) -> None:
    for url, status in [
        ("/api/v1/events/nothing/", 404),
        ("/api/v1/events/?page=9", 404),
        ("/api/v1/events/?page=nine", 400),
        ("/api/v1/players/", 401),
    ]:
        response = client.get(url)
        assert response.status_code == status, url
        assert set(response.json()) == ERROR_KEYS, url


def test_a_missing_object_is_named_in_the_callers_language(running: Event) -> None:
    french = Client(headers={"accept-language": "fr"})
    english = client_for()
    assert english.get("/api/v1/events/nothing/").json()["message"] == (
        "There is no event at this address."
    )
    assert english.get("/api/v1/events/api-event/rounds/9/tables/").json()["message"] == (
        "This event has no such round."
    )
    assert french.get("/api/v1/events/api-event/boards/99/").json()["message"] == "Non trouvé."
