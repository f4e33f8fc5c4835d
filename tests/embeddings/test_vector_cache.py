"""The word-vector caches of a long-running process (the Dagster daemon, the MCP server) are bounded: they keep the
most recently asked-for words and embed the rest again, so memory stays flat however many words go by."""

from __future__ import annotations

import importlib
import pkgutil
import threading

from sessions_graph_core import recall, reconcile
from sessions_graph_core.embeddings.models import VectorCache
from sessions_graph_core.recall import lanes
from sessions_graph_core.reconcile import facts, questions


class CountingEmbedder:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, words: list[str]) -> list[str]:
        self.calls.append(words)
        return [f"v({word})" for word in words]


def test_the_cache_keeps_the_most_recently_asked_for_and_no_more() -> None:
    cache, embed = VectorCache(3), CountingEmbedder()
    assert cache.get(["a", "b", "c"], embed) == {"a": "v(a)", "b": "v(b)", "c": "v(c)"}
    cache.get(["a"], embed)  # a hit: "a" is now the most recent, "b" the least
    assert cache.get(["d", "e"], embed) == {"d": "v(d)", "e": "v(e)"}
    assert len(cache) == 3
    embed.calls.clear()
    assert cache.get(["a", "d", "e"], embed) == {"a": "v(a)", "d": "v(d)", "e": "v(e)"}
    assert embed.calls == []  # all kept
    assert cache.get(["b", "c", "b"], embed) == {"b": "v(b)", "c": "v(c)"}
    assert embed.calls == [["b", "c"]]  # evicted, embedded again in one call, each once


def test_more_words_than_the_bound_in_one_call_are_all_answered() -> None:
    cache = VectorCache(2)
    words = [f"w{n}" for n in range(10)]
    assert cache.get(words, CountingEmbedder()) == {word: f"v({word})" for word in words}
    assert len(cache) == 2


def test_the_bound_holds_under_threads() -> None:
    cache, embed = VectorCache(50), CountingEmbedder()

    def ask(start: int) -> None:
        for n in range(start, start + 500):
            cache.get([f"w{n}", f"w{n + 1}"], embed)

    threads = [threading.Thread(target=ask, args=(n * 300,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 50


def test_the_process_wide_word_caches_are_bounded() -> None:
    assert isinstance(questions._VECTORS, VectorCache) and isinstance(lanes._PREDICATE_VECTORS, VectorCache)
    assert facts._word_vector.cache_info().maxsize is not None


# Caches whose keys come from a fixed set (the shipped lexicon and models, a kind of attribute, a WordNet
# sense's name, the ontology's own relation types, no argument at all: periods' patterns compiled on first use,
# the junk gate's shipped weights, the tokenizer's known words, the keyboard's keys), not from what users say: they
# cannot grow with the text.
FIXED_KEYS = {"base_attributes", "_examples", "_lexicon", "_vectors", "_verb_senses", "declared", "_vocabulary",
              "spacy_pipeline", "_load", "shipped_ranker", "_patterns", "_yearless_patterns", "shipped", "known_words",
              "_key_places", "_part_before", "_relative_pattern", "_named_kinds"}


def test_no_cache_keyed_by_what_users_say_grows_without_bound() -> None:
    modules = [importlib.import_module(info.name) for package in (reconcile, recall)
               for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")]
    unbounded = [f"{module.__name__}.{name}" for module in modules for name, value in vars(module).items()
                 if callable(getattr(value, "cache_info", None)) and getattr(value, "__module__", None) == module.__name__
                 and value.cache_info().maxsize is None and name not in FIXED_KEYS]
    assert len(modules) > 10
    assert not unbounded, f"give these a maxsize (text.WORDS_CACHED) or say why their keys are fixed: {unbounded}"


def test_a_bound_smaller_than_a_question_changes_no_answer(monkeypatch) -> None:
    """Whether a holder names its attribute's matter (questions.NAMES_ATTRIBUTE's examples) is answered the same
    when the cache holds one word, fewer than one question asks about."""
    cases = [("bugs", "issue tracker"), ("data", "database"), ("the website", "framework"), ("tasks", "task tracker")]
    wide = [questions._names_attribute(holder, attribute, f"we track {holder}") for holder, attribute in cases]
    monkeypatch.setattr(questions, "_VECTORS", VectorCache(1))
    assert [questions._names_attribute(holder, attribute, f"we track {holder}") for holder, attribute in cases] == wide
    assert wide == [True, True, False, True]
