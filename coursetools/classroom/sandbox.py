"""Grading in a sandbox: the kernel in which nbgrader's autograde runs a student's code.

``setup`` installs, for the instructor only, the kernel spec ``perceptron-sandbox``
whose command is ``python -m coursetools.classroom.sandbox {connection_file} --hide
PATH ...``, and points nbgrader's ``ExecutePreprocessor.kernel_name`` at it. nbgrader
itself (its database, the copies, the feedback) still runs as the instructor; only the
kernel that executes the submission is started here, inside bubblewrap (``bwrap``, the
Debian package ``bubblewrap``), which gives it:

* a file system of its own: the system (``/usr``, a few files of ``/etc``) and the
  course's Python environment read-only, a scratch home and ``/tmp`` in memory (limited
  in size, gone when the kernel stops), and nothing else: no home folder, no course
  folder (sources with solutions, gradebook, other submissions), no exchange, no class
  folder; the folders given with ``--hide`` are covered by an empty folder even when
  they lie inside something mounted (an exchange under ``/usr/local``, say);
* new user, PID, IPC, UTS and cgroup namespaces: it runs as ``nobody`` without
  capabilities, sees only its own processes and cannot make namespaces of its own;
* limits (``prlimit``): CPU seconds, address space, processes, file size, open files;
  and a wall-clock limit (``timeout``) for a kernel that sleeps and ignores interrupts.

It shares the machine's network (it talks to nbgrader over loopback TCP). A submission
folder holding a symbolic link is refused before anything runs. If ``bwrap`` is missing
or cannot make its namespaces, the kernel does not start and autograde reports the
submission as failed: grading never falls back to running unconfined.

Example
-------
>>> cmd = bwrap_command(Path("/run/k.json"), hide=[], limits=Limits(), python="/usr/bin/python3",
...                     ro_paths=[Path("/usr")])
>>> cmd[0], "--unshare-all" in cmd, cmd[-4:-1]
('bwrap', True, ['-m', 'ipykernel_launcher', '-f'])
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

#: The kernel spec's name (nbgrader's ExecutePreprocessor.kernel_name for the instructor).
KERNEL_NAME = "perceptron-sandbox"
#: Inside the sandbox: the kernel's home and working folder (in memory).
SCRATCH = "/home/grader"
#: Files of /etc a Python kernel with numpy and matplotlib needs (others stay hidden).
ETC_FILES = (
    "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "fonts", "localtime",
    "passwd", "group", "nsswitch.conf", "hosts", "mime.types", "ssl", "matplotlibrc",
)
MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Per grading kernel; sized for a class (a lesson's Run All takes ~15 CPU-seconds)."""

    cpu_seconds: int = 300
    wall_seconds: int = 1800  # a kernel that sleeps and ignores interrupts: killed
    memory_bytes: int = 3 * 1024 * MiB  # address space: numpy and matplotlib map ~1 GiB
    processes: int = 64
    file_bytes: int = 64 * MiB
    open_files: int = 256
    scratch_bytes: int = 256 * MiB  # the in-memory home and /tmp, each
    shm_bytes: int = 64 * MiB  # /dev/shm (POSIX shared memory, multiprocessing's queues)
    #: The whole kernel with every process it forks (a memory cgroup; see cgroup.py).
    kernel_memory_bytes: int = 3 * 1024 * MiB

    def prlimit_args(self) -> list[str]:
        return [
            "timeout", "--signal=KILL", str(self.wall_seconds),
            "prlimit", f"--cpu={self.cpu_seconds}", f"--as={self.memory_bytes}",
            f"--nproc={self.processes}", f"--fsize={self.file_bytes}",
            f"--nofile={self.open_files}", "--core=0", "--",
        ]


