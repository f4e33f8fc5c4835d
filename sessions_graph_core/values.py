"""Read-only value classes for the types a hook builds, without the `dataclasses` module.

A harness runs a hook at every prompt and turn end (issue 40: p95 under 100 ms). Importing `dataclasses`
loads `inspect` (and with it `ast`, `dis`, `tokenize`), and each `@dataclass` generates and compiles its
methods when its module is imported: together about 15 ms of a hook that builds some twenty of them, most
of its own time beside the interpreter's start. A `Value` subclass writes its `__init__` and names its
fields in `__slots__`, in the order `__init__` takes them; equality, hashing, `repr`, `replace` and
`as_dict` come from here, read off `__slots__`, and nothing is compiled at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Self


class Value:
    """Fields named by `__slots__` (in `__init__`'s order), set once by `__init__` through `_fill` and
    read-only after; equal and hashed by type and fields, as a frozen dataclass is. `_hidden` names fields
    that `repr` leaves out (passwords)."""

    __slots__ = ()
    _hidden: frozenset[str] = frozenset()

    def _fill(self, *values: object) -> None:
        """Set every field, in `__slots__` order; only `__init__` calls this."""
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: make a changed copy with .replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: its {name} cannot be deleted")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.__class__, self._values()))

    def __repr__(self) -> str:
        shown = (f"{name}={getattr(self, name)!r}" for name in self.__slots__ if name not in self._hidden)
        return f"{type(self).__name__}({', '.join(shown)})"

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return self.__class__, self._values()  # pickle and copy make it again through __init__

    def replace(self, **changes: object) -> Self:
        """A copy with `changes` (field: value) made, through `__init__`, so its checks run again."""
        unknown = set(changes) - set(self.__slots__)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return self.__class__(**{**dict(zip(self.__slots__, self._values(), strict=True)), **changes})

    def as_dict(self) -> dict[str, object]:
        """The fields as a dict, values that are Values (also inside lists, tuples and dicts) as dicts too."""
        return {name: _plain(getattr(self, name)) for name in self.__slots__}


def _plain(value: object) -> object:
    if isinstance(value, Value):
        return value.as_dict()
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
