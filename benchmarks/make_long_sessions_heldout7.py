"""Write tests/data/long_sessions_heldout7.json: a seventh held-out set of developer chat, written by hand.

The sessions are one person's chat with a coding assistant over nine months (September 2024 to May 2025): the
first security engineer at Quillpay, a payouts-API startup in Dublin, its PCI DSS audit and SOC 2, secrets
scanning, Vault, a bug bounty, a SIEM move, Kubernetes policies, an incident, a new head of security, an OSWE
exam taken twice, a move to Galway, bouldering and a shoulder injury, a holiday in Lisbon and a brother's
wedding in Krakow. Nothing was tuned on it (tests/data/junk_facts/README.md, fresh14). Each question's haystack
is its supporting sessions and four others, in date order, so the set serves as a recall set too.

    .venv/bin/python benchmarks/make_long_sessions_heldout7.py
"""

from __future__ import annotations

from pathlib import Path

from long_sessions_kit import A, Question, Sessions, U, questions, write

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "long_sessions_heldout7.json"
QUESTION_DATE = "2025-06-03 10:00"
OTHERS = 4  # sessions in each haystack besides the supporting ones
SEED = 7

# session id -> (its date, its turns), in the order written
SESSIONS = Sessions()


SESSIONS.add(
    "intro-01", "2024-09-03 09:40",
    U("""Hi. Some background first because I'll be leaning on you a lot over the next few months. I started yesterday as the first (and only) security engineer at Quillpay. We're a payouts API for marketplaces: platforms call us to pay out sellers and freelancers across the EU and UK. 38 people, office on Grand Canal Dock in Dublin. I report to Declan Byrne, the CTO. Stack is Go services on EKS in AWS eu-west-1, Postgres (RDS), Terraform, GitHub Actions.

The big thing hanging over everyone is PCI DSS 4.0. We're a Level 1 service provider now because of volume, so it's a full ROC with a QSA, not an SAQ. Can you help me draft a 90 day plan?"""),
    A("""Congratulations on the new role. Being the first security hire at a payments company is a good seat: lots of leverage, but you'll need to be ruthless about ordering. Here's a 90-day plan shaped around the ROC, since that has a hard external deadline and will pull everything else along with it.

**Days 1-30: understand and stop the bleeding**
- Inventory: every AWS account, EKS cluster, RDS instance, third-party processor, and who has admin on each. Don't aim for perfect, aim for "nothing big is missing".
- Map the cardholder data flow. For a payouts API you may handle PANs for card payouts (push-to-card) or only bank details. Find out exactly where PANs enter, where they're stored, and which services can decrypt them. That defines your CDE.
- Quick wins with outsized risk reduction: MFA everywhere (especially AWS root and GitHub org owners), secrets scanning on all repos, remove stale IAM users and access keys.
- Meet every team lead. Ask what scares them. You'll learn more in those 30-minute chats than from any scanner.

**Days 31-60: scope and foundations**
- Agree the PCI scope with your QSA early. Segmentation is what keeps the scope small, so document it and plan the segmentation test.
- Centralised logging with retention that meets requirement 10 (12 months, 3 months immediately available).
- Vulnerability management: container and dependency scanning in CI, a patching SLA per severity.
- Start the policy set (information security policy, access control, incident response). Keep them short and true rather than long and aspirational.

**Days 61-90: prove it**
- Run an incident response tabletop.
- First quarterly access review of the CDE.
- Engage a pentest firm for the external and internal tests PCI requires (11.4).
- Write a one-page security roadmap for Declan covering the next two quarters.

One suggestion: keep a running "evidence" folder from day one. Most of the pain in a first ROC is reconstructing proof of things you actually did months ago."""),
    U("""that's great. we only handle PANs for push-to-card payouts, and only inside a service called card-vault. everything else gets a token."""),
    A("""That's a good position to be in. If card-vault is the only thing that ever sees a clear PAN, your CDE can be quite small:

- card-vault itself, its database, and the KMS keys it uses
- anything that can reach card-vault on the network (connected-to systems are in scope too)
- the CI/CD path that deploys it, and the people and roles with admin on its AWS account

The next question for you is whether card-vault runs in its own AWS account or shares the EKS cluster with everything else. If it shares the cluster, the QSA will likely pull the whole cluster into scope unless you can show strong network segmentation (network policies, separate node groups, security groups for pods). Its own account is by far the easiest story to tell."""),
    U("""shares the cluster. sigh. ok, noting that as a problem for month 2."""),
    A("""Very common. Write it down as a known scoping risk in the plan so nobody is surprised later; moving card-vault into a separate account is a well-understood project, and it usually pays for itself in audit effort within one ROC cycle."""),
)

SESSIONS.add(
    "secrets-01", "2024-09-10 14:05",
    U("""ran gitleaks over all our repos for the first time. this is from payouts-core:

```
$ gitleaks detect --source . --log-opts="--all" -v
Finding:     aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
Secret:      wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
RuleID:      aws-access-token
Entropy:     4.72
File:        deploy/legacy/env.sh
Line:        12
Commit:      9f3c1ab2e4d0
Author:      ronan
Date:        2022-03-14T16:22:09Z
Fingerprint: 9f3c1ab2e4d0:deploy/legacy/env.sh:aws-access-token:12

11:03AM INF 1482 commits scanned.
11:03AM INF scan completed in 6.8s
11:03AM WRN leaks found: 1
```

is the key still live? how do I check without using it for anything stupid"""),
    A("""Let me walk through this carefully, because the order matters.

1. **Find out whose key it is, without using it.** The access key ID (the `AKIA...` part) will be next to the secret in `env.sh`. In the AWS account you suspect, run:

```
aws iam list-access-keys --user-name <user>
aws iam get-access-key-last-used --access-key-id AKIA...
```

If you don't know the account, `aws sts get-access-key-info --access-key-id AKIA...` returns the account ID the key belongs to, using your own credentials, and it doesn't authenticate with the leaked key.

2. **If it's active: deactivate first, delete later.** `aws iam update-access-key --status Inactive` is reversible. Give it a day in case something in production still depends on it, then delete.

3. **Check CloudTrail** for any use of that key ID since 2022-03-14. Filter by `userIdentity.accessKeyId`. If you see calls from IPs you don't recognise, treat it as an incident.

4. **Only then clean history.** Rewriting history doesn't undo exposure, it just stops the next person from finding it:

```
git filter-repo --replace-text replacements.txt
```

where `replacements.txt` holds `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY==>REDACTED`. Everyone has to re-clone afterwards, so coordinate it.

The key should be considered compromised regardless of what CloudTrail says: it's been in git for two and a half years."""),
    U("""ok. key was inactive already, last used 2022-05. phew. deleting it.

also btw we're keeping gitleaks as the scanner, I put it in pre-commit for everyone. went with gitleaks because it's a single Go binary and it's fast enough to run on every commit without people complaining"""),
    A("""Nice, that's the best outcome. A couple of things that make gitleaks in pre-commit stick:

- Commit a shared `.gitleaks.toml` with an allowlist for test fixtures, otherwise people will learn to use `--no-verify`.
- Also run it in CI on pull requests, since pre-commit hooks are optional on the client side and new laptops won't have them installed.
- Add a `gitleaks detect --log-opts="--all"` job that runs weekly across all repos to catch anything that slipped past.

Do you want a GitHub Actions workflow for the CI part?"""),
    U("""yes pls"""),
    A("""Here you go:

```yaml
name: gitleaks
on:
  pull_request:
  schedule:
    - cron: "0 6 * * 1"
jobs:
  scan:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: gitleaks/gitleaks-action@v2
        env:
          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
```

`fetch-depth: 0` matters: without it the action only sees the last commit and the weekly scan is pointless. If your org is on GitHub Enterprise you'll also want to set `GITLEAKS_LICENSE`, since the action needs a license for organisation accounts."""),
)

SESSIONS.add(
    "iam-01", "2024-09-17 11:20",
    U("""Access Analyzer flagged this. Role is used by the payout-worker pods via IRSA.

{
  "findingType": "UnusedPermission",
  "resource": "arn:aws:iam::482913370551:role/payout-worker",
  "status": "ACTIVE",
  "findingDetails": [
    {"unusedPermissionDetails": {"serviceNamespace": "s3", "actions": ["s3:DeleteBucket", "s3:PutBucketPolicy", "s3:DeleteObject", "s3:PutLifecycleConfiguration"], "lastAccessed": null}},
    {"unusedPermissionDetails": {"serviceNamespace": "sqs", "actions": ["sqs:DeleteQueue", "sqs:CreateQueue"], "lastAccessed": null}}
  ]
}

current policy is literally s3:* and sqs:* on *. what should it be"""),
    A("""Let me check what payout-worker probably needs. From the findings, nothing has ever used bucket-level or queue-management actions, which is what you'd expect for a worker. A typical worker reads a message, fetches or writes an object, and deletes the message. Something like this, with your real bucket and queue names:

```json
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Sid": "ReadWritePayoutFiles",
      "Effect": "Allow",
      "Action": ["s3:GetObject", "s3:PutObject"],
      "Resource": "arn:aws:s3:::quillpay-payout-files-prod/*"
    },
    {
      "Sid": "ConsumePayoutQueue",
      "Effect": "Allow",
      "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes"],
      "Resource": "arn:aws:sqs:eu-west-1:482913370551:payout-jobs-prod"
    }
  ]
}
```

Before you apply it, look at the last-accessed information for the role over the last 90 days (`aws iam generate-service-last-accessed-details`), which will tell you if some action outside this list is actually used. And apply it in staging first with the same traffic; a worker that silently can't `ChangeMessageVisibility` will retry forever rather than crash."""),
    U("""staging looks fine after a day. applied in prod. thx"""),
    A("""Great. Worth repeating this for every IRSA role: `aws accessanalyzer list-findings --filter '{"findingType": {"eq": ["UnusedPermission"]}}'` gives you the whole list to work through, and it makes a nice piece of evidence for PCI requirement 7 (least privilege)."""),
    U("""how many roles do you think is normal for a 38 person company lol. we have 214"""),
    A("""There's no normal number, but 214 for 38 people usually means roles were created per experiment and never deleted. Sort them by `RoleLastUsed` and start with the ones never used or unused for a year; those are nearly free to delete. I'd expect you to get below 100 without touching anything that's in use."""),
)

SESSIONS.add(
    "pci-01", "2024-09-24 10:00",
    U("""We signed with our QSA today, Halden Assurance. Their lead assessor is Gráinne. The onsite assessment is planned for March 10, 2025, and they want a scoping workshop in October.

Could you explain what a segmentation test actually involves? I've read requirement 11.4.5 a few times and I'm still not sure what they'll expect to see."""),
    A("""Sure. Requirement 11.4.5 says that if you use segmentation to reduce PCI scope, you must test that the segmentation actually works, at least once every 12 months (and every six months for service providers like you, under 11.4.6), and after any change to the segmentation controls.

In practice a segmentation test means:

1. **Pick vantage points in every out-of-scope segment.** For you that's probably a pod in each non-CDE namespace, a host in each non-CDE VPC, and the office network.
2. **From each vantage point, try to reach the CDE** on every port: a full TCP scan (all 65,535 ports) and a UDP scan of common ports against card-vault's pods, its database, and its load balancer.
3. **Expected result: everything filtered or closed.** Any open port from an out-of-scope segment means that segment is actually in scope.
4. **Document it**: who ran it, when, from where, the exact commands, the raw output, and a conclusion.

The QSA will want to see the raw output, not a summary. Typically an `nmap -Pn -p- --reason` run from each segment, saved with timestamps.

Given card-vault shares the EKS cluster, you'll also need to show the Kubernetes network policies that isolate it, and evidence they're enforced (your CNI has to support NetworkPolicy; the default AWS VPC CNI only does if you've enabled it)."""),
    U("""We use the VPC CNI with network policy enabled, I checked last week. Thanks, that's much clearer."""),
    A("""Good, that removes one common surprise. For the scoping workshop in October, bring a data flow diagram of the PAN path through card-vault, a network diagram, and the list of systems you believe are connected-to. Halden will push on anything that can reach card-vault's database, including bastion hosts and CI runners."""),
    U("""ugh CI runners. we use self-hosted runners on the same cluster"""),
    A("""Then those runners are almost certainly in scope if they can deploy card-vault. Two common fixes: a dedicated runner group for card-vault's repo in a separate namespace or account, or moving card-vault deploys to GitHub-hosted runners with OIDC into a deploy role that can only touch card-vault. The second is less work if the build doesn't need access to private network resources."""),
)

SESSIONS.add(
    "climb-01", "2024-09-29 19:15",
    U("""non-work question. I started bouldering in the summer at Gravity Lab in Dublin 8, climbing V3 fairly reliably now and want to get to V5 by christmas. I go twice a week, tues and thurs evenings after work. what should a training plan look like?"""),
    A("""V3 to V5 in about three months is realistic for someone climbing twice a week, as long as you stay injury-free. At this stage technique matters more than strength, so most of the gains come from how you spend session time.

A structure for each session (about 2 hours):

- **Warm-up (20 min):** easy traverses, V0-V1 problems, shoulder circles and band pull-aparts. Don't skip this; tendons and shoulders are where beginners get hurt.
- **Project time (40 min):** two or three V4s you can't do yet. Work moves in isolation, rest 3-4 minutes between attempts.
- **Volume (30 min):** V2-V3 problems you can flash, focusing on one technique per session: silent feet, drop knees, flagging, heel hooks.
- **Conditioning (15 min):** core (hanging knee raises, front lever tucks) and antagonist work (push-ups, reverse wrist curls).

Avoid hangboarding for now; at under a year of climbing your fingers are adapting and campus or hangboard work is a classic route to a pulley injury.

And keep one thing in mind: big dynamic moves (dynos) on steep terrain load the shoulders a lot. Build up to them gradually."""),
    U("""cool. any tips for reading routes before climbing?"""),
    A("""A few:

- Look at the problem from a distance first, then up close. Identify the start holds, the finish, and the crux.
- Trace your hands through the sequence and count hand moves. If your hands end up crossed or matched at a point that seems awkward, you've probably got the sequence wrong.
- Look for the feet. Beginners read hands only; the feet usually explain the sequence.
- Watch others, but copy their body position, not just the holds they use."""),
    U("""thanks! will report back"""),
    A("""Good luck, enjoy it. Write down the problems you send each week; it's motivating to see the grade creep up."""),
)

SESSIONS.add(
    "vault-01", "2024-10-03 16:45",
    U("""We're moving payouts-core to HashiCorp Vault dynamic Postgres credentials. Works locally but in staging I get this after about an hour:

```
2024-10-03T15:02:11.418Z ERROR payouts-core/store: query failed
    error="pq: password authentication failed for user \\"v-k8s-payouts-rw-Hx2kq9Lm\\""
    query=SelectPendingPayouts
goroutine 214 [running]:
github.com/quillpay/payouts-core/internal/store.(*Store).PendingPayouts(0xc0003a6000, {0x1a3f2c0, 0xc000412a50})
        /src/internal/store/payouts.go:88 +0x2f4
github.com/quillpay/payouts-core/internal/worker.(*Runner).tick(0xc00011e1e0)
        /src/internal/worker/runner.go:141 +0x9c
```

Vault role config:

default_ttl = 1h
max_ttl = 24h"""),
    A("""This is the classic dynamic-credentials problem: the credentials expire after `default_ttl` (1 hour) and the app keeps using the connection pool built from the old username and password.

Let me check the likely cause in order:

1. **Is anything renewing the lease?** If the Vault Agent injector writes the credentials to a file, the agent will renew the lease up to `max_ttl`, but your app has to re-read the file. If payouts-core reads the file only at startup, it will fail exactly at the 1 hour mark.
2. **Existing connections survive, new ones fail.** Postgres checks the password only at connection time. So you'll see the failure when the pool opens a new connection after expiry, which is why it looks intermittent.

Fixes, from simplest to best:

- Set `SetConnMaxLifetime` on the `sql.DB` to something shorter than the TTL (e.g. 30 minutes) and make the connector fetch the current credentials when it opens a connection, rather than using a DSN fixed at startup.
- Use a custom `driver.Connector` that reads the credentials file on each `Connect`.
- Or have the Vault Agent template render the file and send the app a signal to rebuild the pool.

A minimal connector:

```go
type vaultConnector struct{ path string }

func (c vaultConnector) Connect(ctx context.Context) (driver.Conn, error) {
    dsn, err := os.ReadFile(c.path)
    if err != nil {
        return nil, err
    }
    return pq.Driver{}.Open(strings.TrimSpace(string(dsn)))
}

func (c vaultConnector) Driver() driver.Driver { return pq.Driver{} }
```

then `db := sql.OpenDB(vaultConnector{path: "/vault/secrets/db"})` and `db.SetConnMaxLifetime(30 * time.Minute)`."""),
    U("""the connector approach worked. staging has been up 6 hours without errors. keeping default_ttl at 1h and max_ttl at 24h for now"""),
    A("""Good. With `max_ttl = 24h` the agent will have to request brand-new credentials once a day, so expect the username to change daily; your connector handles that already. Make sure your Postgres has a job revoking leftover roles, or let Vault's revocation on lease expiry do it and alert if revocation fails, since orphaned `v-k8s-...` roles pile up quietly."""),
)

