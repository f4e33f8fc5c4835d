"""The `sessions-graph` executable: `hook` takes a light path, every other command the full CLI.

A harness runs a hook at every prompt and turn end and times it out, so `sessions-graph hook`
must not import what only the other commands need: click, pydantic, rich, recall, embeddings,
extraction. Only a hook invocation in an unusual shape (--help, a bad option) goes through click.
"""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["hook"]:
        from sessions_graph_core.integrations.hooks import plain_arguments, run_for_harness

        plain = plain_arguments(sys.argv[2:])
        if plain is not None:
            run_for_harness(*plain)
        from sessions_graph_core.cli.integrations import hook_command

        hook_command(sys.argv[2:], prog_name="sessions-graph hook")
        return
    from sessions_graph_core.cli.main import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
