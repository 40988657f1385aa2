"""The stored lessons do not depend on the CPU that runs them.

A student's machine computes with other BLAS kernels and other SIMD code than the
machine that stored the lessons, so its last bits differ. Here every lesson is run
again as on another CPU: OpenBLAS's generic Prescott kernels (``OPENBLAS_CORETYPE``)
and NumPy without the SIMD paths this CPU offers beyond its baseline
(``NPY_DISABLE_CPU_FEATURES``), one BLAS thread. ``coursetools.run`` must then write
every lesson byte for byte as committed: printed numbers, figures (see
``perclib.stable_canvas``) and widget state alike.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))


def other_cpu_environment() -> dict[str, str]:
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    extra = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    env = dict(os.environ, OPENBLAS_CORETYPE="Prescott", OPENBLAS_NUM_THREADS="1")
    if extra:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(extra)
    return env


def test_emulation_changes_the_arithmetic() -> None:
    """The environment really switches kernels (else the main test proves nothing)."""
    probe = (
        "import json, numpy\n"
        "from threadpoolctl import threadpool_info\n"
        "try:\n"
        "    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__\n"
        "except ImportError:\n"
        "    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__\n"
        "blas = [i.get('architecture') for i in threadpool_info() if i['user_api'] == 'blas']\n"
        "simd = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]\n"
        "print(json.dumps({'blas': blas, 'simd': simd}))\n"
    )
    here = json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                     check=True).stdout)
    there = json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                      check=True, env=other_cpu_environment()).stdout)
    assert there["simd"] == [], there
    assert there["blas"] != here["blas"] or here["simd"], (here, there)


@pytest.mark.skipif(not LESSONS, reason="no lessons")
def test_lessons_rerun_on_other_kernels_are_unchanged(tmp_path: Path) -> None:
    copies = []
    for lesson in LESSONS:
        shutil.copy(lesson, tmp_path / lesson.name)
        copies.append(str(tmp_path / lesson.name))
    result = subprocess.run(
        [sys.executable, "-m", "coursetools.run", *copies],
        capture_output=True, text=True, env=other_cpu_environment(), cwd=ROOT, timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    changed = [line for line in result.stdout.splitlines() if ": written" in line]
    assert not changed, (
        "on other BLAS kernels / SIMD paths these lessons come out different: "
        f"{changed} (find the output that depends on the last bits and make it stable)"
    )