SESSIONS.add(
    "bounty-01", "2024-10-08 13:30",
    U("""Declan approved a private bug bounty on HackerOne. We're inviting 40 researchers to start. Proposed payouts:

- critical: €3,000
- high: €1,200
- medium: €400
- low: €100

Is this reasonable for a fintech our size? I don't want to be stingy but budget is €30k for the first year."""),
    A("""Those numbers are within the normal range for a small fintech's private programme, on the modest side for critical. Some thoughts:

**Payout table**
- Critical at €3,000 is fine for a private start. Public fintech programmes tend to pay more for critical because the findings (auth bypass, RCE, moving money) have direct financial impact, and good researchers compare tables.
- The high/critical gap is reasonable. Medium at €400 and low at €100 are standard.

**Budget**
- €30k for a year with 40 invited researchers is workable. In the first months of a new programme most spend goes on a burst of low and medium reports as researchers map your attack surface. Expect 2-3 valid highs in the first quarter if your API hasn't been tested externally before.
- Keep a reserve: one critical plus a few highs in the same month is €6-7k.

**Scope**
- Be explicit. For a payouts API: `api.quillpay.com`, the dashboard, the sandbox. Exclude third-party services, social engineering, DoS, and card-vault's production endpoints if you don't want real PANs anywhere near a test.
- Give researchers sandbox accounts with test money, otherwise they'll test on production or not at all.

**Response targets**
- Time to first response under 2 business days, triage under 5. HackerOne's triage service is worth it if you're the only security person; otherwise you'll spend Mondays reading duplicates."""),
    U("""we'll pay for triage. going live oct 21"""),
    A("""Sounds good. Before launch, write a one-page internal runbook: who gets paged for a critical report, who can approve a payout, and how fixes are tracked. The first critical always arrives at an inconvenient time."""),
)

SESSIONS.add(
    "siem-01", "2024-10-15 10:50",
    U("""our logging is self-hosted ELK (elasticsearch 8.13 on 3 EC2 nodes, kibana, logstash). this query to find failed dashboard logins takes 40+ seconds and sometimes times out:

GET logs-dashboard-*/_search
{
  "size": 0,
  "query": {
    "bool": {
      "must": [
        {"wildcard": {"message": "*login failed*"}},
        {"range": {"@timestamp": {"gte": "now-7d"}}}
      ]
    }
  },
  "aggs": {"by_ip": {"terms": {"field": "client.ip", "size": 50}}}
}

any idea why"""),
    A("""The leading wildcard is the problem. `*login failed*` on the `message` field forces Elasticsearch to walk every term in the index for every shard, which is about the slowest thing you can ask it to do, and it gets worse linearly with the number of unique terms.

Options:

1. **Log a structured field.** If the dashboard logs `event.action: "login"` and `event.outcome: "failure"` (ECS fields), the query becomes two `term` filters and runs in milliseconds:

```
{"bool": {"filter": [
  {"term": {"event.action": "login"}},
  {"term": {"event.outcome": "failure"}},
  {"range": {"@timestamp": {"gte": "now-7d"}}}
]}}
```

2. **If you can't change the log format yet, use `match_phrase`** on `message` instead of a wildcard: `{"match_phrase": {"message": "login failed"}}`. That uses the inverted index properly.

3. Put the range in `filter` rather than `must` so it's cached and doesn't score.

I'd do 2 today and 1 as a ticket for the dashboard team."""),
    U("""match_phrase: 380ms. lol. thanks"""),
    A("""That's the expected kind of speed-up. While you're in there, check the retention: for PCI you need a year of audit logs with three months immediately searchable. On a 3-node self-hosted cluster that's usually done with ILM moving older indices to a warm tier or snapshots to S3."""),
    U("""yeah retention is 90 days right now. I know. it's on the list"""),
)

SESSIONS.add(
    "oswe-01", "2024-10-20 21:10",
    U("""Quick personal/career one. I've signed up for OffSec's WEB-300 course to go for the OSWE. Quillpay is paying for it as training budget. The exam is booked for January 18. I have decent Go and Python but my PHP and Java are rusty, and the course leans on both. How would you split 12 weeks of study around a full-time job?"""),
    A("""That's a good certification for your role, since so much of payments security is application security and the OSWE is about white-box review of real code. Twelve weeks alongside a full-time job is tight but doable if you protect the time.

A plan, assuming about 10 hours a week:

**Weeks 1-2: language refresh**
- PHP: type juggling, loose comparisons, `unserialize`, how frameworks route requests.
- Java: servlets, deserialization (readObject gadgets), how to read decompiled code.
- Set up your tooling: a debugger attached to each lab app, a proxy (Burp), and a code search you're fast with.

**Weeks 3-8: course modules**
- One module a week, plus its extra mile exercises. The extra miles are where the real learning is, since they're closest to the exam.
- For every vulnerability, write the full exploit script in Python from scratch. The exam requires a working script that chains the bugs, not manual steps.

**Weeks 9-11: practice machines**
- Do the lab machines without looking at the solution for at least 3 hours each.
- Time yourself. The exam is 47 hours 45 minutes plus 24 hours for the report.

**Week 12: rest and report template**
- Prepare your report template in advance, and sleep properly the week before.

The main risk is fatigue. Book a day off after the exam."""),
    U("""47h45m of exam is terrifying. ok."""),
    A("""It sounds worse than it is; most people sleep during it. Plan your breaks in advance: after each machine's first foothold, stop and eat. You'll find the second bug faster rested."""),
)

SESSIONS.add(
    "threat-01", "2024-10-24 15:30",
    U("""Can you threat model our payouts API with me? Flow: marketplace calls POST /v1/payouts with amount, currency, recipient (bank account id or card token), idempotency key. We validate, put a job on SQS, payout-worker picks it up, calls the bank partner or card-vault for push-to-card, and we send a webhook back to the marketplace when it settles. Auth is API keys per marketplace (secret key in Authorization header), plus optional IP allowlist."""),
    A("""Let's do it with STRIDE over the main elements. I'll focus on what's specific to a payouts API rather than generic web threats.

**Spoofing**
- *Stolen API keys* are the biggest risk: a leaked secret key lets an attacker send money. Mitigations: key prefixes so secret scanners (GitHub's partner programme) can detect leaks, restricted keys with fewer permissions, mandatory IP allowlists for live keys above a volume threshold, and alerting on first use from a new ASN.
- *Webhook spoofing*: marketplaces must verify that webhooks come from you. Sign them (HMAC with a per-endpoint secret) and document verification.

**Tampering**
- *Amount or recipient changed between validation and execution.* The SQS message should carry only the payout ID; the worker must re-read the payout from the database rather than trusting fields in the message.
- *Replay of a payout request.* This is where idempotency keys earn their keep. I'd recommend idempotency keys scoped per merchant and kept for 24 hours, with the stored response returned for a repeat of the same key and a 409 for the same key with a different body. Scoping per merchant stops one merchant's keys colliding with another's, and 24 hours covers every realistic client retry window.

**Repudiation**
- Keep an append-only audit log of every payout state change with the API key ID that caused it, the source IP and request ID. Store it somewhere the application role can't delete from (a separate account's S3 with object lock works).

**Information disclosure**
- *Enumeration of payouts or recipients* via sequential IDs: use random IDs (`po_` + 24 random chars) and always filter by the calling merchant.
- *Error messages* that reveal whether a bank account exists.
- *PAN exposure*: card-vault should never return a PAN to anything; the worker should pass a token and card-vault should call the card network itself.

**Denial of service**
- Rate limits per API key and per merchant, separate limits for the payouts endpoint.
- Protection against a queue flood: a per-merchant cap on pending payouts.

**Elevation of privilege**
- *IDOR* between merchants is the single most common serious bug in multi-tenant APIs. Every query on payouts, recipients and balances must include the merchant ID from the authenticated key, never from the request.
- Dashboard roles (admin vs viewer) enforced on the server side.

If I had to pick the top three to check this week: tenant scoping on every payout and recipient endpoint, the worker re-reading from the database, and webhook signing. Those three cover the threats that move money."""),
    U("""the worker already re-reads from the db, good. webhook signing: we do sign, but with one global secret for everyone. I'm guessing that's bad"""),
    A("""It's bad in one specific way: every marketplace that can verify your webhooks can also forge them to every other marketplace, because they all hold the same secret. Move to a per-endpoint secret generated when the marketplace registers the webhook URL, shown once, rotatable. You can support both signatures during a migration window by sending two signature headers."""),
    U("""ok that's a Q1 project then"""),
)

SESSIONS.add(
    "dep-01", "2024-10-29 11:05",
    U("""govulncheck on payouts-core, is any of this actually reachable or is it noise?

$ govulncheck ./...
Scanning your code and 214 packages across 41 dependent modules for known vulnerabilities...

=== Symbol Results ===

Vulnerability #1: GO-2024-2687
    HTTP/2 CONTINUATION flood in net/http
  More info: https://pkg.go.dev/vuln/GO-2024-2687
  Module: golang.org/x/net
    Found in: golang.org/x/net@v0.21.0
    Fixed in: golang.org/x/net@v0.23.0
    Example traces found:
      #1: internal/partner/client.go:57:24: partner.Client.Do calls http.Client.Do

Vulnerability #2: GO-2024-2611
    Infinite loop in JSON unmarshaling in google.golang.org/protobuf
  More info: https://pkg.go.dev/vuln/GO-2024-2611
  Module: google.golang.org/protobuf
    Found in: google.golang.org/protobuf@v1.32.0
    Fixed in: google.golang.org/protobuf@v1.33.0
    Example traces found:
      #1: internal/events/decode.go:31:27: events.Decode calls protojson.Unmarshal

Your code is affected by 2 vulnerabilities from 2 modules.
This scan also found 3 vulnerabilities in packages you import and 1 vulnerability in modules you require, but your code doesn't appear to call these vulnerabilities."""),
    A("""Both symbol results are reachable, which is exactly what govulncheck's "Symbol Results" section means: it found a call path from your code to the vulnerable function. The other four at the bottom are in code you don't call, so they're low priority.

- **GO-2024-2687 (x/net HTTP/2 CONTINUATION flood):** your trace is the partner client making outbound calls. The flood is a server-side issue mostly, so as a client the practical risk is small, but the fix is a minor version bump. Just upgrade.
- **GO-2024-2611 (protojson infinite loop):** `events.Decode` unmarshals protojson. If any of that input can come from outside (webhook payloads, partner callbacks), an attacker could send a crafted message and hang a goroutine. That one I'd fix this week.

```
go get golang.org/x/net@v0.23.0 google.golang.org/protobuf@v1.33.0
go mod tidy
govulncheck ./...
```

Then add govulncheck to CI so it fails on symbol-level findings only; failing on the module-level ones causes alert fatigue."""),
    U("""done, both bumped, clean now. added it to the CI workflow as you said"""),
    A("""Nice. One more tip: pin the govulncheck version in CI (`go run golang.org/x/vuln/cmd/govulncheck@v1.1.3`) so a new release doesn't change the output format under you."""),
)

SESSIONS.add(
    "trip-01", "2024-11-05 18:20",
    U("""Going on holiday to Lisbon with my partner Aoife from the 14th to the 19th of November, first proper break since I started. Problem: I'm the only security person, and the bug bounty is live. Can you help me write a handover checklist so Declan and the on-call engineer know what to do?"""),
    A("""Happy to. Here's a checklist you can drop into a doc:

**Before you go**
- [ ] Tell HackerOne triage the dates and who the backup contact is. Give them the backup's email in the programme settings.
- [ ] Make a list of open reports with status and next step. Anything awaiting a fix gets an owner on the engineering side.
- [ ] Confirm the backup can approve bounty payouts or agree they wait until you're back (researchers are fine with a few days' delay if told).
- [ ] Check that alerting goes to a channel the on-call engineer watches, not to your email.
- [ ] Write down where the runbooks are: incident response, key rotation, how to revoke an API key.

**What the backup should do**
- Critical report or suspected incident: follow the incident runbook, page Declan, and only call you if money has moved or card data is involved.
- Anything else: acknowledge, label, and leave it for you.

**What they should not do**
- Close reports as invalid, change the programme scope, or rotate secrets without a second person.

**When you're back**
- Half a day reading, before any meetings.

And genuinely: leave the laptop at home. Five days is short enough that nothing will be unfixable."""),
    U("""ha. the laptop is coming but staying in the bag. thanks"""),
    A("""Fair compromise. Enjoy Lisbon: the pastéis de nata in Belém are worth the queue, and the tram 28 is worth avoiding in the middle of the day."""),
)

SESSIONS.add(
    "sqli-01", "2024-11-12 09:15",
    U("""Our external pentest from Blackthorn Security came back. Mostly low stuff, but one high. Pasting their finding:

    BTS-2024-017  SQL Injection in Reporting Export  (High, CVSS 8.1)
    Affected: GET /dashboard/api/reports/export?sort=...
    The `sort` parameter is concatenated into an ORDER BY clause. Using the payload
      sort=created_at,(SELECT CASE WHEN (SUBSTR(current_user,1,1)='q') THEN pg_sleep(5) ELSE 1 END)
    the tester observed a 5 second delay, confirming boolean-based blind injection. Authenticated
    access as any dashboard user (including viewer role) is required. Data from other merchants'
    tables could be extracted.
    Recommendation: use parameterised queries; validate sort fields against an allowlist.

The code is:

    q := fmt.Sprintf("SELECT * FROM payouts WHERE merchant_id = $1 ORDER BY %s LIMIT 1000", r.URL.Query().Get("sort"))

Can you give me the fix? You can't parameterise ORDER BY right?"""),
    A("""Right, you can't bind a column name or direction as a query parameter in Postgres, only values. So the fix is the allowlist, and it should map user input to SQL you wrote yourself, never pass user input through.

```go
var sortColumns = map[string]string{
    "created_at":  "created_at",
    "-created_at": "created_at DESC",
    "amount":      "amount",
    "-amount":     "amount DESC",
    "status":      "status",
}

func orderBy(sort string) (string, error) {
    if sort == "" {
        return "created_at DESC", nil
    }
    clause, ok := sortColumns[sort]
    if !ok {
        return "", fmt.Errorf("unsupported sort %q", sort)
    }
    return clause, nil
}
```

And in the handler:

```go
clause, err := orderBy(r.URL.Query().Get("sort"))
if err != nil {
    http.Error(w, "invalid sort", http.StatusBadRequest)
    return
}
q := "SELECT id, amount, currency, status, created_at FROM payouts WHERE merchant_id = $1 ORDER BY " + clause + " LIMIT 1000"
```

Notice I also replaced `SELECT *` with explicit columns; it's not the vulnerability, but it stops new sensitive columns from leaking into exports later.

Then:
- Add a test that sends the pentester's payload and expects a 400.
- Grep for other `fmt.Sprintf` calls that build SQL (`rg 'Sprintf\\("(SELECT|UPDATE|DELETE|INSERT)'`), since the same pattern usually appears more than once.
- Check the database logs for `pg_sleep` in the last 90 days to see if anyone got there before Blackthorn."""),
    U("""rg found two more. one in the admin tool, one in an old cron job. fixing all three. no pg_sleep in the logs except the pentester's IPs"""),
    A("""Good result. Ask Blackthorn for a free retest of BTS-2024-017 once it's deployed; most firms include one, and the retest letter is useful evidence for your QSA under requirement 6."""),
)

