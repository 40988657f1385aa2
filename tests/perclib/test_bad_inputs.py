"""Every bad input to a public perclib function gets a ValueError or TypeError naming the argument.

A probe in the spirit of issue 23: for each public function of the modules below
(geometry and margin_capacity have their own tests), one valid call is written
down, then each argument in turn is replaced by wrong shapes, NaN/inf, complex and
object arrays, strings, {0, 1} labels, zero and negative sizes, bools where a
number is expected, and degenerate data. Each case must raise ValueError or
TypeError, and the message must contain the argument's name as a word, so that a
student knows which argument to fix. The cases are parametrized so that their
number shows in the test report.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import perclib
from perclib import statmech

X = [[1.0, 0.0], [0.0, 1.0], [-1.0, -0.5]]
Y = [1, 1, -1]
W = [1.0, 1.0]

# Bad values by kind of argument (label, value).
PATTERNS = [
    ("1-D", [1.0, 2.0]),
    ("3-D", np.ones((2, 2, 2))),
    ("no rows", np.zeros((0, 2))),
    ("no columns", np.zeros((3, 0))),
    ("NaN", [[np.nan, 0.0], [0.0, 1.0], [1.0, 1.0]]),
    ("inf", [[np.inf, 0.0], [0.0, 1.0], [1.0, 1.0]]),
    ("complex", np.array(X) + 1j),
    ("object strings", np.array([["a", "b"], ["c", "d"], ["e", "f"]], dtype=object)),
    ("string", "abc"),
    ("ragged", [[1.0, 2.0], [1.0]]),
    ("None", None),
    ("scalar", 3.0),
    # issue 30: a number beyond float64, numbers written as text, a masked entry
    ("big int", [[2**1100, 0], [0, 1], [-1, 1]]),
    ("numeric strings", [["1", "0"], ["0", "1"], ["-1", "-0.5"]]),
    ("masked", np.ma.masked_array(X, mask=[[0, 1], [0, 0], [0, 0]])),
]
LABELS = [
    ("{0,1}", [1, 1, 0]),
    ("NaN", [1, np.nan, -1]),
    ("inf", [1, np.inf, -1]),
    ("2-D", [[1, 1, -1]]),
    ("wrong length", [1, -1]),
    ("value 2", [1, 2, -1]),
    ("complex", [1j, 1, -1]),
    ("string", "ab"),
    ("object", np.array(["a", "b", "c"], dtype=object)),
    ("empty", []),
    ("numeric strings", ["1", "1", "-1"]),
    ("masked", np.ma.masked_array(Y, mask=[0, 1, 0])),
]
VECTOR = [
    ("2-D", [[1.0, 1.0]]),
    ("NaN", [np.nan, 1.0]),
    ("inf", [np.inf, 1.0]),
    ("wrong length", [1.0, 1.0, 1.0]),
    ("complex", [1j, 1.0]),
    ("string", "ab"),
    ("object", np.array(["a", "b"], dtype=object)),
    ("empty", []),
    ("big int", [2**1100, 1]),
    ("numeric strings", ["1", "1"]),
    ("masked", np.ma.masked_array(W, mask=[1, 0])),
]
COUNT = [("zero", 0), ("negative", -1), ("bool", True), ("float", 2.5), ("string", "3"), ("None", None)]
LIMIT = [("zero", 0), ("negative", -5), ("bool", True), ("float", 1e3), ("string", "100")]
REAL = [("NaN", float("nan")), ("inf", float("inf")), ("string", "1"), ("bool", True), ("complex", 1j),
        ("big int", 2**1100)]
POSITIVE = [*REAL, ("zero", 0.0), ("negative", -1.0)]
NONNEGATIVE = [*REAL, ("negative", -1.0)]
FLAG = [("int", 1), ("string", "yes"), ("None", None)]
#: Work budgets (None is valid: no limit).
BUDGET = [("zero", 0), ("negative", -5), ("bool", True), ("float", 1e3), ("string", "100")]
#: A kernel callable that returns complex numbers (once a ComplexWarning and a cast).
COMPLEX_KERNEL = [("complex callable", lambda a, b: (a @ b.T).astype(complex))]
RNG = [("string", "seed"), ("float", 1.5), ("bool", True)]
ALPHA = [
    ("NaN", float("nan")),
    ("negative", -1.0),
    ("string", "1"),
    ("bool", True),
    ("complex", 1j),
    ("array with inf", [1.0, np.inf]),
    ("object", np.array(["a"], dtype=object)),
]


def choice(*good: str) -> list[tuple[str, Any]]:
    return [("unknown", "bogus"), ("int", 3), ("None", None)]


def run_perceptron() -> perclib.PerceptronResult:
    return perclib.perceptron(X, Y)


# function name -> (valid keyword arguments, {argument: bad values})
CASES: dict[str, tuple[Callable[..., Any], dict[str, Any], dict[str, list[tuple[str, Any]]]]] = {
    "boolean_cube": (perclib.boolean_cube, {"n": 2}, {"n": COUNT + [("huge", 40)]}),
    "boolean_function": (
        perclib.boolean_function,
        {"n": 2, "table": 6},
        {
            "n": COUNT + [("huge", 30)],
            "table": [
                ("too large", 16), ("negative", -1), ("bool", True), ("float", 2.5),
                ("string", "0110"), ("wrong length", [0, 1]), ("values", [0, 1, 2, 1]),
                ("NaN", [0, 1, np.nan, 1]), ("complex", [0, 1j, 1, 1]), ("2-D", [[0, 1, 1, 0]]),
                ("object", np.array(["a", "b", "c", "d"], dtype=object)), ("None", None),
            ],
        },
    ),
    "gaussian_patterns": (
        perclib.gaussian_patterns, {"P": 3, "N": 2}, {"P": COUNT, "N": COUNT, "rng": RNG}
    ),
    "random_labels": (perclib.random_labels, {"P": 3}, {"P": COUNT, "rng": RNG}),
    "teacher_data": (
        perclib.teacher_data,
        {"P": 3, "N": 2, "margin": 0.1},
        {
            "P": COUNT, "N": COUNT, "margin": NONNEGATIVE, "rng": RNG,
            "teacher": VECTOR + [("zero", [0.0, 0.0])],
        },
    ),
    "augment": (perclib.augment, {"X": X}, {"X": PATTERNS}),
    "augment_weights": (
        perclib.augment_weights, {"w": W, "theta": 0.5},
        {"w": [v for v in VECTOR if v[0] != "wrong length"], "theta": REAL},
    ),
    "reflect": (perclib.reflect, {"X": X, "y": Y}, {"X": PATTERNS, "y": LABELS}),
    "sign": (
        perclib.sign,
        {"z": [1.0, -2.0]},
        {
            "z": [("NaN", [np.nan]), ("inf", [1.0, -np.inf]), ("string", "ab"), ("complex", [1j]),
                  ("object", np.array(["a"], dtype=object)), ("None", None)],
            "at_zero": [("zero", 0), ("two", 2), ("bool", True), ("string", "x"), ("float", 1.0)],
        },
    ),
    "split_augmented": (
        perclib.split_augmented, {"w_hat": [1.0, 2.0, 3.0]},
        {"w_hat": [v for v in VECTOR if v[0] != "wrong length"] + [("length 1", [1.0])]},
    ),
    "threshold_unit": (
        perclib.threshold_unit,
        {"X": X, "w": W, "theta": 0.5},
        {"X": PATTERNS, "w": VECTOR, "theta": REAL, "at_zero": [("zero", 0), ("bool", True)]},
    ),
    "to_01": (perclib.to_01, {"s": [1, -1]}, {"s": [v for v in LABELS if v[0] != "wrong length"]}),
    "to_pm1": (
        perclib.to_pm1,
        {"r": [0, 1]},
        {
            "r": [("{-1,1}", [-1, 1]), ("value 2", [2, 1]), ("NaN", [np.nan, 1]), ("string", "01"),
                  ("complex", [1j, 0]), ("2-D", [[0, 1]]), ("empty", []), ("None", None),
                  ("object", np.array(["a"], dtype=object))],
        },
    ),
    "perceptron": (
        perclib.perceptron,
        {"X": X, "y": Y, "order": "random", "rng": 0},
        {
            "X": PATTERNS, "y": LABELS, "eta": POSITIVE, "w0": VECTOR, "max_epochs": COUNT,
            "max_work": BUDGET,
            "order": choice("cyclic", "random"), "rng": RNG,
        },
    ),
    "margin_perceptron": (
        perclib.margin_perceptron,
        {"X": X, "y": Y, "beta": 0.5},
        {
            "X": PATTERNS, "y": LABELS, "beta": NONNEGATIVE, "eta": POSITIVE, "w0": VECTOR,
            "max_epochs": COUNT, "max_work": BUDGET, "order": choice("cyclic", "random"),
        },
    ),
    "minover": (
        perclib.minover,
        {"X": X, "y": Y},
        {"X": PATTERNS, "y": LABELS, "max_steps": COUNT, "max_work": BUDGET,
         "tol": POSITIVE + [("one", 1.0)]},
    ),
    "adatron": (
        perclib.adatron,
        {"X": X, "y": Y},
        {
            "X": PATTERNS, "y": LABELS, "max_epochs": COUNT, "max_work": BUDGET,
            "eta": POSITIVE + [("two", 2.0)],
            "tol": POSITIVE + [("one", 1.0)],
        },
    ),
    "averaged_perceptron": (
        perclib.averaged_perceptron,
        {"X": X, "y": Y, "order": "random", "rng": 1},
        {"X": PATTERNS, "y": LABELS, "epochs": COUNT, "max_work": BUDGET,
         "order": choice("cyclic", "random"), "rng": RNG},
    ),
    "pocket": (
        perclib.pocket,
        {"X": X, "y": Y, "rng": 0},
        {"X": PATTERNS, "y": LABELS, "ratchet": FLAG, "best_seen": FLAG, "max_epochs": COUNT,
         "max_work": BUDGET, "rng": RNG},
    ),
    "kernel_perceptron": (
        perclib.kernel_perceptron,
        {"X": X, "y": Y, "kernel": "poly"},
        {
            "X": PATTERNS, "y": LABELS, "kernel": choice("linear", "poly", "rbf") + COMPLEX_KERNEL,
            "degree": COUNT,
            "coef0": REAL, "gamma": POSITIVE, "max_epochs": COUNT, "max_work": BUDGET,
        },
    ),
    "gram_matrix": (
        perclib.gram_matrix,
        {"A": X, "B": X, "kernel": "poly"},
        {
            "A": PATTERNS,
            "B": [p for p in PATTERNS if p[0] != "None"] + [("wrong width", [[1.0, 2.0, 3.0]])],
            "kernel": choice("linear", "poly", "rbf") + COMPLEX_KERNEL, "degree": COUNT, "coef0": REAL,
            "gamma": POSITIVE,
        },
    ),
    "polynomial_features": (
        perclib.polynomial_features,
        {"X": X},
        {"X": PATTERNS, "degree": COUNT, "coef0": NONNEGATIVE, "gamma": POSITIVE},
    ),
    "radius": (perclib.radius, {"X": X}, {"X": PATTERNS, "threshold": FLAG}),
    "separator_margin": (
        perclib.separator_margin,
        {"u": W, "X": X, "y": Y},
        {"u": VECTOR + [("zero", [0.0, 0.0])], "X": PATTERNS, "y": LABELS, "threshold": FLAG},
    ),
    "mistake_bound": (
        perclib.mistake_bound,
        {"u": W, "X": X, "y": Y, "w0": [0.5, 0.5]},
        {
            "u": VECTOR + [("zero", [0.0, 0.0]), ("not separating", [-1.0, -1.0])],
            "X": PATTERNS, "y": LABELS, "threshold": FLAG, "w0": VECTOR, "eta": POSITIVE,
            "sharp": FLAG,
        },
    ),
    "novikoff_trace": (
        perclib.novikoff_trace,
        {"result": "RUN", "u": W},
        {
            "result": [("string", "run"), ("None", None), ("array", np.ones(3))],
            "u": VECTOR + [("zero", [0.0, 0.0]), ("not separating", [-1.0, -1.0])],
        },
    ),
    "cover_count": (perclib.cover_count, {"P": 4, "N": 2}, {"P": COUNT, "N": COUNT, "max_work": LIMIT}),
    "capacity_fraction": (
        perclib.capacity_fraction, {"P": 4, "N": 2}, {"P": COUNT, "N": COUNT, "max_work": LIMIT}
    ),
    "cover_count_symbolic": (
        perclib.cover_count_symbolic,
        {"P": 4, "N": 2},
        {
            "P": [v for v in COUNT if v[0] != "None"], "N": [v for v in COUNT if v[0] != "None"],
            "evaluate": [("int", 1), ("string", "yes")], "max_work": LIMIT,
        },
    ),
    "count_dichotomies": (
        perclib.count_dichotomies, {"X": X},
        # max_count: the deprecated old name of max_work (issue 52), still checked
        {"X": PATTERNS, "threshold": FLAG, "max_work": LIMIT, "max_count": LIMIT},
    ),
    "separable_dichotomies": (
        perclib.separable_dichotomies, {"X": X},
        {"X": PATTERNS, "threshold": FLAG, "max_count": LIMIT},
    ),
    "arrangement_dichotomies": (
        perclib.arrangement_dichotomies, {"X": X},
        {"X": PATTERNS, "threshold": FLAG, "max_count": LIMIT},
    ),
    "cover_counts": (
        perclib.cover_counts, {"N": 2, "P_max": 5}, {"N": COUNT, "P_max": COUNT, "max_work": LIMIT}
    ),
    "capacity_curve": (
        perclib.capacity_curve, {"N": 2, "P_max": 5}, {"N": COUNT, "P_max": COUNT, "max_work": LIMIT}
    ),
    "dependent_subsets": (
        perclib.dependent_subsets,
        {"X": X, "size": 2},
        {
            "X": PATTERNS, "size": COUNT + [("more than P", 4)], "threshold": FLAG,
            "tol": [*NONNEGATIVE, ("one", 1.0)], "max_work": LIMIT,
        },
    ),
    "extension_split": (
        perclib.extension_split,
        {"X": X, "x_new": [0.5, -2.0]},
        {"X": PATTERNS, "x_new": VECTOR, "threshold": FLAG, "max_count": LIMIT},
    ),
    "nonseparable_restrictions": (
        perclib.nonseparable_restrictions,
        {"X": X, "y": Y, "subsets": [(0, 1), (1, 2)]},
        {
            "X": PATTERNS, "y": LABELS, "threshold": FLAG,
            "subsets": [("string", "01"), ("int", 3), ("out of range", [(0, 7)]), ("negative", [(-1, 0)]),
                        ("float index", [(0.5, 1)]), ("empty subset", [()]), ("None", None)],
        },
    ),
    "project_out": (
        perclib.project_out, {"X": X, "v": W}, {"X": PATTERNS, "v": VECTOR + [("zero", [0.0, 0.0])]}
    ),
    "separable_fraction_mc": (
        perclib.separable_fraction_mc,
        {"P": 3, "N": 2, "n_trials": 2, "rng": 0},
        {
            "P": COUNT, "N": COUNT, "n_trials": COUNT, "threshold": FLAG, "rng": RNG,
            "max_work": LIMIT,
        },
    ),
    "gardner_capacity": (perclib.gardner_capacity, {"kappa": 0.5}, {"kappa": ALPHA}),
    "hebb_generalization": (perclib.hebb_generalization, {"alpha": 1.0}, {"alpha": ALPHA}),
    "gibbs_generalization": (perclib.gibbs_generalization, {"alpha": 1.0}, {"alpha": ALPHA}),
    "bayes_generalization": (
        statmech.bayes_generalization, {"alpha": 1.0}, {"alpha": [*ALPHA, ("beyond domain", 1e9)]}
    ),
    "max_margin_theory": (
        statmech.max_margin_theory, {"alpha": 1.0}, {"alpha": [*ALPHA, ("beyond domain", 1e9)]}
    ),
    "max_margin_generalization": (
        perclib.max_margin_generalization, {"alpha": 1.0}, {"alpha": [*ALPHA, ("beyond domain", 1e9)]}
    ),
    "overlap": (
        perclib.overlap, {"w": W, "teacher": [1.0, 0.0]},
        {"w": VECTOR + [("zero", [0.0, 0.0])], "teacher": VECTOR[:3] + VECTOR[4:] + [("zero", [0.0, 0.0])]},
    ),
    "generalization_error": (
        perclib.generalization_error, {"w": W, "teacher": [1.0, 0.0]},
        {"w": VECTOR + [("zero", [0.0, 0.0])], "teacher": VECTOR[:3] + VECTOR[4:] + [("zero", [0.0, 0.0])]},
    ),
    "learning_curve": (
        perclib.learning_curve,
        {"alphas": [0.5, 1.0], "N": 4, "n_runs": 1, "rng": 0},
        {
            "alphas": [*ALPHA[:1], *ALPHA[2:], ("empty", []), ("too small", [0.01]), ("2-D", [[1.0]])],
            "N": COUNT, "rule": choice(*perclib.statmech.RULES), "n_runs": COUNT, "rng": RNG,
        },
    ),
    "capacity_sample": (
        perclib.capacity_sample,
        {"alphas": [0.5, 1.0], "N": 4, "n_samples": 1, "rng": 0},
        {
            "alphas": [*ALPHA[:1], *ALPHA[2:], ("empty", []), ("too small", [0.01]), ("2-D", [[1.0]])],
            "N": COUNT, "n_samples": COUNT, "rng": RNG,
        },
    ),
}


def _params() -> list[Any]:
    out = []
    for fname, (_, _, bad) in CASES.items():
        for arg, values in bad.items():
            for label, value in values:
                out.append(pytest.param(fname, arg, value, id=f"{fname}-{arg}-{label}"))
    return out


PARAMS = _params()


def _call(fname: str, kwargs: dict[str, Any]) -> Any:
    fn = CASES[fname][0]
    if isinstance(kwargs.get("result"), str) and kwargs["result"] == "RUN":
        kwargs = {**kwargs, "result": run_perceptron()}
    return fn(**kwargs)


@pytest.mark.parametrize("fname", list(CASES))
def test_the_valid_call_works(fname: str) -> None:
    """Each probe starts from a call that works, so a failure below is the bad argument's."""
    _call(fname, dict(CASES[fname][1]))


