"""The public standings on any screen, and each player's own page of results."""

from __future__ import annotations

import datetime as dt
import json
import re
import zoneinfo

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone, translation

from engine.cards import Seat, Suit
from engine.hands import Deal
from tests.conftest import as_a_test
from tests.tournaments.conftest import TEST_KEY, make_settings, register, start_event
from tournaments.models import (
    Board,
    Entry,
    Event,
    Player,
    Result,
    Round,
    Seating,
    Standings,
    Table,
)
from tournaments.services import (
    adjustments,
    deals,
    events,
    published,
    results,
    rounds,
    seating,
    standings,
)
from tournaments.views import public as views_public

SLUG = "club-evening"


def a_line_for(board: Board, tricks: int) -> str:
    """An accept the deal allows: N and E accept in a suit both hold."""
    deal = Deal.from_pbn(board.deal)
    suit = next(s for s in Suit if deal.hand(Seat.N).has_suit(s) and deal.hand(Seat.E).has_suit(s))
    return f"NE 8{suit.name} {tricks}"


def publish(event: Event) -> None:
    """Compute and store the standings, as the background task does after each commit."""
    Standings.objects.filter(event=event).delete()
    standings.refresh(event.pk)


def play_round(td: User, event: Event, number: int) -> None:
    """Every table of round ``number`` keys every board: table 1 makes 9 tricks, table 2 makes 8,
    table 3 goes down with 7 and table 4 passes; then the round is closed."""
    round_ = event.round_set.get(number=number)
    if round_.status == Round.Status.PLANNED:
        rounds.open_round(td, round_)
    for table in Table.objects.filter(round=round_).order_by("number"):
        done = set(table.results.filter(is_current=True).values_list("board_id", flat=True))
        for link in table.table_boards.select_related("board").order_by("position"):
            if link.board_id in done:
                continue
            line = {1: a_line_for(link.board, 9), 2: a_line_for(link.board, 8)}.get(
                table.number, a_line_for(link.board, 7) if table.number == 3 else "pass"
            )
            results.record_result(td, table, link.board, line, confirmed=True)
    rounds.close_round(td, event.round_set.get(number=number))


@pytest.fixture(scope="module")
def _after_round_one(module_td: User) -> Event:
    """Sixteen players, round 1 played and closed, round 2 in play with one result keyed."""
    with as_a_test():
        event = start_event(module_td, "shared-evening", 16)
        play_round(module_td, event, 1)
        rounds.open_round(module_td, event.round_set.get(number=2))
        table = Table.objects.get(round__event=event, round__number=2, number=1)
        board = table.table_boards.order_by("position")[0].board
        results.record_result(module_td, table, board, a_line_for(board, 8), confirmed=True)
        publish(event)
        return event


@pytest.fixture
def after_round_one(_after_round_one: Event, db: None) -> Event:
    """Sixteen players, round 1 played and closed, round 2 in play with one result keyed, and its
    standings published, at the module's address (made once for the module)."""
    Event.objects.filter(pk=_after_round_one.pk).update(slug=SLUG)
    published.publish(SLUG, Standings.objects.get(event=_after_round_one))
    return Event.objects.get(pk=_after_round_one.pk)


def start(td: User, count: int, **settings: object) -> Event:
    """Like ``start_event``, with the event's settings changed."""
    event = events.create_event(td, make_settings(slug=SLUG, **settings))
    register(td, event, count)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    return Event.objects.get(pk=event.pk)


def a_late_arrival(event: Event) -> Entry:
    """A player entered after round 2 has started, with no seat and no result yet."""
    player = Player.objects.create(first_name="Late", last_name="Comer")
    return Entry.objects.create(event=event, player=player, number=17, first_round=3)


def seat_of(event: Event, round_number: int, table: int, seat: str) -> Entry:
    sitting = Seating.objects.get(round__event=event, round__number=round_number, table__number=table, seat=seat)  # fmt: skip
    assert sitting.entry is not None
    return sitting.entry


def row_of(html: str, number: int) -> str:
    """The standings row of player ``number``."""
    return next(row for row in html.split("<tr")[1:] if f"/standings/{number}/" in row)


def page_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- the player's page ------------------------------------------------------------------------


