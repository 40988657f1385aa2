"""The environment of "another CPU": what a student's machine computes differently.

A student's machine computes with other BLAS kernels and other SIMD code than the
machine that stored the lessons, so the last bits of its results differ. A child
process started with :func:`other_cpu_variables` in its environment runs OpenBLAS's
generic Prescott kernels (``OPENBLAS_CORETYPE``, one thread) and NumPy without the SIMD
paths this CPU offers beyond its baseline (``NPY_DISABLE_CPU_FEATURES``).

The browser test's Jupyter server runs with them, so its kernels must write every
lesson byte for byte as stored (tests/lessons/test_browser.py); tests/perclib/test_cpu_independence.py
checks that they really change the arithmetic.
"""

from __future__ import annotations

import os


def other_cpu_variables() -> dict[str, str]:
    """The variables that make a child process compute as on another CPU."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    extra = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    variables = {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"}
    if extra:
        variables["NPY_DISABLE_CPU_FEATURES"] = " ".join(extra)
    return variables


def other_cpu_environment() -> dict[str, str]:
    """This process's environment with :func:`other_cpu_variables` on top."""
    return dict(os.environ, **other_cpu_variables())


#: Python code that prints, as JSON, the BLAS kernels OpenBLAS picked and the SIMD paths
#: NumPy dispatches to, in the process that runs it.
PROBE = """\
import json
from threadpoolctl import threadpool_info
try:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
except ImportError:  # NumPy 1.x
    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
blas = [i.get("architecture") for i in threadpool_info() if i["user_api"] == "blas"]
simd = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
print(json.dumps({"blas": blas, "simd": simd}))
"""


def cpu_report(env: dict[str, str] | None = None) -> dict[str, list[str]]:
    """:data:`PROBE`'s answer in a new Python process with ``env`` (default: this one's)."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)
