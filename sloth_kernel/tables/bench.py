"""``python -m sloth_kernel bench --tables``: store-level propagation, per backend.

One process commits moves to a table; another waits on the table (SQLite: polling ``PRAGMA
data_version``; Redis: pub/sub; PostgreSQL: LISTEN/NOTIFY) and notes when each version arrives.
A figure is the time from the start of a commit to its arrival in the other process, on one
machine (both read the same monotonic clock), as p50 and p95 over the commits. The browser-level
figure (a click in one page to the change in another) adds the pages' own work on top of this.

Stores measured: a fresh SQLite file, plus ``$SLOTH_TABLES`` when it names a server, plus every
``--store URL``. Each run makes one table (id ``bench-...``) and closes it afterwards.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sloth_kernel.tables.connect import open_store
from sloth_kernel.tables.store import Seat, TableRow, describe
from sloth_kernel.tables.table import token_hash


def listen(url: str, table: str, count: int, ready: Any, out: Any) -> None:
    """The other process: wait for each new version and note when it arrived."""
    arrivals: dict[int, float] = {}
    with open_store(url) as store:
        version = store.version(table)
        ready.set()
        while version < count:
            new = store.wait(table, version, 10)
            now = time.monotonic()
            if new == version:
                break  # nothing for 10 s: the committer is gone
            for arrived in range(version + 1, new + 1):
                arrivals[arrived] = now
            version = new
    out.put(arrivals)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(url: str, commits: int, gap: float) -> dict[str, float]:
    """p50, p95 and max (seconds) from a commit here to its arrival in another process."""
    table = "bench-" + secrets.token_hex(6)
    spawn = multiprocessing.get_context("spawn")
    ready = spawn.Event()
    out = spawn.Queue()
    with open_store(url) as store:
        store.create(
            TableRow(
                table=table,
                game="bench",
                options={},
                seed=0,
                seats=(Seat("human", token_hash=token_hash(secrets.token_urlsafe(24))),),
                teacher_hash=token_hash(secrets.token_urlsafe(24)),
            )
        )
        listener = spawn.Process(target=listen, args=(url, table, commits, ready, out), daemon=True)
        listener.start()
        try:
            if not ready.wait(60):
                raise RuntimeError("the listening process did not start")
            sent: dict[int, float] = {}
            for version in range(commits):
                time.sleep(gap)
                sent[version + 1] = time.monotonic()
                store.commit(table, version, f"m{version}")
            arrivals: dict[int, float] = out.get(timeout=60)
        finally:
            listener.join(timeout=30)
            store.set_status(table, "closed")
    delays = [arrivals[version] - start for version, start in sent.items() if version in arrivals]
    return {
        "p50": percentile(delays, 0.50),
        "p95": percentile(delays, 0.95),
        "max": max(delays),
        "mean": statistics.fmean(delays),
        "arrived": len(delays),
        "commits": commits,
    }


def run(stores: list[str], commits: int, gap: float) -> dict[str, dict[str, float]]:
    """Measure each store (a fresh SQLite file first) and print one line per store."""
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="sloth-bench-tables-") as folder:
        urls = [f"sqlite:///{Path(folder) / 'tables.sqlite3'}"]
        env = os.environ.get("SLOTH_TABLES", "")
        if env.partition("://")[0] in ("redis", "rediss", "postgresql", "postgres"):
            urls.append(env)
        urls += [url for url in stores if url not in urls]
        print(
            f"table store propagation: a commit in one process to its arrival in another, one machine "
            f"({commits} commits, {gap * 1000:.0f} ms apart)"
        )
        for url in urls:
            name = url.partition("://")[0] if "://" in url else "sqlite"
            figures = measure(url, commits, gap)
            results[describe(url)] = figures
            print(
                f"  {name:10s} p50 {figures['p50'] * 1000:7.2f} ms   p95 {figures['p95'] * 1000:7.2f} ms   "
                f"max {figures['max'] * 1000:7.2f} ms   ({figures['arrived']:.0f} of {commits} arrived)"
                f"   {describe(url) if name != 'sqlite' else ''}",
                flush=True,
            )
    return results
