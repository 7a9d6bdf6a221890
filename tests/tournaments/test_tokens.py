"""API tokens: made on the account's page or through the API, shown once, revocable, and never
worth more than their user's role in the event nor more than their access allows."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments import roles
from tournaments.errors import NotAllowedError, UserError
from tournaments.models import ApiToken, AuditEntry, Event, Result
from tournaments.services import access, tokens


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password="carol-password")


@pytest.fixture(scope="module")
def _other(module_td: User) -> Event:
    """Another event of the same director: eight players, round 1 in play."""
    with as_a_test():
        return start_event(module_td, "other", 8)


@pytest.fixture
def other(_other: Event, db: None) -> Event:
    """Another event of the same director, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_other.pk)


def browser(user: User | None = None, **headers: str) -> Client:
    client = Client(headers={"accept-language": "en", **headers})
    if user is not None:
        client.force_login(user)
    return client


def bearer(key: str) -> Client:
    return browser(authorization=f"Bearer {key}")


def result_body(event: Event) -> dict[str, Any]:
    table = event.round_set.get(number=1).tables.order_by("number").first()
    assert table is not None
    link = table.table_boards.select_related("board").order_by("position").first()
    assert link is not None
    return {
        "round": 1,
        "table": table.number,
        "board": link.board.number,
        "text": a_line_for(link.board),
    }


def post_result(client: Client, event: Event) -> Any:
    return client.post(
        f"/api/v1/events/{event.slug}/results/",
        json.dumps(result_body(event)),
        content_type="application/json",
    )


def results_of(client: Client, event: Event) -> Any:
    return client.get(f"/api/v1/events/{event.slug}/results/")


# The service


def test_it_keeps_only_a_hash_of_the_key(td: User) -> None:
    token, key = tokens.create_token(td, "Club site", "read")
    assert key.startswith("troef_")
    assert token.prefix == key[:12]
    stored = ApiToken.objects.get(pk=token.pk)
    assert key not in (stored.key_hash, stored.prefix)
    assert tokens.authenticate(key) == token
    assert tokens.authenticate(key + "x") is None
    assert tokens.authenticate(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    assert AuditEntry.objects.filter(action="token.create", actor=td).exists()


def test_a_revoked_token_lets_nobody_in(td: User) -> None:
    token, key = tokens.create_token(td, "Club site", "read")
    tokens.revoke_token(td, token)
    assert tokens.authenticate(key) is None
    assert AuditEntry.objects.filter(action="token.revoke", actor=td).exists()


def test_a_token_of_a_deactivated_user_lets_nobody_in(carol: User) -> None:
    _token, key = tokens.create_token(carol, "Phone", "read")
    carol.is_active = False
    carol.save()
    assert tokens.authenticate(key) is None


@pytest.mark.parametrize(
    ("name", "access_", "field"),
    [
        ("", "read", "name"),
        ("x" * 81, "read", "name"),
        ("a\x00b", "read", "name"),
        ("ok", "all", "access"),
    ],
)
def test_it_names_what_is_wrong_with_a_new_token(
    td: User, name: str, access_: str, field: str
) -> None:
    with pytest.raises(UserError) as caught:
        tokens.create_token(td, name, access_)
    assert caught.value.field == field
    assert not ApiToken.objects.exists()


def test_a_token_is_only_for_an_event_the_user_works_on(carol: User, running: Event) -> None:
    with pytest.raises(UserError) as caught:
        tokens.create_token(carol, "Phone", "enter", running)
    assert caught.value.field == "event"
    access.add_assistant(running.directors.get(), running, carol)
    token, _key = tokens.create_token(carol, "Phone", "enter", running)
    assert token.event == running


def test_an_anonymous_caller_makes_no_token(running: Event) -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowedError):
        tokens.create_token(AnonymousUser(), "x", "read")


def test_a_token_narrows_the_role_and_keeps_to_its_event(
    td: User, running: Event, other: Event
) -> None:
    read, _ = tokens.create_token(td, "r", "read")
    enter, _ = tokens.create_token(td, "e", "enter")
    direct, _ = tokens.create_token(td, "d", "direct", running)
    assert roles.role_of(running, td, read) == roles.Role.PUBLIC
    assert roles.role_of(running, td, enter) == roles.Role.ASSISTANT
    assert roles.role_of(running, td, direct) == roles.Role.DIRECTOR
    assert roles.role_of(other, td, direct) == roles.Role.PUBLIC


# Through the API, end to end


