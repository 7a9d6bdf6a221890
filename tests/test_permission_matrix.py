"""Who may do what, over every page and endpoint of the site, each role and each method.

``RULES`` holds, for each URL pattern (by name), the least role that gets through for each
method. A pattern missing from it fails ``test_every_route_has_a_rule``: a new page or endpoint
needs its row here. For a new row: name -> {method: least role}; methods a route does not accept
still get a row (the answer should then be 405, or the refusal that comes first).

For each pattern the test builds a real address from one event in play (round 1 open, table 1,
its first board, player 1, a report, a fine, a device key...), sends each method as each member
of the cast, and checks the class of the answer:

- below the least role: refused (401, 403, or a redirect to the sign-in page);
- at or above it: not refused (a page, a redirect, 400 for an empty form, 404 where ``MISSING``
  says the object is not there for that method, 405, 409);
- never a server error.

The cast: anonymous, ``outsider`` (signed in, no part in the event, not staff, in no club account),
``assistant`` (keys results), ``director`` (the TD: staff, a member of the club's account); on
/api/ also the director's tokens ``read`` (no more than the public) and ``enter`` (no more than an
assistant). Tokens do not sign in to pages, so pages are not asked with them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from documents.models import ReportFile
from engine.ruleset import load_builtin, ruleset_to_toml
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.models import Club, Organisation, Player, Series
from tournaments.services import access, adjustments, devices, results, scoring_tables, tokens

# The least role that gets through, in the cast's order. STAFF and CREATOR are the TD in this
# cast (staff, and the only member of a club's account); DEVICE is a phone that gave the table's
# PIN, which nobody in the cast did; NOBODY: refused to everyone.
ANY = 0
SIGNED_IN = 1
ASSISTANT = 2
DIRECTOR = 3
STAFF = 3
CREATOR = 3
DEVICE = 9
NOBODY = 9

RANK = {"anonymous": ANY, "outsider": SIGNED_IN, "assistant": ASSISTANT, "director": DIRECTOR}
# What an API token is worth: the director's role narrowed by the token's access.
TOKEN_RANK = {"read": SIGNED_IN, "enter": ASSISTANT}

# Not walked: Django's own pages (the admin, sign-in and out, the language switch, static files).
SKIPPED_PREFIXES = ("admin/", "i18n/", "static/", "media/", "accounts/login/", "accounts/logout/")

GET_POST = ("GET", "POST")


def both(level: int) -> dict[str, int]:
    return {"GET": level, "POST": level}


def read_write(read: int, write: int) -> dict[str, int]:
    return {"GET": read, "POST": write}


RULES: dict[str, dict[str, int]] = {
    # The site
    "home": both(ANY),
    "healthz": both(ANY),
    "notation_help": both(ANY),
    "series": both(ANY),
    "event_create": both(CREATOR),
    # An event's pages: directors change the event, its players, movement, deals and rounds
    "event": both(ASSISTANT),
    "event_edit": both(DIRECTOR),
    "event_finish": both(DIRECTOR),
    "players": both(DIRECTOR),
    "player_withdraw": both(DIRECTOR),
    "player_edit": both(DIRECTOR),
    "player_reinstate": both(DIRECTOR),
    "player_remove": both(DIRECTOR),
    "movement": both(DIRECTOR),
    "replan": both(DIRECTOR),
    "event_seats": both(DIRECTOR),
    "round_seats": both(DIRECTOR),
    "deals": both(DIRECTOR),
    "deals_import": both(DIRECTOR),
    "round_action": both(DIRECTOR),
    "event_access": both(DIRECTOR),
    "event_access_remove": both(DIRECTOR),
    "device_pins": both(DIRECTOR),
    # ... and assistants enter results, record rulings, read the log, print the reports
    "audit_log": both(ASSISTANT),
    "round_entry": both(ASSISTANT),
    "round_overview": both(ASSISTANT),
    "table_entry": both(ASSISTANT),
    "board_history": both(ASSISTANT),
    "accept_sheet": both(ASSISTANT),
    "keep_keying": both(ASSISTANT),
    "table_artificial": both(ASSISTANT),
    "board_ruling": both(ASSISTANT),
    "player_fine": both(ASSISTANT),
    "adjustments": both(ASSISTANT),
    "penalty_cancel": both(ASSISTANT),
    "bye_score": both(ASSISTANT),
    "reports": both(ASSISTANT),
    "report": both(ASSISTANT),
    "report_download": both(ASSISTANT),
    "report_status": both(ASSISTANT),
    "report_regenerate": both(ASSISTANT),
    # What is published
    "standings": both(ANY),
    "player_results": both(ANY),
    "standings_csv": both(ANY),
    "standings_json": both(ANY),
    "club_ranking": both(ANY),
    "board_results": both(ANY),
    "double_dummy": both(ANY),
    # Ratings are made of finished events, whose standings are public
    "ratings_index": both(ANY),
    "ratings": both(ANY),
    "rating_player": both(ANY),
    # The table's link: the key on the card is what lets a phone in (then its PIN)
    "device": both(ANY),
    # A user's own
    "account_tokens": both(SIGNED_IN),
    "account_token_revoke": both(SIGNED_IN),
    # The clubs' scoring tables: staff
    "scoring_tables": both(STAFF),
    "scoring_table_new": both(STAFF),
    "scoring_table_preview": both(STAFF),
    "scoring_table_edit": both(STAFF),
    "scoring_table_history": both(STAFF),
    "scoring_table_export": both(STAFF),
    # API v1: documents
    "v1:schema": both(ANY),
    "v1:docs": both(ANY),
    "v1:redoc": both(ANY),
    "v1:redoc-script": both(ANY),
    # API v1: what is public to read
    "v1:events": {"GET": ANY},
    "v1:event": both(ANY),
    "v1:entries": both(ANY),
    "v1:rounds": both(ANY),
    "v1:round": both(ANY),
    "v1:tables": both(ANY),
    "v1:table": both(ANY),
    "v1:boards": both(ANY),
    "v1:board": both(ANY),
    "v1:standings": both(ANY),
    "v1:club-ranking": both(ANY),
    "v1:clubs": both(ANY),
    "v1:club": both(ANY),
    # The players' register (federation numbers): for those who run events
    "v1:players": both(ASSISTANT),
    "v1:player": both(ASSISTANT),
    "v1:series-list": both(ANY),
    "v1:series": both(ANY),
    "v1:rulesets": both(ANY),
    "v1:ruleset-validate": both(ANY),
    "v1:ruleset": both(ANY),
    "v1:ruleset-score": both(ANY),
    "v1:movement-preview": both(SIGNED_IN),
    # API v1: reports (assistants print)
    "v1:reports": both(ASSISTANT),
    "v1:report": both(ASSISTANT),
    "v1:report-download": both(ASSISTANT),
    # API v1: results and rulings
    "v1:results": both(ASSISTANT),
    "v1:result": {"GET": ASSISTANT, "POST": ASSISTANT, "PUT": ASSISTANT, "PATCH": ASSISTANT},
    "v1:result-history": both(ASSISTANT),
    "v1:result-keep": both(ASSISTANT),
    "v1:sheet-accept": both(ASSISTANT),
    "v1:sheet-differences": both(ASSISTANT),
    "v1:check": both(ASSISTANT),
    "v1:adjustments": both(ASSISTANT),
    "v1:penalties": both(ASSISTANT),
    "v1:penalty-cancel": both(ASSISTANT),
    # API v1: table devices (a phone that gave the PIN); the round's links and PINs: directors
    "v1:device": both(DEVICE),
    "v1:device-session": read_write(ANY, ANY),
    "v1:device-check": both(DEVICE),
    "v1:device-results": both(DEVICE),
    "v1:device-confirm": both(DEVICE),
    "v1:round-devices": both(DIRECTOR),
    # API v1: the signed-in user's tokens (never with a token)
    "v1:tokens": both(SIGNED_IN),
    "v1:token": {"GET": SIGNED_IN, "POST": SIGNED_IN, "DELETE": SIGNED_IN},
    "v1:token-revoke": both(SIGNED_IN),
    # The first API, kept for the links that exist
    "api-events": both(ANY),
    "api-event": both(ANY),
    "api-movement": both(ANY),
    "api-boards": both(ANY),
    # Reading moved to /api/v1/ (a redirect, which then asks for the role); writing stays here
    "api-results": read_write(ANY, ASSISTANT),
    "api-standings": both(ANY),
    "api-schema": both(ANY),
}

# Routes that use a token only to refuse it (they want a password's sign-in).
TOKENS_REFUSED = {"v1:tokens", "v1:token", "v1:token-revoke"}

# (name, method) where 404 counts as getting through: the object is not one the caller may see
# (another user's token) or not in the state the action needs (no second keying to keep).
MISSING: set[tuple[str, str]] = {
    ("v1:token", "GET"),
    ("v1:token", "DELETE"),
    ("v1:token-revoke", "POST"),
    ("account_token_revoke", "POST"),
    ("keep_keying", "POST"),
    ("accept_sheet", "POST"),
}

# Answers that differ from the rule today, each with why; (name, method, who). An entry that no
# longer differs fails the test, so that it is taken out once the route follows its rule.
KNOWN: dict[tuple[str, str, str], str] = {}

# Who is in the cast; tokens only on /api/.
PEOPLE = ("anonymous", "outsider", "assistant", "director")
REFUSED_TOKEN = -1


@dataclass
class Route:
    name: str
    route: str
    # The methods a class-based view answers; None for a function view (GET and POST are asked).
    answered: frozenset[str] | None

    @property
    def methods(self) -> tuple[str, ...]:
        extra = tuple(m for m in ("PUT", "PATCH", "DELETE") if m in (self.answered or ()))
        return GET_POST + extra

    @property
    def api(self) -> bool:
        return self.route.startswith("api/")


def rule_key(name: str) -> str:
    """API v1's routes by what they are, whatever their names' prefix: ``v1:results``."""
    short = re.sub(r"^(api-v1-|api_v1_|v1-|v1_)", "", name)
    return name if short == name else "v1:" + short.replace("_", "-")


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route)
        else:
            yield route, pattern


def _answered(pattern: URLPattern) -> frozenset[str] | None:
    view_class = getattr(pattern.callback, "view_class", None) or getattr(
        pattern.callback, "cls", None
    )
    if view_class is None:
        return None
    return frozenset(
        m
        for m in ("GET", "POST", "PUT", "PATCH", "DELETE")
        if callable(getattr(view_class, m.lower(), None))
    )


def site_routes() -> list[Route]:
    routes = []
    for route, pattern in _walk(get_resolver().url_patterns):
        if route.startswith(SKIPPED_PREFIXES) or pattern.name == "set_language":
            continue
        routes.append(Route(rule_key(pattern.name or route), route, _answered(pattern)))
    return routes


ROUTES = site_routes()


def test_every_route_has_a_rule() -> None:
    missing = sorted({route.name for route in ROUTES if route.name not in RULES})
    assert not missing, f"routes without a rule in RULES: {missing}"
    for route in ROUTES:
        asked = route.answered if route.answered is not None else set(GET_POST)
        unruled = sorted(m for m in asked if m not in RULES[route.name])
        assert not unruled, f"{route.name}: no rule for {unruled}"


def test_every_rule_has_a_route() -> None:
    names = {route.name for route in ROUTES}
    assert not sorted(set(RULES) - names), "rules for routes that no longer exist"


@dataclass
class World:
    clients: dict[str, Client]
    values: dict[str, Any]


@pytest.fixture(scope="module")
def _world(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    """One event in play and its cast, made once for the module and rolled back after it; each
    test's own changes are rolled back after the test (``db``)."""
    media = tmp_path_factory.mktemp("media")
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=media),
        transaction.atomic(),
    ):
        yield _build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(_world: World, db: None) -> World:
    return _world


