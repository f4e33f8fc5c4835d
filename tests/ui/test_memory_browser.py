"""The memory browser (issue 44) in real headless Chromium over the real embedded store: each view, a
forget made through the pages (with the forgetting tests' check that no forgotten word is left on disk),
a wrong or missing token refused, and another user's ids refused in the words a missing one gets.

The forgets run last (the module's store is shared): pytest runs a module's tests in file order.
"""

from __future__ import annotations

import gc

import ui_world
from forget_helpers import PLANTED, files_holding
from ui_world import BACKEND_DOWN, FAILED, OTHER, PENDING, USER, World, shoot, shown, submit_by_keyboard

from sessions_graph_core.cli.forget import forget_everywhere
from sessions_graph_core.ui.app import Browser, settle

world = ui_world.world  # the store, server and browser this module shares

SESSION_WORDS = ("zz-session-forgotten", "Quuxberry", "Zorblaxian")
MEMORY_WORDS = ("frobnitz", "Frobnitzdb", "Wibblewort")


def recalled_sessions(world: World, question: str) -> set[str]:
    return {row.session_id for row in world.graph.recall(USER, question).turns}


def test_facts_now_shows_each_value_with_what_it_replaced_and_where_it_was_said(world, tmp_path):
    text = shown(world, "/facts")
    shoot(world, "facts", tmp_path)
    assert "Carol owns the orders service now." in text
    assert "Alice owns the orders service. (until 2026-03-16)" in text  # what it replaced, and when
    assert "orders-2" in text and "forget its sessions" in text
    assert "Biscuit" not in text  # bob's
    then = shown(world, "/facts?as_of=2026-03-10")
    assert "Alice owns the orders service." in then and "Carol owns the orders service now." not in then


def test_facts_come_in_pages_newest_first(world, monkeypatch):
    monkeypatch.setattr("sessions_graph_core.ui.app.FACTS_PER_PAGE", 3)
    first = shown(world, "/facts")
    assert "3 statements on page 1" in first and "older" in first and "newer" not in first
    second = shown(world, "/facts?page=2")
    assert "3 statements on page 2" in second and "newer" in second
    texts = [fact.text for fact in world.graph.traced_facts(USER)]
    assert texts[0] in first and texts[0] not in second and texts[3] in second
    assert "page must be a whole number from 1" in shown(world, "/facts?page=0", 400)


def test_a_malformed_as_of_is_refused_with_what_to_give(world):
    text = shown(world, "/facts?as_of=yesterday-ish", 400)
    assert "yesterday-ish" in text


def test_sessions_show_status_turns_and_what_each_produced(world, tmp_path):
    text = shown(world, "/sessions")
    shoot(world, "sessions", tmp_path)
    rows = {line.split("\t")[0]: line for line in text.splitlines() if "\t" in line}
    assert rows["orders-1"].endswith("embedded") and rows[PENDING].endswith("pending")
    assert rows[FAILED].split("\t")[-1].startswith("failed: ") and BACKEND_DOWN in rows[FAILED]  # with its error
    assert "garden-1" not in text
    one = shown(world, "/sessions/orders-2")
    shoot(world, "session", tmp_path)
    assert "4 turns; status embedded" in one
    assert "Carol owns the orders service now." in one and "CockroachDB (Topic)" in one
    assert "Noted: Carol now owns the orders service." in one  # a turn


def test_memory_files_show_the_tree_the_text_and_each_version_as_a_diff(world, tmp_path):
    tree = shown(world, "/memory")
    shoot(world, "memory", tmp_path)
    assert [line.strip() for line in tree.splitlines()][-4:] == ["memories/", "projects/", "frobnitz/", "notes.md"]
    assert "garden.md" not in tree
    path = PLANTED["memory"][0]
    text = shown(world, f"/memory/file?path={path}")
    shoot(world, "memory_file", tmp_path)
    assert "Frobnitzdb is the ledger store of record, run by Wibblewort." in text
    assert "-Frobnitzdb is the ledger store, run by Wibblewort." in text
    assert "+Frobnitzdb is the ledger store of record, run by Wibblewort." in text


