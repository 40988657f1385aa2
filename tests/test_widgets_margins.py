"""Lesson 6 widgets, driven from Python as the frontend would drive them."""

from __future__ import annotations

import numpy as np
import pytest

from perclib import margin, max_margin, teacher_data
from perclib.widgets import build_margin_family, build_margin_training
from perclib.widgets.margins import DEMOS


def _family_data():
    d = teacher_data(12, 2, margin=0.25, rng=5)  # the builder's defaults
    return d.X, d.y, max_margin(d.X, d.y)


def test_registered() -> None:
    assert set(DEMOS) == {"margin_family", "margin_training"}


def test_family_shrinks_and_empties() -> None:
    X, y, best = _family_data()
    demo = build_margin_family()
    gamma = demo.controls["gamma"]
    widths = []
    for g in (0.0, 0.25 * best.gamma, 0.5 * best.gamma, 0.9 * best.gamma):
        gamma.value = round(g, 4)
        xs = demo.figure.axes[1].patches[0].get_xy()[:, 0]
        widths.append(xs.max() - xs.min())
        assert demo.figure.axes[1].patches[0].get_visible()
        assert "wide" in demo.status.value
    assert all(a > b for a, b in zip(widths, widths[1:], strict=False))
    # the width in degrees, checked on a brute-force scan of directions
    phi = np.arctan2(best.w[1], best.w[0]) + np.radians(np.linspace(-90, 90, 36_001))
    U = np.column_stack([np.cos(phi), np.sin(phi)])
    m = np.min((U @ X.T) * y, axis=1)
    for g, width in zip((0.5 * best.gamma, 0.9 * best.gamma), widths[2:], strict=True):
        scanned = 180.0 / 36_000 * np.count_nonzero(m >= round(g, 4))
        assert width == pytest.approx(scanned, abs=0.02)
    gamma.value = gamma.max  # above the maximum margin
    assert "empty" in demo.status.value
    assert not any(p.get_visible() for ax in demo.figure.axes for p in ax.patches)


def test_family_chosen_separator_margin() -> None:
    X, y, best = _family_data()
    demo = build_margin_family()
    phi_star = np.arctan2(best.w[1], best.w[0])
    for turn in (-120.0, -10.0, 0.0, 30.0, 180.0):
        demo.controls["angle"].value = turn
        u = np.array([np.cos(phi_star + np.radians(turn)), np.sin(phi_star + np.radians(turn))])
        expected = margin(u, X, y)
        marker = demo.figure.axes[1].lines[-1]
        assert marker.get_ydata()[0] == pytest.approx(expected, abs=1e-12)
        assert f"margin {expected:+.3f}" in demo.status.value
    demo.controls["angle"].value = 0.0
    demo.controls["gamma"].value = round(0.99 * best.gamma, 4)
    assert "<b>in</b>" in demo.status.value


def test_training_widget_follows_the_runs() -> None:
    demo = build_margin_training()
    d = teacher_data(20, 2, margin=0.1, rng=5)
    best = max_margin(d.X, d.y)
    demo.controls["step"].value = 0
    for name in ("perceptron", "margin perceptron", "MinOver", "AdaTron"):
        demo.controls["algorithm"].value = name
        assert "undefined (w = 0)" in demo.status.value  # every run starts at w = 0
    demo.controls["algorithm"].value = "AdaTron"
    demo.controls["step"].value = demo.controls["step"].max
    shown = float(demo.status.value.split("margin ")[1].split(",")[0])
    assert shown == pytest.approx(best.gamma, abs=1e-3)
    demo.controls["algorithm"].value = "perceptron"
    assert "run finished" in demo.status.value
    shown = float(demo.status.value.split("margin ")[1].split(",")[0])
    assert 0 < shown < best.gamma
