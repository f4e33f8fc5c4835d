"""The constraints and indexes the graph needs (DESIGN.md section 4)."""

from __future__ import annotations

from sessions_graph_core.store.base import FullTextIndex, RangeIndex, Schema, UniqueKey

MEMORY_TEXT_INDEX = FullTextIndex("memory_content_index", "Memory", "content")
TURN_TEXT_INDEX = FullTextIndex("recall_turn_text_index", "Turn", "text")

SCHEMA = Schema(
    unique_keys=(
        UniqueKey("User", ("user_id",)),
        UniqueKey("Memory", ("memory_id",)),
        UniqueKey("Memory", ("user_id", "path")),
        UniqueKey("Project", ("key",)),
        UniqueKey("Session", ("session_id",)),
        UniqueKey("Turn", ("turn_id",)),
        UniqueKey("Passage", ("passage_id",)),
        UniqueKey("Chunk", ("hash",)),
        UniqueKey("Entity", ("user_id", "entity_key")),
        UniqueKey("Fact", ("fact_id",)),
        UniqueKey("OntologyVersion", ("user_id", "version")),
    ),
    range_indexes=(
        RangeIndex("Memory", "created_at"),
        RangeIndex("Memory", "extraction_status"),
        RangeIndex("MemoryVersion", "memory_id"),
        RangeIndex("MemoryVersion", "user_id"),
        RangeIndex("Session", "user_id"),
        RangeIndex("Session", "reconciliation_status"),
        RangeIndex("Session", "embedding_status"),
        RangeIndex("Turn", "session_id"),
        RangeIndex("Turn", "user_id"),
        RangeIndex("Passage", "source_id"),
        RangeIndex("Chunk", "user_id"),
        RangeIndex("Entity", "name_key"),
        RangeIndex("Fact", "user_id"),
        RangeIndex("Fact", "slot"),
    ),
    fulltext_indexes=(MEMORY_TEXT_INDEX, TURN_TEXT_INDEX),
)