def test_ask_shows_the_rows_the_agent_gets_with_ranks_scores_and_the_budget(world, tmp_path):
    text = shown(world, "/ask?q=who+owns+the+orders+service&budget=300")
    shoot(world, "ask", tmp_path)
    assert "within a budget of 300 tokens" in text
    table = [line.split("\t") for line in text.splitlines() if line.count("\t") >= 3]
    assert table[0] == ["rank", "kind", "score", "text"]
    ranks = [int(row[0]) for row in table[1:]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert any(row[1] == "turn" and float(row[2]) > 0 for row in table[1:])
    assert "Carol owns the orders service" in text.split("As the agent gets them", 1)[1]
    assert "budget must be a whole number" in shown(world, "/ask?q=x&budget=lots", 400)


def test_another_users_ids_read_as_not_there(world):
    bob_session = "garden-1"
    assert world.graph.get_session(bob_session, user_id=OTHER) is not None
    for template in ("/sessions/{}", "/forget/session/{}"):
        theirs = shown(world, template.format(bob_session), 404)
        missing = shown(world, template.format("no-such-session"), 404)
        assert theirs.replace(bob_session, "ID") == missing.replace("no-such-session", "ID")
    bob_fact = next(row.fact_id for row in world.graph.traced_facts(OTHER))
    theirs = shown(world, f"/forget/fact/{bob_fact}", 404)
    assert theirs.replace(bob_fact, "ID") == shown(world, "/forget/fact/f-none", 404).replace("f-none", "ID")
    theirs = shown(world, "/memory/file?path=/memories/garden.md", 404)
    assert theirs.replace("garden", "X") == shown(world, "/memory/file?path=/memories/nothing.md", 404).replace("nothing", "X")
    assert world.graph.get_session(bob_session, user_id=OTHER) is not None


def test_a_wrong_or_missing_token_is_refused_and_a_forged_form_changes_nothing(world):
    refused = "wrong or missing token"
    forged = ("fetch('/forget/session/orders-1', {method: 'POST', body: 'csrf=guessed', "
              "headers: {'Content-Type': 'application/x-www-form-urlencoded'}}).then(r => r.status)")
    shown(world, "/facts")
    assert world.browser.evaluate(forged) == 403  # with the cookie, but not a form the pages rendered
    world.browser.clear_cookies()
    try:
        assert refused in shown(world, "/facts", 403)
        assert refused in shown(world, f"/forget/session/orders-1?token={world.token[:-1]}x", 403)
    finally:
        assert "Facts now" in shown(world, f"/?token={world.token}")
    assert world.graph.get_session("orders-1", user_id=USER) is not None


def test_forgetting_a_session_through_the_page_takes_it_out_of_recall(world, tmp_path):
    assert "orders-1" in recalled_sessions(world, "which database does the orders service use")
    confirm = shown(world, "/forget/session/orders-1")
    shoot(world, "forget_confirm", tmp_path)
    assert "its 8 turns" in confirm and "We'll use Postgres as the orders service database" in confirm
    done = submit_by_keyboard(world, "Forget session orders-1")
    shoot(world, "forgotten", tmp_path)
    assert "Forgot session orders-1" in done and "no forgotten id or line is left on disk" in done
    counts = dict(line.split("\t") for line in done.splitlines() if line.count("\t") == 1)
    assert counts["turns"] == "8" and counts["sessions"] == "1"
    assert world.graph.get_session("orders-1", user_id=USER) is None
    assert "orders-1" not in recalled_sessions(world, "which database does the orders service use")
    assert "orders-1" not in shown(world, "/sessions")


def test_forgetting_the_sessions_behind_a_fact_leaves_no_word_on_disk(world):
    fact = next(row for row in world.graph.traced_facts(USER) if "Quuxberry" in row.text)
    assert files_holding(world.places, SESSION_WORDS)  # the scan sees them where they are
    confirm = shown(world, f"/forget/fact/{fact.fact_id}")
    assert "zz-session-forgotten (1 turns)" in confirm
    done = submit_by_keyboard(world, "Forget 1 sessions")
    assert "no forgotten id or line is left on disk" in done
    assert files_holding(world.places, SESSION_WORDS) == {}
    assert not any("Quuxberry" in row.text for row in world.graph.recall(USER, "who owns the billing gateway").turns)
    assert "Quuxberry" not in shown(world, "/facts")


def test_erasing_a_memory_file_through_the_page_leaves_no_word_on_disk(world):
    path = PLANTED["memory"][0]
    assert files_holding(world.places, MEMORY_WORDS)
    confirm = shown(world, f"/forget/memory?path={path}")
    assert "its 1 earlier texts" in confirm
    done = submit_by_keyboard(world, f"Erase {path}")
    assert "no forgotten id or line is left on disk" in done
    counts = dict(line.split("\t") for line in done.splitlines() if line.count("\t") == 1)
    assert counts["memories"] == "1" and counts["versions"] == "1"
    assert files_holding(world.places, MEMORY_WORDS) == {}
    assert "No memory files." in shown(world, "/memory")
    assert "does not exist and never did" in shown(world, f"/memory/file?path={path}", 404)


def test_settling_takes_what_is_alive_out_of_the_collectors_full_passes(world):
    gc.unfreeze()
    try:
        settle(Browser(world.graph, USER, world.token, forget_everywhere))
        assert gc.get_freeze_count() > 10_000  # the loaded models' objects, among the rest
    finally:
        gc.unfreeze()
