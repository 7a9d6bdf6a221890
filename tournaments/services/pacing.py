"""How often an event's standings are recomputed while saves keep coming.

On a busy evening every table saves a board every few seconds, and each save asks for new
standings. A computation that starts as soon as the last one ends would keep a processor busy for
the whole evening, taken from the pages that players and directors are waiting for. So after each
computation the event rests, in proportion to how long it took, so that its computations take at
most the share of a processor that ``settings.TROEF_STANDINGS_SHARE`` gives (half: a rest as long
as the computation). Saves that arrive during the rest are covered by one computation at its end
(``defer``), queued once whatever their number.

The cache holds the figures; when it cannot be reached, nothing rests and nothing is deferred.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


def _last_key(event_id: int) -> str:
    return f"troef:standings-last:{event_id}"


def _deferred_key(event_id: int) -> str:
    return f"troef:standings-deferred:{event_id}"


def record(event_id: int, took: float) -> None:
    """A computation of the event's standings ended now, after ``took`` seconds."""
    try:
        cache.set(_last_key(event_id), (time.time(), took), timeout=600)
    except Exception:
        logger.warning("standings pacing not recorded for event %s", event_id, exc_info=True)


def rest(event_id: int) -> float:
    """Seconds before the event's standings should be computed again (0: now)."""
    try:
        last = cache.get(_last_key(event_id))
    except Exception:
        return 0.0
    if not isinstance(last, tuple) or len(last) != 2:
        return 0.0
    ended, took = last
    share = float(settings.TROEF_STANDINGS_SHARE)
    pause = float(took) * (1 - share) / share
    return max(0.0, min(float(ended) + pause - time.time(), pause))


def defer(event_id: int, seconds: float) -> bool:
    """Whether this caller should queue the computation that ends the rest: the first one does;
    the others find it queued already."""
    try:
        return bool(cache.add(_deferred_key(event_id), 1, timeout=int(seconds) + 60))
    except Exception:
        return True


def deferred_run_starts(event_id: int) -> None:
    """The deferred computation starts: a save from now on may queue the next one."""
    try:
        cache.delete(_deferred_key(event_id))
    except Exception:
        logger.warning("standings pacing not cleared for event %s", event_id, exc_info=True)
