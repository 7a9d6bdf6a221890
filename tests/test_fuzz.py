"""Hostile input on every address that takes input: never a 500, and JSON where JSON is promised.

The signed-in TD of an event in play sends generated values (non-finite and huge numbers, NUL
bytes, lone surrogates, over-long text, wrong types, deeply nested JSON) in query parameters, form
fields and JSON bodies. SQLite accepts what PostgreSQL refuses, so the database is made as strict
as PostgreSQL where it matters: a NUL byte or a lone surrogate in a query is an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DataError, connection
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.forms import EventForm
from tournaments.models import Event

FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Each form is a test of its own: fewer examples each, and every form is reached.
FORMS_FUZZ = settings(FUZZ, max_examples=12)

# --- hostile values ---------------------------------------------------------------------------

# Numbers as JSON text: Python's json reads 1e999 as infinity and NaN as not-a-number.
JSON_NUMBERS = [
    "1e999",
    "-1e999",
    "1e400",
    "NaN",
    "Infinity",
    "-Infinity",
    "-0",
    "-0.0",
    "0.5",
    str(10**100),
    str(-(10**100)),
    "1",
    "2",
    "0",
    "-1",
]
TEXTS = [
    "",
    "\x00",
    "a\x00b",
    "reason\x00",
    "\x1b[31m",
    "\u202e",
    "x" * 5000,
    "1e999",
    "NaN",
    "Infinity",
    "-0",
    str(10**100),
    "NE 9H 10",
    "open",
    "close",
    "history",
    "round",
    "average",
    "artificial",
]
# Text a form can carry (UTF-8 cannot encode a lone surrogate); JSON can carry any code point.
form_text = st.one_of(
    st.sampled_from(TEXTS),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=40),
    st.text(max_size=6).map(lambda text: text.encode("utf-8", "replace").decode() + "\x00"),
)
json_text = st.one_of(st.sampled_from(TEXTS), st.text(max_size=40))


def _json_leaf() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(JSON_NUMBERS),
        st.sampled_from(["null", "true", "false", "[]", "{}"]),
        json_text.map(json.dumps),
    )


def _json_value() -> st.SearchStrategy[str]:
    """JSON text: leaves, lists and objects of them, and nesting deeper than a parser allows."""
    return st.recursive(
        _json_leaf(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(lambda items: "[" + ",".join(items) + "]"),
            st.dictionaries(st.sampled_from("NESW"), inner, max_size=4).map(_object),
        ),
        max_leaves=6,
    ) | st.sampled_from(["[" * 3000 + "]" * 3000, '{"a":' * 3000 + "1" + "}" * 3000])


def _object(fields: dict[str, str]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in fields.items()) + "}"


def json_body(keys: list[str]) -> st.SearchStrategy[str]:
    """A JSON document: mostly an object with the endpoint's keys, sometimes anything at all."""
    return st.one_of(
        st.dictionaries(st.sampled_from(keys), _json_value(), max_size=len(keys)).map(_object),
        _json_value(),
        st.sampled_from(["", "not json", "\x00", '{"board": 1}\x00', "\ud800"]),
    )


# Numbers in addresses: real ones, and ones no database column holds.
path_number = st.sampled_from([1, 2, 3, 0, 999, 10**12, 10**30])

# --- the running event --------------------------------------------------------------------------