SESSIONS.add(
    "trivy-01", "2024-11-20 10:30",
    U("""back from holiday, refreshed. first thing today: adding trivy to the image build. output on our base image:

payouts-core:1.42.0 (alpine 3.18.4)
Total: 7 (UNKNOWN: 0, LOW: 2, MEDIUM: 3, HIGH: 1, CRITICAL: 1)

┌────────────┬────────────────┬──────────┬─────────┬───────────────────┬───────────────┬──────────────────────────────────┐
│  Library   │ Vulnerability  │ Severity │ Status  │ Installed Version │ Fixed Version │              Title               │
├────────────┼────────────────┼──────────┼─────────┼───────────────────┼───────────────┼──────────────────────────────────┤
│ libcrypto3 │ CVE-2024-5535  │ CRITICAL │ fixed   │ 3.1.4-r0          │ 3.1.6-r0      │ openssl: SSL_select_next_proto   │
│            │                │          │         │                   │               │ buffer overread                  │
│ libssl3    │ CVE-2024-4741  │ HIGH     │ fixed   │ 3.1.4-r0          │ 3.1.6-r0      │ openssl: use after free with     │
│            │                │          │         │                   │               │ SSL_free_buffers                 │
│ busybox    │ CVE-2023-42366 │ MEDIUM   │ fixed   │ 1.36.1-r2         │ 1.36.1-r7     │ busybox: heap-buffer-overflow    │
└────────────┴────────────────┴──────────┴─────────┴───────────────────┴───────────────┴──────────────────────────────────┘

should I fail the build on HIGH or only CRITICAL?"""),
    A("""Welcome back. For the build gate, I'd fail on **CRITICAL only, with fixed versions available**, and report HIGH without failing, at least for the first couple of months. Here's the reasoning:

- Failing on HIGH on day one usually blocks every team at once, and the first response is to add `--exit-code 0` somewhere and forget about it.
- `--ignore-unfixed` avoids failing on issues nobody can fix yet.
- Once the backlog of HIGHs is cleared, tighten the gate to HIGH. Your PCI patching policy (requirement 6.3.3) needs critical patches within a month anyway, so that gives you a defensible timeline.

The CI step:

```yaml
- name: Scan image
  uses: aquasecurity/trivy-action@0.24.0
  with:
    image-ref: ${{ env.IMAGE }}
    severity: CRITICAL
    ignore-unfixed: true
    exit-code: "1"
- name: Report HIGH
  uses: aquasecurity/trivy-action@0.24.0
  with:
    image-ref: ${{ env.IMAGE }}
    severity: HIGH
    ignore-unfixed: true
    exit-code: "0"
    format: sarif
    output: trivy-high.sarif
```

And for this image specifically, everything in your table is fixed by moving off Alpine 3.18.4: bump the base to `alpine:3.20` (or better, to `gcr.io/distroless/static` since it's a Go binary; then there's no OpenSSL or busybox at all)."""),
    U("""distroless it is. image went from 18MB to 9MB and trivy shows 0. failing on critical only, agreed"""),
    A("""That's the nicest kind of vulnerability fix: deleting the code. Check that nothing in your Kubernetes manifests relies on a shell in the container (exec-based liveness probes, debug scripts), since distroless has none."""),
    U("""liveness probe used `wget`. switched to httpGet. all good"""),
)

SESSIONS.add(
    "bounty-02", "2024-11-28 16:00",
    U("""First month of the bug bounty done. Numbers: 14 reports, 3 valid. The best one was an IDOR on GET /v1/payouts/{id}: a researcher with a sandbox key from one merchant could read another merchant's payouts if they knew the ID. We paid it as a high, €1,200. The other two valid were a missing rate limit on password reset (low) and a verbose error leaking a stack trace (low).

The IDOR annoys me because I flagged tenant scoping in my threat model. How do I make sure this class of bug doesn't come back?"""),
    A("""The researcher did you a favour by finding it in the sandbox. To stop the class rather than the instance, make the safe path the only easy path:

1. **Push merchant scoping into the data layer.** Instead of handlers calling `store.GetPayout(ctx, id)`, the store method should be `store.GetPayout(ctx, merchantID, id)` and every query includes `WHERE merchant_id = $1`. Better still, get the merchant ID from the request context inside the store, so handler code can't forget to pass it.
2. **Postgres row-level security** as a second layer: set `app.merchant_id` per transaction and have a policy `USING (merchant_id = current_setting('app.merchant_id')::uuid)` on tenant tables. Even a buggy query can't cross tenants.
3. **A test that tries every endpoint cross-tenant.** Create two merchants in a test fixture, create one object of each type under merchant A, and call every GET/PATCH/DELETE route with merchant B's key, expecting 404. Generate the route list from your router so new endpoints are covered automatically.
4. **A lint check**: a simple semgrep rule flagging SQL strings on tenant tables without `merchant_id`.

The test in point 3 is the one that actually stops regressions. It's also a nice artefact for the QSA.

Also: 3 valid out of 14 in the first month is a normal ratio. Don't read much into it yet."""),
    U("""RLS scares me a bit performance wise. we have ~40M rows in payouts"""),
    A("""It's a fair worry, but with an index on `merchant_id` (which you need anyway for tenant queries) the RLS predicate just becomes part of the plan. The costs appear in two places: functions in policies that aren't marked `STABLE` or that do lookups, and queries that previously didn't filter by merchant at all (reports, admin tools). Run `EXPLAIN ANALYZE` on your ten most frequent queries with RLS enabled in staging before deciding."""),
)

SESSIONS.add(
    "climb-02", "2024-12-03 20:40",
    U("""ugh. hurt my left shoulder on sunday going for a dyno at the wall. felt a pop then pain reaching overhead. saw a physio today, she says it's probably a rotator cuff strain, not a tear, and no climbing for six weeks. she gave me some exercises but I lost the sheet already (classic). what are typical rehab exercises for this so I can ask her if they're the right ones"""),
    A("""Sorry to hear that, and good call getting it checked quickly. I can't replace her advice, but these are the exercises physios commonly give for a rotator cuff strain in the early and middle phases, so you can match them against what she showed you:

**Early phase (first 1-2 weeks, pain-free range only)**
- Pendulum swings: lean on a table with the good arm, let the injured arm hang and make small circles. 2 minutes, a few times a day.
- Isometric external rotation: elbow at 90 degrees by your side, push the back of your hand into a door frame at about 30% effort, hold 10 seconds, 10 reps.
- Scapular setting: gently draw the shoulder blades back and down, hold 5 seconds.

**Middle phase (once isometrics are pain-free)**
- External rotations with a light resistance band, elbow tucked to your side with a towel roll under the arm, 3 sets of 15, slow on the way back.
- Internal rotations with the band, same setup.
- Side-lying external rotation with a very light weight (0.5-1 kg).
- Band pull-aparts and rows for the scapular muscles.

**Later phase**
- Overhead work and loaded hangs, only when she clears it.

Signs to stop and tell her: pain at night that wakes you, weakness that is getting worse, or a clicking with pain.

Six weeks feels long, but coming back early is the most common way a strain turns into a long-term problem."""),
    U("""external rotations with the band, 3x15, yes that was definitely on the sheet. and the door frame thing. thanks"""),
    A("""Great, then you're on the right plan. Keep the band next to your desk; doing a set between meetings is the easiest way to actually stick to it."""),
    U("""so no V5 by christmas I guess"""),
    A("""Probably not, but plenty of people come back from a six-week break and progress faster, because they use the time for legs, core and technique drills that don't load the shoulder. V5 by spring is still very realistic."""),
)

SESSIONS.add(
    "tls-01", "2024-12-05 14:10",
    U("""We want mTLS between payout-worker and card-vault inside the cluster, with cert-manager issuing from a private CA. I set up the Issuer and Certificate but card-vault rejects the client:

$ kubectl logs deploy/card-vault -n cde | tail -3
2024/12/05 13:58:02 http: TLS handshake error from 10.42.3.17:51844: tls: failed to verify certificate: x509: certificate signed by unknown authority
2024/12/05 13:58:03 http: TLS handshake error from 10.42.3.17:51846: tls: failed to verify certificate: x509: certificate signed by unknown authority

$ kubectl get certificate -n payouts
NAME                  READY   SECRET                AGE
payout-worker-mtls    True    payout-worker-mtls    2h

$ openssl x509 -in tls.crt -noout -issuer -subject -enddate
issuer=CN = quillpay-internal-ca
subject=CN = payout-worker.payouts.svc
notAfter=Mar  5 13:51:20 2025 GMT"""),
    A("""Let me check the likely cause. The client certificate is fine: issued by `quillpay-internal-ca`, valid until March. The error is on card-vault's side: it doesn't trust that CA for client certificates.

In Go, that's controlled by `tls.Config.ClientCAs`, which is separate from the server's own certificate. Most likely card-vault loads its own `tls.crt` and `tls.key` but never sets `ClientCAs`, or it sets it from the system pool.

```go
caPEM, err := os.ReadFile("/etc/mtls/ca.crt")
if err != nil {
    return nil, err
}
pool := x509.NewCertPool()
if !pool.AppendCertsFromPEM(caPEM) {
    return nil, errors.New("no CA certificates found")
}
cfg := &tls.Config{
    Certificates: []tls.Certificate{serverCert},
    ClientCAs:    pool,
    ClientAuth:   tls.RequireAndVerifyClientCert,
    MinVersion:   tls.VersionTLS12,
}
```

cert-manager puts the CA in `ca.crt` inside each certificate's secret, so mount card-vault's own secret and read `ca.crt` from it.

Two more things for the PCI side: check the client's identity after verification (e.g. that the certificate's SAN is `payout-worker.payouts.svc`), not just that it's signed by your CA, otherwise any workload with a certificate from that CA can call card-vault. And the 90-day certificate lifetime is fine as long as both apps reload certificates on rotation."""),
    U("""ClientCAs was nil. fixed, handshake works. will add the SAN check"""),
    A("""Good. For the SAN check, do it in `VerifyPeerCertificate` or in middleware using `r.TLS.PeerCertificates[0].DNSNames`, and keep the allowed names in config so adding a second client later doesn't need a code change."""),
)

SESSIONS.add(
    "soc2-01", "2024-12-10 11:00",
    U("""FYI the board wants SOC 2 Type II as well, because two big marketplace prospects asked for it. We're using Vanta to collect evidence, and our auditor will be Kessler & Moore. Observation window is January 1 to June 30, 2025.

How much of the PCI work overlaps with SOC 2? I don't want to do everything twice."""),
    A("""A lot overlaps, and running them together is normal. Roughly:

**Strong overlap (do once, use for both)**
- Access control: joiner/mover/leaver process, MFA, quarterly access reviews. SOC 2 CC6 and PCI requirements 7-8.
- Change management: pull request reviews, CI, deploy approvals. SOC 2 CC8 and PCI 6.5.
- Vulnerability management and pentests: PCI 6 and 11, SOC 2 CC7.
- Logging and monitoring: PCI 10, SOC 2 CC7.2.
- Incident response: PCI 12.10, SOC 2 CC7.3-7.5.
- Vendor management: PCI 12.8, SOC 2 CC9.2.
- Policies and security awareness training.

**SOC 2 only**
- Risk assessment as a formal annual process (CC3).
- Board or management oversight of security (CC1, CC2): minutes showing security is discussed.
- Availability and confidentiality criteria if you include them. Most startups start with Security only.

**PCI only**
- Everything specific to cardholder data: encryption of PAN, key management, segmentation testing, ASV scans.

The important difference: SOC 2 Type II checks that controls operated *throughout* the window. If your quarterly access review slips in Q1, that's an exception in the report, even if PCI is happy with a review done in time for the onsite. So set Vanta's tests to alert you well before each deadline."""),
    U("""makes sense. so the access review I'm planning for march covers both"""),
    A("""Yes, as long as it covers every in-scope system for SOC 2 (which is usually wider than the CDE: GitHub, AWS, Google Workspace, your HR system) and keeps evidence of who reviewed, when, and what was removed."""),
)

SESSIONS.add(
    "pci-02", "2024-12-17 15:20",
    U("""Update: Halden moved our onsite. It was March 10, now it's April 7, 2025, because Gráinne is on another engagement that overran. Honestly a relief, it gives us four more weeks for the card-vault account move.

Ran a first segmentation test from a pod in the default namespace, results below. Is this what the QSA wants to see?

Starting Nmap 7.94 ( https://nmap.org ) at 2024-12-17 14:51 UTC
Nmap scan report for card-vault.cde.svc.cluster.local (172.20.14.9)
Host is up, received user-set (0.00041s latency).
All 65535 scanned ports on card-vault.cde.svc.cluster.local (172.20.14.9) are in ignored states.
Not shown: 65535 filtered tcp ports (no-response)

Nmap scan report for card-vault-db.cx8q1.eu-west-1.rds.amazonaws.com (10.20.7.88)
Host is up, received user-set (0.0011s latency).
Not shown: 65534 filtered tcp ports (no-response)
PORT     STATE SERVICE    REASON
5432/tcp open  postgresql syn-ack ttl 254

Nmap done: 2 IP addresses (2 hosts up) scanned in 412.66 seconds"""),
    A("""Good news on the date. The test format is right, but the result has a finding you'll need to fix before April: **card-vault's database is reachable on 5432 from the default namespace.** The service itself is isolated by network policy, but the RDS instance isn't governed by Kubernetes network policies at all; it's governed by its security group, and that group evidently allows the whole cluster's CIDR (or the node security group).

Fixes:
- Use **security groups for pods** so only card-vault's pods carry a security group that the RDS security group allows, and remove the rule allowing the node group or VPC CIDR.
- Or, since you're moving card-vault to its own account anyway, the database moves with it and this goes away.

Once fixed, re-run exactly the same scan from every segment: the default namespace, each application namespace, the CI runner namespace, and the office VPN range. Save the raw output with the date in the file name. The QSA will want all of them, plus the configuration that enforces the segmentation (security groups and network policies) as of the test date.

Until then, this result technically means anything in the cluster that can reach the database is in scope."""),
    U("""yeah the db SG allows the node SG. security groups for pods it is, the account move won't be done before feb"""),
    A("""Sensible order. Note that security groups for pods need the VPC CNI with `ENABLE_POD_ENI=true` and only work on Nitro instance types; check your node group instance types first."""),
)

SESSIONS.add(
    "family-01", "2024-12-22 12:30",
    U("""home in Cork for Christmas. big news: my brother Kieran got engaged to his girlfriend Zofia, they're getting married in Kraków on 3 May, and he's asked me to be best man!! I've never been to Poland. Any advice on what a best man actually has to do at a Polish-Irish wedding?"""),
    A("""Congratulations to them, and to you. A Polish-Irish wedding is a great one to be best man at, although the roles differ a bit between the two traditions, so it's worth asking Kieran and Zofia what they expect.

**Irish side (what Kieran will probably expect)**
- Organise the stag.
- Look after the rings and the groom on the day.
- Give a speech at the reception: funny, warm, short, with a toast.

**Polish side (worth knowing)**
- Polish weddings traditionally have a *świadek* (witness) rather than a best man, who signs the marriage documents. You might be asked to be the świadek as well, which means bringing your passport to the ceremony.
- Receptions are long, often going past midnight, with a second day (*poprawiny*) the next day.
- There's a lot of toasting, and "Gorzko, gorzko!" means the couple has to kiss.
- Bread and salt greeting by the parents when the couple arrives at the reception.

**Practical**
- Flights from Dublin or Cork to Kraków book up for May weekends; book early.
- If your speech is in English, a few sentences in Polish for Zofia's family will go down extremely well. Ask her to check them.

Do you want help with the stag plan or the speech later on?"""),
    U("""speech later definitely. it's months away. merry christmas"""),
    A("""Merry Christmas! Enjoy the time in Cork."""),
)

SESSIONS.add(
    "manager-01", "2025-01-07 09:05",
    U("""Happy new year. News from work: we've hired a Head of Security, Amara Okafor, she starts on Monday the 13th. She was at a bigger card issuer in London before. From then on I'll report to her instead of Declan. I'm genuinely happy about it, I've been making every security decision alone for four months.

How should I prepare for our first 1:1? I want to give her a clear picture without dumping four months of context on her in one go."""),
    A("""That's a great change for you: someone to share decisions with and to argue for headcount. For the first 1:1, aim to give her a map, not the territory. A short written brief she can read before you meet works better than talking through everything.

**A two-page brief**
1. *Where we are*: one paragraph each on PCI (ROC, onsite April 7 with Halden, known gaps), SOC 2 (window started January 1, Vanta, Kessler & Moore), bug bounty (private, HackerOne, stats so far), and the security tooling in place.
2. *Top five risks* as you see them, each with one line on what you'd do about it. Card-vault sharing the cluster is probably one.
3. *Decisions I made and why*: the handful that would be expensive to reverse (e.g. Vault dynamic credentials, failing CI only on critical). She'll want to know the reasoning rather than discover it.
4. *What I need from you*: headcount, air cover with engineering leads, a budget decision, whatever it is.
5. *Open questions* you'd like her view on.

**In the meeting itself**
- Ask how she likes to work: written updates or conversations, how often, how she wants to be told about incidents.
- Ask what she was told about the role and about you, so you know the expectations she's walking in with.
- Agree on the first thing she wants to see in week two.

Resist the urge to present everything as under control. A new head of security trusts the person who is honest about the gaps."""),
    U("""the "what were you told about the role" question is good, hadn't thought of that"""),
    A("""It surfaces mismatches early. If Declan told her the PCI work is nearly done and you think it's 60%, you want to find that out in week one, not in March."""),
)

