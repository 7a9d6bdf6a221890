"""Failures counted in the shared cache, per subject, in windows opened by the first failure.

The sign-in throttle (``tournaments.throttle``) and the table devices' PIN throttle
(``services.devices``) count through it. A subject (an account, an address, a table tried from an
address) is locked once its count in the window reaches its limit, until the window ends. Errors of
the cache are the caller's: each throttle decides what an outage means for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache

Subject = tuple[str, str, int]
"""What is counted: its kind (``"account"``, ``"address"``...), its value and its limit."""


@dataclass(frozen=True)
class FailureCounts:
    """One throttle's counts: ``prefix`` keeps its cache keys apart from the other's."""

    prefix: str

    def keys(self, kind: str, value: str) -> tuple[str, str]:
        """The keys of a subject's count and of its window's start."""
        # Hashed: cache keys must be short and plain whatever the user typed.
        digest = hashlib.sha256(f"{kind}:{value}".encode("utf-8", "replace")).hexdigest()
        return f"{self.prefix}:{kind}:{digest}:count", f"{self.prefix}:{kind}:{digest}:start"

    def seconds_locked(self, subjects: Iterable[Subject], window: int) -> int:
        """Seconds until no subject is at its limit any more; 0 when none is now."""
        now = time.time()
        remaining = 0.0
        for kind, value, limit in subjects:
            count_key, start_key = self.keys(kind, value)
            if (cache.get(count_key) or 0) >= limit:
                start = cache.get(start_key) or now
                remaining = max(remaining, start + window - now)
        return max(math.ceil(remaining), 0)

    def count(self, subjects: Iterable[Subject], window: int) -> list[tuple[Subject, int]]:
        """Count one failure of each subject: each with its count in its window, this one in."""
        counted = []
        for subject in subjects:
            kind, value, _limit = subject
            count_key, start_key = self.keys(kind, value)
            # The first failure opens the window; add() keeps an open one as it is. incr() is
            # atomic in Redis and in the local-memory cache, so concurrent guesses are all
            # counted. The start is added after the count, so that it outlives it.
            cache.add(count_key, 0, window)
            cache.add(start_key, time.time(), window)
            try:
                number = cache.incr(count_key)
            except ValueError:
                # The window closed between add() and incr(): this failure opens a new one.
                cache.set(start_key, time.time(), window)
                cache.set(count_key, 1, window)
                number = 1
            counted.append((subject, number))
        return counted

    def take_back(self, subjects: Iterable[Subject]) -> None:
        """Take back one failure of each subject (one counted before it was known not to be)."""
        for kind, value, _limit in subjects:
            count_key, _start_key = self.keys(kind, value)
            with contextlib.suppress(ValueError):  # the window ended meanwhile
                cache.decr(count_key)

    def clear(self, kind: str, value: str) -> None:
        """Forget a subject's failures."""
        cache.delete_many(self.keys(kind, value))
