"""Tool output pasted or quoted in a message states nothing (issue 38, eighth round), with the real spaCy model
and the real store: a test run, a `git log`, a diff, a stack trace, a compiler error, a file listing, JSON, YAML,
a log or a shell session, fenced or not, gives no fact; the prose around it is read as before. A clause with no
finite verb ("the retry loop firing 40 times") and a subject named only by its part in the conversation ("The
diff is about 300 lines", "The first keeps Celery") state nothing either. The examples are our own."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph, prose
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

START = "2026-03-02T10:00:00Z"
BEFORE = "I think the checkout tests broke after the upgrade."
AFTER = "The orders service runs on Postgres."

OUTPUT = {
    "pytest": """============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/mara/shop
collected 14 items

tests/test_checkout.py ....F.........                                    [100%]

    def test_total_with_coupon():
>       assert total(cart, coupon="SPRING") == 90
E       assert 100 == 90

tests/test_checkout.py:41: AssertionError
FAILED tests/test_checkout.py::test_total_with_coupon - assert 100 == 90
========================= 1 failed, 13 passed in 0.84s =========================""",
    "vitest": """ ✓ src/cart/total.test.ts › applies the coupon once (12ms)
 ✓ src/cart/total.test.ts › rounds to cents (3ms)
 ✗ src/cart/total.test.ts › keeps the shipping fee (7ms)

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Duration  1.42s""",
    "jest": """ FAIL  src/cart/total.test.js
  ● keeps the shipping fee

    expect(received).toBe(expected)

    Expected: 1290
    Received: 1190

Tests:       1 failed, 2 passed, 3 total""",
    "cargo test": """running 3 tests
test cart::tests::applies_coupon ... ok
test cart::tests::keeps_fee ... FAILED
test cart::tests::rounds ... ok

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s""",
    "go test": """=== RUN   TestTotal
--- FAIL: TestTotal (0.00s)
    total_test.go:18: Total(cart) = 1190; want 1290
FAIL
FAIL	example.com/shop/cart	0.004s""",
    "git log": """9c1e4f2 fix: keep the shipping fee when a coupon applies
4b7a0d3 chore: bump stripe to 8.4
e21f9a8 ci: cache the node modules
* 7f3c2b1 (HEAD -> main) docs: explain the refund flow""",
    "git status": """On branch main
Your branch is up to date with 'origin/main'.

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
	modified:   src/cart/total.ts""",
    "git diff": """diff --git a/src/cart/total.ts b/src/cart/total.ts
index 3b18e51..a2f4c9d 100644
--- a/src/cart/total.ts
+++ b/src/cart/total.ts
@@ -12,7 +12,7 @@ export function total(cart: Cart) {
-  return sum - discount;
+  return sum - discount + cart.shippingFee;
 }""",
    "Python traceback": """Traceback (most recent call last):
  File "/srv/shop/app.py", line 88, in checkout
    order = orders.create(cart)
  File "/srv/shop/orders.py", line 31, in create
    raise ValueError("cart is empty")
ValueError: cart is empty""",
    "Python chained": """Traceback (most recent call last):
  File "/srv/shop/db.py", line 12, in connect
    conn = pool.get()
TimeoutError: pool exhausted

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/shop/app.py", line 90, in checkout
    db.connect()
RuntimeError: database unavailable""",
    ".NET and Ruby frames": """   at Shop.Cart.Total() in C:\\src\\Shop\\Cart.cs:line 42
