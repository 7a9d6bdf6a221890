"""An event's roles in the pages: directors invite assistants, assistants enter results and change
nothing else; club and federation accounts create events."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from tests.tournaments.conftest import make_settings
from tournaments import roles
from tournaments.audit_text import action_label
from tournaments.errors import NotAllowedError, UserError
from tournaments.models import AuditEntry, Event, Organisation
from tournaments.services import access, events


@pytest.fixture
def carol(db: None) -> User:
    """The assistant of the cast: keys the score sheets, changes nothing else."""
    return User.objects.create_user("carol", email="carol@example.org", password="carol-password")


@pytest.fixture
def outsider(request: pytest.FixtureRequest, db: None) -> User:
    """A signed-in user who directs none of the events under test; the module's shared event is
    gone for a test that does not work on it."""
    if "running" not in request.fixturenames:
        Event.objects.filter(slug="running").delete()
    return User.objects.create_user("oscar", password="oscar-password")


@pytest.fixture
def assisted(running: Event, td: User, carol: User) -> Event:
    access.add_assistant(td, running, carol)
    return running


def signed_in(user: User) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def access_page(event: Event) -> str:
    return f"/events/{event.slug}/access/"


# Invitations


def test_it_adds_an_assistant_by_user_name(td: User, carol: User, running: Event) -> None:
    response = signed_in(td).post(
        access_page(running), {"action": "add_assistant", "assistant-who": "Carol"}
    )
    assert response.status_code == 302
    assert running.assistants.filter(pk=carol.pk).exists()
    assert roles.role_of(running, carol) == roles.Role.ASSISTANT
    entry = AuditEntry.objects.get(event=running, action="access.assistant_add")
    assert entry.actor == td
    assert entry.params == {"user": "carol"}


def test_it_adds_an_assistant_by_e_mail(td: User, carol: User, running: Event) -> None:
    signed_in(td).post(
        access_page(running), {"action": "add_assistant", "assistant-who": "CAROL@example.org"}
    )
    assert running.assistants.filter(pk=carol.pk).exists()


def test_it_names_an_account_that_does_not_exist(td: User, running: Event) -> None:
    response = signed_in(td).post(
        access_page(running), {"action": "add_assistant", "assistant-who": "nobody"}
    )
    assert response.status_code == 200
    assert "No account has the user name or e-mail address nobody." in response.content.decode()
    assert not running.assistants.exists()


def test_it_refuses_to_add_the_same_assistant_twice(td: User, carol: User, assisted: Event) -> None:
    with pytest.raises(UserError) as caught:
        access.add_assistant(td, assisted, carol)
    assert caught.value.code == "duplicate"


def test_it_makes_an_account_for_an_assistant_and_shows_its_password_once(
    td: User, running: Event
) -> None:
    client = signed_in(td)
    response = client.post(
        access_page(running),
        {"action": "create_assistant", "account-username": "dirk", "account-email": ""},
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    found = re.search(r'id="new-password">([^<]+)<', page)
    assert found is not None
    password = found.group(1)
    dirk = User.objects.get(username="dirk")
    assert dirk.check_password(password)
    assert roles.role_of(running, dirk) == roles.Role.ASSISTANT
    assert password not in client.get(access_page(running)).content.decode()
    assert AuditEntry.objects.filter(event=running, action="access.account_create").exists()
    assert Client().login(username="dirk", password=password)


def test_it_refuses_a_new_account_whose_name_is_taken(
    td: User, carol: User, running: Event
) -> None:
    response = signed_in(td).post(
        access_page(running),
        {"action": "create_assistant", "account-username": "CAROL", "account-email": ""},
    )
    assert response.status_code == 200
    assert "The user name CAROL is taken" in response.content.decode()
    assert User.objects.filter(username__iexact="carol").count() == 1


@pytest.mark.parametrize("name", ["with space", "semi;colon", "x" * 151])
def test_it_refuses_a_user_name_it_cannot_keep(td: User, running: Event, name: str) -> None:
    with pytest.raises(UserError) as caught:
        access.create_assistant(td, running, name)
    assert caught.value.field == "username"


def test_it_removes_an_assistant(td: User, carol: User, assisted: Event) -> None:
    response = signed_in(td).post(f"{access_page(assisted)}assistant/{carol.pk}/remove/")
    assert response.status_code == 302
    assert roles.role_of(assisted, carol) == roles.Role.PUBLIC
    assert AuditEntry.objects.filter(event=assisted, action="access.assistant_remove").exists()


def test_it_adds_a_director_who_assisted(td: User, carol: User, assisted: Event) -> None:
    signed_in(td).post(access_page(assisted), {"action": "add_director", "director-who": "carol"})
    assert roles.role_of(assisted, carol) == roles.Role.DIRECTOR
    assert not assisted.assistants.filter(pk=carol.pk).exists()
    assert AuditEntry.objects.filter(event=assisted, action="access.director_add").exists()


def test_it_refuses_to_remove_the_last_director(td: User, running: Event) -> None:
    client = signed_in(td)
    response = client.post(f"{access_page(running)}director/{td.pk}/remove/", follow=True)
    assert "An event needs a director" in response.content.decode()
    assert running.directors.filter(pk=td.pk).exists()
    assert not AuditEntry.objects.filter(action="access.director_remove").exists()


def test_a_director_may_step_down_when_another_directs(
    td: User, carol: User, running: Event
) -> None:
    access.add_director(td, running, carol)
    response = signed_in(td).post(f"{access_page(running)}director/{td.pk}/remove/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert roles.role_of(running, td) == roles.Role.PUBLIC
    assert AuditEntry.objects.filter(event=running, action="access.director_remove").exists()


def test_only_directors_change_who_works_on_the_event(
    carol: User, outsider: User, assisted: Event
) -> None:
    for user in (carol, outsider):
        with pytest.raises(NotAllowedError):
            access.add_assistant(user, assisted, outsider)
        assert signed_in(user).get(access_page(assisted)).status_code == 403
        response = signed_in(user).post(
            access_page(assisted), {"action": "add_director", "director-who": user.username}
        )
        assert response.status_code == 403
    assert roles.role_of(assisted, outsider) == roles.Role.PUBLIC


def test_every_access_action_has_a_label() -> None:
    for action in (
        "access.assistant_add",
        "access.assistant_remove",
        "access.account_create",
        "access.director_add",
        "access.director_remove",
        "access.member_add",
    ):
        assert action_label(action) != action


# What an assistant sees and may do


def test_an_assistant_sees_the_event_without_what_only_directors_do(
    carol: User, assisted: Event
) -> None:
    page = signed_in(carol).get(f"/events/{assisted.slug}/").content.decode()
    assert 'id="assistant-note"' in page
    slug = assisted.slug
    for hidden in (
        f"/events/{slug}/edit/",
        f"/events/{slug}/players/",
        f"/events/{slug}/movement/",
        f"/events/{slug}/deals/",
        f"/events/{slug}/access/",
        f"/events/{slug}/finish/",
        f"/events/{slug}/rounds/1/close/",
    ):
        assert f'"{hidden}"' not in page, hidden
    assert f'"/events/{slug}/rounds/1/"' in page


def test_a_director_sees_the_access_link(td: User, running: Event) -> None:
    page = signed_in(td).get(f"/events/{running.slug}/").content.decode()
    assert f'"/events/{running.slug}/access/"' in page
    assert 'id="assistant-note"' not in page


@pytest.mark.parametrize(
    "path",
    ["edit/", "players/", "movement/", "deals/", "deals/import/", "seats/", "access/"],
)
def test_an_assistant_cannot_open_what_changes_the_event(
    carol: User, assisted: Event, path: str
) -> None:
    assert signed_in(carol).get(f"/events/{assisted.slug}/{path}").status_code == 403


def test_an_assistant_cannot_close_a_round(carol: User, assisted: Event) -> None:
    response = signed_in(carol).post(f"/events/{assisted.slug}/rounds/1/close/", {"reason": ""})
    assert response.status_code == 403
    assert assisted.round_set.get(number=1).status == "open"


@pytest.mark.parametrize("path", ["", "log/", "reports/"])
def test_an_assistant_reads_the_event_its_log_and_its_reports(
    carol: User, assisted: Event, path: str
) -> None:
    assert signed_in(carol).get(f"/events/{assisted.slug}/{path}").status_code == 200


def test_home_lists_the_events_a_user_assists_in(carol: User, assisted: Event) -> None:
    page = signed_in(carol).get("/").content.decode()
    assert f'href="/events/{assisted.slug}/"' in page


# Club and federation accounts


def test_a_user_of_no_club_or_federation_is_told_why_there_is_no_new_event(
    outsider: User,
) -> None:
    response = signed_in(outsider).get("/events/new/")
    assert response.status_code == 403
    assert "members of a club or federation account" in response.content.decode()
    response = signed_in(outsider).post("/events/new/", {"name": "Mine"})
    assert response.status_code == 403
    assert not Event.objects.exists()


def test_the_service_refuses_an_event_from_a_user_of_no_club_or_federation(
    outsider: User,
) -> None:
    assert not roles.may_create_events(outsider)
    with pytest.raises(NotAllowedError):
        events.create_event(outsider, make_settings())
    assert not Event.objects.exists()


def test_a_member_creates_events_for_the_only_organisation(outsider: User) -> None:
    club = Organisation.objects.create(name="KWC Aalst")
    access.join_organisation(None, club, outsider)
    assert roles.may_create_events(outsider)
    event = events.create_event(outsider, make_settings())
    assert event.organisation == club
    assert roles.role_of(event, outsider) == roles.Role.DIRECTOR


def test_a_member_of_several_chooses_which_one(outsider: User, td: User) -> None:
    club = Organisation.objects.create(name="KWC Aalst")
    federation = Organisation.objects.create(name="Federation", kind="federation")
    club.members.add(outsider)
    federation.members.add(outsider)
    with pytest.raises(UserError) as caught:
        events.create_event(outsider, make_settings())
    assert caught.value.field == "organisation"
    page = signed_in(outsider).get("/events/new/").content.decode()
    assert 'name="organisation"' in page
    event = events.create_event(outsider, make_settings(), federation)
    assert event.organisation == federation
    # Another's organisation is not one to choose.
    other = td.organisations.get()
    with pytest.raises(UserError) as caught:
        events.create_event(outsider, make_settings(slug="other"), other.pk)
    assert caught.value.field == "organisation"


def test_the_new_event_page_creates_an_event_of_the_td_club(td: User) -> None:
    response = signed_in(td).post(
        "/events/new/",
        {
            "name": "Winter evening",
            "date": "2026-12-01",
            "language": "nl",
            "game": "kleurenwiezen",
            "ruleset_name": "whisthub",
            "comparison": "matchpoints",
            "rounds": 4,
            "boards_per_round": 4,
            "seating_mode": "byes",
            "board_mode": "same",
            "ronde_pas_games": "by_board",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(name="Winter evening")
    assert event.organisation == td.organisations.get()


def test_the_demo_td_belongs_to_the_demo_club_and_has_an_assistant(
    td: User, outsider: User, running: Event
) -> None:
    from tournaments.demo import demo_assistant, demo_club

    organisation = demo_club(outsider)
    assert outsider in organisation.members.all()
    assert roles.may_create_events(outsider)
    # A TD of another club stays in that club only: their new events need no choice.
    assert td not in demo_club(td).members.all()
    helper = demo_assistant(running, "td-assistant", "a-password")
    assert helper.check_password("a-password")
    assert roles.role_of(running, helper) == roles.Role.ASSISTANT


def test_the_demo_prints_the_assistant_login_next_to_the_td_login(
    db: None, settings: Any, tmp_path: Path
) -> None:
    settings.VAR_DIR = tmp_path
    out = io.StringIO()
    call_command("demo", stdout=out)
    text = out.getvalue()
    assert "Demo TD login: user 'td'" in text
    found = re.search(r"Demo assistant login: user '([^']+)', password '([^']+)'", text)
    assert found is not None
    helper = User.objects.get(username=found.group(1))
    assert helper.check_password(found.group(2))
    demo = Event.objects.get(slug="demo")
    assert roles.role_of(demo, helper) == roles.Role.ASSISTANT
    assert demo.organisation is not None
    assert User.objects.get(username="td") in demo.organisation.members.all()


def test_home_offers_a_new_event_only_to_those_who_may_create_one(td: User, outsider: User) -> None:
    assert 'href="/events/new/"' in signed_in(td).get("/").content.decode()
    assert 'href="/events/new/"' not in signed_in(outsider).get("/").content.decode()


NASTY = ["\x00", "a\x1bb", "x" * 400, "<b>carol</b>", "carol@", "@", "%", "' OR 1=1 --", " "]


@pytest.mark.parametrize("text", NASTY)
def test_no_text_in_the_access_forms_breaks_the_page(td: User, running: Event, text: str) -> None:
    client = signed_in(td)
    for data in (
        {"action": "add_assistant", "assistant-who": text},
        {"action": "add_director", "director-who": text},
        {"action": "create_assistant", "account-username": text, "account-email": text},
        {"action": text},
    ):
        response = client.post(access_page(running), data)
        assert response.status_code in (200, 302)
    assert not running.assistants.exists()
    assert list(running.directors.all()) == [td]
    assert not User.objects.exclude(username="alice").exists()
