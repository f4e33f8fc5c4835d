"""Issue 13's twenty-second round (helper h13y), with the real spaCy model and the real store: a restatement
never supersedes. A value said word by word another way, or with words that only say what kind of thing it
is, is the value the slot holds (facts.same_value); a clause that says nothing changed ("still", "again",
"as before", "same as ever", a verb of remaining, a change or an ending denied) is read as kept and repeats the
statement before it in its slot whatever words it says the value in, whichever of the two is reconciled
first, and ends nothing. A change that mentions the old value, or says "still" of something else, still
supersedes. The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.facts import same_value
from tests.reconcile.reading_helpers import reconciled


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("VW Golf", "Volkswagen Golf"),  # capitals that are letters of one word, in order
        ("MS Teams", "Microsoft Teams"),
        ("React + TS", "React with TypeScript"),  # word by word, whatever joins the words
        ("the Hetzner box", "Hetzner"),  # a word that only says what kind of thing it is
        ("Porto", "Porto, near the river"),
    ],
)
def test_a_value_said_word_by_word_another_way_is_the_same(one: str, other: str) -> None:
    assert same_value(one, other) and same_value(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Portland, Oregon", "Portland, Maine"),  # a word of its own each
        ("Premium Individual", "Premium Family"),
        ("Postgres and Redis", "Postgres"),  # a second name joined to it
        ("react native", "react"),  # in lower case, a word may be a word of the name
        ("Mazda", "Mazda CX-5"),
        ("New Jersey", "New York"),
    ],
)
def test_a_value_with_a_word_of_its_own_is_another(one: str, other: str) -> None:
    assert not same_value(one, other) and not same_value(other, one)


def _kept(spacy: SpacyBackend, text: str) -> list[tuple[str, str | None, bool]]:
    return [(f.slot, f.value, f.kept) for f in spacy.extract([text], DEFAULT_MODEL)[0].facts if f.slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm in New York, same as ever", "me/location"),
        ("I still live in Leeds", "me/location"),
        ("Slack is our chat tool, as before.", "@project/chat"),
        ("our error tracking remains Sentry", "@project/error tracking"),
        ("deploys haven't changed, it's all GitHub Actions", "@thing/ci"),  # "it": the thing in focus
        ("I haven't switched banks, I'm with Monzo", "me/bank"),  # a change denied is no ending
    ],
)
def test_a_clause_that_says_nothing_changed_is_kept(spacy: SpacyBackend, text: str, slot: str) -> None:
    assert [(s, kept) for s, _, kept in _kept(spacy, text)] == [(slot, True)]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I live in New Jersey now, same job in the city", "me/location"),  # "same" of another thing, and "now"
        ("Mia stays on the team, but Jonas is our designer now", "@project/designer"),  # "stays" is Mia's clause's
        ("we moved off Heroku, the API is on Fly.io now", "api/hosting"),
        ("I moved again, this time to Braga", "me/location"),  # "again" of a change is another change
        ("I switched banks again, to Starling", "me/bank"),
    ],
)
def test_a_change_beside_a_word_of_continuity_is_not_kept(spacy: SpacyBackend, text: str, slot: str) -> None:
    read = [kept for s, value, kept in _kept(spacy, text) if s == slot and value]
    assert read and not any(read)


@pytest.mark.parametrize("first", ["new", "old"])
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in NYC", "I'm in New York, same as ever"),  # by the cue: the embedder puts them 0.81 apart
        ("my car is a VW Golf", "I drive a Volkswagen Golf"),
        ("We host the API on the Hetzner box.", "the API is hosted at Hetzner, in their Falkenstein data centre"),
        ("our database is Postgres", "still on Postgres for the database, but the analytics moved to ClickHouse"),
        ("I work at Stripe", "I haven't left Stripe, still there"),  # an ending denied ends nothing
        ("our CI is CircleCI", "we never moved off CircleCI"),
    ],
)
def test_a_restatement_supersedes_nothing_in_either_order(graph: SessionsGraph, spacy: SpacyBackend, old: str,
                                                          new: str, first: str) -> None:
    order = (first, "old" if first == "new" else "new", first)  # the first again: a retry applies once
    assert reconciled(graph, spacy, "s1", {"old": old, "new": new}, order) == []


@pytest.mark.parametrize(
    ("old", "new", "change"),
    [
        ("we host the API on Heroku", "we moved off Heroku, the API is on Fly.io now", ("Heroku", "Fly.io")),
        ("I live in New York", "I live in New Jersey now, same job in the city", ("New York", "New Jersey")),
        ("our designer is Mia", "Mia stays on the team, but Jonas is our designer now", ("Mia", "Jonas")),
    ],
)
def test_a_change_that_mentions_the_old_value_still_supersedes(graph: SessionsGraph, spacy: SpacyBackend, old: str,
                                                               new: str, change: tuple[str, str]) -> None:
    # "moved off Heroku" ends it first, then Fly.io holds it: a chain
    pairs = reconciled(graph, spacy, "s2", {"old": old, "new": new}, ("new", "old"))
    assert change[0] in {before for before, _ in pairs} and change[1] in {after for _, after in pairs}


def test_a_kept_statement_repeats_only_the_statement_right_before_it(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    # Reconciled last to first: the move joins the later "still" (one value), which then no longer says
    # nothing changed since Porto, so Porto is still superseded.
    texts = {"porto": "I live in Porto", "lisbon": "we moved to Lisbon", "still": "I still live in Lisbon"}
    assert reconciled(graph, spacy, "s3", texts, ("still", "lisbon", "porto")) == [("Porto", "Lisbon")]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old"), ("new", "old", "new")])
def test_a_restatement_that_waited_for_its_holder_joins_the_statement_it_repeats(
        graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, ...]) -> None:
    # "it" waits for the thing it stands for; once the old statement names it, the wait ends in that slot,
    # where the same value is said again, not changed.
    texts = {"old": "we deploy with GitHub Actions", "new": "deploys haven't changed, it's all GitHub Actions"}
    user = f"s4-{'-'.join(order)}"
    assert reconciled(graph, spacy, user, texts, order) == []
    rows = graph.store.run(
        "MATCH (f:Fact {user_id: $user}) WHERE f.value = 'GitHub Actions' MATCH (f)-[:FROM]->(t:Turn) "
        "RETURN f.fact_id AS fact, collect(t.turn_id) AS turns", {"user": user})
    assert len(rows) == 1 and sorted(rows[0]["turns"]) == ["new-0", "old-0"]
