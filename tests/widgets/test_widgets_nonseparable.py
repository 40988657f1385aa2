"""Lessons 7 and 8 widgets: their data helpers and what the figures show."""

from __future__ import annotations

import numpy as np

from perclib import is_separable
from perclib.widgets.nonseparable import (
    boundary_path,
    build_kernel_boundary,
    build_noise_comparison,
    kernel_datasets,
    noisy_teacher,
)


def test_noise_is_nested_and_at_the_requested_rate() -> None:
    X0, y0, u = noisy_teacher(4000, 3, 0.0, seed=2)
    _, y1, _ = noisy_teacher(4000, 3, 0.1, seed=2)
    _, y2, _ = noisy_teacher(4000, 3, 0.2, seed=2)
    assert np.all(y0 * (X0 @ u) >= -1e-12), "without noise the teacher labels every pattern"
    flipped1, flipped2 = y1 != y0, y2 != y0
    assert np.all(flipped2[flipped1]), "a larger noise must flip a superset of the labels"
    assert abs(flipped1.mean() - 0.1) < 0.02 and abs(flipped2.mean() - 0.2) < 0.02


def test_no_line_separates_the_kernel_datasets() -> None:
    for name, (X, y) in kernel_datasets().items():
        assert not is_separable(X, y, threshold=True), f"{name} should need a kernel"
    X, y = kernel_datasets()["rings"]
    r = np.linalg.norm(X, axis=1)
    assert r[y > 0].max() < r[y < 0].min(), "the rings should not overlap"


def test_boundary_path_of_a_circle() -> None:
    xs = np.linspace(-2, 2, 161)
    gx, gy = np.meshgrid(xs, xs)
    path = boundary_path(xs, xs, 1.0 - gx**2 - gy**2)
    radii = np.linalg.norm(path[~np.isnan(path[:, 0])], axis=1)
    assert np.allclose(radii, 1.0, atol=0.01)
    assert np.all(np.isnan(boundary_path(xs, xs, np.ones_like(gx))))


def test_kernel_widget_reports_a_separated_ring_and_a_failing_degree_one() -> None:
    demo = build_kernel_boundary()
    demo.controls["data"].value = "rings"
    demo.controls["degree"].value = 1
    assert "no convergence" in demo.status.value.split("<br>")[0]
    demo.controls["degree"].value = 2
    assert "converged" in demo.status.value.split("<br>")[0]
    assert "0 training errors" in demo.status.value.split("<br>")[0]


def test_noise_widget_status_names_all_four_predictors() -> None:
    demo = build_noise_comparison(P=30, seeds=2, epochs=5)
    demo.controls["noise"].value = 0.2
    for name in ("last", "pocket", "averaged", "voted"):
        assert name in demo.status.value
