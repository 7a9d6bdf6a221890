"""Shared timing helpers: every benchmark prints the median of several runs and its target."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(work: Callable[[], object], runs: int = 5, warmup: int = 1) -> float:
    """The median wall time of ``runs`` calls of ``work`` after ``warmup`` untimed calls."""
    for _ in range(warmup):
        work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(
    name: str, value: float, unit: str, target: float | None = None, higher_is_better: bool = True
) -> bool:
    """Print one figure as ``name: value unit (target ..., ok|MISSED)``; return whether it met the target."""
    if target is None:
        print(f"{name}: {value:,.1f} {unit}")
        return True
    met = value >= target if higher_is_better else value <= target
    sign = ">=" if higher_is_better else "<="
    verdict = "ok" if met else "MISSED"
    print(f"{name}: {value:,.1f} {unit} (target {sign} {target:,g}; {verdict})")
    return met
