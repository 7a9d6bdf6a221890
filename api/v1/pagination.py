"""Every list of the API comes in pages: ``?page=`` (from 1) and ``?page_size=`` (capped)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.views import APIView

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


def _positive(request: Request, name: str) -> int | None:
    """A positive whole number from the query, ``None`` when absent; else a 400 naming it."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1 or len(raw) > 9:
        raise ValidationError(
            {name: _("Give a whole number from 1 up, not “%(value)s”.") % {"value": raw[:40]}}
        )
    return int(raw)


class PagePagination(PageNumberPagination):
    """Pages of ``DEFAULT_PAGE_SIZE`` (``page_size`` up to ``MAX_PAGE_SIZE``).

    A page number or size that is not a whole number is a 400 naming the parameter (DRF would
    answer 404, or silently use the default size); a page past the last one is a 404.
    """

    page_size = DEFAULT_PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int:
        size = _positive(request, self.page_size_query_param)
        if size is None:
            return self.page_size
        return min(size, self.max_page_size)

    def paginate_queryset(
        self, queryset: Any, request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        _positive(request, self.page_query_param)
        return super().paginate_queryset(queryset, request, view)
