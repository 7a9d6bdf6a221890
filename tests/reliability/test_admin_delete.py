"""Deleting a player whose results count: refused everywhere, and every result stays.

A player deleted from under their results would leave the standings unable to name a seat; no
click in the admin, superuser or not, and no ``delete()`` in a shell may do it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.models import Player, Result, Seating, TableBoard
from tournaments.services import results

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]


@pytest.fixture
def superuser(db: None) -> User:
    return User.objects.create_superuser("root", password="root-password")


@pytest.fixture
def admin_client(superuser: User) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(superuser)
    return client


@pytest.fixture
def seated_player(td: User) -> Player:
    """The North player of table 1 in round 1, with the table's four results recorded."""
    event = start_event(td, "admin-delete", 8)
    seating = Seating.objects.select_related("table", "entry__player").get(
        round__event=event, round__number=1, table__number=1, seat="N"
    )
    assert seating.table is not None
    assert seating.entry is not None
    for table_board in TableBoard.objects.filter(table=seating.table).select_related("board"):
        line = a_line_for(table_board.board)
        results.record_result(td, seating.table, table_board.board, line, confirmed=True)
    return seating.entry.player


def current_results() -> list[tuple[int, int, int, str]]:
    return list(
        Result.objects.order_by("pk").values_list("table_id", "board_id", "version", "notation")
    )


def test_the_admin_refuses_to_delete_a_player_with_results(
    admin_client: Client, seated_player: Player
) -> None:
    before = current_results()
    assert len(before) == 4
    url = reverse("admin:tournaments_player_delete", args=[seated_player.pk])

    assert admin_client.get(url).status_code == 403
    assert admin_client.post(url, {"post": "yes"}).status_code == 403

    assert Player.objects.filter(pk=seated_player.pk).exists()
    assert current_results() == before


def test_the_admins_bulk_delete_refuses_a_player_with_results(
    admin_client: Client, seated_player: Player
) -> None:
    before = current_results()
    response = admin_client.post(
        reverse("admin:tournaments_player_changelist"),
        {"action": "delete_selected", "_selected_action": [seated_player.pk], "post": "yes"},
    )
    # Django's own answer for protected objects: a page that names them, nothing deleted.
    assert response.status_code in (200, 302)
    assert Player.objects.filter(pk=seated_player.pk).exists()
    assert current_results() == before


def test_deleting_a_player_with_results_in_code_is_refused(seated_player: Player) -> None:
    before = current_results()
    with pytest.raises(ProtectedError):
        seated_player.delete()
    assert Player.objects.filter(pk=seated_player.pk).exists()
    assert current_results() == before
