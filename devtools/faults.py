"""The fault run (issue 41): a writer and a reader on the production store while its servers fail.

The writer records whole sessions as the hooks do (start, turns with a call id, end: pending for the
sensors) on the primary with `replica_acks`; a session counts as acknowledged once all three returned. One
reader opens the store as `recall` does (`open_reads`: the replica, or the primary when the replica does
not answer), another as `session list` does (the primary, or the replica when the primary does not answer);
both count the user's sessions. Meanwhile the replica is killed and restarted, the primary is
killed (SIGKILL) and restarted, and the primary is stopped (SIGSTOP) for a while. Afterwards every
acknowledged session must be on the primary with its turns, every failed read or write must name the
server that failed, and no read may take over READ_BOUND_S.

benchmarks/bench_faults.py runs it on the whole production profile (Dagster on PostgreSQL draining what
the writer records); tests/store/test_degraded_store.py runs a short one on the two servers alone.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sessions_graph_core import SessionsGraph
from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.store.falkordb.service import StandaloneServer
from sessions_graph_core.store.location import StoreSettings, open_reads, open_store

USER = "fault-run"
READ_BOUND_S = 10.0  # every read answers or fails within this (issue 41)
PROGRESS_TIMEOUT_S = 180.0  # a phase that acknowledges nothing for this long fails the run


@dataclass(frozen=True)
class Plan:
    """How long each fault lasts and how many writes are acknowledged after each before the next."""

    writes_between: int = 50
    down_s: float = 3.0  # a killed server is started again after this long
    stop_s: float = 20.0  # the primary stays stopped (SIGSTOP) this long


@dataclass
class Phase:
    """What happened while one fault lasted (and until `writes_between` writes were acknowledged after it)."""

    name: str
    acknowledged: int = 0
    fault: tuple[float, float] | None = None  # when the fault began and ended (time.time()); None before any
    refused: list[str] = field(default_factory=list)
    read_seconds: list[float] = field(default_factory=list)  # the reads as recall opens the store
    read_errors: list[str] = field(default_factory=list)
    from_primary: int = 0  # of those, the reads the replica gave way to the primary for
    primary_read_seconds: list[float] = field(default_factory=list)  # the reads as session list opens the store
    primary_read_errors: list[str] = field(default_factory=list)
    from_replica: int = 0  # of those, the reads the primary gave way to the replica for

    @property
    def slowest_read(self) -> float:
        return max([*self.read_seconds, *self.primary_read_seconds], default=0.0)


@dataclass
class Outcome:
    phases: list[Phase]
    acknowledged: list[str]  # the session ids, in order
    missing: list[str]  # acknowledged but not (whole) on the primary afterwards
    unnamed: list[str]  # failures whose message names neither server

    @property
    def slowest_read(self) -> float:
        return max(phase.slowest_read for phase in self.phases)

    def rows(self) -> list[tuple[str, ...]]:
        """One row per phase and one for the whole run: the columns of COLUMNS."""
        everything = Phase("all", sum(p.acknowledged for p in self.phases), from_primary=sum(p.from_primary for p in self.phases),
                           from_replica=sum(p.from_replica for p in self.phases))
        for phase in self.phases:
            for name in ("refused", "read_seconds", "read_errors", "primary_read_seconds", "primary_read_errors"):
                getattr(everything, name).extend(getattr(phase, name))
        return [_row(phase) for phase in [*self.phases, everything]]


COLUMNS = ("phase", "writes acknowledged", "writes refused", "reads as recall (failed, from the primary)",
           "reads as session list (failed, from the replica)", "slowest read")


def _row(phase: Phase) -> tuple[str, ...]:
    return (phase.name, str(phase.acknowledged), str(len(phase.refused)),
            f"{len(phase.read_seconds)} ({len(phase.read_errors)}, {phase.from_primary})",
            f"{len(phase.primary_read_seconds)} ({len(phase.primary_read_errors)}, {phase.from_replica})",
            f"{phase.slowest_read:.1f} s")


TURNS = (
    {"role": "user", "text": "The orders service keeps its data in CockroachDB since the move."},
    {"role": "assistant", "text": "Noted: orders uses CockroachDB; the billing service stays on PostgreSQL."},
)


class Traffic:
    """The writer and the reader, each a thread, until stop(); what they saw is filed under the phase it came in."""

    def __init__(self, settings: StoreSettings) -> None:
        self.settings = settings
        self.phase = Phase("before any fault")
        self.phases = [self.phase]
        self.acknowledged: list[str] = []
        self._stopping = threading.Event()
        readers = [lambda first=first: self._reads(primary_first=first) for first in (False, True)]
        self._threads = [threading.Thread(target=target, daemon=True) for target in (self._write, *readers)]
        for thread in self._threads:
            thread.start()

    def next_phase(self, name: str) -> None:
        self.phase = Phase(name)
        self.phases.append(self.phase)

    def _write(self) -> None:
        graph, n = SessionsGraph(open_store(self.settings)), 0
        while not self._stopping.is_set():
            n += 1
            sid = f"fault-{os.getpid()}-{n}"
            try:
                graph.record_session_start(sid, user_id=USER, project_key="orders")
                graph.record_turns(sid, TURNS, user_id=USER, call_id=f"{sid}-turns")
                graph.end_session(sid)
            except StoreUnreachableError as exc:  # a refused session is not acknowledged; the next one is new
                self.phase.refused.append(str(exc))
                time.sleep(0.2)
                continue
            self.acknowledged.append(sid)
            self.phase.acknowledged += 1
        graph.close()

    def _reads(self, *, primary_first: bool) -> None:
        """Reads until stopped, each opening the store afresh as one command does."""
        while not self._stopping.is_set():
            started, error, notes = time.monotonic(), None, []
            try:
                store = open_reads(self.settings, primary_first=primary_first, on_switch=notes.append)
                error = _count_sessions(store)
            except StoreUnreachableError as exc:
                error = str(exc)
            phase = self.phase  # an outcome counts in the phase it came in
            if primary_first:
                phase.primary_read_seconds.append(time.monotonic() - started)
                phase.from_replica += bool(notes)
                phase.primary_read_errors += [error] if error else []
            else:
                phase.read_seconds.append(time.monotonic() - started)
                phase.from_primary += bool(notes)
                phase.read_errors += [error] if error else []
            time.sleep(0.1)

    def writes_after(self, count: int) -> None:
        """Returns once `count` more sessions were acknowledged; raises when none come for PROGRESS_TIMEOUT_S."""
        target, last, since = len(self.acknowledged) + count, len(self.acknowledged), time.monotonic()
        while len(self.acknowledged) < target:
            if len(self.acknowledged) > last:
                last, since = len(self.acknowledged), time.monotonic()
            elif time.monotonic() - since > PROGRESS_TIMEOUT_S:
                raise TimeoutError(f"no write acknowledged for {PROGRESS_TIMEOUT_S:.0f} s: {self.phase.refused[-3:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=120)


def _count_sessions(store: GraphStore) -> str | None:
    """One read of the user's sessions, then the store closed; what went wrong, or None."""
    try:
        store.run("MATCH (s:Session {user_id: $user}) RETURN count(s) AS n", {"user": USER})
    except StoreUnreachableError as exc:
        return str(exc)
    finally:
        store.close()
    return None