def python_roots() -> list[Path]:
    """Folders the course's Python needs read-only: the environment, its base, the packages.

    The course packages may be an editable install (the repository) or on PYTHONPATH.
    """
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent}
    for name in ("perclib", "coursetools", "course_settings"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            roots.add(Path(spec.origin).resolve().parent.parent)
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry:
            roots.add(Path(entry).resolve())
    # A symlinked folder (a venv linked into a worktree) is needed under both names.
    roots |= {p.resolve() for p in roots}
    # Never the whole file system (a PYTHONPATH of "/"): the sandbox mounts what it names.
    return sorted(p for p in roots if p.exists() and p != Path("/"))


def link_chain(path: Path) -> list[tuple[Path, Path]]:
    """(link, target) for each symbolic link met following ``path``'s last component.

    A venv linked into a worktree (``.venv -> /x/.venv -> /y/venv``) is reached through
    every hop, so the sandbox recreates the hops that lie outside what it mounts.
    """
    hops, seen = [], set()
    while path.is_symlink() and path not in seen:
        seen.add(path)
        target = Path(os.readlink(path))
        target = target if target.is_absolute() else path.parent / target
        hops.append((path, Path(os.path.normpath(target))))
        path = hops[-1][1]
    return hops


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def system_mounts() -> list[str]:
    """bubblewrap arguments that show the system read-only and nothing else of it.

    ``/usr``, the top-level folders that lead into it (``/lib -> usr/lib`` on a merged
    ``/usr``) and the few files of ``/etc`` in :data:`ETC_FILES`. Every sandbox of the
    class (the grading kernel, the answer's process at grading, the class test's
    students) starts from these.

    Example
    -------
    >>> system_mounts()[:3]
    ['--ro-bind', '/usr', '/usr']
    """
    args = ["--ro-bind", "/usr", "/usr"]
    for link in ("bin", "lib", "lib64", "sbin"):
        target = Path("/") / link
        if target.is_symlink():  # merged /usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            args += ["--ro-bind", str(target), str(target)]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args


def bwrap_command(
    connection_file: Path, *, hide: list[Path], limits: Limits, python: str,
    ro_paths: list[Path], extra: list[str] = (), links: list[tuple[Path, Path]] = (),
) -> list[str]:
    """The bubblewrap command that starts ``python -m ipykernel_launcher`` confined."""
    cmd = [
        "bwrap", "--unshare-all", "--unshare-user", "--share-net", "--disable-userns",
        "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL",
        "--die-with-parent", "--new-session", "--clearenv",
        "--proc", "/proc", "--dev", "/dev",
        # bwrap's /dev/shm has no size of its own: give it one.
        "--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm",
        # The in-memory scratch first: a folder mounted below /tmp must stay visible.
        "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
        "--size", str(limits.scratch_bytes), "--tmpfs", SCRATCH,
        *system_mounts(),
    ]
    bound = [Path("/usr")]
    for path in ro_paths:
        if not any(_inside(path, b) for b in bound):
            cmd += ["--ro-bind", str(path), str(path)]
            bound.append(path)
    for link, target in links:  # hops of a linked venv that nothing mounted provides
        if not any(_inside(link, b) for b in bound):
            cmd += ["--symlink", str(target), str(link)]
    # What must stay invisible even where it lies inside a mounted folder.
    for path in hide:
        if any(_inside(path, b) for b in bound) and path.is_dir():
            cmd += ["--tmpfs", str(path), "--remount-ro", str(path)]
    cmd += [
        "--ro-bind", str(connection_file), str(connection_file),
        "--chdir", SCRATCH,
    ]
    env = {
        "HOME": SCRATCH, "USER": "grader", "LANG": "C.UTF-8", "TMPDIR": "/tmp",
        "PATH": f"{Path(python).parent}:/usr/bin:/bin", "PYTHONNOUSERSITE": "1",
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
    }
    for name in ("PYTHONPATH", "PYTHONHASHSEED", "PERCLIB_STUDENT_KEY"):  # the last: own numbers
        if os.environ.get(name):
            env[name] = os.environ[name]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--", *limits.prlimit_args(), python, "-m", "ipykernel_launcher",
                  "-f", str(connection_file), *extra]


def symlinks_in(folder: Path) -> list[Path]:
    """Symbolic links anywhere under ``folder`` (never followed)."""
    found = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if os.path.islink(os.path.join(root, name)):
                found.append(Path(root, name))
    return found


def kernel_spec(python: str, hide: list[Path], memory_cgroup: Path | None = None) -> dict:
    """The ``kernel.json`` that ``setup`` installs for the instructor.

    ``memory_cgroup``: the course's delegated cgroup folder (``coursetools.classroom.cgroup``);
    each kernel then runs in a cgroup of its own below it, limited as a whole.
    """
    argv = [python, "-m", "coursetools.classroom.sandbox", "{connection_file}"]
    for path in hide:
        argv += ["--hide", str(path)]
    if memory_cgroup is not None:
        argv += ["--memory-cgroup", str(memory_cgroup)]
    # Interrupts by message: a signal to the process group would stop bwrap itself.
    return {"argv": argv, "display_name": "Python 3 (grading sandbox)", "language": "python",
            "interrupt_mode": "message", "metadata": {"debugger": False}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m coursetools.classroom.sandbox",
                                description="start an IPython kernel inside bubblewrap")
    p.add_argument("connection_file", type=Path)
    p.add_argument("--hide", type=Path, action="append", default=[],
                   help="a folder the kernel must not see (repeatable)")
    p.add_argument("--wall-seconds", type=int, default=Limits.wall_seconds,
                   help=f"kill the kernel after this long (default {Limits.wall_seconds})")
    p.add_argument("--memory-cgroup", type=Path,
                   help="the course's cgroup folder: the kernel runs in one of its own below it")
    args, extra = p.parse_known_args(argv)
    # The kernel starts in the folder of the notebook being graded: refuse links there.
    links = symlinks_in(Path.cwd())
    if links:
        print(f"sandbox: refusing to grade {Path.cwd()}: symbolic link "
              f"{', '.join(map(str, links))} in the submission", file=sys.stderr)
        return 2
    if shutil.which("bwrap") is None:
        print("sandbox: bwrap is missing: apt-get install bubblewrap (grading refused)",
              file=sys.stderr)
        return 2
    limits = Limits(wall_seconds=args.wall_seconds)
    if args.memory_cgroup is not None:
        from coursetools.classroom.cgroup import enter

        try:  # before bwrap starts: the kernel and all it forks are inside
            enter(args.memory_cgroup, limits.kernel_memory_bytes)
        except OSError as exc:
            print(f"sandbox: cannot limit the kernel's memory in {args.memory_cgroup} ({exc}); "
                  "rerun `classroom setup` as root (grading refused)", file=sys.stderr)
            return 2
    hide = [h.resolve() for h in args.hide] + [Path.home().resolve()]
    links = [hop for start in (Path(sys.prefix), Path(sys.executable)) for hop in link_chain(start)]
    cmd = bwrap_command(args.connection_file.resolve(), hide=hide, links=links,
                        limits=limits,
                        python=sys.executable, ro_paths=python_roots(), extra=extra)
    os.execvp(cmd[0], cmd)  # bwrap replaces this process; the kernel manager watches it
    return 1  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    raise SystemExit(main())
