"""A login service that keeps the embedded store up: a systemd user unit on Linux, a launchd agent on macOS.

Without it, the first command after a login starts the store and waits for it to load (minutes at 100k
turns), and the store stops itself once idle (store.idle_seconds). With it, the store starts at login
and stays up: `sessions-graph store serve` runs in the foreground under the service manager. With
Dagster, a second unit or agent runs `dagster dev` on the checkout's workspace beside it.
"""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sessions_graph_core import validation
from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.config.paths import CONFIG_ENV, config_path
from sessions_graph_core.validation import ValidationError

Manager = Literal["systemd", "launchd"]
STORE = "sessions-graph-store"
DAGSTER = "sessions-graph-dagster"
LAUNCHD_DOMAIN = "dev.sessions-graph"
DAGSTER_PORT = 3000
CHECKOUT = Path(__file__).resolve().parents[2]
# What the service's processes need of this shell to reach the same store and instance.
PASSED_ON = ("SESSIONS_GRAPH_DATA_DIR", "MEMGRAPH_URL", "DAGSTER_HOME", "PATH")


@dataclass(frozen=True)
class ServiceFile:
    """One unit or agent: its name, where it goes, and what it holds."""

    name: str
    path: Path
    content: bytes


def manager(platform: str = sys.platform) -> Manager:
    if platform == "darwin":
        return "launchd"
    if platform.startswith("linux"):
        return "systemd"
    raise ValidationError(
        f"no login service for {platform}: `sessions-graph service` writes a systemd user unit (Linux) or a "
        "launchd agent (macOS); elsewhere run `sessions-graph store serve` from your session's start-up"
    )


def service_dir(kind: Manager) -> Path:
    if kind == "launchd":
        return Path.home() / "Library" / "LaunchAgents"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "systemd" / "user"


def launchd_label(name: str) -> str:
    return f"{LAUNCHD_DOMAIN}.{name.removeprefix('sessions-graph-')}"


def file_path(kind: Manager, name: str) -> Path:
    return service_dir(kind) / (f"{launchd_label(name)}.plist" if kind == "launchd" else f"{name}.service")


def _quoted(argument: str) -> str:
    """One ExecStart word: systemd splits on spaces and reads C escapes inside double quotes.

    A line end would end the setting and start one of the attacker's (`ExecStartPre=...`): refused."""
    if validation.has_control_characters(argument):
        raise ValidationError(
            f"a systemd unit cannot hold {argument!r}: it has a control character. Fix the path or environment "
            f"variable it comes from, then run `sessions-graph service install` again"
        )
    if argument and not any(c in argument for c in ' \t"\\\'$%;'):
        return argument
    escaped = argument.replace("\\", "\\\\").replace('"', '\\"').replace("$", "$$").replace("%", "%%")
    return f'"{escaped}"'


def systemd_unit(
    description: str, command: Sequence[str], environment: Mapping[str, str], *, after: str | None = None
) -> bytes:
    lines = ["[Unit]", f"Description={description}"]
    if after:
        lines += [f"After={after}.service", f"Wants={after}.service"]
    lines += ["", "[Service]", "Type=simple", f"ExecStart={' '.join(_quoted(word) for word in command)}"]
    lines += [f"Environment={_quoted(f'{key}={value}')}" for key, value in sorted(environment.items())]
    lines += ["Restart=on-failure", "RestartSec=5", "TimeoutStopSec=120", "", "[Install]", "WantedBy=default.target", ""]
    return "\n".join(lines).encode()


def launchd_plist(label: str, command: Sequence[str], environment: Mapping[str, str], log: Path) -> bytes:
    return plistlib.dumps({
        "Label": label,
        "ProgramArguments": list(command),
        "EnvironmentVariables": dict(environment),
        "RunAtLoad": True,
        "KeepAlive": {"SuccessfulExit": False},  # started again after a crash, not after a clean stop
        "StandardOutPath": str(log),
        "StandardErrorPath": str(log),
    })