SESSIONS.add(
    "webhooks-01", "2025-01-14 14:00",
    U("""Starting the webhook signing project from the threat model. Current state: one global HMAC-SHA256 secret, header `Quillpay-Signature: <hex>` over the raw body, no timestamp. Plan is per-endpoint secrets. Can you design the new scheme properly? Marketplaces will have to implement verification so it needs to be simple."""),
    A("""Here's a design that's simple for marketplaces to verify and closes the gaps in the current one. It follows the same pattern several payment APIs use, so many of your customers will already have written code like it.

**Secrets**
- One secret per webhook endpoint, generated when the endpoint is created: `whsec_` + 32 random bytes base64url-encoded. Shown once in the dashboard, retrievable only by rotation.
- Rotation creates a new secret and keeps the old one valid for 24 hours, during which you sign with both.

**Header**

```
Quillpay-Signature: t=1736863200,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
```

- `t` is the Unix timestamp at which you sent the webhook.
- `v1` is `hex(HMAC_SHA256(secret, t + "." + raw_body))`.
- During rotation you send two `v1=` entries; the receiver accepts if any matches.
- The `v1` prefix lets you change the algorithm later without breaking anyone.

**Verification (what you document for marketplaces)**
1. Parse `t` and each `v1` from the header.
2. Reject if `abs(now - t)` is more than **5 minutes**. This is the replay protection: a captured webhook can't be replayed later. Five minutes tolerates reasonable clock skew and retries without leaving a useful replay window.
3. Compute the expected signature over `t + "." + raw_body` using the raw bytes as received, before any JSON parsing.
4. Compare with a constant-time function (`hmac.compare_digest`, `crypto/subtle.ConstantTimeCompare`, `crypto.timingSafeEqual`).

**Retries**
- Each retry gets a new timestamp and a new signature, otherwise retries after five minutes would fail verification.
- Include an `id` in the body so receivers can deduplicate.

**Migration**
- For 90 days send both the old `Quillpay-Signature` format and the new one under a new header name, `Quillpay-Signature-V2`. Email every marketplace with a verification snippet in Go, Python, Node and PHP.
- After 90 days, stop sending the old header. Track which endpoints still verify only the old one by watching which marketplaces haven't enabled the new header in the dashboard.

**Sample verification in Python**

```python
import hashlib, hmac, time

def verify(header: str, body: bytes, secret: str, tolerance: int = 300) -> bool:
    parts = dict(item.split("=", 1) for item in header.split(",") if item.startswith("t="))
    timestamp = int(parts["t"])
    if abs(time.time() - timestamp) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    signatures = [item[3:] for item in header.split(",") if item.startswith("v1=")]
    return any(hmac.compare_digest(expected, sig) for sig in signatures)
```"""),
    U("""love it. Amara reviewed it this morning and signed off, she only asked to make the migration 60 days instead of 90"""),
    A("""60 days is fine if you email early and give the big marketplaces a direct contact. Put the end date in every email and in the dashboard banner, so nobody can say they weren't told."""),
)

SESSIONS.add(
    "oswe-02", "2025-01-20 19:45",
    U("""sat the OSWE on saturday. failed. got the first machine fully (auth bypass + RCE) but only the auth bypass on the second one, so 70 points, need 85. I spent 14 hours on the second RCE and was one step away, I could see the deserialization sink but couldn't get a working gadget chain.

retake is booked for march 22. feeling pretty flat tbh"""),
    A("""Sorry, that's a rough one, especially being that close. For what it's worth, getting a full chain on one machine and the auth bypass on the other on a first attempt is a solid result; a lot of people pass on the second attempt with exactly that profile.

Some thoughts for the retake, while it's fresh:

1. **Write down everything you remember about the second machine now.** Not to cheat (the retake will have different machines), but to capture which step cost you time. Was it finding the gadget, understanding the library, or building the payload?
2. **Deserialization gadget chains are very learnable.** Spend two weeks just on them: ysoserial's chains for Java, the PHP equivalents (phpggc), and most importantly writing one chain yourself from scratch against a small app.
3. **Time boxing.** 14 hours on one step is the sign you needed a break and a fresh look at the other parts. Next time set a 4-hour box after which you write a summary of what you know and sleep.
4. **Rest.** Take this week off studying entirely.

Two months is plenty to close the gap."""),
    U("""yeah I'll take the week off. thanks"""),
)

SESSIONS.add(
    "siem-02", "2025-01-28 10:20",
    U("""Decision made with Amara yesterday: we're dropping the self-hosted ELK stack and moving security logging to Datadog Cloud SIEM. Reasons: we already pay for Datadog APM so the agents are everywhere, and ELK was eating about two days a month of my time in upgrades and disk alerts. Retention will be 15 months, which also fixes the PCI log retention gap.

Cutover target is end of February. What's the right order to migrate so we don't have a gap in detections?"""),
    A("""That's a reasonable trade: you're buying back time, and for a team of two, time is the scarcest thing. The key for a clean migration is to run both in parallel long enough to compare, and to move detections before you switch anything off.

**1. Inventory (this week)**
- List every log source going to ELK: CloudTrail, VPC flow logs, EKS audit logs, application logs, GuardDuty, the dashboard's auth logs, Vault audit logs.
- List every saved search, alert and dashboard in Kibana that someone actually uses. Most clusters have dozens nobody opens; don't migrate those.

**2. Dual ship (weeks 1-2)**
- Configure Datadog log collection for each source while ELK keeps receiving. For AWS sources use the Datadog Forwarder or Firehose; for cluster logs, the agent is already there.
- Set up log pipelines so fields are parsed the same way (source IP, user, event action and outcome). Detections are only as good as the parsing.

**3. Rebuild detections (weeks 2-3)**
- For each alert in use, write the Cloud SIEM rule and run both side by side. Compare counts daily; differences usually point at parsing gaps.
- Turn on the relevant out-of-the-box rules (AWS root usage, IAM policy changes, GuardDuty findings), tuned for noise.

**4. Cut over (week 4)**
- Switch ELK alerts off only after a week of matching results.
- Keep ELK read-only for historical searches until its data ages past what you need, or export the last 90 days to S3 in case the QSA asks for logs from before the switch.

**5. Evidence**
- For PCI requirement 10, document the retention settings (15 months covers the 12 months required, with 3 immediately available since Datadog keeps everything searchable), who has access to logs, and how log integrity is protected.

One caution: Datadog's cost scales with ingested volume. VPC flow logs and verbose application logs can be expensive; send them to archive-only indexes rather than the searchable one if you don't detect on them."""),
    U("""flow logs to archive only, good call, they're like 70% of volume"""),
    A("""Then that one decision will probably decide whether the project stays on budget. Use Datadog's log rehydration if you ever need to search them for an investigation."""),
)

SESSIONS.add(
    "move-01", "2025-02-04 20:15",
    U("""personal update: we're leaving Dublin. Aoife got a lecturer post at the University of Galway, so we're moving west. moving day is saturday 22 feb. Quillpay is fine with it, I'll be remote four days a week and in the Dublin office one week a month.

the rent in Phibsborough is €2,100 for a one bed, in Galway we found a two bed in Salthill for €1,650 so that's nice.

question: any tips for working remote as the security person? I'm worried about missing the hallway conversations where I hear about things before they ship"""),
    A("""Congratulations to Aoife, and a sea view plus a spare room sounds like a good trade. Your worry is the right one: for a security engineer, the hallway conversation is often the earliest warning system you have.

Ways to replace it:

- **Be in the design docs.** Ask engineering leads to add you as an optional reviewer on every design doc or RFC. You'll skim most of them; the few that matter you'll catch before code exists.
- **Watch the right Slack channels.** Join #eng, the deploy channel and each team's channel; mute them, but search them weekly for words like "card", "token", "auth", "admin", "export".
- **Office office hours.** During your in-office week, block two afternoons as open security office hours. People save up questions.
- **Regular 1:1s with leads.** Fifteen minutes every two weeks with each engineering lead, remote, asking "what are you building next month?".
- **Make yourself easy to reach.** A #security-help channel with a promised response time (same day) beats a form.

And on your in-office week, eat lunch with a different team each day. It sounds trivial but it's where you hear about the side project that's about to store bank details in a spreadsheet."""),
    U("""haha the spreadsheet thing already happened once. ok, will do the design doc reviewer thing"""),
    A("""Then you know exactly why it matters. Good luck with the move."""),
)

SESSIONS.add(
    "k8s-01", "2025-02-11 13:35",
    U("""we need to enforce pod security on the cluster before the QSA visit. I've been comparing Pod Security Admission and Kyverno. went with Kyverno in the end because we need to mutate pods too (add the seccomp default profile), and we want an allowlist of image registries, which PSA can't do. does this policy look right?

apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: restrict-image-registries
spec:
  validationFailureAction: Enforce
  background: true
  rules:
    - name: allowed-registries
      match:
        any:
          - resources:
              kinds: ["Pod"]
      validate:
        message: "Images must come from our ECR."
        pattern:
          spec:
            containers:
              - image: "482913370551.dkr.ecr.eu-west-1.amazonaws.com/*\""""),
    A("""Kyverno is a good choice for those reasons; PSA only enforces the three fixed Pod Security Standards profiles. The policy has the right shape, with a few problems:

1. **The pattern has a stray quote.** `"482913370551.dkr.ecr.eu-west-1.amazonaws.com/*\\""` will only match images ending in a literal quote, so every pod would be rejected. It should be `"482913370551.dkr.ecr.eu-west-1.amazonaws.com/*"`.
2. **Init and ephemeral containers aren't covered.** Someone can pull anything as an init container. Add:

```yaml
        pattern:
          spec:
            =(initContainers):
              - image: "482913370551.dkr.ecr.eu-west-1.amazonaws.com/*"
            =(ephemeralContainers):
              - image: "482913370551.dkr.ecr.eu-west-1.amazonaws.com/*"
            containers:
              - image: "482913370551.dkr.ecr.eu-west-1.amazonaws.com/*"
```

3. **System namespaces.** kube-system pulls from AWS's own ECR accounts and from public registries (e.g. the VPC CNI, CoreDNS). Exclude `kube-system` and Kyverno's own namespace, or add those registries explicitly.
4. **Roll out in Audit first.** Set `validationFailureAction: Audit`, look at `kubectl get policyreport -A` for a week, then switch to `Enforce`.

For the seccomp mutation, Kyverno's sample `add-default-seccomp` policy does exactly that; mutate rules apply before validation, so the order works out."""),
    U("""the stray quote was a copy paste accident, it's not in the real file. audit mode for a week, ok"""),
    A("""Good. When you switch to Enforce, do it per namespace with `match.resources.namespaces` first, starting with card-vault's namespace; that's the one the QSA will look at."""),
)

SESSIONS.add(
    "secrets-02", "2025-02-18 11:40",
    U("""Quick note: we replaced gitleaks with TruffleHog, in pre-commit and in CI. Amara pushed for it, and she was right: TruffleHog verifies whether a found secret is actually live by calling the provider, and that cut our false positives from about 30 a week to 2 or 3. gitleaks is gone completely now.

one thing I want to check: is it a problem that trufflehog calls out to e.g. AWS with the secret it found? feels weird from a security perspective"""),
    A("""It's a fair question. Verification means TruffleHog takes a candidate secret and makes a harmless authenticated call with it (for AWS, `sts:GetCallerIdentity`) to see if it's valid. Some things to weigh:

**Why it's generally acceptable**
- The call is read-only and minimal. `GetCallerIdentity` needs no permissions and changes nothing.
- If a secret is in your repo, you have to assume it's exposed anyway; verifying it doesn't add exposure.
- The alternative, triaging 30 alerts a week by hand, means real leaks get missed.

**What to watch**
- **Where verification runs.** In CI, it runs from your runners' IPs. A verification call from a GitHub-hosted runner appears in the key owner's CloudTrail as coming from a GitHub IP, which might trigger someone else's alerting, so tell the platform team.
- **Third-party secrets.** If TruffleHog finds a customer's or a partner's key (e.g. a marketplace's API key pasted into a support ticket export), verifying it means calling *their* provider with *their* key. Legally and contractually that's greyer. You can disable verification for specific detectors with `--no-verification` or a custom config.
- **Rate limits.** Large historical scans can trigger a lot of verification calls.
- **Logs.** Make sure CI logs don't print the secret itself; use `--no-update --json` and redact in whatever consumes the output.

A middle ground many teams use: verify in CI on pull requests (small diffs, your own secrets), and run historical scans with `--only-verified` turned off and verification disabled."""),
    U("""the customer keys thing is a good point, we do get support exports sometimes. will disable verification for our own API key detector (sk_live_) since those are customers' keys by definition"""),
    A("""Exactly right: for your own `sk_live_` keys you can check validity internally against your database instead of calling your own API, which is also faster."""),
)

SESSIONS.add(
    "phish-01", "2025-02-25 16:30",
    U("""ran our first phishing simulation with GoPhish last week. fake "Vanta: action required on your SOC 2 controls" email. results from the campaign export:

Campaign: 2025-02-vanta-lure
Status: Completed
Launched: 2025-02-18 09:12 UTC   Completed: 2025-02-21 17:00 UTC
Recipients:      41
Emails sent:     41
Emails opened:   29
Clicked link:     7
Submitted data:   3
Email reported:  12

the 3 who submitted credentials were all from the same team (sales ops). what do I do with this without turning it into a shaming exercise?"""),
    A("""Those are normal numbers for a first campaign, and actually better than typical on the reporting side: 12 of 41 people reported it, which is the metric that matters most, because reporting is what turns one person's mistake into a company-wide warning.

How to handle it:

**Don't name anyone.** Report aggregate numbers to the company: 41 sent, 7 clicked, 3 entered credentials, 12 reported. Thank the reporters publicly as a group.

**Talk to sales ops as a team, not as individuals.** Ask their lead for 20 minutes in their team meeting. Frame it as "this lure was designed to look like tools you use every day; here's what gave it away". Often the real finding is a process one: maybe sales ops genuinely receive lots of urgent tool emails and have never been told which are real.

**Fix what made it work.**
- Was the fake Vanta domain something a password manager would have refused to autofill? If people use a password manager, teach "if it doesn't autofill, stop".
- Is phishing-resistant MFA (passkeys or security keys) rolled out? With it, submitted credentials are worthless. That's the control that actually protects you; training reduces the rate, hardware keys remove the impact.

**Make reporting easy.** A report-phish button in the mail client and a quick thank-you from you every time someone uses it.

Next campaign in three months with a different lure, and track the report rate over time, not just the click rate."""),
    U("""we have passkeys for google workspace for engineering but not for sales yet. I'll push for it. good framing, thanks"""),
    A("""That's the strongest argument you'll get this year for rolling passkeys out to everyone: three real credential submissions in a controlled test. Bring the numbers to Amara."""),
)

SESSIONS.add(
    "move-02", "2025-03-01 12:10",
    U("""We're in! Moved into the Salthill place last Saturday, the sea is literally across the road. Internet is Siro fibre, 1Gb. I've got the second bedroom as an office.

Now I want to set up the home network so the work laptop is separated from everything else (Aoife's stuff, the TV, a cheap smart plug I don't trust). The ISP router is awful. What's a sensible setup that isn't a weekend project every month?"""),
    A("""Congratulations on the move. A separate work network at home is sensible for a security engineer, and it doesn't need to be a big project. A low-maintenance setup:

**Hardware**
- Put the ISP router into bridge mode (or use it only as the ONT-facing modem) and use your own router behind it. A Ubiquiti Cloud Gateway, a MikroTik hAP, or an OPNsense box on a small fanless PC all do VLANs. Ubiquiti is the least fiddly if you don't want to learn a new OS.
- One access point that supports multiple SSIDs mapped to VLANs.

**Networks**
- **Work** (VLAN 10): your work laptop only. Internet access only; no access to other VLANs.
- **Home** (VLAN 20): phones, laptops you trust.
- **IoT** (VLAN 30): TV, smart plug, anything with firmware you don't trust. Internet only, no access to other VLANs, and ideally no access from other VLANs except what's needed for casting (use mDNS reflection if you need the TV).
- **Guest** (VLAN 40): isolated.

**Rules**
- Default deny between VLANs; allow Home to reach IoT for casting if needed.
- DNS: use a filtering resolver (NextDNS or Quad9) at the router.
- Turn off UPnP.

**Maintenance**
- Enable automatic firmware updates on the router and AP.
- Put the config backup somewhere you'll find it.

Your work laptop will still use the company VPN or zero-trust client, so the Work VLAN is mostly about keeping it away from the smart plug rather than being a security boundary for company data."""),
    U("""ubiquiti it is, ordered a cloud gateway ultra. thanks!"""),
    A("""Good choice for this. Set the IoT network up first; it's the one that matters most."""),
)

