"""One memory limit for a whole grading kernel: a memory cgroup per kernel.

A per-process limit (``RLIMIT_AS``) does not bound a kernel that forks: four workers of
1.5 GiB each stay under a 3 GiB per-process limit and hold 6 GiB together. A memory
cgroup counts every process of the kernel together (and the pages of its in-memory
``/tmp``, home and ``/dev/shm``): past the limit the machine's OOM killer stops a process
of that kernel only.

Who may do what:

* ``setup`` (root) makes one folder for the course in the memory controller,
  ``<memory controller>/coursetools-<course id>``, and gives it to the instructor
  (``delegate``): the instructor may make folders inside it and move their own processes
  there, nothing else;
* the grading sandbox (``python -m coursetools.classroom.sandbox``, run by autograde as
  the instructor) makes ``kernel-<pid>`` inside it, sets the limit, moves itself there
  and only then starts bubblewrap (``enter``): the kernel and all it forks stay inside.
  Empty folders of finished kernels are removed by the next kernel.

Where: the cgroup v1 memory controller (``/sys/fs/cgroup/memory``), where a process may
move itself into any folder it may write, as on the machines the class test runs on.
cgroup v2 (the only hierarchy under systemd on Debian 12 and Ubuntu 22.04+) lets a
process move only between folders below one it may write, so a delegated folder cannot
be entered from the instructor's JupyterLab or shell: there ``memory_controller`` finds
none, the kernel keeps its per-process limits and ``classroom check`` says so.

Example
-------
>>> memory_controller(Path("/nonexistent")) is None
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
#: Folders of the answers' processes at grading (``answer-<pid>``).
ANSWER_PREFIX = "answer-"

# A shell, not Python: the answer's process starts with a PYTHONPATH that holds only the
# stripped perclib, and this must run before bubblewrap, as the instructor. Any failing
# step stops it (set -e): the answer never runs unlimited.
_ENTER_SCRIPT = (
    'set -e; d="$1/' + ANSWER_PREFIX + '$$"; limit="$2"; shift 2; mkdir "$d"; '
    'echo "$limit" > "$d/memory.limit_in_bytes"; '
    'if [ -e "$d/memory.memsw.limit_in_bytes" ]; then '
    'echo "$limit" > "$d/memory.memsw.limit_in_bytes" 2>/dev/null || true; fi; '
    'echo $$ > "$d/cgroup.procs"; exec "$@"'
)


@dataclass(frozen=True)
class Controller:
    """A mounted memory controller: its folder and its cgroup version (1 here)."""

    root: Path
    version: int

    def course_folder(self, course_id: str) -> Path:
        return self.root / f"coursetools-{course_id}"


def memory_controller(base: Path = CGROUP_ROOT) -> Controller | None:
    """The cgroup v1 memory controller of this machine, or None (see the module's text)."""
    v1 = base / "memory"
    if (v1 / "memory.limit_in_bytes").is_file() and (v1 / "cgroup.procs").is_file():
        return Controller(v1, 1)
    return None


def delegate(folder: Path, version: int, uid: int, gid: int) -> None:
    """Make the course's cgroup ``folder``; let ``uid`` make kernel folders inside (root)."""
    if version != 1:
        raise ValueError(f"cgroup v{version}: only the v1 memory controller is supported")
    folder.mkdir(exist_ok=True)
    for path in (folder, folder / "cgroup.procs", folder / "tasks"):
        if path.exists():
            os.chown(path, uid, gid)


def check_delegated(folder: Path, uid: int) -> str | None:
    """Why ``folder`` cannot hold the instructor's kernels, or None."""
    try:
        st = folder.stat()
    except OSError:
        return f"{folder} is missing: rerun setup (as root)"
    if st.st_uid != uid:
        return f"{folder} belongs to uid {st.st_uid}, not the instructor: rerun setup"
    return None


def enter(folder: Path, limit_bytes: int, name: str | None = None) -> Path:
    """Make a kernel cgroup below ``folder`` with ``limit_bytes``; move this process there.

    Raises ``OSError`` when the machine refuses (no delegation, no controller).
    """
    _remove_ended(folder, ("kernel-", ANSWER_PREFIX))
    kernel = folder / (name or f"kernel-{os.getpid()}")
    kernel.mkdir(exist_ok=True)
    (kernel / "memory.limit_in_bytes").write_text(str(limit_bytes))
    swap = kernel / "memory.memsw.limit_in_bytes"
    if swap.exists():  # memory and swap together: swapping out is no way around it
        try:
            swap.write_text(str(limit_bytes))
        except OSError:
            pass  # swap accounting off: the machine has no swap to count
    (kernel / "cgroup.procs").write_text(str(os.getpid()))
    return kernel


def enter_prefix(folder: Path, limit_bytes: int) -> list[str]:
    """A command prefix: the command runs in a memory cgroup of its own below ``folder``.

    For the answer's process at grading (``coursetools.classroom.graded``), which the
    check's process starts: ``folder`` is the course's delegated folder, the new one is
    ``answer-<pid>``, limited to ``limit_bytes`` for the process and all it forks (memory
    and swap). Once its process has ended, :func:`remove_finished` (after each graded
    notebook) or :func:`enter` (at the next kernel) removes it.

    Example
    -------
    >>> enter_prefix(Path("/sys/fs/cgroup/memory/coursetools-c"), 1024)[-2:]
    ['/sys/fs/cgroup/memory/coursetools-c', '1024']
    """
    return ["sh", "-c", _ENTER_SCRIPT, "sh", str(folder), str(limit_bytes)]


def remove_finished(folder: Path) -> None:
    """Remove the cgroups of finished answers below ``folder`` (running ones stay)."""
    _remove_ended(folder, (ANSWER_PREFIX,))


def _remove_ended(folder: Path, prefixes: tuple[str, ...]) -> None:
    """Remove ``<prefix><pid>`` folders whose process has ended.

    Only ended ones: a folder just made is empty until its process moves in, and
    removing it then would make that kernel or answer fail to start (several graders
    run side by side). A folder whose process still runs (or with tasks) stays.
    """
    for prefix in prefixes:
        for old in folder.glob(f"{prefix}*"):
            pid = old.name.removeprefix(prefix)
            if pid.isdigit() and Path(f"/proc/{pid}").exists():
                continue
            try:
                old.rmdir()
            except OSError:
                pass  # processes still inside