#: Caps on each bad-input call (issue 30): a case may not hang or exhaust memory.
CHILD_MEMORY = 4 * 2**30
CHILD_SECONDS = 20


def _in_child(fn: Callable[[], Any]) -> tuple[str, str]:
    """Run ``fn`` in a forked child with memory and time caps; ``(outcome, message)``.

    outcome is the name of the exception raised, "returned" or "killed" (signal, time
    or memory). Forking keeps a runaway case from taking the test process with it.
    """
    import os
    import pickle
    import resource
    import signal

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
            signal.alarm(CHILD_SECONDS)
            try:
                fn()
                out = ("returned", "")
            except BaseException as err:  # noqa: BLE001 - reported to the parent
                out = (type(err).__name__, str(err)[:2000])
            os.write(write, pickle.dumps(out))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        return "killed", f"child status {status} (time cap {CHILD_SECONDS} s, memory cap 4 GiB)"
    return pickle.loads(data)


@pytest.mark.parametrize(("fname", "arg", "value"), PARAMS)
def test_bad_input_is_named(fname: str, arg: str, value: Any) -> None:
    kwargs = {**CASES[fname][1], arg: value}
    outcome, message = _in_child(lambda: _call(fname, kwargs))
    assert outcome in ("ValueError", "TypeError"), f"{outcome}: {message}"
    assert re.search(rf"(?<![\w.]){re.escape(arg)}(?!\w)", message), (
        f"the message does not name {arg!r}: {message}"
    )


