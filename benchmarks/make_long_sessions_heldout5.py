"""Write tests/data/long_sessions_heldout5.json: hand-written developer chat for a fifth held-out draw.

The sessions below were written by hand (helper s5h) for issue 38's fifth held-out sample of FACT rows and
issue 39's held-out recall set: a data/ML engineer at a hospital-software company in Leeds, September 2024 to
April 2025 (a bed-occupancy forecast and a readmission model for NHS trusts, Airflow replaced by Prefect, pandas
by Polars and Great Expectations by pandera, feed outages, an evening course in causal inference, a new manager
after a reorg, a move from Leeds to York, parkrun and a sore knee, a nephew, two trips). This script only
assembles them into LongMemEval's format: each question's haystack is its answering sessions and four others,
chosen so that every session is in some haystack.

    python benchmarks/make_long_sessions_heldout5.py tests/data/long_sessions_heldout5.json
"""

from __future__ import annotations

import json
import random
import sys
from datetime import datetime
from pathlib import Path

QUESTION_DATE = "2025/05/06 (Tue) 10:00"
OTHERS = 4  # sessions in each haystack besides the answering ones
SEED = 5555

# A session is its date and its turns; a turn is (role, text, key), the key naming a turn a question's answer
# is in (None for the rest).
SESSIONS: dict[str, tuple[str, list[tuple[str, str, str | None]]]] = {}


def session(session_id: str, stamp: str, *turns: tuple[str, str, str | None]) -> None:
    SESSIONS[session_id] = (stamp, list(turns))


def u(text: str, key: str | None = None) -> tuple[str, str, str | None]:
    return ("user", text.strip(), key)


def a(text: str, key: str | None = None) -> tuple[str, str, str | None]:
    return ("assistant", text.strip(), key)


# --- September 2024 -------------------------------------------------------------------------------------------

session("work-01", "2024-09-09 09:40",
u("""
Hi! Some context first since this is a new project. I'm a data engineer on the Insights team at Wardline Health, we make patient-flow software for NHS hospital trusts. Right now the product runs at 3 trusts: Harrogate, Airedale and Calderdale. I've been asked to build a 7-day bed occupancy forecast per ward. We have hourly ADT (admit/discharge/transfer) events going back to 2021. Where would you start with features?
""", "trusts1"),
a("""
Nice problem, and a well-trodden one, which helps. A per-ward, 7-day-ahead occupancy forecast usually works best framed as a tabular regression on a (ward, forecast_origin, horizon) grid rather than as one time-series model per ward. Here's how I'd lay out the features:

**1. Calendar features** (cheap, strong)
- day of week, hour of day at the origin, horizon in days (1-7)
- bank holidays in England, plus the days either side (discharges drop before them, admissions spike after)
- school holidays for the trust's local authority, which matters for paediatric wards

**2. Lagged occupancy** (the backbone)
- occupancy at the origin, and at origin minus 1, 7, 14 days
- rolling 7-day mean and max occupancy
- same weekday last week / last year

**3. Flow features from ADT**
- admissions and discharges over the last 24h and 72h
- current patients by length of stay bucket (0-2 days, 3-7, 8-21, 21+): long-stay patients are the main reason a ward stays full
- transfers in from ED and from assessment units over the last 24h

**4. Ward metadata**
- bed base (and changes to it: escalation beds opened in winter are the classic trap)
- specialty, adult vs paediatric

A couple of practical warnings:
- **Leakage through discharges**: only use events with an event timestamp *and* a record-created timestamp before the forecast origin. ADT feeds often backfill discharges hours later.
- **Bed base changes**: forecast occupancy as a *count* and separately keep the bed base, otherwise a ward that grew from 24 to 28 beds looks like a demand shift.

For a first model, LightGBM on that grid with one model across all wards (ward id as a categorical) is a strong baseline. Want me to sketch the feature-building code?
"""),
u("""
yes please, we're on pandas for now. events table is adt_events(trust_id, ward_code, event_type, event_ts, created_ts, patient_key)
"""),
a("""
Here's a first cut. It builds an hourly occupancy series per ward from the events, then samples forecast origins at 08:00 each day (when bed meetings happen, so that's when a forecast is useful):

```python
import pandas as pd

def occupancy_hourly(events: pd.DataFrame) -> pd.DataFrame:
    delta = events["event_type"].map({"A01": 1, "A03": -1, "A02_IN": 1, "A02_OUT": -1}).fillna(0)
    ev = events.assign(delta=delta, hour=events["event_ts"].dt.floor("h"))
    per_hour = ev.groupby(["trust_id", "ward_code", "hour"])["delta"].sum()
    occ = per_hour.groupby(level=[0, 1]).cumsum().rename("occupancy")
    return occ.reset_index()

def origins(occ: pd.DataFrame) -> pd.DataFrame:
    at_8 = occ[occ["hour"].dt.hour == 8]
    return at_8.rename(columns={"hour": "origin", "occupancy": "occ_at_origin"})
```

Then lags are a merge on (trust_id, ward_code, origin - k days). Two caveats: the cumulative sum assumes you start from an empty ward, so seed it with a census snapshot if you have one; and filter on `created_ts <= origin` before building features for a given origin, as above.
"""),
u("""thanks, the census snapshot exists (daily midnight census table), will use that"""),
u("""
one more: should ward_code be a categorical in lightgbm or target encoded? 140 wards, some tiny (4-bed side rooms)
"""),
a("""
Native categorical is fine at 140 levels, and simpler. LightGBM's categorical handling groups levels by their gradient statistics, which works well when most levels have plenty of rows. For the tiny wards, two settings help: `min_data_per_group` (default 100) stops it from splitting off a level with few rows, and `cat_smooth` (default 10) shrinks small groups towards the mean. Target encoding adds a leakage risk you'd have to manage with out-of-fold encoding, so I'd only try it if the categorical version overfits the small wards in the backtest.
"""),
u("ok native it is"),
)

session("life-01", "2024-09-14 11:20",
u("""
not work today :) did Woodhouse Moor parkrun this morning, 27:40. first one since uni. I'd like to get under 26 minutes by Christmas. I can do 3 runs a week, any plan?
""", "parkrun1"),
a("""
27:40 on your first parkrun back is a solid starting point, and sub-26 by Christmas (about 14 weeks) is realistic: it's roughly 20 seconds per km faster (5:32/km down to 5:12/km).

A simple 3-run week:

1. **Easy run, 30-40 min**: conversational pace, around 6:15-6:45/km. Most of your fitness comes from these.
2. **Intervals**: after a 10 min warm-up, 6 x 400 m at about 4:55-5:00/km with 90 s walking/jogging between. Add one rep every two weeks up to 10.
3. **Parkrun or a tempo**: every other Saturday run parkrun hard; on the others do 15-20 min at "comfortably hard" (about 5:30/km).

Build the easy run by about 5 minutes every second week, and every fourth week cut the volume by a third. Don't chase pace on easy days. The most common way to miss this kind of goal is a niggle from doing every run too hard.
"""),
u("""
makes sense. also bought new shoes for it, Saucony Ride 17, £120 which felt steep but my old ones were 4 years old
""", "spend1"),
a("""
Not a bad investment: 4-year-old shoes have usually lost a fair bit of their cushioning, and that's a common source of shin and knee complaints when people ramp up. Rotate them in gradually, a couple of easy runs first, before using them for intervals.
"""),
u("also how do I know what pace the 400s should be if I've never done intervals"),
a("""
Use your current 5k pace as the anchor: 27:40 is about 5:32/km. 400 m reps for a 5k goal are usually run a little faster than goal 5k pace, so 4:55-5:05/km, which is about 2:00 per 400 m. If the last two reps are much slower than the first, start slower next time. The point is even reps, not fast first ones.
"""),
)

session("etl-01", "2024-09-19 14:05",
u("""
the feature build dies on the full Harrogate extract. traceback:

Traceback (most recent call last):
  File "/opt/insights/features/build.py", line 88, in <module>
    occ = occupancy_hourly(events)
  File "/opt/insights/features/build.py", line 31, in occupancy_hourly
    ev = events.assign(delta=delta, hour=events["event_ts"].dt.floor("h"))
  File "/opt/insights/.venv/lib/python3.10/site-packages/pandas/core/frame.py", line 5239, in assign
    data = self.copy(deep=None)
numpy.core._exceptions._ArrayMemoryError: Unable to allocate 3.41 GiB for an array with shape (6, 76312044) and data type object

the VM has 16GB. we run everything on Airflow 2.7 on that one VM, so I can't just throw RAM at it
"""),
a("""
The giveaway is `data type object`: 76 million rows where some columns are Python objects (strings) rather than proper dtypes. `assign` copies the whole frame, so you momentarily hold two copies of every object column.

Quick wins, in order of effort:

1. **Read with proper dtypes**: `ward_code`, `event_type` and `trust_id` as `category`, `patient_key` as `string[pyarrow]`. That alone usually shrinks a frame like this by 70-80%.
2. **Don't carry columns you don't need**: the occupancy step needs `trust_id`, `ward_code`, `event_type`, `event_ts` only.
3. **Process per trust**: occupancy is per ward, so nothing needs all trusts in memory at once.

The bigger change, if you're open to it, is Polars with its lazy API. A `scan_parquet(...).group_by(...).agg(...)` pipeline streams through the data and never materialises intermediate copies, and it's typically 5-10x faster on group-bys like this.
"""),
u("""
how much work is switching to polars realistically? it's like 1200 lines of pandas across the feature code
"""),
a("""
For feature code that's mostly group-bys, joins and rolling windows, expect a few days for 1,200 lines, not weeks. What takes time:

- **Index-based code**: Polars has no index, so anything using `.loc` with a MultiIndex, `unstack` or `groupby(level=...)` needs rewriting as explicit columns. That's usually the bulk of the work.
- **Rolling windows**: `rolling(on="hour", by=...)` in pandas becomes `rolling(index_column="hour", period="7d", group_by=...)` (or `group_by_dynamic`). Semantics around closed windows differ slightly, so test against the pandas output.
- **Timezones**: Polars is strict about tz-aware vs naive datetimes. ADT timestamps are a common source of mixed data, so check that early.

I'd port one module at a time, keep the pandas version, and compare outputs with `polars.testing.assert_frame_equal` on a week of data.
"""),
u("ok. start with the per-trust dtype fix today, polars next sprint"),
a("""
Sensible. For the dtype fix, something like:

```python
DTYPES = {"trust_id": "category", "ward_code": "category", "event_type": "category",
          "patient_key": "string[pyarrow]"}
events = pd.read_parquet(path, columns=[*DTYPES, "event_ts", "created_ts"]).astype(DTYPES)
```

and loop over `events["trust_id"].cat.categories`, building features one trust at a time.
"""),
u("""
that got Harrogate through. peak went from OOM to 9.8GB. still too close to 16 for comfort but fine for this week
"""),
)

session("model-01", "2024-09-26 10:30",
u("""
The bed managers don't want a single number, they want "how bad could it get". So I need intervals on the occupancy forecast. Options I'm considering: conformal, quantile LightGBM, or bootstrapping. We've got about 3 years of history across 140 wards.
"""),
a("""
For a bed-management audience, quantile LightGBM is the most practical first step, with conformal calibration on top if the intervals turn out to be miscalibrated. Here's the reasoning and the setup.

**Why quantile models first**
- You already have a LightGBM point model, so it's the same features and pipeline with `objective="quantile"` and an `alpha`.
- The intervals can be asymmetric, which matters here: occupancy is capped by the bed base, so upside and downside risk aren't symmetric.
- Bootstrapping 140 wards x 7 horizons is slow and tends to understate uncertainty when the model is biased.

**Which quantiles**
I'd train three models with the pinball loss at **0.1, 0.5 and 0.9**. That gives an 80% interval and a median. The 0.5 model often beats your MSE model on MAE, because occupancy errors are skewed. I wouldn't go to 0.05/0.95 at first: with 3 years of history you have few examples in the tails per ward, and those models get noisy. If the bed managers ask for "worst case", present the 0.9 as "1 in 10 days it's likely to be at least this full".

**Things that bite**
- **Quantile crossing**: independent models can produce q0.9 < q0.5 on some rows. Sort the three predictions per row before publishing.
- **Check coverage per horizon**: the fraction of actuals below q0.9 should be about 90% for every horizon from 1 to 7. Usually day 1 is overconfident and day 7 under.
- **Conformal as a fix**: if coverage is off, split conformal (CQR) on a held-out recent period adjusts each quantile by a constant per horizon. It's simple and it guarantees marginal coverage.

**Evaluation**
Use the pinball loss per quantile and interval coverage and width, on a rolling-origin backtest (e.g. 12 monthly origins in the last year), not a random split.

Happy to write the training loop with the three alphas if useful.
""", "ssa-quantiles"),
u("yes, write it with a rolling origin backtest"),
a("""
```python
import lightgbm as lgb
import numpy as np
import pandas as pd

ALPHAS = (0.1, 0.5, 0.9)

def fit_quantiles(train: pd.DataFrame, features: list[str]) -> dict[float, lgb.Booster]:
    models = {}
    for alpha in ALPHAS:
        params = {"objective": "quantile", "alpha": alpha, "learning_rate": 0.05,
                  "num_leaves": 63, "min_data_in_leaf": 200, "verbose": -1}
        data = lgb.Dataset(train[features], train["target"], categorical_feature=["ward_code"])
        models[alpha] = lgb.train(params, data, num_boost_round=800)
    return models

def backtest(frame: pd.DataFrame, features: list[str], origins: list[pd.Timestamp]) -> pd.DataFrame:
    rows = []
    for origin in origins:
        train = frame[frame["origin"] < origin - pd.Timedelta(days=7)]
        test = frame[(frame["origin"] >= origin) & (frame["origin"] < origin + pd.Timedelta(days=28))]
        models = fit_quantiles(train, features)
        preds = np.sort(np.column_stack([models[a].predict(test[features]) for a in ALPHAS]), axis=1)
        rows.append(test.assign(q10=preds[:, 0], q50=preds[:, 1], q90=preds[:, 2]))
    return pd.concat(rows)
```

The 7-day gap before each origin keeps the targets of the training rows from overlapping the test window.
"""),
u("perfect thanks"),
u("what learning rate / rounds, I just guessed 800"),
a("""
800 rounds at 0.05 is a reasonable guess, but let the backtest pick it: use early stopping on the last 4 weeks of each training window (`lgb.early_stopping(50)` with a validation set), log the best iteration per origin, and then fix the rounds at roughly the median of those. Quantile objectives often want fewer rounds than the MSE model for the outer quantiles, so check 0.1 and 0.9 separately.
"""),
)

