"""The LLM path on the knowledge set: rules alone vs hybrid reading vs full LLM extraction, in one run.

On bench_knowledge.py's cases (tests/data/knowledge_changes.json: an old and a new statement of one user,
three weeks apart, with distractor turns around them) each backend reconciles the same sessions in the same
shuffled order, through bench_knowledge.py's own harness:
- spacy: the rules alone (no model);
- spacy+llm: hybrid reading, the model asked only where the rules leave a gap;
- llm: full LLM extraction (seed 002's prompt), one call per text.
Reported per backend: changes superseded, non-changes falsely superseded, model calls, tokens and seconds per
1,000 turns, and the hybrid's tokens as a share of full extraction's (the issue's bound: at most a fifth).
The model is the configured endpoint (llm.* in the config, as `doctor` checks it), or with --local the
small llama.cpp server the tests start (tests/local_llm.py: SmolLM2-135M-Instruct). Replies are not cached
here, so every call is paid and counted.

    nice -n 10 .venv/bin/python benchmarks/bench_llm.py --local [--cases 8] [--split held-out|tune|all]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_knowledge import DATA, ROOT, rates, run_harness  # noqa: E402

BACKENDS = ("spacy", "spacy+llm", "llm")


def sample(cases: list[dict], split: str, count: int) -> list[dict]:
    """`count` cases of the split, half changes and half non-changes, drawn with a fixed seed."""
    chosen = [case for case in cases if split == "all" or case["split"] == split]
    rng = random.Random(43)
    changes = [case for case in chosen if case["expect"] == "supersede"]
    keeps = [case for case in chosen if case["expect"] == "keep"]
    half = count // 2
    return rng.sample(changes, min(half, len(changes))) + rng.sample(keeps, min(count - half, len(keeps)))


def client(base_url: str | None, max_tokens: int) -> Any:
    """The configured LLM client (or one for the local server), uncached, one call in flight per server slot."""
    from sessions_graph_core.config.model import load_config
    from sessions_graph_core.llm import LlmClient

    config = load_config().model_copy(deep=True)
    if base_url:
        from local_llm import MODEL

        config.llm.provider, config.llm.base_url, config.llm.model = "openai-compatible", base_url, MODEL
        config.llm.max_in_flight, config.llm.timeout_s = 1, 600
    config.llm.max_tokens = max_tokens
    llm = LlmClient.from_config(config, needs="bench_llm.py", instead="pass --local for the small local server")
    llm.cache = None
    return llm


def backend_for(name: str, llm: Any) -> Any:
    from sessions_graph_core.reconcile.extraction.hybrid import HybridBackend
    from sessions_graph_core.reconcile.extraction.llm import LlmBackend
    from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

    return {"spacy": SpacyBackend, "spacy+llm": HybridBackend, "llm": LlmBackend}[name](llm) if name != "spacy" \
        else SpacyBackend()


def measure(name: str, cases: list[dict], distractors: list[str], llm: Any) -> dict:
    result = run_harness(cases, distractors, backend_for(name, llm))
    result["usage"] = llm.usage.model_copy() if name != "spacy" else None
    return result


def row(name: str, cases: list[dict], result: dict) -> list[str]:
    table = rates(cases, result["results"])
    hits, changes = table["supersede: ALL"]
    false, keeps = table["keep: ALL"]
    turns = 3 * 2 * len(cases)  # every session holds two turns; the tokens count every session's
    # The harness times every session's reconcile but the first (which loads the models) over its own turns.
    seconds = result["seconds"] * 1000 / result["turns"]
    usage = result["usage"]
    tokens = (usage.input_tokens + usage.output_tokens) if usage else 0
    return [name, f"{hits}/{changes} = {hits / changes:.0%}", f"{false}/{keeps} = {false / keeps:.0%}",
            str(usage.calls if usage else 0), str(usage.failed if usage else 0),
            f"{tokens * 1000 / turns:,.0f}", f"{seconds:,.0f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--local", action="store_true", help="start the tests' llama.cpp server and measure it")
    parser.add_argument("--cases", type=int, default=8, help="how many cases (half changes, half not)")
    parser.add_argument("--split", choices=("held-out", "tune", "all"), default="held-out")
    parser.add_argument("--max-tokens", type=int, default=256, help="the longest reply, in tokens")
    args = parser.parse_args()
    data = json.loads(DATA.read_text())
    cases = sample(data["cases"], args.split, args.cases)
    from rich.console import Console
    from rich.table import Table

    with ExitStack() as stack:
        base_url = None
        if args.local:
            sys.path.insert(0, str(ROOT / "tests"))
            from local_llm import local_server

            base_url = stack.enter_context(local_server(threads=2))
        results = {name: measure(name, cases, data["distractors"], client(base_url, args.max_tokens))
                   for name in BACKENDS}
    model = results["llm"]["usage"]
    table = Table(title=f"The LLM path on {len(cases)} {args.split} cases of the knowledge set "
                        f"({model.provider} {model.model}; max {args.max_tokens} reply tokens)")
    for column in ("backend", "changes superseded", "non-changes falsely superseded", "model calls",
                   "unusable replies", "tokens / 1,000 turns", "seconds / 1,000 turns"):
        table.add_column(column, justify="left" if column == "backend" else "right")
    for name in BACKENDS:
        table.add_row(*row(name, cases, results[name]))
    Console().print(table)
    hybrid, full = (results[name]["usage"] for name in ("spacy+llm", "llm"))
    share = (hybrid.input_tokens + hybrid.output_tokens) / max(1, full.input_tokens + full.output_tokens)
    print(f"hybrid reading's tokens are {share:.1%} of full extraction's (bound: at most 20%): "
          f"{'met' if share <= 0.2 else 'MISSED'}")


if __name__ == "__main__":
    main()
