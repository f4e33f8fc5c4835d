"""The docs site's generated parts (mkdocs.yml names this file as a hook): the config reference is rendered
from the pydantic models in sessions_graph_core/config/model.py when the site is built, so it cannot drift
from the code. The CLI reference comes from the click group itself, through mkdocs-click."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from sessions_graph_core.config.model import Config
from sessions_graph_core.config.paths import ENV_ALIASES, ENV_PREFIX

CONFIG_MARKER = "<!-- config-reference -->"


def _type_name(field: FieldInfo) -> str:
    if isinstance(field.annotation, type):
        return field.annotation.__name__
    return str(field.annotation).replace("typing.", "").replace("pathlib.", "").replace("pydantic.types.", "")


def _default(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    if value is None:
        return "unset"
    if isinstance(value, SecretStr):
        return '`""`' if not value.get_secret_value() else "(set)"
    if isinstance(value, list):
        return "`" + ", ".join(str(item) for item in value) + "`"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value!r}`" if isinstance(value, str) else f"`{value}`"


def _variables(key: str) -> str:
    names = [ENV_PREFIX + key.replace(".", "_").upper()]
    names += [alias for alias, aliased in ENV_ALIASES.items() if aliased == key]
    return ", ".join(f"`{name}`" for name in names)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def config_reference() -> str:
    """Every key of the config file, a table per section: its type, default, allowed values and variables."""
    parts: list[str] = []
    for section, section_field in Config.model_fields.items():
        model: type[BaseModel] = section_field.annotation  # type: ignore[assignment]
        parts += [f"### `[{section}]`", ""]
        if model.__doc__ and model.__doc__ != BaseModel.__doc__:
            parts += [model.__doc__.strip(), ""]
        parts += ["| key | type | default | allowed | environment |", "|---|---|---|---|---|"]
        for name, field in model.model_fields.items():
            key = f"{section}.{name}"
            row = [f"`{name}`", f"`{_cell(_type_name(field))}`", _cell(_default(field)), _cell(field.description or ""),
                   _variables(key)]
            parts.append("| " + " | ".join(row) + " |")
        parts.append("")
    return "\n".join(parts)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """mkdocs hook: the config page's marker becomes the reference rendered from the models."""
    if CONFIG_MARKER not in markdown:
        return markdown
    return markdown.replace(CONFIG_MARKER, config_reference())