SESSIONS.add(
    "account-01", "2025-02-06 10:00",
    U("""card-vault account move. the terraform plan for the new account's VPC peering is failing:

│ Error: creating EC2 VPC Peering Connection: InvalidParameterValue: The CIDR block 10.20.0.0/16 overlaps with the CIDR block of the peer VPC.
│
│   with module.cde_network.aws_vpc_peering_connection.to_core,
│   on modules/cde_network/peering.tf line 4, in resource "aws_vpc_peering_connection" "to_core":
│    4: resource "aws_vpc_peering_connection" "to_core" {

I copied the network module from the core account and forgot to change the CIDR, obviously. but should we even be peering? the whole point is isolation"""),
    A("""Good instinct to question it. Peering the whole VPCs gives you routing between everything in both networks, and then you rely on security groups alone for segmentation, which is exactly the story you're trying to make simpler for the QSA.

What card-vault actually needs from the core account is narrow: payout-worker calls card-vault's API. For that, **AWS PrivateLink** is a better fit than peering:

- In the CDE account, put card-vault behind a Network Load Balancer and create a VPC endpoint service for it.
- In the core account, create an interface VPC endpoint to that service, in the subnets where payout-worker runs.
- Only the endpoint's port is reachable, in one direction. No routes, no overlapping CIDR problem, and nothing in the CDE can initiate connections into core.
- Restrict the endpoint service to allowed principals (the core account) and require acceptance.

That also makes the segmentation test trivial to explain: from the core account, the only thing reachable in the CDE is one port on one endpoint, and from everywhere else nothing.

If you do need peering for something else (e.g. a shared logging collector), give the CDE VPC a non-overlapping CIDR like `10.40.0.0/16` now anyway; changing it later is painful."""),
    U("""privatelink makes way more sense. card-vault's VPC is 10.40.0.0/16 now anyway. thx"""),
    A("""Great. One thing to check: mTLS still matters over PrivateLink. The endpoint limits who can connect at the network level, but your SAN check is what proves which workload is calling."""),
)

SESSIONS.add(
    "bounty-03", "2025-03-06 11:25",
    U("""Big one came in on the bounty on Tuesday. SSRF in the webhook URL validation: when a marketplace registers a webhook URL, we do a test POST to it, and the validator only checked the hostname against a blocklist before DNS resolution. Researcher registered a domain that resolves to 169.254.169.254. Their PoC, trimmed:

$ curl -s -X POST https://sandbox.api.quillpay.com/v1/webhook_endpoints \\
    -H "Authorization: Bearer sk_test_..." \\
    -d url=http://meta.r3b1nd.example/latest/meta-data/iam/security-credentials/
{"id":"we_8KcQ2x","status":"failed_verification","last_response":{"status":200,"body":"sandbox-webhook-sender"}}

$ curl -s -X POST https://sandbox.api.quillpay.com/v1/webhook_endpoints \\
    -H "Authorization: Bearer sk_test_..." \\
    -d url=http://meta.r3b1nd.example/latest/meta-data/iam/security-credentials/sandbox-webhook-sender
{"id":"we_8KcR7p","status":"failed_verification","last_response":{"status":200,"body":"{\\"Code\\":\\"Success\\",\\"AccessKeyId\\":\\"ASIA...\\",\\"SecretAccessKey\\":\\"...\\",\\"Token\\":\\"...\\"}"}}

So they got temporary creds for the sandbox webhook sender's role. Sandbox only, luckily, and we enforce IMDSv2 in prod but not in sandbox. We paid it as critical.

Also, Amara and I agreed to raise the critical payout from €3,000 to €5,000 and to take the programme public on March 17. This finding kind of proved the point that good researchers are worth paying properly."""),
    A("""That's a textbook SSRF with DNS rebinding flavour, and the kind of bug that justifies a bounty programme on its own. Congratulations to the researcher. Let me split the response into the immediate fix and the structural one.

**Immediate**
- Revoke the sandbox role's sessions: attach a deny-all policy with a `aws:TokenIssueTime` condition older than now (the "revoke active sessions" button in the IAM console does this).
- Check CloudTrail for any use of that role's credentials from outside AWS.
- Enforce IMDSv2 with a hop limit of 1 everywhere, including sandbox. With IMDSv2, a simple GET can't fetch credentials because a PUT with a token header is needed first.

**The fix in the validator**
Checking the hostname before resolution doesn't work, because the attacker controls DNS. You need to check the IP you actually connect to:

- Resolve the hostname yourself, reject if any resolved address is private, loopback, link-local (169.254.0.0/16), or in your VPC ranges, including IPv6 equivalents (`::1`, `fc00::/7`, `fe80::/10`, and IPv4-mapped addresses).
- Then connect to *that* IP (not the hostname again, which could resolve differently the second time), setting the Host header and TLS SNI to the hostname.
- In Go, the cleanest way is a custom `net.Dialer` with a `Control` function that checks the address right before `connect()`:

```go
dialer := &net.Dialer{
    Control: func(network, address string, _ syscall.RawConn) error {
        host, _, err := net.SplitHostPort(address)
        if err != nil {
            return err
        }
        ip := net.ParseIP(host)
        if ip == nil || !ip.IsGlobalUnicast() || ip.IsPrivate() {
            return fmt.Errorf("refusing to connect to %s", ip)
        }
        return nil
    },
}
```

  That check runs on the exact address being dialled, so rebinding can't get around it.
- Don't follow redirects, or re-check each hop.
- Don't return the response body to the caller. Returning `last_response.body` is what turned a blind SSRF into a credential leak. Return the status code only.

**Structural**
- Send webhooks from a dedicated egress path: a small service in its own subnet with no IMDS access and no route to internal ranges, behind a NAT gateway. Then even a validator bug can't reach anything internal.

On the payout change: €5,000 for critical is a much stronger signal for a public programme, and your budget can handle it given the rate of valid criticals so far."""),
    U("""we're not returning the body anymore as of this morning, and the Control dialer is in review. egress service is a Q2 thing"""),
    A("""That's the right order. When the dialer ships, add a test with a hostname resolving to 169.254.169.254 and another resolving to `::ffff:169.254.169.254`; the IPv4-mapped case is the one most implementations miss."""),
)

SESSIONS.add(
    "pci-03", "2025-03-11 14:45",
    U("""Doing the quarterly access review for the CDE. Query and result:

quillpay_iam=> SELECT u.email, r.role_name, g.granted_at::date, u.last_login::date
quillpay_iam->   FROM grants g JOIN users u ON u.id = g.user_id JOIN roles r ON r.id = g.role_id
quillpay_iam->  WHERE r.scope = 'cde' ORDER BY g.granted_at;
          email           |     role_name      | granted_at | last_login
--------------------------+--------------------+------------+------------
 declan@quillpay.com      | cde-admin          | 2022-06-01 | 2025-03-10
 ronan@quillpay.com       | cde-admin          | 2022-06-01 | 2024-08-30
 siobhan@quillpay.com     | cde-deployer       | 2023-02-14 | 2025-03-07
 me@quillpay.com          | cde-security-audit | 2024-09-04 | 2025-03-11
 amara@quillpay.com       | cde-security-audit | 2025-01-14 | 2025-03-10
 tomasz@quillpay.com      | cde-deployer       | 2024-05-20 | 2024-11-02
 support-bot@quillpay.com | cde-readonly       | 2023-09-09 | 2025-03-11
(7 rows)

ronan left in september. tomasz moved to the data team in november. what does a "good" review record look like for the QSA? Also Amara told me the ROC is due to be signed by May 30."""),
    A("""Let me go through the rows first, then the record.

**Findings from this result**
- `ronan@quillpay.com`, cde-admin, last login 2024-08-30: a leaver who still holds admin on the CDE. Remove immediately. It's also a finding against your leaver process (PCI 8.2.6 and 8.3), so check why offboarding missed it and look for the same gap in AWS and GitHub.
- `tomasz@quillpay.com`, cde-deployer, last login 2024-11-02: a mover. He no longer needs it. Remove.
- `support-bot@quillpay.com`, cde-readonly: a service account logging in daily. Check what it reads. If it only needs tokenised data it shouldn't have a CDE role at all. Service accounts also need an owner and, under PCI 4.0 (8.6), their interactive use must be prevented and passwords managed.
- `declan@quillpay.com`, cde-admin: the CTO having standing admin on the CDE is a conversation, not an automatic removal. Consider break-glass access instead.

**A good review record**
- Date of the review, reviewer, and the system list covered.
- The raw export (this query and its output, with the time it was run).
- For each account: keep or remove, and the reason.
- Evidence of the removals (a ticket with timestamps, and a re-run of the query afterwards showing the changes).
- Sign-off by someone other than the reviewer (Amara works).

And with the ROC due by May 30 and the onsite on April 7, you'll want this review's evidence and the leaver process fix done before the onsite, so the QSA sees the finding and its remediation together."""),
    U("""removed ronan and tomasz, support-bot only reads merchant names, moving it out. declan agreed to break-glass, he was relieved honestly"""),
    A("""That's a clean outcome, and Declan agreeing to break-glass will read very well to the QSA. Re-run the query and attach both outputs to the review ticket."""),
)

SESSIONS.add(
    "incident-01", "2025-03-18 08:50",
    U("""incident this morning. GitHub's secret scanning partner program notified us at 06:41 that a live key `sk_live_4f...` was pushed to a public repo. It belongs to one of our marketplaces, not us. Timeline so far from our logs:

06:41:12 github-secret-scanning  POST /internal/leaked-keys  key_prefix=sk_live_4f merchant=mk_Jq7 repo=github.com/<redacted>/checkout-demo
06:41:13 keys-service            auto-revoke disabled for merchant mk_Jq7 (flag: manual_review)
06:58:40 api                     POST /v1/payouts  key=sk_live_4f...  ip=185.220.101.4  amount=4900.00 EUR  status=rejected reason=ip_not_allowlisted
06:58:41 api                     POST /v1/payouts  key=sk_live_4f...  ip=185.220.101.4  amount=4900.00 EUR  status=rejected reason=ip_not_allowlisted
07:02:05 api                     GET  /v1/balance  key=sk_live_4f...  ip=185.220.101.4  status=200
07:14:30 oncall                  key sk_live_4f... revoked manually

so the IP allowlist saved us on the payouts, but the balance read went through, and auto-revoke was disabled for this merchant. what do I do now, in order?"""),
    A("""Good that the allowlist held. Let me lay out the order, then the follow-ups.

**Now (next hour)**
1. Confirm the revocation: make a request with the key and check it's rejected everywhere, including any cache in front of the keys service.
2. Search all logs for the key since it was pushed (check the repo's commit time, not just the GitHub notification time) for any other requests. You've got the 185.220.101.4 address; that's a Tor exit range, so also search for other requests from the Tor exit list in that window against mk_Jq7.
3. Contact the marketplace: tell them the key was exposed, revoked, what was attempted (two payout attempts, rejected) and what succeeded (a balance read), and ask them to issue a new key and remove the repo.
4. Start an incident record with the timeline as you have it.

**Today**
- Why was `auto-revoke disabled (flag: manual_review)` set for this merchant? Find who set it and why. This is the control that failed, and a 33-minute window between detection and revocation is the main finding.
- Why does `/v1/balance` not require the IP allowlist? Decide whether the allowlist should apply to every endpoint for live keys.

**This week**
- Post-incident review, blameless, with the timeline, what went well (partner alert, allowlist) and the actions.
- Consider whether this counts as a security incident you must notify anyone about. A balance read exposes the marketplace's own data, so at minimum the marketplace; ask your DPO whether GDPR notification applies (usually not for business balance data, but get it on record).

For PCI, keep the incident record: requirement 12.10 expects you to show the incident response plan being followed."""),
    U("""the flag was set by support in 2023 because the merchant complained about an auto revoke from a false positive. nobody reviewed it since. removing the flag for all 6 merchants that have it, and allowlist now applies to every live key endpoint from next week"""),
    A("""That's the right fix: a one-off exception that quietly outlived its reason is one of the most common root causes in incident reviews. Give exceptions an expiry date from now on, so they come back for review automatically."""),
    U("""expiry dates, yes. writing up the PIR now"""),
)

SESSIONS.add(
    "oswe-03", "2025-03-24 18:30",
    U("""PASSED the OSWE!!! retake on saturday, got both machines fully, 100 points. the deserialization practice paid off, the second machine had a Java gadget chain and I had it in 3 hours. report submitted sunday, result came through this afternoon."""),
    A("""Congratulations, that's a great result, and a full 100 after coming so close the first time says a lot about how you used the two months. Well deserved.

Some ways to make the most of it:
- Add it to your profile and tell Amara; certifications are useful evidence in a promotion conversation.
- Share what you learned internally: a short session for the engineers on deserialization and on reading code for auth bypasses will land better now that you've got a concrete story.
- Plan a proper rest before picking the next thing."""),
    U("""already told amara, she sent a cake to the house lol. next thing is nothing for a few months"""),
    A("""Best possible next thing. Enjoy the cake."""),
)

SESSIONS.add(
    "climb-03", "2025-03-29 17:55",
    U("""shoulder update: physio cleared me, and my first session back was two weeks ago today. It took way longer than the six weeks, more like fifteen. I'm climbing at Cliffhanger Galway now, it's 10 min from the house.

today I sent my first V5!! a slab problem of all things. anyway, how do I keep progressing without re-injuring the shoulder?"""),
    A("""Congratulations on the V5, and on coming back properly rather than early; fifteen weeks feels long but it's the reason you're sending now instead of nursing a re-injury.

To keep progressing safely:

- **Keep doing the band exercises.** External rotations twice a week as part of your warm-up. Most climbers drop rehab exercises when the pain goes, which is exactly when they become prevention.
- **Progress dynamic moves gradually.** You hurt it on a dyno, so treat big dynamic moves as a skill to rebuild: small deadpoints first, then bigger moves on good holds, and only then committing dynos on steep terrain.
- **Manage volume.** Add one variable at a time: a third session a week, or harder problems, not both.
- **Play to strengths.** A first V5 on a slab says your footwork and balance are good. Keep climbing slab and vertical V4-V5s while the shoulder rebuilds strength for steeper climbing.
- **Warm up the shoulder specifically** before steep problems: band pull-aparts, scapular pull-ups, a few easy hangs.

Listen for early warning signs: a dull ache the day after that wasn't there before. That means back off for a week, not push through."""),
    U("""slab is my jam apparently. ok!"""),
)

SESSIONS.add(
    "k8s-02", "2025-04-02 10:15",
    U("""switched the kyverno image policy to Enforce in the cde namespace and now card-vault pods won't start:

$ kubectl -n cde describe rs card-vault-7d9f8c6b5
Events:
  Type     Reason        Age                From                   Message
  ----     ------        ----               ----                   -------
  Warning  FailedCreate  12s (x14 over 4m)  replicaset-controller  Error creating: admission webhook "validate.kyverno.svc-fail" denied the request:

resource Pod/cde/card-vault-7d9f8c6b5-xq2lm was blocked due to the following policies

restrict-image-registries:
  allowed-registries: 'validation error: Images must come from our ECR. rule allowed-registries
    failed at path /spec/initContainers/0/image/'

the init container is the vault agent, image is hashicorp/vault:1.17.2"""),
    A("""That's the policy doing its job: the Vault Agent init container pulls `hashicorp/vault:1.17.2` from Docker Hub, which isn't your ECR. Good catch before the QSA visit rather than during it.

Two ways to fix it, and I'd do the first:

1. **Mirror the image into your ECR.** Use an ECR pull-through cache rule for Docker Hub, or a small CI job that copies approved images:

```
aws ecr create-pull-through-cache-rule \\
  --ecr-repository-prefix dockerhub \\
  --upstream-registry-url registry-1.docker.io \\
  --credential-arn arn:aws:secretsmanager:eu-west-1:482913370551:secret:ecr-pullthroughcache/dockerhub
```

   Then set the injector's `agentImage` to `482913370551.dkr.ecr.eu-west-1.amazonaws.com/dockerhub/hashicorp/vault:1.17.2`. Pin by digest if you can. This also gives you Trivy scanning of the agent image.

2. **Allow the specific image in the policy** as an exception. Quicker, but the exceptions list tends to grow, and the QSA will ask why third-party images bypass your scanning.

Since the Vault injector sets the agent image cluster-wide, changing it there fixes every namespace at once. Roll the card-vault deployment after changing it."""),
    U("""pull-through cache done, injector updated, card-vault is up. 3 other deployments had the same problem in audit mode, fixed them too"""),
    A("""Good. Now is a good time to take a policy report snapshot (`kubectl get clusterpolicyreport -o yaml`) for the QSA's evidence folder, showing zero violations in the cde namespace."""),
)