def test_it_shows_a_players_closed_round_board_by_board_in_words(
    client: Client, after_round_one: Event
) -> None:
    event = after_round_one
    north = seat_of(event, 1, 1, "N")
    text = page_text(client, f"/events/{SLUG}/standings/{north.number}/")
    row = next(
        r for r in Standings.objects.get(event=event).data["rows"] if r["entry"] == north.number
    )
    assert f"{north.number}. {north.player.full_name}" in text
    assert f"Place {row['place']}" in text
    assert f"Total {row['total']} %" in text
    assert "Round 1 · table 1 · seat N" in text
    for seat in "NESW":
        mate = seat_of(event, 1, 1, seat)
        assert f"{seat}: {mate.number}. {mate.player.full_name}" in text
    board = Table.objects.get(round__event=event, round__number=1, number=1).table_boards.order_by("position")[0].board  # fmt: skip
    suit = a_line_for(board, 9).split()[1][1]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    # The words of the result, not the notation: "N and E: accept 8♥, 9 tricks".
    assert f"N and E: accept 8{symbol}, 9 tricks" in text
    assert f"NE 8{suit} 9" not in text
    # Table 1 made the most of the four tables on every board: 100 % each.
    html = client.get(f"/events/{SLUG}/standings/{north.number}/").content.decode()
    assert html.count('<td class="num">100.00</td>') == event.boards_per_round
    assert f" {board.number} N N and E" in text


def test_it_shows_the_comparison_figure_of_each_board(
    client: Client, after_round_one: Event
) -> None:
    url = f"/events/{SLUG}/standings/{seat_of(after_round_one, 1, 3, 'S').number}/"
    text = page_text(client, url)
    assert "N and E: accept 8" in text
    assert "7 tricks" in text
    # Four tables: N and E make 9, make 8, go down with 7, all pass. For S at table 3 the accept
    # that went down is the best of the four scores on every board.
    html = client.get(url).content.decode()
    assert html.count('<td class="num">100.00</td>') == after_round_one.boards_per_round
    assert re.search(r'<td class="num">[1-9][0-9]*</td>\s*<td class="num">100.00</td>', html)


def test_it_keeps_the_boards_of_a_round_in_play_from_the_public(
    client: Client, after_round_one: Event
) -> None:
    north = seat_of(after_round_one, 2, 1, "N")
    text = page_text(client, f"/events/{SLUG}/standings/{north.number}/")
    assert "Round 2 · table 1" in text
    assert "This round is in play: its boards are shown once the director closes it." in text
    assert "Boards are shown once the director has closed their round" in text
    round_two = text[text.index("Round 2") :]
    assert "tricks" not in round_two


def test_it_shows_an_artificial_score_in_words(
    client: Client, td: User, after_round_one: Event
) -> None:
    event = after_round_one
    round_one = event.round_set.get(number=1)
    rounds.reopen_round(td, round_one, reason="a fouled board")
    table = Table.objects.get(round=round_one, number=2)
    board = table.table_boards.order_by("position")[0].board
    awards = {"N": "average_plus", "E": "average_minus", "S": "average", "W": "55"}
    adjustments.award_artificial(td, table, board, awards, reason="fouled board")
    rounds.close_round(td, round_one)
    publish(event)
    north = seat_of(event, 1, 2, "N")
    west = seat_of(event, 1, 2, "W")
    assert "artificial score: average-plus" in page_text(client, f"/events/{SLUG}/standings/{north.number}/")  # fmt: skip
    assert "artificial score: 55 %" in page_text(client, f"/events/{SLUG}/standings/{west.number}/")


def test_it_spells_out_a_bye_with_and_without_a_score(client: Client, td: User) -> None:
    event = start(td, 17)
    first = Seating.objects.get(round__event=event, round__number=1, seat="BYE").entry
    assert first is not None
    adjustments.score_bye(td, first, 1, "average_plus", reason="sat out for a late player")
    play_round(td, event, 1)
    play_round(td, event, 2)
    second = Seating.objects.get(round__event=event, round__number=2, seat="BYE").entry
    assert second is not None
    publish(event)
    html = client.get(f"/events/{SLUG}/standings/{first.number}/").content.decode()
    assert "Bye: average-plus." in html
    assert html.count('<td class="words">bye: average-plus</td>') == event.boards_per_round
    assert html.count('<td class="num">60.00</td>') == event.boards_per_round
    text = page_text(client, f"/events/{SLUG}/standings/{second.number}/")
    assert "Round 2 Bye: counts as the player's own average." in text


