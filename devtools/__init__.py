"""Development tooling: a local Dagster deployment and the progress of its runs (scripts/main, tests, benchmarks).

Outside the code location on purpose: Dagster loads sessions_graph_dagster, never this.
"""