def _strict(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    """Refuse what PostgreSQL refuses: a NUL byte in a string, or a number past 64 bits."""
    for value in _flat(params):
        if isinstance(value, str) and "\x00" in value:
            raise DataError("A string literal cannot contain NUL (0x00) characters.")
    return execute(sql, params, many, context)


def _flat(params: Any) -> Iterator[Any]:
    if isinstance(params, list | tuple):
        for item in params:
            yield from _flat(item)
    elif isinstance(params, dict):
        yield from _flat(list(params.values()))
    else:
        yield params


@pytest.fixture(scope="module")
def _evening(module_td: User) -> Event:
    """Nine players, round 1 in play (made once for the module)."""
    with as_a_test():
        return start_event(module_td, "fuzz-evening", 9)


@pytest.fixture
def running(td: User, _evening: Event) -> Iterator[tuple[Client, Event]]:
    event = Event.objects.get(pk=_evening.pk)
    client = Client(headers={"accept-language": "en"}, raise_request_exception=False)
    client.force_login(td)
    with connection.execute_wrapper(_strict):
        yield client, event


JSON_PREFIXES = ("/api/",)


def _answered(response: Any, expect_json: bool = False) -> None:
    assert response.status_code != 500, response.content[:2000]
    assert response.status_code < 500
    if expect_json and response.status_code not in (301, 302, 304):
        assert response["Content-Type"].startswith("application/json"), response.content[:500]
        json.loads(response.content)


# --- query parameters ---------------------------------------------------------------------------

QUERY_NAMES = ["action", "second", "seed", "best", "format", "page", "next", "q", "lang"]
GET_PAGES = [
    ("/events/{slug}/", False),
    ("/events/{slug}/log/", False),
    ("/events/{slug}/rounds/{n}/tables/{t}/", False),
    ("/events/{slug}/rounds/{n}/entry/", False),
    ("/events/{slug}/rounds/{n}/", False),
    ("/events/{slug}/rounds/{n}/seats/", False),
    ("/events/{slug}/movement/replan/", False),
    ("/events/{slug}/players/{n}/withdraw/", False),
    ("/events/{slug}/rounds/{n}/tables/{t}/boards/{b}/", False),
    ("/events/{slug}/standings/", False),
    ("/events/{slug}/standings/{n}/", False),
    ("/events/{slug}/standings.json", True),
    ("/events/{slug}/standings.csv", False),
    ("/events/{slug}/clubs/", False),
    ("/events/{slug}/reports/", False),
    ("/events/{slug}/reports/{n}/status.json", True),
    ("/api/events/", True),
    ("/api/events/{slug}/", True),
    ("/api/events/{slug}/movement/", True),
    ("/api/events/{slug}/boards/", True),
    ("/api/events/{slug}/results/", True),
    ("/api/events/{slug}/standings/", True),
    ("/", False),
    ("/help/notation/", False),
    ("/accounts/login/", False),
]


@FUZZ
@given(
    page=st.sampled_from(GET_PAGES),
    numbers=st.tuples(path_number, path_number, path_number),
    query=st.dictionaries(st.sampled_from(QUERY_NAMES), form_text, max_size=3),
)
def test_it_answers_hostile_query_parameters(
    running: tuple[Client, Event],
    page: tuple[str, bool],
    numbers: tuple[int, int, int],
    query: dict[str, str],
) -> None:
    client, event = running
    address, is_json = page
    n, t, b = numbers
    response = client.get(address.format(slug=event.slug, n=n, t=t, b=b), query)
    _answered(response, expect_json=is_json)


# --- forms --------------------------------------------------------------------------------------

EVENT_FIELDS = list(EventForm.Meta.fields)  # every field the event form takes
PERSON = ["first_name", "last_name", "club", "federation_number"]
SEAT_FORMS = (
    ["action", "prefix", "absent-entry", "absent-later_rounds", "absent-reason"]
    + [f"late-{f}" for f in [*PERSON, "reason"]]
    + [
        f"sub-1-N-{f}"
        for f in ["table", "seat", "kind", "first_name", "last_name", "club", "reserve", "scope"]
    ]
    + ["sub-1-N-from_round", "sub-1-N-reason", "rule-1-table", "rule-1-N", "rule-1-reason"]
)
RULING = ["action", "reason", "offender", "kind", "penalty"] + [
    f"{name}_{i}" for name in ("line", "weight") for i in (1, 2, 3)
]
FORMS = [
    ("/events/new/", EVENT_FIELDS),
    ("/events/{slug}/edit/", EVENT_FIELDS),
    ("/events/{slug}/players/", [f"add-{f}" for f in PERSON] + [f"late-{f}" for f in PERSON]),
    ("/events/{slug}/players/{n}/edit/", PERSON),
    ("/events/{slug}/players/{n}/withdraw/", ["reason"]),
    ("/events/{slug}/players/{n}/reinstate/", ["reason"]),
    ("/events/{slug}/players/{n}/remove/", ["reason"]),
    ("/events/{slug}/players/{n}/fine/", ["amount", "reason"]),
    ("/events/{slug}/movement/", ["seed"]),
    ("/events/{slug}/movement/replan/", ["seed", "reason", "fingerprint"]),
    ("/events/{slug}/rounds/{n}/seats/", SEAT_FORMS),
    ("/events/{slug}/rounds/{n}/close/", ["reason", "anyway", "back"]),
    ("/events/{slug}/rounds/{n}/reopen/", ["reason", "back"]),
    ("/events/{slug}/rounds/{n}/{text}/", ["reason"]),
    ("/events/{slug}/rounds/{n}/tables/{t}/boards/{b}/sheet/", ["reason", "back", "version"]),
    (
        "/events/{slug}/rounds/{n}/tables/{t}/boards/{b}/keep/",
        ["reason", "back", "version", "keep"],
    ),
    (
        "/events/{slug}/rounds/{n}/tables/{t}/artificial/",
        ["award_N", "award_E", "award_S", "award_W", "reason", "back"],
    ),
    (
        "/events/{slug}/rounds/{n}/tables/{t}/boards/{b}/ruling/",
        [*RULING, "award_N", "award_E", "award_S", "award_W"],
    ),
    ("/events/{slug}/penalties/", ["entry", "amount", "reason"]),
    ("/events/{slug}/penalties/{n}/cancel/", ["reason"]),
    ("/events/{slug}/rounds/{n}/byes/{t}/", ["award", "reason"]),
    ("/events/{slug}/reports/", ["kind", "round_number", "page_size"]),
    ("/events/{slug}/reports/{n}/regenerate/", []),
    ("/i18n/setlang/", ["language", "next"]),
]


# What a TD would type, so that hostile values also reach the services behind a valid form.
PLAUSIBLE = {
    "reason": ["late", "appeal upheld"],
    "amount": ["2", "2,5"],
    "award": ["average", "average_plus"],
    "seed": ["1", "0"],
    "last_name": ["Peeters"],
    "first_name": ["An"],
    "club": ["KWC"],
    "action": ["absent", "late", "substitute", "artificial", "sit_out", "penalty", "weighted"],
    "prefix": ["sub-1-N", "rule-1", "sub-1-X"],
    "kind": ["round_pack", "new", "reserve", "td"],
    "scope": ["round", "rest", "from"],
    "table": ["1"],
    "seat": ["N", "X"],
    "entry": ["1", "2"],
    "offender": ["1"],
    "line_1": ["NE 9H 10"],
    "weight_1": ["100", "50%"],
    "page_size": ["a4"],
    "round_number": ["1", ""],
}


def _plausible(field: str) -> list[str]:
    # "add-last_name" is a last name, "award_N" an award, "sub-1-N-reason" a reason.
    name = field.rsplit("-", 1)[-1]
    return PLAUSIBLE.get(name) or PLAUSIBLE.get(name.split("_")[0]) or [""]


@st.composite
def form_data(draw: st.DrawFn, fields: list[str]) -> dict[str, Any]:
    """What a TD would type, with one or two fields hostile (or sent twice) and one perhaps left out."""
    data: dict[str, Any] = {field: draw(st.sampled_from(_plausible(field))) for field in fields}
    if not fields:
        return data
    for field in draw(st.lists(st.sampled_from(fields), min_size=1, max_size=2, unique=True)):
        data[field] = draw(st.one_of(form_text, st.lists(form_text, min_size=2, max_size=3)))
    if draw(st.integers(0, 4)) == 0:
        data.pop(draw(st.sampled_from(fields)), None)
    return data


# Each field of each form gets each of these in turn, the other fields as a TD types them.
SWEEP = ["\x00", "late\x00", "\x1b", "x" * 5000, "1e999", "NaN", str(10**100), "-0", ["1", "2"]]


@pytest.mark.parametrize(("address", "fields"), FORMS, ids=[a for a, _f in FORMS])
def test_it_answers_each_hostile_field_of_a_form(
    running: tuple[Client, Event], address: str, fields: list[str]
) -> None:
    client, event = running
    url = address.format(slug=event.slug, n=1, t=1, b=1, text="close")
    for field in fields:
        for value in SWEEP:
            data = {name: _plausible(name)[0] for name in fields}
            _answered(client.post(url, {**data, field: value}))


@pytest.mark.parametrize(("address", "fields"), FORMS, ids=[a for a, _f in FORMS])
@FORMS_FUZZ
@given(data=st.data(), numbers=st.tuples(path_number, path_number, path_number))
def test_it_answers_hostile_forms(
    running: tuple[Client, Event],
    address: str,
    fields: list[str],
    data: st.DataObject,
    numbers: tuple[int, int, int],
) -> None:
    client, event = running
    n, t, b = numbers
    text = data.draw(st.sampled_from(["open", "close", "reopen", "seats", "x" * 300]))
    url = address.format(slug=event.slug, n=min(n, 5), t=t, b=b, text=text)
    _answered(client.post(url, data.draw(form_data(fields))))


# --- JSON bodies --------------------------------------------------------------------------------

CHECK_KEYS = ["board", "text"]
API_KEYS = ["round", "table", "board", "text", "version", "confirmed", "reason"]
SAVE_KEYS = [*API_KEYS, "sheet", "second", "submission"]
BOARD = "/api/v1/events/{slug}/rounds/1/tables/{t}/boards/1"
RULING_KEYS = ["kind", "round", "table", "board", "awards", "outcomes", "entry", "award", "reason"]
PENALTY_KEYS = ["kind", "offender", "round", "table", "board", "amount", "reason"]
JSON_POSTS = [
    ("/api/v1/events/{slug}/check/", CHECK_KEYS),
    ("/api/v1/events/{slug}/results/", SAVE_KEYS),
    (BOARD + "/keep/", ["version", "reason"]),
    (BOARD + "/sheet/accept/", ["version", "reason"]),
    ("/api/v1/events/{slug}/adjustments/", RULING_KEYS),
    ("/api/v1/events/{slug}/penalties/", PENALTY_KEYS),
    ("/api/v1/events/{slug}/penalties/1/cancel/", ["reason"]),
    ("/api/events/{slug}/results/", API_KEYS),
]


@st.composite
def json_post(draw: st.DrawFn) -> tuple[str, str]:
    address, keys = draw(st.sampled_from(JSON_POSTS))
    return address, draw(json_body(keys))


@FUZZ
@given(post=json_post(), table=st.sampled_from([1, 2, 4]))
def test_it_answers_hostile_json(
    running: tuple[Client, Event], post: tuple[str, str], table: int
) -> None:
    client, event = running
    address, body = post
    url = address.format(slug=event.slug, t=table)
    # A lone surrogate cannot be sent as UTF-8: the bytes a broken client would send instead.
    raw = body.encode("utf-8", "surrogatepass")
    _answered(client.post(url, raw, content_type="application/json"), expect_json=True)


# --- what broke before, kept as examples ----------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '{"board": 1e999, "text": "NE 9H 10"}',
        '{"board": NaN, "text": "NE 9H 10"}',
        '{"board": 1, "text": "NE 9H 10", "version": 1e999}',
        '{"board": 1, "text": "NE 9H 10", "sheet": {"E": 1e400}}',
        '{"board": 1, "text": "NE 9H 10", "reason": "late\\u0000"}',
        '{"board": 1, "text": "NE 9H 10\\u0000"}',
        '{"board": 1, "text": "NE 9H 10", "reason": "\\ud800"}',
        '{"board": 1, "text": ["NE 9H 10"]}',
        '{"board": [1], "text": "NE 9H 10"}',
        '{"board": 1, "text": "NE 9H 10", "sheet": [1, 2]}',
        "[" * 3000 + "]" * 3000,
    ],
)
def test_it_refuses_bad_lines_with_a_json_400(running: tuple[Client, Event], body: str) -> None:
    client, event = running
    for url in (f"/api/v1/events/{event.slug}/check/", f"/api/v1/events/{event.slug}/results/"):
        sent = body.replace('{"board"', '{"round": 1, "table": 1, "board"')
        response = client.post(
            url, sent.encode("utf-8", "surrogatepass"), content_type="application/json"
        )
        if "1e400" in body and "results" in url:
            # A sheet no one can read is refused before anything is written.
            assert response.status_code == 400, response.content
        assert response.status_code in (200, 201, 400), response.content
        assert "code" in response.json() or response.status_code in (200, 201)


def test_it_refuses_a_nul_byte_in_a_reason_before_writing(running: tuple[Client, Event]) -> None:
    client, event = running
    url = f"/api/v1/events/{event.slug}/results/"
    where = {"round": 1, "table": 1, "board": 1}
    client.post(url, {**where, "text": "NE 9H 10"}, content_type="application/json")
    response = client.post(
        url,
        {**where, "text": "NE 9H 9", "version": 1, "reason": "typo\x00"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "reason"


def test_it_finds_nothing_for_a_nul_byte_in_the_log_filter(running: tuple[Client, Event]) -> None:
    client, event = running
    response = client.get(f"/events/{event.slug}/log/", {"action": "result\x00"})
    assert response.status_code == 200
