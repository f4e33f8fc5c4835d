"""What a forget does to files: it drops the lines of our logs that hold a forgotten string, and its
check finds which files still hold one.

A forgotten string is looked for as written and as JSON writes it (the failure log and Dagster's
records are JSON), byte for byte with `grep -F`, which matches thousands of strings at once in one
pass over the bytes (a user's erasure brings one per line of text they ever wrote). Sockets and other
special files are skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.failures import child_log_path, failure_log_path


def spellings(strings: Iterable[str]) -> dict[str, str]:
    """Each string as written and in JSON's two spellings (non-ASCII kept, or escaped as \\uXXXX), mapped
    to the string it spells."""
    forms = {}
    for text in strings:
        for form in (text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]):
            forms.setdefault(form, text)
    return forms


def find_on_disk(folders: Sequence[Path], strings: Sequence[str]) -> dict[str, set[str]]:
    """Every file under `folders` that holds a forgotten string, with the strings it holds."""
    present = [str(folder) for folder in folders if folder.exists()]
    if not strings or not present:
        return {}
    forms = spellings(strings)
    wanted = ("\n".join(forms) + "\n").encode()
    listed = _grep(["-rFlaZ", "-D", "skip"], present, wanted)
    found = {}
    for name in filter(None, listed.decode(errors="replace").split("\0")):
        held = _grep(["-Fao"], [name], wanted).decode(errors="replace").splitlines()
        found[name] = {forms.get(line, line) for line in held}
    return found


def scrub_logs(strings: Sequence[str]) -> dict[str, int]:
    """Drop every line of the failure log and the children's log that holds a forgotten string, writing
    the rest to a new file that replaces the old; how many lines went, by file."""
    wanted = ("\n".join(spellings(strings)) + "\n").encode()
    dropped = {}
    for path in (failure_log_path(), child_log_path()):
        if not strings or not path.is_file():
            continue
        lines = len(path.read_bytes().splitlines())
        kept = _grep(["-vaF"], [str(path)], wanted)
        dropped[path.name] = lines - len(kept.splitlines())
        if dropped[path.name]:
            fresh = path.with_name(path.name + ".scrubbed")
            fresh.write_bytes(kept)
            os.replace(fresh, path)
    return dropped


def _grep(flags: list[str], paths: list[str], patterns: bytes) -> bytes:
    """What `grep FLAGS -f - PATHS` prints, the patterns on its standard input (never in a process listing)."""
    grep = shutil.which("grep")
    if grep is None:
        raise StoreUnreachableError("Forgetting checks the disk with `grep`: put it on PATH")
    done = subprocess.run([grep, *flags, "-f", "-", "--", *paths], input=patterns, capture_output=True, check=False)
    if done.returncode > 1:  # 1 is "no line matched"
        raise StoreUnreachableError(f"grep failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
