"""Ties, units and BLAS kernels (issue 30): perclib's answers against exact arithmetic.

* Counting with a threshold, ``dependent_subsets`` and the enumerations give the same
  answer after any change of units ``10**k`` (k = -12..12), not only powers of two;
  collinear triples are checked against exact integer determinants.
* Rows of very different sizes (1e200 next to 1e-200) are not flushed to zero.
* Ties made by decimal scalings (0.7, 3.7, 0.1) are decided as ties: the perceptron
  makes the updates of a loop whose every decision ``y (w.x) <= 0`` is taken in exact
  rational arithmetic (``fractions.Fraction``), ``eta`` changes none of them, and the
  pocket counts training errors exactly.
* Index arrays are ``np.intp`` (32-bit NumPy, e.g. WebAssembly, refuses int64 in
  ``np.bincount``), and the unit tests pass under other OpenBLAS kernels.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import perclib
from perclib.geometry import MarginResolutionError

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

small_ints = st.integers(-3, 3)


def int_points(P_min: int, P_max: int, N: int):
    return st.lists(st.lists(small_ints, min_size=N, max_size=N), min_size=P_min, max_size=P_max)


# ---------------------------------------------------------------------------- units


@SETTINGS
@given(pts=int_points(3, 5, 2), k=st.integers(-12, 12), threshold=st.booleans())
def test_counts_do_not_depend_on_units(pts, k, threshold) -> None:
    X = np.array(pts, dtype=float) + np.array([0.25, -0.5])  # off the lattice: fewer zero rows
    Xk = X * 10.0**k
    kw = {"threshold": threshold}
    assert perclib.count_dichotomies(Xk, **kw) == perclib.count_dichotomies(X, **kw)
    np.testing.assert_array_equal(
        perclib.separable_dichotomies(Xk, **kw), perclib.separable_dichotomies(X, **kw)
    )
    np.testing.assert_array_equal(
        perclib.arrangement_dichotomies(Xk, **kw), perclib.arrangement_dichotomies(X, **kw)
    )
    for size in (2, 3):
        assert perclib.dependent_subsets(Xk, size, **kw) == perclib.dependent_subsets(X, size, **kw)


@SETTINGS
@given(pts=int_points(3, 5, 2), k=st.integers(-12, 12))
def test_collinear_triples_match_exact_determinants(pts, k) -> None:
    X = np.array(pts, dtype=float)
    exact = [
        t for t in itertools.combinations(range(len(pts)), 3)
        if (pts[t[1]][0] - pts[t[0]][0]) * (pts[t[2]][1] - pts[t[0]][1])
        == (pts[t[2]][0] - pts[t[0]][0]) * (pts[t[1]][1] - pts[t[0]][1])
    ]
    assert perclib.dependent_subsets(X * 10.0**k, 3, threshold=True) == exact


@pytest.mark.parametrize("k", [-12, -10, -9, -6, 6, 9, 10, 12])
def test_issue_30_threshold_counts_at_decimal_units(k) -> None:
    four = np.array([[0.3, 1.2], [2.0, -0.7], [-1.1, 0.4], [0.9, 0.8]])  # general position
    assert perclib.count_dichotomies(four * 10.0**k, threshold=True) == 14
    assert perclib.count_dichotomies(perclib.boolean_cube(3) * 10.0**k, threshold=True) == 104
    assert perclib.dependent_subsets(four * 10.0**k, 3, threshold=True) == []


# ---------------------------------------------------------------------------- mixed scales


def test_mixed_scales_are_not_flushed_to_zero() -> None:
    X, y = [[1e200, 0.0], [0.0, 1e-200]], [1, 1]
    assert perclib.is_separable(X, y)
    w, _ = perclib.separating_weights(X, y)
    assert np.all(np.array(y) * np.array([w[0] * 1e200, w[1] * 1e-200]) > 0)
    run = perclib.perceptron(X, y)
    assert run.converged and run.n_updates == 2
    assert perclib.pocket(X, y, rng=0).errors == 0
    with pytest.raises(MarginResolutionError):  # honest: separable, not resolvable
        perclib.max_margin(X, y)


# ---------------------------------------------------------------------------- exact ties


def exact_margin(x, w) -> Fraction:
    return sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, w, strict=True)), Fraction(0))


def exact_loop(X, y, max_epochs):
    """The perceptron with float weights (``w + y x``, as perclib) and exact decisions."""
    w, updates = np.zeros(X.shape[1]), []
    for _ in range(max_epochs):
        clean = True
        for i in range(len(X)):
            if y[i] * exact_margin(X[i], w) <= 0:
                w = w + float(y[i]) * X[i]
                updates.append(i)
                clean = False
        if clean:
            return w, updates, True
    return w, updates, False


@SETTINGS
@given(
    pts=int_points(2, 6, 3),
    labels=st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=6),
    s=st.sampled_from([0.7, 3.7, 0.1, 1.1, 1e-7, 1e9]),
)
def test_perceptron_decides_ties_exactly(pts, labels, s) -> None:
    X = np.array(pts, dtype=float) * s
    y = np.array(labels[: len(pts)], dtype=float)
    w, updates, converged = exact_loop(X, y, 20)
    run = perclib.perceptron(X, y, max_epochs=20)
    assert run.indices.tolist() == updates
    assert run.converged == converged
    np.testing.assert_array_equal(run.w, w)
    if converged:
        assert all(y[i] * exact_margin(X[i], run.w) > 0 for i in range(len(X)))
    for eta in (0.1, 0.7, 3.7):  # eta only scales the weights from w0 = 0
        other = perclib.perceptron(X, y, max_epochs=20, eta=eta)
        assert other.indices.tolist() == updates
        np.testing.assert_array_equal(other.w, eta * w)


def test_issue_30_tie_after_scaling_by_0_7() -> None:
    X = np.array([[1.0, 3.0], [3.0, -1.0], [1.0, 1.0], [2.0, 1.0]]) * 0.7
    y = np.ones(4)
    run = perclib.perceptron(X, y)
    assert run.converged
    assert all(exact_margin(x, run.w) > 0 for x in X)
    assert run.indices.tolist() == exact_loop(X, y, 1000)[1]


def test_eta_does_not_change_the_cube_run() -> None:
    C = perclib.augment(perclib.boolean_cube(3))
    y = np.where(perclib.boolean_cube(3).sum(axis=1) > 1.5, 1.0, -1.0)
    runs = [perclib.perceptron(C, y, eta=eta) for eta in (1.0, 0.1)]
    assert runs[0].indices.tolist() == runs[1].indices.tolist()
    assert all(y[i] * exact_margin(C[i], runs[1].w) > 0 for i in range(len(C)))


@SETTINGS
@given(
    pts=int_points(3, 6, 2),
    labels=st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=6),
    s=st.sampled_from([0.7, 3.7, 0.1]),
)
def test_pocket_counts_errors_exactly(pts, labels, s) -> None:
    X = np.array(pts, dtype=float) * s
    y = np.array(labels[: len(pts)], dtype=float)
    res = perclib.pocket(X, y, max_epochs=5, rng=1)
    W = res.run.weights
    expected = [sum(y[i] * exact_margin(X[i], w) <= 0 for i in range(len(X))) for w in W]
    assert res.trace_errors.tolist() == expected


def test_overflow_is_detected_whatever_the_kernel_rounds() -> None:
    """3e308 - 3e308: NaN on most kernels, a signed inf on SkylakeX's (issue 30, point 7)."""
    with pytest.raises(ValueError, match="overflowed"):
        perclib.perceptron([[2.0, -2.0]], [1], w0=[1.5e308, 1.5e308])
    with pytest.raises(ValueError, match="overflowed"):
        perclib.perceptron([[1e308, 1e308]], [1], w0=[1.5e308, -1.5e308])  # a tie, then inf


