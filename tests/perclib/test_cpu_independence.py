"""The environment of "another CPU" (tests/other_cpu.py) really computes differently.

The lessons are run in it, byte for byte against the stored files, by the browser
test (tests/lessons/test_browser.py), whose Jupyter server and kernels run with it: Run All
in JupyterLab and save must write every lesson as committed (printed numbers, figures,
see ``perclib.stable_canvas``, and widget state). This test shows that the switch is
real: a process started with it uses other BLAS kernels and no SIMD paths beyond the
baseline (else the browser test would prove nothing about other CPUs).
"""

from __future__ import annotations

from other_cpu import cpu_report, other_cpu_environment


def test_emulation_changes_the_arithmetic() -> None:
    here = cpu_report()
    there = cpu_report(other_cpu_environment())
    assert there["simd"] == [], there
    assert there["blas"] != here["blas"] or here["simd"], (here, there)
