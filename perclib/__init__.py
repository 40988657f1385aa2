"""perclib: the helper package behind perceptron-course.

Conventions: patterns are rows of ``X`` (shape ``(P, N)``, float64), labels are
-1/+1, and every function that draws random numbers takes ``rng``.
``threshold=True`` means hyperplanes with a threshold (affine); the default is
hyperplanes through the origin. Plotting and slider widgets live in the
submodules ``perclib.plotting`` and ``perclib.widgets``.

Importing the package is cheap: each public name is imported from its submodule
the first time it is used (PEP 562 module ``__getattr__``), so a lesson that only
trains a perceptron never loads scipy, sympy or matplotlib.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, eagerly, for type checkers and IDEs
    from perclib.capacity import (
        ExtensionSplit,
        SeparableFractionEstimate,
        arrangement_dichotomies,
        capacity_curve,
        cover_counts,
        dependent_subsets,
        extension_split,
        nonseparable_restrictions,
        project_out,
        separable_fraction_mc,
    )
    from perclib.counting import (
        capacity_fraction,
        count_dichotomies,
        cover_count,
        cover_count_symbolic,
        separable_dichotomies,
    )
    from perclib.data import (
        TeacherData,
        boolean_cube,
        boolean_function,
        gaussian_patterns,
        random_labels,
        teacher_data,
        xor,
    )
    from perclib.geometry import (
        MaxMarginResult,
        admissible_arc,
        direction_margins,
        in_general_position,
        is_separable,
        margin,
        max_margin,
        pattern_margins,
        separating_weights,
    )
    from perclib.kernels import gram_matrix, polynomial_features
    from perclib.margin_capacity import dichotomy_margins, margin_dichotomy_count, shattering_margin
    from perclib.novikoff import NovikoffTrace, mistake_bound, novikoff_trace, radius, separator_margin
    from perclib.statmech import (
        CapacitySample,
        LearningCurve,
        capacity_sample,
        gardner_capacity,
        generalization_error,
        gibbs_generalization,
        hebb_generalization,
        learning_curve,
        max_margin_generalization,
        overlap,
    )
    from perclib.train import (
        AveragedResult,
        KernelPerceptronResult,
        LargeMarginResult,
        PerceptronResult,
        PocketResult,
        adatron,
        averaged_perceptron,
        kernel_perceptron,
        margin_perceptron,
        minover,
        perceptron,
        pocket,
    )
    from perclib.units import (
        augment,
        augment_weights,
        reflect,
        sign,
        split_augmented,
        threshold_unit,
        to_01,
        to_pm1,
    )

def _lazy_names() -> dict[str, str]:
    """Public name -> its submodule, read from the ``TYPE_CHECKING`` imports above.

    One list to keep: the block above serves type checkers and is parsed here (about a
    millisecond) to drive the lazy imports.
    """
    import ast
    from pathlib import Path

    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {
        alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module is not None
        for alias in node.names
    }


_LAZY = _lazy_names()

__version__ = "0.1.0"

__all__ = [
    # data: pattern generators
    "TeacherData", "boolean_cube", "boolean_function", "gaussian_patterns", "random_labels",
    "teacher_data", "xor",
    # units: the threshold unit and its algebra
    "augment", "augment_weights", "reflect", "sign", "split_augmented", "threshold_unit",
    "to_01", "to_pm1",
    # train: the perceptron and large-margin variants, with traces
    "LargeMarginResult", "PerceptronResult", "adatron", "margin_perceptron", "minover",
    "perceptron",
    # train: non-separable data and the dual form (lessons 7 and 8)
    "AveragedResult", "KernelPerceptronResult", "PocketResult", "averaged_perceptron",
    "kernel_perceptron", "pocket",
    # kernels: Gram matrices and the polynomial feature map
    "gram_matrix", "polynomial_features",
    # novikoff: the convergence proof's quantities
    "NovikoffTrace", "mistake_bound", "novikoff_trace", "radius", "separator_margin",
    # geometry: separability, general position, margins
    "MaxMarginResult", "admissible_arc", "direction_margins", "in_general_position",
    "is_separable", "margin", "max_margin", "pattern_margins", "separating_weights",
    # counting: Cover's theorem and exact enumeration
    "capacity_fraction", "count_dichotomies", "cover_count", "cover_count_symbolic",
    "separable_dichotomies",
    # margin_capacity: labellings realisable with margin >= gamma (lesson 6)
    "dichotomy_margins", "margin_dichotomy_count", "shattering_margin",
    # capacity: curves, Monte Carlo, the recursion on real points, degenerate sets
    "ExtensionSplit", "SeparableFractionEstimate", "arrangement_dichotomies", "capacity_curve",
    "cover_counts", "dependent_subsets", "extension_split", "nonseparable_restrictions",
    "project_out", "separable_fraction_mc",
    # statmech: Gardner capacity, teacher-student learning curves (lesson 9)
    "CapacitySample", "LearningCurve", "capacity_sample", "gardner_capacity",
    "generalization_error", "gibbs_generalization", "hebb_generalization", "learning_curve",
    "max_margin_generalization", "overlap",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'perclib' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# The exercise guard seals itself and installs its audit hook on import (issue 40): it
# must be in place before any notebook code runs, so that no answer can replace it first.
from perclib import checking as _checking  # noqa: E402,F401