def test_every_public_name_of_these_modules_is_probed() -> None:
    """A new public function of a probed module must get its own bad-input cases."""
    skip = {"geometry", "margin_capacity"}  # another helper's modules, with their own tests
    functions = {
        name for name in perclib.__all__
        if callable(getattr(perclib, name)) and not isinstance(getattr(perclib, name), type)
        and getattr(perclib, name).__module__.split(".")[1] not in skip
    }
    # Public functions of submodules that perclib does not export are probed as well.
    submodule_only = {"bayes_generalization", "max_margin_theory"}
    assert functions - {"xor"} == set(CASES) - submodule_only, sorted(functions ^ set(CASES))


def test_case_count_is_visible() -> None:
    assert len(PARAMS) > 500


@pytest.mark.parametrize(
    ("method", "arg"),
    [
        (lambda Z: perclib.averaged_perceptron(X, Y).vote(Z), "Z"),
        (lambda Z: perclib.kernel_perceptron(X, Y).decision_function(Z), "Z"),
    ],
    ids=["AveragedResult.vote", "KernelPerceptronResult.decision_function"],
)
@pytest.mark.parametrize(("label", "value"), [*PATTERNS, ("wrong width", [[1.0, 2.0, 3.0]])],
                         ids=[p[0] for p in PATTERNS] + ["wrong width"])