app/models/order.rb:31:in `save!'""",
    "JS stack": """TypeError: Cannot read properties of undefined (reading 'fee')
    at total (/srv/shop/src/cart/total.js:14:22)
    at processTicksAndRejections (node:internal/process/task_queues:95:5)""",
    "Java stack": """Exception in thread "main" java.lang.IllegalStateException: cart is empty
	at com.shop.cart.Checkout.total(Checkout.java:42)
	at com.shop.Main.main(Main.java:9)
Caused by: java.lang.NullPointerException
	... 2 more""",
    "Go panic": """panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.total()
	/srv/shop/cart/total.go:21 +0x1d
exit status 2""",
    "Rust panic": """thread 'main' panicked at src/cart.rs:31:9:
index out of bounds: the len is 3 but the index is 5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace""",
    "rustc error": """error[E0308]: mismatched types
 --> src/cart.rs:12:18
  |
12 |     let fee: u32 = "12.90";
  |              ---   ^^^^^^^ expected `u32`, found `&str`""",
    "gcc error": """total.c: In function 'total':
total.c:14:5: error: 'fee' undeclared (first use in this function)
   14 |     fee = 1290;
      |     ^~~""",
    "tsc error": """src/cart/total.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.""",
    "ls -l": """$ ls -l
total 24
-rw-r--r--  1 mara  staff  1204 Mar  2 09:58 README.md
drwxr-xr-x  6 mara  staff   192 Mar  2 09:58 src
""",  # after a prompt, to the next blank line
    "JSON": """{
  "order_id": "ord_1842",
  "status": "failed",
  "items": [1, 2, 3]
}""",
    "YAML": """services:
  web:
    image: shop/web:2.3
    ports:
      - "8080:80\"""",
    "log lines": """2026-03-02T09:58:11Z ERROR checkout failed: Stripe returned 502 for order ord_1842
2026-03-02T09:58:12Z INFO retrying in 2s
[09:58:14] WARN queue depth is 1200""",
    "shell session": """$ make deploy
dev@shop-build:~/shop$ kubectl rollout status deploy/web
deployment "web" successfully rolled out
""",  # what a command prints has no shape of its own: it runs to the next blank line
    "commands": """npm install zod
git push origin main
DATABASE_URL=postgres://localhost:5432/shop""",
    "query plan": """EXPLAIN ANALYZE SELECT * FROM transfers WHERE account_id = 7
Seq Scan on transfers  (cost=0.00..1834.00 rows=12 width=64)
  Filter: (account_id = 7)""",
    "diff without a header": """@@ -3,4 +3,4 @@
-    return sum - discount
+    return sum - discount + fee""",
    "compose logs": """web-1  | [error] upstream timed out while reading the response
db-1   | LOG:  checkpoint complete""",
    "pip in a CI log": """Run pip install -r requirements.txt -r requirements-dev.txt
  Collecting polars==1.26.0
    Downloading polars-1.26.0-cp39-abi3-manylinux_2_17_x86_64.whl (34.6 MB)
  Installing collected packages: polars, pytest""",
    "docker build": """#7 [builder 3/6] RUN npm ci --omit=dev
#7 12.83 npm ERR! code ERESOLVE
#7 ERROR: process "/bin/sh -c npm ci --omit=dev" did not complete successfully: exit code: 1""",
    "nmap": """Nmap scan report for orders-db.internal (10.0.3.14)
Host is up, received syn-ack (0.0009s latency).
Not shown: 998 filtered tcp ports (no-response)
5432/tcp open  postgresql""",
    "kubectl": """NAME                    READY   STATUS    RESTARTS   AGE
web-7d9f8b6c5-x2kqp     1/1     Running   0          3d""",
}


@pytest.mark.parametrize("shape", OUTPUT)
def test_pasted_output_is_no_prose(shape: str) -> None:
    split = prose.split(f"{BEFORE}\n{OUTPUT[shape]}\n{AFTER}")
    assert split.prose == [BEFORE, AFTER]
    assert split.output.strip()


@pytest.mark.parametrize("shape", ["git log", "Python traceback", "vitest"])
def test_fenced_output_is_no_prose_whatever_it_holds(shape: str) -> None:
    split = prose.split(f"Tool output:\n```\n{OUTPUT[shape]}\nWe renamed master to main.\n```\n{AFTER}")
    assert split.prose == ["Tool output:", AFTER]


@pytest.mark.parametrize(
    "text",
    [
        "bank: Monzo\nenergy: Octopus\nphone: Three",  # notes in chat style, read as "bank is Monzo"
        "> we use Kafka for the event bus\nPersonal note: I relocated to Amsterdam.",  # a quote marker
        "My target for tilemap is 60 fps.\n\nThe EKS cluster is on an old Kubernetes version.",
        "Error handling in the importer is weak.",
        "We moved CI to Buildkite; CircleCI was too slow.",
    ],
)
def test_prose_that_shares_a_shape_with_output_stays_prose(text: str) -> None:
    assert prose.split(text) == prose.Split([text], "")


def fact_rows(graph: SessionsGraph, spacy: SpacyBackend, user: str, turns: list[dict]) -> list[str]:
    graph.record_session_start(f"{user}-s", user_id=user, project_key="shop", started_at=START)
    graph.record_turns(f"{user}-s", [{"timestamp": START, **turn} for turn in turns], user_id=user)
    assert graph.reconcile_session(f"{user}-s", backend=spacy).status == "completed"
    rows = graph.store.run("MATCH (f:Fact {user_id: $user}) RETURN f.text AS text ORDER BY text", {"user": user})
    return [row["text"] for row in rows]


def test_output_in_a_message_gives_no_fact_and_its_names_are_kept(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    found = fact_rows(graph, spacy, "pasted", [
        {"role": "user", "text": f"Checkout is down again, here is the log:\n{OUTPUT['log lines']}\n"
                                 f"{OUTPUT['Python traceback']}\nThe Celery scheduler retries failed jobs three times."},
        {"role": "assistant", "text": f"Tool output:\n```\n$ git log --oneline -n 4\n{OUTPUT['git log']}\n```\n\n"
                                      "We renamed master to main in all infra repos."},
        {"role": "user", "text": f"{OUTPUT['vitest']}\n{OUTPUT['cargo test']}\nMy target for tilemap is 60 fps."},
    ])
    assert found == ["My target for tilemap is 60 fps.", "The Celery scheduler retries failed jobs three times.",
                     "We renamed master to main in all infra repos."]
    # The output is still read for what it names, as a tool turn's output is.
    names = graph.store.run("MATCH (e:Entity {user_id: 'pasted'}) RETURN e.name_key AS name")
    assert "stripe" in {row["name"] for row in names}


@pytest.mark.parametrize(
    "text",
    [
        "The log lines you pasted show the retry loop firing 40 times in a row with no backoff.",
        "This outage is the metadata Postgres timing out during its maintenance window, not our code.",
        "I updated the handler and its test. The diff is about 300 lines.",
        "The call is cheap (40 ms at p50).",
        "There are two options. The first keeps Celery and moves the work into the scheduler, which is the smaller diff.",
        "The second replaces the loop with what Celery already offers.",
        "This PR adds the retry to the uploader.",
    ],
)
def test_a_fragment_or_a_thing_of_the_conversation_is_no_fact(graph: SessionsGraph, spacy: SpacyBackend, text: str) -> None:
    assert fact_rows(graph, spacy, "narrated", [{"role": "assistant", "text": text}]) == []


@pytest.mark.parametrize(
    "text",
    [
        "The Celery scheduler retries failed jobs three times.",
        "We renamed master to main in all infra repos.",
        "My target for tilemap is 60 fps.",
        "The EKS cluster is on an old Kubernetes version.",
        "Redux is too much boilerplate for notes-web.",
        "The ledger-api diff stays under review until Friday.",
    ],
)
def test_what_is_true_is_kept(graph: SessionsGraph, spacy: SpacyBackend, text: str) -> None:
    assert fact_rows(graph, spacy, "true", [{"role": "user", "text": text}]) == [text]


def test_a_participle_in_lower_case_chat_is_said(spacy: SpacyBackend) -> None:
    read = spacy.extract(["the saturday league folded over the winter"], DEFAULT_MODEL)[0].facts
    assert "The saturday league folded over the winter." in [fact.text for fact in read]


def test_a_finite_verb_the_parser_took_for_a_noun_is_said(spacy: SpacyBackend) -> None:
    """The small parser reads "love" as a noun beside "dogs" and heads the clause with "meeting"."""
    read = spacy.extract(["My dogs love meeting new people."], DEFAULT_MODEL)[0].facts
    assert [fact.text for fact in read] == ["My dogs love meeting new people."]
