"""The course's memory cgroup for tests that grade in the sandbox kernel.

``setup`` delegates the course's cgroup (``coursetools.classroom.cgroup``); a test that
writes the class's configuration by hand must do the same, or the sandbox refuses to
start a kernel (by design: no kernel runs without its memory limit).
"""

from __future__ import annotations

import os
from pathlib import Path


def cgroup_tree(group: Path) -> list[Path]:
    """A course's cgroup folders in the order they can be removed: its kernels' and its
    answers' folders (``kernel-PID``, ``answer-PID``), then the course's own."""
    return [*group.glob("kernel-*"), *group.glob("answer-*"), group]


def own_grading_cgroup(settings, request) -> None:
    """Delegate the course's memory cgroup to this test's user; remove it afterwards."""
    from coursetools.classroom.cgroup import delegate, memory_controller
    from coursetools.classroom.setup import grading_cgroup

    controller = memory_controller()
    assert controller is not None, "no memory cgroup controller under /sys/fs/cgroup"
    group = grading_cgroup(settings)
    delegate(group, controller.version, os.getuid(), os.getgid())
    request.addfinalizer(lambda: [p.rmdir() for p in cgroup_tree(group)])
