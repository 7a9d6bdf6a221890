from __future__ import annotations

from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    Board,
    Club,
    Entry,
    Event,
    Penalty,
    Player,
    Result,
    Round,
    Seating,
    Series,
    Table,
    TableBoard,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club", "federation_number"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name", "federation_number"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "game", "ruleset_name", "status"]
    list_filter = ["status", "game"]
    search_fields = ["name", "slug", "venue"]
    filter_horizontal = ["directors"]
    # Status, the frozen ruleset and the deals change through the TD pages, which keep the log.
    readonly_fields = [
        "status",
        "ruleset_toml",
        "ruleset_frozen_at",
        "deal_commitment",
        "deal_key_revealed_at",
    ]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "player", "status", "first_round", "withdrawn_after_round"]
    list_filter = ["status", "event"]
    raw_id_fields = ["player"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "opened_at", "closed_at"]
    list_filter = ["status", "event"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number"]
    list_filter = ["round__event"]


@admin.register(Seating)
class SeatingAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "seat", "entry"]
    list_filter = ["round__event"]
    raw_id_fields = ["entry", "table", "round"]


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "dealer", "deal"]
    list_filter = ["event"]


@admin.register(TableBoard)
class TableBoardAdmin(admin.ModelAdmin):
    list_display = ["table", "board", "position"]
    raw_id_fields = ["table", "board"]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["event", "board", "table", "version", "is_current", "notation", "status"]
    list_filter = ["event", "is_current", "kind", "status"]
    raw_id_fields = ["table", "board", "entered_by"]

    def has_change_permission(self, request: object, obj: Result | None = None) -> bool:
        # Results are corrected through the entry pages, which add a version and an audit entry.
        return False

    def has_delete_permission(self, request: object, obj: Result | None = None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "event", "actor", "action", "summary", "reason"]
    list_filter = ["action", "event"]
    search_fields = ["summary", "reason"]

    def has_change_permission(self, request: object, obj: AuditEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: AuditEntry | None = None) -> bool:
        return False

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "best_of"]
    filter_horizontal = ["events", "directors"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ["event", "kind", "offender", "board", "table", "is_active", "reason"]
    list_filter = ["event", "kind", "is_active"]
    raw_id_fields = ["offender", "table", "board", "created_by"]

    def has_change_permission(self, request: object, obj: Penalty | None = None) -> bool:
        # Penalties are cancelled from the board page, which keeps the record and logs why.
        return False

    def has_delete_permission(self, request: object, obj: Penalty | None = None) -> bool:
        return False
