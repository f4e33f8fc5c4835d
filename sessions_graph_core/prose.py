"""What of a turn's text is prose and what is pasted output: the reader reads only the prose (issue 38), and
recall's rows fold the output that holds nothing asked (issue 39).

A developer pastes a test run, a `git log`, a stack trace or a file listing into a message, fenced or not, and
an assistant quotes its tools' output ("Tool output:" and a fenced block). Read as sentences, such lines become
statements ("Cache dependencies e587f92 ci.", "MergeRemote handles timeout input (900ms)"): none of them is
said by anyone. `split` takes them out of the text a backend reads for statements and hands them back apart,
to be read for entities only, the way a tool turn's own output is.

A line is output by its shape alone (a fenced block, a shell prompt, a commit hash first, a test runner's
verdict, a stack frame, a compiler's "file:line:col", an `ls -l` mode, a timestamped log line, JSON), or, for
shapes prose shares ("key: value", an indented line, a "+"/"-" line), only beside a line that is output; what
a prompt's command printed runs to the next blank line, and YAML is a run of "key:" lines, one indented.
Chat's own shapes stay prose: "bank: Monzo" notes, a "> " quote marker, "Error handling is weak.".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

# A fence opens or closes a code block: three or more backticks or tildes, an info string after the opening.
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")

# A shell or REPL prompt and its command: "$ git log", "dev@box:~/app$ make", PowerShell's "PS C:\\app>".
_PROMPT = re.compile(r"^\s*(\$|❯|%|>>>)\s+\S|^[\w.-]+@[\w.-]+(:\S*)?\s?[$#%]\s|^PS [A-Z]:\\.*>")
# Lines that are output whatever is around them, by how they start (matched at the line's start: searched,
# each of some eighty shapes would be tried at every character) or by what they hold anywhere (_OUTPUT_ANYWHERE).
_OUTPUT_LINE = re.compile(
    "|".join([
        _PROMPT.pattern,
        r"^[\s*|\\/]*(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b\s+\S",  # git log --oneline, --graph
        r"^(commit [0-9a-f]{7,40}|Author: .+<.*>$|Date:\s+\w{3} \w{3} |Merge: [0-9a-f]{7})",  # git log
        r"^(On branch \S+$|Your branch is (up to date|ahead|behind)|Changes (not staged|to be committed)|"
        r"Untracked files:|nothing (added )?to commit|no changes added to commit)",  # git status
        r"^\s+(modified|new file|deleted|renamed|both modified):\s+\S",
        r"^\s+\(use \"git ",
        r"^(diff --git |index [0-9a-f]+\.\.[0-9a-f]+|(\+\+\+|---) (a/|b/|/dev/null)|@@ -\d)",  # a diff
        r"^\s*[✓✔✗✘×√✖●]\s",                                          # jest, vitest, mocha verdicts
        r"^\s*(PASS|FAIL)\s+\S+\.\w+",                             # jest: "PASS src/a.test.ts"
        r"^\s*(Tests?|Test Suites|Test Files|Snapshots|Duration|Time):\s+\d",  # jest, vitest summaries
        r"^\s*(Test Files|Tests)\s+\d+ (passed|failed)",
        r"^\S+\.py::\S+( |$)",                                     # pytest: "tests/test_a.py::test_b PASSED"
        r"^\S+\.py [.FEsxX]+\s*(\[\s*\d+%\])?$",                   # pytest progress
        r"^\s*=*\s*\d+ (passed|failed|errors?|skipped|warnings?|xfailed|deselected)\b.*\bin [\d.]+s\b",
        r"^(FAILED|ERROR|PASSED|SKIPPED) \S+",
        r"^test \S+ \.\.\. (ok|FAILED|ignored)",                   # cargo test
        r"^test result: ",
        r"^\s*(Compiling|Finished|Running|Checking|Downloaded|Downloading|Updating|Fresh) \S+ v?\d",  # cargo
        r"^(=== (RUN|PAUSE|CONT)|--- (PASS|FAIL|SKIP):|(ok|FAIL)\s+\S+\s+[\d.]+s$|PASS$|FAIL$)",  # go test
        r"^Traceback \(most recent call last\)",                   # Python
        r"^(During handling of the above exception|The above exception was the direct cause)",
        r"^\s+File \"[^\"]+\", line \d+",
        r"^([\w]+\.)*[A-Z]\w*(Error|Exception)(:\s|:?$)",           # "ValueError: bad", "java.lang.NullPointerException"
        r"^E\s{3,}\S|^>\s{3,}\S",                                  # pytest's failing line and what it found
        r"^(collected \d+ items?|running \d+ tests?|platform \w+ -- Python)",
        r"^\s*[=_*-]{3,}.*[=_*-]{3,}\s*$",                           # "==== 1 failed in 0.1s ====", "---- a stdout ----"
        r"^\s*(Expected|Received)( value)?:\s",
        r"^\s+at \S.*(:\d+(:\d+)?\)?|:line \d+|\(Native Method\)|\(Unknown Source\))$",  # JS, Java, .NET frames
        r"^\s*\S+\.\w+:\d+:in [`']|^PHP (Fatal error|Warning|Notice|Parse error):",  # Ruby, PHP
        r"^(Exception in thread \"|Caused by: [\w.$]+)",
        r"^\s+\.\.\. \d+ more$",
        r"^(goroutine \d+ \[|panic: |fatal error: |exit status \d+$)",  # Go
        r"^[\w./]+(\.\(\*?\w+\))?\.\w+\([^()]*\)$",
        r"^\s+/\S+\.go:\d+",
        r"^thread '.*' panicked at",                               # Rust
        r"^note: run with `RUST_BACKTRACE",
        r"^\s+\d+: (0x[0-9a-f]+ - )?\S+::\S+",
        r"^\s*--> \S+:\d+(:\d+)?$",                                 # rustc
        r"^(error|warning)(\[\w+\])?: ",                           # rustc, cargo, gcc without a file
        r"^\S+\.\w+:\d+(:\d+)?:(\s|$)",                              # gcc, clang, go vet, pytest: "file:line: ..."
        r"^\s*(\.{0,2}/|~/)\S+$",                                    # a path alone on its line
        r"^\S+\.tsx?\(\d+,\d+\): error TS\d+",                     # tsc
        r"^\s*\^[\^~]*\s*$",                                        # a caret under the column
        r"^(npm|yarn|pnpm) (ERR!|WARN)",
        r"^make(\[\d+\])?: \*\*\*",
        r"^[-dlcbps][rwxsStT-]{9}[.@+]?\s+\d+\s",                  # ls -l
        r"^total \d+$",
        r"^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}",                    # a log line's timestamp
        r"^\[?\d{2}:\d{2}:\d{2}([.,]\d+)?\]?\s",
        r"^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} ",              # syslog
        r"^[IWEF]\d{4} \d{2}:\d{2}:\d{2}",                          # glog
        r"^\s*\[?(INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL)\]?[\s:]|^\[(info|warn|warning|error|debug)\]",
        r"^[\w.-]+-\d+\s+\|\s",                                       # docker compose: "web-1  | ..."
        r"^\s*[{\[]\s*$|^\s*[}\]],?\s*$|^\s*\{\s*\"|^\s*\[[\d\"{\[].*\]\s*,?$",  # JSON
        r"^\s*\"[^\"]*\"\s*:\s*",
        r"^\s*\|.*\|\s*$",                                          # a table row
        r"^\s*\d+\s*(→|\|\s)|^\s*\d*\s*\|(\s|$)",                   # line numbers, rustc's and gcc's gutter
        # code: a definition, an import, a declaration, a line that ends as a statement or block does
        r"^\s*(async def|def|class) \w+.*:\s*$|^\s*(import [\w.]+( as \w+)?|from [\w.]+ import .+)$",
        r"^\s*(pub )?(fn|func|function) \w*\s*[(<]|^\s*(const|let|var) \w+\s*(:\s*[\w<>\[\]]+\s*)?=|^\s*#include\b",
        r"^\s*[\w$.]+\([^)]*\)\.[\w$.]+\(",
        r"^\s*[\u2500-\u257f]",                                     # box drawing
        # a command without its prompt: a package manager, git, docker, a build tool, and what some print
        r"^(sudo|npx) \S|^(npm (install|i|ci|run|test)|pip3? install|uv (pip|add|sync|run)|yarn (add|install|run)) |"
        r"^git (add|commit|push|pull|checkout|switch|rebase|merge|clone|log|diff|status|stash|reset|fetch|cherry-pick) |"
        r"^(docker (compose|run|build|exec|ps|logs)|kubectl [a-z]+|terraform (init|plan|apply)|cargo (build|run|test|add)|"
        r"go (build|test|mod|vet)) ",
        r"^(Successfully (installed|built)|Requirement already satisfied|added \d+ packages?|HTTP/\d)",
        r"^\s*(Collecting [\w.-]+(\[[\w,]+\])?([=<>!~]=\S+)?$|(Downloading|Using cached) \S+\.(whl|tar\.gz)\b|"
        r"Installing collected packages:)",                          # pip
        r"^#\d+ (\[|\d+\.\d+ |DONE |CACHED$|ERROR\b)",                   # docker buildx/BuildKit: "#12 18.41 ERROR: ..."
        r"^Run (pip3?|npm|npx|yarn|pnpm|uv|pytest|python3?|cargo|go|make|docker|bundle|mvn|gradle|\./)\S*( |$)",  # an Actions step
        r"^(Starting Nmap |Nmap scan report for |Host is up\b|Not shown: \d+ |Nmap done: )|^\d+/(tcp|udp)\s+(open|closed|filtered)\b",  # nmap
        r"^[A-Z_][A-Z0-9_]+=\S",                                    # an environment variable set
        r"^(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE (TABLE|INDEX)|ALTER TABLE|EXPLAIN)\b",  # SQL
        r"^\s*->\s+\w",                                              # a query plan
        r"^([A-Z][A-Z_-]+ {2,})+[A-Z][A-Z_-]+\s*$",                  # a table's header: "NAME   READY   STATUS"
    ])
)

# A logfmt level, a line that ends as a statement or block does, a query plan's cost.
_OUTPUT_ANYWHERE = re.compile(r"\blevel=(debug|info|warn|warning|error|fatal)\b|[;{]\s*$|\(cost=\d")

# Lines prose shares, output only beside a line that is: "key: value" (YAML, headers), an indented line
# (a frame's source line, a wrapped log record), a diff's "+"/"-" line, a lone closing bracket or brace.
_KEY = r"^\s*-?\s*[\w.\"'-]+:(\s|$)"
_OUTPUT_BESIDE = re.compile(_KEY + r"|^\s+\S|^[+-](?![-\s])|^[+-]\s{2,}\S|^\s*[)\]}]|^[a-z][\w ]*: |\S\s{2,}\S| -- ")
# A run of "key: value" lines, one of them indented: YAML ("services:", "  web:", "    image: nginx"); notes
# in chat ("bank: Monzo") are not indented.
_KEY_LINE = re.compile(_KEY)
_YAML_RUN = 3


@dataclass(frozen=True)
class Split:
    """A text's prose, in the pieces the output lines leave between them (each read on its own, so a sentence
    before a block does not run into the one after it), and the output lines themselves."""

    prose: list[str]
    output: str


def output_lines(lines: list[str]) -> list[bool]:
    """Which of the lines are output (module docstring), fences included."""
    fenced = _fenced(lines)
    shaped = [bool(_OUTPUT_LINE.match(line) or _OUTPUT_ANYWHERE.search(line)) for line in lines]
    _after_prompts(lines, shaped)
    _yaml(lines, shaped)
    _spread(lines, shaped)
    return [a or b for a, b in zip(fenced, shaped, strict=True)]


def split(text: str) -> Split:
    """The text's prose and its output (module docstring)."""
    lines = text.split("\n")
    output = output_lines(lines)
    if not any(output):
        return Split([text], "")
    pieces: list[list[str]] = [[]]
    for line, out in zip(lines, output, strict=True):
        if not out:
            pieces[-1].append(line)
        elif pieces[-1]:
            pieces.append([])
    return Split(
        [text for text in ("\n".join(piece).strip() for piece in pieces) if text],
        "\n".join(line for line, out in zip(lines, output, strict=True) if out and not _FENCE.match(line)),
    )