def _build_world() -> World:
    td = User.objects.create_user("alice", password="alice-password", is_staff=True)
    Organisation.objects.create(name="Whistclub De Kroon").members.add(td)
    outsider = User.objects.create_user("oscar", password="oscar-password")
    helper = User.objects.create_user("carol", password="carol-password")
    event = start_event(td, "matrix", 8)
    access.add_assistant(td, event, helper)
    round_ = event.round_set.get(number=1)
    devices.ensure_device_keys(td, round_)
    table = round_.tables.get(number=1)
    link = table.table_boards.select_related("board").order_by("position").first()
    assert link is not None
    results.record_result(td, table, link.board, a_line_for(link.board), confirmed=True)
    entry = event.entries.get(number=1)
    fine = adjustments.record_fine(td, event, entry, Fraction(1), "late")
    # Standings: a document an assistant prints too (the secret ones have a test of their own).
    report = ReportFile.objects.create(
        event=event,
        kind=ReportFile.Kind.STANDINGS,
        status=ReportFile.Status.DONE,
        progress=100,
        filename="matrix.pdf",
        content_type="application/pdf",
    )
    report.file.save("matrix.pdf", ContentFile(b"%PDF-1.4\n"))
    scoring_table = scoring_tables.create_table(
        td, "Whistclub De Kroon", "Kroon", _document("whisthub")
    )
    series = Series.objects.create(slug="winter", name="Winter")
    series.events.add(event)
    token, _key = tokens.create_token(td, "kept", "read")
    clients = {
        "anonymous": _client(),
        "outsider": _client(outsider),
        "assistant": _client(helper),
        "director": _client(td),
    }
    for access_ in TOKEN_RANK:
        _token, key = tokens.create_token(td, access_, access_)
        clients[access_] = _client(authorization=f"Bearer {key}")
    values = {
        "slug": event.slug,
        "number": 1,
        "n": 1,
        "t": 1,
        "table_number": 1,
        "board_number": link.board.number,
        "board": link.board.number,
        "b": link.board.number,
        "entry_number": entry.number,
        "action": "close",
        "key": table.device_key,
        "name": "whisthub",
        "role": "assistant",
        "user_id": helper.pk,
        "id": report.pk,
        "series": series.slug,
        "report": report.pk,
        "penalty": fine.pk,
        "scoring_table": scoring_table.pk,
        "version": scoring_table.versions.get().pk,
        "club": Club.objects.order_by("pk").values_list("pk", flat=True).first() or 0,
        "player": Player.objects.order_by("pk").values_list("pk", flat=True).first() or 0,
        "token": token.pk,
        "organisation": Organisation.objects.get(name="Whistclub De Kroon").pk,
    }
    return World(clients, values)


