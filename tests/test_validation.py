import pytest

from sessions_graph_core import validation
from sessions_graph_core.validation import ValidationError


@pytest.mark.parametrize("value", ["alice", "alice@example.com", "a.b-c_d", "x" * 256])
def test_user_ids_accepted(value):
    assert validation.user_id(value) == value


@pytest.mark.parametrize("value", ["", "x" * 257, "al ice", "a/b", "a:b", None, 7, "ä"])
def test_user_ids_rejected(value):
    with pytest.raises(ValidationError, match="user_id"):
        validation.user_id(value)


def test_session_id_is_trimmed():
    assert validation.session_id("  s-1 \n") == "s-1"


@pytest.mark.parametrize(
    "value, reason",
    [("", "empty"), ("   ", "empty"), ("é" * 65, "128 bytes"), ("a\x00b", "control"), ("a\x7fb", "control"), (5, "string")],
)
def test_session_ids_rejected(value, reason):
    with pytest.raises(ValidationError, match=reason):
        validation.session_id(value)


def test_session_id_of_exactly_128_bytes():
    assert validation.session_id("é" * 64) == "é" * 64


@pytest.mark.parametrize("value", ["Person", "_x", "works_for", "A1"])
def test_identifiers_accepted(value):
    assert validation.identifier(value) == value


@pytest.mark.parametrize("value", ["", "1a", "a-b", "a b", "a`b", "Person) DETACH DELETE (n", "ü"])
def test_identifiers_rejected(value):
    with pytest.raises(ValidationError, match="safe identifier"):
        validation.identifier(value)