def test_an_enter_token_records_a_result_for_its_user(td: User, running: Event) -> None:
    _token, key = tokens.create_token(td, "Scoring laptop", "enter")
    response = post_result(bearer(key), running)
    assert response.status_code == 201, response.json()
    assert Result.objects.get(event=running, is_current=True).entered_by == td


def test_a_read_token_cannot_write_a_result(td: User, running: Event) -> None:
    _token, key = tokens.create_token(td, "Club site", "read")
    response = post_result(bearer(key), running)
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert results_of(bearer(key), running).status_code == 403
    assert not Result.objects.filter(event=running).exists()


def test_a_revoked_token_gets_401(td: User, running: Event) -> None:
    token, key = tokens.create_token(td, "Old laptop", "enter")
    tokens.revoke_token(td, token)
    response = post_result(bearer(key), running)
    assert response.status_code == 401
    body = response.json()
    assert set(body) == {"code", "message", "field", "params"}
    assert "revoked" in body["message"]
    assert not Result.objects.filter(event=running).exists()


@pytest.mark.parametrize("header", ["Bearer", "Bearer a b", "Bearer troef_nonsense", "Bearer é"])
def test_a_malformed_token_gets_401(running: Event, header: str) -> None:
    response = browser(authorization=header).get(f"/api/v1/events/{running.slug}/")
    assert response.status_code == 401
    assert response.json()["code"] in ("authentication_failed", "not_authenticated")


def test_a_token_for_one_event_is_public_in_another(td: User, running: Event, other: Event) -> None:
    _token, key = tokens.create_token(td, "Running only", "direct", running)
    assert results_of(bearer(key), running).status_code == 200
    assert results_of(bearer(key), other).status_code == 403
    assert post_result(bearer(key), other).status_code == 403


def test_an_assistant_direct_token_is_worth_an_assistant(
    td: User, carol: User, running: Event
) -> None:
    access.add_assistant(td, running, carol)
    token, key = tokens.create_token(carol, "Phone", "direct", running)
    assert roles.role_of(running, carol, token) == roles.Role.ASSISTANT
    assert post_result(bearer(key), running).status_code == 201


