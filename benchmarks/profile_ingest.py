"""Where ingest's time goes: reconcile and embed, stage by stage, on LoCoMo and on harness transcripts.

Each corpus goes into its own fresh embedded store: every session's turns are recorded (not
profiled), then every session is reconciled, one `reconcile_session` call each, then
embedded, one `embed_session` call each, as bench_recall_quality.py's ingest does. A thread
samples the main thread's stack every 5 ms and names each sample's stage by its innermost frame
that a stage marks (`FalkorDBStore.run`, spaCy's `Language.pipe`, the embedder's tokenizer or
onnxruntime call, question adoption, the reader, ...; see MARKERS), so stages exclude each other
and add up; cProfile's per-call hook would inflate the reader's many small calls. `--cprofile DIR`
runs under cProfile as well and writes .prof files for pstats. The store's server is another
process: its CPU seconds are shown beside this process's.

LoCoMo turns are "Speaker: text" (bench_recall_quality.session_turns). Transcripts are Claude
Code / Codex JSONL files read by the hooks' reader (integrations/harness.read_transcript_from),
one session per file; their parse-alone cost by turn kind is shown too, which is what skipping
tool output before parsing would save. On LoCoMo, what batching across sessions would save is
measured as same-process CPU ratios (parse, embed, single-word embeds).

    .venv/bin/python benchmarks/profile_ingest.py [--conversations 2 | --held-out] [--files 6] [--cprofile DIR]

The data is read where it lies and never copied. Wall times depend on what else the machine runs;
read the shares.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import linecache
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_recall_quality import DEFAULT_DATA, TUNING, session_turns  # noqa: E402

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.embeddings.models import OnnxMiniLM  # noqa: E402
from sessions_graph_core.integrations.harness import read_transcript_from  # noqa: E402
from sessions_graph_core.reconcile import frames, lexicon  # noqa: E402
from sessions_graph_core.reconcile.nlp import spacy_pipeline  # noqa: E402
from sessions_graph_core.reconcile.pipeline import MAX_UNIT_CHARS  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402

DEFAULT_TRANSCRIPTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "transcripts"
console = Console(width=160)



@dataclass(frozen=True)
class Session:
    user: str
    session_id: str
    start: datetime
    turns: list[dict]


# A sample's stage: the innermost frame that one of these names, checked from the innermost frame out.
# (path part, function or None for any, stage); the embedder's native calls are told apart by their line.
MARKERS: tuple[tuple[str, str | None, str], ...] = (
    ("store/falkordb/store.py", "run", "store statements and their round trips"),
    ("spacy/language.py", "pipe", "spaCy parse"),
    ("spacy/language.py", "__call__", "spaCy parse"),
    ("embeddings/models.py", "_embed_batch", "embedder"),
    ("embeddings/models.py", "_embed_distinct", "embedder"),  # where the texts are tokenised
    ("embeddings/passages.py", None, "passage splitting"),
    ("reconcile/questions.py", "adopt_questions", "question adoption (questions.adopt_questions)"),
    ("reconcile/questions.py", "answered", "question adoption (questions.answered)"),
    ("reconcile/extraction/spacy.py", None, "reader: per-clause rules"),
    ("reconcile/reading/", None, "reader: per-clause rules"),
    ("reconcile/facts.py", None, "statement planning (reconcile/facts.py, not in the above)"),
    ("reconcile/pipeline.py", None, "reconcile pipeline (not in the above)"),
    ("embeddings/vectors.py", None, "embed pipeline (not in the above)"),
)


def stage_of(frame: FrameType | None) -> str:
    while frame is not None:
        code = frame.f_code
        for path, function, stage in MARKERS:
            if path in code.co_filename and function in (None, code.co_name):
                if stage == "embedder":
                    return f"{_embedder_part(frame)} for {_caller(frame)}"
                return stage
        frame = frame.f_back
    return "other"


def _embedder_part(frame: FrameType) -> str:
    """The embedder's native calls hold no frame of their own: the line calling them tells them apart."""
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
    return "tokenisation" if "encode_batch" in line else "embedder model calls" if ".run(" in line else "embedder pooling"


