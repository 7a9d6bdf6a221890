"""A real Celery worker in a child process, for the tests and benchmarks that go through a broker."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def running_worker(log: Path | None = None, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """Start a worker on a queue of its own; yield the queue's name; stop the worker after.

    The queue keeps other workers on the same broker from taking the tasks sent to it.
    """
    queue = f"troef-{uuid.uuid4().hex[:12]}"
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--concurrency=1", "-Q", queue, "--without-gossip", "--without-mingle",
        "--without-heartbeat", "--loglevel=INFO", f"--hostname={queue}@%h",
    ]  # fmt: skip
    # The jobs the worker sends itself (a deferred standings run) go to its queue too.
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        **(env or {}),
    }
    output = log.open("w") if log is not None else subprocess.DEVNULL
    try:
        worker = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
        )
        try:
            yield queue
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    finally:
        if log is not None and not isinstance(output, int):
            output.close()