def _fenced(lines: list[str]) -> list[bool]:
    """Which lines are in a fenced block, its fences included; a block left open runs to the end."""
    inside: str | None = None
    fenced = []
    for line in lines:
        fence = _FENCE.match(line)
        if inside is None and fence:
            inside = fence.group(1)[:3]
            fenced.append(True)
            continue
        fenced.append(inside is not None)
        if inside is not None and fence and fence.group(1).startswith(inside) and not line.strip().strip(inside[0]):
            inside = None
    return fenced


def _after_prompts(lines: list[str], output: list[bool]) -> None:
    """Mark what a command printed: the lines after a shell prompt, up to the next blank line (plain text, such
    as "deployment "web" successfully rolled out", has no shape of its own)."""
    printing = False
    for n, line in enumerate(lines):
        if not line.strip():
            printing = False
        elif _PROMPT.match(line):
            printing = True
        elif printing:
            output[n] = True


def _yaml(lines: list[str], output: list[bool]) -> None:
    """Mark each run of at least _YAML_RUN "key: value" lines of which one is indented."""
    start = 0
    for end in range(len(lines) + 1):
        if end < len(lines) and _KEY_LINE.match(lines[end]):
            continue
        run = lines[start:end]
        if len(run) >= _YAML_RUN and any(line[:1].isspace() for line in run):
            output[start:end] = [True] * len(run)
        start = end + 1