def _caller(frame: FrameType) -> str:
    """The first function outside the embedder's modules that asked for the vectors."""
    while frame.f_back is not None and "sessions_graph_core/embeddings/models.py" in frame.f_code.co_filename:
        frame = frame.f_back
    path = frame.f_code.co_filename.rpartition("sessions_graph_core/")[2]
    return f"{path}:{frame.f_code.co_name}"


class Sampler:
    """The main thread's stack every `interval` seconds, counted by stage: exclusive stages at a small cost,
    where cProfile's per-call hook inflates code that makes many small calls."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.counts: Counter[str] = Counter()
        self._target = threading.main_thread().ident
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            frame = sys._current_frames().get(self._target)  # noqa: SLF001 - the only way to see another thread's stack
            self.counts[stage_of(frame)] += 1

    def __enter__(self) -> Sampler:
        # The sampler needs the GIL to look: with Python's 5 ms switch interval, code that holds it would be
        # seen up to twice as seldom as native code that lets it go (the model, the socket).
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(self.interval / 20)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._switch)


def server_cpu(store: FalkorDBStore) -> float:
    """CPU seconds the FalkorDB server process has used."""
    pid = int(store.server.pid_path.read_text().split()[0])  # type: ignore[union-attr]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Profiled:
    counts: Counter[str]
    wall: float
    cpu: float
    server: float


def profiled(store: FalkorDBStore, label: str, session_ids: Sequence[str], step: Callable[[str], object],
             cprofile: Path | None) -> Profiled:
    """Run `step` on every session under the sampler, or under cProfile (its .prof file into `cprofile`)."""
    profile = cProfile.Profile() if cprofile else None
    wall, cpu, server = time.perf_counter(), time.process_time(), server_cpu(store)
    with Progress(console=console, transient=True) as progress, Sampler() as sampler:
        task = progress.add_task(label, total=len(session_ids))
        for session_id in session_ids:
            if profile:
                profile.runcall(step, session_id)
            else:
                step(session_id)
            progress.advance(task)
    wall, cpu, server = time.perf_counter() - wall, time.process_time() - cpu, server_cpu(store) - server
    if profile and cprofile:
        profile.dump_stats(cprofile / f"{label.replace(' ', '-')}.prof")
    return Profiled(sampler.counts, wall, cpu, server)


def locomo_sessions(path: Path, conversations: int) -> list[Session]:
    data = json.loads(path.read_text())[:conversations]
    return [Session(f"locomo-{c['sample_id']}", sid, start, turns)
            for c in data for sid, start, turns in session_turns(c, c["sample_id"])]


def held_out_sessions(path: Path) -> list[Session]:
    """LoCoMo's held-out conversations (the half bench_recall_quality.py reports, never tuned on)."""
    data = json.loads(path.read_text())
    held = {f"locomo-{c['sample_id']}" for n, c in enumerate(data) if n not in TUNING}
    return [s for s in locomo_sessions(path, len(data)) if s.user in held]


def transcript_sessions(directory: Path, files: int) -> list[Session]:
    """The `files` largest transcripts under `directory`, one session each, as the hooks would store them."""
    paths = sorted(directory.rglob("*.jsonl"), key=lambda p: p.stat().st_size, reverse=True)[:files]
    found = []
    for number, path in enumerate(paths):
        session_id = f"transcript-{number}"
        turns = read_transcript_from(path, session_id).turns
        if turns:
            found.append(Session("transcripts", session_id, datetime(2026, 1, 1, tzinfo=UTC), list(turns)))
    return found


def parse_by_kind(sessions: Sequence[Session]) -> dict[str, tuple[int, float]]:
    """Turns and parse-alone seconds of each kind of turn, over the texts reconcile would parse."""
    nlp = spacy_pipeline()
    texts: dict[str, list[str]] = {}
    for session in sessions:
        for turn in session.turns:
            kind = getattr(turn, "type", None) or "message"
            text = (turn.searchable_text() if hasattr(turn, "searchable_text") else turn["text"]).strip()[:MAX_UNIT_CHARS]
            if text:
                texts.setdefault(kind, []).append(text)
    seconds = {}
    for kind, batch in texts.items():
        started = time.process_time()
        for _ in nlp.pipe(batch, batch_size=64):
            pass
        seconds[kind] = (len(batch), time.process_time() - started)
    return seconds


