"""Write tests/data/long_sessions.json: a development set of long agent sessions in LongMemEval's format.

One developer's history over five months: five projects (a Go API, a Rust game, a Python ETL, a
TypeScript web app, infrastructure) and a few personal chats, 44 sessions of 8-11 turns. Assistant
answers run to several paragraphs and tool output (test runs, logs, `kubectl`, `git log`, build
output) to thousands of characters, as in real Claude Code / Codex sessions. Facts are planted
inside them, most in the middle of a long answer or a tool output, and 42 questions ask about them
(single-session, multi-session, knowledge-update, temporal), each with its supporting session ids.

Every question carries the sessions that support it and two others (LongMemEval's haystack shape,
kept small); every session appears in some question's haystack, and the benchmark ingests their
union as one user. Written by a seeded script, so it is the same on every run:

    .venv/bin/python benchmarks/make_long_sessions.py [--out tests/data/long_sessions.json]
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "long_sessions.json"
START = datetime(2024, 1, 8, 9, 30)
DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"

PROJECTS = {
    "ledger": {
        "name": "ledger-api", "lang": "Go", "files": ["internal/transfer/service.go", "internal/account/repo.go",
        "cmd/server/main.go", "internal/http/middleware.go", "migrations/0007_transfers.sql", "internal/ledger/posting.go"],
        "funcs": ["PostTransfer", "GetBalance", "ListTransfers", "withTx", "validateCurrency", "NewRouter", "reconcileDay"],
        "test": "go test ./...", "libs": ["pgx", "chi", "zap", "sqlc", "testify", "goose"],
    },
    "tilemap": {
        "name": "tilemap", "lang": "Rust", "files": ["src/render/pipeline.rs", "src/world/chunk.rs", "src/pathfinding.rs",
        "src/main.rs", "src/render/atlas.rs", "src/input.rs"],
        "funcs": ["build_mesh", "upload_atlas", "astar", "load_chunk", "on_resize", "draw_layer", "evict_far_chunks"],
        "test": "cargo test", "libs": ["wgpu", "winit", "glam", "bytemuck", "serde", "criterion"],
    },
    "harbor": {
        "name": "harbor-etl", "lang": "Python", "files": ["dags/nightly_export.py", "harbor/transform/payments.py",
        "harbor/io/s3.py", "harbor/models/staging.sql", "tests/test_payments.py", "harbor/io/postgres.py"],
        "funcs": ["load_payments", "write_parquet", "normalise_currency", "dedupe_events", "read_manifest", "upsert_batch"],
        "test": "pytest -q", "libs": ["pyarrow", "pandas", "boto3", "psycopg2", "dbt", "great_expectations"],
    },
    "notes": {
        "name": "notes-web", "lang": "TypeScript", "files": ["src/editor/Editor.tsx", "src/store/notes.ts",
        "src/sync/client.ts", "src/api/routes.ts", "tests/editor.autosave.spec.ts", "src/components/Sidebar.tsx"],
        "funcs": ["useAutosave", "applyPatch", "syncNotes", "renderMarkdown", "loadNote", "debounce", "mergeRemote"],
        "test": "npx vitest run", "libs": ["react", "vite", "vitest", "playwright", "express", "zod"],
    },
    "infra": {
        "name": "infra", "lang": "HCL", "files": ["modules/eks/main.tf", "envs/prod/main.tf", "modules/vpc/nat.tf",
        "charts/ingress/values.yaml", "envs/staging/backend.tf", "alerts/api.rules.yaml"],
        "funcs": ["module.eks", "aws_nat_gateway.this", "helm_release.ingress", "aws_iam_role.node", "module.vpc"],
        "test": "terraform plan", "libs": ["terraform", "helm", "kubectl", "cert-manager", "external-dns", "karpenter"],
    },
}

# Paragraphs of the long answers: general engineering talk with the project's own names in it.
PARAGRAPHS = [
    "Looking at {file}, the problem is less in {func} itself than in how it is called: every caller builds its "
    "own context and none of them sets a deadline, so a slow dependency holds the request open until the client "
    "gives up. I would thread one context through from the handler and give the call {num} seconds.",
    "Before changing anything I'd like a failing test that pins the behaviour down. {test} currently passes, "
    "which tells us the suite never exercises the path where {func} sees an empty input. A table-driven case "
    "with three rows (empty, one item, many items) would have caught it.",
    "There are two reasonable options here. The first keeps {lib} and moves the work into {func}, which is "
    "the smaller diff. The second replaces the hand-written loop with what {lib} already offers, which is more "
    "code to review today but less to maintain. Given how often {file} changes, I lean towards the second.",
    "I ran the suite again after the change and everything is green except the slow integration job, which "
    "times out after {num} minutes on the shared runner. That is the runner, not the code: the same job takes "
    "a third of that locally.",
    "One thing to watch: {func} is called from the request path and from the background worker, and only "
    "the request path holds the lock. If we make it async we have to make sure the worker does not race it, "
    "otherwise we will see the double-write we saw in {file} last month.",
    "The log lines you pasted show the retry loop firing {num} times in a row with no backoff. That hammers "
    "the dependency exactly when it is already struggling. A capped exponential backoff with jitter fixes "
    "the pattern; the exact numbers matter less than having a cap.",
    "I updated {file} and the README section that describes it, and left a comment on {func} explaining why "
    "the order of the two calls matters. The diff is about {num}0 lines; most of it is the test.",
    "If you want to go further, {lib} has a profiling mode that would show where the time goes. My guess is "
    "allocation in {func}, but I'd rather measure than guess: the last time we guessed we optimised the wrong loop.",
    "For the review, the risky part is the migration of existing data, not the code path. I would ship the "
    "read path first behind a flag, let it run for a day, and only then switch writes over.",
    "Naming-wise, {func} no longer describes what it does since it also validates. Renaming it touches "
    "{num} call sites, all inside the package, so it is cheap to do now and gets more expensive later.",
    "The error you are seeing comes from {lib}, but it is a symptom: the input reaching it is already wrong. "
    "Tracing back through {file}, the value is set once at startup from the environment and never refreshed.",
    "I checked the dependency versions in the lock file: {lib} is pinned two minor versions behind, and the "
    "changelog mentions a fix for exactly this kind of leak. Upgrading is low risk; the API we use did not change.",
    "Documentation-wise I added a short section on how to run this locally, including the environment "
    "variables {func} reads. New contributors kept asking about them in the channel.",
    "Summary of what changed: {file} gains a guard clause, {func} returns an explicit error instead of a zero "
    "value, and the test covers the empty case. Nothing else in the public surface moved.",
    "I would not cache this yet. The call is cheap ({num} ms at p50) and a cache adds invalidation questions "
    "we do not have good answers for. If the p99 becomes a problem we can revisit with real numbers.",
    "The CI failure is unrelated to this change: the lint step flags an unused import in {file} that landed on "
    "main yesterday. I fixed it in a separate commit so the history stays readable.",
]

USER_FOLLOW_UPS = [
    "ok, that makes sense. can you run the tests again and show me the output?",
    "Let's do the second option. Show me the diff before committing.",
    "Can you check the logs from last night's run? Something looked off.",
    "Go ahead. Also add a note to the README so I don't forget why we did this.",
    "Hmm, I'm not sure about the naming. Keep it as is for now and move on.",
    "What would it take to make this faster? Don't change anything yet, just investigate.",
    "Looks good. Commit it with a sensible message and push the branch.",
    "Run the linter too, CI complained last time.",
]

COMMIT_MESSAGES = [
    "fix: guard against empty batch in {func}", "refactor: split {file} into smaller units",
    "test: table-driven cases for {func}", "chore: bump {lib}", "docs: explain local setup",
    "perf: avoid re-allocating in {func}", "ci: cache dependencies", "feat: expose metrics for {func}",
]


@dataclass
class Plant:
    where: str  # "answer": inside a long answer; "tool": inside a tool output; "user": the user says it
    text: str


@dataclass
class Spec:
    session_id: str
    project: str
    opening: str
    plants: list[Plant] = field(default_factory=list)


def S(session_id: str, opening: str, *plants: tuple[str, str]) -> Spec:  # noqa: N802 - a table's row
    return Spec(session_id, session_id.split("-")[0], opening, [Plant(w, t) for w, t in plants])


SPECS = [
    S("ledger-01", "I need a staging database for ledger-api that doesn't clash with my local Postgres.",
      ("tool", "a1f3c9e2b7d4   postgres:16-alpine   \"docker-entrypoint.s…\"   Up 2 minutes   0.0.0.0:5433->5432/tcp   ledger-staging-pg"),
      ("answer", "The staging Postgres for ledger-api now listens on host port 5433, mapped to 5432 inside the container, so it does not clash with the Postgres you run locally on 5432.")),
    S("ledger-02", "Clients are hammering the transfers endpoint. How should we rate limit ledger-api?",
      ("answer", "For ledger-api I'd go with golang.org/x/time/rate: one token bucket per API key, 20 requests per second with a burst of 40, kept in a sync.Map with idle buckets evicted after ten minutes.")),
    S("ledger-03", "The CI for ledger-api is painfully slow. Can we speed it up?",
      ("user", "Our CI for ledger-api is Jenkins right now, and the pipeline takes about 14 minutes end to end, mostly downloading Go modules.")),
    S("ledger-04", "The /transfers listing is slow in production. Can you look at the query?",
      ("tool", "Index Scan using transfers_account_id_created_at_idx on transfers  (cost=0.43..812.10 rows=200 width=96) (actual time=0.031..1.902 rows=200 loops=1)"),
      ("answer", "After adding the composite index on (account_id, created_at), the p99 of GET /transfers dropped from 420 ms to 38 ms in the load test, and the sequential scan is gone from the plan.")),
    S("ledger-05", "Let's finally get ledger-api off Jenkins.",
      ("user", "We're moving the ledger-api CI from Jenkins to GitHub Actions this week; I want the same steps: lint, test, build the image.")),
    S("ledger-06", "Balance reads are the hottest path in ledger-api. Should we cache them?",
      ("answer", "I added Redis 7 to ledger-api as a read-through cache for account balances with a 30 second TTL; a posted transfer deletes the two affected keys in the same code path.")),
    S("ledger-07", "The ledger-api pod keeps restarting in staging.",
      ("tool", "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137"),
      ("answer", "The pod was OOMKilled at its 256Mi limit during the nightly reconciliation. I raised the ledger-api memory limit to 512Mi and the request to 256Mi in the deployment.")),
    S("ledger-08", "Finance is asking about CI costs again.",
      ("user", "Finance wants everything on Buildkite for cost reasons, so the ledger-api CI moves again, from GitHub Actions to Buildkite. Please port the workflow."),
      ("tool", "Step 1/12 : FROM golang:1.22-alpine AS build")),
    S("tilemap-01", "How should tilemap stream the world in chunks?",
      ("answer", "For tilemap let's settle on chunks of 64x64 tiles with a load radius of 3 chunks around the camera; anything beyond 5 chunks is evicted.")),
    S("tilemap-02", "tilemap crashes whenever I resize the window.",
      ("tool", "thread 'main' panicked at src/render/pipeline.rs:212:14:\nwgpu error: Validation Error: Surface texture is outdated"),
      ("answer", "Root cause of the resize crash: the surface was reconfigured while the previous SurfaceTexture was still alive. Dropping the frame before calling configure in on_resize fixes it.")),
    S("tilemap-03", "I want tilemap to feel smooth. What frame budget should I design for?",
      ("user", "My target for tilemap is 60 fps, so the frame budget is 16.6 ms, and I want the renderer to use at most half of it.")),
    S("tilemap-04", "Time to upgrade wgpu in tilemap.",
      ("tool", "    Updating wgpu v0.18.0 -> v0.19.1\n    Updating wgpu-core v0.18.1 -> v0.19.0"),
      ("answer", "tilemap now builds on wgpu 0.19: the upgrade needed the new surface lifetime and the renamed Instance descriptor, nothing else.")),
    S("tilemap-05", "Rendering big maps is slow in tilemap. Can you profile it?",
      ("tool", "frame 1200  tiles/s: 41,200  draw calls: 3,812  cpu 14.9 ms  gpu 6.1 ms"),
      ("answer", "Before the fix the profiler showed 41,200 tiles per second with 3,812 draw calls per frame; batching each layer into one instanced draw brought it to 1 draw call per layer.")),
    S("tilemap-06", "One tilemap test fails every now and then.",
      ("answer", "The flaky tilemap test is pathfinding::tests::diagonal_corner: it fails about 1 run in 20 because it iterates a HashMap, whose order is random. Sorting the open set's ties by coordinates makes it deterministic.")),
    S("tilemap-07", "New monitor, new problems for tilemap.",
      ("user", "I got a 120 Hz monitor, so the new target for tilemap is 120 fps: the frame budget is 8.3 ms now, not 16.6.")),
    S("tilemap-08", "Let's make a release build of tilemap I can send to friends.",
      ("answer", "With thin LTO, codegen-units = 1 and strip = true the tilemap release binary comes to 14.2 MB, down from 31 MB.")),
    S("harbor-01", "Give me an overview of how harbor-etl's nightly export is set up.",
      ("user", "harbor-etl's nightly DAG runs at 02:00 UTC and writes parquet files to the S3 bucket harbor-raw-eu-west-1."),
      ("tool", "Python 3.10.13 (main, Dec  4 2023, 11:02:31) [GCC 12.2.0] on linux")),
    S("harbor-02", "What retry policy should the harbor-etl tasks have?",
      ("answer", "For the harbor-etl Airflow tasks I recommend retries=3 with retry_delay of 5 minutes and exponential backoff capped at 30 minutes, so a transient S3 error does not page anyone.")),
    S("harbor-03", "The nightly run failed. Here's the log.",
      ("tool", "[2024-02-06, 02:14:09 UTC] {taskinstance.py:2698} ERROR - Task failed with exception\nbotocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject operation"),
      ("answer", "So the nightly harbor-etl run failed on S3 throttling (SlowDown) while writing parquet; the retries did not help because all 64 partitions retried at the same moment.")),
    S("harbor-04", "pyarrow is refusing to read yesterday's partition.",
      ("tool", "pyarrow.lib.ArrowInvalid: Schema at index 3 was different:\namount_cents: int32\nvs\namount_cents: int64"),
      ("answer", "The parquet schema mismatch is in the amount_cents column: older files wrote it as int32, new ones as int64, so reading the whole dataset fails.")),
    S("harbor-05", "Let's fix the parquet schema problem for good.",
      ("answer", "Fixed: the staging model now casts amount_cents to int64 everywhere, and I backfilled every partition since 2024-02-01 so the dataset has one schema again.")),
    S("harbor-06", "Nightly failed again, different error this time.",
      ("tool", "psycopg2.OperationalError: could not connect to server: Connection timed out\n\tIs the server running on host \"harbor-meta.internal\" and accepting TCP/IP connections on port 5432?"),
      ("answer", "This second nightly failure of harbor-etl is the metadata Postgres timing out during its maintenance window, not our code.")),
    S("harbor-07", "The upstream export is landing later than our DAG starts.",
      ("user", "Move harbor-etl's nightly DAG to 04:30 UTC so it runs after the upstream export has landed.")),
    S("harbor-08", "harbor-etl is on an old Python. Let's upgrade.",
      ("user", "Upgrade harbor-etl from Python 3.10 to Python 3.12, image, CI and the lock file.")),
    S("notes-01", "Help me pick a font for the notes-web editor.",
      ("user", "I picked JetBrains Mono at 14px for the notes-web editor, with 1.6 line height.")),
    S("notes-02", "How should notes-web manage state?",
      ("answer", "For notes-web I'd start with Redux Toolkit: one notes slice, RTK Query for the sync endpoints, and the editor's draft kept in local component state.")),
    S("notes-03", "CI for notes-web is red again and I don't know why.",
      ("tool", "  ✘ tests/editor.autosave.spec.ts › saves after 2s idle (5.0s)\n    Error: Timeout 5000ms exceeded while waiting for save indicator"),
      ("answer", "The flaky notes-web test is editor.autosave.spec.ts (saves after 2s idle): it waits on a real timer and the CI machine is slow; fake timers fix it.")),
    S("notes-04", "I want to roll out the new sync engine in notes-web slowly.",
      ("user", "Call the notes-web feature flag sync_v2_enabled, default off, and turn it on for the team first.")),
    S("notes-05", "Redux is getting in my way in notes-web.",
      ("user", "Redux is too much boilerplate for notes-web; we're switching the state management to Zustand.")),
    S("notes-06", "Sessions in notes-web are lost on every deploy.",
      ("answer", "notes-web now stores its login sessions in Redis through connect-redis with a 7 day TTL, so a deploy no longer logs everyone out.")),
    S("notes-07", "The notes-web bundle feels heavy.",
      ("tool", "dist/assets/index-4f9a1c.js   812.40 kB │ gzip: 251.13 kB"),
      ("answer", "The notes-web main bundle is 812.4 kB (251 kB gzipped); the markdown renderer and the syntax highlighter are most of it, and both can be lazy-loaded.")),
    S("notes-08", "Let's deploy notes-web somewhere.", ),
    S("infra-01", "Walk me through how the infra repo is organised.",
      ("user", "Dana is on call for the platform this quarter, and remember that we push infra changes to master."),
      ),
    S("infra-02", "Where should the Terraform state live?",
      ("answer", "The Terraform remote state goes in the S3 bucket acme-tfstate with the DynamoDB lock table tf-locks, one key per environment.")),
    S("infra-03", "The EKS cluster is on an old Kubernetes version.",
      ("tool", "Server Version: v1.29.1-eks-b9c9ed7"),
      ("answer", "The cluster is upgraded to Kubernetes 1.29: control plane first, then both node groups, with no pod evicted before its replacement was ready.")),
    S("infra-04", "The wildcard certificate warning showed up again.",
      ("tool", "notAfter=Jun 14 23:59:59 2024 GMT\nsubject=CN = *.acme.dev"),
      ("answer", "The *.acme.dev wildcard certificate expires on 14 June 2024; cert-manager will renew it once the DNS01 solver has the Route53 permission.")),
    S("infra-05", "On-call handover.",
      ("user", "Priya takes over platform on-call from Dana starting today, update the PagerDuty schedule.")),
    S("infra-06", "Cleaning up the infra repos.",
      ("user", "We renamed master to main in all infra repos; the default branch is main now, fix the pipelines.")),
    S("infra-07", "The AWS bill jumped. What's going on?",
      ("answer", "The NAT gateway accounts for $1,140 of the $3,900 monthly AWS bill; most of it is image pulls that a VPC endpoint for ECR would avoid.")),
    S("infra-08", "Set up alerts for the API latency.", ),
    S("life-01", "I want to get into long-distance cycling this year.",
      ("user", "My goal for the autumn is a 200 km audax in October; right now my longest ride is 90 km.")),
    S("life-02", "I'm going to a conference in Lisbon, help me plan.",
      ("user", "I fly to Lisbon on 12 April and stay five nights near Cais do Sodré.")),
    S("life-03", "Recommend me some books for the summer.", ),
    S("life-04", "My training went better than expected.",
      ("user", "Change of plan: my cycling goal is now a 300 km brevet in September instead of the 200 km audax.")),
]

LIFE_PARAGRAPHS = [
    "A good rule of thumb is to build volume slowly: add no more than ten percent a week and keep one easy week "
    "in four. Long rides at a conversational pace build the base; intervals come later.",
    "Eat early and often on long rides, around 60 grams of carbohydrate an hour, and drink before you are "
    "thirsty. Most people who bonk simply waited too long.",
    "For a trip of that length, one neighbourhood as a base saves time. Trams and the metro cover most of "
    "the city, and a rechargeable card is cheaper than single tickets.",
    "If you liked that, you might enjoy something slower and more reflective next: a long novel for the "
    "beach and a short essay collection for the evenings.",
    "Plan the route around cafés and water stops every 50 to 60 km; on a long event the stops decide more "
    "than the legs.",
    "Check the opening days of the museums you care about; many close on Mondays, and the popular ones sell "
    "out in the afternoon.",
]


def fill(rng: random.Random, project: dict, template: str) -> str:
    return template.format(file=rng.choice(project["files"]), func=rng.choice(project["funcs"]),
                           lib=rng.choice(project["libs"]), test=project["test"], num=rng.randint(2, 90))


def long_answer(rng: random.Random, project: dict | None, paragraphs: int) -> list[str]:
    bank = PARAGRAPHS if project else LIFE_PARAGRAPHS
    return [fill(rng, project, p) if project else p for p in rng.sample(bank, min(paragraphs, len(bank)))]


def test_output(rng: random.Random, project: dict) -> list[str]:
    lines = [f"$ {project['test']}"]
    for _ in range(rng.randint(25, 60)):
        func = rng.choice(project["funcs"])
        case = rng.choice(["empty", "single", "many", "unicode", "large", "concurrent", "timeout", "retry"])
        ms = rng.randint(1, 900)
        if project["lang"] == "Go":
            lines.append(f"--- PASS: Test{func[0].upper()}{func[1:]}/{case} (0.{ms:03d}s)")
        elif project["lang"] == "Rust":
            lines.append(f"test {func}::tests::{case} ... ok")
        elif project["lang"] == "Python":
            lines.append(f"tests/test_{func}.py::test_{case} PASSED [{rng.randint(1, 99):2d}%]")
        elif project["lang"] == "TypeScript":
            lines.append(f"  ✓ {rng.choice(project['files'])} › {func} handles {case} input ({ms}ms)")
        else:
            lines.append(f"  # {func} will be updated in-place ({case})")
    lines.append(f"ok  {rng.randint(40, 400)} passed, 0 failed in {rng.randint(2, 80)}.{rng.randint(0, 99)}s")
    return lines


def git_log(rng: random.Random, project: dict) -> list[str]:
    lines = ["$ git log --oneline -n 20"]
    for _ in range(20):
        lines.append(f"{rng.getrandbits(28):07x} " + fill(rng, project, rng.choice(COMMIT_MESSAGES)))
    return lines


def service_log(rng: random.Random, project: dict) -> list[str]:
    lines = [f"$ tail -n 40 logs/{project['name']}.log"]
    for _ in range(rng.randint(25, 45)):
        level = rng.choice(["INFO", "INFO", "INFO", "DEBUG", "WARN"])
        lines.append(f"2024-0{rng.randint(1, 5)}-{rng.randint(10, 28)}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                     f"{rng.randint(0, 59):02d}Z {level} {rng.choice(project['funcs'])} "
                     f"took={rng.randint(1, 700)}ms items={rng.randint(0, 5000)} request_id={rng.getrandbits(40):010x}")
    return lines


TOOLS = (test_output, git_log, service_log)


def tool_turn(rng: random.Random, project: dict, plant: str | None) -> str:
    lines = rng.choice(TOOLS)(rng, project)
    if plant:
        lines.insert(rng.randint(len(lines) // 3, 2 * len(lines) // 3), plant)
    return "Tool output:\n```\n" + "\n".join(lines) + "\n```"


def answer_turn(rng: random.Random, project: dict | None, plant: str | None) -> str:
    paragraphs = long_answer(rng, project, rng.randint(3, 6))
    if plant:
        paragraphs.insert(rng.randint(1, len(paragraphs) - 1), plant)
    return "\n\n".join(paragraphs)


def session(rng: random.Random, spec: Spec) -> list[dict]:
    project = PROJECTS.get(spec.project)
    turns = [{"role": "user", "content": spec.opening}]
    planted = {"answer": [p.text for p in spec.plants if p.where == "answer"],
               "tool": [p.text for p in spec.plants if p.where == "tool"],
               "user": [p.text for p in spec.plants if p.where == "user"]}
    rounds = rng.randint(4, 5)
    # Where each planted fact lands: a round chosen at random, not always the first.
    slots = {kind: [rng.randrange(rounds) for _ in texts] for kind, texts in planted.items()}
    for number in range(rounds):
        for kind, texts in planted.items():
            for text, at in zip(texts, slots[kind], strict=True):
                if at == number and kind == "user":
                    turns.append({"role": "user", "content": text + " " + rng.choice(USER_FOLLOW_UPS), "has_answer": True})
        answer = next((t for t, at in zip(planted["answer"], slots["answer"], strict=True) if at == number), None)
        turns.append({"role": "assistant", "content": answer_turn(rng, project, answer), **({"has_answer": True} if answer else {})})
        if project is not None:
            tool = next((t for t, at in zip(planted["tool"], slots["tool"], strict=True) if at == number), None)
            turns.append({"role": "assistant", "content": tool_turn(rng, project, tool), **({"has_answer": True} if tool else {})})
        if number < rounds - 1:
            turns.append({"role": "user", "content": rng.choice(USER_FOLLOW_UPS)})
    return turns


QUESTIONS = [
    # single-session
    ("single-session-user", "Which host port does the ledger-api staging Postgres listen on?", "5433", ["ledger-01"]),
    ("single-session-assistant", "Which library did you recommend for rate limiting in ledger-api, and with what limits?",
     "golang.org/x/time/rate, 20 requests/s per API key, burst 40", ["ledger-02"]),
    ("single-session-assistant", "What was the p99 latency of GET /transfers after adding the index?", "38 ms (from 420 ms)", ["ledger-04"]),
    ("single-session-assistant", "What memory limit did we set on the ledger-api pod after it was OOMKilled?", "512Mi", ["ledger-07"]),
    ("single-session-assistant", "Which Go version does the ledger-api Docker build use?", "Go 1.22 (golang:1.22-alpine)", ["ledger-08"]),
    ("single-session-assistant", "What chunk size did we settle on for streaming the tilemap world?", "64x64 tiles, load radius 3", ["tilemap-01"]),
    ("single-session-assistant", "What was the root cause of the tilemap crash on window resize?",
     "the surface was reconfigured while the previous SurfaceTexture was alive", ["tilemap-02"]),
    ("single-session-assistant", "How many tiles per second did the tilemap profiler show before batching the draw calls?", "41,200", ["tilemap-05"]),
    ("single-session-assistant", "How big is the tilemap release binary?", "14.2 MB", ["tilemap-08"]),
    ("single-session-user", "Which S3 bucket does harbor-etl write its parquet files to?", "harbor-raw-eu-west-1", ["harbor-01"]),
    ("single-session-assistant", "What retry policy did you recommend for the harbor-etl Airflow tasks?",
     "retries=3, 5 minute delay, exponential backoff capped at 30 minutes", ["harbor-02"]),
    ("single-session-assistant", "Which column caused the parquet schema mismatch?", "amount_cents (int32 vs int64)", ["harbor-04"]),
    ("single-session-user", "Which font did I pick for the notes-web editor?", "JetBrains Mono, 14px", ["notes-01"]),
    ("single-session-user", "What is the name of the feature flag for the new sync engine?", "sync_v2_enabled", ["notes-04"]),
    ("single-session-assistant", "How large was the notes-web main JavaScript bundle?", "812.4 kB (251 kB gzipped)", ["notes-07"]),
    ("single-session-assistant", "What is the DynamoDB lock table for the Terraform state called?", "tf-locks", ["infra-02"]),
    ("single-session-assistant", "How much of the monthly AWS bill was the NAT gateway?", "$1,140 of $3,900", ["infra-07"]),
    ("single-session-assistant", "When does the wildcard certificate for acme.dev expire?", "14 June 2024", ["infra-04"]),
    # multi-session
    ("multi-session", "Which of my services did we add Redis to, and for what?",
     "ledger-api (balance cache) and notes-web (login sessions)", ["ledger-06", "notes-06"]),
    ("multi-session", "How many times did the harbor-etl nightly run fail in the sessions we talked about, and why?",
     "twice: S3 SlowDown throttling, then the metadata Postgres timing out", ["harbor-03", "harbor-06"]),
    ("multi-session", "Which projects had a flaky test, and which tests were they?",
     "tilemap (pathfinding::tests::diagonal_corner) and notes-web (editor.autosave.spec.ts)", ["tilemap-06", "notes-03"]),
    ("multi-session", "Which CI systems has ledger-api used, in order?", "Jenkins, GitHub Actions, Buildkite",
     ["ledger-03", "ledger-05", "ledger-08"]),
    ("multi-session", "What speed-ups did I measure on tilemap and ledger-api?",
     "tilemap: batching from 3,812 draw calls (41,200 tiles/s); ledger-api: /transfers p99 420 ms to 38 ms", ["tilemap-05", "ledger-04"]),
    ("multi-session", "Which S3 buckets do my projects use?", "harbor-raw-eu-west-1 and acme-tfstate", ["harbor-01", "infra-02"]),
    ("multi-session", "Which frame budgets have I targeted for tilemap over time?", "16.6 ms (60 fps), then 8.3 ms (120 fps)",
     ["tilemap-03", "tilemap-07"]),
    ("multi-session", "Which trips and rides have I planned this year?", "Lisbon on 12 April; a long brevet (200 km, then 300 km)",
     ["life-02", "life-01", "life-04"]),
    # knowledge-update
    ("knowledge-update", "Which CI does ledger-api use now?", "Buildkite", ["ledger-05", "ledger-08"]),
    ("knowledge-update", "What frame budget am I targeting for tilemap now?", "8.3 ms (120 fps)", ["tilemap-03", "tilemap-07"]),
    ("knowledge-update", "At what time does the harbor-etl nightly DAG run now?", "04:30 UTC", ["harbor-01", "harbor-07"]),
    ("knowledge-update", "Which Python version does harbor-etl run on now?", "3.12", ["harbor-01", "harbor-08"]),
    ("knowledge-update", "What does notes-web use for state management now?", "Zustand", ["notes-02", "notes-05"]),
    ("knowledge-update", "Who is on call for the platform now?", "Priya", ["infra-01", "infra-05"]),
    ("knowledge-update", "What is the default branch of the infra repos now?", "main", ["infra-01", "infra-06"]),
    ("knowledge-update", "What is my current cycling goal?", "a 300 km brevet in September", ["life-01", "life-04"]),
    # temporal
    ("temporal-reasoning", "When did I upgrade tilemap to wgpu 0.19?", None, ["tilemap-04"]),
    ("temporal-reasoning", "How many days passed between finding the parquet schema mismatch and fixing it?", None, ["harbor-04", "harbor-05"]),
    ("temporal-reasoning", "Which happened first: switching notes-web to Zustand or adding Redis to ledger-api?", None,
     ["notes-05", "ledger-06"]),
    ("temporal-reasoning", "When did we upgrade the cluster to Kubernetes 1.29?", None, ["infra-03"]),
    ("temporal-reasoning", "Which came first, the Terraform remote state setup or the harbor-etl retry policy?", None,
     ["infra-02", "harbor-02"]),
    ("temporal-reasoning", "How long after moving ledger-api CI to GitHub Actions did it move to Buildkite?", None,
     ["ledger-05", "ledger-08"]),
    ("temporal-reasoning", "Which flaky test did I fix first, the tilemap one or the notes-web one?", None, ["tilemap-06", "notes-03"]),
    ("temporal-reasoning", "When did the ledger-api pod get OOMKilled?", None, ["ledger-07"]),
]


def timeline(rng: random.Random) -> dict[str, datetime]:
    """Each session's start: the projects interleaved, each project's sessions in order, 2-4 days apart."""
    queues = {}
    for spec in SPECS:
        queues.setdefault(spec.project, []).append(spec.session_id)
    order = []
    while any(queues.values()):
        project = rng.choice([name for name, queue in queues.items() if queue])
        order.append(queues[project].pop(0))
    dates, at = {}, START
    for session_id in order:
        dates[session_id] = at + timedelta(minutes=rng.randint(0, 600))
        at += timedelta(days=rng.choice([2, 3, 4]))
    return dates


def temporal_answer(question: str, sessions: list[str], dates: dict[str, datetime]) -> str:
    days = [dates[sid].date() for sid in sessions]
    if question.startswith(("How many days", "How long")):
        return f"{(days[1] - days[0]).days} days"
    if len(sessions) == 2:
        first = min(sessions, key=dates.__getitem__)
        return f"{first} ({dates[first]:%Y-%m-%d}) came first"
    return f"{days[0]:%Y-%m-%d}"


def build() -> list[dict]:
    rng = random.Random(39)
    dates = timeline(rng)
    sessions = {spec.session_id: session(rng, spec) for spec in SPECS}
    ids = sorted(sessions, key=dates.__getitem__)
    unused = list(ids)
    items = []
    for number, (kind, question, answer, evidence) in enumerate(QUESTIONS, start=1):
        others = [sid for sid in unused if sid not in evidence][:2] or rng.sample([s for s in ids if s not in evidence], 2)
        unused = [sid for sid in unused if sid not in others and sid not in evidence]
        haystack = sorted([*evidence, *others], key=dates.__getitem__)
        last = max(dates[sid] for sid in evidence)
        items.append({
            "question_id": f"long-{number:02d}",
            "question_type": kind,
            "question": question,
            "answer": answer or temporal_answer(question, evidence, dates),
            "question_date": (last + timedelta(days=10)).strftime(DATE_FORMAT),
            "haystack_session_ids": haystack,
            "haystack_dates": [dates[sid].strftime(DATE_FORMAT) for sid in haystack],
            "haystack_sessions": [sessions[sid] for sid in haystack],
            "answer_session_ids": evidence,
        })
    if unused:
        raise SystemExit(f"sessions in no haystack: {unused}")
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    items = build()
    args.out.write_text(json.dumps(items, ensure_ascii=False, separators=(",", ":")) + "\n")
    sessions = {sid: s for item in items for sid, s in zip(item["haystack_session_ids"], item["haystack_sessions"], strict=True)}
    turns = [t for s in sessions.values() for t in s]
    print(f"{args.out}: {len(items)} questions, {len(sessions)} sessions, {len(turns)} turns, "
          f"{sum(len(t['content']) for t in turns) / len(turns):.0f} characters a turn on average")


if __name__ == "__main__":
    main()
