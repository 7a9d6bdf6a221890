"""The published standings document: encoded once per version and shared by every web process.

Hundreds of phones and screens read an event's standings every few seconds, and on a busy evening
every few saves make a new version. The part of the document that does not depend on the reader
(the figures, the rows and their addresses) is encoded once, by the worker that computed the
standings, and kept in the cache under its version; the web processes add the few texts in the
reader's language around it and never decode or encode the figures again.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import reverse

from tournaments.models import Event, Standings

logger = logging.getLogger(__name__)

#: How long a version stays in the cache; a newer version replaces it well before that.
KEEP_SECONDS = 15 * 60

# A player number no event has (numbers are small integers), put in a page's address and swapped.
_PLACEHOLDER = 32767


def version_key(
    slug: str, computed: int, computed_at: dt.datetime | None, failed: bool = False
) -> str:
    """The cache key of one version of an event's standings.

    Standings made again from scratch count from 1 again but carry a new time; a failed
    computation keeps the figures and adds its reason.
    """
    stamp = f"{computed_at.timestamp():.6f}" if computed_at else "-"
    return f"troef:standings-document:{slug}:{computed}:{stamp}:{'f' if failed else ''}"


def encode(slug: str, data: dict[str, Any], computed_at: dt.datetime | None) -> bytes:
    """The reader-independent part of the document, as a JSON object's bytes."""
    address = reverse("player_results", args=[slug, _PLACEHOLDER])
    head, _sep, tail = address.rpartition(f"/{_PLACEHOLDER}/")
    document = {
        "event": slug,
        "computed_at": computed_at.isoformat() if computed_at else None,
        **data,
        # Each row's page, so that the self-refreshing table keeps its links.
        "rows": [{**row, "url": f"{head}/{row['entry']}/{tail}"} for row in data.get("rows", [])],
    }
    return json.dumps(document, cls=DjangoJSONEncoder, separators=(",", ":")).encode()


def publish(slug: str, state: Standings) -> None:
    """Encode freshly computed standings and keep them for the web processes.

    The cache is an accelerator: when it cannot be reached, readers encode the document themselves.
    """
    body = encode(slug, state.data, state.computed_at)
    try:
        cache.set(version_key(slug, state.computed, state.computed_at), body, KEEP_SECONDS)
    except Exception:  # the cache is down: readers encode it themselves
        logger.warning("standings of %s not kept in the cache", slug, exc_info=True)


def document(
    slug: str, computed: int, computed_at: dt.datetime | None, failed: bool = False
) -> bytes:
    """The reader-independent part of the given version, from the cache or encoded now.

    When the standings have moved on since the version was read, the newer figures are encoded
    and nothing is kept: a version's key never holds another version's figures.
    """
    key = version_key(slug, computed, computed_at, failed)
    try:
        body = cache.get(key)
    except Exception:
        logger.warning("standings of %s not read from the cache", slug, exc_info=True)
        body = None
    if isinstance(body, bytes):
        return body
    state = Standings.objects.filter(event__slug=slug).first()
    if state is None:
        method = Event.objects.filter(slug=slug).values_list("comparison", flat=True).first()
        return encode(slug, {"rows": [], "rounds": [], "method": method}, None)
    body = encode(slug, state.data, state.computed_at)
    same = (state.computed, state.computed_at, "failure" in state.data)
    if same == (computed, computed_at, failed):
        try:
            cache.set(key, body, KEEP_SECONDS)
        except Exception:
            logger.warning("standings of %s not kept in the cache", slug, exc_info=True)
    return body