def test_it_shows_each_boards_datum_and_the_difference_in_a_datum_event(
    client: Client, td: User
) -> None:
    event = start(td, 16, comparison=Event.Comparison.DATUM)
    play_round(td, event, 1)
    publish(event)
    north = seat_of(event, 1, 1, "N")
    html = client.get(f"/events/{SLUG}/standings/{north.number}/").content.decode()
    assert '<th class="num">Datum</th>' in html
    assert '<th class="num">%</th>' not in html
    figures = re.findall(
        r'<td class="num">(-?\d+)</td>\s*<td class="num">(-?[\d.]+)</td><td class="num">(-?[\d.]+)</td>',
        html,
    )
    assert len(figures) == event.boards_per_round
    for score, datum, difference in figures:
        assert float(score) - float(datum) == pytest.approx(float(difference), abs=0.05)
        assert float(difference) > 0  # table 1 made the most tricks


def test_it_holds_back_a_travelling_board_that_a_later_round_still_plays(
    client: Client, td: User
) -> None:
    event = start(td, 32, board_mode=Event.BoardMode.TRAVELLING)
    play_round(td, event, 1)
    publish(event)
    later = set(
        Table.objects.filter(round__event=event, round__number__gt=1).values_list(
            "table_boards__board__number", flat=True
        )
    )
    north = seat_of(event, 1, 1, "N")
    boards = Table.objects.get(round__event=event, round__number=1, number=1).table_boards
    numbers = set(boards.values_list("board__number", flat=True))
    assert numbers & later  # the set travels on to another table
    html = client.get(f"/events/{SLUG}/standings/{north.number}/").content.decode()
    assert html.count('class="board-held_back"') == len(numbers & later)
    assert html.count('class="board-played"') == len(numbers - later)
    assert "still to be played at another table" in html


def test_it_says_a_player_without_a_result_has_no_place_yet(
    client: Client, td: User, after_round_one: Event
) -> None:
    late = a_late_arrival(after_round_one)
    publish(after_round_one)
    text = page_text(client, f"/events/{SLUG}/standings/{late.number}/")
    assert "Late Comer" in text
    assert "Place –" in text
    assert "No place yet" in text


def test_a_player_page_of_an_unknown_player_or_a_draft_event_is_not_found(
    client: Client, td: User, after_round_one: Event
) -> None:
    assert client.get(f"/events/{SLUG}/standings/99/").status_code == 404
    assert client.get(f"/events/{SLUG}/standings/0/").status_code == 404
    assert client.get("/events/no-such-event/standings/1/").status_code == 404
    draft = start_event(td, "draft-evening", 8)
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)
    assert client.get("/events/draft-evening/standings/1/").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "99999999999999999999999/",
        "32768/",
        "-1/",
        "1.5/",
        "abc/",
        "1/extra/",
        "%00/",
    ],
)
def test_odd_player_addresses_are_not_found_rather_than_an_error(
    client: Client, after_round_one: Event, path: str
) -> None:
    assert client.get(f"/events/{SLUG}/standings/{path}").status_code == 404


def test_the_player_page_needs_a_fixed_number_of_queries_whatever_the_boards(
    client: Client, td: User, after_round_one: Event, django_assert_max_num_queries: object
) -> None:
    event = after_round_one
    north = seat_of(event, 1, 1, "N")
    url = f"/events/{SLUG}/standings/{north.number}/"
    with django_assert_max_num_queries(20):  # type: ignore[operator]
        assert "accept" in client.get(url).content.decode()
    # Twice the closed boards, the same bound.
    play_round(td, event, 2)
    play_round(td, event, 3)
    publish(event)
    with django_assert_max_num_queries(20):  # type: ignore[operator]
        page = client.get(url).content.decode()
    assert page.count('class="board-played"') == 3 * event.boards_per_round


# --- the standings page -----------------------------------------------------------------------


def test_the_standings_link_each_name_to_the_players_page(
    client: Client, after_round_one: Event
) -> None:
    html = client.get(f"/events/{SLUG}/standings/").content.decode()
    rows = Standings.objects.get(event=after_round_one).data["rows"]
    assert len(rows) == 16
    for row in rows:
        assert f'<a href="/events/{SLUG}/standings/{row["entry"]}/">{row["name"]}</a>' in html
    for column in ('class="num place"', 'class="name"', 'class="num total"'):
        assert column in html