session("work-02", "2024-09-30 16:45",
u("""
Can you help me set up pre-commit with ruff for our insights repo? Quick note: my manager Gareth wants it in before we onboard the new junior in October, and he wants the CI to fail on lint, not just warn.
""", "mgr1"),
a("""
Sure. Add a `.pre-commit-config.yaml` at the repo root:

```yaml
repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.6.8
    hooks:
      - id: ruff
        args: [--fix]
      - id: ruff-format
```

and in `pyproject.toml`:

```toml
[tool.ruff]
line-length = 110
target-version = "py310"

[tool.ruff.lint]
select = ["E", "F", "I", "B", "UP"]
```

Then `pre-commit install` locally. For CI, run `pre-commit run --all-files` as a step: it exits non-zero on any failure, so the job fails rather than warns.
"""),
u("""
ran it on the whole repo for the first time:

$ pre-commit run --all-files
ruff.....................................................................Failed
- hook id: ruff
- exit code: 1
- files were modified by this hook

features/build.py:12:1: F401 [*] `os` imported but unused
features/lags.py:44:5: B007 Loop control variable `ward` not used within loop body
models/train.py:3:1: I001 [*] Import block is un-sorted or un-formatted
Found 214 errors (187 fixed, 27 remaining).

ruff-format..............................................................Failed
- hook id: ruff-format
- files were modified by this hook

41 files reformatted, 12 files left unchanged

27 remaining, is it ok to just noqa them?
"""),
a("""
I'd avoid blanket `noqa`s: they tend to stay forever. The 187 auto-fixes and the reformat should go in one commit of their own ("style: ruff autofix and format, no behaviour change") so reviewers can skip it, and `git blame` can ignore it via `.git-blame-ignore-revs`.

For the 27 left, fix what's quick (unused loop variables become `_`), and for anything that needs thought, add the rule to a per-file ignore with a TODO and a ticket, e.g.:

```toml
[tool.ruff.lint.per-file-ignores]
"legacy/*.py" = ["B"]
```
"""),
u("""
ok. also FYI we're expected in the Leeds office 3 days a week (Tue-Thu), so the junior's onboarding will be in person those days
""", "office1"),
a("""
Good to know. In-person days make it easier to pair on the first lint failures. It helps to have the junior run `pre-commit install` on day one and make one small PR that goes through CI end to end.
"""),
u("what goes in .git-blame-ignore-revs exactly"),
a("""
Just the full commit hashes, one per line, with optional comments:

```
# ruff autofix and format, no behaviour change
3f9c1a2e7b0d4c6e8f1a2b3c4d5e6f708192a3b4
```

Then `git config blame.ignoreRevsFile .git-blame-ignore-revs` locally; GitHub's blame view picks the file up automatically.
"""),
)

# --- October 2024 ---------------------------------------------------------------------------------------------

session("course-01", "2024-10-01 21:10",
u("""
Started the causal inference short course tonight! University of Leeds, 10 weeks, Tuesday evenings 7-9pm. First session was on DAGs and confounding. I get the basic idea but I'm confused about the backdoor criterion vs just "control for everything". Can you explain?
""", "course-start"),
a("""
Great course to take alongside work like yours: a lot of hospital data questions are causal questions in disguise.

**Why "control for everything" fails**
Adjusting for a variable is only helpful if it blocks a non-causal path between treatment and outcome. Adjusting for the wrong kind of variable *opens* a path:

- **Colliders**: if X -> C <- Y, then X and Y are independent, but conditioning on C makes them dependent. Hospital example: if both frailty and a surgical complication lead to ICU admission, then looking only at ICU patients creates a spurious link between them.
- **Mediators**: if X -> M -> Y and you adjust for M, you remove part of the effect you wanted to measure.

**The backdoor criterion**
A set Z is enough to estimate the effect of X on Y if:
1. no variable in Z is a descendant of X, and
2. Z blocks every path from X to Y that starts with an arrow *into* X (a "backdoor" path).

So you draw the DAG, list the backdoor paths, and pick a (preferably small, well-measured) set that blocks them all without containing colliders you would be opening or anything downstream of X.

If you tell me the course's example DAG I can walk through it.
"""),
u("it was smoking -> tar -> cancer with a genotype confounder. front door stuff next week apparently"),
a("""
Ah, the classic one. That example is exactly where the backdoor criterion fails (the genotype is unobserved, so you can't block smoking <- genotype -> cancer) and the front-door criterion rescues you: tar fully mediates the effect, nothing confounds smoking -> tar, and smoking blocks the backdoor from tar to cancer. You estimate the two steps separately and chain them. Next week will make more sense having seen why the backdoor route is closed.
"""),
u("is there a python library for this stuff or is it all pen and paper"),
a("""
Both exist. For drawing DAGs and checking adjustment sets, `dagitty` (R, with a web version at dagitty.net) is the standard; in Python, `pgmpy` and `DoWhy` can identify adjustment sets from a graph you define. DoWhy is the most complete: you give it the DAG, it finds a valid estimand (backdoor, front-door, IV), estimates it and runs refutation tests. For the course, do the first few by hand though; it sticks much better.
"""),
u("thanks, will try dowhy on the homework once I've done it by hand"),
)

session("dbt-01", "2024-10-03 15:40",
u("""
dbt question. we have a ward_census model that's a full table rebuild every night, 3 years x 140 wards x 24 hours. takes 9 min in snowflake. should it be incremental?
"""),
a("""
Probably yes: a nightly job that rebuilds three years to add one day is doing about 1,000 times more work than needed. But make sure late-arriving data is handled, because your ADT events arrive late (the discharge backfill you filter on for the forecast).

An incremental model that reprocesses a trailing window covers both:

```sql
{{ config(materialized='incremental', unique_key=['trust_id', 'ward_code', 'hour'],
          incremental_strategy='merge') }}

select trust_id, ward_code, hour, occupancy
from {{ ref('int_ward_hourly') }}
{% if is_incremental() %}
where hour >= (select dateadd('day', -3, max(hour)) from {{ this }})
{% endif %}
```

The 3-day lookback re-merges recent hours that may have changed because of late events. Set it to the longest delay you see in practice.
"""),
u("longest delay we've seen is ~30 hours so 3 days is plenty"),
a("""
Then 3 days is a comfortable margin. Also schedule a weekly `--full-refresh` (e.g. Sunday) to catch anything older that changed, such as a trust correcting historic records.
"""),
u("""
ran it:

$ dbt run -s ward_census
14:52:03  Running with dbt=1.8.7
14:52:05  Found 41 models, 88 data tests, 12 sources, 0 exposures, 0 metrics, 611 macros
14:52:06  Concurrency: 4 threads (target='prod')
14:52:07  1 of 1 START sql incremental model analytics.ward_census ................ [RUN]
14:52:31  1 of 1 OK created sql incremental model analytics.ward_census ........... [SUCCESS 10,080 in 24.12s]
14:52:31  Finished running 1 incremental model in 0 hours 0 minutes and 26.01 seconds (26.01s).
14:52:31  Completed successfully

9 min -> 24s
"""),
a("""
That's the win you'd expect. 10,080 rows is 3 days x 140 wards x 24 hours, so the merge touched exactly the lookback window. Worth a dbt test that compares one day's totals between this model and the midnight census, so you'd notice if the incremental logic ever drifted.
"""),
u("ok do it"),
a("""
```yaml
models:
  - name: ward_census
    data_tests:
      - dbt_utils.expression_is_true:
          expression: "abs(occupancy - census_occupancy) <= 2"
          config:
            where: "hour = date_trunc('day', hour)"
```

This assumes you join the midnight census in as `census_occupancy`; a tolerance of 2 beds allows for the few events recorded around midnight.
"""),
)

session("etl-02", "2024-10-08 11:00",
u("""
polars port of the occupancy module done, ran both side by side on the Airedale extract (31M rows):

| impl   | wall time | peak RSS |
|--------|-----------|----------|
| pandas | 412 s     | 14.2 GB  |
| polars | 38 s      | 2.1 GB   |

assert_frame_equal passes except for 3 wards where the rolling 7d max differs by 1 at day boundaries. I assume closed="left" vs "right"?
"""),
a("""
Those numbers are about what I'd expect, and the 3-ward difference is almost certainly the window boundary, yes.

pandas' time-based `rolling("7D")` defaults to `closed="right"` for a datetime index: the window is (t - 7 days, t]. In Polars, `rolling(index_column=..., period="7d")` also defaults to `closed="right"`, *but* if you used `group_by_dynamic` its windows start at `t` and the default is `closed="left"`, i.e. [t, t + 7d). If the port used `group_by_dynamic`, an event exactly at midnight lands in different windows.

Check with:

```python
pl.DataFrame(...).rolling(index_column="hour", period="7d", group_by=["trust_id", "ward_code"], closed="right")
```

If the differences are all rows with events at exactly 00:00, that's it.
"""),
u("yep it was group_by_dynamic. fixed, all equal now. ok do the lags module next, same approach"),
a("""
Will do. For lags, avoid a self-join per lag: shift within a group on a complete hourly grid instead.

```python
LAGS_DAYS = (1, 7, 14)

def add_lags(occ: pl.LazyFrame) -> pl.LazyFrame:
    grid = occ.sort("trust_id", "ward_code", "hour")
    return grid.with_columns(
        [pl.col("occupancy").shift(24 * d).over("trust_id", "ward_code").alias(f"occ_lag_{d}d") for d in LAGS_DAYS]
    )
```

This relies on the grid having every hour for every ward (upsample first, forward-filling occupancy), otherwise a shift of 24 rows isn't 24 hours.
"""),
u("""
Update: the lag module is ported too and the whole nightly feature build went from 1h50 to 11 minutes. Polars is staying, pandas is out of the feature code
""", "polars"),
a("""
That's a great result: and a nightly job finishing in 11 minutes leaves you room for the backtests on the same VM. Worth writing down the two gotchas (window closure, hourly grid before shifting) in the repo README for whoever touches it next.
"""),
u("also do I keep pandas as a dependency at all"),
a("""
Only where something needs it. Some libraries (older plotting code, scikit-learn transformers if you use them on frames, LightGBM's `pandas_categorical` handling) still expect pandas. `df.to_pandas()` at that boundary is cheap with pyarrow installed. If nothing in the feature code imports pandas any more, drop it from that package's requirements and keep it only where the model training needs it.
"""),
)

session("orch-01", "2024-10-15 15:20",
u("""
Decision made in today's team meeting: we're moving off Airflow. We picked Prefect 3 over Dagster because we're a team of 3, we want flows that are plain python functions, local runs without a scheduler/daemon running, and the Prefect Cloud free tier covers our usage. Dagster's asset model is nice but felt like more concepts than we need. We have 9 DAGs. Can you help me plan the migration?
""", "prefect-why"),
a("""
Sounds like a sensible choice for a small team. Here's a migration plan that avoids a big-bang cut-over.

**Phase 0: inventory (half a day)**
For each of the 9 DAGs, note: schedule, upstream dependencies (sensors, ExternalTaskSensor), connections/variables used, retries and SLAs, and who looks at failures. Anything using XCom heavily needs extra care.

**Phase 1: foundations (a few days)**
- Prefect Cloud workspace, one work pool (a `process` pool on the existing VM is fine to start).
- Blocks for secrets: Snowflake credentials, the MLLP/SFTP credentials. Don't copy Airflow connections into env vars.
- A `flows/` package with a shared `tasks.py`; each DAG becomes a `@flow` calling `@task`s.
- CI that runs `prefect deploy --all` from `prefect.yaml` on merge to main.

**Phase 2: migrate, least critical first**
Order by risk: reports and backfills first, the nightly ADT load last. Run each flow in Prefect **in parallel** with the Airflow DAG for a week, writing to a shadow schema, and compare row counts.

**Phase 3: cut-over and switch-off**
Pause the Airflow DAG, point the Prefect flow at the real schema, keep Airflow paused but running for a week as a fallback, then switch off the VM's Airflow services.

**Mapping cheatsheet**
- `PythonOperator` -> `@task`
- `BranchPythonOperator` -> plain `if` in the flow
- `ExternalTaskSensor` -> call the upstream flow as a subflow, or trigger with an automation on the upstream's completion
- `retries`, `retry_delay` -> `@task(retries=3, retry_delay_seconds=300)`
- Airflow Variables -> Prefect Variables or blocks

With 9 DAGs and this approach, 6-8 weeks is realistic alongside other work.
""", "prefect-decide"),
u("which one would you do first of ours: weekly_occupancy_report, backfill_census, nightly_adt_load, model_retrain, dq_checks?"),
a("""
`weekly_occupancy_report` first: it's weekly (so a failure costs little), it has no downstream consumers inside the pipeline, and it exercises the Snowflake block and the notification path. `backfill_census` second, since it's manual. `nightly_adt_load` last: everything else depends on it.
"""),
u("and the VM? do we need kubernetes for prefect"),
a("""
No. A Prefect worker is just a process that polls a work pool. On your VM, `prefect worker start --pool insights-vm` under systemd is enough. The flows run as subprocesses on the VM, the same as Airflow's LocalExecutor did. Kubernetes or ECS only becomes worth it when you want isolated images per flow or more capacity than one VM.
"""),
u("good, no k8s then. systemd unit it is"),
a("""
Something like:

```ini
[Unit]
Description=Prefect worker (insights-vm pool)
After=network-online.target

[Service]
User=prefect
WorkingDirectory=/opt/insights
Environment=PREFECT_API_URL=https://api.prefect.cloud/api/accounts/<account>/workspaces/<workspace>
EnvironmentFile=/etc/prefect/worker.env
ExecStart=/opt/insights/.venv/bin/prefect worker start --pool insights-vm
Restart=always

[Install]
WantedBy=multi-user.target
```

with the API key in `/etc/prefect/worker.env`, readable only by the `prefect` user.
"""),
)

session("model-02", "2024-10-22 13:30",
u("""
Different model: the 30-day readmission risk model (LightGBM, trained on 2021-2023 discharges). Clinicians complained the risk scores "look too high". Reliability table on the 2024 holdout:

bin        n      mean_pred  observed
0.0-0.1    21,408   0.061     0.052
0.1-0.2    14,977   0.148     0.121
0.2-0.3     6,203   0.247     0.189
0.3-0.4     2,911   0.346     0.248
0.4-0.6     1,984   0.471     0.331
0.6-1.0       517   0.702     0.497

total 48,000 rows. AUROC is fine. How should I calibrate it?
"""),
a("""
The table shows classic overconfidence that grows with the score: at the top bin you predict 70% and observe 50%. Ranking (AUROC) can be fine while the probabilities are off, which is exactly what clinicians notice.

**Two standard options**

1. **Platt scaling** (a logistic regression on the model's logit): two parameters, very stable with small calibration sets, but it can only fix a sigmoid-shaped distortion.
2. **Isotonic regression**: a non-parametric monotone step function. It fixes any monotone distortion, but it needs enough data or it overfits into a staircase.

**My recommendation for you: isotonic.** You have about 48,000 calibration rows, with at least several hundred in every bin, which is plenty for isotonic to be smooth where it matters. Your distortion also isn't a clean sigmoid (the gap widens fast above 0.3), and Platt tends to under-correct that shape. If you had only a few thousand rows, I'd go with Platt.

**How to do it without leaking**
- Fit the calibrator on a period the model didn't train on: e.g. train on 2021-2022, calibrate on 2023, evaluate on 2024. Don't calibrate on the evaluation set.
- Use `CalibratedClassifierCV(estimator, method="isotonic", cv="prefit")` or fit `IsotonicRegression(out_of_bounds="clip")` on the raw scores directly.
- Report the Brier score and the expected calibration error before and after, along with the same reliability table.

**Also check**
Readmission rates shift over time (2024 may simply have fewer readmissions than 2021-2023 after post-COVID changes). If that's the case, calibration on a recent period partly fixes prevalence drift, and you'll want to recalibrate periodically, not just once.
""", "ssa-calib"),
u("ok. retraining on 2021-22 and calibrating on 2023 now"),
a("""
Good plan. When it's done, paste the new reliability table and the Brier scores and we can check the top bins: with 517 rows in 0.6-1.0, that bin will still be a bit noisy, so don't read too much into a few points of difference there.
"""),
u("""
done. before/after on 2024:

             brier    ece
uncalibrated 0.0951   0.041
isotonic     0.0918   0.011

top bin (0.6-1.0) is now mean_pred 0.52 vs observed 0.50
"""),
a("""
That's a clear improvement: ECE from 0.041 to 0.011, and the Brier score down too (which also rewards discrimination, so calibration alone moving it by 0.003 is meaningful). The top bin at 0.52 vs 0.50 is within noise for 500-odd rows. I'd put this table and the before/after reliability plot in front of the clinicians: it directly answers their complaint.
"""),
)

