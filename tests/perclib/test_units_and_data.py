"""Threshold units, the bias trick, label conversions and the data generators."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perclib import (
    augment,
    augment_weights,
    boolean_cube,
    boolean_function,
    gaussian_patterns,
    random_labels,
    reflect,
    sign,
    split_augmented,
    teacher_data,
    threshold_unit,
    to_01,
    to_pm1,
    xor,
)


def test_sign_zero_is_explicit() -> None:
    assert sign([3.0, -1.0, 0.0]).tolist() == [1, -1, -1]
    assert sign([0.0, -0.0], at_zero=1).tolist() == [1, 1]
    with pytest.raises(ValueError, match="at_zero"):
        sign([1.0], at_zero=0)
    with pytest.raises(ValueError, match="NaN"):
        sign([np.nan])


def test_and_or_not_units() -> None:
    X = boolean_cube(2)
    assert threshold_unit(X, [1, 1], 1.5).tolist() == [-1, -1, -1, 1]
    assert threshold_unit(X, [1, 1], 0.5).tolist() == [-1, 1, 1, 1]
    assert threshold_unit([[0.0], [1.0]], [-1.0], -0.5).tolist() == [1, -1]
    # On the line itself the convention decides.
    assert threshold_unit([[1.0, 0.5]], [1, 1], 1.5).tolist() == [-1]
    assert threshold_unit([[1.0, 0.5]], [1, 1], 1.5, at_zero=1).tolist() == [1]


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    theta=st.floats(-3, 3),
    N=st.integers(1, 6),
)
def test_bias_trick_is_exact(seed: int, theta: float, N: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((10, N))
    w = rng.standard_normal(N)
    w_hat = augment_weights(w, theta)
    assert np.allclose(augment(X) @ w_hat, X @ w - theta, rtol=0, atol=1e-12)
    back_w, back_theta = split_augmented(w_hat)
    assert np.array_equal(back_w, w) and back_theta == theta


def test_augment_and_split_shapes_and_errors() -> None:
    assert augment([[1.0, 2.0], [3.0, 4.0]])[:, -1].tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="at least 2"):
        split_augmented([1.0])


def test_label_conversions_round_trip() -> None:
    r = np.array([0, 1, 1, 0])
    assert to_pm1(r).tolist() == [-1, 1, 1, -1]
    assert to_01(to_pm1(r)).tolist() == r.tolist()
    with pytest.raises(ValueError, match="only 0 and 1"):
        to_pm1([0, 2])
    with pytest.raises(ValueError, match="-1 and \\+1"):
        to_01([0, 1])


def test_reflected_patterns_turn_conditions_positive() -> None:
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]])
    y = np.array([1, -1, 1])
    J = reflect(X, y)
    grid = [np.array(v) for v in itertools.product(np.linspace(-2, 2, 21), repeat=2)]
    for w in grid:
        assert np.all(y * (X @ w) > 0) == np.all(J @ w > 0)


def test_boolean_cube_and_functions() -> None:
    cube = boolean_cube(3)
    assert cube.shape == (8, 3)
    assert cube[5].tolist() == [1.0, 0.0, 1.0]  # binary digits of 5
    assert len({tuple(r) for r in cube}) == 8
    X, y = xor()
    assert y.tolist() == [-1.0, 1.0, 1.0, -1.0]
    assert boolean_function(2, 6).tolist() == y.tolist()
    assert boolean_function(2, [1, -1, -1, 1]).tolist() == [1.0, -1.0, -1.0, 1.0]
    all16 = {tuple(boolean_function(2, k)) for k in range(16)}
    assert len(all16) == 16
    with pytest.raises(ValueError, match="0 .. 15"):
        boolean_function(2, 16)
    with pytest.raises(ValueError, match="4 entries"):
        boolean_function(2, [0, 1])
    with pytest.raises(ValueError, match="<= 20"):
        boolean_cube(21)
    with pytest.raises(TypeError, match="integer"):
        boolean_cube(2.0)


def test_generators_are_seeded() -> None:
    assert np.array_equal(gaussian_patterns(5, 3, rng=4), gaussian_patterns(5, 3, rng=4))
    assert not np.array_equal(gaussian_patterns(5, 3, rng=4), gaussian_patterns(5, 3, rng=5))
    assert set(random_labels(50, rng=0).tolist()) == {-1.0, 1.0}
    with pytest.raises(ValueError, match="P must be >= 1"):
        gaussian_patterns(0, 3)


@settings(max_examples=40, deadline=None)
@given(
    P=st.integers(1, 80),
    N=st.integers(1, 10),
    margin=st.floats(0.0, 2.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_teacher_margin_is_exact(P: int, N: int, margin: float, seed: int) -> None:
    d = teacher_data(P, N, margin=margin, rng=seed)
    assert d.X.shape == (P, N)
    assert np.isclose(np.linalg.norm(d.teacher), 1.0)
    stabilities = d.y * (d.X @ d.teacher)
    assert np.isclose(stabilities.min(), margin, rtol=0, atol=1e-9)
    assert np.all(stabilities >= margin - 1e-9)


def test_teacher_data_errors_and_given_teacher() -> None:
    d = teacher_data(30, 2, margin=0.5, teacher=[0.0, 2.0], rng=1)
    assert d.teacher.tolist() == [0.0, 1.0]
    assert np.all(np.abs(d.X[:, 1]) >= 0.5 - 1e-12)
    X, y, u, m = d  # unpacks like a tuple
    assert m == 0.5
    with pytest.raises(ValueError, match="margin"):
        teacher_data(5, 2, margin=-1)
    with pytest.raises(ValueError, match="non-zero"):
        teacher_data(5, 2, teacher=[0.0, 0.0])
    with pytest.raises(ValueError, match="teacher has length 3"):
        teacher_data(5, 2, teacher=[1.0, 0.0, 0.0])


def test_import_perclib_loads_no_heavy_module() -> None:
    """``import perclib`` stays cheap: sympy, scipy, matplotlib and numba load only when used."""
    import subprocess
    import sys

    code = (
        "import sys, perclib\n"
        "from perclib import perceptron, teacher_data, kernel_perceptron, radius, cover_count\n"
        "print(sorted(m for m in ('sympy', 'scipy', 'matplotlib', 'numba') if m in sys.modules))\n"
        "perclib.cover_count_symbolic(5, 2)\n"
        "print('sympy' in sys.modules, len(dir(perclib)) >= len(perclib.__all__))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = out.stdout.splitlines()
    assert first == "[]"  # cover_count needs no LP solver: scipy only comes with geometry
    assert second == "True True"


def test_corner_unit_and_two_layer_network_refuse_bad_input() -> None:
    from perclib.units import ThresholdNetwork, corner_unit, two_layer_network

    assert corner_unit([0, 1])[1] == 0.5
    for bad in ([], [0, 2], [[0, 1]], [0.5]):
        with pytest.raises(ValueError, match="0s and 1s"):
            corner_unit(bad)
    with pytest.raises(TypeError):
        corner_unit([1j, 0])
    with pytest.raises(ValueError, match="entries"):
        two_layer_network(2, [0, 1, 1])
    net = two_layer_network(3, [0, 1, 1, 0, 1, 0, 0, 1])  # parity of three
    assert isinstance(net, ThresholdNetwork) and net.n_hidden == 4
    assert net.hidden(boolean_cube(3)).sum(axis=1).max() == 1  # one corner at a time
    with pytest.raises(ValueError, match="inputs"):
        net(boolean_cube(2))
