"""The admin: users, clubs, players, series and the club and federation accounts (whose members
create events) are edited here; tournament data is only shown; API tokens are only revoked.

Events, entries, rounds, seating, boards, results, adjustments, standings, reports and the log
change only through the TD pages, whose services keep the rules and write an audit entry. Nobody,
superusers included, adds, changes or deletes them here (docs/deploy.md).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    ApiToken,
    AuditEntry,
    Board,
    BoardAnalysis,
    Club,
    Entry,
    Event,
    Organisation,
    Penalty,
    Player,
    Result,
    Round,
    ScoringTable,
    ScoringTableVersion,
    Seating,
    Series,
    SitOutScore,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services import tokens


class ReadOnly:
    """No add, change or delete permission for anyone: the admin shows, the TD pages change."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]

    def has_delete_permission(self, request: HttpRequest, obj: Club | None = None) -> bool:
        # Deleting a club would take the club's name off past standings and reports.
        if obj is not None and Entry.objects.filter(player__club=obj).exists():
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # The bulk delete skips the per-club check above (clubs are not protected by a key).
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club", "federation_number"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name", "federation_number"]

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        # Entry.player is PROTECT as well, which also covers the bulk delete action.
        if obj is not None and obj.entries.exists():
            return False
        return super().has_delete_permission(request, obj)


class EntryInline(ReadOnly, admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["name", "date", "game", "ruleset_name", "status"]
    list_filter = ["status", "game"]
    search_fields = ["name", "slug", "venue"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "number", "player", "status", "first_round", "withdrawn_after_round"]
    list_filter = ["status", "event"]


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "number", "status", "opened_at", "closed_at"]
    list_filter = ["status", "event"]


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["round", "number", "ruling"]
    list_filter = ["round__event"]


@admin.register(Seating)
class SeatingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["round", "table", "seat", "entry", "replaces"]
    list_filter = ["round__event"]


@admin.register(Board)
class BoardAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "number", "dealer", "deal"]
    list_filter = ["event"]


@admin.register(TableBoard)
class TableBoardAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["table", "board", "position"]


@admin.register(Result)
class ResultAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "board", "table", "version", "is_current", "notation", "status"]
    list_filter = ["event", "is_current", "kind", "status"]
    ordering = ["event", "board__number", "table__number", "-version"]


@admin.register(Penalty)
class PenaltyAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "kind", "offender", "board", "table", "is_active", "reason"]
    list_filter = ["event", "kind", "is_active"]


@admin.register(SitOutScore)
class SitOutScoreAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "entry", "round_number", "award", "reason"]
    list_filter = ["event"]


@admin.register(Standings)
class StandingsAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "requested", "computed", "computed_at"]


@admin.register(BoardAnalysis)
class BoardAnalysisAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["board", "solver", "computed_at", "error"]
    list_filter = ["board__event"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["at", "event", "actor", "action", "summary", "reason"]
    list_filter = ["action", "event"]
    search_fields = ["summary", "reason"]


class ScoringTableVersionInline(ReadOnly, admin.TabularInline):
    model = ScoringTableVersion
    fields = ["number", "created_by", "created_at"]
    readonly_fields = ["number", "created_by", "created_at"]
    extra = 0


@admin.register(ScoringTable)
class ScoringTableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    inlines = [ScoringTableVersionInline]


@admin.register(ScoringTableVersion)
class ScoringTableVersionAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["table", "number", "created_by", "created_at"]
    list_filter = ["table__club"]
    search_fields = ["table__name", "table__club__name"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "best_of"]
    filter_horizontal = ["events", "directors"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    """Club and federation accounts: their members create events."""

    list_display = ["name", "kind", "club", "member_count"]
    list_filter = ["kind"]
    search_fields = ["name", "members__username", "members__email"]
    filter_horizontal = ["members"]
    autocomplete_fields = ["club"]

    @admin.display(description=_("members"))
    def member_count(self, obj: Organisation) -> int:
        return obj.members.count()


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnly, admin.ModelAdmin):
    """Tokens are made by their users on the tokens page, where the key is shown once; here an
    administrator sees them and may revoke them (a lost laptop, a member who left)."""

    list_display = [
        "name",
        "user",
        "prefix",
        "access",
        "event",
        "created",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = ["access", "revoked_at"]
    search_fields = ["name", "prefix", "user__username"]
    exclude = ["key_hash"]
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected API tokens"))
    def revoke(self, request: HttpRequest, queryset: Any) -> None:
        for token in queryset.filter(revoked_at=None):
            tokens.revoke_token(request.user, token)
