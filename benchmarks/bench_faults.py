"""The fault run on the whole production profile (issue 41).

    nice .venv/bin/python benchmarks/bench_faults.py [--writes-between 50] [--down-s 3] [--stop-s 20] [--drain-s 900]

Starts PostgreSQL (scripts/postgres), a standalone FalkorDB primary and replica, and Dagster's code server,
daemon and webserver on PostgreSQL (the production profile), all in directories of their own under /tmp.
Then devtools/faults.py's fault run: a writer of whole sessions (replica_acks=1) and a reader as recall opens
the store, while the replica is killed and restarted, the primary is killed (SIGKILL) and restarted, and the
primary is stopped (SIGSTOP) for --stop-s; the sensors reconcile what the writer records all along. Afterwards:
every acknowledged session on the primary, every failure naming its server, the slowest read; then the
sessions drain (every acknowledged session reconciled), and Dagster's runs by status. Everything it started
is stopped by pid.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # devtools/ lives beside the packages
sys.path.insert(0, str(REPO / "tests"))  # the servers the production-profile tests start

from service_helpers import running_postgres, standalone_pair  # noqa: E402

from devtools.faults import COLUMNS, READ_BOUND_S, USER, Outcome, Plan, fault_run  # noqa: E402
from devtools.local_platform import PRODUCTION, running_platform  # noqa: E402
from devtools.progress import runs, wait_until_drained  # noqa: E402
from sessions_graph_core.store.location import StoreSettings, open_store  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes-between", type=int, default=50, help="sessions acknowledged after each fault before the next")
    parser.add_argument("--down-s", type=float, default=3.0, help="seconds a killed server stays down")
    parser.add_argument("--stop-s", type=float, default=20.0, help="seconds the primary stays stopped (SIGSTOP)")
    parser.add_argument("--drain-s", type=float, default=900.0, help="how long the sessions may take to drain afterwards")
    args = parser.parse_args()
    plan = Plan(writes_between=args.writes_between, down_s=args.down_s, stop_s=args.stop_s)
    home = Path(tempfile.mkdtemp(prefix="sg-faults-", dir="/tmp"))
    try:
        with running_postgres() as postgres, standalone_pair() as servers:
            env = {**postgres.env, **servers.env(replica_acks=1)}
            settings = StoreSettings(data_dir=home / "unused", falkordb_url=servers.primary.url,
                                     falkordb_password=servers.password, read_url=servers.replica.url, replica_acks=1)
            with running_platform(home / "dagster_home", env, profile=PRODUCTION) as platform:
                started = time.monotonic()
                outcome = fault_run(servers.primary, servers.replica, settings, plan)
                faulted_s = time.monotonic() - started
                with open_store(settings) as primary:
                    try:
                        drained = f"{wait_until_drained(platform.url, primary, timeout=args.drain_s):.0f} s"
                    except TimeoutError as error:
                        drained = f"not drained: {error}"
                    reconciled = primary.run(
                        "MATCH (s:Session {user_id: $user}) WHERE s.reconciliation_status = 'completed' "
                        "RETURN s.session_id AS sid", {"user": USER})
                finished = runs(platform.url)
                statuses = collections.Counter(run.status for run in finished)
                faults = [phase.fault for phase in outcome.phases if phase.fault]
                # Runs whose time overlapped a fault (a run not yet started or ended counts as open that way).
                struck = [run for run in finished if any((run.start_time or 0) <= end and (run.end_time or time.time()) >= begin
                                                         for begin, end in faults)]
    finally:
        shutil.rmtree(home, ignore_errors=True)
    report(outcome, faulted_s, drained, {row["sid"] for row in reconciled}, statuses, plan)
    print(f"Dagster runs in flight during a fault: {len(struck)} {collections.Counter(run.status for run in struck)}")
    failed = outcome.missing or outcome.unnamed or outcome.slowest_read > READ_BOUND_S
    return 1 if failed else 0


def report(outcome: Outcome, faulted_s: float, drained: str, reconciled: set[str], statuses: collections.Counter, plan: Plan) -> None:
    print(f"fault run on the production profile ({faulted_s:.0f} s; {plan})\n")  # plain print: rich would wrap the table
    print("| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS))
    for row in outcome.rows():
        print("| " + " | ".join(row) + " |")
    unreconciled = [sid for sid in outcome.acknowledged if sid not in reconciled]
    print(f"acknowledged sessions missing on the primary afterwards: {len(outcome.missing)} of {len(outcome.acknowledged)}")
    print(f"failures that name neither server: {len(outcome.unnamed)} {outcome.unnamed[:3]}")
    print(f"slowest read: {outcome.slowest_read:.1f} s (bound {READ_BOUND_S:.0f} s)")
    print(f"drain after the faults: {drained}; acknowledged sessions not reconciled: {len(unreconciled)} {unreconciled[:5]}")
    print(f"Dagster runs by status: {dict(statuses)}")


if __name__ == "__main__":
    sys.exit(main())