SESSIONS.add(
    "pci-04", "2025-04-09 18:00",
    U("""Onsite with Halden done (7-9 April). Gráinne was tough but fair. Two findings, both minor, that we have to remediate before the ROC:

1. Datadog retention for the card-vault audit logs was set to 30 days on one index by mistake (the other indexes are 15 months). Requirement 10.5.1.
2. The internal admin tool talks to card-vault's admin API over plain HTTP inside the cluster, not TLS. Requirement 4.2.1 does not strictly apply inside the CDE but she wants it fixed as part of the segmentation story, since the admin tool lives outside the CDE namespace.

Everything else passed, including the segmentation tests and the access review. Can you help me write a remediation plan with dates she'll accept?"""),
    A("""That's a strong outcome for a first ROC: two minor findings, both with clear fixes. A remediation plan she'll accept should be short, specific and dated, with evidence named for each item. Here's a draft:

**Remediation plan: Quillpay PCI DSS 4.0 ROC, findings from onsite 7-9 April 2025**

| # | Finding | Requirement | Action | Owner | Due | Evidence |
|---|---|---|---|---|---|---|
| 1 | card-vault audit log index retention set to 30 days | 10.5.1 | Set retention on the `cde-audit` index to 15 months; add a Terraform check that fails CI if any index tagged `pci` has retention under 12 months; restore the missing days from the S3 archive into a rehydrated index | you | 16 April | Screenshot of index settings, Terraform PR, CI run showing the check, rehydration job log |
| 2 | Admin tool to card-vault admin API over HTTP | 4.2.1 / 1.4 | Put the admin API behind mTLS using the existing cert-manager CA, same SAN check as payout-worker; disable the HTTP listener | you + platform team | 25 April | Deployment diff, card-vault config showing HTTP disabled, openssl s_client output, nmap from admin namespace showing only the TLS port |

**Notes to include**
- For finding 1: state the window during which retention was short and whether any logs were lost. If the archive has everything, say so explicitly; that turns it from a gap into a configuration error with no data loss.
- For finding 2: note that the connection never left the cluster and carried no PAN, to show you understand the risk, but don't argue the finding.

Send it to Gráinne with a proposed date for evidence review, e.g. 30 April. That leaves her a month before the May 30 sign-off, which she'll appreciate."""),
    U("""archive has everything, the index was only short for about 5 weeks after the SIEM cutover. sending the plan tonight with april 30 for evidence review"""),
    A("""Then finding 1 is a configuration slip with no data loss, which is the best version of that finding. Good luck with the last stretch."""),
)

SESSIONS.add(
    "hire-01", "2025-04-15 12:40",
    U("""Amara got approval for a second security engineer on the team. We want someone with cloud security and a bit of detection engineering. Salary band €75-90k, hybrid, Dublin or remote in Ireland. Could you draft a job ad that doesn't sound like every other security job ad?"""),
    A("""Sure. Here's a draft that leans on what's specific about Quillpay, which is what makes a job ad stand out:

---

**Security Engineer (Cloud and Detection), Quillpay**
*Dublin or remote in Ireland · €75,000 to €90,000 · hybrid*

Quillpay pays out the people who sell and work on online marketplaces: when a freelancer finishes a job or a seller ships an order, we're how the money gets to them. We move money for real people every day, so security here isn't a compliance exercise.

**The team**
You'll be the third person on the security team, working with Amara (Head of Security) and one security engineer. We're small on purpose: you'll own things end to end.

**What you'll do**
- Own our AWS and Kubernetes security: IAM, network segmentation, the cardholder data environment, policy as code (Terraform, Kyverno).
- Build and tune detections in Datadog Cloud SIEM: write rules, cut noise, respond to what they find.
- Help run our public bug bounty: triage, reproduce, and work with engineers on fixes.
- Take part in PCI DSS and SOC 2 work, mostly by making controls automatic rather than filling in spreadsheets.

**What we're looking for**
- Hands-on experience securing AWS in production.
- Comfortable reading and writing code (we use Go; Python is fine).
- Some detection or incident response experience.
- You explain risk to engineers in a way that makes them want to fix it.

**What we don't need**
- A specific certification. If you have one, great; if you don't, also great.

**How we hire**
Three conversations: a chat with Amara, a practical session where we review a small Go service together (no take-home), and a meeting with two engineers. We aim to decide within two weeks.

---

Two suggestions: put the salary band at the top (you have it; many don't, and it's the first thing people look for), and name one real problem the person will work on in their first three months."""),
    U("""love the "what we don't need" bit. Amara wants to add that we sponsor certifications, since I just did the OSWE on company budget"""),
    A("""That's a good addition, and a concrete one. Something like: "We pay for training and certifications; our last one was the OSWE." It shows rather than tells."""),
)

SESSIONS.add(
    "siem-03", "2025-04-22 15:15",
    U("""writing Datadog Cloud SIEM detections for brute force on the dashboard login. here's what I've got, it fires way too much:

{
  "name": "Dashboard brute force",
  "type": "log_detection",
  "queries": [{"query": "source:dashboard @evt.name:login @evt.outcome:failure", "groupByFields": ["@network.client.ip"], "aggregation": "count"}],
  "cases": [{"name": "brute force", "condition": "a > 5", "status": "high"}],
  "options": {"evaluationWindow": 300, "keepAlive": 3600, "maxSignalDuration": 86400}
}

about 40 signals a day, nearly all office NAT IPs and people who forgot their password"""),
    A("""Let me check where the noise comes from. The rule counts all failures per IP over 5 minutes with a threshold of 5, which a single person retyping a password on an office network can reach, and a NAT address groups many people together.

A better shape is two queries: failures and distinct users, so you distinguish "one person forgot their password" from "one IP trying many accounts".

```json
{
  "name": "Dashboard brute force or credential stuffing",
  "type": "log_detection",
  "queries": [
    {"name": "failures", "query": "source:dashboard @evt.name:login @evt.outcome:failure -@network.client.ip:(52.18.44.10 OR 52.18.44.11)", "groupByFields": ["@network.client.ip"], "aggregation": "count"},
    {"name": "users", "query": "source:dashboard @evt.name:login @evt.outcome:failure -@network.client.ip:(52.18.44.10 OR 52.18.44.11)", "groupByFields": ["@network.client.ip"], "distinctFields": ["@usr.email"], "aggregation": "cardinality"},
    {"name": "success", "query": "source:dashboard @evt.name:login @evt.outcome:success", "groupByFields": ["@network.client.ip"], "aggregation": "count"}
  ],
  "cases": [
    {"name": "stuffing followed by success", "condition": "users > 5 && success > 0", "status": "critical"},
    {"name": "credential stuffing", "condition": "users > 5", "status": "high"},
    {"name": "brute force on one account", "condition": "failures > 20 && users <= 2", "status": "medium"}
  ],
  "options": {"evaluationWindow": 300, "keepAlive": 3600, "maxSignalDuration": 86400}
}
```

The thresholds I'd start with: **20 failures from one IP in 5 minutes** for the single-account case, and **more than 5 distinct users from one IP in 5 minutes** for stuffing. Replace the two example addresses with your office NAT addresses. The case that matters most is the first: many users failing and then one succeeding from the same IP means an account was probably taken over.

Run it in a test mode for a week (`"isEnabled": false` plus the rule preview) and compare with the current 40 a day."""),
    U("""preview over the last 7 days: 2 signals total, both real-looking (an ip in vietnam trying 30 emails). much better"""),
    A("""That's the ratio you want. Block that IP range at the WAF if it's still active, and check whether any of those 30 emails had a successful login from another IP around the same time."""),
)

SESSIONS.add(
    "wedding-01", "2025-04-28 21:30",
    U("""ok it's speech time. wedding is this saturday in Kraków. Kieran and Zofia met at a climbing wall in Berlin in 2019 (yes really, she was belaying a friend of his), they moved to Dublin together in 2021, she's a vet, he's a secondary school teacher. I want 3-4 minutes, funny but not cruel, something in Polish, and a toast at the end. can you give me a structure and a draft I can rewrite in my own words?"""),
    A("""Lovely material to work with. Here's a structure for about 3-4 minutes (roughly 450-550 words), then a draft to rewrite.

**Structure**
1. Opening: who you are, a quick thank-you, a line in Polish (20 seconds).
2. Kieran growing up: one funny story, one that shows who he is (1 minute).
3. How they met: the climbing wall in Berlin (1 minute).
4. Zofia: what she's brought to his life, with warmth (45 seconds).
5. The toast, in English and Polish (15 seconds).

**Draft**

"Dzień dobry wszystkim. Nazywam się [name], jestem bratem Kierana. That's about 90% of my Polish, so Zofia's family, thank you in advance for your patience.

For those who don't know me, I'm Kieran's younger brother, which means I've spent most of my life being told by teachers 'your brother never did that'. Kieran has always been the responsible one. He now teaches teenagers for a living, which tells you he's either very patient or slightly mad.

[Funny story from childhood: something he was very serious about as a kid that ties to who he is now.]

In 2019, Kieran went climbing in Berlin. He is not, let's say, a natural climber. Zofia was there belaying a friend of his, which means that from the very first day, she was the person holding the rope while he was up a wall wondering how he got there. Six years on, I'd say that's still a pretty accurate description of the relationship.

They moved to Dublin together in 2021. Zofia, you've spent your days looking after animals that can't tell you what's wrong with them, which I imagine was good training for living with an Irishman.

Zofia, you've made him happier and calmer than I've ever seen him. Our family loves you, and we're so glad to be here with yours.

So please raise your glasses. To Kieran and Zofia: may you always have someone holding the rope. Na zdrowie! Sto lat!"

**Tips**
- Ask Zofia (or her sister) to check the Polish and coach the pronunciation; "Dzień dobry" is "jen DOB-ri".
- Practise out loud four or five times; the jokes land better when you're not reading.
- Keep a printed copy in your pocket even if you learn it."""),
    U("""the rope line is perfect. the vet/irishman line might get me killed by my mother. will keep it"""),
    A("""Those are usually the lines people remember. Enjoy Saturday, and good luck."""),
)

SESSIONS.add(
    "wedding-02", "2025-05-06 09:30",
    U("""back from Kraków. the wedding was amazing, the speech went down well (the rope line got a round of applause, and my mother laughed at the vet one, so I live). the poprawiny on sunday nearly killed me.

ok, work. Amara says we made the hire: Marta Silva accepted the security engineer offer, she starts on June 2. she's coming from an AWS partner consultancy. can you help me put together a 30-60-90 for her onboarding?"""),
    A("""Glad it all went well, and congratulations on the hire. A 30-60-90 for Marta, given she's coming from consulting (strong on AWS breadth, probably less used to owning one environment long term):

**First 30 days: learn Quillpay**
- Accounts and access on day one (test your own joiner process while you're at it).
- Walk through the architecture with you: the payouts flow, card-vault and its account, PrivateLink, the cluster.
- Read the threat model, the PCI remediation plan and the last incident review.
- Shadow bug bounty triage for two weeks, then triage with you reviewing.
- First deliverable: review the IAM roles in the core account against Access Analyzer findings and propose removals.

**Days 31-60: own something**
- Take over Datadog Cloud SIEM detections: review every rule, tune noise, add detections for the top risks in the threat model.
- Join the on-call rota for security.
- Pair with you on the webhook egress service.

**Days 61-90: lead something**
- Run the next quarterly access review end to end.
- Own one project of her own choosing from the roadmap.
- Present one thing she's built to the engineering team.

A buddy outside security (an engineer on the payouts team) helps a lot in the first month."""),
    U("""good, I'll be her buddy for security stuff and ask siobhan to be her engineering buddy"""),
)

SESSIONS.add(
    "vault-02", "2025-05-13 14:20",
    U("""following the incident review, Amara and I tightened the Vault database roles. max_ttl for dynamic Postgres creds is now 8h instead of 24h, default_ttl stays at 1h. anything that breaks when you drop max_ttl like that?

also seeing this in the vault audit log since the change, is it bad?

{"time":"2025-05-13T11:02:47.112Z","type":"response","auth":{"display_name":"kubernetes-payouts-payout-worker","policies":["default","payouts-db"]},"request":{"operation":"update","path":"sys/leases/renew"},"response":{"warnings":["TTL of \\"8h\\" exceeded the effective max_ttl of \\"2h15m\\"; TTL value is capped accordingly"]}}"""),
    A("""That warning is expected and harmless. When a lease is renewed, Vault caps the new TTL at whatever is left of `max_ttl` from the lease's creation. The warning says the agent asked for more time than the lease has left (2h15m), so Vault capped it. When the lease reaches 8 hours from creation it can't be renewed and the agent fetches new credentials.

Things that can break when you shorten `max_ttl`:

- **Long-running transactions or sessions.** A migration or a report that holds a connection for more than 8 hours will be cut off when the role is revoked. Check for any batch jobs that run for hours.
- **Connection pools that don't refresh.** You fixed that with the connector last autumn, but check any other service using dynamic credentials.
- **More load on Vault and Postgres.** Three times as many role creations and revocations a day. At your scale that's negligible.
- **Revocation failures.** If Vault can't drop a role because it still owns objects or has active sessions, you'll see revocation errors and orphaned roles. Make sure the revocation statements terminate sessions first: `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{{name}}';` before `DROP ROLE`.

So: watch the revocation errors for a week and check for long-running jobs."""),
    U("""there's one nightly reconciliation job that runs ~3h. well under 8h. revocation statements already terminate sessions. so we're good"""),
    A("""Then you're fine. Add an alert on Vault revocation failures in Datadog anyway; it's the signal that something started holding connections too long."""),
)

SESSIONS.add(
    "perf-01", "2025-05-20 17:10",
    U("""had my review with Amara today. I'm being promoted to Senior Security Engineer from June 1! she specifically called out the PCI work, the incident response in March and the OSWE.

she asked me to write my own goals for the next six months. I'm thinking: ship the webhook egress service, get SOC 2 Type II report out clean, mentor Marta, and start a secure code review program for the payouts team. too much?"""),
    A("""Congratulations, that's well earned, and it's a good sign that Amara named specific things.

On the goals: the list is good, but it mixes different kinds of work, and six months goes quickly. Some suggestions:

1. **Webhook egress service.** Concrete and yours. Keep it, with a date (e.g. in production by end of August).
2. **SOC 2 Type II report clean.** The window ends June 30 and the audit runs over the summer, so a lot of this is out of your hands. Rephrase as something you control: "zero control exceptions caused by missed security tasks in the window" and "all auditor requests answered within 3 working days".
3. **Mentor Marta.** Good, but mentoring goals need a measurable outcome, e.g. "Marta owns SIEM detections and leads the Q3 access review".
4. **Secure code review programme.** This is the one a senior title is for: it changes how the team works. Define the first step small: "review every PR that touches auth, payouts or card-vault for one team, with a checklist, and measure what it finds".

Four goals is fine if one of them is explicitly smaller. I'd say 2 is the one to keep light, since its outcome depends on others."""),
    U("""reworded 2 like you said. thanks!"""),
)

SESSIONS.add(
    "pci-05", "2025-05-28 11:00",
    U("""ROC signed! Halden signed it off yesterday, three days before the deadline, and we have the AOC. First ROC for Quillpay done, 0 open findings.

want to write a short internal announcement for #general, thanking people. keep it short and not cringe pls"""),
    A("""Congratulations. That's a big milestone for a company your size. A short one:

---

Quillpay is now PCI DSS 4.0 compliant as a Level 1 service provider. Our QSA, Halden Assurance, signed our Report on Compliance yesterday, with no open findings.

This was a company effort. Thank you to the platform team for moving card-vault into its own account, to everyone who fixed pentest and bug bounty findings quickly, to support for reworking the key revocation process, and to everyone who answered "can you send me evidence of..." messages with patience.

What it means: we can tell customers and partners that we meet the card industry's security standard, which several deals were waiting on.

What's next: keeping it. PCI is a yearly assessment, and SOC 2 Type II is already underway. Thank you all.

---

Keep the thank-yous to teams rather than individuals in a public post, and thank individuals directly in DMs; it avoids the "you forgot me" problem."""),
    U("""posted. 40 party emojis in 5 minutes"""),
    A("""The correct unit of success for a compliance announcement. Well done."""),
)

SESSIONS.add(
    "cli-01", "2024-09-19 16:05",
    U("""jq question. cloudtrail events in a file, one json object per line. want eventName + sourceIPAddress + userIdentity.arn for everything where errorCode is AccessDenied"""),
    A("""```
jq -r 'select(.errorCode == "AccessDenied") | [.eventName, .sourceIPAddress, .userIdentity.arn] | @tsv' events.jsonl
```

`-r` with `@tsv` gives tab-separated lines, which pipe nicely into `sort | uniq -c`."""),
    U("""some lines have errorCode "Client.UnauthorizedOperation" too, want both"""),
    A("""```
jq -r 'select(.errorCode == "AccessDenied" or .errorCode == "Client.UnauthorizedOperation") | [.eventName, .sourceIPAddress, .userIdentity.arn] | @tsv' events.jsonl
```

Or, to catch every variant of denied: `select(.errorCode // "" | test("AccessDenied|Unauthorized"))`."""),
    U("""perfect. now count per arn, top 10"""),
    A("""```
jq -r 'select(.errorCode // "" | test("AccessDenied|Unauthorized")) | .userIdentity.arn' events.jsonl | sort | uniq -c | sort -rn | head -10
```"""),
    U("""   4112 arn:aws:sts::482913370551:assumed-role/datadog-integration/datadog
    318 arn:aws:sts::482913370551:assumed-role/payout-worker/1726751033
     41 arn:aws:iam::482913370551:user/ronan
      9 arn:aws:sts::482913370551:assumed-role/github-deploy/GitHubActions

ronan's user is still active?? he left"""),
    A("""Two things stand out:

- `user/ronan` making 41 denied calls means someone is using a departed employee's IAM user credentials. Could be a script or a service that was given his keys, or it could be something worse. Check `sourceIPAddress` and `userAgent` on those 41 events right away, then deactivate his access keys. If it's a forgotten script, it'll break and someone will shout, which tells you where it lives.
- The 4,112 from the Datadog integration role are almost certainly the integration trying to read services it has no permission for. Noisy but harmless; add the missing read-only permissions or turn off those integrations in Datadog so the noise doesn't hide real denials."""),
    U("""source ip is an EC2 instance in the old staging vpc. a cron box. ok, deactivating and finding the owner"""),
    A("""Good. When you find it, give the cron job its own role (instance profile) instead of user keys, and add "IAM users of leavers" to the offboarding checklist."""),
)