def test_the_standings_mark_withdrawn_players_and_players_without_a_place(
    client: Client, td: User, after_round_one: Event
) -> None:
    late = a_late_arrival(after_round_one)
    quitter = seat_of(after_round_one, 1, 1, "E")
    Entry.objects.filter(pk=quitter.pk).update(status="withdrawn", withdrawn_after_round=1)
    publish(after_round_one)
    html = client.get(f"/events/{SLUG}/standings/").content.decode()
    late_row = row_of(html, late.number)
    assert '<td class="num place">–</td>' in late_row
    assert '<span class="tag">no result yet</span>' in late_row
    assert "<strong>–</strong>" in late_row
    quitter_row = row_of(html, quitter.number)
    assert '<span class="tag">withdrawn</span>' in quitter_row
    assert 'class="withdrawn' in quitter_row
    assert '<td class="num place">–</td>' not in quitter_row  # ranked on the boards played


def test_the_standings_use_the_decimal_comma_in_dutch(
    client: Client, after_round_one: Event
) -> None:
    rows = Standings.objects.get(event=after_round_one).data["rows"]
    total = next(r["total"] for r in rows if "." in r["total"])
    dutch = Client(headers={"accept-language": "nl"})
    with translation.override("nl"):
        html = dutch.get(f"/events/{SLUG}/standings/").content.decode()
    assert f"<strong>{total.replace('.', ',')}</strong>" in html
    assert f"<strong>{total}</strong>" not in html


def test_the_json_carries_the_update_time_as_the_page_shows_it(
    client: Client, after_round_one: Event, settings: object
) -> None:
    computed = dt.datetime(2026, 11, 20, 21, 5, 9, tzinfo=dt.UTC)
    Standings.objects.filter(event=after_round_one).update(computed_at=computed)
    data = client.get(f"/events/{SLUG}/standings.json").json()
    # 22:05 in Brussels in November (UTC+1), in the site's time format for English.
    assert data["computed_at_display"] == "22:05"
    assert data["computed_at"] == computed.isoformat()
    html = client.get(f"/events/{SLUG}/standings/").content.decode()
    assert ">22:05</time>" in html
    assert data["rows"][0]["url"] == f"/events/{SLUG}/standings/{data['rows'][0]['entry']}/"
    dutch = Client(headers={"accept-language": "nl"})
    with translation.override("nl"):
        assert dutch.get(f"/events/{SLUG}/standings.json").json()["computed_at_display"] == "22:05"


def test_the_update_time_is_in_the_events_time_zone_whatever_zone_is_active(
    client: Client, after_round_one: Event
) -> None:
    computed = dt.datetime(2026, 11, 20, 21, 5, 9, tzinfo=dt.UTC)
    Standings.objects.filter(event=after_round_one).update(computed_at=computed)
    with timezone.override(zoneinfo.ZoneInfo("America/New_York")):
        data = client.get(f"/events/{SLUG}/standings.json").json()
        html = client.get(f"/events/{SLUG}/standings/").content.decode()
    assert data["computed_at_display"] == "22:05"
    assert ">22:05</time>" in html


def test_the_json_of_another_language_is_another_version(
    client: Client, after_round_one: Event
) -> None:
    english = client.get(f"/events/{SLUG}/standings.json")
    dutch = Client(headers={"accept-language": "nl"})
    with translation.override("nl"):
        again = dutch.get(f"/events/{SLUG}/standings.json", HTTP_IF_NONE_MATCH=english["ETag"])
    assert again.status_code == 200


def test_the_worker_encodes_the_figures_once_for_every_web_process(
    client: Client, after_round_one: Event
) -> None:
    state = Standings.objects.get(event=after_round_one)
    key = published.version_key(SLUG, state.computed, state.computed_at)
    kept = cache.get(key)
    # PostgreSQL keeps JSON keys in its own order: the same document, not the same bytes.
    assert json.loads(kept) == json.loads(published.encode(SLUG, state.data, state.computed_at))
    # A web process sends what the worker kept: figures it did not compute itself show.
    marked = kept.replace(b'"rows":', b'"kept":true,"rows":', 1)
    cache.set(key, marked)
    data = client.get(f"/events/{SLUG}/standings.json").json()
    assert data["kept"] is True
    assert data["rows"] == json.loads(kept)["rows"]
    assert data["computed_at_display"]
    assert data["up_to_date"] is True


