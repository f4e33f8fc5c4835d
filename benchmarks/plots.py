"""The PNGs the benchmarks write beside their tables (`--plot PATH`), for the figures that are a curve or a
distribution; the docs' benchmark pages show them. matplotlib (the dev extra) is imported only when asked."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path


def run_note() -> str:
    """What a plot was measured with: the command, when, and how loaded the machine was."""
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    load = os.getloadavg()[0]
    return f"{command} | {datetime.now(UTC):%Y-%m-%d %H:%M} UTC | load average {load:.1f} on {os.cpu_count()} cores"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on the machines that run benchmarks
    import matplotlib.pyplot as pyplot

    return pyplot


def curves(path: Path, x: Sequence[float], series: Mapping[str, Sequence[float]], *, title: str, xlabel: str,
           ylabel: str, note: str = "", log_x: bool = True) -> Path:
    """One line per series over the same x (e.g. p50 per history size), written as a PNG."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=110)
    for label, values in series.items():
        axes.plot(x, values, marker="o", label=label)
    if log_x:
        axes.set_xscale("log")
    axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize="small")
    return _save(pyplot, figure, path, note)


def distributions(path: Path, samples: Mapping[str, Sequence[float]], *, title: str, ylabel: str,
                  note: str = "") -> Path:
    """A box per label (whiskers at the 5th and 95th percentiles, every sample beyond them a point)."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(8, 0.45 * len(samples) + 1.8), dpi=110)
    labels = list(samples)
    axes.boxplot([list(samples[label]) for label in labels], vert=False, whis=(5, 95), tick_labels=labels)
    axes.invert_yaxis()  # the first label on top, as in the table
    axes.set(title=title, xlabel=ylabel)
    axes.grid(True, axis="x", alpha=0.3)
    return _save(pyplot, figure, path, note)


def _save(pyplot, figure, path: Path, note: str) -> Path:
    if note:
        figure.text(0.01, 0.01, note, fontsize="x-small", color="dimgray", wrap=True)
    figure.tight_layout(rect=(0, 0.04 if note else 0, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    pyplot.close(figure)
    return path
