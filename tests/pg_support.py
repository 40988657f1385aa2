"""A throwaway PostgreSQL cluster for tests and benchmarks (Debian's postgresql 15).

``initdb`` refuses to run as root, so as root the cluster runs as ``nobody``. It listens
on loopback only, on a free port, with a random password (SCRAM), and is stopped and
removed by ``stop()``.

Example
-------
>>> pg = ThrowawayPostgres(Path("/tmp/x"))  # doctest: +SKIP
>>> pg.start(); url = pg.url; pg.stop()     # doctest: +SKIP
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def pg_bin() -> Path | None:
    """The newest Debian PostgreSQL's binaries, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayPostgres:
    def __init__(self, database: str = "gradebook") -> None:
        self.bin = pg_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is missing: apt-get install postgresql")
        self.base = Path(tempfile.mkdtemp(prefix="perceptron-pg-"))
        self.base.chmod(0o755)
        self.data = self.base / "data"
        self.port = _free_port()
        self.password = secrets.token_hex(12)
        self.database = database
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgresql+psycopg2://grader:{self.password}@127.0.0.1:{self.port}/{self.database}"

    def _run(self, *args: str) -> None:
        r = subprocess.run([*self.as_user, *args], capture_output=True, text=True, cwd=self.base,
                           env={**os.environ, "PGPASSWORD": self.password})
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: {r.stdout}{r.stderr}")

    def start(self) -> ThrowawayPostgres:
        pwfile = self.base / "pw"
        pwfile.write_text(self.password + "\n")
        if self.as_user:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.base, nobody.pw_uid, nobody.pw_gid)
            os.chown(pwfile, nobody.pw_uid, nobody.pw_gid)
        pwfile.chmod(0o600)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "grader", "--auth=scram-sha-256",
                  f"--pwfile={pwfile}", "--no-sync")
        pwfile.unlink()
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.base / "log"), "-w",
                  "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.base} -c fsync=off "
                        "-c max_connections=200", "start")
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "grader",
                  self.database)
        return self

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                            "-w", "stop"], capture_output=True)
        shutil.rmtree(self.base, ignore_errors=True)