SESSIONS.add(
    "tf-01", "2024-10-10 12:30",
    U("""terraform plan wants to destroy and recreate our prod RDS instance because I changed the KMS key. I want to enable encryption with a customer managed key instead of the default aws/rds key. obviously not going to apply this

  # aws_db_instance.payouts must be replaced
-/+ resource "aws_db_instance" "payouts" {
      ~ kms_key_id = "arn:aws:kms:eu-west-1:482913370551:key/aws-rds-default" -> "arn:aws:kms:eu-west-1:482913370551:key/3b7e9c51-..." # forces replacement
        # (41 unchanged attributes hidden)
    }

Plan: 1 to add, 0 to change, 1 to destroy."""),
    A("""Right, don't apply that. You can't change the KMS key of an existing RDS instance in place; AWS requires a new instance. The usual zero-data-loss route:

1. Take a snapshot of the instance.
2. Copy the snapshot, re-encrypting with the new customer managed key: `aws rds copy-db-snapshot --kms-key-id <new key> ...`.
3. Restore a new instance from the copied snapshot.
4. Cut over: for a busy database, use logical replication from old to new to shrink the downtime to the final switch, or accept a maintenance window if the data is small enough to snapshot and restore quickly.
5. Import the new instance into Terraform state (`terraform import` or an `import` block) and remove the old one.

How big is the database and how much downtime can you take?"""),
    U("""~300GB. we can take maybe 20 min on a sunday night"""),
    A("""300GB won't snapshot, copy and restore in 20 minutes, so do it with logical replication:

- Restore the re-encrypted snapshot ahead of time (days before).
- Set up logical replication from the old instance to the new one to catch up on changes since the snapshot (use a publication on the old, subscription on the new, and start from the snapshot's LSN, or re-sync the large tables).
- In the window: stop writes, wait for replication lag to hit zero, fix sequences (logical replication doesn't copy them), point the apps at the new endpoint.

Rehearse it on staging first. The sequences step is the one people forget, and you only notice when inserts start failing on duplicate keys."""),
    U("""ok. parking it until after the scoping workshop, it's not urgent enough to rush"""),
)

SESSIONS.add(
    "policy-01", "2024-11-25 10:40",
    U("""Hello! Could you please help me draft our incident response policy? It needs to satisfy PCI 12.10 and SOC 2, but I'd really like it to be something people actually read. Ideally no more than two pages."""),
    A("""Of course. Here's a two-page draft. The trick with incident response policies is to keep the policy short and stable, and put the changing detail (contacts, tools, steps) in a runbook the policy points to.

**Quillpay Incident Response Policy**

*Purpose.* To make sure security incidents are detected, contained and resolved quickly, and that customers, partners and regulators are told when they need to be.

*Scope.* All systems, data and people at Quillpay, including contractors and third parties operating on our behalf.

*What is an incident.* Any event that affects, or could affect, the confidentiality, integrity or availability of Quillpay's systems or data, including suspected events. If in doubt, report it.

*How to report.* Post in #security-incident or page the security on-call through PagerDuty. Never wait to be sure.

*Severity.*
- SEV1: cardholder data or funds affected or at immediate risk; production down.
- SEV2: confirmed compromise of an account, system or secret without known data loss.
- SEV3: suspected incident, contained weakness, or policy violation.

*Roles.* Incident lead (security on-call), communications lead, scribe. The incident lead can pull in anyone needed.

*Response steps.* Detect, triage, contain, eradicate, recover, review, following the runbook at `runbooks/incident-response.md`.

*Notification.* Card brands and acquirers for any suspected compromise of cardholder data, as our agreements require; the Data Protection Commission within 72 hours for personal data breaches meeting GDPR's threshold; affected customers without undue delay.

*Review.* Every SEV1 and SEV2 gets a blameless post-incident review within 10 working days. The plan is tested at least once a year with a tabletop exercise, and reviewed after each test and each SEV1.

*Ownership.* Owned by the security engineer, approved by the CTO, reviewed annually.

---

Then the runbook holds the contact list, the PagerDuty schedule, evidence preservation steps and the communication templates."""),
    U("""This is great, thank you. Could you also give me three tabletop scenarios for the annual test? Ideally relevant to a payouts company."""),
    A("""Certainly:

1. **Leaked merchant API key used to send payouts.** A marketplace's live secret key appears on a paste site; two hours later, payouts to new recipients start. Tests: detection, key revocation, stopping payouts in flight, contacting the bank partner, customer communication.
2. **Compromised engineer laptop.** An engineer's laptop has malware that stole their browser session cookies, including GitHub and AWS SSO. Tests: session revocation across tools, checking for persistence in AWS and GitHub, deciding what "contained" means.
3. **Card-vault anomaly.** Monitoring shows card-vault decrypting far more tokens than payouts justify over a weekend. Tests: PCI-specific steps, forensics on the CDE, whether to notify the card brands before you're sure, and who decides.

Run each for 90 minutes with engineering leads, support and Declan. The third one is the one that will find the most gaps."""),
    U("""Wonderful, thank you so much."""),
)

SESSIONS.add(
    "gpg-01", "2024-12-12 15:55",
    U("""we now require signed commits on main (branch protection turned on monday). half the team is hitting this:

$ git commit -m "fix payout rounding"
error: gpg failed to sign the data
fatal: failed to write commit object

any quick fix I can post in slack?"""),
    A("""The quickest fix for most people is to skip GPG entirely and sign with their SSH key, which GitHub supports and which everyone already has:

```
git config --global gpg.format ssh
git config --global user.signingkey ~/.ssh/id_ed25519.pub
git config --global commit.gpgsign true
```

Then each person adds the same public key on GitHub as a **Signing key** (Settings, SSH and GPG keys, New SSH key, key type "Signing Key"). It's a separate entry from the authentication key even if it's the same key.

For people who want to keep GPG, the usual cause of that error on macOS is that gpg can't prompt for the passphrase:

```
export GPG_TTY=$(tty)
```

in their shell profile, or install `pinentry-mac` and set `pinentry-program` in `~/.gnupg/gpg-agent.conf`."""),
    U("""posting the ssh one. what about commits made through the github web UI, those are signed by github right"""),
    A("""Yes, commits made in the web UI (and merges done by GitHub, like squash merges) are signed with GitHub's own key and show as Verified, so they pass branch protection. The same applies to commits made by GitHub Apps through the API. Bots that push with a plain token from CI won't be signed, though, so check your release automation."""),
    U("""release bot uses a PAT. ugh. will move it to a github app"""),
    A("""That's a better setup anyway: GitHub App tokens are short-lived and scoped to the repos you install it on, while a PAT is usually tied to a person and outlives their interest in it."""),
)

SESSIONS.add(
    "rls-01", "2025-01-23 11:30",
    U("""testing postgres RLS on payouts in staging like we discussed after the IDOR. the policy:

CREATE POLICY tenant_isolation ON payouts
  USING (merchant_id = current_setting('app.merchant_id')::uuid);

explain analyze for our most common query, before and after:

-- before (RLS off)
 Index Scan using payouts_merchant_created_idx on payouts  (cost=0.56..412.30 rows=100 width=212) (actual time=0.041..0.388 rows=100 loops=1)
   Index Cond: (merchant_id = 'e1c4...'::uuid)
 Planning Time: 0.190 ms
 Execution Time: 0.421 ms

-- after (RLS on, same query)
 Index Scan using payouts_merchant_created_idx on payouts  (cost=0.56..415.81 rows=100 width=212) (actual time=0.052..0.402 rows=100 loops=1)
   Index Cond: (merchant_id = 'e1c4...'::uuid)
   Filter: (merchant_id = (current_setting('app.merchant_id'::text))::uuid)
 Planning Time: 0.231 ms
 Execution Time: 0.437 ms

so basically free?"""),
    A("""Yes, for this query it's basically free: the policy adds a filter evaluated on rows the index already selected, 0.016 ms of execution time. That's the expected result when the query already filters by tenant.

The places to look before rolling it out:

- **Queries that don't filter by merchant today** (reports, admin views, the reconciliation job). With RLS, they'll either return nothing or need a role that bypasses RLS. Use a separate database role with `BYPASSRLS` for those jobs, and keep it off the API.
- **`current_setting` when it's not set.** If a connection doesn't set `app.merchant_id`, `current_setting('app.merchant_id')` throws an error. That's actually what you want (fail closed), but make sure it's set with `SET LOCAL` inside each transaction, not `SET`, or a pooled connection will carry one merchant's setting into another request.
- **The table owner bypasses RLS** unless you `ALTER TABLE payouts FORCE ROW LEVEL SECURITY`. If your app connects as the owner (common with migrations), RLS does nothing without `FORCE`."""),
    U("""the app connects as the owner. lol. ok FORCE it is, and SET LOCAL in the tx helper"""),
    A("""Good thing you checked. Also add a test that opens a transaction without setting `app.merchant_id` and asserts the query errors, so nobody "fixes" that behaviour later by giving the setting a default."""),
    U("""done, rolling to prod next tuesday"""),
)

SESSIONS.add(
    "tabletop-01", "2025-02-13 16:20",
    U("""ran the first tabletop today, the card-vault anomaly scenario from the policy. Amara facilitated. biggest gap: nobody knew who can actually freeze card-vault (stop all decryption) at 3am, and the answer turned out to be "only Declan, via a manual scale-to-zero". second gap: support didn't know what they're allowed to tell merchants.

how do I turn this into actions without a 40 item list nobody does"""),
    A("""Keep it to the gaps that would have hurt in a real incident, and give each a single owner and a date. From what you describe, three actions cover it:

1. **A freeze switch for card-vault.** A documented, tested way for the security on-call to stop all decryption in under five minutes, without needing Declan: e.g. a feature flag that makes card-vault reject decrypt calls, or a runbook with a pre-approved `kubectl scale` and the RBAC for on-call to run it. Owner: you. Test it in staging within a month.
2. **Holding statements for support.** Two or three pre-approved messages (investigating, confirmed issue, resolved) that support can send without asking, plus one rule: no details about cause until the incident lead says so. Owner: support lead with Amara.
3. **On-call contact sheet** with who can approve what at night. Owner: Amara.

Everything else from the session goes into a "noted" section of the write-up. If it comes up again in the next exercise, it gets promoted to an action."""),
    U("""ok do it, write me the actions section for the write-up"""),
    A("""**Actions from the card-vault tabletop, 13 February 2025**

| # | Action | Owner | Due |
|---|---|---|---|
| 1 | Add a decrypt freeze flag to card-vault that the security on-call can set; runbook and staging test | Security engineer | 14 March |
| 2 | Write three holding statements for support and agree the "no cause details" rule | Support lead, Amara | 28 February |
| 3 | On-call contact sheet with night-time approvals (freeze, key revocation, merchant suspension) | Amara | 28 February |

*Noted, not actioned:* the alert for unusual decryption volume fires to email only; scenario assumed PagerDuty works during an AWS region issue; merchant list export is manual.

*Next exercise:* leaked merchant API key scenario, May 2025."""),
)

SESSIONS.add(
    "mdm-01", "2025-03-14 13:10",
    U("""btw we finally have MDM. we went with Kandji for the macs (everyone's on macOS except two linux people in platform). picked Kandji over Jamf because it's simpler and has the CIS benchmark profiles built in, and we don't have anyone to run Jamf.

the linux laptops are the open question. the SOC 2 auditor wants evidence of disk encryption, screen lock and patching for every laptop. any lightweight option?"""),
    A("""Kandji is a good fit for a small Mac fleet for exactly those reasons. For two Linux laptops, a full MDM is overkill. Options, lightest first:

1. **Osquery plus a scheduled report.** Install osquery on both, with queries for LUKS status (`SELECT * FROM disk_encryption`), screen lock settings (via the GNOME `gsettings` table or a small script), and package update status. Ship results to Datadog, which you already have. The auditor gets a dashboard.
2. **Fleet (fleetdm.com)**, which is osquery with a management UI and built-in policies for disk encryption and OS updates. Free self-hosted or cheap hosted; overkill for two devices, fine if the Linux count grows.
3. **A quarterly manual attestation**: a script each person runs that outputs `lsblk -f`, `gsettings get org.gnome.desktop.session idle-delay`, and `apt list --upgradable`, committed to a private repo. Auditors accept this for a small number of exceptions if it's documented and done on schedule.

For two devices I'd do option 3 now, documented as an exception in your asset management policy, and move to Fleet if the Linux population goes above five."""),
    U("""option 3. writing the script now"""),
    A("""Make the script print the hostname, serial number and date at the top, so each output is self-identifying evidence. And save the outputs where Vanta can link to them."""),
)

SESSIONS.add(
    "h1-01", "2025-04-25 10:05",
    U("""exported all our hackerone reports to csv to make charts for the board. loaded it in a notebook:

In [3]: df.groupby("severity")["bounty_eur"].agg(["count", "sum"])
Out[3]:
          count     sum
severity
critical      1  3000.0
high          4  4800.0
medium        9  3600.0
low          17  1700.0
none         58     0.0

In [4]: df["created_at"].min(), df["created_at"].max()
Out[4]: (Timestamp('2024-10-21 08:14:00'), Timestamp('2025-04-24 19:52:00'))

the critical shows 3000 but we paid the SSRF at the new rate I think? also how do I get time-to-triage median in days"""),
    A("""Let me check the first point: the SSRF was reported on 4 March, before the new payout table took effect (you went public with €5,000 critical on 17 March). If it was paid under the old table, 3,000 is correct. If you chose to pay it at the new rate as a goodwill gesture, the CSV's `bounty_eur` should say 5,000; HackerOne exports the amount actually awarded, so check the report's bounty in the UI. A bonus paid separately shows up as a second row or in a `bonus_eur` column.

For median time to triage, assuming columns `created_at` and `triaged_at`:

```python
df["triage_days"] = (df["triaged_at"] - df["created_at"]).dt.total_seconds() / 86400
df.groupby("severity")["triage_days"].median().round(1)
```

and overall: `df["triage_days"].median()`. Use the median rather than the mean, since a few reports that sat over Christmas will drag the mean up.

For the board, three charts work well: valid reports per month by severity (stacked bars), spend per month against budget, and median time to triage per month. Total spend so far from your table is €13,100 of the €30,000 budget."""),
    U("""checked: paid 3000, old table. Amara decided the new table starts with reports created after the 17th. triage median is 1.6 days overall"""),
    A("""1.6 days is good, and well within the 2-day target you set at launch. That's worth a line on the slide."""),
    U("""ok thanks, board deck done"""),
)

SESSIONS.add(
    "apikeys-01", "2025-05-16 15:00",
    U("""after the march incident we want restricted API keys: a merchant can create a key that can only read balances, or only create payouts up to a limit, etc. I'd like your view on the data model before I write the design doc. thinking: key has a list of permission strings like "payouts:write", "balance:read", plus optional constraints json"""),
    A("""That's a sensible starting point, and close to how several payment APIs do it. Some suggestions to make it safer and easier to reason about:

**Permissions**
- Use `resource:action` strings, with a fixed, documented list. Reject unknown strings at key creation rather than ignoring them.
- Default deny: a new restricted key has no permissions until you add them. Keep the existing unrestricted "secret key" as a separate type so current integrations don't change.
- Separate `payouts:write` (create) from `payouts:cancel`; cancellation is often what an attacker with a stolen key would want least, and what an operations tool needs most.

**Constraints**
- Rather than free-form JSON, a small typed set: `max_amount_per_payout`, `max_amount_per_day`, `allowed_currencies`, `allowed_ips`, `expires_at`. Free-form JSON tends to become a second permission language that nobody validates.
- Enforce constraints in one place (the authorisation layer), not in each handler.

**Storage**
- Store only a hash of the key (as you presumably do already), plus a prefix for display and leak detection: `rk_live_` for restricted keys, so GitHub's secret scanning can tell them apart.

**Audit**
- Log every key creation and permission change with who did it. A merchant's admin making a key with more permissions is exactly the event you want to see in the SIEM."""),
    U("""typed constraints, yes. and rk_live_ prefix, I'll register it with github's partner program too"""),
    A("""Good. Registration takes a few weeks, so start it now; GitHub needs a regex for the key format and an endpoint to receive the alerts, which you already have from the March incident."""),
)