def test_a_token_does_not_sign_in_to_the_pages(td: User, running: Event) -> None:
    _token, key = tokens.create_token(td, "Everything", "direct")
    response = bearer(key).get(f"/events/{running.slug}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert bearer(key).get("/account/tokens/").status_code == 302


# The tokens page


def test_the_page_makes_a_token_and_shows_its_key_once(td: User, running: Event) -> None:
    client = browser(td)
    response = client.post(
        "/account/tokens/", {"name": "Federation site", "access": "read", "event": running.pk}
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    found = re.search(r'id="new-key">([^<]+)<', response.content.decode())
    assert found is not None
    key = found.group(1)
    token = tokens.authenticate(key)
    assert token is not None
    assert (token.name, token.access, token.event, token.user) == (
        "Federation site",
        "read",
        running,
        td,
    )
    listing = client.get("/account/tokens/").content.decode()
    assert token.prefix in listing
    assert key not in listing


def test_the_page_offers_only_the_events_the_user_works_on(
    td: User, carol: User, running: Event
) -> None:
    response = browser(carol).post(
        "/account/tokens/", {"name": "Phone", "access": "enter", "event": running.pk}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_the_page_revokes_a_token(td: User) -> None:
    token, key = tokens.create_token(td, "Club site", "read")
    response = browser(td).post(f"/account/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    assert tokens.authenticate(key) is None


def test_nobody_revokes_another_users_token(td: User, carol: User) -> None:
    token, key = tokens.create_token(td, "Club site", "read")
    assert browser(carol).post(f"/account/tokens/{token.pk}/revoke/").status_code == 404
    assert browser(carol).delete(f"/api/v1/tokens/{token.pk}/").status_code == 404
    assert tokens.authenticate(key) is not None


def test_the_page_asks_to_sign_in(db: None) -> None:
    response = browser().get("/account/tokens/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


# The tokens endpoints


def test_the_api_makes_lists_and_revokes_tokens(td: User, running: Event) -> None:
    client = browser(td)
    response = client.post(
        "/api/v1/tokens/",
        json.dumps({"name": "Results display", "access": "read", "event": running.slug}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    assert response["Cache-Control"] == "no-store"
    made = response.json()
    assert made["event"] == running.slug
    assert made["revoked"] is False
    assert tokens.authenticate(made["key"]) is not None
    listing = client.get("/api/v1/tokens/").json()
    assert [row["id"] for row in listing["results"]] == [made["id"]]
    assert "key" not in listing["results"][0]
    assert client.get(f"/api/v1/tokens/{made['id']}/").json()["name"] == "Results display"
    assert client.delete(f"/api/v1/tokens/{made['id']}/").status_code == 204
    assert tokens.authenticate(made["key"]) is None
    again = client.post(f"/api/v1/tokens/{made['id']}/revoke/")
    assert again.status_code == 200
    assert again.json()["revoked"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "x", "access": "all"}, "access"),
        ({"access": "read"}, "name"),
        ({"name": "x", "access": "read", "event": "no-such-event"}, "event"),
        ({"name": "x", "access": "read", "event": "running"}, "event"),
    ],
)
def test_the_api_names_what_is_wrong_with_a_new_token(
    carol: User, running: Event, body: dict[str, Any], field: str
) -> None:
    response = browser(carol).post(
        "/api/v1/tokens/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not ApiToken.objects.exists()


def test_a_token_cannot_make_or_see_tokens(td: User) -> None:
    _token, key = tokens.create_token(td, "Club site", "read")
    response = bearer(key).post(
        "/api/v1/tokens/",
        json.dumps({"name": "stronger", "access": "direct"}),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert bearer(key).get("/api/v1/tokens/").status_code == 403
    assert ApiToken.objects.count() == 1


def test_the_tokens_endpoints_ask_to_sign_in(db: None) -> None:
    assert browser().get("/api/v1/tokens/").status_code == 401
    response = browser().post(
        "/api/v1/tokens/",
        json.dumps({"name": "x", "access": "read"}),
        content_type="application/json",
    )
    assert response.status_code == 401


# The admin


def test_the_admin_lists_tokens_without_their_hash_and_revokes_them(td: User) -> None:
    token, key = tokens.create_token(td, "Club site", "read")
    admin = User.objects.create_superuser("root", password="root-password")
    client = browser(admin)
    listing = client.get("/admin/tournaments/apitoken/")
    assert listing.status_code == 200
    assert token.prefix in listing.content.decode()
    page = client.get(f"/admin/tournaments/apitoken/{token.pk}/change/").content.decode()
    assert token.key_hash not in page
    response = client.post(
        "/admin/tournaments/apitoken/",
        {"action": "revoke", "_selected_action": [str(token.pk)]},
    )
    assert response.status_code == 302
    assert tokens.authenticate(key) is None


def test_the_admin_manages_club_and_federation_accounts(outsider: User) -> None:
    admin = User.objects.create_superuser("root", password="root-password")
    client = browser(admin)
    assert client.get("/admin/tournaments/organisation/").status_code == 200
    response = client.post(
        "/admin/tournaments/organisation/add/",
        {"name": "KWC Aalst", "kind": "club", "members": [str(outsider.pk)]},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert roles.may_create_events(outsider)


@pytest.mark.parametrize("text", ["\x00", "a\x1bb", "x" * 400, " ", None, ["x"], {"x": 1}])
def test_no_value_in_a_new_token_breaks_the_page_or_the_api(td: User, text: Any) -> None:
    if isinstance(text, str):
        page = browser(td).post("/account/tokens/", {"name": text, "access": text, "event": text})
        assert page.status_code == 200
    for body in (
        {"name": text, "access": "read"},
        {"name": "x", "access": text},
        # null or blank: no one event (all the user's); anything else must be an event's slug
        {"name": "x", "access": "read", "event": text if text not in (None, " ") else ["x"]},
    ):
        response = browser(td).post(
            "/api/v1/tokens/", json.dumps(body), content_type="application/json"
        )
        assert response.status_code == 400, (body, response.json())
        assert set(response.json()) == {"code", "message", "field", "params"}
    assert not ApiToken.objects.exists()


def test_a_token_name_is_kept_as_text_and_shown_escaped(td: User) -> None:
    tokens.create_token(td, "<b>site</b>", "read")
    page = browser(td).get("/account/tokens/").content.decode()
    assert "&lt;b&gt;site&lt;/b&gt;" in page
    assert "<b>site</b>" not in page


def test_a_removed_assistant_token_stops_entering_results(
    td: User, carol: User, running: Event
) -> None:
    access.add_assistant(td, running, carol)
    _token, key = tokens.create_token(carol, "Phone", "enter", running)
    access.remove_assistant(td, running, carol)
    assert post_result(bearer(key), running).status_code == 403
    assert not Result.objects.filter(event=running).exists()
