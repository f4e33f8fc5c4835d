"""Background processes yield the CPU to the hooks and commands someone waits for (issue 40).

A hook that finds the store loading starts a drainer, which imports the whole CLI (0.4 CPU-s) while the
harness runs the next hooks; a turn end starts an embedder. On a two-core machine where the loading server
holds one core, that start alone was the slowest hooks' wait. Each of these children starts in a session
of its own, and on Linux a new session is a scheduling group of its own (an autogroup): the CPU is shared
between groups first and a process's nice counts only inside its group. So a child's group is given a
lower weight (/proc/PID/autogroup). The child's own nice is left alone: a drainer or an embedder may start
the store's server, which would inherit it for good (an unprivileged process cannot lower it again), while
the server's own new session starts a group of normal weight.

It is best effort: a kernel without autogroups (macOS, Linux built without them, or with them switched off
by sysctl or boot option), a process in a cpu cgroup other than the root one (there the cgroup decides the
share and the kernel ignores the autogroup), a rate limit (an unprivileged user changes an autogroup's nice
at most ten times a second) or a process already gone leaves the child at normal priority.
"""

from __future__ import annotations

# A weight of about a tenth of a normal process's (nice 0: 1024, nice 10: 110): it still runs whenever a
# core is free, so on an idle machine the work takes as long as before.
BACKGROUND_NICE = 10


def lower(pid: int) -> bool:
    """Give the scheduling group (autogroup) of a detached process that leads its own session BACKGROUND_NICE;
    False where that could not be done."""
    try:
        with open(f"/proc/{pid}/autogroup", "w") as file:
            file.write(str(BACKGROUND_NICE))
    except OSError:  # no autogroups (not Linux, or built without), rate-limited, or the process is gone
        return False
    return True