# ---------------------------------------------------------------------------- weight trace


def test_weight_trace_is_rebuilt_on_demand_and_bounded() -> None:
    d = perclib.teacher_data(400, 5, margin=0.01, rng=3)
    run = perclib.perceptron(d.X, d.y)
    W = run.weights
    assert W.shape == (run.n_updates + 1, 5)
    np.testing.assert_array_equal(W[-1], run.w)
    np.testing.assert_array_equal(run.trace(3, 7), W[3:7])
    with pytest.raises(ValueError, match="max_bytes"):
        run.trace(max_bytes=8)


# ---------------------------------------------------------------------------- 32-bit indices


def test_index_arrays_work_where_intp_is_32_bit(monkeypatch) -> None:
    """Simulate 32-bit NumPy: np.intp is int32 and np.bincount refuses int64 arrays.

    The lessons' calls that feed perclib's index arrays to ``np.bincount`` (lesson 2:
    mistakes per pattern; lesson 8: updates per pattern) must then still work.
    """
    real_bincount = np.bincount

    def strict_bincount(x, *args, **kwargs):
        if isinstance(x, np.ndarray) and x.dtype == np.int64:
            raise TypeError("Cannot cast array data from dtype('int64') to dtype('int32') "
                            "according to the rule 'safe'")
        return real_bincount(x, *args, **kwargs)

    monkeypatch.setattr(np, "intp", np.int32)
    monkeypatch.setattr(np, "bincount", strict_bincount)
    X, y = perclib.xor()
    A = perclib.augment(X)
    d = perclib.teacher_data(60, 3, margin=0.1, rng=0)
    runs = [
        perclib.perceptron(d.X, d.y),
        perclib.perceptron(d.X, d.y, order="random", rng=1),
        perclib.pocket(A, y, rng=0).run,
        perclib.averaged_perceptron(A, y, epochs=3).run,
        perclib.margin_perceptron(d.X, d.y, beta=0.5),
        perclib.minover(d.X, d.y),
        perclib.adatron(d.X, d.y),
        perclib.kernel_perceptron(X, y, kernel="poly", degree=2),
    ]
    for run in runs:
        assert run.indices.dtype == np.int32, type(run).__name__
        np.bincount(run.indices, minlength=len(run._y))  # as lessons 2 and 7 do


