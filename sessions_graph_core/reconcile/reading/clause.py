"""A clause's parts, as the clause reader's steps read them (reader.Reader.clause builds one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Clause:
    """One clause's parts as Reader._claims's steps read them; a step may read them anew for the steps after
    it ("got rid of X" as "dropped X")."""

    verb: Any
    subject: Any | None
    lemma: str
    particle: str  # "" for none
    ends: bool  # the verb, with its particle, ends what it is said of
    preps: dict[str, Any]
    dobj: Any | None
    attr: Any | None
    acomp: Any | None
    passive: bool
    negated: bool
    who: str | None
    decider: bool  # said by us ("we", "I", "the team"), whose choices are decisions

    @property
    def key(self) -> str:
        """The verb as attributes.toml lists it, with its particle ("take over")."""
        return " ".join(part for part in (self.lemma, self.particle) if part)

    @property
    def target(self) -> Any | None:
        """What is had, paid for or subscribed to: the object, or the name after the verb's preposition."""
        return self.dobj if self.dobj is not None else self.preps.get({"pay": "for", "unsubscribe": "from"}.get(self.lemma, "to"))
