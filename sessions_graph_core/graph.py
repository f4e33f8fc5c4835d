"""`SessionsGraph`: the library's entry point, one object over one store."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessions_graph_core import users, validation
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.memory import notes as memories
from sessions_graph_core.memory.files import MemoryStore
from sessions_graph_core.ontology import model as ontology
from sessions_graph_core.ontology.model import OntologyVersion
from sessions_graph_core.reconcile import facts, forgetting, provenance
from sessions_graph_core.sessions import jsonl as transcript_files
from sessions_graph_core.sessions import records as sessions
from sessions_graph_core.sessions.jsonl import Imported, Transcript
from sessions_graph_core.sessions.records import SessionInfo, Turn, TurnIn
from sessions_graph_core.store.base import GraphStore, HistoryErased
from sessions_graph_core.store.location import StoreSettings, open_store
from sessions_graph_core.store.schema import SCHEMA

# What the reader, the embedder and recall need is imported in the method that uses it: a CLI call
# that lists sessions must not load spaCy (the reconcile pipeline) or onnxruntime (the embedder).

if TYPE_CHECKING:
    from sessions_graph_core.embeddings.vectors import Embedded
    from sessions_graph_core.llm import LlmClient
    from sessions_graph_core.memory.notes import Memory
    from sessions_graph_core.ontology.derive.run import RunReport, VersionSummary
    from sessions_graph_core.recall.config import RecallConfig
    from sessions_graph_core.recall.results import Recalled, RecalledTurn
    from sessions_graph_core.reconcile import pipeline as reconcile
    from sessions_graph_core.reconcile.extraction.base import ExtractionBackend
    from sessions_graph_core.sessions.jsonl import Imported, Transcript
    from sessions_graph_core.sessions.records import SessionInfo, Turn, TurnIn


class SessionsGraph:
    """Cross-session memory for one store.

    With no store given it opens the embedded FalkorDB in the default data directory, or
    Memgraph when MEMGRAPH_URL is set.
    """

    def __init__(self, store: GraphStore | None = None, *, settings: StoreSettings | None = None) -> None:
        if store is None:
            from sessions_graph_core.config.model import store_settings

            store = open_store(settings or store_settings())
        self.store = store

    def __enter__(self) -> SessionsGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    # -- schema ----------------------------------------------------------------------------

    def setup(self) -> None:
        """Create the constraints and indexes; safe to run any number of times."""
        self.store.apply_schema(SCHEMA)

    def user_exists(self, user_id: str) -> bool:
        """Whether the store has ever recorded anything of `user_id`."""
        return users.user_exists(self.store, user_id)

    def drop(self) -> None:
        """Remove the constraints and indexes that setup() made (the data stays)."""
        self.store.drop_schema(SCHEMA)

    # -- memories --------------------------------------------------------------------------

    def save_memory(
        self,
        user_id: str,
        content: str,
        *,
        session_id: str | None = None,
        path: str | None = None,
    ) -> Memory:
        """A new memory file of the user's; its id is made by the store (see memory.notes.save_memory)."""
        return memories.save_memory(self.store, user_id, content, session_id=session_id, path=path)

    def get_memory(self, memory_id: str, *, user_id: str | None = None) -> Memory | None:
        """The memory with this id; with `user_id`, only if it is that user's."""
        return memories.get_memory(self.store, memory_id, user_id=user_id)

    def get_memories(self, user_id: str) -> list[Memory]:
        return memories.get_memories(self.store, user_id)

    def get_memories_for_session(self, session_id: str) -> list[Memory]:
        return memories.get_memories_for_session(self.store, session_id)

    def search_memories(self, user_id: str, query: str, *, limit: int = 10) -> list[Memory]:
        return memories.search_memories(self.store, user_id, query, limit=limit)

    def update_memory(self, memory_id: str, content: str, *, user_id: str | None = None) -> Memory | None:
        return memories.update_memory(self.store, memory_id, content, user_id=user_id)

    def delete_memory(self, memory_id: str, *, user_id: str | None = None) -> bool:
        """Delete a memory (with `user_id`, only that user's) and what reconciling its text produced
        (nothing another source backs)."""
        memory = memories.get_memory(self.store, memory_id, user_id=user_id)
        deleted = memory is not None and memories.delete_memory(self.store, memory_id, user_id=user_id)
        if memory is not None and deleted:
            forgetting.forget_memory(self.store, memory.user_id, memory_id)
        return deleted

    def memory_store(self, user_id: str, *, session_id: str | None = None) -> MemoryStore:
        """The user's memories as the file tree of Claude's memory tool; writes credit `session_id`."""
        return MemoryStore(self.store, user_id, session_id=session_id)

    # -- sessions --------------------------------------------------------------------------

    def record_session_start(
        self,
        session_id: str,
        *,
        user_id: str,
        project_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        started_at: datetime | str | None = None,
    ) -> SessionInfo:
        return sessions.record_session_start(
            self.store, session_id, user_id=user_id, project_key=project_key, metadata=metadata, started_at=started_at
        )

    def record_turns(
        self,
        session_id: str,
        turns: Sequence[TurnIn | Mapping[str, Any]],
        *,
        user_id: str,
        first_position: int | None = None,
        call_id: str | None = None,
    ) -> int:
        """Append the turns to the session of `user_id`; each call's id-less turns are new turns. `call_id`
        makes a retried call add nothing twice; `first_position` numbers turns read from a transcript's
        line N on (re-imports add nothing); another user's session is refused as a missing one
        (see sessions.records.record_turns)."""
        return sessions.record_turns(
            self.store, session_id, turns, user_id=user_id, first_position=first_position, call_id=call_id
        )

    def import_transcript(self, transcript: Transcript, *, session_id: str, user_id: str) -> Imported:
        """Record a parsed JSONL transcript; it goes pending only when it brought new work."""
        return transcript_files.import_transcript(self.store, transcript, session_id=session_id, user_id=user_id)

    def end_turn(self, session_id: str) -> bool:
        return sessions.mark_pending(self.store, session_id)

    def end_session(self, session_id: str, *, ended_at: datetime | str | None = None) -> bool:
        return sessions.end_session(self.store, session_id, ended_at=ended_at)

    def get_session(self, session_id: str, *, user_id: str | None = None) -> SessionInfo | None:
        """The session; with `user_id`, only if it is that user's (another user's reads as missing)."""
        return sessions.get_session(self.store, session_id, user_id=user_id)

    def get_sessions(self, user_id: str) -> list[SessionInfo]:
        return sessions.user_sessions(self.store, user_id)

    def session_statuses(
        self, user_id: str, *, session_id: str | None = None, limit: int = 200, offset: int = 0
    ) -> list[sessions.SessionStatus]:
        """The user's sessions with their reconciliation and embedding status (and error), newest first."""
        return sessions.session_statuses(self.store, user_id, session_id=session_id, limit=limit, offset=offset)

    def get_turns(self, session_id: str, *, user_id: str | None = None) -> list[Turn]:
        """The session's turns in order; with `user_id`, none unless the session is that user's."""
        return sessions.get_turns(self.store, session_id, user_id=user_id)

    def get_user_turns(self, user_id: str, *, limit: int = 100) -> list[Turn]:
        return sessions.user_turns(self.store, user_id, limit=limit)

    def get_pending_reconciliation_sessions(self, *, limit: int = 100) -> list[str]:
        return [pending.session_id for pending in sessions.pending_sessions(self.store, limit=limit)]

    # -- reconciliation --------------------------------------------------------------------

    def reconcile_session(
        self,
        session_id: str,
        *,
        backend: ExtractionBackend | None = None,
        enforce_ontology: bool = False,
        promote_labels: bool = False,
    ) -> reconcile.ReconcileSummary:
        from sessions_graph_core.reconcile import pipeline as reconcile

        return reconcile.reconcile_session(
            self.store, session_id, backend=backend, enforce_ontology=enforce_ontology, promote_labels=promote_labels
        )

    def reconcile_sessions(
        self, session_ids: Sequence[str], *, backend: ExtractionBackend | None = None, enforce_ontology: bool = False
    ) -> Iterator[reconcile.ReconcileSummary]:
        """Each session's summary in order, as reconcile_session gives it, the next extracted while one is written."""
        from sessions_graph_core.reconcile import pipeline as reconcile

        return reconcile.reconcile_sessions(self.store, session_ids, backend=backend, enforce_ontology=enforce_ontology)

    def reconcile_memory(
        self, memory_id: str, *, backend: ExtractionBackend | None = None, enforce_ontology: bool = True
    ) -> reconcile.MemoryReconciliation:
        from sessions_graph_core.reconcile import pipeline as reconcile

        return reconcile.reconcile_memory(self.store, memory_id, backend=backend, enforce_ontology=enforce_ontology)

    def get_pending_memories(self, *, limit: int = 100) -> list[str]:
        from sessions_graph_core.reconcile import pipeline as reconcile

        return reconcile.pending_memories(self.store, limit=limit)

    def forget_session(self, user_id: str, session_id: str) -> forgetting.Forgotten:
        """Forget a session of the user: its turns, vectors, what only it backs, and the session itself."""
        return forgetting.forget_session(self.store, user_id, session_id)

    def forget_memory_path(self, user_id: str, path: str) -> forgetting.Forgotten:
        """Erase a memory file or directory with its whole history and what only it backs."""
        return forgetting.forget_memory_path(self.store, user_id, path)

    def forget_user(self, user_id: str) -> dict[str, int]:
        """Erase every node of a user; how many of each label went."""
        return forgetting.forget_user(self.store, user_id)

    def forget_traces(self, user_id: str, *, session_id: str | None = None, path: str | None = None) -> forgetting.Traces:
        """The ids and text lines a forget of the session, the path or (with neither) the user must leave nowhere."""
        return forgetting.traces(self.store, user_id, session_id=session_id, path=path)

    def still_held(self, strings: list[str]) -> list[str]:
        """Which of `strings` some node still holds in its text (found on disk after a forget, they are no leak)."""
        return forgetting.still_held(self.store, strings)

    def erase_history(self) -> HistoryErased:
        """Make the store's files hold only what the graph holds now: run after a forget."""
        return self.store.erase_history()

    def forget_memory(self, user_id: str, memory_id: str) -> forgetting.Forgotten:
        return forgetting.forget_memory(self.store, user_id, memory_id)

    # -- facts and provenance ----------------------------------------------------------------

    # `candidates`: also the statements the reader held back as candidates (facts.Statement.candidate).
    def current_facts(self, user_id: str, about: str, *, candidates: bool = False) -> list[facts.FactView]:
        return facts.current(self.store, user_id, about, candidates=candidates)

    def fact_history(self, user_id: str, about: str, *, candidates: bool = False) -> list[facts.FactView]:
        return facts.history(self.store, user_id, about, candidates=candidates)

    def facts_as_of(self, user_id: str, about: str, moment: str, *, candidates: bool = False) -> list[facts.FactView]:
        return facts.as_of(self.store, user_id, about, moment, candidates=candidates)

    def nearby_facts(self, user_id: str, about: str) -> list[facts.NearbyFact]:
        return facts.nearby(self.store, user_id, about)

    def known_slots(self, user_id: str) -> list[str]:
        return facts.known_slots(self.store, user_id)

    def traced_facts(
        self, user_id: str, *, as_of: str | None = None, limit: int = 200, offset: int = 0, candidates: bool = False
    ) -> list[facts.TracedFact]:
        """What is true now (or as of a moment) about anything, newest first, each with its sources."""
        return facts.traced(self.store, user_id, moment=as_of, limit=limit, offset=offset, candidates=candidates)

    def traced_fact(self, user_id: str, fact_id: str) -> facts.TracedFact | None:
        return facts.traced_one(self.store, user_id, fact_id)

    def sessions_mentioning(self, user_id: str, entity: str) -> list[str]:
        return provenance.sessions_for_entity(self.store, user_id, entity)

    def sessions_stating(self, user_id: str, fact_id: str) -> list[str]:
        return provenance.sessions_for_fact(self.store, user_id, fact_id)

    def session_entities(self, session_id: str) -> list[provenance.EntityView]:
        return provenance.session_entities(self.store, session_id)

    def session_facts(self, session_id: str) -> list[facts.FactView]:
        return provenance.session_facts(self.store, session_id)

    # -- ontology ----------------------------------------------------------------------------

    def adopted_ontology(self, user_id: str) -> OntologyVersion:
        return ontology.adopted(self.store, user_id)

    def supply_ontology_file(self, user_id: str, path: str, *, derive: str = "extend") -> OntologyVersion:
        return ontology.supply_file(self.store, user_id, Path(path), derive=derive)

    def ontology_due(self, user_id: str) -> int | None:
        """The milestone a derivation run is due for, or None."""
        from sessions_graph_core.ontology.derive import milestones

        return milestones.due(self.store, user_id)

    def users_due_for_derivation(self) -> list[tuple[str, int]]:
        from sessions_graph_core.ontology.derive import milestones

        return milestones.due_users(self.store)

    def derive_ontology(
        self,
        user_id: str,
        *,
        llm: LlmClient | None = None,
        backend: ExtractionBackend | None = None,
        force: bool = False,
        seeds: int = 3,
    ) -> RunReport:
        """One derivation run; `llm` defaults to the configured provider, and without one this raises."""
        from sessions_graph_core.ontology.derive import run as derivation

        return derivation.derive(self.store, user_id, llm=llm, backend=backend, force=force, seeds=seeds)

    def ontology_versions(self, user_id: str) -> list[VersionSummary]:
        """Every stored version with its source and, for derived ones, the run that made it."""
        from sessions_graph_core.ontology.derive import run as derivation

        return derivation.chain(self.store, user_id)

    # -- embeddings and recall ---------------------------------------------------------------

    def embed_session(self, session_id: str, *, model: str = DEFAULT_EMBEDDING_MODEL) -> Embedded:
        from sessions_graph_core.embeddings import vectors as embeddings

        return embeddings.embed_session(self.store, session_id, model=model)

    def embed_memories(self, user_id: str, *, model: str = DEFAULT_EMBEDDING_MODEL) -> Embedded:
        """Vectors for the user's memory files that lack current ones."""
        from sessions_graph_core.embeddings import vectors as embeddings
        from sessions_graph_core.embeddings.models import load_embedder

        return embeddings.embed_memories(self.store, user_id, embedder=load_embedder(model, store=self.store))

    def get_pending_memory_embedding_users(self, *, model: str = DEFAULT_EMBEDDING_MODEL) -> list[str]:
        from sessions_graph_core.embeddings import vectors as embeddings

        return embeddings.pending_memory_users(self.store, model=model)

    def fill_turn_evidence(self, user_id: str | None = None) -> int:
        """Write what recall reads of each text on the turns recorded before it was written at ingest
        (recall/evidence.py), for one user or every user; returns how many turns were written."""
        from sessions_graph_core.recall import evidence as recall_evidence

        users = [validation.user_id(user_id)] if user_id is not None else sessions.users_of(self.store)
        return sum(recall_evidence.fill_turn_evidence(self.store, user) for user in users)

    def get_pending_embedding_sessions(self, *, model: str = DEFAULT_EMBEDDING_MODEL, limit: int = 100) -> list[str]:
        from sessions_graph_core.embeddings import vectors as embeddings

        return embeddings.pending_embeddings(self.store, model=model, limit=limit)

    def recall(
        self,
        user_id: str,
        question: str,
        *,
        config: RecallConfig | None = None,
        as_of: datetime | str | None = None,
        model: str = DEFAULT_EMBEDDING_MODEL,
        budget_tokens: int | None = None,
        candidates: bool = False,
    ) -> Recalled:
        from sessions_graph_core.recall import search as recall

        return recall.recall(self.store, user_id, question, config=config, as_of=as_of, model=model,
                             budget_tokens=budget_tokens, candidates=candidates)

    def expand_turn(self, user_id: str, turn_id: str) -> RecalledTurn:
        """The whole of one of the user's turns, by the id a recall row shows."""
        from sessions_graph_core.recall import search as recall

        return recall.expand(self.store, user_id, turn_id)