# ---------------------------------------------------------------------------- BLAS kernels


@pytest.mark.parametrize("core", ["Prescott", "SkylakeX"])
def test_unit_tests_pass_under_another_openblas_kernel(core) -> None:
    """Re-run the perceptron tests with OpenBLAS forced to another kernel.

    SkylakeX's dot product overflows to a signed inf where the others give NaN (issue
    30); on a CPU without AVX-512 OpenBLAS may fall back to another kernel, which the
    first line of the child's output records.
    """
    env = dict(os.environ, OPENBLAS_CORETYPE=core, OPENBLAS_NUM_THREADS="1")
    probe = (
        "import numpy as np; from threadpoolctl import threadpool_info\n"
        "a = np.random.default_rng(0).standard_normal((300, 40))\n"
        "a @ a.T; a @ a[0]; a[0] @ a[1]; np.linalg.svd(a)\n"
        "print([i.get('architecture') for i in threadpool_info() if i['user_api'] == 'blas'])"
    )
    probed = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    if probed.returncode == -4:  # SIGILL: the forced kernel's instructions are missing here
        pytest.skip(f"this CPU cannot run OpenBLAS's {core} kernels (illegal instruction)")
    assert probed.returncode == 0, probed.stderr[-2000:]
    arch = probed.stdout.strip()
    done = subprocess.run(
        # addopts emptied: the floor venv (.ci/min_versions.sh) has neither xdist nor nbval.
        [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:randomly",
         "-p", "no:cacheprovider",
         "--no-header", "-k", "not fast_paths and not unit_tests_pass_under and not units "
         "and not collinear and not decimal_units",
         "tests/perclib/test_perceptron.py", "tests/perclib/test_exact_ties.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, f"kernel {arch}:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}"


_KERNEL_SCRIPT = """
import numpy as np, perclib
try:
    perclib.perceptron([[2.0, -2.0]], [1], w0=[1.5e308, 1.5e308])
    print("converged on an overflowed margin")
except ValueError as err:
    assert "overflowed" in str(err), err
X = np.array([[1.0, 3.0], [3.0, -1.0], [1.0, 1.0], [2.0, 1.0]]) * 0.7
run = perclib.perceptron(X, np.ones(4))
print(run.indices.tolist(), run.w.tolist())
"""


@pytest.mark.parametrize("core", ["Prescott", "Haswell", "SkylakeX"])
def test_issue_cases_give_the_same_answer_on_every_kernel(core) -> None:
    """The issue's cases only use dot products, which run even where SkylakeX's gemm cannot.

    On SkylakeX the overflowing dot product gives a signed inf instead of NaN; the
    verdict must not change.
    """
    env = dict(os.environ, OPENBLAS_CORETYPE=core, OPENBLAS_NUM_THREADS="1")
    here = subprocess.run([sys.executable, "-c", _KERNEL_SCRIPT], capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout
    there = subprocess.run([sys.executable, "-c", _KERNEL_SCRIPT], capture_output=True, text=True,
                           env=env, cwd=ROOT)
    if there.returncode == -4:  # SIGILL: e.g. numpy 1.26's OpenBLAS on a CPU without AVX-512
        pytest.skip(f"this CPU cannot run OpenBLAS's {core} kernels (illegal instruction)")
    assert there.returncode == 0, there.stderr[-2000:]
    assert there.stdout == here
    assert "converged on an overflowed margin" not in here


def test_integer_fast_path_agrees_with_exact_arithmetic() -> None:
    """Small integers skip the per-entry exact sums; large ones and fractions do not."""
    from perclib._exact import _float_is_exact, exact_dot_sign, exact_margin_signs

    rng = np.random.default_rng(3)
    cases = [
        (rng.integers(-3, 4, (40, 3)).astype(float), rng.integers(-3, 4, (25, 3)).astype(float)),
        # products near the limit: 2**25 * 2**25 * 3 < 2**52, still exact
        (rng.integers(-(2**25), 2**25, (30, 3)).astype(float),
         rng.integers(-(2**25), 2**25, (20, 3)).astype(float)),
        # beyond it (2**27 * 2**27 * 3 > 2**52): the careful path
        (rng.integers(-(2**27), 2**27, (30, 3)).astype(float),
         rng.integers(-(2**27), 2**27, (20, 3)).astype(float)),
        (rng.integers(-3, 4, (30, 3)) * 0.7, rng.integers(-3, 4, (20, 3)) * 0.7),
    ]
    fast = []
    for X, W in cases:
        W[0] = [X[1, 1], -X[1, 0], 0.0]  # an exact tie with pattern 1
        y = np.where(rng.random(len(X)) < 0.5, -1.0, 1.0)
        want = [[int(y[i]) * exact_dot_sign(X[i], w) for i in range(len(X))] for w in W]
        assert exact_margin_signs(X, y, W).tolist() == want
        assert want[0][1] == 0
        fast.append(_float_is_exact(X, W))
    assert fast == [True, True, False, False]
    assert not _float_is_exact(np.array([[np.nan, 1.0]]), np.array([[1.0, 1.0]]))