def print_stage(title: str, profile: Profiled, turns: int) -> None:
    """Each stage's share of the main thread's samples, that share of the wall time and of this process's
    CPU time, and the turns per CPU-second the stage alone would allow."""
    samples = sum(profile.counts.values()) or 1
    table = Table(title=title)
    for column in ("stage", "samples", "share", "≈ wall s", "≈ CPU s", "turns/CPU-s of the stage alone"):
        table.add_column(column, justify="left" if column == "stage" else "right")
    for stage, count in profile.counts.most_common():
        seconds = profile.cpu * count / samples
        table.add_row(stage, f"{count:,}", f"{count / samples:.1%}", f"{profile.wall * count / samples:.1f}",
                      f"{seconds:.1f}", f"{turns / seconds:,.0f}" if seconds else "")
    table.add_row("whole stage", f"{samples:,}", "100%", f"{profile.wall:.1f}", f"{profile.cpu:.1f}",
                  f"{turns / profile.cpu:,.0f}")
    table.caption = (f"{turns:,} turns; wall {profile.wall:.1f} s ({turns / profile.wall:,.1f} turns/s), "
                     f"this process CPU {profile.cpu:.1f} s ({turns / profile.cpu:,.1f} turns/CPU-s), "
                     f"FalkorDB server CPU {profile.server:.1f} s")
    console.print(table)


WARM_UP = ("I moved to Berlin last year and work at Hooli now.", "We switched our CI to Buildkite.",
           "My car is a Mazda; the Civic is gone.", "Let's use Postgres for the database.")


def warm_up(graph: SessionsGraph) -> None:
    """Reconcile and embed a few turns of a user of their own first: the models' loads are not ingest's
    steady cost. The vectors the reader embeds once per process (frame and occupation prototypes, the
    lexicon's examples) are made here too: these turns do not reach them all, and on one LoCoMo
    conversation making them was an eighth of reconcile's CPU, a cost a long import pays once."""
    graph.record_session_start("warm-up", user_id="warm-up", started_at=datetime(2026, 1, 1, tzinfo=UTC))
    graph.record_turns("warm-up", [{"role": "user", "text": text} for text in WARM_UP], user_id="warm-up")
    graph.reconcile_session("warm-up")
    graph.embed_session("warm-up")
    frames.classify("I live in Berlin")
    frames.occupation("baker")
    lexicon.nearest_kind("Postgres")


def record_all(graph: SessionsGraph, sessions: Sequence[Session]) -> None:
    """Set the store up, record every session's turns (outside any measurement) and warm the models up."""
    graph.setup()
    for session in sessions:
        graph.record_session_start(session.session_id, user_id=session.user, started_at=session.start)
        graph.record_turns(session.session_id, session.turns, user_id=session.user)
    warm_up(graph)