def test_result_methods_name_bad_patterns(method, arg, label, value) -> None:
    with pytest.raises((ValueError, TypeError)) as err:
        method(value)
    assert re.search(rf"(?<![\w.]){arg}(?!\w)", str(err.value)), str(err.value)


@pytest.mark.parametrize("rtol", ["x", None, -1.0, float("nan"), True, 1j])
def test_novikoff_trace_holds_names_rtol(rtol) -> None:
    trace = perclib.novikoff_trace(run_perceptron(), W)
    with pytest.raises((ValueError, TypeError), match=r"(?<!\w)rtol(?!\w)"):
        trace.holds(rtol)


def test_novikoff_bound_of_a_thin_separator_names_u() -> None:
    # u = (1, 1e-170) separates the two unit patterns with margin 1e-170: the bound
    # R^2 / gamma^2 = 1e340 is no float64 (it was an OverflowError from **).
    trace = perclib.novikoff_trace(perclib.perceptron(np.eye(2), [1, 1]), [1.0, 1e-170])
    with pytest.raises(ValueError, match=r"^u: its margin gamma = 1e-170 .* beyond float64"):
        _ = trace.bound


@pytest.mark.parametrize("kappa", [-1.0, True, "0", float("nan")])
def test_capacity_sample_fraction_names_kappa(kappa) -> None:
    sample = perclib.capacity_sample([0.5], 4, n_samples=2, rng=0)
    with pytest.raises((ValueError, TypeError), match="kappa"):
        sample.fraction(kappa)