def _spread(lines: list[str], output: list[bool]) -> None:
    """Mark, outwards from each line of output's shape, the neighbours that only look like output beside
    one (a fence is no such line: the prose around a block is prose)."""
    changed = True
    while changed:
        changed = False
        for n, line in enumerate(lines):
            if output[n] or not line.strip() or not _OUTPUT_BESIDE.search(line):
                continue
            if any(0 <= m < len(lines) and output[m] and lines[m].strip() for m in (n - 1, n + 1)):
                output[n] = changed = True


# A run of output shorter than this (about 30 tokens) is shown: folding it saves little, and a line of prose
# read as output ("1. print the body on any error;") stays readable.
FOLDED_CHARS = 120


def fold_output(text: str, wanted: Callable[[str], bool]) -> str:
    """The text with each run of output lines (blank lines within it included) of FOLDED_CHARS or more that
    `wanted` does not want replaced by "[N lines of output]": a test run or a log pasted beside a sentence
    takes a reader's budget and tells it nothing the question asked."""
    lines = text.split("\n")
    output = _blank_lines_within(lines, output_lines(lines))
    if not any(output):
        return text
    kept: list[str] = []
    for is_output, group in groupby(zip(lines, output, strict=True), key=itemgetter(1)):
        run = [line for line, _ in group]
        said = "\n".join(run)
        if is_output and len(said) >= FOLDED_CHARS and not wanted(said):
            kept.append(f"[{len(run)} line{'s' if len(run) > 1 else ''} of output]")
        else:
            kept += run
    return "\n".join(kept)


def _blank_lines_within(lines: list[str], output: list[bool]) -> list[bool]:
    """`output` with each blank line between two output lines counted as output: a test run's summary after
    a blank line belongs to the same run."""
    marked = list(output)
    for n, line in enumerate(lines):
        if line.strip():
            continue
        before = next((output[m] for m in range(n - 1, -1, -1) if lines[m].strip()), False)
        after = next((output[m] for m in range(n + 1, len(lines)) if lines[m].strip()), False)
        marked[n] = before and after
    return marked
