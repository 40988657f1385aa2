"""perclib: the helper package behind perceptron-course.

Conventions: patterns are rows of ``X`` (shape ``(P, N)``, float64), labels are
-1/+1, and every function that draws random numbers takes ``rng``.
``threshold=True`` means hyperplanes with a threshold (affine); the default is
hyperplanes through the origin.
"""

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
    in_general_position,
    is_separable,
    margin,
    max_margin,
    pattern_margins,
    separating_weights,
)
from perclib.novikoff import NovikoffTrace, mistake_bound, novikoff_trace, radius, separator_margin
from perclib.train import PerceptronResult, perceptron
from perclib.train.large_margin import (
    LargeMarginResult,
    adatron,
    admissible_arc,
    direction_margins,
    margin_perceptron,
    minover,
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

__version__ = "0.1.0"

__all__ = [
    "MaxMarginResult",
    "ExtensionSplit",
    "SeparableFractionEstimate",
    "arrangement_dichotomies",
    "capacity_curve",
    "cover_counts",
    "dependent_subsets",
    "extension_split",
    "nonseparable_restrictions",
    "project_out",
    "separable_fraction_mc",
    "capacity_fraction",
    "count_dichotomies",
    "cover_count",
    "cover_count_symbolic",
    "in_general_position",
    "is_separable",
    "margin",
    "max_margin",
    "pattern_margins",
    "separable_dichotomies",
    "separating_weights",
    "NovikoffTrace",
    "mistake_bound",
    "novikoff_trace",
    "radius",
    "separator_margin",
    "PerceptronResult",
    "LargeMarginResult",
    "adatron",
    "admissible_arc",
    "direction_margins",
    "margin_perceptron",
    "minover",
    "TeacherData",
    "augment",
    "augment_weights",
    "boolean_cube",
    "boolean_function",
    "gaussian_patterns",
    "perceptron",
    "random_labels",
    "reflect",
    "sign",
    "split_augmented",
    "teacher_data",
    "threshold_unit",
    "to_01",
    "to_pm1",
    "xor",
]
