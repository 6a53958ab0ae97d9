"""Real Redis and PostgreSQL servers on loopback for the table store tests (no mocks).

Each server runs in a fresh temporary directory, on a free port, in its own process group, with the
durability settings the README asks deployments to use: Redis with ``appendonly yes`` and
``appendfsync always``, PostgreSQL with ``fsync`` and ``synchronous_commit`` on. PostgreSQL refuses
to run as root, so as root it runs as the ``postgres`` user (its directory is handed to that user).

``kill()`` sends SIGKILL to the whole process group (a crash: no shutdown, no flush), ``start()``
starts the server again on the same directory and port.

A missing ``redis-server`` or PostgreSQL is a skip, or a failure when SLOTH_TEST_SERVERS=required
(as in CI: .ci/run installs both).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sloth_kernel.tables import TableMovedOnError, TableStore, open_store

REQUIRED = os.environ.get("SLOTH_TEST_SERVERS", "") == "required"


def missing(what: str) -> None:
    """Skip (or fail, when servers are required) for a server that is not installed."""
    message = f"{what} is not installed (apt-get install -y redis-server postgresql)"
    if REQUIRED:
        pytest.fail(message + "; SLOTH_TEST_SERVERS=required")
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}): {log.read_text()[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"the server did not listen on port {port}: {log.read_text()[-2000:]}")


class Server:
    folder: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    url: str

    def command(self) -> list[str]:
        raise NotImplementedError

    def options(self) -> dict[str, Any]:
        return {}

    def ready(self) -> None:
        wait_for_port(self.port, self._process(), self.folder / "server.log")

    def _process(self) -> subprocess.Popen[bytes]:
        assert self.process is not None
        return self.process

    def start(self) -> None:
        log = open(self.folder / "server.log", "ab")  # noqa: SIM115 - the server keeps it
        self.process = subprocess.Popen(
            self.command(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=self.folder,
            **self.options(),
        )
        log.close()
        self.ready()

    def kill(self) -> None:
        """SIGKILL the server and everything it started: a crash."""
        process = self._process()
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        time.sleep(0.2)  # let the kernel reap the group's children

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)
        shutil.rmtree(self.folder, ignore_errors=True)


class RedisServer(Server):
    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            missing("redis-server")
        assert binary is not None
        self.binary = binary
        self.folder = Path(tempfile.mkdtemp(prefix="sloth-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.start()

    def command(self) -> list[str]:
        return [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.folder),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--protected-mode", "yes",
        ]  # fmt: skip

    def ready(self) -> None:
        super().ready()
        import redis

        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 30
        while True:  # listening is not ready: Redis answers LOADING while it replays its log
            try:
                client.ping()
                break
            except redis.BusyLoadingError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()


def postgres_bin() -> Path | None:
    found = shutil.which("pg_ctl") or shutil.which("postgres")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    return Path(versions[-1]).parent if versions else None


class PostgresServer(Server):
    def __init__(self) -> None:
        bin_dir = postgres_bin()
        if bin_dir is None or not (bin_dir / "initdb").exists():
            missing("PostgreSQL")
        assert bin_dir is not None
        self.bin = bin_dir
        self.user: str | None = None
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                missing("the postgres user")
            self.user = "postgres"
        self.folder = Path(tempfile.mkdtemp(prefix="sloth-postgres-"))
        if self.user:
            shutil.chown(self.folder, self.user, self.user)
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.folder / "data"), "-U", "postgres", "-A", "trust", "--no-sync"],
            check=True,
            capture_output=True,
            cwd=self.folder,
            **self.options(),
        )
        self.start()

    def options(self) -> dict[str, Any]:
        return {"user": self.user, "group": self.user} if self.user else {}

    def command(self) -> list[str]:
        return [
            str(self.bin / "postgres"),
            "-D", str(self.folder / "data"),
            "-p", str(self.port),
            "-k", str(self.folder),
            "-c", "listen_addresses=127.0.0.1",
            "-c", "fsync=on",
            "-c", "synchronous_commit=on",
            "-c", "shared_buffers=16MB",
            "-c", "max_connections=60",
        ]  # fmt: skip

    def start(self) -> None:
        self.process = None
        super().start()
        import psycopg

        deadline = time.monotonic() + 30
        while True:  # listening is not ready: recovery after a crash answers "starting up"
            try:
                psycopg.connect(self.url, connect_timeout=5).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


# -- fixtures (registered in tests/conftest.py) --

BACKENDS = ("sqlite", "redis", "postgresql")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    yield server
    server.stop()


def empty(url: str) -> None:
    """Remove every table from a server's store (a fresh store for each test)."""
    if url.startswith("redis"):
        import redis

        client = redis.Redis.from_url(url)
        client.flushdb()
        client.close()
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as db:
            db.execute(
                "DROP TABLE IF EXISTS sloth_table_moves, sloth_table_heartbeats, sloth_table_leases, sloth_tables"
            )


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The address of an empty store, once per backend (real servers)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
        open_store(url, create=True).close()  # an empty store (only a create makes the file)
        return url
    server = request.getfixturevalue("redis_server" if request.param == "redis" else "postgres_server")
    empty(server.url)
    url: str = server.url
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[TableStore]:
    with open_store(store_url) as opened:
        yield opened


def race(url: str, table: str, plies: int, name: str, barrier: Any, results: Any) -> None:
    """One of the racing processes: at every ply, wait for the other, then try to commit."""
    with open_store(url) as store:
        won = []
        for ply in range(plies):
            barrier.wait()
            try:
                store.commit(table, ply, f"{name}-{ply}")
                won.append(ply)
            except TableMovedOnError:
                pass
            barrier.wait()  # both tried this ply before either tries the next
        results.put((name, won))