SESSIONS.add(
    "go-01", "2024-11-14 07:50",
    U("""at the airport, quick one before boarding. test failing after I added constant time compare for the api key check:

--- FAIL: TestAuthenticate/valid_key (0.00s)
    auth_test.go:48: got 401, want 200
FAIL
exit status 1
FAIL	github.com/quillpay/payouts-core/internal/auth	0.012s

code:
    if subtle.ConstantTimeCompare([]byte(presented), stored.Hash) != 1 {"""),
    A("""You're comparing the presented key (plain text) with the stored hash, so they never match. Hash the presented key first, with the same function you used when storing it, then compare the two hashes:

```go
sum := sha256.Sum256([]byte(presented))
if subtle.ConstantTimeCompare(sum[:], stored.Hash) != 1 {
    return ErrUnauthorized
}
```

`ConstantTimeCompare` also returns 0 immediately if the lengths differ, which is fine here since both are 32-byte SHA-256 sums."""),
    U("""ugh yes. passes. boarding, bye"""),
    A("""Have a good trip."""),
)

SESSIONS.add(
    "gd-01", "2025-01-10 08:30",
    U("""GuardDuty finding overnight, is this bad?

{
  "Type": "UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS",
  "Severity": 8,
  "Resource": {"AccessKeyDetails": {"AccessKeyId": "ASIAXB2...", "PrincipalId": "AROAXB2...:i-0a7c31e9d2b44f015", "UserName": "eks-node-group-general"}},
  "Service": {"Action": {"AwsApiCallAction": {"Api": "DescribeInstances", "CallerType": "Remote IP", "RemoteIpDetails": {"IpAddressV4": "86.44.112.9", "Organization": {"Asn": "6830", "AsnOrg": "Liberty Global B.V."}}}}, "Count": 3}
}"""),
    A("""Severity 8 and the finding type both mean: credentials belonging to an EC2 instance (here, an EKS node's role) were used from an IP outside AWS. That should never happen in normal operation, so treat it as a possible incident until you've explained it.

Let me go through it:

- **The IP**: 86.44.112.9, ASN 6830 (Liberty Global, which owns Virgin Media Ireland). That's a residential broadband connection in Ireland. Likely explanations: an engineer copied node credentials to their laptop while debugging (e.g. ran `curl 169.254.169.254/...` from a pod and used the result locally), or a pod was compromised and the credentials were taken.
- **The API**: three `DescribeInstances` calls, which is reconnaissance or debugging, not damage.

Steps:
1. Ask in the engineering channel whether anyone was debugging node credentials last night from home. If someone on Virgin Media says yes, it's a policy issue, not a compromise.
2. Regardless, revoke the node role's active sessions and cycle the node group so every node gets fresh credentials.
3. Check CloudTrail for everything that access key ID did, not just the three calls GuardDuty flagged.
4. Block pods from reaching the node's instance metadata: IMDSv2 with hop limit 1 stops pods (one network hop away) from fetching node credentials at all. Pods should use IRSA for their own credentials."""),
    U("""it was siobhan, debugging the autoscaler from home. she's mortified. doing the hop limit today"""),
    A("""Then it's a good outcome: GuardDuty worked, and the hop limit fixes the underlying exposure. Worth a short friendly note in #eng explaining why node credentials must never leave AWS, without naming anyone."""),
)

SESSIONS.add(
    "stag-01", "2025-03-03 21:05",
    U("""stag do question. kieran doesn't want anything wild. 10 lads, one weekend, probably in galway now that I live here. he climbs a bit (that's how he met zofia). ideas?"""),
    A("""Galway is a great base for a low-key stag, and the climbing angle gives you an easy theme:

**Saturday**
- Morning: a guided outdoor climbing or bouldering session in the Burren (an hour south). Several guiding companies take mixed-ability groups, and it gives Kieran something he actually enjoys.
- Afternoon: lunch in a pub in Ballyvaughan or Doolin, then back to Galway.
- Evening: dinner somewhere with a private room (book early for 10), then trad music in a pub in the Latin Quarter.

**Sunday**
- Late breakfast, sea swim at Blackrock in Salthill for the brave, then everyone heads home.

**Practical**
- Book accommodation near Eyre Square so nobody needs taxis.
- Collect money up front: a shared kitty for dinner and the guide avoids awkward maths on Sunday.
- Check the tide and weather for the Burren day and have an indoor wall as backup."""),
    U("""the burren + blackrock swim is great. booking for the 5th of april"""),
    A("""Good choice of date, before the wedding rush. Book the guide this week; spring weekends fill up."""),
)

SESSIONS.add(
    "sso-01", "2025-04-18 11:45",
    U("""Quick note: we moved AWS access to IAM Identity Center with Google Workspace as the IdP last week, no more IAM users for humans at all. 0 IAM users left except two break-glass ones in a safe.

question: how do I prove to the SOC 2 auditor that the break-glass users are never used except in emergencies"""),
    A("""Nice, that's a big cleanup. For break-glass accounts, auditors want to see three things: they're protected, their use is detected, and any use is reviewed.

1. **Protected**: hardware MFA on each, credentials sealed (physical safe or a password manager vault that requires two people), and who has access to the safe documented.
2. **Detected**: a Datadog Cloud SIEM rule (or a CloudTrail plus EventBridge rule) that fires a high-severity signal on any `ConsoleLogin` or API call by those two users, paging the security on-call. Test it once and keep the test signal as evidence.
3. **Reviewed**: a quarterly check that the users weren't used (CloudTrail query showing zero events, or the incident ticket for each use), signed off by Amara.

Add one more: after any use, rotate the password and MFA, and reseal. That shows the auditor the credentials can't be quietly reused."""),
    U("""the siem rule exists, I'll do a test login this afternoon and screenshot the signal"""),
    A("""Good. Do the test with someone watching and note it in the quarterly review too; an unexplained test login six months from now would look exactly like misuse."""),
)

# (suffix, kind, question, answer, {supporting session: phrases marking its answering turns})
QUESTIONS: list[Question] = [
    ("ssu-01", "single-session-user", "Which firm is Quillpay's QSA for its PCI DSS assessment?",
     "Halden Assurance (lead assessor Gráinne).", {"pci-01": ["Halden Assurance"]}),
    ("ssu-02", "single-session-user", "Why did the user choose Kyverno over Pod Security Admission?",
     "They needed to mutate pods (add the default seccomp profile) and to allowlist image registries, which PSA "
     "can't do.", {"k8s-01": ["went with Kyverno in the end"]}),
    ("ssu-03", "single-session-user",
     "In the first phishing simulation, how many people submitted credentials and how many reported the email?",
     "3 submitted credentials and 12 reported it, out of 41 recipients.", {"phish-01": ["Submitted data:   3"]}),
    ("ssu-04", "single-session-user", "At which climbing gym did the user boulder while living in Dublin?",
     "Gravity Lab in Dublin 8.", {"climb-01": ["Gravity Lab"]}),
    ("ssu-05", "single-session-user", "What was the high-severity finding in Blackthorn Security's pentest?",
     "SQL injection through the sort parameter of the dashboard's reporting export (BTS-2024-017, CVSS 8.1).",
     {"sqli-01": ["BTS-2024-017  SQL Injection"]}),
    ("ssu-06", "single-session-user", "Why did Quillpay pick Kandji for its Macs?",
     "It is simpler than Jamf, has the CIS benchmark profiles built in, and nobody was available to run Jamf.",
     {"mdm-01": ["picked Kandji over Jamf"]}),
    ("ssu-07", "single-session-user", "Who caused the GuardDuty credential exfiltration finding in January, and how?",
     "Siobhan, who used an EKS node's credentials from home while debugging the autoscaler.",
     {"gd-01": ["it was siobhan"]}),
    ("ssa-01", "single-session-assistant",
     "In the payouts API threat model, how did the assistant recommend scoping and keeping idempotency keys?",
     "Scoped per merchant and kept for 24 hours, returning the stored response for a repeat and a 409 for the same "
     "key with a different body.", {"threat-01": ["idempotency keys scoped per merchant and kept for 24 hours"]}),
    ("ssa-02", "single-session-assistant",
     "What timestamp tolerance did the assistant recommend for verifying webhook signatures?",
     "5 minutes.", {"webhooks-01": ["more than **5 minutes**"]}),
    ("ssa-03", "single-session-assistant",
     "Which command did the assistant suggest for removing the leaked AWS secret from git history?",
     "git filter-repo --replace-text replacements.txt", {"secrets-01": ["git filter-repo --replace-text"]}),
    ("ssa-04", "single-session-assistant",
     "What thresholds did the assistant suggest for the dashboard brute-force detection rule?",
     "20 failures from one IP in 5 minutes for a single account, and more than 5 distinct users from one IP in 5 "
     "minutes for credential stuffing.", {"siem-03": ["**20 failures from one IP in 5 minutes**"]}),
    ("ssa-05", "single-session-assistant",
     "What did the assistant suggest instead of VPC peering to connect the card-vault account?",
     "AWS PrivateLink: card-vault behind a Network Load Balancer as a VPC endpoint service, with an interface "
     "endpoint in the core account.", {"account-01": ["**AWS PrivateLink** is a better fit"]}),
    ("ssa-06", "single-session-assistant",
     "Which TLS setting did the assistant say card-vault needed for the mTLS handshake to work?",
     "tls.Config.ClientCAs, set to a pool holding the internal CA (with RequireAndVerifyClientCert).",
     {"tls-01": ["controlled by `tls.Config.ClientCAs`"]}),
    ("ms-01", "multi-session",
     "Which two bug bounty findings did the user describe, and how much was paid for each?",
     "An IDOR on GET /v1/payouts/{id}, paid as a high (€1,200), and an SSRF in webhook URL validation, paid as a "
     "critical at the old rate (€3,000).",
     {"bounty-02": ["IDOR on GET /v1/payouts/{id}"], "bounty-03": ["SSRF in the webhook URL validation"],
      "h1-01": ["paid 3000, old table"]}),
    ("ms-02", "multi-session", "How many times did the user sit the OSWE exam, and what did they score each time?",
     "Twice: 70 points (a fail, 85 needed) in January and 100 points (a pass) in March.",
     {"oswe-02": ["so 70 points, need 85"], "oswe-03": ["100 points"]}),
    ("ms-03", "multi-session", "Which audit firms does Quillpay work with for PCI DSS and for SOC 2?",
     "Halden Assurance for PCI DSS and Kessler & Moore for SOC 2.",
     {"pci-01": ["Halden Assurance"], "soc2-01": ["Kessler & Moore"]}),
    ("ms-04", "multi-session", "At which climbing gyms has the user climbed?",
     "Gravity Lab in Dublin 8, and Cliffhanger Galway after the move.",
     {"climb-01": ["Gravity Lab"], "climb-03": ["Cliffhanger Galway"]}),
    ("ms-05", "multi-session", "How many people will be on Quillpay's security team once the new hire starts?",
     "Three: the user, Amara Okafor (Head of Security) and Marta Silva (starting June 2).",
     {"intro-01": ["first (and only) security engineer"], "manager-01": ["Amara Okafor"],
      "wedding-02": ["Marta Silva accepted"]}),
    ("ms-06", "multi-session", "Which security scanners run in Quillpay's CI?",
     "TruffleHog for secrets, Trivy for container images (failing on critical) and govulncheck for Go "
     "dependencies.",
     {"secrets-02": ["in pre-commit and in CI"], "trivy-01": ["failing on critical only, agreed"],
      "dep-01": ["added it to the CI workflow"]}),
    ("ms-07", "multi-session", "Which cities abroad did the user travel to, and why?",
     "Lisbon in November 2024 on holiday with Aoife, and Kraków in May 2025 for their brother Kieran's wedding.",
     {"trip-01": ["Going on holiday to Lisbon"], "wedding-01": ["wedding is this saturday in Kraków"]}),
    ("ms-08", "multi-session", "Which leaked credentials did the user have to deal with?",
     "An old AWS secret key in payouts-core's git history (already inactive) and a marketplace's live API key "
     "pushed to a public GitHub repo, revoked after 33 minutes.",
     {"secrets-01": ["Finding:     aws_secret_access_key"],
      "incident-01": ["a live key `sk_live_4f...` was pushed to a public repo"]}),
    ("ku-01", "knowledge-update", "When was Halden's onsite PCI assessment?",
     "7 April 2025 (7-9 April); it had been planned for 10 March.",
     {"pci-01": ["planned for March 10, 2025"], "pci-02": ["now it's April 7, 2025"],
      "pci-04": ["Onsite with Halden done"]}),
    ("ku-02", "knowledge-update", "How much does Quillpay's bug bounty pay for a critical finding?",
     "€5,000 (raised from €3,000, for reports after 17 March 2025).",
     {"bounty-01": ["critical: €3,000"], "bounty-03": ["raise the critical payout from €3,000 to €5,000"]}),
    ("ku-03", "knowledge-update", "Who does the user report to?",
     "Amara Okafor, the Head of Security (before her, Declan Byrne, the CTO).",
     {"intro-01": ["I report to Declan Byrne"], "manager-01": ["I'll report to her instead of Declan"]}),
    ("ku-04", "knowledge-update", "Where does the user live?",
     "Salthill in Galway (they moved from Phibsborough, Dublin, in February 2025).",
     {"move-01": ["we're leaving Dublin"], "move-02": ["Moved into the Salthill place"]}),
    ("ku-05", "knowledge-update", "Which SIEM does Quillpay use for security logs?",
     "Datadog Cloud SIEM, which replaced the self-hosted ELK stack.",
     {"siem-01": ["our logging is self-hosted ELK"], "siem-02": ["moving security logging to Datadog Cloud SIEM"]}),
    ("ku-06", "knowledge-update", "Which secret scanner does Quillpay use?",
     "TruffleHog, in pre-commit and CI (it replaced gitleaks).",
     {"secrets-01": ["we're keeping gitleaks as the scanner"], "secrets-02": ["we replaced gitleaks with TruffleHog"]}),
    ("ku-07", "knowledge-update", "What is the max_ttl of Vault's dynamic Postgres credentials?",
     "8 hours (it was 24 hours; default_ttl stays 1 hour).",
     {"vault-01": ["max_ttl = 24h"], "vault-02": ["max_ttl for dynamic Postgres creds is now 8h"]}),
    ("ku-08", "knowledge-update", "What is the user's job title?",
     "Senior Security Engineer from June 1, 2025 (before that, security engineer).",
     {"intro-01": ["first (and only) security engineer"], "perf-01": ["promoted to Senior Security Engineer"]}),
    ("tr-01", "temporal-reasoning",
     "How many days passed between the user's failed OSWE attempt and the retake they passed?",
     "63 days (18 January to 22 March 2025).",
     {"oswe-02": ["sat the OSWE on saturday"], "oswe-03": ["retake on saturday"]}),
    ("tr-02", "temporal-reasoning", "Which happened first: the user's move to Galway or the bug bounty going public?",
     "The move (22 February 2025); the programme went public on 17 March 2025.",
     {"move-01": ["moving day is saturday 22 feb"], "bounty-03": ["take the programme public on March 17"]}),
    ("tr-03", "temporal-reasoning", "How long was the user off climbing after the shoulder injury?",
     "About 15 weeks: injured on Sunday 1 December 2024, first session back on Saturday 15 March 2025.",
     {"climb-02": ["hurt my left shoulder on sunday"], "climb-03": ["my first session back was two weeks ago today"]}),
    ("tr-04", "temporal-reasoning", "What was the first thing the user worked on after coming back from Lisbon?",
     "Adding Trivy container scanning to the image build (20 November 2024).",
     {"trip-01": ["from the 14th to the 19th of November"], "trivy-01": ["back from holiday, refreshed"]}),
    ("tr-05", "temporal-reasoning", "How long after the user joined Quillpay was the PCI ROC signed?",
     "About nine months: joined 2 September 2024, ROC signed 27 May 2025.",
     {"intro-01": ["I started yesterday"], "pci-05": ["Halden signed it off yesterday"]}),
    ("tr-06", "temporal-reasoning", "How many days before Kieran's wedding did the user ask for help with the speech?",
     "5 days (28 April; the wedding was on Saturday 3 May 2025).",
     {"wedding-01": ["wedding is this saturday in Kraków"]}),
    ("tr-07", "temporal-reasoning",
     "Which came first: the incident with the leaked merchant API key or the user's OSWE retake?",
     "The incident (18 March 2025), four days before the retake (22 March).",
     {"incident-01": ["incident this morning"], "oswe-03": ["retake on saturday"]}),
]


if __name__ == "__main__":
    write(OUT, SESSIONS, questions(SESSIONS, QUESTIONS, name="heldout7", seed=SEED, question_date=QUESTION_DATE,
                                   others=OTHERS))
