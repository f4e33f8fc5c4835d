"""The shape of the package, read from the source (AST): which module may import which, and where Cypher lives.

Dependencies point one way: interfaces (cli, integrations, Dagster, sensors) -> services -> the store.
A rule broken here fails with the file, the line and the import that broke it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = "sessions_graph_core"
INTERFACES = (f"{CORE}.cli", f"{CORE}.integrations", f"{CORE}.entry", f"{CORE}.ui")
# What the store may build on besides itself: no service, no interface.
STORE_MAY_IMPORT = (f"{CORE}.store", f"{CORE}.validation", f"{CORE}.clock", f"{CORE}.errors", f"{CORE}.values")
# Modules of the Dagster code location that define assets or checks (and so load the whole pipeline).
ASSET_MODULES = tuple(
    f"sessions_graph_dagster.{name}" for name in ("sessions", "memory_files", "ontology", "checks", "definitions")
)
# Cypher clauses in upper case, as every statement in this code base is written.
CYPHER = re.compile(r"\b(MATCH|MERGE|UNWIND|DETACH DELETE|CREATE \(|RETURN)\b")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imports(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """Every module the file imports (at the top or inside a function), relative imports resolved."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if node.module is None:  # `from . import x`: x is a module of the package
                for alias in node.names:
                    yield node.lineno, f"{module}.{alias.name}"
            else:
                yield node.lineno, module


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def broken(packages: tuple[str, ...], rule) -> list[str]:
    found = []
    for package in packages:
        for path in python_files(package):
            source = module_name(path)
            for line, target in imports(path):
                if rule(source, target):
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    return found


def test_the_module_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The rules below are only as good as the reader: it must see nested and relative imports."""
    package = tmp_path / "pkg" / "sub"
    package.mkdir(parents=True)
    sample = package / "mod.py"
    sample.write_text(
        "import dagster as dg\nfrom .sibling import x\nfrom .. import top\n"
        "def later():\n    from sessions_graph_dagster.sessions import y\n"
    )
    assert sorted(target for _, target in imports(sample, tmp_path)) == [
        "dagster", "pkg.sub.sibling", "pkg.top", "sessions_graph_dagster.sessions",
    ]


def test_the_core_never_imports_dagster_or_sensors() -> None:
    assert broken((CORE,), lambda _, target: within(target, ("dagster", "sessions_graph_dagster", "sensors"))) == []


def test_the_store_imports_no_service_and_no_interface() -> None:
    def rule(source: str, target: str) -> bool:
        return within(source, (f"{CORE}.store",)) and within(target, (CORE,)) and not within(target, STORE_MAY_IMPORT)

    assert broken((CORE,), rule) == []


def test_services_never_import_an_interface() -> None:
    def rule(source: str, target: str) -> bool:
        return not within(source, INTERFACES) and source != CORE and within(target, INTERFACES)

    assert broken((CORE,), rule) == []


def test_sensors_import_no_asset_module() -> None:
    assert broken(("sensors",), lambda _, target: within(target, ASSET_MODULES)) == []


def cypher_in(path: Path) -> list[str]:
    """String constants that hold a Cypher clause (docstrings too: a query in a docstring is a query moved in)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and CYPHER.search(node.value):
            found.append(f"{path}:{node.lineno}: {node.value[:60]!r}")
    return found


def test_the_cypher_reader_finds_a_query(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('Q = (\n    "MATCH (s:Session {user_id: $uid}) "\n    "RETURN s"\n)\nNOTE = "matches and returns"\n')
    assert len(cypher_in(sample)) == 1  # the two literals are one constant


MOVING = pytest.mark.xfail(strict=True, reason="issue 12 step 3: its queries move into the services next")
NO_CYPHER = [
    "sessions_graph_dagster",
    "sensors",
    f"{CORE}/integrations/hooks.py",
    f"{CORE}/integrations/connector.py",
    f"{CORE}/cli",
    f"{CORE}/ui",
]


@pytest.mark.parametrize("where", NO_CYPHER)
def test_interfaces_hold_no_cypher(where: str) -> None:
    target = ROOT / where
    paths = [target] if target.is_file() else sorted(target.rglob("*.py"))
    assert [hit for path in paths for hit in cypher_in(path)] == []