# --- extreme inputs (issue 41): a right answer or a clear error, never a silent one ----------


def test_mixed_scales_with_a_threshold_are_separable() -> None:
    """x2 = 0 separates (0, +1e-200) from (0, -1e-200); the LP once flushed them to one point."""
    X = np.array([[1e200, 0.0], [0.0, 1e-200], [0.0, -1e-200]])
    y = np.array([1.0, 1.0, -1.0])
    assert perclib.is_separable(X, y, threshold=True)
    w, b = perclib.separating_weights(X, y, threshold=True)
    # the separator works, decided exactly (w . x + b > 0 on the label's side)
    from perclib._exact import exact_dot_sign

    assert all(int(yi) * exact_dot_sign(x, w, -b) > 0 for x, yi in zip(X, y, strict=True))
    # ... while (0, +-1e-200) with one label and the big point with the other is not
    assert not perclib.is_separable(X, [1.0, -1.0, -1.0], threshold=False)


@pytest.mark.parametrize("scale", [1e-300, 1e-12, 1.0, 1e12, 1e300])
def test_a_pattern_at_the_origin_beside_huge_ones_keeps_the_threshold_visible(scale) -> None:
    """Four points with a threshold, one at the origin: 14 of 16 labellings in any units.

    With only the largest entry of each row and column equilibrated, the origin's row
    pinned the column of ones at 1, and at 1e300 the LP saw the threshold at 1e-300.
    """
    import itertools

    X = scale * np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 2.0]])
    labellings = itertools.product([-1.0, 1.0], repeat=4)
    assert sum(perclib.is_separable(X, y, threshold=True) for y in labellings) == 14