def _environment() -> dict[str, str]:
    passed = {key: os.environ[key] for key in PASSED_ON if os.environ.get(key)}
    return {**passed, CONFIG_ENV: str(config_path())}


def _dagster_command() -> list[str]:
    workspace = CHECKOUT / "workspace.yaml"
    if not workspace.is_file():
        raise ValidationError(
            f"--with-dagster runs Dagster on the checkout's workspace.yaml, and {workspace} does not exist: "
            "install from a checkout (scripts/install), or leave --with-dagster out"
        )
    home = os.environ.get("DAGSTER_HOME")
    if not home or not (Path(home) / "dagster.yaml").is_file():
        raise ValidationError(
            "--with-dagster needs DAGSTER_HOME naming a folder with dagster.yaml: run scripts/main once "
            f"(it prepares {CHECKOUT / '.dagster_home'}), then export DAGSTER_HOME={CHECKOUT / '.dagster_home'}"
        )
    return [sys.executable, "-m", "dagster", "dev", "-h", "127.0.0.1", "-p", str(DAGSTER_PORT),
            "-w", str(workspace)]


def service_files(kind: Manager, *, with_dagster: bool = False) -> list[ServiceFile]:
    """The units (or agents) to install: the store's, and Dagster's after it when asked for."""
    environment = _environment()
    wanted = [(STORE, "sessions-graph: the embedded store", [*sessions_graph_command(), "store", "serve"])]
    if with_dagster:
        wanted.append((DAGSTER, "sessions-graph: Dagster (sensors, UI)", _dagster_command()))
    files = []
    for name, description, command in wanted:
        if kind == "launchd":
            content = launchd_plist(launchd_label(name), command, environment, Path.home() / "Library" / "Logs" / f"{name}.log")
        else:
            content = systemd_unit(description, command, environment, after=STORE if name == DAGSTER else None)
        files.append(ServiceFile(name, file_path(kind, name), content))
    return files


def installed(kind: Manager) -> list[Path]:
    return [path for path in (file_path(kind, STORE), file_path(kind, DAGSTER)) if path.exists()]


def write(files: Sequence[ServiceFile]) -> None:
    for item in files:
        item.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = item.path.with_suffix(".tmp")
        temporary.write_bytes(item.content)
        temporary.replace(item.path)


def remove(paths: Sequence[Path]) -> None:
    """The files, and the link `systemctl enable` made to a unit (left behind when systemd could not be asked)."""
    for path in paths:
        (path.parent / "default.target.wants" / path.name).unlink(missing_ok=True)
        path.unlink(missing_ok=True)


@dataclass(frozen=True)
class ManagerReply:
    ok: bool
    said: str


def ask_manager(kind: Manager, verb: Literal["start", "stop", "state"], paths: Sequence[Path]) -> list[ManagerReply]:
    """Tell systemd or launchd to start, stop or report the installed services, one reply per service."""
    tool = "systemctl" if kind == "systemd" else "launchctl"
    if shutil.which(tool) is None:
        return [ManagerReply(False, f"{tool} is not on PATH")]
    if kind == "systemd":
        names = [path.stem for path in paths]
        steps = {
            "start": [["daemon-reload"], ["enable", "--now", *names]],
            "stop": [["disable", "--now", *names]],
            "state": [["is-active", name] for name in names],
        }[verb]
        commands = [["systemctl", "--user", *step] for step in steps]
    else:
        domain = f"gui/{os.getuid()}"
        commands = {
            "start": [["launchctl", "bootstrap", domain, str(path)] for path in paths],
            "stop": [["launchctl", "bootout", domain, str(path)] for path in paths],
            "state": [["launchctl", "print", f"{domain}/{path.stem}"] for path in paths],
        }[verb]
    replies = []
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        # A failure's reason is on stderr, even when stdout says what was done before it failed.
        streams = (done.stdout, done.stderr) if done.returncode == 0 else (done.stderr, done.stdout)
        said = next((text.strip().splitlines()[-1] for text in streams if text.strip()), "")
        replies.append(ManagerReply(done.returncode == 0, f"{' '.join(command)}: {said or 'ok'}"))
    return replies
