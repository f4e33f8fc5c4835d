"""Supersession quality and reconcile speed, offline (spaCy backend), on the labelled set of issue 13.

tests/data/knowledge_changes.json holds hand-written pairs of statements by one user, three weeks
apart with a distractor session between them: changes (the new statement must supersede the old
one) and pairs that must not supersede each other. Every case is its own user; all sessions are
recorded first, then reconciled in a shuffled order (so a new statement is often reconciled before
the old one). The extractor as it is today is the baseline: the package as it was at BASELINE_COMMIT,
taken from git, runs the same harness in a child process, then the working tree's package does.
Each child reports, per case, whether a fact from the new turn SUPERSEDES (directly or down the
chain) a fact from the old turn, and the reconcile throughput in turns/s. The held-out split is
reported first; the tune split is what the extractor was tuned on. A last table counts the missed
changes of each split by the pipeline stage that fails (each statement read, slotted, written; where
both are slotted, how their slots differ): counts only, never a held-out case.

    nice -n 10 .venv/bin/python benchmarks/bench_knowledge.py [--split held-out|tune|all] [--show-misses]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "knowledge_changes.json"
# main just before issue 13's changes: the extractor "as it is today".
BASELINE_COMMIT = "47599ef"
PROJECT = "acme-shop"
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
# The held-out batches each written before the round that first measured it (also reported on their own).
LATE_HELD_OUT = (6, 7, 16, 17, 21, 22)


def session_plan(case: dict, distractors: list[str], index: int) -> list[tuple[str, datetime, list[str]]]:
    """(session id, start, texts): the old statement, a distractor session, the new statement."""
    user = f"k-{case['id']}"
    pick = [distractors[(index + k) % len(distractors)] for k in range(4)]
    start = START + timedelta(hours=index)
    return [
        (f"{user}-old", start, [pick[0], case["old"]]),
        (f"{user}-mid", start + timedelta(days=10), [pick[1], pick[2]]),
        (f"{user}-new", start + timedelta(days=21), [case["new"], pick[3]]),
    ]


def run_harness(cases: list[dict], distractors: list[str], backend: Any = None, directory: Path | None = None) -> dict:
    """In the child: record, reconcile (timed) and measure with whatever package is on sys.path, by `backend`
    (None: the package's default; benchmarks/bench_llm.py passes the LLM backends), in the store in
    `directory` (None: a new temporary one)."""
    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    directory = directory or Path(tempfile.mkdtemp(prefix="sg-bench-know-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    try:
        graph.setup()
        sessions = []
        # The baseline's record_turns takes no user: naming it became required later (b68ce47, issue 36).
        names_owner = "user_id" in inspect.signature(graph.record_turns).parameters
        for index, case in enumerate(cases):
            for sid, start, texts in session_plan(case, distractors, index):
                graph.record_session_start(sid, user_id=f"k-{case['id']}", project_key=PROJECT, started_at=start)
                graph.record_turns(sid, [
                    {"role": "user", "text": text, "timestamp": start + timedelta(minutes=n), "turn_id": f"{sid}-t{n}"}
                    for n, text in enumerate(texts)
                ], **({"user_id": f"k-{case['id']}"} if names_owner else {}))
                sessions.append(sid)
        random.Random(13).shuffle(sessions)
        warm = time.perf_counter()
        graph.reconcile_session(sessions[0], backend=backend)  # loads the models outside the timing
        try:  # the attribute examples' vectors, where the package has them (not at the baseline)
            from sessions_graph_core.reconcile.lexicon import _examples

            _examples()
        except ImportError:
            pass
        warm = time.perf_counter() - warm
        started, cpu = time.perf_counter(), time.process_time()
        failed = sum(graph.reconcile_session(sid, backend=backend).status != "completed" for sid in sessions[1:])
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        turns = 2 * (len(sessions) - 1)
        results = {}
        for case in cases:
            user = f"k-{case['id']}"
            rows = graph.store.run(
                "MATCH (n:Fact {user_id: $user})-[:FROM]->(:Turn {turn_id: $new}) "
                "MATCH (n)-[:SUPERSEDES*1..4]->(o:Fact)-[:FROM]->(:Turn {turn_id: $old}) RETURN count(o) AS n",
                {"user": user, "new": f"{user}-new-t0", "old": f"{user}-old-t1"},
            )
            distracted = graph.store.run(
                "MATCH (a:Fact {user_id: $user})-[:SUPERSEDES]-(b:Fact)-[:FROM]->(t:Turn) "
                "WHERE t.turn_id IN $noise RETURN count(b) AS n",
                {"user": user, "noise": [f"{user}-old-t0", f"{user}-mid-t0", f"{user}-mid-t1", f"{user}-new-t1"]},
            )
            results[case["id"]] = {"superseded": rows[0]["n"] > 0, "distractor_edges": distracted[0]["n"],
                                   **trace(graph.store, user)}
        counts = graph.store.run(
            "MATCH (f:Fact) RETURN count(f) AS facts, sum(CASE WHEN f.slot <> '' THEN 1 ELSE 0 END) AS slotted"
        )[0]
    finally:
        graph.close()
        shutil.rmtree(directory, ignore_errors=True)
    try:  # the attribute names, where the package lists them (the stage breakdown's "no listed attribute")
        from sessions_graph_core.reconcile.lexicon import base_attributes

        listed = sorted(base_attributes())
    except ImportError:
        listed = []
    return {"results": results, "attributes": listed, "turns": turns, "seconds": seconds, "failed": failed,
            "warm": warm, "cpu": cpu, "facts": counts["facts"], "slotted": counts["slotted"]}


def trace(store: Any, user: str) -> dict:
    """What became of the case's two statements, for the stage breakdown: per turn, the slots its
    extraction read (the cached reading, after the reader's own gate) and the slots of the facts
    written from it; and how many fact nodes both turns share (a restatement merged into one)."""
    turns = {"old": f"{user}-old-t1", "new": f"{user}-new-t0"}
    found: dict = {}
    for side, turn in turns.items():
        read = store.run(
            "MATCH (:Turn {turn_id: $turn})-[:HAS_CHUNK]->(c:Chunk) RETURN c.extraction AS extraction", {"turn": turn}
        )
        facts = [fact for row in read if row["extraction"] for fact in json.loads(row["extraction"]).get("facts", [])]
        written = store.run(
            "MATCH (f:Fact {user_id: $user})-[:FROM]->(:Turn {turn_id: $turn}) RETURN f.slot AS slot, f.value AS value",
            {"user": user, "turn": turn},
        )
        found[side] = {"read": [fact.get("slot") or "" for fact in facts],
                       "subjects": [fact.get("subject") or "" for fact in facts],
                       "triples": [[fact.get(key) or "" for key in ("subject", "predicate", "object")] for fact in facts],
                       "written": [row["slot"] or "" for row in written],
                       "values": [row["value"] or "" for row in written if row["slot"]]}
    shared = store.run(
        "MATCH (:Turn {turn_id: $old})<-[:FROM]-(f:Fact {user_id: $user})-[:FROM]->(:Turn {turn_id: $new}) "
        "RETURN count(f) AS n",
        {"user": user, **turns},
    )
    return found | {"shared": shared[0]["n"]}


@contextmanager
def store_directory() -> Iterator[Path]:
    """A directory for a child's store, whose server is stopped (by the pid it wrote there) and the directory
    removed however the run ends: on Ctrl-C, subprocess.run kills the child before its own cleanup runs,
    and the server it started runs on in a session of its own."""
    from sessions_graph_core.store.falkordb.server import EmbeddedServer

    directory = Path(tempfile.mkdtemp(prefix="sg-bench-know-", dir="/tmp"))
    try:
        yield directory
    finally:
        EmbeddedServer(directory).stop()
        shutil.rmtree(directory, ignore_errors=True)


def run_child(tree: Path, cases: list[dict], distractors: list[str]) -> dict:
    """The harness in a child process with `tree`'s package first on the path."""
    payload = Path(tempfile.mkstemp(prefix="sg-bench-know-", suffix=".json", dir="/tmp")[1])
    env = dict(os.environ, PYTHONPATH=str(tree))
    try:
        with store_directory() as directory:
            payload.write_text(json.dumps({"cases": cases, "distractors": distractors, "directory": str(directory)}))
            out = subprocess.run([sys.executable, __file__, "--child", str(payload)], env=env, check=True,
                                 capture_output=True, text=True)
    finally:
        payload.unlink(missing_ok=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def baseline_tree() -> Path:
    """The package at BASELINE_COMMIT, unpacked from git into a directory of its own."""
    target = Path(tempfile.mkdtemp(prefix="sg-bench-base-", dir="/tmp"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "sessions_graph_core"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def rates(cases: list[dict], results: dict) -> dict[str, tuple[int, int]]:
    """Per category: (hits, total): supersessions for changes, false supersessions for keeps."""
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for case in cases:
        cell = table[f"{case['expect']}: {case['category']}"]
        cell[0] += results[case["id"]]["superseded"]
        cell[1] += 1
    for expect in ("supersede", "keep"):
        chosen = [c for c in cases if c["expect"] == expect]
        table[f"{expect}: ALL"] = [sum(results[c["id"]]["superseded"] for c in chosen), len(chosen)]
    return {key: tuple(value) for key, value in table.items()}


def groups(split: str | None, cases: list[dict]) -> list[tuple[str, list[dict]]]:
    """The tables to print: held-out first (all of it, then each batch written before the round that
    measured it, on its own), then tune."""
    held = [c for c in cases if c["split"] == "held-out"]
    found = [("held-out split", held)]
    for batch in LATE_HELD_OUT:
        late = [c for c in held if c.get("batch") == batch]
        if late:
            found.append((f"held-out batch {batch} alone", late))
    found.append(("tune split", [c for c in cases if c["split"] == "tune"]))
    if split == "all":
        return [("whole set", cases)]
    return [group for group in found if split is None or group[0].startswith(split)]


def report(title: str, chosen: list[dict], before: dict, after: dict, show_misses: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    old, new = rates(chosen, before["results"]), rates(chosen, after["results"])
    table = Table(title=f"Supersession on the {title} ({len(chosen)} cases)")
    for column in ("category", "measure", f"today ({BASELINE_COMMIT})", "now"):
        table.add_column(column, justify="left" if column in ("category", "measure") else "right")
    for key in sorted(new, key=lambda k: (not k.startswith("supersede"), k.endswith("ALL"), k)):
        measure = "superseded (recall)" if key.startswith("supersede") else "falsely superseded"
        cells = [f"{hits}/{total} = {hits / total:.0%}" for hits, total in (old[key], new[key])]
        table.add_row(key.split(": ")[1], measure, *cells, end_section=key.endswith("ALL"))
    noise = [sum(r[c["id"]]["distractor_edges"] for c in chosen) for r in (before["results"], after["results"])]
    table.add_row("distractors", "SUPERSEDES edges touching a distractor turn", str(noise[0]), str(noise[1]))
    Console().print(table)
    if show_misses:  # never a held-out case's: those are not to be tuned on
        for case in (c for c in chosen if c["split"] == "tune"):
            got = after["results"][case["id"]]["superseded"]
            if got != (case["expect"] == "supersede"):
                result = after["results"][case["id"]]
                print(f"  MISS {case['id']}: {case['old']!r} -> {case['new']!r} (superseded={got}; "
                      f"old {state(result['old'])} {result['old']['written']}, "
                      f"new {state(result['new'])} {result['new']['written']})")


# The stage table's rows. How far a statement got, in pipeline order ("slotted" is the only state in
# which it can supersede); the states of the pair; where both are slotted, how their slots differ; why a
# new statement that waits was not joined; where only the old is slotted, what the new one shares with it.
STATES = ("nothing read", "read, in no slot", "slot lost when written", "only waiting slots", "slotted")
PAIRS = ("neither slotted", "only the old slotted", "both slotted", "only the new slotted")
RELATIONS = ("same slot, one node (merged as a restatement)", "same slot, two nodes, no SUPERSEDES",
             "same subject, other attribute", "  of which an attribute is no listed one",
             "same attribute, other subject", "  of which one subject is the speaker (me)",
             "other subject and other attribute")
WAITS = ("for its pronoun's holder", "for its old value's slot; the old in no slot",
         "for its old value's slot; the old in another subject's", "for its old value's slot; the old in the same subject's")
SUBJECTS = {"i": "I", "me": "I", "my": "I", "we": "we", "us": "we", "our": "we", "it": "a pronoun",
            "they": "a pronoun", "he": "a pronoun", "she": "a pronoun", "": "none"}
UNSLOTTED = ("names the old value", "names the old slot's attribute word", "names the old slot's holder",
             "read with subject I", "read with subject we", "read with subject a pronoun",
             "read with another subject", "  which names a word of the old slot", "  which is capitalised (a name)",
             "  whose object names a word of the old slot", "read nothing")


def _waits(slot: str) -> bool:
    """A slot that waits for its holder or for the slot holding its old value ("*" attributes)."""
    return "/*" in slot


def state(side: dict) -> str:
    """How far one statement got: read by the extractor, put in a slot, written in one."""
    written = [slot for slot in side["written"] if slot]
    if any(not _waits(slot) for slot in written):
        return "slotted"
    if written:
        return "only waiting slots"
    if any(side["read"]):
        return "slot lost when written"
    return "read, in no slot" if side["read"] else "nothing read"


def _split(slot: str) -> tuple[str, str]:
    subject, _, attribute = slot.rpartition("/")
    return subject, attribute


def relation(result: dict, listed: set[str]) -> list[str]:
    """Where two slotted statements that did not supersede went apart (the closest pair of their slots)."""
    pairs = [(_split(a), _split(b)) for a in result["old"]["written"] for b in result["new"]["written"]
             if a and b and not _waits(a) and not _waits(b)]
    if any(a == b for a, b in pairs):
        return [RELATIONS[0] if result["shared"] else RELATIONS[1]]
    same_subject = [(a, b) for a, b in pairs if a[0] == b[0]]
    if same_subject:
        unlisted = any(a[1] not in listed or b[1] not in listed for a, b in same_subject)
        return [RELATIONS[2], *([RELATIONS[3]] if unlisted else [])]
    same_attribute = [(a, b) for a, b in pairs if a[1] == b[1]]
    if same_attribute:
        speaker = any("me" in (a[0], b[0]) for a, b in same_attribute)
        return [RELATIONS[4], *([RELATIONS[5]] if speaker else [])]
    return [RELATIONS[6]]


def pairing(states: dict[str, str]) -> str:
    """Which of the two statements are slotted."""
    slotted = [side for side in ("old", "new") if states[side] == "slotted"]
    return PAIRS[len(slotted) if len(slotted) != 1 else (1 if slotted == ["old"] else 3)]


def waited(result: dict, old_state: str) -> str:
    """Why a new statement that waits (for the slot of its old value, or for its pronoun's holder) was not
    joined: the old statement is in no slot, or is in one of another subject, or of the same subject."""
    waits = [_split(slot) for slot in result["new"]["written"] if slot]
    if all(attribute.startswith("**") for _, attribute in waits):
        return WAITS[0]
    if old_state != "slotted":
        return WAITS[1]
    holders = {holder for holder, _ in waits}
    same = any(_split(slot)[0] in holders for slot in result["old"]["written"] if slot)
    return WAITS[3] if same else WAITS[2]


def unslotted_new(case: dict, result: dict) -> list[str]:
    """Where only the old statement is slotted: what the new one shares with it (words of its text,
    counted, never shown) and the subjects its reading has."""
    words = set(re.findall(r"[a-z0-9]+", case["new"].lower()))

    def said(phrase: str) -> bool:
        found = re.findall(r"[a-z0-9]+", phrase.lower())
        return bool(found) and all(w in words or w.rstrip("s") in words or f"{w}s" in words for w in found)

    slots = [_split(slot) for slot in result["old"]["written"] if slot and not _waits(slot)]
    rows = [UNSLOTTED[0]] if any(said(value) for value in result["old"]["values"] if value) else []
    rows += [UNSLOTTED[1]] if any(said(attribute) for _, attribute in slots) else []
    rows += [UNSLOTTED[2]] if any(said(holder) for holder, _ in slots if holder not in ("me", PROJECT)) else []
    kinds = {SUBJECTS.get(subject.lower(), "another") for subject in result["new"]["subjects"]} - {"none"}
    rows += [f"read with subject {kind}" if kind != "another" else UNSLOTTED[6] for kind in sorted(kinds)]
    if UNSLOTTED[6] in rows:
        rows += anchoring(result, slots)
    return rows + ([UNSLOTTED[-1]] if not result["new"]["subjects"] else [])


def anchoring(result: dict, slots: list[tuple[str, str]]) -> list[str]:
    """For a new statement read with a thing for its subject: is that thing the old slot's, said by its
    word ("the status page moved to ..."), or is it a name said to do the old slot's thing ("X handles our ...")."""
    words = {word for slot in slots for part in slot if part not in ("me", PROJECT)
             for word in re.findall(r"[a-z0-9]+", part.lower())}
    triples = [t for t in result["new"]["triples"] if t[0].lower() not in SUBJECTS]

    def names(phrase: str) -> bool:
        return any(word in words or word.rstrip("s") in words for word in re.findall(r"[a-z0-9]+", phrase.lower()))

    rows = [UNSLOTTED[7]] if any(names(subject) for subject, _, _ in triples) else []
    rows += [UNSLOTTED[8]] if any(subject[:1].isupper() for subject, _, _ in triples) else []
    return rows + ([UNSLOTTED[9]] if any(names(obj) for _, _, obj in triples) else [])


def stages(cases: list[dict], after: dict) -> Counter:
    """Per missed change, the state of each statement and, where both are slotted, how their slots differ."""
    counts: Counter = Counter()
    listed = set(after.get("attributes", []))
    for case in cases:
        result = after["results"][case["id"]]
        if case["expect"] != "supersede" or result["superseded"]:
            continue
        counts["missed"] += 1
        states = {side: state(result[side]) for side in ("old", "new")}
        for side, found in states.items():
            counts[f"{side}: {found}"] += 1
        counts[pairing(states)] += 1
        if set(states.values()) == {"slotted"}:
            counts.update(relation(result, listed))
        if states["old"] == "slotted" and states["new"] != "slotted":
            counts.update(unslotted_new(case, result))
        if states["new"] == "only waiting slots":
            counts[waited(result, states["old"])] += 1
    return counts


def stage_report(split: str | None, cases: list[dict], after: dict) -> None:
    """Missed changes counted by the pipeline stage that fails, per split: counts only, never a case."""
    from rich.console import Console
    from rich.table import Table

    chosen = groups(split, cases)
    counted = [stages(group, after) for _, group in chosen]
    table = Table(title="Missed changes by the stage that fails (counts; a case counts once per statement)")
    table.add_column("statement", justify="left")
    table.add_column("stage", justify="left")
    for title, _ in chosen:
        table.add_column(title.replace(" split", "").replace(" alone", ""), justify="right")
    table.add_row("", "changes missed", *(str(c["missed"]) for c in counted), end_section=True)
    for side in ("old", "new"):
        for index, found in enumerate(STATES):
            table.add_row(f"{side} statement" if index == 0 else "", found,
                          *(str(c[f"{side}: {found}"]) for c in counted), end_section=found == STATES[-1])
    for title, rows in (("pair", PAIRS), ("only the old slotted: the new", UNSLOTTED), ("new waits", WAITS)):
        for index, found in enumerate(rows):
            table.add_row(title if index == 0 else "", found, *(str(c[found]) for c in counted),
                          end_section=index == len(rows) - 1)
    for index, found in enumerate(RELATIONS):
        table.add_row("both slotted" if index == 0 else "", found, *(str(c[found]) for c in counted))
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("held-out", "tune", "all"), default=None,
                        help="one split only (default: held-out first, then tune)")
    parser.add_argument("--show-misses", action="store_true", help="list the tune cases the current code gets wrong")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        payload = json.loads(args.child.read_text())
        print(json.dumps(run_harness(payload["cases"], payload["distractors"], directory=Path(payload["directory"]))))
        return
    from rich.console import Console
    from rich.table import Table

    data = json.loads(DATA.read_text())
    cases, distractors = data["cases"], data["distractors"]
    tree = baseline_tree()
    try:
        with Console().status(f"baseline ({BASELINE_COMMIT}): {len(cases)} cases"):
            before = run_child(tree, cases, distractors)
        with Console().status(f"working tree: {len(cases)} cases"):
            after = run_child(ROOT, cases, distractors)
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    for title, chosen in groups(args.split, cases):
        report(title, chosen, before, after, args.show_misses)
    stage_report(args.split, cases, after)
    speed = Table(title="Reconcile throughput (all cases, shuffled order)")
    for column in ("measure", f"today ({BASELINE_COMMIT})", "now", "now / today"):
        speed.add_column(column, justify="left" if column == "measure" else "right")
    old_rate, new_rate = before["turns"] / before["seconds"], after["turns"] / after["seconds"]
    speed.add_row("turns/s (wall clock)", f"{old_rate:,.1f}", f"{new_rate:,.1f}", f"{new_rate / old_rate:.2f}x")
    old_cpu, new_cpu = before["turns"] / before["cpu"], after["turns"] / after["cpu"]
    speed.add_row("turns per CPU-second of the reconciling process (not the store's)", f"{old_cpu:,.1f}",
                  f"{new_cpu:,.1f}", f"{new_cpu / old_cpu:.2f}x")
    speed.add_row("one-time model loading (first session, not in turns/s)", f"{before['warm']:.1f} s",
                  f"{after['warm']:.1f} s", "")
    speed.add_row("facts written / in slots", f"{before['facts']} / {int(before['slotted'])}",
                  f"{after['facts']} / {int(after['slotted'])}", "")
    speed.add_row("failed sessions", str(before["failed"]), str(after["failed"]), "")
    Console().print(speed)


if __name__ == "__main__":
    main()
