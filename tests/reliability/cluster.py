"""A throwaway PostgreSQL cluster of the test's own, on a free port, that the test may stop.

Restarting the shared server would break every other test of the run, so the tests that take
PostgreSQL away build a cluster of their own from the installed binaries and remove it afterwards.
PostgreSQL refuses to run as root: as root, its commands run as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` directory, or ``None`` when there is none."""

    def major(path: str) -> int:
        version = Path(path).parent.name
        return int(version) if version.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=major)
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A cluster in ``home``: ``create`` runs ``initdb`` there; then ``start``, ``stop``, ``remove``."""

    def __init__(self, bin_dir: Path, home: Path, port: int) -> None:
        self.bin_dir = bin_dir
        self.home = home
        self.port = port
        self.data = home / "data"
        self.as_root = os.geteuid() == 0

    @classmethod
    def create(cls, bin_dir: Path) -> Cluster:
        home = Path(tempfile.mkdtemp(prefix="troef-pg-"))
        cluster = cls(bin_dir, home, free_port())
        if cluster.as_root:
            shutil.chown(home, user="postgres", group="postgres")
        cluster._run(
            "initdb", "-D", str(cluster.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"
        )
        return cluster

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, command: str, *args: str) -> None:
        argv = [str(self.bin_dir / command), *args]
        if self.as_root:
            # runuser lives in the administrator's sbin, which a minimal PATH may leave out.
            runuser = shutil.which("runuser", path="/usr/sbin:/sbin:/usr/bin:/bin") or "runuser"
            argv = [runuser, "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, timeout=60, cwd=self.home)

    def start(self) -> None:
        # The socket goes into the cluster's own directory, not the shared server's.
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.home / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        # "fast" ends the open sessions at once, as a restart by the operator does.
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.home, ignore_errors=True)