session("life-02", "2024-10-27 19:00",
u("""
Personal planning question. My partner Sam has been offered a research software engineer job at the University of York, starting in January. We live in Headingley in Leeds right now. If we moved to York, I'd commute to the Leeds office by train. How do I think about whether that's sustainable?
""", "city1"),
a("""
Congratulations to Sam! The York-Leeds line is one of the better commutes in the north: trains take roughly 25 minutes on the fast services and run several times an hour, so door to door is often comparable to a cross-Leeds bus.

Things worth weighing:

- **How many days you go in**: you're in 3 days a week now. A season ticket usually only pays off at 4-5 days; at 2-3 days, flexi season tickets or advance singles are often cheaper. Check both on the actual dates.
- **Reliability**: this line has had disruption during engineering works and strikes; have a fallback (working from home) agreed with your manager.
- **Station distance at both ends**: where you live in York relative to the station matters more than the train itself. Leeds station to your office adds its own time.
- **Rent difference** versus the commute cost. York rents in popular areas are not necessarily cheaper than Headingley.

It may also be worth asking work whether office days could drop after the move; lots of teams agree that once a commute gets longer.
"""),
u("good point on office days, will ask after the reorg settles. rents look similar tbh"),
a("""
In that case it mostly comes down to the commute time and cost against what you'd both gain. It might be worth doing the journey once on a normal weekday morning before deciding, to see how it actually feels.
"""),
u("good idea, will do a test commute next week"),
)

session("etl-03", "2024-10-31 10:15",
u("""
I'm done with Great Expectations. After the upgrade to 1.x our checkpoint code broke again:

  File "/opt/insights/dq/run_checks.py", line 22, in <module>
    context.run_checkpoint(checkpoint_name="adt_daily")
AttributeError: 'EphemeralDataContext' object has no attribute 'run_checkpoint'

and the suite YAML from 0.18 doesn't load either. We only check schemas, nulls, ranges and a few cross-column rules on polars frames. Is pandera a reasonable replacement?
"""),
a("""
For what you describe, pandera is a very reasonable replacement, and it fits a Polars codebase better.

- **Schemas as code**: a `DataFrameModel` class per table, versioned with the pipeline, reviewed in PRs. No separate YAML suites or data context.
- **Polars support**: `pandera.polars` validates Polars DataFrames and LazyFrames natively (since 0.19), so you don't convert to pandas.
- **Your checks map directly**: dtypes and nullability are field definitions, ranges are `Field(ge=..., le=...)`, and cross-column rules are `@pa.dataframe_check` methods.
- **Lazy validation**: `validate(df, lazy=True)` collects every failure into one `SchemaErrors` with a failure-cases table, instead of stopping at the first.

What you lose compared with Great Expectations: the data docs HTML and the profiling. If nobody looks at those, that's no loss.

```python
import pandera.polars as pa
import polars as pl

class AdtEvent(pa.DataFrameModel):
    trust_id: str = pa.Field(isin=["harrogate", "airedale", "calderdale"])
    ward_code: str
    event_type: str = pa.Field(isin=["A01", "A02", "A03", "A08", "A11", "A13"])
    event_ts: pl.Datetime = pa.Field(nullable=False)
    admit_ts: pl.Datetime = pa.Field(nullable=False)
    created_ts: pl.Datetime

    @pa.dataframe_check
    def created_after_event(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(pl.col("created_ts") >= pl.col("event_ts"))
```
"""),
u("""
nice. Quick note for you: I'm switching to pandera today, ripping GX out of the dq_checks DAG. Great Expectations is gone from requirements.txt as of this PR
""", "pandera"),
a("""
Good move. Keep the old suites in git history rather than in the repo, and make the `dq_checks` flow fail loudly (non-zero exit, a notification) when `SchemaErrors` is raised, with the failure-cases table attached, so the information GX's data docs used to show isn't lost.
"""),
u("does pandera do the 'value between yesterday's count +-20%' kind of check? GX had that"),
a("""
Not as a built-in, because pandera validates one frame at a time. You can still express it: compute yesterday's count in the flow and pass it into a check built at runtime:

```python
def volume_check(expected: int, tolerance: float = 0.2) -> pa.Check:
    return pa.Check(lambda data: abs(data.lazyframe.select(pl.len()).collect().item() - expected)
                    <= tolerance * expected, name="row_count_near_yesterday")
```

Or keep volume checks outside pandera as a small task in the flow that compares counts and raises. For a handful of such checks, the plain task is easier to read.
"""),
u("plain task. ok"),
)

# --- November 2024 --------------------------------------------------------------------------------------------

session("work-03", "2024-11-04 09:05",
u("""
btw IT finally swapped my 2019 Intel MacBook for an M3 Pro MacBook Pro with 36GB. Setting it up now and lightgbm won't import:

>>> import lightgbm
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
  File "/Users/me/insights/.venv/lib/python3.10/site-packages/lightgbm/__init__.py", line 8, in <module>
    from .basic import Booster, Dataset, Sequence, register_logger
  File "/Users/me/insights/.venv/lib/python3.10/site-packages/lightgbm/libpath.py", line 49, in find_lib_path
OSError: dlopen(/Users/me/insights/.venv/lib/python3.10/site-packages/lightgbm/lib/lib_lightgbm.dylib, 0x0006): Library not loaded: /usr/local/opt/libomp/lib/libomp.dylib
""", "laptop"),
a("""
That path is the giveaway: `/usr/local/opt/...` is where Homebrew lives on Intel Macs. On Apple Silicon, Homebrew installs under `/opt/homebrew`, so either the wheel expects libomp in the Intel location, or you restored a venv from your old machine via Migration Assistant.

Fix:

```bash
brew install libomp
rm -rf .venv
python3.10 -m venv .venv && source .venv/bin/activate
pip install --no-cache-dir -r requirements.txt
```

Recreating the venv matters: a venv copied from an Intel Mac contains x86_64 binaries that run under Rosetta at best. After reinstalling, `python -c "import platform; print(platform.machine())"` should print `arm64`.
"""),
u("""
it was the migrated venv. arm64 now and it imports. the feature build runs in 4 min locally vs 11 on the VM lol
"""),
a("""
Apple Silicon is quick on this kind of columnar work. Just be careful not to let your laptop become the place things run: the numbers to report are the VM's (or the Prefect worker's), since that's where the nightly job lives.
"""),
u("should I also move the venv to 3.11 while I'm at it? VM is 3.10"),
a("""
I'd keep the laptop on the same Python as the place the code runs (3.10) for now. Subtle differences (dependency resolution, a wheel that exists for one version but not the other) are exactly what you don't want to debug when something works locally and fails in the nightly run. Upgrade both together later, as one change.
"""),
u("fair, staying on 3.10 locally"),
)

session("work-04", "2024-11-07 17:30",
u("""
Big news at work today. Gareth told us he's leaving at the end of November (going to a startup). And there's a reorg: from 2 December our team is renamed from Insights to "Clinical ML", moves under the product org, and my new manager will be Anjali Mehta, who's currently leading the platform team. I've only talked to her a couple of times. How do I prepare for a first 1:1 with a new manager?
""", "mgr2"),
a("""
That's a lot of change at once, but a first 1:1 is a good chance to set things up the way you want them. Some ways to prepare:

**Bring a one-page summary of your work**
- What you own: the occupancy forecast, the readmission model, the data-quality checks, and the Airflow-to-Prefect migration.
- Where each stands, and what's coming in the next 6-8 weeks.
- The dependencies and risks (trust data feeds, sign-offs).

**Ask her about her expectations**
- How does she like to be updated: written notes, a standing 1:1, dashboards?
- What does success look like for Clinical ML in the next quarter?
- How will decisions about priorities be made now that you're in the product org?

**Raise your own topics**
- Career: what you want to grow into (e.g. moving from data engineer to ML engineer) and what evidence would support that.
- Working pattern: if the move to York happens, this is a natural place to ask about office days.

**Ask Gareth before he leaves**
Get a handover: which promises he made to trusts or stakeholders that you don't know about, and what he'd tell Anjali about your work. It's worth asking him directly for a note to her.
"""),
u("good idea re the handover note. I'll ask him tomorrow"),
u("also should I worry about the reorg? product org sounds like more deadlines"),
a("""
It's reasonable to want to know what changes, but it isn't necessarily bad: being in the product org usually means your work is closer to what's shipped to trusts and more visible. The questions worth asking Anjali are concrete: who sets the team's priorities, how are deadlines agreed, and how much time stays for pipeline and data-quality work that isn't a feature. If the answers are vague, raise it again after a month.
"""),
)

session("ops-01", "2024-11-11 08:50",
u("""
calderdale ADT feed has been down since about 2am. our MLLP listener logs:

2024-11-11T02:03:17Z WARN  mllp.listener peer=10.44.8.21:51733 tls handshake failed: certificate has expired (notAfter=Nov 10 23:59:59 2024 GMT)
2024-11-11T02:03:17Z INFO  mllp.listener peer=10.44.8.21:51733 connection closed
2024-11-11T02:05:17Z WARN  mllp.listener peer=10.44.8.21:51734 tls handshake failed: certificate has expired (notAfter=Nov 10 23:59:59 2024 GMT)
... (repeats every 2 min)

whose cert expired, ours or theirs?
"""),
a("""
The listener is complaining during the handshake that *a* certificate has expired, and it's logging the peer, so let's confirm which side's certificate it is:

```bash
# our server certificate
openssl x509 -in /etc/mllp/tls/server.crt -noout -enddate

# what the Calderdale side presents (client cert), from their IP, if you have a copy
openssl x509 -in /etc/mllp/tls/clients/calderdale.crt -noout -enddate
```

If the listener is doing mutual TLS, the usual case is that the *client* certificate (Calderdale's) expired and our side rejects it. If our server certificate had expired, every trust's connection would fail, not only Calderdale's, so check whether Harrogate and Airedale are still flowing.

Meanwhile:
- Messages should be queued on their integration engine (most trusts keep 24-72h of outbound queue), so once the certificate is replaced they'll replay. Confirm their retention.
- Tell the bed managers the forecast at 08:00 is based on data up to 02:00.
"""),
u("""
theirs. the other two trusts are fine. their integration team renewed it at 10:40, backlog replayed, 4,312 messages by 11:15. writing the incident note now, it was the first feed outage since I joined
""", "outage1"),
a("""
Glad it's back. For the note: timeline, impact (forecast ran on stale data for one morning), root cause (expired client certificate on the trust's side), and an action to prevent a repeat: a daily check of every client certificate's expiry date that alerts 30 days ahead. That last one is cheap and would have caught this.
"""),
u("how do I check every client cert's expiry daily, we have 3"),
a("""
A small script in a daily Prefect flow:

```python
from datetime import datetime, timedelta, UTC
from pathlib import Path
from cryptography import x509

def expiring(directory: Path, within: timedelta = timedelta(days=30)) -> list[tuple[str, datetime]]:
    soon = []
    for path in sorted(directory.glob("*.crt")):
        cert = x509.load_pem_x509_certificate(path.read_bytes())
        if cert.not_valid_after_utc - datetime.now(UTC) < within:
            soon.append((path.stem, cert.not_valid_after_utc))
    return soon
```

Raise (so the flow fails and notifies) when the list isn't empty, and include the server certificate too.
"""),
u("nice. in the dq flow it goes"),
)

session("etl-04", "2024-11-14 14:40",
u("""
pandera is doing its job a bit too well. dq_checks on the Airedale extract:

pandera.errors.SchemaErrors: {
    "DATA": {
        "SERIES_CONTAINS_NULLS": [
            {
                "schema": "AdtEvent",
                "column": "admit_ts",
                "check": "not_nullable",
                "error": "non-nullable column 'admit_ts' contains null values"
            }
        ]
    }
}
failure cases: 1,284 rows
   event_type  count
   A08          1,190
   A13             94

all of them are A08 (update patient info) and A13 (cancel discharge). do those even carry admit_ts?
""", "pandera-fail"),
a("""
Good catch by the schema, and your suspicion is right. In HL7 v2 ADT:

- **A08 (update patient information)** often carries only the segments that changed. Many integration engines don't populate PV1-44 (admit date/time) on an A08 unless it changed.
- **A13 (cancel discharge)** reverses an A03; depending on the sender's configuration, PV1-44 may be blank because the admission itself isn't the subject of the message.

So a null `admit_ts` is expected on those two types, and the rule should be conditional rather than blanket:

```python
class AdtEvent(pa.DataFrameModel):
    admit_ts: pl.Datetime = pa.Field(nullable=True)

    @pa.dataframe_check
    def admit_ts_on_admissions(cls, data) -> pl.LazyFrame:
        needs_admit = pl.col("event_type").is_in(["A01", "A02", "A03"])
        return data.lazyframe.select(~needs_admit | pl.col("admit_ts").is_not_null())
```

Then, downstream, fill `admit_ts` for A08/A13 rows from the patient's current spell (the latest A01 for that patient_key/visit number) rather than leaving gaps in the occupancy logic.
"""),
u("that makes sense. 1,284 out of 31M is tiny anyway but I'd rather model it right"),
a("""
Agreed, and modelling it right matters more than the count suggests: A13s cancel discharges, so if they're dropped the occupancy for those wards undercounts until the next census resets it.
"""),
u("""
oh good point. checked: 94 cancelled discharges over 3 years on airedale, mostly on 2 wards. they were being dropped. fixed
"""),
)

session("nb-01", "2024-11-19 11:05",
u("""
feature importance from the occupancy model (gain), notebook output:

                  feature      gain    share
0           occ_at_origin  412883.1   0.412
1        los_21plus_count  138210.6   0.138
2              occ_lag_7d   97552.0   0.097
3          admissions_24h   71304.9   0.071
4                 horizon   66010.2   0.066
5                     dow   48877.3   0.049
6               ward_code   41209.8   0.041
7          discharges_72h   33550.1   0.034
8         is_bank_holiday   12030.4   0.012
9     school_holiday_flag    1104.7   0.001
...
[24 rows x 3 columns]

can I drop school_holiday_flag? gain is basically zero
"""),
a("""
Gain near zero means the trees rarely split on it, but that isn't quite "useless": it can be low because the feature matters only for a few paediatric wards, which are a small share of rows. Before dropping it, check:

1. The backtest MAE on the paediatric wards with and without it.
2. SHAP values for those wards only, which would show a local effect the global gain hides.

If the paediatric MAE doesn't change, drop it: fewer features means less to maintain (someone has to update the school holiday calendar every year).
"""),
u("paediatric wards only: MAE 0.91 with, 0.92 without. dropping it"),
a("""
A 0.01-bed difference is noise, so dropping it is right. Write the comparison in the PR description, so nobody adds it back next year without knowing it was tried.
"""),
u("also is 41% on one feature a red flag?"),
a("""
Not for this problem. Occupancy now is by far the best predictor of occupancy in the next few days, especially at short horizons, so you'd expect it to dominate. It would be a red flag if a feature like that dominated where it shouldn't, e.g. if `occ_at_origin` were still dominant at horizon 7 with nothing else adding much. Check gain per horizon if you're curious: its share should fall as the horizon grows.
"""),
)

