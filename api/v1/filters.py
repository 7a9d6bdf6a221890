"""The lists' filters (django-filter): each is in the OpenAPI document and in docs/api.md.

A value a filter cannot read (``?round=two``, ``?status=lost``) is a 400 naming the parameter,
never ignored: ``DjangoFilterBackend`` raises the form's errors, ``api.errors`` shapes them.
"""

from __future__ import annotations

from typing import Any

import django_filters as filters  # type: ignore[import-untyped]  # django-filter has no types
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from documents.models import ReportFile
from tournaments.models import Board, Club, Entry, Event, Player, Result, Round

# Small integers in the database: a larger number is no round, table or board (and would overflow
# PostgreSQL's smallint instead of matching nothing).
LARGEST_NUMBER = 32767


class NumberFilter(filters.NumberFilter):  # type: ignore[misc]  # django-filter is untyped
    """A whole number from 1 up to what the database holds."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.extra.setdefault("min_value", 1)
        self.extra.setdefault("max_value", LARGEST_NUMBER)
        self.extra.setdefault("decimal_places", 0)


class EventFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    status = filters.ChoiceFilter(
        choices=Event.Status.choices, help_text="draft, running or finished"
    )
    game = filters.ChoiceFilter(choices=Event.Game.choices)
    date = filters.DateFromToRangeFilter(
        help_text="held on or after date_after and on or before date_before (YYYY-MM-DD)"
    )

    class Meta:
        model = Event
        fields = ["status", "game", "date"]


class ClubFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    name = filters.CharFilter(lookup_expr="icontains", max_length=120, help_text="part of the name")

    class Meta:
        model = Club
        fields = ["name"]


class PlayerFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    club = filters.ModelChoiceFilter(queryset=Club.objects.all(), help_text="the club's id")
    name = filters.CharFilter(
        method="filter_name", max_length=160, help_text="part of the first or last name"
    )
    federation_number = filters.CharFilter(max_length=20)

    class Meta:
        model = Player
        fields = ["club", "name", "federation_number"]

    def filter_name(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        query = Q()
        for word in value.split():
            query &= Q(first_name__icontains=word) | Q(last_name__icontains=word)
        return queryset.filter(query)


class EntryFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    status = filters.ChoiceFilter(choices=Entry.Status.choices)
    role = filters.ChoiceFilter(choices=Entry.Role.choices)

    class Meta:
        model = Entry
        fields = ["status", "role"]


class RoundFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    status = filters.ChoiceFilter(choices=Round.Status.choices)

    class Meta:
        model = Round
        fields = ["status"]


class BoardFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    number = filters.RangeFilter(
        help_text="boards number_min to number_max (either may be left out)"
    )

    class Meta:
        model = Board
        fields = ["number"]


class ReportFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    kind = filters.ChoiceFilter(choices=ReportFile.Kind.choices)
    status = filters.ChoiceFilter(choices=ReportFile.Status.choices)
    round = NumberFilter(field_name="round_number")

    class Meta:
        model = ReportFile
        fields = ["kind", "status", "round"]


SHEET_STATUSES = [("none", _("no difference")), *Result.SheetStatus.choices[1:]]


class ResultFilter(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    """The current results of an event, narrowed by where they were played and how they stand."""

    round = NumberFilter(field_name="table__round__number")
    table = NumberFilter(field_name="table__number")
    board = NumberFilter(field_name="board__number")
    status = filters.ChoiceFilter(choices=Result.Status.choices)
    source = filters.ChoiceFilter(choices=Result.Source.choices)
    kind = filters.ChoiceFilter(choices=Result.Kind.choices)
    sheet_status = filters.ChoiceFilter(
        choices=SHEET_STATUSES,
        method="filter_sheet_status",
        help_text="none, open (the sheet differs) or accepted",
    )
    # A choice rather than django-filter's boolean, which reads "maybe" as "no filter".
    has_other_keying = filters.ChoiceFilter(
        choices=[("true", "true"), ("false", "false")],
        method="filter_other_keying",
        help_text="true: a second keying differed and waits for the director",
    )

    class Meta:
        model = Result
        fields = [
            "round",
            "table",
            "board",
            "status",
            "source",
            "kind",
            "sheet_status",
            "has_other_keying",
        ]

    def filter_sheet_status(
        self, queryset: QuerySet[Result], name: str, value: str
    ) -> QuerySet[Result]:
        return queryset.filter(sheet_status=Result.SheetStatus.NONE if value == "none" else value)

    def filter_other_keying(
        self, queryset: QuerySet[Result], name: str, value: str
    ) -> QuerySet[Result]:
        if value == "true":
            return queryset.exclude(other_keying="")
        return queryset.filter(other_keying="")