def test_the_json_is_whole_when_the_cache_cannot_be_reached(
    client: Client, after_round_one: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = client.get(f"/events/{SLUG}/standings.json").json()
    cache.clear()
    views_public._DOCUMENTS.clear()

    def unreachable(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cache, "get", unreachable)
    monkeypatch.setattr(cache, "set", unreachable)
    assert client.get(f"/events/{SLUG}/standings.json").json() == expected


def test_a_version_key_never_holds_the_figures_of_a_later_version(
    after_round_one: Event,
) -> None:
    state = Standings.objects.get(event=after_round_one)
    assert state.computed_at is not None
    cache.clear()
    earlier = state.computed_at - dt.timedelta(seconds=5)
    body = published.document(SLUG, state.computed - 1, earlier)
    # Asked for a version that has moved on: the current figures, kept under nothing.
    assert json.loads(body)["computed_at"] == state.computed_at.isoformat()
    assert cache.get(published.version_key(SLUG, state.computed - 1, earlier)) is None
    assert published.document(SLUG, state.computed, state.computed_at) == body
    assert cache.get(published.version_key(SLUG, state.computed, state.computed_at)) == body


def test_a_failed_computation_is_another_version_with_its_reason(
    client: Client, after_round_one: Event
) -> None:
    url = f"/events/{SLUG}/standings.json"
    before = client.get(url)
    state = Standings.objects.get(event=after_round_one)
    state.data = {**state.data, "failure": {"message": "a fault"}}
    state.save(update_fields=["data"])
    failed = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert failed.status_code == 200
    assert failed.json()["failure"] == {"message": "a fault"}
    assert failed.json()["notices_display"][0]["id"] == "not-current"
    assert before.json()["rows"] == failed.json()["rows"]


def test_the_json_of_a_draft_event_is_not_found(client: Client, td: User) -> None:
    event = events.create_event(td, make_settings(slug="a-draft"))
    Standings.objects.create(event=event, data={"rows": [], "rounds": []})
    assert client.get("/events/a-draft/standings.json").status_code == 404


def open_a_difference(event: Event, count: int = 1) -> None:
    """Results of the event that differ from their sheets, as the keyers left them."""
    for result in Result.objects.filter(event=event, is_current=True).order_by("pk")[:count]:
        Result.objects.filter(pk=result.pk).update(sheet={"N": 999}, sheet_status="open")


def test_the_standings_hide_the_differences_line_while_every_sheet_agrees(
    client: Client, after_round_one: Event
) -> None:
    data = client.get(f"/events/{SLUG}/standings.json").json()
    assert (data["open_differences"], data["open_differences_display"]) == (0, "")
    html = client.get(f"/events/{SLUG}/standings/").content.decode()
    # The line is there for the script to fill, hidden.
    assert '<p class="warn" id="open-differences" hidden></p>' in html


def test_the_json_carries_the_differences_line_as_the_page_shows_it(
    client: Client, after_round_one: Event
) -> None:
    open_a_difference(after_round_one, 2)
    data = client.get(f"/events/{SLUG}/standings.json").json()
    text = (
        "2 results still differ from their score sheets and are being checked: "
        "the standings may change."
    )
    assert (data["open_differences"], data["open_differences_display"]) == (2, text)
    html = client.get(f"/events/{SLUG}/standings/").content.decode()
    assert f'<p class="warn" id="open-differences">{text}</p>' in html
    dutch = Client(headers={"accept-language": "nl"})
    with translation.override("nl"):
        dutch_data = dutch.get(f"/events/{SLUG}/standings.json").json()
        dutch_html = dutch.get(f"/events/{SLUG}/standings/").content.decode()
    assert dutch_data["open_differences_display"] not in ("", text)
    assert f'id="open-differences">{dutch_data["open_differences_display"]}</p>' in dutch_html


def test_the_json_is_another_version_when_a_difference_opens_or_closes(
    client: Client, after_round_one: Event
) -> None:
    url = f"/events/{SLUG}/standings.json"
    before = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=before).status_code == 304
    computed = Standings.objects.get(event=after_round_one).computed
    open_a_difference(after_round_one)
    opened = client.get(url, HTTP_IF_NONE_MATCH=before)
    assert opened.status_code == 200
    assert opened.json()["open_differences"] == 1
    assert Standings.objects.get(event=after_round_one).computed == computed
    assert client.get(url, HTTP_IF_NONE_MATCH=opened["ETag"]).status_code == 304
    Result.objects.filter(event=after_round_one).update(sheet_status="accepted")
    closed = client.get(url, HTTP_IF_NONE_MATCH=opened["ETag"])
    assert closed.status_code == 200
    assert closed.json()["open_differences"] == 0