session("talk-01", "2024-11-21 22:15",
u("""
Gave my talk at the Leeds Data Science meetup tonight, "Forecasting hospital bed occupancy without fooling yourself". About 60 people, lots of questions about leakage from late discharges. I want to turn it into a blog post for the company site. Here are my slide titles:

1. Why bed managers care about 8am
2. ADT events 101
3. The leakage you don't see: created_ts vs event_ts
4. One model for 140 wards
5. Quantiles, not point forecasts
6. Backtesting like you mean it
7. What we got wrong

Can you suggest a structure for ~1500 words?
""", "talk1"),
a("""
Congrats on the talk! The leakage angle is what people remember, so I'd build the post around it.

**Title**: "Forecasting bed occupancy without fooling yourself"

1. **Hook (150 words)**: the 8am bed meeting. What decision is made with the forecast, and what happens when it's wrong (cancelled electives, corridor care).
2. **The data in one paragraph (150)**: ADT events, with one diagram of an admission -> transfer -> discharge timeline. Keep HL7 detail out.
3. **The trap (400)**: discharges recorded hours late. Show the backtest that looked great and the one that didn't after filtering on `created_ts <= origin`. This is the heart of the post; a chart of the two error curves is worth it.
4. **One model, many wards (250)**: why pooling helps small wards, with ward as a categorical feature.
5. **Ranges, not numbers (250)**: the quantiles and how bed managers read "1 in 10 days".
6. **How we test (200)**: rolling origins, coverage per horizon.
7. **What we got wrong (100)**: honesty reads well and invites comments.

Check with your information governance team before publishing any charts from trust data, even aggregated.
"""),
u("good shout on IG, I'll ask them"),
u("what about a title that's less of a mouthful"),
a("""
A few shorter options:
- "Late discharges and other ways to fool a forecast"
- "The 8am bed meeting problem"
- "Forecasting beds honestly"
The first keeps the leakage hook, which is what the audience responded to.
"""),
u("going with the first one"),
)

session("orch-02", "2024-11-26 11:25",
u("""
first real Prefect deployment failed:

$ prefect deploy --name weekly-occupancy-report
? Would you like to build a custom Docker image for this deployment? [y/n] (n): n
Deployment 'weekly-occupancy-report/weekly-occupancy-report' successfully created with id 'a31f0c2e-...'

then the run:

14:02:11.532 | INFO    | prefect.flow_runs.worker - Worker 'ProcessWorker 9b1d...' submitting flow run 'woolly-heron'
14:02:13.004 | ERROR   | Flow run 'woolly-heron' - Flow could not be retrieved from deployment.
Traceback (most recent call last):
  ...
FileNotFoundError: [Errno 2] No such file or directory: '/home/prefect/flows/reports/weekly.py'

the code is on the VM at /opt/insights/flows/reports/weekly.py. fyi flows run on python 3.10 images for now, same as the airflow VM
""", "py1"),
a("""
The worker is looking for the flow file relative to the directory it was started in (`/home/prefect`), because the deployment has no `pull` step telling it where the code lives.

With a process work pool on the same VM, the simplest fix is a `set_working_directory` pull step in `prefect.yaml`:

```yaml
pull:
  - prefect.deployments.steps.set_working_directory:
      directory: /opt/insights
```

and the entrypoint as `flows/reports/weekly.py:weekly_occupancy_report`. Redeploy with `prefect deploy --all`.

Longer term, a `git_clone` pull step (pinned to the commit that was deployed) is more robust than depending on whatever is checked out in `/opt/insights`.
"""),
u("worked. first flow run green, report emailed. 1 of 9 done"),
u("git_clone needs credentials for our private repo right"),
a("""
Yes. Store a GitHub token (a fine-grained one with read-only access to the repo) in a Prefect Secret block and reference it:

```yaml
pull:
  - prefect.deployments.steps.git_clone:
      repository: https://github.com/wardline/insights.git
      branch: main
      access_token: "{{ prefect.blocks.secret.github-insights-read }}"
```

A deploy key works too, but the Secret block is the pattern Prefect documents.
"""),
u("ok, after the migration. for now set_working_directory"),
)

session("git-01", "2024-11-28 16:10",
u("""
ugh. I just pushed a commit to main that included our .env file. It has the Snowflake service account password in it. Repo is private (GitHub org) but still. What do I do, force push it away?
"""),
a("""
Don't panic, but do act now, and in this order:

**1. Rotate the credential first.** Change the Snowflake service account's password (or better, move that account to key-pair auth) *before* touching git. Once a secret has been pushed, assume it's been copied: clones, CI caches, forks, and GitHub's own caches may all have it. Rewriting history doesn't un-leak it; rotation does. Update the new secret in your Prefect Snowflake block and anywhere else it's used.

**2. Check access logs.** In Snowflake, `LOGIN_HISTORY` for that user since the push time. Anything from an unexpected IP goes to your security team.

**3. Remove the file going forward.**

```bash
git rm --cached .env
echo ".env" >> .gitignore
git commit -m "Stop tracking .env"
git push
```

**4. Decide about history.** Rewriting main (e.g. `git filter-repo --path .env --invert-paths` and a force push) disrupts everyone's clones, and after rotation the old password is useless. Many teams skip it; some security policies require it. Ask your security lead rather than force-pushing on your own. If you do, coordinate it, and ask GitHub support to clear cached views.

**5. Prevent a repeat.** Add a secret scanner to pre-commit (`gitleaks` or `detect-secrets`) and enable GitHub secret scanning / push protection for the org if it's available.

**6. Tell someone.** A short note to your manager and security lead, even for a private repo, is usually expected and it's much better coming from you.
""", "ssa-git"),
u("rotated it and switched the service account to key-pair auth. security lead says no history rewrite needed since it's rotated. adding gitleaks to pre-commit now"),
a("""
That's the right outcome. For gitleaks in pre-commit:

```yaml
  - repo: https://github.com/gitleaks/gitleaks
    rev: v8.21.2
    hooks:
      - id: gitleaks
```
"""),
a("""
And add a CI job that runs `gitleaks detect` on pull requests too: pre-commit hooks can be skipped with `--no-verify`, CI can't.
"""),
u("done"),
)

session("life-10", "2024-11-30 10:30",
u("""
random one. Sam's birthday is next Saturday and I want to cook something nice but not stressful. Sam's vegetarian, I can cook ok but not fancy. 2 of us. ideas?
"""),
a("""
Some options that feel special without a lot of last-minute work:

1. **Mushroom and chestnut wellington**: the pastry does the impressing; make it in the afternoon and bake it when you're ready. Serve with roast potatoes and greens.
2. **Homemade gnocchi with brown butter, sage and squash**: the gnocchi takes an hour but is calm work, and the sauce takes 5 minutes.
3. **A risotto with a good starter and dessert bought in**: risotto needs 25 minutes of attention but is very forgiving, and you can chat while stirring.

For dessert, something made the day before (a chocolate pot, a tiramisu) takes the stress out of the evening.
"""),
u("wellington sounds good. can I prep it the day before"),
a("""
Yes: make the filling the day before and keep it in the fridge (cold filling is actually easier to wrap). Wrap in pastry on the day, chill it for 30 minutes, egg-wash and bake at about 200°C for 35-40 minutes until deep golden. Wrapping more than a few hours ahead risks a soggy base.
"""),
u("ok doing that + tiramisu. thanks!"),
)

# --- December 2024 --------------------------------------------------------------------------------------------

session("work-05", "2024-12-03 10:00",
u("""
First 1:1 with Anjali yesterday, first day of the new Clinical ML team. She's very structured, wants quarterly OKRs and a written weekly update every Friday. Also: the Harrogate pilot of the occupancy forecast now has a go-live date, 20 January. Can you help me draft OKRs for Q1?
""", "golive1"),
a("""
Sure. Good OKRs for a small team have 2-3 objectives, each with 2-4 measurable key results. Here's a draft based on what you've told me about your work:

**Objective 1: Bed managers at Harrogate use the occupancy forecast every day**
- KR1: Forecast live for all adult inpatient wards at Harrogate by 20 January.
- KR2: 80% coverage of the 0.1-0.9 interval on a rolling 4-week check, for horizons 1-3 days.
- KR3: Bed managers open the forecast in at least 4 of 5 weekday bed meetings (from usage logs).

**Objective 2: The data pipeline is boring**
- KR1: All 9 workflows on Prefect and Airflow switched off.
- KR2: Zero undetected feed outages: every outage alerts within 30 minutes.
- KR3: Every client certificate's expiry monitored with 30 days' notice.

**Objective 3: The readmission model is trustworthy enough for a clinical review**
- KR1: Expected calibration error below 0.02 on the 2024 holdout.
- KR2: A fairness audit across age, sex, ethnicity and deprivation decile, written up and reviewed by the clinical safety officer.

The KRs are outcomes you can check; avoid ones like "work on X".
"""),
u("this is great, a bit ambitious on KR3 of objective 1 maybe. I'll trim"),
a("""
Fair, usage is partly out of your hands. You could soften it to "usage logged and reviewed with the Harrogate bed managers at week 4", which you control, and keep the 4-of-5 as a stretch.
"""),
u("and the weekly update, any format tips? she wants it every friday"),
a("""
Keep it short and the same shape every week, so it takes 15 minutes to write and 2 to read:

1. **Done this week** (3-5 bullets, outcomes not activities)
2. **Next week** (3 bullets)
3. **Risks / need from you** (the only section she must act on; say "none" when there's nothing)
4. **Numbers** (one or two that track the OKRs, e.g. flows migrated 6/9, live coverage)

Write it as you go during the week (a note you add to) rather than from memory on Friday afternoon.
"""),
)

session("course-02", "2024-12-10 20:30",
u("""
Submitted my final project for the causal inference course today! Question: does using the discharge lounge shorten length of stay? I used inverse probability weighting with a propensity model (age, specialty, admission method, day of week, frailty score). Result: discharge lounge use associated with 0.31 days shorter LOS (95% CI 0.18-0.44). Course ends next week. Any obvious holes a marker would poke?
""", "course-end"),
a("""
Congratulations on submitting! It's a nice, practical question. A marker would likely poke at these:

1. **Positivity**: are there patients with essentially zero chance of using the lounge (e.g. patients discharged at night, or to care homes by ambulance)? Check the propensity score distributions by group; extreme weights suggest violations. Did you trim or stabilise weights?
2. **Time zero**: when is "treatment" assigned? Lounge use happens on the discharge day, so LOS is partly determined *before* the treatment. If you defined LOS from admission, patients who stayed longer had more chances to be lounge candidates, or fewer. A marker may ask about immortal-time-type bias.
3. **Unmeasured confounding**: discharge readiness (e.g. medically fit for discharge time) drives both lounge use and LOS. A sensitivity analysis (E-value) would pre-empt this.
4. **The outcome**: 0.31 days is about 7.5 hours, which plausibly *is* the lounge's mechanism (the bed frees up earlier in the day). Say so: it's a bed-hours effect more than a clinical LOS effect.

If you addressed two of those four, you're in good shape.
"""),
u("I did the E-value (1.9) and weight trimming at 1/99 percentiles. didn't think about time zero, oh well"),
a("""
The E-value and trimming cover two of the four, so you're in good shape. Time zero is a subtle one that many published studies get wrong too; if there's a discussion section, one sentence acknowledging it would show you've seen it.
"""),
u("there is, added a sentence before the deadline. course done, felt good"),
)

session("orch-03", "2024-12-16 17:55",
u("""
Milestone: switched off the Airflow VM services today. nightly_adt_load was the last DAG, it's been shadowing in Prefect for a week with identical row counts.

$ prefect flow-run ls --limit 6
                                    Flow Runs
┌──────────────┬───────────────────────┬───────────┬──────────────────────────┐
│ Name         │ Flow                  │ State     │ Start Time               │
├──────────────┼───────────────────────┼───────────┼──────────────────────────┤
│ amber-walrus │ nightly-adt-load      │ COMPLETED │ 2024-12-16 01:00:02+00:00│
│ swift-owl    │ dq-checks             │ COMPLETED │ 2024-12-16 01:47:40+00:00│
│ calm-badger  │ model-retrain         │ COMPLETED │ 2024-12-15 03:00:01+00:00│
│ bold-lynx    │ backfill-census       │ COMPLETED │ 2024-12-13 14:12:55+00:00│
│ tidy-finch   │ weekly-occupancy-rep… │ COMPLETED │ 2024-12-13 07:00:00+00:00│
│ neat-otter   │ ward-metadata-sync    │ COMPLETED │ 2024-12-12 06:00:03+00:00│
└──────────────┴───────────────────────┴───────────┴──────────────────────────┘

All 9 flows on Prefect now. What should I clean up on the VM?
""", "airflow-off"),
a("""
Congratulations, that's the whole migration done, and ahead of the 6-8 weeks we estimated. Clean-up on the VM:

1. **Stop and disable the services**: `systemctl disable --now airflow-scheduler airflow-webserver airflow-triggerer` (names depend on how it was installed).
2. **Keep the metadata DB for a month, then drop it.** Take a `pg_dump` of the Airflow database first in case someone needs old task logs for an audit.
3. **Remove the Airflow virtualenv and `AIRFLOW_HOME`**, including `airflow.cfg`, which often has connection strings in it.
4. **Revoke Airflow's credentials**: any database users or service accounts that only Airflow used. Leaving an unused account with access is a common audit finding.
5. **Firewall**: close port 8080 (the webserver) if it was open.
6. **Docs**: update the runbook: where to look when a flow fails (Prefect Cloud UI, the worker's journal), how to rerun, who gets alerts.

Keep the VM itself for the Prefect process worker until you move to containers.
"""),
u("done 1-5. runbook tomorrow"),
u("""
actually one problem, the pg_dump:

$ pg_dump -U airflow -h localhost airflow > /backup/airflow_20241216.sql
pg_dump: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  password authentication failed for user "airflow"
"""),
a("""
The password is probably in `airflow.cfg` (`sql_alchemy_conn` under `[database]`) or in the `AIRFLOW__DATABASE__SQL_ALCHEMY_CONN` environment variable of the systemd unit, so don't delete those before the dump. Alternatively, as the OS user `postgres`: `sudo -u postgres pg_dump airflow > /backup/airflow_20241216.sql`, which uses peer authentication and needs no password.
"""),
u("sudo -u postgres worked, 1.4GB dump. now deleting the cfg"),
)

session("life-03", "2024-12-19 20:40",
u("""
Two things. Good news first: ran 25:58 at parkrun last Saturday, so sub-26 done before Christmas!!

Second, I'm off 23-27 Dec (5 days annual leave) to visit my parents in Inverness. Sam's coming too. Train from Leeds is ~7 hours, or fly from Leeds Bradford to Inverness? What would you pick with luggage and presents?
""", "parkrun2"),
a("""
Congratulations on the sub-26, that's a big improvement from 27:40 in September!

For Leeds to Inverness with luggage and presents, I'd lean towards the train:

- **Train**: usually a change in Edinburgh; 7-8 hours in total. No luggage limits worth worrying about, you can bring presents unwrapped-but-bagged, and you can work or read. Book seat reservations: the Edinburgh-Inverness leg is busy just before Christmas.
- **Fly**: direct flights from Leeds Bradford are limited and not daily in winter; connecting via somewhere adds time. With hold luggage and getting to/from airports, door to door may be 5-6 hours, and winter weather in the Highlands can disrupt flights.

If the train times are reasonable, it's also the more relaxing option. Check the Christmas engineering works though: lines are often closed around 24-27 December, so travelling on the 23rd makes sense.
"""),
u("""
train it is, booked the 23rd. 5 days off, back on the 30th
""", "leave1"),
a("""
Enjoy the trip, and have a good Christmas with your parents. It's a good moment to rest the legs too; a week of easy running or none at all after a training block is no bad thing.
"""),
)