def run_corpus(name: str, sessions: list[Session], cprofile: Path | None) -> None:
    turns = sum(len(s.turns) for s in sessions)
    directory = Path(tempfile.mkdtemp(prefix="sg-profile-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    try:
        record_all(graph, sessions)
        ids = [s.session_id for s in sessions]
        store: FalkorDBStore = graph.store  # type: ignore[assignment]
        reconciled = profiled(store, f"{name} reconcile", ids, graph.reconcile_session, cprofile)
        embedded = profiled(store, f"{name} embed", ids, graph.embed_session, cprofile)
        passages = {row["kind"]: row["n"] for row in store.run(
            "MATCH (p:Passage) WHERE p.user_id <> 'warm-up' RETURN p.kind AS kind, count(p) AS n")}
    finally:
        graph.close()
        shutil.rmtree(directory, ignore_errors=True)
    print_stage(f"{name}: reconcile ({len(sessions)} sessions)", reconciled, turns)
    print_stage(f"{name}: embed ({len(sessions)} sessions)", embedded, turns)
    console.print(f"{name}: passages embedded by kind {passages} ({sum(passages.values()) / turns:.2f} per turn)")
    both = reconciled.wall + embedded.wall
    console.print(f"{name}: reconcile + embed {turns / both:,.1f} turns/s wall, "
                  f"{turns / (reconciled.cpu + embedded.cpu):,.1f} turns per CPU-second of this process")


def _cpu(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def print_batching(sessions: Sequence[Session]) -> None:
    """Same-process CPU ratios for the batching the issue proposes: one parse and one embed call per
    session (today) against one over every session, and single-word embeds against one batch."""
    texts = [[turn["text"] for turn in session.turns] for session in sessions]
    every = [text for session in texts for text in session]
    # An embedder that keeps no short texts: the same texts are embedded both ways.
    nlp, embedder = spacy_pipeline(), OnnxMiniLM(short_texts_kept=0)
    list(nlp.pipe(every[:8]))  # loads outside the timings
    embedder.embed(every[:8])
    table = Table(title=f"batching across sessions ({len(sessions)} sessions, {len(every):,} turns; process CPU s)")
    for column in ("work", "per session", "all at once", "ratio"):
        table.add_column(column, justify="left" if column == "work" else "right")
    per = _cpu(lambda: [list(nlp.pipe(session, batch_size=64)) for session in texts])
    once = _cpu(lambda: list(nlp.pipe(every, batch_size=256)))
    table.add_row("spaCy parse of the turns", f"{per:.2f}", f"{once:.2f}", f"{per / once:.2f}x")
    per = _cpu(lambda: [embedder.embed(session) for session in texts])
    once = _cpu(lambda: embedder.embed(every))
    table.add_row("embedding the turns", f"{per:.2f}", f"{once:.2f}", f"{per / once:.2f}x")
    words = sorted({word for text in every[:200] for word in text.split()[1:4]})
    per = _cpu(lambda: [embedder.embed([word]) for word in words])
    once = _cpu(lambda: embedder.embed(words))
    table.add_row(f"embedding {len(words)} words (one per call / one call)", f"{per:.2f}", f"{once:.2f}", f"{per / once:.2f}x")
    console.print(table)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json")
    parser.add_argument("--conversations", type=int, default=2, help="how many LoCoMo conversations (0: none)")
    parser.add_argument("--transcripts", type=Path, default=DEFAULT_TRANSCRIPTS, help="folder of harness JSONL files")
    parser.add_argument("--files", type=int, default=6, help="how many transcripts, largest first (0: none)")
    parser.add_argument("--held-out", action="store_true",
                        help="LoCoMo's held-out conversations (5-9, what bench_recall_quality reports) instead of the first")
    parser.add_argument("--cprofile", type=Path,
                        help="run under cProfile as well and write each stage's .prof file here, for pstats")
    args = parser.parse_args(argv)
    if args.conversations and not args.data.is_file():
        parser.error(f"{args.data} does not exist: pass --data with the path of locomo10.json, or --conversations 0")
    if args.files and not args.transcripts.is_dir():
        parser.error(f"{args.transcripts} is not a folder: pass --transcripts, or --files 0")
    if args.cprofile:
        args.cprofile.mkdir(parents=True, exist_ok=True)
    if args.conversations:
        locomo = held_out_sessions(args.data) if args.held_out else locomo_sessions(args.data, args.conversations)
        run_corpus("LoCoMo", locomo, args.cprofile)
        print_batching(locomo)
    if args.files:
        sessions = transcript_sessions(args.transcripts, args.files)
        run_corpus("transcripts", sessions, args.cprofile)
        kinds = parse_by_kind(sessions)
        table = Table(title="transcripts: spaCy parse alone by turn kind (process CPU)")
        for column in ("kind", "turns", "parse CPU s", "share"):
            table.add_column(column, justify="left" if column == "kind" else "right")
        whole = sum(seconds for _, seconds in kinds.values())
        for kind, (count, seconds) in sorted(kinds.items()):
            table.add_row(kind, f"{count:,}", f"{seconds:.2f}", f"{seconds / whole:.1%}")
        console.print(table)
        console.print(f"turn kinds: {dict(Counter(getattr(t, 'type', 'message') for s in sessions for t in s.turns))}")


if __name__ == "__main__":
    main()
