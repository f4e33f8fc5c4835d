"""Value classes (values.py): what the hook path's types keep of a frozen dataclass without importing one."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from sessions_graph_core.sessions.records import SessionInfo, TurnIn
from sessions_graph_core.store.base import Schema, UniqueKey, VectorIndex
from sessions_graph_core.store.location import StoreSettings
from sessions_graph_core.validation import ValidationError


def test_values_are_equal_and_hashed_by_type_and_fields() -> None:
    assert VectorIndex("Passage", "embedding", 384) == VectorIndex("Passage", "embedding", 384)
    assert VectorIndex("Passage", "embedding", 384) != VectorIndex("Passage", "embedding", 768)
    assert len({VectorIndex("Passage", "embedding", 384), VectorIndex("Passage", "embedding", 384)}) == 1
    assert UniqueKey("Turn", ("turn_id",)) != ("Turn", ("turn_id",))  # not a tuple: another type is never equal


def test_a_value_cannot_be_changed_only_copied_with_changes(tmp_path: Path) -> None:
    settings = StoreSettings(tmp_path)
    with pytest.raises(AttributeError, match=r"read-only: make a changed copy with \.replace\(graph=\.\.\.\)"):
        settings.graph = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read-only"):
        del settings.graph
    changed = settings.replace(graph="other")
    assert (changed.graph, changed.data_dir, settings.graph) == ("other", tmp_path, "sessions_graph")
    with pytest.raises(TypeError, match="StoreSettings has no field colour"):
        settings.replace(colour="red")


def test_a_copy_is_checked_as_a_new_one_is(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="store.read_url and store.replica_acks name replicas"):
        StoreSettings(tmp_path).replace(read_url="falkordb://replica:6379")
    with pytest.raises(ValidationError, match="role"):
        TurnIn(text="hi").replace(role=3)  # type: ignore[arg-type]


def test_repr_leaves_passwords_out(tmp_path: Path) -> None:
    shown = repr(StoreSettings(tmp_path, memgraph_url="bolt://db:7687", memgraph_password="hunter2"))
    assert "hunter2" not in shown and "memgraph_password" not in shown
    assert "memgraph_url='bolt://db:7687'" in shown and shown.startswith("StoreSettings(data_dir=")


def test_pickle_and_copy_make_an_equal_value(tmp_path: Path) -> None:
    info = SessionInfo("s-1", "alice", metadata={"cwd": "/repo"})
    assert pickle.loads(pickle.dumps(info)) == info
    assert copy.deepcopy(info) == info and copy.deepcopy(info).metadata is not info.metadata
    assert pickle.loads(pickle.dumps(StoreSettings(tmp_path, graph="g"))) == StoreSettings(tmp_path, graph="g")


def test_as_dict_turns_nested_values_into_dicts_too() -> None:
    schema = Schema(unique_keys=(UniqueKey("Turn", ("turn_id",)),))
    assert schema.as_dict() == {
        "unique_keys": ({"label": "Turn", "properties": ("turn_id",)},), "range_indexes": (), "fulltext_indexes": ()}
    assert SessionInfo("s-1", "alice").as_dict()["metadata"] == {}


def test_a_default_that_is_a_container_is_not_shared() -> None:
    first, second = SessionInfo("s-1", "alice"), SessionInfo("s-2", "alice")
    first.metadata["cwd"] = "/repo"
    assert second.metadata == {}