session("model-03", "2024-12-30 14:15",
u("""
Quiet week, so I'm setting up drift monitoring for the occupancy model. I generated an Evidently report comparing November (reference) to December (current):

{
  "metrics": [
    {"metric": "DataDriftTable", "result": {
      "number_of_columns": 24,
      "number_of_drifted_columns": 5,
      "share_of_drifted_columns": 0.208,
      "drift_by_columns": {
        "occ_at_origin":      {"stattest_name": "psi", "drift_score": 0.187, "drift_detected": true},
        "admissions_24h":     {"stattest_name": "psi", "drift_score": 0.141, "drift_detected": true},
        "los_21plus_count":   {"stattest_name": "psi", "drift_score": 0.262, "drift_detected": true},
        "is_bank_holiday":    {"stattest_name": "psi", "drift_score": 0.334, "drift_detected": true},
        "escalation_beds":    {"stattest_name": "psi", "drift_score": 0.412, "drift_detected": true},
        "dow":                {"stattest_name": "psi", "drift_score": 0.004, "drift_detected": false}
      }
    }}
  ]
}

obviously December is weird. What PSI thresholds should I alert on?
"""),
a("""
You're right that December will light up any drift report: bank holidays, winter pressures and escalation beds all shift at once. Some of what this flags is seasonality, not a broken pipeline or a stale model.

**Thresholds**
The conventional PSI bands, which work reasonably well for features like yours, are:
- **below 0.1**: no meaningful change;
- **0.1 to 0.25**: moderate shift, a *warning*: log it and look at it in the weekly review;
- **above 0.25**: major shift, an *alert*: someone checks it within a day.

So I'd suggest **warn at 0.1, alert at 0.25**, per feature. On your report, `occ_at_origin` (0.187) and `admissions_24h` (0.141) would be warnings, while `los_21plus_count` (0.262), `is_bank_holiday` (0.334) and `escalation_beds` (0.412) would alert.

**Make it less noisy**
1. **Compare like with like**: use the same month last year as the reference for seasonal features, not the previous month. December vs December 2023 is the question you care about.
2. **Exclude calendar features from alerting**: `is_bank_holiday` drifting in December is expected and tells you nothing. Keep it in the report, not in the alerts.
3. **Alert on performance too**: with a 7-day horizon you get actuals within a week, so the rolling MAE and interval coverage are the real signal. Feature drift is an early warning; an error increase is the thing to act on.
4. **Binning**: PSI depends on the bins. Fix the bin edges from the reference period and keep them, otherwise the scores move between runs for no reason.

`escalation_beds` at 0.41 is worth a look regardless: if winter escalation beds were opened, make sure the bed base feature reflects it, as we discussed at the start.
""", "ssa-psi"),
u("makes sense, will use last year's same month as reference. escalation beds were opened on 3 wards at Calderdale, bed base didn't have them. fixing"),
u("""
how do I set the reference to last year's same month in evidently? it just takes two dataframes
"""),
a("""
Right, Evidently doesn't know about time: it compares whatever two frames you give it. Select them yourself in the flow:

```python
def drift_frames(features: pl.DataFrame, month: date) -> tuple[pd.DataFrame, pd.DataFrame]:
    start, end = month, (month + timedelta(days=32)).replace(day=1)
    current = features.filter(pl.col("origin").is_between(start, end, closed="left"))
    ref_start, ref_end = start.replace(year=start.year - 1), end.replace(year=end.year - 1)
    reference = features.filter(pl.col("origin").is_between(ref_start, ref_end, closed="left"))
    return reference.to_pandas(), current.to_pandas()
```

Evidently works on pandas, so convert at this boundary only.
"""),
u("ok do it like that"),
)

# --- January 2025 ---------------------------------------------------------------------------------------------

session("life-04", "2025-01-08 19:30",
u("""
happy new year! we're doing it, moving to York on Saturday 18 January. found a flat in Clifton, 15 min walk to the station. Sam starts at the uni on the 20th. Can you make me a moving checklist for the next 10 days? we're renting both ends, no kids, one very old cat (Biscuit)
"""),
a("""
Happy new year, and exciting! Here's a 10-day checklist, working back from Saturday the 18th.

**Now (days 10-8)**
- Confirm the van or removal firm, with a time and the parking at both ends (York's residential streets often need a suspension or a permit for a van; ask the council or the letting agent).
- Give notice / confirm the end date with your Leeds landlord, and book the check-out inspection.
- Start packing anything you won't need for two weeks: books, out-of-season clothes.

**Days 7-5**
- Redirect post (Royal Mail redirection takes about 5 working days to start).
- Update your address with: bank, HMRC (via your employer's payroll), GP, dentist, the DVLA for your driving licence, the electoral register, and council tax in both Leeds (closing) and York (opening).
- Broadband at the new flat: it can take 2 weeks to activate, so order it now. A phone hotspot covers the gap.
- Book Biscuit a vet check if he's due, and find a vet in York.

**Days 4-2**
- Pack the kitchen except a "first night" box: kettle, mugs, tea, toilet roll, chargers, bedding, cat food and litter.
- Meter readings photos at the Leeds flat on the last day, and at the York one on the first.
- Clean the Leeds flat (or book a cleaner) for the deposit.

**Moving day**
- Move Biscuit last out of Leeds and first into York, straight into one quiet room with his litter tray, water and familiar bedding. Old cats are stressed by moves; keep him in one room for a few days.

**After**
- Register with a GP in York.
- Your work address and emergency contact details on the HR system.
"""),
u("the biscuit tip is gold, thank you"),
u("what about council tax, do we pay both for january?"),
a("""
Council tax is charged per day, so you pay Leeds up to the day before you move out (the 17th or 18th, depending on the tenancy end) and York from the day you move in. Tell both councils the exact dates online; Leeds will refund or adjust the January bill.
"""),
)

session("work-06", "2025-01-13 09:30",
u("""
Bad news: the Harrogate go-live slipped to 17 February. Their information governance team hasn't signed off the DPIA for the forecast, and nobody told us it was needed until last week. Anjali wasn't thrilled. Can you help me with what a DPIA for this would need to cover? The forecast only uses aggregated ward counts, but the feature pipeline processes patient-level ADT events.
""", "golive2"),
a("""
A DPIA (Data Protection Impact Assessment) is expected under UK GDPR whenever processing of health data is likely to be high risk, and trusts usually require one for any new use of patient data even if the output is aggregated. Yours is actually a fairly good case, because the output is aggregated. The document typically covers:

1. **Description of the processing**: what data (ADT events: pseudonymised patient key, ward, timestamps, event type), from where (the trust's integration engine via MLLP), where it's stored (your Snowflake, region), who has access, how long it's kept.
2. **Purpose and lawful basis**: typically Article 6(1)(e) (public task) for the trust, and Article 9(2)(h) (provision of health or social care / management of health care systems) for health data. Your company is the processor; the trust is the controller.
3. **Necessity and proportionality**: why patient-level events are needed (occupancy can't be computed from daily aggregates accurately enough), and what minimisation you apply: no names, NHS numbers hashed, postcodes not ingested, outputs are ward-level counts only.
4. **Risks to individuals**: re-identification from small counts (e.g. a ward with 1-2 patients), unauthorised access, the forecast being used to make decisions about individual patients (it shouldn't be).
5. **Measures**: suppression of counts below a threshold in any output, role-based access, audit logging, encryption at rest and in transit, a retention schedule, key-pair auth for service accounts.
6. **Sign-off**: the trust's DPO and Caldicott Guardian, plus your company's DPO.

It's worth offering to write a first draft for their IG team: it usually speeds things up considerably compared with waiting for them to send a template.
"""),
u("we'll offer a draft. small count suppression: what threshold is typical?"),
a("""
For NHS outputs, suppressing counts below 5 (sometimes below 10 for public releases) is the convention many trusts use, often with secondary suppression so a suppressed cell can't be recovered from totals. For an internal bed-management tool viewed by staff who can already see the ward census, trusts sometimes accept no suppression. Ask their IG lead which standard they apply rather than guessing.
"""),
u("they apply 'below 5' for anything leaving the trust. the dashboard is inside their network so none needed they say"),
a("""
Good, that's simple. Write it into the DPIA explicitly ("outputs are shown only inside the trust's network to staff with access to the ward census; no suppression applied"), so the reasoning is on record if the tool is later shared more widely.
"""),
)

session("life-05", "2025-01-22 21:00",
u("""
Update: we moved to York on Saturday! Clifton flat is lovely, Biscuit has claimed the radiator. And good news on the work side: I asked Anjali and she agreed I only need to go into the Leeds office once a week now (Wednesdays), instead of 3 days. So the commute is fine.

Question: Wednesdays only, so is a season ticket worth it or should I just buy returns?
""", "city2"),
a("""
Congratulations on the move, and well done Biscuit.

At one day a week, a season ticket doesn't pay off: annual and monthly seasons are priced on the assumption that you travel 4-5 days a week. Your options:

- **Off-peak or anytime day returns**: York to Leeds before 09:00 is peak, so an anytime return. If you can travel after 09:00 on Wednesdays, off-peak returns are a lot cheaper.
- **Flexi Season**: covers 8 days of travel within 28 days, which is about 2 days a week. At 1 day a week you wouldn't use it up.
- **A railcard**: if you're eligible for a 26-30 or Two Together railcard (you and Sam travelling together, e.g. at weekends), that's a third off off-peak fares.

So for once a week, I'd buy a return each Wednesday, and see whether a later start makes off-peak work.
"""),
u("""
yeah returns. it's 1 day a week in the office now, wednesday, since the move
""", "office2"),
a("""
Nice. Wednesdays in the office also make a good anchor for the in-person meetings; worth suggesting the team's planning or retro happens that day.
"""),
)

session("etl-05", "2025-01-28 13:10",
u("""
found a nasty one. occupancy from the polars pipeline is off by one hour for events between late March and late October. tests:

$ pytest tests/test_occupancy.py -q
..F.F.
=================================== FAILURES ===================================
______________________ test_occupancy_across_bst_change ______________________

    def test_occupancy_across_bst_change():
        events = load_fixture("bst_2024.parquet")
        occ = occupancy_hourly(events).collect()
>       assert occ.filter(pl.col("hour") == datetime(2024, 3, 31, 2))["occupancy"][0] == 23
E       AssertionError: assert 22 == 23

tests/test_occupancy.py:41: AssertionError
_____________________ test_discharge_hour_in_summer ___________________________
E       AssertionError: assert datetime(2024, 7, 4, 14, 0) == datetime(2024, 7, 4, 13, 0)
2 failed, 4 passed in 1.22s

the HL7 timestamps are local time with no offset, e.g. 20240704143000
"""),
a("""
That's the classic HL7 v2 timestamp problem: `TS` values without an offset are in the sender's local time, so in summer they're BST (UTC+1) and in winter GMT (UTC+0). If the parser treats them as UTC (or as naive and later compared to UTC), summer events shift by an hour.

Fix it at parse time, once:

```python
def parse_hl7_ts(col: str) -> pl.Expr:
    return (
        pl.col(col)
        .str.strptime(pl.Datetime("us"), "%Y%m%d%H%M%S", strict=False)
        .dt.replace_time_zone("Europe/London", ambiguous="earliest", non_existent="null")
        .dt.convert_time_zone("UTC")
    )
```

Two edge cases this handles explicitly:
- **The spring-forward hour** (01:00-02:00 local on the last Sunday of March doesn't exist): `non_existent="null"` makes those rows null, so count them, since a real feed shouldn't produce any, and it's a data-quality signal if it does.
- **The autumn fall-back hour** (01:00-02:00 happens twice): `ambiguous="earliest"` picks the first. The ordering of events in that hour can be wrong; using the message control ID sequence as a tie-break helps.

Also add a pandera check that every timestamp column is tz-aware UTC, so a future source can't reintroduce naive times.
""", "ssa-dst"),
u("fixed, 6 passed. also the fixture test for the ambiguous hour passes with earliest. thanks"),
u("should the pandera tz check be in every schema or one shared thing"),
a("""
One shared check, applied in every schema. pandera lets you put it on a base model:

```python
class UtcTimestamps(pa.DataFrameModel):
    @pa.dataframe_check
    def all_utc(cls, data) -> bool:
        return all(dtype == pl.Datetime("us", "UTC") for name, dtype in data.lazyframe.collect_schema().items()
                   if isinstance(dtype, pl.Datetime))

class AdtEvent(UtcTimestamps):
    ...
```
"""),
)

session("sql-01", "2025-01-30 10:50",
u("""
this snowflake query for the dashboard got slow (2 min), used to be 8s:

SELECT w.ward_name, f.origin, f.horizon, f.q10, f.q50, f.q90
FROM analytics.forecasts f
JOIN analytics.wards w ON w.trust_id = f.trust_id AND w.ward_code = f.ward_code
WHERE f.trust_id = 'harrogate'
  AND f.origin = (SELECT max(origin) FROM analytics.forecasts WHERE trust_id = 'harrogate');

query profile says: TableScan forecasts, partitions scanned 4,812 of 4,812, bytes scanned 61.3GB
"""),
a("""
"4,812 of 4,812 partitions" means no pruning at all: Snowflake reads the whole table twice (once for the subquery's `max(origin)`, once for the main scan). It got slow because the table grew, probably since every nightly run appends forecasts for every ward and horizon.

Two fixes:

1. **Cluster the table on (trust_id, origin)**: `ALTER TABLE analytics.forecasts CLUSTER BY (trust_id, origin);` With micro-partitions organised that way, `trust_id = 'harrogate' AND origin = ...` prunes to a handful of partitions. Automatic clustering has a cost, so check the credit usage after a week.
2. **Keep a "latest" table**: have the nightly flow write the newest forecast run to `analytics.forecasts_latest` (a small table, replaced each night). The dashboard reads that, and the history table is only for backtests.

I'd do 2 for the dashboard regardless: a dashboard shouldn't query a growing history table.
"""),
u("how big is the latest table? 140 wards x 7 horizons?"),
a("""
For Harrogate alone it's its wards x 7 horizons, one row each with the three quantiles; across all three trusts, about 140 x 7 = 980 rows. Tiny, so the dashboard query becomes instant regardless of clustering.
"""),
u("""
done, dashboard query 0.4s now. keeping the history unclustered for now
"""),
a("""
Good. Just make the replace atomic (`CREATE OR REPLACE TABLE ... AS SELECT` or a swap) so the dashboard never sees a half-written table.
"""),
)

# --- February 2025 --------------------------------------------------------------------------------------------

