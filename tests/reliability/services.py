"""A Redis and a set of Celery processes of the test's own, which the test may stop or kill.

The shared Redis (and the workers other tests start on it) must not go away in the middle of the
run, so the tests that break the broker or a worker start a Redis server on a free port and the
site's background processes (two workers and Celery beat, as in deploy/compose.yaml) against it
and against the test database.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.reliability.cluster import free_port

ROOT = Path(__file__).resolve().parents[2]


def redis_server_binary() -> str:
    """The ``redis-server`` to start; skips the test without one, fails it in CI."""
    found = shutil.which("redis-server", path="/usr/bin:/usr/local/bin:/usr/sbin:/bin")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("this fault test needs redis-server (Debian's redis-server package)")
        pytest.skip("needs redis-server to start a Redis of its own")
    return found


class RedisServer:
    """A Redis on ``port`` that keeps nothing on disk: ``start``, ``stop``, ``start`` again."""

    def __init__(self, binary: str, home: Path, port: int | None = None) -> None:
        self.binary = binary
        self.home = home
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", str(self.home), "--logfile", str(self.home / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_for(self.answers, 20, "Redis to start")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


def run_site_script(module: str, args: list[str], env: Mapping[str, str]) -> Any:
    """Run ``python -m module args`` from the checkout; the JSON its last line printed."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> float:
    """Poll ``condition`` until it holds; the seconds it took. Fails the test after ``seconds``."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            pytest.fail(f"waited {seconds:.0f} s for {what}")
        time.sleep(0.2)
    return time.monotonic() - started


def database_url() -> str:
    """The URL of the test database this test writes to, for processes of the site's own."""
    settings = connection.settings_dict
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or "5432"
    return f"postgres://{settings['USER']}{password}@{host}:{port}/{settings['NAME']}"


def site_environment(broker: RedisServer, var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of the site's processes: the test database, this test's Redis, fast clocks."""
    environment = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL",)}
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=broker.url,
        TROEF_VAR_DIR=str(var_dir),
        # The production figures are 15 s and 45 s; the test's clocks run faster.
        TROEF_CATCH_UP_SECONDS="2",
        TROEF_STALLED_SECONDS="6",
        **extra,
    )
    return environment


class Process:
    """One background process of the site, in a process group of its own (killed as a whole)."""

    def __init__(self, name: str, command: list[str], env: Mapping[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        with log.open("wb") as output:
            self.popen = subprocess.Popen(
                command,
                cwd=ROOT,
                env=dict(env),
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self) -> None:
        """SIGKILL to the process and its children at once: a machine or container dying."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=20)

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@contextmanager
def site_processes(
    env: Mapping[str, str], logs: Path, workers: int = 2, worker_module: str = "celery"
) -> Iterator[list[Process]]:
    """``workers`` Celery workers (prefork, one process each) and beat; stopped afterwards.

    ``worker_module`` is run with ``python -m``: ``celery``, or a test's wrapper around it.
    """
    processes = []
    try:
        for n in range(1, workers + 1):
            command = [
                sys.executable, "-m", worker_module, "-A", "config", "worker", "--concurrency=1",
                "--loglevel=INFO", f"--hostname=worker{n}@%h", "--without-gossip",
            ]  # fmt: skip
            processes.append(Process(f"worker{n}", command, env, logs / f"worker{n}.log"))
        beat = [
            sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
            f"--schedule={logs / 'celerybeat-schedule'}",
        ]  # fmt: skip
        processes.append(Process("beat", beat, env, logs / "beat.log"))
        yield processes
    finally:
        for process in processes:
            process.stop()


def wait_until_ready(processes: list[Process], seconds: float = 60) -> None:
    """Until every worker has said it is ready (consuming from the broker)."""

    def ready() -> bool:
        return all(" ready." in p.output() for p in processes if p.name.startswith("worker"))

    wait_for(ready, seconds, "the workers to be ready")


def logs_of(processes: list[Process]) -> str:
    """Every process's last lines, for a failing assertion's message."""
    return "\n".join(f"--- {p.name}\n{p.output()}" for p in processes)