@pytest.mark.parametrize("units", [1e-12, 1e-6, 0.7, 1e6, 1e12])
@pytest.mark.parametrize("column", [0, 1])
def test_a_change_of_units_never_changes_the_separability_verdict(units, column) -> None:
    """A feature measured in other units (one column scaled) or all of them (every column)."""
    gen = np.random.default_rng(7)
    for _ in range(20):
        X = gen.standard_normal((6, 2)) * [1e100, 1e-100]
        y = gen.choice([-1.0, 1.0], 6)
        for threshold in (False, True):
            verdict = perclib.is_separable(X, y, threshold=threshold)
            Xc = X.copy()
            Xc[:, column] *= units
            assert perclib.is_separable(Xc, y, threshold=threshold) == verdict
            assert perclib.is_separable(X * units, y, threshold=threshold) == verdict


@pytest.mark.parametrize("top", [1.7e308, 8.9e307])
def test_separating_weights_near_the_float_maximum(top) -> None:
    from perclib._exact import exact_dot_sign

    X = np.array([[1.0, 1.0], [-1.0, 1.0], [0.5, -1.0]]) * top
    y = np.array([1.0, -1.0, 1.0])
    w, b = perclib.separating_weights(X, y, threshold=True)
    assert np.all(np.isfinite(w)) and np.isfinite(b)
    assert all(int(yi) * exact_dot_sign(x, w, -b) > 0 for x, yi in zip(X, y, strict=True))


