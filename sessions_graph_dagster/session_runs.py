"""A session's latest run in the Dagster instance, for the memory browser's link to it.

Runs are on their user's partition and name their sessions in their config (batches.py), so the
session's run is the newest run on its user's partition whose config names it. The core runs this as
`python -m sessions_graph_dagster.session_runs` (it imports no Dagster): a JSON request on stdin and
a JSON answer on stdout.
"""

from __future__ import annotations

import json
import sys

import dagster as dg
from dagster._core.storage.tags import PARTITION_NAME_TAG
from pydantic import BaseModel

from .batches import session_ids_of

# A user's newest runs looked through: a session's run is among the latest ones while it is fresh; an
# older session's link falls back to its user's partition page, where Dagster lists every run.
RUNS_LOOKED_AT = 500


class Request(BaseModel):
    user_id: str
    session_id: str


def latest_run(instance: dg.DagsterInstance, request: Request) -> str | None:
    """The id of the newest run on the user's partition that names the session (None: no such run)."""
    runs = instance.get_runs(filters=dg.RunsFilter(tags={PARTITION_NAME_TAG: request.user_id}), limit=RUNS_LOOKED_AT)
    return next((run.run_id for run in runs if request.session_id in session_ids_of(run.run_config)), None)


def main() -> int:
    request = Request.model_validate_json(sys.stdin.read())
    with dg.DagsterInstance.get() as instance:
        print(json.dumps({"run_id": latest_run(instance, request)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
