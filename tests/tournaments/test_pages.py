"""The TD's pages, driven with the Django test client as a TD would click through them."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.tournaments.conftest import TEST_KEY, make_settings, register
from tournaments.models import AuditEntry, Entry, Event, Result, Round, Seating
from tournaments.services import deals, events, rounds, seating


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def test_it_asks_for_a_sign_in_before_showing_an_event(client: Client, event: Event) -> None:
    response = client.get(f"/events/{event.slug}/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_it_refuses_a_user_who_does_not_direct_the_event(
    client: Client, outsider: User, event: Event
) -> None:
    client.force_login(outsider)
    assert client.get(f"/events/{event.slug}/").status_code == 403
    assert client.post(f"/events/{event.slug}/deals/").status_code == 403
    assert not event.boards.exists()


def test_a_td_creates_an_event_from_the_form(td_client: Client) -> None:
    response = td_client.post(
        "/events/new/",
        {
            "name": "Herfsttornooi",
            "date": "2026-11-28",
            "venue": "Gent",
            "slug": "",
            "language": "nl",
            "game": "kleurenwiezen",
            "ruleset_name": "pagat",
            "ruleset_toml": "",
            "comparison": "matchpoints",
            "rounds": 5,
            "boards_per_round": 6,
            "seating_mode": "byes",
            "board_mode": "same",
            "tie_break": "total, boards_won",
        },
    )
    event = Event.objects.get(name="Herfsttornooi")
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.slug}/"
    assert event.tie_break == ["total", "boards_won"]
    assert event.round_set.count() == 5


def test_the_event_form_shows_the_score_tables(td_client: Client) -> None:
    response = td_client.get("/events/new/")
    assert response.status_code == 200
    assert "Whisthub standard" in response.content.decode()
    assert "solo slim" in response.content.decode()
    # Troel's level is the play's (8, or 9 after a trump switch): a row for each.
    assert "<td>troel 8</td><td>+16</td><td>-16</td>" in response.content.decode()
    assert "<td>troel 9</td>" in response.content.decode()


def test_the_event_form_names_a_broken_custom_ruleset(td_client: Client) -> None:
    response = td_client.post(
        "/events/new/",
        {
            "name": "X",
            "date": "2026-11-28",
            "language": "nl",
            "game": "kleurenwiezen",
            "ruleset_name": "custom",
            "ruleset_toml": "name = 5",
            "comparison": "raw",
            "rounds": 2,
            "boards_per_round": 2,
            "seating_mode": "byes",
            "board_mode": "same",
        },
    )
    assert response.status_code == 200
    assert "ruleset document is broken" in response.content.decode()
    assert not Event.objects.filter(name="X").exists()


def test_a_csv_import_reports_bad_lines_and_keeps_the_good_ones(
    td_client: Client, event: Event
) -> None:
    upload = SimpleUploadedFile(
        "players.csv", "first_name,last_name\nAn,Peeters\n,\nÉmilie,Dubois\n".encode()
    )
    response = td_client.post(f"/events/{event.slug}/players/", {"csv-file": upload})
    page = response.content.decode()
    assert response.status_code == 200
    assert list(event.entries.values_list("player__last_name", flat=True)) == ["Peeters", "Dubois"]
    assert "Émilie" in page


def test_the_movement_page_shows_ten_rounds_for_32_players_without_a_repeat(
    td_client: Client, td: User
) -> None:
    event = events.create_event(td, make_settings(slug="thirty-two", rounds=10))
    register(td, event, 32)
    assert td_client.post(f"/events/{event.slug}/movement/", {"seed": 3}).status_code == 302
    page = td_client.get(f"/events/{event.slug}/movement/").content.decode()
    assert "No two players meet twice." in page
    assert event.round_set.count() == 10


def test_a_td_prepares_and_runs_a_round_through_the_pages(
    td_client: Client, td: User, event: Event
) -> None:
    register(td, event, 16)
    assert td_client.post(f"/events/{event.slug}/movement/", {"seed": 0}).status_code == 302
    page = td_client.get(f"/events/{event.slug}/movement/").content.decode()
    assert "No two players meet twice." in page
    deals.generate_deals(td, event, key=TEST_KEY)
    response = td_client.post(f"/events/{event.slug}/rounds/1/open/")
    assert response.status_code == 302
    assert Round.objects.get(event=event, number=1).status == Round.Status.OPEN
    entry_page = td_client.get(f"/events/{event.slug}/rounds/1/tables/1/")
    assert entry_page.status_code == 200
    board = event.boards.get(number=1)
    checked = td_client.post(
        f"/api/v1/events/{event.slug}/check/",
        json.dumps({"board": 1, "text": "pass"}),
        content_type="application/json",
    )
    assert checked.json()["scores"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    where = {"round": 1, "table": 1, "board": board.number}
    saved = td_client.post(
        f"/api/v1/events/{event.slug}/results/",
        json.dumps({**where, "text": "pass", "version": 0, "sheet": {"N": "3"}}),
        content_type="application/json",
    )
    assert saved.status_code == 201
    assert saved.json()["sheet_mismatch"] == ["N"]
    assert Result.objects.get(board=board).notation == "pass"
    refused = td_client.post(
        f"/api/v1/events/{event.slug}/results/",
        json.dumps({**where, "text": "NE 15H 3", "version": 1}),
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["field"] == "notation"
    overview = td_client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "1 / 4" in overview
    history = td_client.get(f"/events/{event.slug}/rounds/1/tables/1/boards/1/")
    assert "pass" in history.content.decode()


def test_withdrawing_a_player_from_the_players_page_leaves_their_later_seats_vacant(
    td_client: Client, td: User, event: Event, sixteen: list[Entry]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    response = td_client.post(
        f"/events/{event.slug}/players/3/withdraw/", {"reason": "went home ill"}
    )
    assert response.status_code == 302
    entry = Entry.objects.get(event=event, number=3)
    assert entry.status == Entry.Status.WITHDRAWN
    assert AuditEntry.objects.get(action="entry.withdraw").reason == "went home ill"
    assert not AuditEntry.objects.filter(action="movement.replan").exists()
    vacant = Seating.objects.filter(round__event=event, entry=None)
    assert set(vacant.values_list("replaces", flat=True)) == {entry.pk}
    assert set(vacant.values_list("round__number", flat=True)) == {2, 3, 4}


def test_the_public_standings_need_no_sign_in(
    client: Client, td: User, event: Event, sixteen: list[Entry]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    assert client.get(f"/events/{event.slug}/standings/").status_code == 200
    csv = client.get(f"/events/{event.slug}/standings.csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().splitlines()[0].startswith("place,player,name,club,total")
    as_json = client.get(f"/events/{event.slug}/standings.json")
    again = client.get(f"/events/{event.slug}/standings.json", HTTP_IF_NONE_MATCH=as_json["ETag"])
    assert again.status_code == 304


def test_a_draft_event_has_no_public_standings(client: Client, event: Event) -> None:
    assert client.get(f"/events/{event.slug}/standings/").status_code == 404


@pytest.mark.django_db
def test_every_example_on_the_notation_page_parses(client: Client) -> None:
    import re

    from engine.notation import parse_result_line

    page = client.get("/help/notation/").content.decode()
    examples = re.findall(r"<td><code>([^<]+)</code></td></tr>", page)
    assert "NE 9H 10" in examples
    for example in examples:
        game = "israeli" if "NT" in example else "kleurenwiezen"
        assert parse_result_line(example, game=game) is not None


def test_a_td_gives_an_artificial_score_from_the_board_page(
    td_client: Client, td: User, event: Event, sixteen: list[Entry]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    url = f"/events/{event.slug}/rounds/1/tables/1/boards/1/"
    assert "Artificial score" in td_client.get(url).content.decode()
    response = td_client.post(
        url + "ruling/",
        {
            "action": "artificial",
            "award_N": "average_plus",
            "award_E": "average",
            "award_S": "average",
            "award_W": "average_minus",
            "reason": "cards misboarded",
        },
    )
    assert response.status_code == 302
    result = Result.objects.get(board__number=1, table__number=1, table__round__number=1)
    assert result.kind == Result.Kind.ARTIFICIAL
    assert result.reason == "cards misboarded"


def test_a_td_scores_a_bye_from_the_round_page(td_client: Client, td: User) -> None:
    event = events.create_event(td, make_settings(slug="odd", rounds=2))
    register(td, event, 5)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    bye = Seating.objects.get(round__event=event, round__number=1, seat="BYE").planned
    page = td_client.get("/events/odd/rounds/1/").content.decode()
    assert "own average" in page
    response = td_client.post(
        f"/events/odd/rounds/1/byes/{bye.number}/", {"award": "average", "reason": "odd number"}
    )
    assert response.status_code == 302
    assert "odd number" in td_client.get("/events/odd/rounds/1/").content.decode()
