"""Shared by the forgetting tests (issue 42): words planted where no other source says them, and a
byte-by-byte search of directories for them."""

from __future__ import annotations

import json
from pathlib import Path

FORGOTTEN_USER = "zz-erased-user"
KEPT_USER = "zz-kept-user"
PLANTED = {
    "session": ("zz-session-forgotten", "Quuxberry owns the billing gateway and Zorblaxian reviews it."),
    "memory": ("/memories/projects/frobnitz/notes.md", "Frobnitzdb is the ledger store, run by Wibblewort."),
}
KEPT_TEXT = "Alice owns the orders service."
WORDS = ("zz-session-forgotten", "Quuxberry", "Zorblaxian", "frobnitz", "Frobnitzdb", "Wibblewort", FORGOTTEN_USER)


def files_holding(places: dict[str, Path], words: tuple[str, ...]) -> dict[str, list[str]]:
    """Every file under the places that holds one of `words`, read here byte by byte (no grep)."""
    found = {}
    for folder in places.values():
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            data = path.read_bytes()
            hits = [word for word in words if word.encode() in data]
            if hits:
                found[str(path)] = hits
    return found


def receipt(cli, *args: str, code: int = 0) -> dict:
    """`forget ARGS --yes --json`, its receipt."""
    return json.loads(cli("forget", *args, "--yes", "--json", code=code))
