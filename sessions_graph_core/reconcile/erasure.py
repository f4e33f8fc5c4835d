"""The check after a forget: which files still hold a forgotten string.

A forgotten string is looked for as written and as JSON writes it (the failure log and Dagster's
records are JSON), byte for byte with `grep -F`, which reads gigabytes a second for thousands of
strings at once. Sockets and other special files are skipped.
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
    grep = shutil.which("grep")
    if grep is None:
        raise StoreUnreachableError("The check after a forget needs `grep` on PATH")
    forms = spellings(strings)
    wanted = ("\n".join(forms) + "\n").encode()
    listed = subprocess.run([grep, "-rFlaZ", "-D", "skip", "-f", "-", "--", *present], input=wanted, capture_output=True, check=False)
    found = {}
    for name in filter(None, listed.stdout.decode(errors="replace").split("\0")):
        matched = subprocess.run([grep, "-Fao", "-f", "-", "--", name], input=wanted, capture_output=True, check=False)
        found[name] = {forms.get(line.decode(errors="replace"), line.decode(errors="replace")) for line in matched.stdout.splitlines()}
    return found


def scrub_logs(strings: Sequence[str]) -> dict[str, int]:
    """Drop every line of the failure log and the children's log that holds a forgotten string, writing
    the rest to a new file that replaces the old; how many lines went, by file."""
    forms = [form.encode() for form in spellings(strings)]
    dropped = {}
    for path in (failure_log_path(), child_log_path()):
        try:
            lines = path.read_bytes().splitlines(keepends=True)
        except OSError:
            continue
        kept = [line for line in lines if not any(form in line for form in forms)]
        if len(kept) < len(lines):
            fresh = path.with_name(path.name + ".scrubbed")
            fresh.write_bytes(b"".join(kept))
            os.replace(fresh, path)
        dropped[path.name] = len(lines) - len(kept)
    return dropped