session("life-06", "2025-02-03 18:20",
u("""
hurt my knee on yesterday's long run (Sunday 2 Feb), pain just below the kneecap, worse going downstairs. saw a physio this morning: patellar tendinopathy, no running for 3 weeks, then a gradual return. she gave me exercises. I was going to race a 10k in March, guess not.
""", "knee"),
a("""
Sorry to hear that, it's frustrating, especially when training was going well. Patellar tendinopathy usually responds well to exactly what your physio described: load management and progressive strengthening, rather than complete rest.

A few things that tend to help people stick to it (follow your physio's specifics over anything here):
- **Do the exercises consistently**: isometric holds (e.g. wall sits or a leg extension hold) are often used early because they can reduce pain. Progress only as she advises.
- **Keep fit without the knee**: cycling at low resistance or swimming are often fine if pain-free; ask her which she's happy with.
- **Use a pain scale**: a common rule is that up to 3/10 pain during exercise that settles by the next morning is acceptable; if it's worse the next day, back off.
- **Plan the return**: a walk-run programme over 2-3 weeks is typical before normal runs.

As for the March 10k: there might be a later one you could aim for instead, which gives you a target without rushing the tendon.
"""),
u("there's a York 10k in May, maybe that one"),
u("can I cycle? we have bikes"),
a("""
Often yes, with low resistance and a saddle high enough that the knee doesn't bend deeply under load, but it's your physio's call since she's seen the knee. Ask her at the next appointment; if she agrees, easy rides are a good way to keep your fitness during the three weeks.
"""),
u("she said yes to flat easy rides. ok"),
)

session("ops-02", "2025-02-06 09:15",
u("""
airedale feed down since 6pm yesterday. no TLS errors this time, just nothing arriving:

$ ss -tlnp | grep 2575
LISTEN 0  128  0.0.0.0:2575  0.0.0.0:*  users:(("mllp-listener",pid=1183,fd=7))

$ sudo tcpdump -i eth0 host 10.52.3.17 -c 5
tcpdump: verbose output suppressed, use -v or -vv for full protocol decode
listening on eth0, link-type EN10MB (Ethernet), capture size 262144 bytes
09:02:44.118 IP 10.52.3.17.40212 > 10.61.0.9.2600: Flags [S], seq 219931, win 64240
09:02:45.131 IP 10.52.3.17.40212 > 10.61.0.9.2600: Flags [S], seq 219931, win 64240
09:02:47.147 IP 10.52.3.17.40212 > 10.61.0.9.2600: Flags [S], seq 219931, win 64240

so they're sending to 2600??
"""),
a(r"""
Yes, that tcpdump output is conclusive: the Airedale host (10.52.3.17) is sending SYNs to port **2600** on your server, while your listener is on **2575**. Nothing answers on 2600, so their engine retries the SYN and queues the messages.

Most likely their integration team changed the outbound route configuration (a new interface engine version or a template that defaults to a different port).

Options:
1. **Ask them to revert to 2575.** Cleanest, but depends on their change process, which might take days.
2. **Listen on 2600 too, now.** If the firewall allows it, start a second listener (or add the port to the existing one) so their queue drains immediately, then agree the port with them.

```bash
# if the listener takes a list of ports in its config
sudo sed -i 's/^ports = \[2575\]/ports = [2575, 2600]/' /etc/mllp/listener.toml
sudo systemctl restart mllp-listener
```

Check the firewall: `sudo ufw status | grep 2600` or the cloud security group.

For the incident note: their side changed the destination port without notice. A useful action is a "no messages from trust X in 60 minutes during the day" alert, which would have fired at about 7pm yesterday instead of you finding it this morning.
"""),
u("""
opened 2600, their queue drained, 9,870 messages replayed. turns out their integration team changed the port during an engine upgrade and didn't tell anyone. second feed outage this winter. adding the no-messages alert today
""", "outage2"),
a("""
Good outcome. For the "no messages" alert, per trust, during 07:00-22:00 only (overnight gaps can be normal at small sites):

```sql
SELECT trust_id, max(received_at) AS last_message
FROM raw.mllp_messages
GROUP BY trust_id
HAVING max(received_at) < dateadd('minute', -60, current_timestamp());
```

Run it every 15 minutes from a small flow and notify when it returns rows.
"""),
)

session("model-04", "2025-02-10 15:00",
u("""
Fairness audit for the readmission model (after isotonic calibration), 2024 holdout:

group                     n       auroc   ece     obs_rate  mean_pred
overall                 48,000    0.74    0.011   0.112     0.114
age 18-44                9,120    0.71    0.014   0.071     0.078
age 45-64               13,440    0.73    0.012   0.098     0.101
age 65-79               14,880    0.74    0.010   0.128     0.127
age 80+                 10,560    0.70    0.019   0.149     0.131
sex F                   25,010    0.74    0.011   0.108     0.110
sex M                   22,990    0.74    0.012   0.117     0.118
imd decile 1-2           8,930    0.72    0.021   0.141     0.122
imd decile 9-10          7,480    0.75    0.013   0.088     0.094
ethnicity not stated     6,220    0.69    0.024   0.104     0.121

overall AUROC is 0.74. The 80+ and most deprived groups are underpredicted. What do I do with this?
""", "auroc"),
a("""
This is a solid audit, and it tells a clear story. Overall the model discriminates reasonably (AUROC 0.74) and it's well calibrated (ECE 0.011), but calibration is worse for exactly the groups at the highest risk:

- **Age 80+**: observed 14.9%, predicted 13.1%: about 12% relative underprediction.
- **IMD deciles 1-2 (most deprived)**: observed 14.1%, predicted 12.2%: about 13% relative underprediction.
- **Ethnicity not stated**: the opposite, overprediction (10.4% vs 12.1%), and the lowest AUROC (0.69).

Underprediction in high-risk groups matters most, because if the scores are used to target follow-up calls, those patients would be ranked lower than their true risk.

**What to do**
1. **Check whether it's a feature gap**: are frailty, social care involvement or previous admissions in the model? Those often explain excess risk in 80+ and deprived groups. Adding them tends to fix both discrimination and calibration.
2. **Group-wise recalibration**: fitting isotonic per group (or adding the group as an input to the calibrator) fixes calibration-in-the-large, but discuss with your clinical safety officer whether using deprivation as an input is acceptable.
3. **"Not stated" is a data-quality group**: it's likely a mix of people, some of whom were never asked. Its behaviour probably says more about the recording process than about the patients. Report it, but don't tune towards it.
4. **Confidence intervals**: bootstrap the ECE and the observed-minus-predicted gaps per group, so the review can see which differences are real.

Write it up with these tables and the actions; that's the KR for the clinical review.
"""),
u("ok, adding frailty score + prior admissions 12m as features first, then rerun the audit"),
u("""
rerun with frailty + prior admissions:

group                     auroc   ece     obs_rate  mean_pred
overall                   0.76    0.010   0.112     0.113
age 80+                   0.72    0.012   0.149     0.143
imd decile 1-2            0.74    0.013   0.141     0.136
ethnicity not stated      0.70    0.022   0.104     0.117
""", "auroc2"),
a("""
That's a real improvement where it mattered: the 80+ gap shrank from 1.8 to 0.6 points and the most deprived group's from 1.9 to 0.5, and overall AUROC went up from 0.74 to 0.76. "Not stated" is still overpredicted, consistent with it being a recording issue. I'd write up both runs, the before and after, since the change is the most convincing part.
"""),
)

session("life-07", "2025-02-12 08:10",
u("""
I'm an auntie!! my sister Eilidh had her baby yesterday, 11 February, a boy called Rory, 3.4kg. everyone's well. what's a good gift that isn't another babygrow?
""", "nephew"),
a("""
Congratulations! Welcome to Rory. Some ideas that new parents often appreciate more than clothes:

- **Food**: a batch of frozen meals or a meal-delivery voucher for the first weeks.
- **A practical service**: a cleaner for a few sessions, or a nappy subscription for a month.
- **Something for Eilidh**: a nice dressing gown, good hand cream, a book or audiobook credit for night feeds.
- **A keepsake**: a book you loved as a child with a note written inside, or a print of his name and birth date.
- **Time**: an offer to visit and hold the baby while they sleep or shower is the gift most parents mention afterwards.
"""),
u("""
love the book idea. also we booked a holiday, Tenerife 8-15 March, so I've put in 5 days of annual leave (10-14 March). my physio says I can walk a lot, just no running yet
""", "leave2"),
a("""
Sounds like a great plan for a mid-March break. Tenerife has lots of walking, from the coastal paths to the lower trails around Teide, which will be kind to the knee while you can't run. Take your exercise band; you can keep doing the physio programme on holiday.
"""),
u("any good picture books? he's a baby obviously but for later"),
a("""
Some long-lasting favourites: "The Gruffalo" (Julia Donaldson), "Owl Babies" (Martin Waddell), "Where the Wild Things Are" (Maurice Sendak) and, since the family is Scottish, "Katie Morag" stories (Mairi Hedderwick). A note inside the cover about why you chose it makes it a keepsake.
"""),
u("katie morag is perfect, mum read those to us"),
)

session("work-07", "2025-02-14 12:00",
u("""
Harrogate go-live moved again, now 3 March. DPIA is signed (yay) but their EPR upgrade has a change freeze until 28 Feb, and they don't want anything new on the bed management screens during the freeze. Hopefully the last slip. I need to tell the bed managers, can you help me write a short message?
""", "golive3"),
a("""
Sure. Here's a short, friendly version:

> Subject: Occupancy forecast: new go-live date, Monday 3 March
>
> Hi all,
>
> A quick update on the ward occupancy forecast. The data protection review is now complete, thank you to everyone who helped. Because of the EPR upgrade's change freeze until 28 February, we'll go live on **Monday 3 March** instead of 17 February.
>
> Nothing changes for you before then. On 3 March the forecast will appear in the bed management dashboard, with the expected occupancy for each ward over the next 7 days and a range showing how full it could plausibly get. We'll join the 8am bed meeting that week to walk through it and take questions.
>
> Thanks for your patience,
> [your name], Clinical ML, Wardline Health

You could add one line about what you'd like from them in the first week (e.g. "tell us when the forecast looks wrong").
"""),
u("perfect, sending"),
a("""
Also worth a line to Anjali in Friday's update: the cause (the EPR freeze) was outside your control, but adding "change freezes" to a go-live checklist for the next trusts stops it happening again.
"""),
)

session("talk-02", "2025-02-20 17:45",
u("""
presented our readmission fairness audit at the NHS-R Community webinar today. 140 attendees, good questions about the "ethnicity not stated" group. someone from a Manchester trust asked whether we'd share the code. can we? what should I check first?
""", "talk2"),
a("""
Congrats on the webinar! Before sharing code, check these:

1. **Ownership and licence**: the code belongs to Wardline Health, so you need your company's OK. Ask Anjali; many health-software companies are happy to open-source evaluation tooling (not the model), often under MIT or Apache-2.0.
2. **No data**: make sure the repository has no data, fixtures made from real records, notebook outputs with real numbers, or paths and hostnames of trust systems. Search the git history too, not just the current tree (`gitleaks detect` helps for secrets; for data, look for any `.parquet`, `.csv` or `.ipynb` files with outputs).
3. **No model weights or thresholds** tied to a specific trust's data, unless the trust agrees.
4. **Separate the audit from the pipeline**: share the audit functions (metrics by group, the bootstrap CIs, the reliability plots) with a synthetic example dataset, not the whole repo.
5. **The trust's view**: as data controller, the trust may want to know; a courtesy email is cheap.

A small standalone package with a synthetic example usually goes down well in the NHS-R community.
"""),
u("I'll pitch that to Anjali: standalone package, synthetic data only"),
u("how do I make synthetic data that still shows the calibration gaps? otherwise the example is boring"),
a("""
Simulate it from a simple generative model you control, rather than synthesising from real records:

```python
rng = np.random.default_rng(0)
n = 20_000
age_band = rng.choice(["18-44", "45-64", "65-79", "80+"], n, p=[0.2, 0.28, 0.31, 0.21])
base = {"18-44": -2.6, "45-64": -2.3, "65-79": -2.0, "80+": -1.8}
logit = np.vectorize(base.get)(age_band) + rng.normal(0, 0.8, n)
outcome = rng.random(n) < 1 / (1 + np.exp(-logit))
score = 1 / (1 + np.exp(-(logit - 0.15 * (age_band == "80+"))))  # a model that underpredicts the oldest
```

The example then shows an underpredicted group by construction, and nobody can mistake it for real data.
"""),
)

session("orch-04", "2025-02-25 10:40",
u("""
moving the flow images to python 3.11 today (we've been on 3.10 since the start), mainly for speed and because pandera's newest release wants 3.11 for some typing stuff. docker build fails:

#12 [builder 5/7] RUN pip install --no-cache-dir -r requirements.txt
#12 18.41 ERROR: Ignored the following versions that require a different python version: 1.26.0 Requires-Python <3.13,>=3.9
#12 18.42 ERROR: Could not find a version that satisfies the requirement pyodbc==4.0.35 (from versions: 5.0.0, 5.0.1, 5.1.0, 5.2.0)
#12 18.42 ERROR: No matching distribution found for pyodbc==4.0.35
#12 ERROR: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" exited with code 1
""", "py2"),
a("""
The real error is the second one: `pyodbc==4.0.35` has no wheel (and no sdist that builds cleanly) for Python 3.11 on your base image, and pip offers only 5.x versions. The first "ignored versions" line is just noise about another package's `Requires-Python`.

What to do:
1. **Do you still need pyodbc?** It's usually there for SQL Server. If it was only used by an old Airflow DAG for a trust's reporting database, you might be able to drop it.
2. If you need it, **bump to `pyodbc>=5.1`**. The 5.x API is compatible for normal use (`connect`, `cursor.execute`, `fetchall`). Check for `pyodbc.Connection.setdecoding` calls and any reliance on the old `Row` behaviour.
3. The 5.x wheels need `unixODBC` at runtime in the image: `apt-get install -y unixodbc` (and the Microsoft ODBC driver if you connect to SQL Server).

After bumping, rebuild and run the flows' test suite in the image: `docker run --rm img pytest -q`.
"""),
u("pyodbc is used for calderdale's sql server reporting db so bumped to 5.2.0, added unixodbc. builds, tests pass on 3.11. all flows on python 3.11 from today"),
a("""
Nice, one less version to think about. Update the ruff `target-version` to `py311` as well, and the laptop venv, so all three agree.
"""),
u("done, laptop's on 3.11 too"),
)

session("review-01", "2025-02-27 14:20",
u("""
reviewing a PR from our junior, Tom. not sure how to word the feedback. diff:

diff --git a/flows/features/lags.py b/flows/features/lags.py
@@ -18,9 +18,12 @@ def add_lags(occ: pl.LazyFrame) -> pl.LazyFrame:
-    grid = occ.sort("trust_id", "ward_code", "hour")
+    grid = occ.sort("trust_id", "ward_code", "hour").collect().to_pandas()
+    for d in LAGS_DAYS:
+        grid[f"occ_lag_{d}d"] = grid.groupby(["trust_id", "ward_code"])["occupancy"].shift(24 * d)
+    grid = pl.from_pandas(grid).lazy()
-    return grid.with_columns(
-        [pl.col("occupancy").shift(24 * d).over("trust_id", "ward_code").alias(f"occ_lag_{d}d") for d in LAGS_DAYS]
-    )
+    return grid

his description says "fixed lags being wrong for the first day of each ward"
"""),
a("""
The change goes back to pandas for something Polars does, and materialises the whole frame (`.collect()`) in the middle of a lazy pipeline, which undoes the memory savings. But the bug he describes is probably real, so the feedback should start there.

A way to word it:

> Thanks for digging into this: you're right that something's off for the first day of each ward, and the test you added shows it clearly. I don't think switching to pandas fixes the cause, though: `shift().over()` and `groupby().shift()` do the same thing here. My guess is that the first day's lags are null because there's no earlier data, and something downstream fills those nulls with 0. Could you check where the nulls become zeros? Also, the `.collect().to_pandas()` loads everything into memory, which we moved to Polars to avoid, so let's keep this part lazy.

That keeps credit for finding the bug, explains the concern, and gives him the next step rather than the answer.
"""),
u("""
that's kind but clear, thanks. he found it: fill_null(0) in the model's feature prep. fixed it to leave nulls (lightgbm handles them)
"""),
a("""
Great result for him: he found the real cause himself. LightGBM handles missing values natively, learning which branch they go down, so leaving nulls is the right fix.
"""),
)