def _port(server: StandaloneServer) -> int:
    return int(server.address.rpartition(":")[2])


def fault_run(primary: StandaloneServer, replica: StandaloneServer, settings: StoreSettings, plan: Plan) -> Outcome:
    """The faults in turn under the writer and the reader (module docstring); servers are signalled by pid and
    started again as they were. `settings` name the primary (url), the replica (read_url) and replica_acks."""
    password = settings.falkordb_password
    faults: list[tuple[str, Callable[[], None]]] = [
        ("replica killed, restarted", lambda: _kill_and_restart(
            replica, plan.down_s, lambda: replica.start(password=password, port=_port(replica), replica_of=primary.address))),
        ("primary killed -9, restarted", lambda: _kill_and_restart(
            primary, plan.down_s, lambda: primary.start(password=password, port=_port(primary)))),
        (f"primary stopped {plan.stop_s:.0f} s", lambda: _stop_for(primary, plan.stop_s)),
    ]
    with SessionsGraph(open_store(settings)) as graph:
        graph.setup()
    traffic = Traffic(settings)
    try:
        traffic.writes_after(plan.writes_between)
        for name, fault in faults:
            traffic.next_phase(name)
            began = time.time()
            fault()
            traffic.phase.fault = (began, time.time())
            traffic.writes_after(plan.writes_between)
    finally:
        traffic.stop()
    return Outcome(traffic.phases, traffic.acknowledged, _missing(settings, traffic.acknowledged),
                   _unnamed(traffic.phases, (primary.address, replica.address)))


def _kill_and_restart(server: StandaloneServer, down_s: float, start: Callable[[], object]) -> None:
    pid = server.pid()
    assert pid is not None, f"no server runs in {server.data_dir}"
    os.kill(pid, signal.SIGKILL)
    time.sleep(down_s)
    start()


def _stop_for(server: StandaloneServer, seconds: float) -> None:
    pid = server.pid()
    assert pid is not None, f"no server runs in {server.data_dir}"
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.kill(pid, signal.SIGCONT)


def _missing(settings: StoreSettings, acknowledged: list[str]) -> list[str]:
    """The acknowledged sessions the primary lacks, or holds with fewer turns than were written."""
    with open_store(settings.replace(read_url=None, replica_acks=0)) as primary:
        rows = primary.run(
            "MATCH (s:Session {user_id: $user}) OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn) "
            "RETURN s.session_id AS sid, count(t) AS turns",
            {"user": USER},
        )
    whole = {row["sid"] for row in rows if row["turns"] >= len(TURNS)}
    return [sid for sid in acknowledged if sid not in whole]


def _unnamed(phases: list[Phase], addresses: tuple[str, ...]) -> list[str]:
    failures = [error for phase in phases for error in (*phase.refused, *phase.read_errors, *phase.primary_read_errors)]
    return [error for error in failures if not any(address in error for address in addresses)]