def test_minover_on_mixed_scales_keeps_every_update() -> None:
    """The 1e-200 pattern was flushed to zero: 9,999 updates that changed nothing."""
    X = np.array([[1e200, 0.0], [0.0, 1e-200]])
    with pytest.warns(RuntimeWarning, match="margin is below float64"):  # issue 52: no 0.0
        res = perclib.minover(X, [1, 1], max_steps=50)
    assert not res.converged  # it needs ~1e400 steps: it says so
    assert res.strengths.tolist() == [1.0, 49.0]
    np.testing.assert_allclose(res.w, [1e200, 49 * 1e-200], rtol=1e-14)
    np.testing.assert_array_equal(res.weights[-1], res.w)


@pytest.mark.parametrize("scale", [8.9e307, 2.0**1020, 1e-300])
def test_admissible_arc_at_extreme_scales(scale) -> None:
    X = np.array([[2.0, 0.5], [1.0, -1.0]])
    reference = perclib.admissible_arc(X, [1, 1], 0.6)
    scaled = perclib.admissible_arc(X * scale, [1, 1], 0.6 * scale)
    np.testing.assert_allclose(scaled, reference, rtol=1e-13)


@pytest.mark.parametrize("v", [[5e-324, 5e-324], [3e-320, 4e-320], [1e-310, 0.0]])
def test_project_out_of_a_subnormal_direction(v) -> None:
    direction = np.array(v) / np.max(np.abs(v))  # the same direction at ordinary size
    np.testing.assert_allclose(perclib.project_out(X, v), perclib.project_out(X, direction),
                               rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("w", [[0.0, 0.0], [np.nan, 1.0], [1.0, 1.0, 1.0], [[1.0, 1.0]]],
                         ids=["zero", "NaN", "3-D", "2-D array"])
def test_line_points_refuses_a_normal_that_is_no_line(w) -> None:
    from perclib import plotting

    with pytest.raises(ValueError, match=r"\bw\b"):
        plotting.line_points(w)


def test_update_line_hides_the_line_of_zero_weights() -> None:
    from perclib import plotting

    fig, (ax,) = plotting.new_figure()
    line = plotting.decision_line(ax, [1.0, 0.0])
    plotting.update_line(line, [0.0, 0.0])
    assert np.all(np.isnan(line.get_xdata()))


def test_teacher_data_too_large_is_refused_up_front() -> None:
    import time

    start = time.perf_counter()
    outcome, message = _in_child(lambda: perclib.teacher_data(31250, 10000))
    assert outcome == "ValueError", f"{outcome}: {message}"
    assert "bytes" in message and re.search(r"\bP\b", message) and re.search(r"\bN\b", message)
    assert time.perf_counter() - start < 5  # before any drawing, not after a MemoryError


@pytest.mark.parametrize("alpha", [1e-6, 1e-9, 1e-12, 1e-15])
def test_max_margin_theory_at_tiny_alpha_is_right_and_fast(alpha) -> None:
    """It used to integrate a million empty panels (kappa ~ 1 / sqrt(alpha)) without end.

    At small alpha the student barely aligns: R = sqrt(2 alpha / pi) to leading order
    (a pattern's stability is then Gaussian with a small drift along the teacher).
    """
    outcome, message = _in_child(lambda: statmech.max_margin_theory(alpha))
    assert outcome == "returned", message
    th = statmech.max_margin_theory(alpha)
    assert th.overlap == pytest.approx(np.sqrt(2 * alpha / np.pi), rel=1e-4)
    assert statmech.max_margin_generalization(alpha) == pytest.approx(
        np.arccos(th.overlap) / np.pi, rel=1e-14)
    assert 0 <= th.support_fraction <= 1


def test_max_margin_theory_below_its_range_is_a_clear_error() -> None:
    for f in (statmech.max_margin_theory, statmech.max_margin_generalization):
        outcome, message = _in_child(lambda f=f: f(1e-20))
        assert outcome == "ValueError" and "alpha" in message, f"{outcome}: {message}"


def test_stored_or_computed_names_an_unknown_curve() -> None:
    from perclib import statmech_tables

    with pytest.raises(ValueError, match=r"\bname\b.*max_margin"):
        statmech_tables.stored_or_computed(np.array([1.0]), "nonsense")


# --- counting at the edge of float64 (issue 52): the answer of scale 1, or an error naming X -----


def _counting_calls() -> dict[str, Callable[[Any, bool], Any]]:
    from perclib.counting import separable_dichotomies_bruteforce

    return {
        "count_dichotomies": lambda Z, t: perclib.count_dichotomies(Z, threshold=t),
        "separable_dichotomies": lambda Z, t: perclib.separable_dichotomies(Z, threshold=t).tolist(),
        "separable_dichotomies_bruteforce":
            lambda Z, t: separable_dichotomies_bruteforce(Z, threshold=t).tolist(),
        "arrangement_dichotomies":
            lambda Z, t: perclib.arrangement_dichotomies(Z, threshold=t).tolist(),
        "extension_split": lambda Z, t: perclib.extension_split(Z[:-1], Z[-1], threshold=t).new_total,
        "dependent_subsets": lambda Z, t: perclib.dependent_subsets(Z, 3, threshold=t),
    }


FOUR = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]])


@pytest.mark.parametrize("fname", list(_counting_calls()))
@pytest.mark.parametrize("scale", [8.9e307, 1.7e308 / 2, 2.0**1023 / 2, 1e-310, 5e-324 * 2**20])
@pytest.mark.parametrize("threshold", [False, True])
def test_counting_near_the_float_limits_is_right_or_names_x(fname, scale, threshold) -> None:
    """Four points times 8.9e307 once gave no labelling at all, or "N must be >= 1, got 0"."""
    call = _counting_calls()[fname]
    expected = call(FOUR, threshold)
    outcome, message = _in_child(lambda: _assert(call(FOUR * scale, threshold) == expected))
    if outcome != "returned":
        assert outcome in ("ValueError", "TypeError"), f"{outcome}: {message}"
        assert re.search(r"(?<![\w.])X(?!\w)", message), f"the message does not name X: {message}"
        assert "N must be" not in message


def _assert(ok: bool) -> None:
    if not ok:
        raise AssertionError("a different answer than at scale 1")