# --- March 2025 -----------------------------------------------------------------------------------------------

session("model-05", "2025-03-04 09:20",
u("""
Harrogate pilot went live yesterday (Monday 3 March)!! finally. first bed meeting with it this morning went well, one matron asked for the forecast per bay which we can't do yet.

Here's the backtest summary I showed Anjali last week, in case you want to sanity check what I'm claiming:

horizon  mae_beds  q10_cov  q90_cov  width80
1        1.21      0.11     0.91     4.9
2        1.52      0.10     0.90     5.8
3        1.74      0.09     0.89     6.6
4        1.93      0.09     0.89     7.1
5        2.05      0.08     0.88     7.6
6        2.16      0.08     0.88     8.0
7        2.24      0.08     0.87     8.3
all      1.83      0.09     0.89     6.9

I'm saying "MAE of 1.8 beds on average over 7 days, and the 80% range holds". fair?
""", "golive-done"),
a("""
Congratulations on going live! That's been a long road since the January date.

Your claim is fair, with one nuance worth saying out loud:

- **MAE 1.8 beds (1.83 over all horizons)** is right as an average, but it grows from 1.2 beds at day 1 to 2.2 at day 7. Bed managers care most about days 1-3; telling them "about 1-2 beds out for the next three days" is more useful than the average.
- **Coverage**: the 0.9 quantile covers 87-91% and the 0.1 quantile has 8-11% of actuals below it, so the 80% interval covers roughly 78-82% depending on the horizon. "The 80% range holds" is fair. There's a slight drift towards overconfidence at longer horizons (q90 coverage 0.87 at day 7), which a per-horizon conformal adjustment would fix if it grows.
- **Width**: an 80% range 5-8 beds wide on a typical 28-bed ward is honest, but say it: "the range is a few beds either side".

For the first month of the pilot, track the same table on live forecasts: the backtest is a claim, the live numbers are the evidence.
""", "mae"),
u("good point on days 1-3, will say it that way. live tracking is in the plan"),
u("per bay forecast, is it even feasible? bays are 4-6 beds"),
a("""
Feasible technically, but I'd be cautious. At 4-6 beds the counts are small and noisy, so the intervals will be nearly as wide as the bay, and bay allocation depends on decisions (sex, infection control) that aren't in the ADT feed. A more useful version is often "which wards will have side rooms free", if side rooms are what the matron cares about. Ask her what decision the bay forecast would help with before building it.
"""),
u("will ask her at next week's meeting"),
)

session("life-08", "2025-03-17 19:05",
u("""
back from Tenerife, it was lovely. we did the Masca gorge walk and a whale watching boat. knee held up fine with all the walking, physio cleared me to start walk-run this week. very slowly.

work question: I've got 140 unread emails. how do I triage without losing a day
"""),
a("""
Welcome back, and good news about the knee!

For the inbox, a 45-minute triage works for most people:

1. **Search first, not top to bottom**: search for your manager's name, your direct stakeholders (the Harrogate bed managers), and words like "urgent", "incident", "go-live". Handle those first.
2. **Sort by thread, not message**: conversations that resolved themselves while you were away can be archived after reading the last message.
3. **Bulk archive notifications**: CI, Prefect, GitHub and calendar notifications: archive them all; if something important broke, it will have reached you another way.
4. **Two minutes rule**: anything answerable in two minutes, answer now. Everything else becomes a task with a date, then archive the email.
5. **Tell people you're back**: a short message in the team channel gets people to send you the three things that actually need you.
"""),
u("the search-first trick saved me. done in 40 min"),
u("and the walk-run plan, how fast should I progress"),
a("""
Your physio's plan comes first, but a typical progression is 1 min run / 1 min walk for 20 minutes, then increasing the running part every second or third session if the knee is calm the next morning: 2/1, 3/1, 5/1, then continuous 15-20 minutes. Two to three weeks to continuous running is normal.
"""),
)

session("work-08", "2025-03-20 14:30",
u("""
Big week: we signed Bradford and York trusts, so the product's at 5 trusts now (Harrogate, Airedale, Calderdale, Bradford, York). Anjali wants an onboarding checklist for the data side so the next trust takes weeks not months. Can you draft it? Bradford sends FHIR R4 instead of HL7 v2, York is HL7 v2 like the others.
""", "trusts2"),
a("""
Congratulations, that's a big step. Here's a data-side onboarding checklist, grouped by phase. I've marked the items that differ for a FHIR feed like Bradford's.

**1. Governance (start on day 1, it's the longest pole)**
- [ ] Data processing agreement signed (trust as controller, Wardline as processor)
- [ ] DPIA: reuse the Harrogate one as a template; the trust's IG team reviews it
- [ ] Small-count suppression standard agreed with the trust's IG lead
- [ ] Named contacts: integration team, IG lead, clinical lead, bed management lead

**2. Connectivity**
- [ ] HL7 v2: MLLP endpoint, port (agree it in writing, after the Airedale surprise), mutual TLS certificates exchanged, expiry dates recorded in the certificate monitor
- [ ] FHIR R4 (Bradford): base URL, auth (usually OAuth2 client credentials / SMART backend services), which resources (`Encounter`, `Location`, `Patient` minimal), and whether they push (subscriptions) or you poll
- [ ] Firewall rules both sides; a test message end to end

**3. Data mapping**
- [ ] Ward codes to ward names, specialties and bed base, including escalation beds
- [ ] Event types: HL7 A01/A02/A03/A08/A11/A13; for FHIR, `Encounter.status` and `Encounter.location` history mapped onto the same admit/transfer/discharge events
- [ ] Timestamps: local time without an offset (HL7 v2) vs ISO 8601 with an offset (FHIR). Run the BST tests on a fixture from their feed.
- [ ] Pseudonymisation of the patient key at ingest

**4. Data quality**
- [ ] pandera schema for the trust, with any trust-specific rules (e.g. which event types carry admit_ts)
- [ ] A historical extract (ideally 2-3 years) loaded and checked: row counts per month, occupancy reconstructed from events vs the midnight census within 1-2 beds
- [ ] "No messages in 60 minutes" alert configured for the trust

**5. Model**
- [ ] Backtest per ward on the trust's history; report MAE and coverage per horizon
- [ ] Decide: pooled model with the new trust, or separate until enough history
- [ ] Drift monitor reference period set (same month last year)

**6. Go-live**
- [ ] Change freezes on the trust's side checked before picking a date (the Harrogate lesson)
- [ ] Bed managers briefed; first week's bed meetings attended
- [ ] Live MAE and coverage tracked weekly for the first month

If the connectivity and governance steps start in parallel on day 1, 6-8 weeks is a realistic target for an HL7 v2 trust; FHIR may need 2-3 weeks more the first time.
"""),
u("this is great. adding it to confluence as-is pretty much"),
u("the FHIR part scares me a bit, never done FHIR"),
a("""
It's less scary than it looks. For your purposes FHIR R4 is JSON over HTTP: you search `Encounter` resources updated since your last poll, follow the `next` links for paging, and map each encounter's `status`, `period` and `location` history to the same events your HL7 pipeline produces. Ask Bradford early for a test endpoint with synthetic patients, and check which optional search parameters their server supports (`_lastUpdated` especially).
"""),
u("ok, asking for a sandbox today"),
)

session("etl-06", "2025-03-26 11:50",
u("""
York's historical extract landed in Snowflake. sanity check query + result:

SELECT trust_id, date_trunc('month', event_ts) AS month, count(*) AS events, count(DISTINCT patient_key) AS patients
FROM raw.adt_events
WHERE trust_id = 'york' AND event_ts >= '2024-01-01'
GROUP BY 1, 2 ORDER BY 2;

TRUST_ID | MONTH      | EVENTS  | PATIENTS
york     | 2024-01-01 | 418,220 | 61,905
york     | 2024-02-01 | 392,114 | 58,337
york     | 2024-03-01 | 405,870 | 60,012
york     | 2024-04-01 | 396,447 | 59,120
york     | 2024-05-01 | 201,903 | 31,788
york     | 2024-06-01 | 399,016 | 59,564
york     | 2024-07-01 | 410,552 | 60,901

May is half. gap or real?
"""),
a("""
That's almost certainly a gap in the extract, not real activity: a 50% drop in a single month with both events *and* distinct patients halving, and the months either side normal, doesn't happen in a hospital (even a major incident or strike wouldn't halve admissions for a whole month).

Check which days are missing:

```sql
SELECT date_trunc('day', event_ts) AS day, count(*) AS events
FROM raw.adt_events
WHERE trust_id = 'york' AND event_ts >= '2024-05-01' AND event_ts < '2024-06-01'
GROUP BY 1 ORDER BY 1;
```

If you see roughly 13,000 a day and then zeros from some date, it's a missing extract file (or a failed load of one). If every day is about half, it's more likely one of their source systems (e.g. a second site's feed) is missing for the month.

Either way, ask York's integration team to re-extract May 2024, and add a "monthly events within 20% of the trailing mean" check to the trust's onboarding data-quality step so this is caught automatically next time.
"""),
u("""
zeros from 2024-05-16 to 2024-05-31. missing file. asked them to re-send
""", "york-gap"),
a("""
Good, that's the cheap version of the problem. When the file comes, reload the whole month (delete then insert for `trust_id = 'york'` and May 2024) rather than appending, so you can't end up with duplicates if part of it was loaded before.
"""),
)

session("life-09", "2025-03-29 12:30",
u("""
ok I'm back!! York parkrun at the Knavesmire this morning: 24:51, a new PB. the walk-run plan and all those physio exercises paid off, knee totally fine. also treated myself to a Garmin Forerunner 165 (£249) for the return to running, mainly for the heart rate zones
""", "parkrun3"),
a("""
That's fantastic: 24:51, a new PB only a few weeks after being cleared to run, and almost three minutes faster than your first parkrun in September. The physio work clearly paid off.

The Forerunner 165 is a good choice for that. A couple of tips for heart rate zones:
- Set your max heart rate from a real effort (a hard parkrun finish is a decent estimate) rather than 220 minus age, which can be 10-15 bpm out either way.
- Wrist HR is fine for easy runs but lags on intervals; judge intervals by pace or feel.
- Keep most runs in zone 2 for the next few weeks so the knee gets back to volume gently.
"""),
u("""
spent way too much on running stuff this year lol. ok, York 10k in May is the target now
""", "spend2"),
)

# --- April 2025 -----------------------------------------------------------------------------------------------

session("model-06", "2025-04-03 16:20",
u("""
With 5 trusts now I need a proper retraining schedule for the occupancy model. Currently it retrains weekly on Sunday at 3am (model-retrain flow) regardless. Anjali asked: should we retrain on drift instead? What's the best practice?
"""),
a("""
Both, usually: a fixed schedule as the default, and drift or performance as a trigger for extra retrains and, more importantly, for a human to look. Some points for your setting:

**Keep the weekly schedule**
Occupancy depends on recent patterns (winter pressures, a ward closing), and with a 7-day horizon a week-old model is already missing recent information. Weekly retrains are cheap for you (the build is 11 minutes). Retraining only on drift tends to fire too late for seasonal shifts.

**Gate the deployment, not the training**
Every retrain should produce a candidate that only replaces the live model if it passes:
- backtest MAE on the last 4 weeks no worse than the live model's by more than, say, 5%;
- interval coverage within 0.75-0.85 for the 80% interval;
- no ward with MAE worse than twice its previous value (catches data problems at one trust).

**Use drift to investigate**
A PSI alert or a jump in live MAE should trigger an alert to a person and an on-demand retrain, not an automatic swap.

**Per-trust checks**
With 5 trusts, a data problem at one (like York's missing May) can quietly degrade the pooled model for all. Compute the gates per trust.

**In Prefect**
The `model-retrain` flow can end with an `evaluate_candidate` task and a `promote` task that only runs when the gates pass, with an automation that notifies the team channel when promotion is skipped.
"""),
u("deployment gate per trust is the key idea for me. writing it up for Anjali"),
u("should the 5% MAE tolerance be per trust or overall"),
a("""
Per trust, computed on each trust's wards, with the overall as a second check. A pooled model can get better overall while getting worse for the smallest trust, and the overall number hides that. If any trust fails its gate, don't promote, and alert with the trust's numbers.
"""),
)

session("work-09", "2025-04-09 10:05",
u("""
End of year review with Anjali today. Got the promotion: I'm moving from Data Engineer to ML Engineer (senior band), effective 1 May. She specifically mentioned the Harrogate go-live and the fairness audit write-up. Can you help me write a short thank-you note to the Harrogate bed managers? They gave a lot of feedback during the pilot.
"""),
a("""
Congratulations on the promotion, well deserved from everything you've described!

Here's a short note:

> Dear all,
>
> I wanted to say thank you for everything you've put into the occupancy forecast pilot over the last few weeks. Your feedback at the bed meetings, from the matron who asked for forecasts per bay to the questions about the range, has shaped what we're building next.
>
> The forecast is now being rolled out to other trusts, and the way it works is in large part down to your patience and honesty with us.
>
> Thank you,
> [name]
"""),
u("lovely, sending it"),
u("also she asked me to think about hiring, we get a junior ML engineer headcount in Q3. first time I'll be interviewing"),
a("""
That's a nice sign of trust. For a first hiring loop, agree with Anjali on what the role needs (3-4 skills, e.g. Python and SQL, evaluating a model honestly, communicating with clinicians), then make each interview stage test one or two of them with the same questions for every candidate, scored against written criteria before you discuss. A small take-home or a pairing session on a realistic problem (a leaky backtest to spot, say) tells you more than trivia questions.
"""),
)

session("etl-07", "2025-04-15 15:35",
u("""
Bradford's FHIR API. Our poller only gets the first page of Encounters:

GET /fhir/R4/Encounter?_lastUpdated=gt2025-04-14T00:00:00Z&_count=100

{
  "resourceType": "Bundle",
  "type": "searchset",
  "total": 1742,
  "link": [
    {"relation": "self", "url": "https://fhir.bradford.example.nhs.uk/fhir/R4/Encounter?_lastUpdated=gt2025-04-14T00:00:00Z&_count=100"},
    {"relation": "next", "url": "https://fhir.bradford.example.nhs.uk/fhir/R4/Encounter?_getpages=9f2c1e&_getpagesoffset=100&_count=100"}
  ],
  "entry": [ ...100 entries... ]
}

our code does requests.get(url, params=...) once. how should pagination work here?
"""),
a("""
FHIR search paging is link-driven: the server tells you the next page's URL in `link` with `relation: "next"`, and you follow it until there's no `next` link. You shouldn't construct page URLs yourself (the `_getpages` token is server-specific; this looks like a HAPI FHIR server).

```python
def encounters_since(session: requests.Session, base: str, since: str) -> Iterator[dict]:
    url, params = f"{base}/Encounter", {"_lastUpdated": f"gt{since}", "_count": 100}
    while url:
        response = session.get(url, params=params, timeout=30)
        response.raise_for_status()
        bundle = response.json()
        yield from (entry["resource"] for entry in bundle.get("entry", []))
        url = next((link["url"] for link in bundle.get("link", []) if link["relation"] == "next"), None)
        params = None  # the next link already carries the query
```

Two more things worth knowing:
- `total` (1,742) is optional on many servers and can be an estimate; don't use it to decide when to stop.
- Paging tokens expire (on HAPI, by default after a while), so a poller that pauses mid-way can get a 410. Restart the search from your last `_lastUpdated` watermark in that case, and make the load idempotent (upsert on the Encounter id and version).
"""),
u("that fixed it, 1,742 encounters loaded. upserting on id+meta.versionId"),
u("bradford encounters have location history as an array, how do I get transfers from it"),
a("""
Each `Encounter.location` entry has a `location` reference, a `status` and a `period`. Sort the entries by `period.start`; each entry after the first is a transfer in (and the previous one's `period.end` the transfer out). If `period.end` is missing on the last one and the encounter is `in-progress`, the patient is still there. Map the first to your A01, each later one to the A02 pair, and the encounter's `period.end` with status `finished` to A03.
"""),
u("that's exactly the mapping I needed. writing tests for it with their sandbox data"),
)

