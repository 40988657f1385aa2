"""General position: one SVD per subset (before issue 41) against the determinant screen.

``in_general_position`` checks every subset of ``min(P, D)`` rows for a condition
number above ``1 / tol``. It used to take one SVD per subset (batched); it now takes
the determinant of the subset's unit rows, which with Hadamard's inequality bounds
``s_min / s_max`` from below, and leaves only the subsets that bound cannot clear to
the SVD (``perclib/_subsets.py``). Both run here in one process on the same data;
the verdicts must be equal. The sizes are the issue's (40 points in 5-D; 23 points
in 10-D with a threshold), with a few more, degenerate and nearly degenerate ones.
CPU seconds are shown next to wall seconds: the wall clock suffers on a shared
machine. The old implementation is copied below verbatim (validation left out).

Run: ``python benchmarks/bench_general_position.py [--repeats 3] [--seed 41]``
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import time

import numpy as np

import perclib._subsets as subsets
from perclib import boolean_cube, in_general_position
from perclib.geometry import _homogeneous, _normalised


def old_in_general_position(X: np.ndarray, threshold: bool = False, tol: float = 1e-9) -> bool:
    """``in_general_position`` before issue 41: a batched SVD for every subset."""
    Z = _homogeneous(_normalised(X)[0], threshold)
    P, D = Z.shape
    k = min(P, D)
    rows = itertools.combinations(range(P), k)
    chunk = max(1, 200_000 // (k * D))
    while True:
        idx = np.array(list(itertools.islice(rows, chunk)), dtype=np.intp)
        if idx.size == 0:
            return True
        s = np.linalg.svd(Z[idx], compute_uv=False)
        if np.any(s[:, -1] <= tol * s[:, 0]):
            return False


def measure(fn, repeats: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``fn()`` over ``repeats`` runs, and its result."""
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), out


def cases(seed: int) -> list[tuple[str, np.ndarray, bool]]:
    rng = np.random.default_rng(seed)
    near = rng.standard_normal((25, 5))
    near[-1] = near[:5].mean(axis=0) + 1e-8 * rng.standard_normal(5)  # cond. about 1e8
    return [
        ("40 Gaussian points in 5-D", rng.standard_normal((40, 5)), False),
        ("23 Gaussian points in 10-D, threshold", rng.standard_normal((23, 10)), True),
        ("30 Gaussian points in 5-D, threshold", rng.standard_normal((30, 5)), True),
        ("25 points in 5-D, one 1e-8 off a 4-plane", near, True),
        ("4-cube, threshold (coplanar faces)", boolean_cube(4), True),
    ]


def count_svd_subsets(X: np.ndarray, threshold: bool) -> int:
    """Subsets the new method leaves to the SVD (instrumented run)."""
    sent = 0
    original = subsets._ill_conditioned

    def counting(A: np.ndarray, tol: float) -> bool:
        nonlocal sent
        sent += len(A)
        return original(A, tol)

    subsets._ill_conditioned = counting
    try:
        in_general_position(X, threshold=threshold)
    finally:
        subsets._ill_conditioned = original
    return sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    header = (f"{'problem':<42} {'subsets':>10} {'to SVD':>7} {'old':>6} {'new':>6} "
              f"{'old CPU s':>10} {'new CPU s':>10} {'old wall':>9} {'new wall':>9} "
              f"{'speed-up CPU':>13}")
    print(header)
    print("-" * len(header))
    all_same = True
    for name, X, threshold in cases(args.seed):
        ow, oc, old = measure(lambda X=X, t=threshold: old_in_general_position(X, t), args.repeats)
        nw, nc, new = measure(lambda X=X, t=threshold: in_general_position(X, threshold=t),
                              args.repeats)
        all_same &= old == new
        P, D = X.shape[0], X.shape[1] + threshold
        print(f"{name:<42} {math.comb(P, min(P, D)):>10,} {count_svd_subsets(X, threshold):>7,} "
              f"{old!s:>6} {new!s:>6} {oc:>10.3f} {nc:>10.3f} {ow:>9.3f} {nw:>9.3f} "
              f"{oc / nc:>12.1f}x")
    print("(subsets: all of them; a False verdict stops at the first dependent batch. "
          "to SVD: subsets the determinant bound could not clear. Medians of the repeats.)")
    if not all_same:
        raise SystemExit("MISMATCH: the verdicts differ")


if __name__ == "__main__":
    main()
