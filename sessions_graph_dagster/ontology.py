"""The per-user ontology: a derivation run when the user's qualifying sessions reach a milestone."""

import dagster as dg

from sessions_graph_core.errors import NoLlmConfiguredError
from sessions_graph_core.ontology.derive import run as derivation
from sessions_graph_core.validation import ValidationError

from .partitions import SAME_USER, users_partitions
from .policies import STORE_RETRY, bad_input
from .pools import DERIVE_POOL
from .reporting import error_kind, table
from .resources import ExtractorResource, GraphStoreResource, LlmResource
from .sessions import reconciled_session


@dg.asset(
    partitions_def=users_partitions,
    deps=[dg.AssetDep(reconciled_session, partition_mapping=SAME_USER)],
    group_name="sessions_graph",
    kinds={"python", "graph"},
    retry_policy=STORE_RETRY,
    # LLM calls take minutes: a pool of its own keeps them from holding up reconciliation.
    pool=DERIVE_POOL,
    description="The user's adopted ontology, derived from their sessions at 2, 4, 8 ... 128 qualifying sessions.",
)
def user_ontology(
    context: dg.AssetExecutionContext, graph_store: GraphStoreResource, extractor: ExtractorResource, llm: LlmResource
) -> dg.MaterializeResult:
    user_id = context.partition_key
    try:
        client = llm.client()
    except NoLlmConfiguredError as error:
        raise dg.Failure(description=str(error), allow_retries=False) from None
    with graph_store.open() as store:
        try:
            # The user's claim inside derive() keeps a second run (a backfill, the CLI) from deriving at once.
            report = derivation.derive(store, user_id, llm=client, backend=extractor.load())
        except ValidationError as error:
            raise bad_input(error) from None
    usage = report.llm
    metadata = {
        "outcome": report.outcome,
        "milestone": report.milestone,
        "sampled_sessions": report.sampled,
        "held_out": report.held_out,
        "delta_sessions": report.delta,
        "adopted_version": report.adopted_version if report.adopted_version is not None else "none",
        "rejected_versions": len(report.rejected_versions),
        "relabelled": report.relabelled,
        "reextracted": report.reextracted,
        "llm": f"{usage.provider} {usage.model}" if usage else "none",
        "llm_calls": usage.calls if usage else 0,
        "duration_s": report.seconds,
        "candidates": table(
            ("candidate", "passed", "catch-all share", "coverage", "version", "error"),
            [
                (
                    c.seed,
                    c.passed,
                    f"{c.score.catch_all_share:.3f}" if c.score else "",
                    f"{c.score.coverage:.3f}" if c.score else "",
                    c.version,
                    error_kind(c.error),
                )
                for c in report.candidates
            ],
        ),
    }
    if report.outcome == "failed":
        raise dg.Failure(description=f"derivation for {user_id} failed", metadata=metadata, allow_retries=False)
    return dg.MaterializeResult(metadata=metadata)