session("misc-01", "2025-04-22 20:50",
u("""
weekend side project: a tiny script that pulls my parkrun results and plots them. there's no official API. is scraping my own results page ok?
"""),
a("""
parkrun's terms of use don't allow automated scraping of the site, and they have blocked scrapers in the past, so I wouldn't build on scraping, even for your own results.

Alternatives that stay within the rules:
- **Copy the table manually**: your results page lists all your runs; copying it into a CSV once, then adding one row per Saturday, is a minute a week.
- **Your Garmin data**: the Forerunner records each parkrun as an activity; Garmin Connect lets you export activities (CSV or FIT files), and those include time, distance and heart rate, which is richer for plotting anyway.
- **Email results**: parkrun emails your result each week; a mail filter plus a small parser of your own inbox is fine.

Then the plot is a few lines:

```python
import polars as pl
import matplotlib.pyplot as plt

runs = pl.read_csv("parkrun.csv", try_parse_dates=True).sort("date")
plt.plot(runs["date"], runs["seconds"] / 60, marker="o")
plt.gca().invert_yaxis()
plt.ylabel("minutes")
plt.title("parkrun 5k")
plt.savefig("parkrun.png", dpi=150)
```
"""),
u("csv it is. 14 runs since september, not too bad to type"),
a("""
That's fine. Add a `note` column too (weather, felt bad, course) so the dips in the plot have explanations later.
"""),
)

session("ci-01", "2025-04-24 11:15",
u("""
CI is slow (9 min) and I want to switch the GitHub Actions workflow from pip to uv. current log excerpt:

Run pip install -r requirements.txt -r requirements-dev.txt
  Collecting polars==1.26.0
    Downloading polars-1.26.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (34.6 MB)
  ...
  Successfully installed ... (87 packages)
  took 3m 41s
Run pytest -q
  412 passed, 3 skipped in 4m 02s
"""),
a("""
uv will cut the install from minutes to seconds, especially with its cache. A workflow:

```yaml
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: astral-sh/setup-uv@v5
        with:
          enable-cache: true
          python-version: "3.11"
      - run: uv pip install --system -r requirements.txt -r requirements-dev.txt
      - run: pytest -q -n auto
```

The other half is the 4 minutes of tests: `pytest -n auto` with `pytest-xdist` runs them in parallel on the runner's cores (2 on the standard runner, 4 on the larger). Check first that the tests don't share state (a fixed temp path, a shared database schema).
"""),
u("""
uv install 11s. with xdist:

412 passed, 3 skipped in 2m 14s

some test uses a fixed /tmp/fixtures path though, flaky once
"""),
a("""
Replace the fixed path with pytest's `tmp_path` fixture (per test) or `tmp_path_factory` (per session), which gives each worker its own directory. That's the usual cause of flakiness under xdist.
"""),
u("ok do it"),
a("""
```python
@pytest.fixture(scope="session")
def fixtures_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("fixtures")
    build_fixtures(directory)
    return directory
```

and replace `Path("/tmp/fixtures")` in the tests with the `fixtures_dir` argument.
"""),
)

session("ops-03", "2025-04-28 09:45",
u("""
Prefect Cloud started rejecting our flows overnight:

03:00:04.211 | ERROR   | prefect.flow_runs - Failed to submit flow run 'gentle-crane' to infrastructure.
httpx.HTTPStatusError: Client error '429 Too Many Requests' for url 'https://api.prefect.cloud/api/accounts/.../workspaces/.../task_runs/'
Retry-After: 60

we added the Bradford and York flows last week so it's 13 flows now, and the retrain fans out to 5 trusts x 7 horizons x 3 quantiles of tasks. are we over the free tier?
"""),
a("""
Very likely yes: the free tier of Prefect Cloud has API rate limits, and a 429 with `Retry-After` is how they're enforced. Your retrain creates 5 x 7 x 3 = 105 model tasks plus the data tasks around them, all submitted at about the same moment at 3am, alongside the other flows' schedules.

Options, from cheapest:

1. **Reduce task-run churn**: each `@task` call is an API round trip for state changes. Make one task per trust that trains its 21 models in a loop, instead of one task per model. That cuts the retrain's task runs from 100+ to about 10, with no loss of visibility that matters.
2. **Spread schedules**: move `model-retrain` away from 3am if other flows run then.
3. **Let the client retry**: set `PREFECT_CLIENT_MAX_RETRIES` (it respects `Retry-After`); this smooths short bursts but doesn't fix sustained load.
4. **Upgrade the plan**: if you expect more trusts, the paid tiers have higher limits. The decision to use the free tier was sensible at 9 flows and 3 trusts; at 5 trusts and growing, it's worth pricing.

I'd do 1 and 2 now; they're small changes and they also make the flow runs easier to read.
"""),
u("did 1 and 2, retrain is 12 task runs now, no 429s on the rerun. will raise the plan question with Anjali anyway"),
a("""
Good result. Add it to the pricing conversation with numbers: task runs per day before and after, and the expected growth per new trust, so the plan decision is based on the real load.
"""),
)

# --- Questions ------------------------------------------------------------------------------------------------
# (id, type, question, answer, keys of the turns that hold the answer)
QUESTIONS: list[tuple[str, str, str, str, list[str]]] = [
    ("heldout5-ssu-01", "single-session-user", "What is my nephew called, and when was he born?",
     "Rory, born on 11 February 2025 (3.4 kg), my sister Eilidh's son", ["nephew"]),
    ("heldout5-ssu-02", "single-session-user", "Which evening course did I take in the autumn, and on which evening?",
     "A 10-week causal inference short course at the University of Leeds, on Tuesday evenings 7-9pm",
     ["course-start"]),
    ("heldout5-ssu-03", "single-session-user",
     "How many rows failed the pandera null check on admit_ts in the Airedale extract, and of which message types?",
     "1,284 rows: 1,190 A08 and 94 A13", ["pandera-fail"]),
    ("heldout5-ssu-04", "single-session-user", "What laptop did IT give me in November?",
     "An M3 Pro MacBook Pro with 36GB, replacing a 2019 Intel MacBook", ["laptop"]),
    ("heldout5-ssu-05", "single-session-user", "Why did we pick Prefect over Dagster?",
     "A team of 3 wanting flows as plain Python functions, local runs without a scheduler or daemon, and the "
     "Prefect Cloud free tier covering our usage; Dagster's asset model felt like more concepts than needed",
     ["prefect-why"]),
    ("heldout5-ssu-06", "single-session-user", "Which days were missing from York's May 2024 ADT extract?",
     "16 to 31 May 2024 (a missing file; York were asked to re-send it)", ["york-gap"]),
    ("heldout5-ssa-01", "single-session-assistant",
     "Which quantiles did you suggest I train for the occupancy forecast intervals?",
     "0.1, 0.5 and 0.9 (an 80% interval and a median), not 0.05/0.95 at first", ["ssa-quantiles"]),
    ("heldout5-ssa-02", "single-session-assistant",
     "Which calibration method did you recommend for the readmission model, and why?",
     "Isotonic regression, because there were about 48,000 calibration rows and the distortion was not "
     "sigmoid-shaped; Platt scaling only with a few thousand rows", ["ssa-calib"]),
    ("heldout5-ssa-03", "single-session-assistant",
     "When I pushed the .env file with the Snowflake password, what did you tell me to do first?",
     "Rotate the credential (change the service account's password or move it to key-pair auth) before touching git",
     ["ssa-git"]),
    ("heldout5-ssa-04", "single-session-assistant",
     "What PSI thresholds did you suggest for drift warnings and alerts on the occupancy model's features?",
     "Warn at 0.1 and alert at 0.25, per feature", ["ssa-psi"]),
    ("heldout5-ssa-05", "single-session-assistant",
     "For ADT events in the autumn clock-change hour, what did you suggest as a tie-break for their order?",
     "The message control ID sequence (with ambiguous='earliest' when parsing the local times)", ["ssa-dst"]),
    ("heldout5-multi-01", "multi-session",
     "How many days of annual leave have I taken in total for the trips I mentioned?",
     "10 days: 5 for Inverness at Christmas (23-27 Dec) and 5 for Tenerife (10-14 March)", ["leave1", "leave2"]),
    ("heldout5-multi-02", "multi-session",
     "Which Python libraries did I replace in the feature code and in the data checks, and with what?",
     "pandas with Polars in the feature code, and Great Expectations with pandera for data checks",
     ["polars", "pandera"]),
    ("heldout5-multi-03", "multi-session", "How many trust feed outages have I dealt with, and what caused each?",
     "Two: Calderdale (their expired TLS client certificate, 11 November) and Airedale (their integration team "
     "changed the port from 2575 to 2600 during an engine upgrade, February)", ["outage1", "outage2"]),
    ("heldout5-multi-04", "multi-session", "How many people in total attended the two talks I gave?",
     "About 200: about 60 at the Leeds Data Science meetup and 140 at the NHS-R Community webinar",
     ["talk1", "talk2"]),
    ("heldout5-multi-05", "multi-session",
     "What are the headline metrics of the readmission model and of the occupancy forecast?",
     "Readmission model AUROC 0.74, then 0.76 after adding frailty and prior admissions; occupancy forecast MAE "
     "of about 1.8 beds (1.83) over 7 days", ["auroc", "auroc2", "mae"]),
    ("heldout5-multi-06", "multi-session", "How much have I spent on running gear that I mentioned?",
     "£369: Saucony Ride 17 shoes for £120 and a Garmin Forerunner 165 for £249", ["spend1", "spend2"]),
    ("heldout5-ku-01", "knowledge-update", "Who is my manager?",
     "Anjali Mehta, since 2 December 2024 (Gareth before that)", ["mgr1", "mgr2"]),
    ("heldout5-ku-02", "knowledge-update", "Where do I live?",
     "York (Clifton), since 18 January 2025; before that Headingley, Leeds", ["city1", "city2"]),
    ("heldout5-ku-03", "knowledge-update", "When did the Harrogate pilot of the occupancy forecast go live?",
     "3 March 2025 (planned for 20 January, then 17 February)", ["golive1", "golive2", "golive3", "golive-done"]),
    ("heldout5-ku-04", "knowledge-update", "What is my parkrun personal best?",
     "24:51, at York parkrun on 29 March 2025", ["parkrun1", "parkrun2", "parkrun3"]),
    ("heldout5-ku-05", "knowledge-update", "How many days a week do I go into the office?",
     "One, on Wednesdays, since the move to York (it was 3 days, Tuesday to Thursday)", ["office1", "office2"]),
    ("heldout5-ku-06", "knowledge-update", "How many NHS trusts does our product run at?",
     "5: Harrogate, Airedale, Calderdale, Bradford and York", ["trusts1", "trusts2"]),
    ("heldout5-ku-07", "knowledge-update", "Which Python version do our Prefect flows run on?",
     "Python 3.11, since 25 February 2025 (3.10 before)", ["py1", "py2"]),
    ("heldout5-temp-01", "temporal-reasoning",
     "How many weeks after starting the causal inference course did I submit its final project?",
     "10 weeks (1 October to 10 December 2024)", ["course-start", "course-end"]),
    ("heldout5-temp-02", "temporal-reasoning",
     "Which came first, switching off Airflow or moving to York, and by how long?",
     "Switching off Airflow (16 December 2024), about a month (33 days) before the move on 18 January 2025",
     ["airflow-off", "city2"]),
    ("heldout5-temp-03", "temporal-reasoning", "How many days before my nephew was born did I hurt my knee?",
     "9 days (knee on 2 February, Rory born 11 February 2025)", ["knee", "nephew"]),
    ("heldout5-temp-04", "temporal-reasoning",
     "How long had Anjali been my manager when the Harrogate pilot went live?",
     "About 3 months (from 2 December 2024 to 3 March 2025)", ["mgr2", "golive-done"]),
    ("heldout5-temp-05", "temporal-reasoning",
     "How many days after the Calderdale feed outage did I give my meetup talk?",
     "10 days (11 November to 21 November 2024)", ["outage1", "talk1"]),
    ("heldout5-temp-06", "temporal-reasoning",
     "How long did the move from Airflow to Prefect take, from the decision to switching Airflow off?",
     "About two months: 62 days, 15 October to 16 December 2024", ["prefect-decide", "airflow-off"]),
]


def dated(stamp: str) -> str:
    """`2024-09-09 09:40` as LongMemEval writes dates: `2024/09/09 (Mon) 09:40`."""
    return datetime.strptime(stamp, "%Y-%m-%d %H:%M").strftime("%Y/%m/%d (%a) %H:%M")


def session_of_key() -> dict[str, str]:
    """Which session each answer key's turn is in; a key used twice is an error."""
    found: dict[str, str] = {}
    for session_id, (_, turns) in SESSIONS.items():
        for _, _, key in turns:
            if key:
                assert key not in found, key
                found[key] = session_id
    return found


def haystacks(where: dict[str, str]) -> dict[str, list[str]]:
    """Each question's answering sessions and OTHERS more, the least used so far first, so every session is in
    some haystack."""
    rng = random.Random(SEED)
    used = dict.fromkeys(SESSIONS, 0)
    chosen = {}
    for question_id, _, _, _, keys in QUESTIONS:
        answering = sorted({where[key] for key in keys})
        rest = [s for s in SESSIONS if s not in answering]
        rng.shuffle(rest)
        others = sorted(rest, key=lambda s: used[s])[:OTHERS]
        for s in answering + others:
            used[s] += 1
        chosen[question_id] = sorted(answering + others, key=lambda s: SESSIONS[s][0])
    assert all(used.values()), [s for s, n in used.items() if not n]
    return chosen


def build() -> list[dict]:
    where = session_of_key()
    assert set(where) == {key for *_, keys in QUESTIONS for key in keys}, set(where) ^ {
        key for *_, keys in QUESTIONS for key in keys}
    chosen = haystacks(where)
    items = []
    for question_id, kind, question, answer, keys in QUESTIONS:
        sessions = chosen[question_id]
        items.append({
            "question_id": question_id,
            "question_type": kind,
            "question": question,
            "answer": answer,
            "question_date": QUESTION_DATE,
            "haystack_session_ids": sessions,
            "haystack_dates": [dated(SESSIONS[s][0]) for s in sessions],
            "haystack_sessions": [
                [{"role": role, "content": text} | ({"has_answer": True} if key in keys else {})
                 for role, text, key in SESSIONS[s][1]]
                for s in sessions
            ],
            "answer_session_ids": sorted({where[key] for key in keys}, key=lambda s: SESSIONS[s][0]),
        })
    return items


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n")
