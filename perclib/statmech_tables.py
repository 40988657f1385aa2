"""Stored results of lesson 9's slow computations, and the code that made them.

Three computations of lesson 9 take most of its run time without teaching anything new
when they run again: the capacity Monte Carlo (about 2,400 maximum-margin solves,
14 CPU-seconds), the teacher-student simulation of the learning-curve figure (3
CPU-seconds) and the replica theory curves on the plotting grid (the Gibbs and
maximum-margin saddle points at 36 alphas, 2 CPU-seconds). They are computed once by
:func:`compute_tables` (``python -m perclib.statmech_tables`` writes them) and stored
in ``statmech_tables.json`` next to this module. ``tests/perclib/test_statmech_tables.py``
recomputes a slice of every table with perclib and compares, so the stored numbers
cannot drift from the code that defines them.

Examples
--------
>>> samples = capacity_samples()
>>> [s.N for s in samples], samples[0].margins.shape
([50, 100, 200], (18, 80))
>>> [c.rule for c in learning_curves()]
['hebb', 'perceptron', 'max_margin']
>>> grid, curves = theory_curves()
>>> round(float(curves["max_margin"][0]), 3) == round(float(max_margin_generalization(grid[0])), 3)
True
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from perclib.statmech import (
    RULES,
    CapacitySample,
    LearningCurve,
    bayes_generalization,
    capacity_sample,
    gibbs_generalization,
    learning_curve,
    max_margin_generalization,
)

__all__ = ["CAPACITY_ALPHAS", "CAPACITY_RUNS", "LEARNING_RUN", "THEORY_ALPHAS", "capacity_samples",
           "compute_tables", "learning_curves", "theory_curves"]

TABLE_FILE = Path(__file__).with_name("statmech_tables.json")

#: The alphas of the capacity Monte Carlo: 0.1 ... 1.2 in steps of 0.1, then 1.4 ... 2.4.
CAPACITY_ALPHAS = np.round(np.r_[np.arange(0.1, 1.21, 0.1), np.arange(1.4, 2.41, 0.2)], 1)
#: (N, number of samples, seed) of each capacity Monte Carlo.
CAPACITY_RUNS = ((50, 80, 850), (100, 40, 8100), (200, 16, 8200))
#: The teacher-student simulation: alphas, N, runs and seed (the same for every rule).
LEARNING_RUN = {"alphas": (0.5, 1.0, 2.0, 4.0, 8.0, 16.0), "N": 100, "n_runs": 8, "rng": 11}
#: The alphas of the theory curves: the plotting grid of lesson 9's figure and widget.
THEORY_ALPHAS = np.geomspace(0.25, 50.0, 36)
#: Theory curves stored, by name, with the perclib function that defines each.
THEORY_FUNCTIONS = {"gibbs": gibbs_generalization, "max_margin": max_margin_generalization,
                    "bayes": bayes_generalization}


def compute_tables(n_samples: int | None = None) -> dict:
    """Compute every table from perclib (slow: about 16 CPU-seconds in full).

    Parameters
    ----------
    n_samples : int, optional
        Take only the first ``n_samples`` samples of each capacity Monte Carlo and
        the first ``n_samples`` runs of each learning curve (both are drawn one after
        the other from their seed, so they are the stored table's first columns).
        Default: all of them.

    Returns
    -------
    dict
        ``{"capacity": {N: margins}, "learning": {rule: errors}, "theory": {name: values}}``
        (nested lists).
    """
    capacity = {}
    for N, n, seed in CAPACITY_RUNS:
        s = capacity_sample(CAPACITY_ALPHAS, N, n_samples=n if n_samples is None else n_samples, rng=seed)
        capacity[str(N)] = s.margins.tolist()
    run = dict(LEARNING_RUN)
    if n_samples is not None:
        run["n_runs"] = n_samples
    learning = {rule: learning_curve(run["alphas"], run["N"], rule=rule, n_runs=run["n_runs"],
                                     rng=run["rng"]).errors.tolist() for rule in RULES}
    theory = {name: np.asarray(f(THEORY_ALPHAS)).tolist() for name, f in THEORY_FUNCTIONS.items()}
    return {"capacity": capacity, "learning": learning, "theory": theory}


@functools.lru_cache(maxsize=1)
def _stored() -> dict:
    return json.loads(TABLE_FILE.read_text())


def capacity_samples() -> list[CapacitySample]:
    """The stored capacity Monte Carlo: one :class:`CapacitySample` per N of :data:`CAPACITY_RUNS`.

    Each equals ``capacity_sample(CAPACITY_ALPHAS, N, n_samples=n, rng=seed)``.
    """
    table = _stored()["capacity"]
    return [CapacitySample(N=N, alpha=CAPACITY_ALPHAS.copy(),
                           margins=np.array(table[str(N)], dtype=float))
            for N, _, _ in CAPACITY_RUNS]


def learning_curves() -> list[LearningCurve]:
    """The stored teacher-student simulation, one :class:`LearningCurve` per rule of ``RULES``.

    Each equals ``learning_curve(alphas, N, rule=rule, n_runs=n_runs, rng=rng)`` with the
    values of :data:`LEARNING_RUN`.
    """
    table = _stored()["learning"]
    alphas = np.array(LEARNING_RUN["alphas"], dtype=float)
    return [LearningCurve(rule=rule, N=LEARNING_RUN["N"], alpha=alphas.copy(),
                          errors=np.array(table[rule], dtype=float)) for rule in RULES]


def theory_curves() -> tuple[NDArray[np.float64], dict[str, NDArray[np.float64]]]:
    """The stored Gibbs, maximum-margin and Bayes curves on :data:`THEORY_ALPHAS`.

    Returns ``(alphas, {"gibbs": ..., "max_margin": ..., "bayes": ...})``, each equal to
    the perclib function of :data:`THEORY_FUNCTIONS` on the grid (to float64 rounding:
    ``tests/perclib/test_statmech_tables.py`` recomputes them at a relative 1e-10).
    """
    table = _stored()["theory"]
    return THEORY_ALPHAS.copy(), {name: np.array(table[name], dtype=float) for name in THEORY_FUNCTIONS}


def stored_or_computed(alphas: NDArray[np.float64], name: str) -> NDArray[np.float64]:
    """A theory curve at ``alphas``: read from the table when they are its grid, else computed.

    ``name`` is one of :data:`THEORY_FUNCTIONS` (``"gibbs"``, ``"max_margin"``, ``"bayes"``).
    """
    if not isinstance(name, str) or name not in THEORY_FUNCTIONS:
        raise ValueError(f"name must be one of {sorted(THEORY_FUNCTIONS)}, got {name!r}")
    alphas = np.asarray(alphas, dtype=float)
    if alphas.shape == THEORY_ALPHAS.shape and np.array_equal(alphas, THEORY_ALPHAS):
        return theory_curves()[1][name]
    return np.asarray(THEORY_FUNCTIONS[name](alphas), dtype=float)


if __name__ == "__main__":  # pragma: no cover - regenerates the stored file
    TABLE_FILE.write_text(json.dumps(compute_tables(), indent=0) + "\n")
    print(f"wrote {TABLE_FILE}")