def _document(name: str) -> str:
    """A club's copy of a built-in ruleset, under the club's own name."""
    document = ruleset_to_toml(load_builtin(name))
    return document.replace(f'name = "{name}"', 'name = "de-kroon"')


def _client(user: User | None = None, **headers: str) -> Client:
    client = Client(headers={"accept-language": "en", **headers})
    if user is not None:
        client.force_login(user)
    return client


# Which object an ``<int:pk>`` of a route stands for.
PK_OF = {
    "report": "report",
    "report_download": "report",
    "report_status": "report",
    "report_regenerate": "report",
    "penalty_cancel": "penalty",
    "v1:penalty-cancel": "penalty",
    "scoring_table_edit": "scoring_table",
    "scoring_table_history": "scoring_table",
    "scoring_table_export": "version",
    "v1:club": "club",
    "v1:player": "player",
    "v1:token": "token",
    "v1:token-revoke": "token",
    "account_token_revoke": "token",
}
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<parameter>[^>]+)>")


def address(route: Route, values: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        parameter = match.group("parameter")
        if parameter == "pk":
            return str(values[PK_OF[route.name]])
        if parameter == "slug" and route.name in ("series", "v1:series"):
            return str(values["series"])
        if parameter not in values:
            pytest.fail(
                f"no value for <{parameter}> of {route.route}: add it to the world's values"
            )
        return str(values[parameter])

    return "/" + PARAMETER.sub(value, route.route)


def send(client: Client, method: str, path: str, api: bool) -> Any:
    if api:
        return client.generic(method, path, json.dumps({}), content_type="application/json")
    return client.generic(method, path, "", content_type="application/x-www-form-urlencoded")


def refused(response: Any) -> bool:
    if response.status_code in (401, 403):
        return True
    return response.status_code == 302 and str(response["Location"]).startswith("/accounts/login/")


def cast_for(route: Route) -> list[tuple[str, int]]:
    """Each member of the cast and what they are worth on this route, least first."""
    cast = [(who, RANK[who]) for who in PEOPLE[:2]]
    if route.api:
        for access_, rank in TOKEN_RANK.items():
            cast.append((access_, REFUSED_TOKEN if route.name in TOKENS_REFUSED else rank))
    return cast + [(who, RANK[who]) for who in PEOPLE[2:]]


def verdict(route: Route, method: str, rank: int, response: Any) -> str:
    """What is wrong with the answer, or ""."""
    status = response.status_code
    if route.answered is not None and method not in route.answered:
        # A method the view does not answer: 405, or refused first by a permission check.
        return "" if status == 405 or refused(response) else f"{status}, should be 405"
    if rank < RULES[route.name][method]:
        return "" if refused(response) else f"{status}, should be refused"
    if refused(response):
        return f"{status}, should get through"
    if status == 404 and (route.name, method) not in MISSING:
        return "404"
    return ""


@pytest.mark.parametrize("route", ROUTES, ids=[r.name for r in ROUTES])
def test_each_role_gets_what_the_rule_says(route: Route, world: World) -> None:
    if route.name not in RULES:
        pytest.skip("no rule yet: test_every_route_has_a_rule says which")
    path = address(route, world.values)
    wrong, known_seen = [], set()
    for who, rank in cast_for(route):
        for method in route.methods:
            response = send(world.clients[who], method, path, route.api)
            assert response.status_code < 500, f"{method} {path} as {who}"
            problem = verdict(route, method, rank, response)
            if (route.name, method, who) in KNOWN:
                known_seen.add((route.name, method, who))
                if not problem:
                    wrong.append(f"{method} as {who} follows its rule now: take it out of KNOWN")
            elif problem:
                wrong.append(f"{method} as {who}: {problem}")
    assert not wrong, f"{path}: " + "; ".join(wrong)
