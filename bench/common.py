"""Shared timing helpers: every benchmark prints the median of several runs and its target."""

from __future__ import annotations

import gc
import statistics
import threading
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
    # Figures below 10 keep two decimals: a target of 0.5 s is not judged on 0.5 rounded.
    shown = f"{value:,.2f}" if abs(value) < 10 else f"{value:,.1f}"
    if target is None:
        print(f"{name}: {shown} {unit}")
        return True
    met = value >= target if higher_is_better else value <= target
    sign = ">=" if higher_is_better else "<="
    verdict = "ok" if met else "MISSED"
    print(f"{name}: {shown} {unit} (target {sign} {target:,g}; {verdict})")
    return met


class PeakMemory:
    """The largest resident size of this process while a block runs, sampled every 10 ms."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def resident() -> int:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.resident())
            time.sleep(0.01)

    def __enter__(self) -> PeakMemory:
        gc.collect()
        self.start = self.resident()
        self.peak = self.start
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.resident())

    @property
    def mib(self) -> float:
        return self.peak / 2**20

    @property
    def growth_mib(self) -> float:
        return (self.peak - self.start) / 2**20
