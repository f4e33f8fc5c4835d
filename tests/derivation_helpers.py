"""Sessions worth deriving from, and the fake LLM (tests/fake_llm.py) answering derivation prompts."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from fake_llm import FakeLlmHttp, llm_client

from sessions_graph_core import SessionsGraph
from sessions_graph_core.llm import LlmClient
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

USER = "dana"
SPACY = SpacyBackend()

PEOPLE = ["Alice", "Bob", "Carol", "Dmitri", "Erin", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena"]
SERVICES = ["orders", "billing", "payments", "search", "inventory", "shipping", "catalog", "accounts", "pricing",
            "reports", "refunds", "loyalty"]
CITIES = ["Berlin", "Lisbon", "Toronto", "Madrid", "Oslo", "Dublin", "Vienna", "Prague", "Warsaw", "Zurich",
          "Helsinki", "Athens"]
COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Cyberdyne", "Soylent",
             "Tyrell", "Wonka"]
DATABASES = ["ledger", "customer", "analytics", "audit", "session", "archive", "metrics", "profile", "event",
             "order", "stock", "price"]


def user_turns(index: int, *, databases: bool = True) -> list[str]:
    """Three user messages of about 450 characters about services, people and places (distinct per index)."""
    pick = lambda names, shift=0: names[(index + shift) % len(names)]  # noqa: E731
    person, other, svc, svc2 = pick(PEOPLE), pick(PEOPLE, 5), pick(SERVICES), pick(SERVICES, 3)
    city, company, db = pick(CITIES), pick(COMPANIES), pick(DATABASES)
    storage = (f"The {svc} service reads the {db} database, and the {db} database keeps a replica in {city}."
               if databases else f"The {svc} service keeps its cache in memory, next to the {svc2} service.")
    return [
        f"{person} owns the {svc} service now. {storage} {other} from {company} maintains the {svc2} service, "
        f"and {person} wants the {svc} service to call the {svc2} service for every refund in session {index}. "
        f"The {svc2} service sends nightly reports to the finance team in {city}. "
        f"{other} thinks the {svc} service should move off the old cluster before the spring release.",
        f"We deployed the {svc2} service to the {city} cluster on Monday because the old cluster kept failing. "
        f"{company} hosts the {city} cluster for us, and {other} owns the {svc2} service as of this week. "
        f"I trust the {svc} service more than the {svc2} service, but the {svc2} service is cheaper to run. "
        f"Remind me to ask {person} about the release checklist for the {svc} service.",
        f"Please write down that {person} leads the checkout team and that the checkout team owns the {svc} service. "
        f"{other} works for {company} in {city}. The {svc} service needs a new dashboard before the review "
        f"with {company}, and the dashboard should show the latency of the {svc2} service too. "
        f"{person} prefers short incident reviews on Fridays.",
    ]


def record(graph: SessionsGraph, index: int, *, user: str = USER, databases: bool = True) -> str:
    """One qualifying session, reconciled with spaCy under the user's adopted ontology."""
    sid = f"{user}-s{index:02d}"
    graph.record_session_start(sid, user_id=user, started_at=f"2026-03-{index + 1:02d}T09:00:00Z")
    turns: list[dict[str, Any]] = []
    for position, text in enumerate(user_turns(index, databases=databases)):
        turns.append({"role": "user", "text": text, "turn_id": f"{sid}-u{position}"})
        turns.append({"role": "assistant", "text": f"Noted for session {index}.", "turn_id": f"{sid}-a{position}"})
    graph.record_turns(sid, turns, user_id=user)
    graph.end_session(sid)
    summary = graph.reconcile_session(sid, backend=SPACY, enforce_ontology=True)
    assert summary.status == "completed", summary.error
    return sid


def node(label: str, identity: str = "global") -> dict[str, str]:
    return {"label": label, "description": f"a {label.lower()}", "identity": identity}


def relation(label: str, start: list[str], end: list[str]) -> dict[str, Any]:
    return {"label": label, "description": label.replace("_", " "), "start_labels": start, "end_labels": end}


def proposal(
    nodes: list[dict] = (), relations: list[dict] = (), merge: list[tuple] = (), retire: list[tuple] = ()
) -> dict[str, Any]:
    return {
        "add_node_types": list(nodes),
        "add_relation_types": list(relations),
        "merge": [{"kind": kind, "label": label, "into": into} for kind, label, into in merge],
        "retire": [{"kind": kind, "label": label, "into": ""} for kind, label in retire],
        "rationale": "fits the sessions",
    }


# Adds the types the sessions need: services and databases typed, ownership as a relation.
GOOD = proposal(
    [node("Service"), node("Database"), node("Cluster")],
    [relation("owns", ["User", "Person", "Organization"], ["Service"]),
     relation("deploys", ["User", "Person"], ["Service"])],
)
# Loses organizations and places to the catch-alls: the gate must refuse it.
BAD = proposal(retire=[("node", "Organization"), ("node", "Location")])


class FakeLlmApi(FakeLlmHttp):
    """The fake LLM answering derivation prompts with the proposal for the candidate asked for."""

    def __init__(self, answers: list[dict[str, Any] | str] | Callable[[int], dict[str, Any] | str]) -> None:
        super().__init__(self.answer)
        self.answers = answers

    def answer(self, prompt: str) -> str:
        match = re.search(r"Candidate (\d+) of (\d+)", prompt)
        assert match, "a derivation prompt names its candidate"
        seed = int(match.group(1)) - 1
        chosen = self.answers(seed) if callable(self.answers) else self.answers[seed % len(self.answers)]
        return chosen if isinstance(chosen, str) else json.dumps(chosen)


def fake_llm(provider: str, api: FakeLlmApi, model: str | None = None) -> LlmClient:
    return llm_client(provider, api, model)


def claim_worker(data_dir: str, graph_name: str, token: str, now: str, rounds: int, start: Any, done: Any, results: Any) -> None:
    """One of two processes racing for the user's claim, once per round, on the same server."""
    from datetime import datetime
    from pathlib import Path

    from sessions_graph_core.ontology.derive.milestones import claim
    from sessions_graph_core.store.falkordb.server import EmbeddedServer
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    store = FalkorDBStore(EmbeddedServer(Path(data_dir)), graph=graph_name)
    moment = datetime.fromisoformat(now)
    for _ in range(rounds):
        start.wait()
        results.put((token, claim(store, USER, token, moment)))
        done.wait()
    store.close()
