"""Lazy and wrong answers to lesson 01's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

_SEPARATING = """
from perclib import separating_weights
X = boolean_cube({n})
w, b = separating_weights(X, {labels}, threshold=True)
return w, -b
"""

# The blocked LP held as a default argument of a helper: the guard blocks the function.
_CAPTURED = """
import perclib.geometry as geometry
def solve(X, y, _lp=geometry.separating_weights):
    return _lp(X, y, threshold=True)
X = boolean_cube({n})
w, b = solve(X, {labels})
return w, -b
"""

# A trainer from the large-margin family on the augmented corners, split into (w, theta).
_SIBLING = """
from perclib import augment, {solver}
X = boolean_cube({n})
result = {solver}(augment(X), {labels}{extra})
return result.w[:-1], -result.w[-1]
"""

_NAND = "np.where(X.sum(axis=1) < n, 1, -1)"
_AT_LEAST = "np.where(X.sum(axis=1) >= k, 1, -1)"

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: an LP separator of the NAND table", _SEPARATING.format(n="n", labels=_NAND)),
        Attempt("library: the perceptron trained on the NAND table",
                "from perclib import augment, perceptron\n"
                "X = boolean_cube(n)\n"
                "result = perceptron(augment(X), np.where(X.sum(axis=1) < n, 1, -1))\n"
                "return result.w[:-1], -result.w[-1]"),
        Attempt("capture: the LP held as a default argument", _CAPTURED.format(n="n", labels=_NAND)),
        Attempt("capture: perclib's private LP helper",
                "from perclib.geometry import _separability_lp\n"
                "X = boolean_cube(n)\n"
                "verdict, scale = _separability_lp(X, np.where(X.sum(axis=1) < n, 1.0, -1.0), True)\n"
                "return verdict.w[:-1], -verdict.w[-1] * scale"),
        Attempt("sibling: MinOver on the augmented corners",
                _SIBLING.format(solver="minover", n="n", labels=_NAND, extra="")),
        Attempt("sibling: the margin perceptron with beta = 0",
                _SIBLING.format(solver="margin_perceptron", n="n", labels=_NAND, extra=", beta=0.0")),
        Attempt("sibling: the pocket algorithm",
                _SIBLING.format(solver="pocket", n="n", labels=_NAND, extra="")),
        Attempt("sibling: perclib's corner unit of the all-ones corner, negated",
                "from perclib.units import corner_unit\n"
                "w, theta = corner_unit(np.ones(n))\n"
                "return -w, -theta"),
        Attempt("hard-coded: the two-input NAND unit", "return np.array([-1.0, -1.0]), -1.5"),
        Attempt("hard-coded: a lookup table for n = 1, 2, 3",
                "table = {1: ([-1.0], -0.5), 2: ([-1.0, -1.0], -1.5),\n"
                "         3: ([-1.0, -1.0, -1.0], -2.5)}\n"
                "w, theta = table.get(n, table[2])\n"
                "return np.array(w), theta"),
        Attempt("lookup: the solution's units for the checked n = 1..7",
                "table = {1: ([-1], -0.5), 2: ([-1] * 2, -1.5), 3: ([-1] * 3, -2.5),\n"
                "         4: ([-1] * 4, -3.5), 5: ([-1] * 5, -4.5), 6: ([-1] * 6, -5.5),\n"
                "         7: ([-1] * 7, -6.5)}\n"
                "w, theta = table.get(n, table[7])\n"
                "return np.array(w, dtype=float), theta"),
        Attempt("wrong: the AND unit (not negated)", "return np.ones(n), n - 0.5"),
        Attempt("wrong: w negated, theta kept", "return -np.ones(n), n - 0.5"),
        Attempt("wrong: NOR instead of NAND", "return -np.ones(n), -0.5"),
        Attempt("wrong: threshold on a vertex (all ones on the line)",
                "return -np.ones(n), -float(n)"),
        Attempt("wrong: threshold at n - 1 ones (a tie)", "return -np.ones(n), -(n - 1.0)"),
        Attempt("wrong: w as a column", "return -np.ones((n, 1)), -(n - 0.5)"),
        Attempt("wrong: theta as a one-element array", "return -np.ones(n), np.array([-(n - 0.5)])"),
    ],
    "ex2-answer": [
        Attempt("library: an LP separator of the 'at least k' table",
                _SEPARATING.format(n="n", labels=_AT_LEAST)),
        Attempt("capture: the LP held as a default argument", _CAPTURED.format(n="n", labels=_AT_LEAST)),
        Attempt("sibling: MinOver on the augmented corners",
                _SIBLING.format(solver="minover", n="n", labels=_AT_LEAST, extra="")),
        Attempt("sibling: the averaged perceptron",
                _SIBLING.format(solver="averaged_perceptron", n="n", labels=_AT_LEAST, extra="")),
        Attempt("hard-coded: the majority of three", "return np.ones(3), 1.5"),
        Attempt("hard-coded: a table good up to n = 6", "return np.ones(min(n, 6)), k - 0.5"),
        Attempt("hard-coded: only AND and OR",
                "return np.ones(n), (n - 0.5 if k == n else 0.5)"),
        Attempt("lookup: the solution's units for the checked (n, k)",
                "table = {(m, j): (np.ones(m), j - 0.5) for m in (1, 2, 3, 4, 5, 6, 9)\n"
                "         for j in range(m + 2)}\n"
                "return table.get((n, k), (np.ones(n), 0.5))"),
        Attempt("wrong: threshold k (ties at k ones)", "return np.ones(n), float(k)"),
        Attempt("wrong: threshold k - 1 (ties at k - 1 ones)", "return np.ones(n), k - 1.0"),
        Attempt("wrong: off by one (at least k + 1)", "return np.ones(n), k + 0.5"),
        Attempt("wrong: averaged inputs with an unscaled threshold",
                "return np.ones(n) / n, k - 0.5"),
        Attempt("wrong: 'always' and 'never' forgotten (k = 0 and n + 1 clipped)",
                "return np.ones(n), min(max(k, 1), n) - 0.5"),
        Attempt("wrong: w as a row matrix", "return np.ones((1, n)), k - 0.5"),
    ],
    "ex3-answer": [
        Attempt("library: an LP separator of inside against p and q",
                "from perclib import separating_weights\n"
                "w, b = separating_weights(np.array([p, q, inside], dtype=float), [-1, -1, 1],\n"
                "                          threshold=True)\n"
                "return w, -b"),
        Attempt("capture: the maximum-margin solver held as a default argument",
                "import perclib\n"
                "def solve(X, y, _mm=perclib.max_margin):\n"
                "    return _mm(X, y, threshold=True)\n"
                "best = solve(np.array([p, q, inside], dtype=float), [-1, -1, 1])\n"
                "return best.w, -best.b"),
        Attempt("hard-coded: the first case (the x1 axis)", "return np.array([0.0, 1.0]), 0.0"),
        Attempt("lookup: the solution's units for the visible cases only",
                "p, q, inside = (np.asarray(v, float) for v in (p, q, inside))\n"
                "visible = [tuple(np.r_[a, b, c]) for a, b, c in\n"
                "           [([0, 0], [1, 0], [0, 1]), ([0, 0], [1, 0], [0, -1]),\n"
                "            ([1, 2], [3, -1], [0, 0]), ([2, -1], [2, 5], [0, 0]),\n"
                "            ([0, 0], [1, 0], [0.5, -1e-7]), ([1e-12, 0], [0, 2e-12], [0, 0])]]\n"
                "gen, seen = np.random.default_rng(7), 6\n"
                "while seen < 33:\n"
                "    a, b, c = gen.uniform(-5, 5, size=(3, 2))\n"
                "    if abs((b - a)[0] * (c - a)[1] - (b - a)[1] * (c - a)[0]) > 1.0:\n"
                "        visible.append(tuple(np.r_[a, b, c]))\n"
                "        seen += 1\n"
                "d = q - p\n"
                "w = np.array([-d[1], d[0]])\n"
                "if tuple(np.r_[p, q, inside]) in visible and w @ inside - w @ p < 0:\n"
                "    w = -w\n"
                "return w, float(w @ p)"),
        Attempt("wrong: w along the line instead of across it",
                "p, q = np.asarray(p, float), np.asarray(q, float)\n"
                "w = q - p\n"
                "return w, float(w @ p)"),
        Attempt("wrong: w towards inside instead of across the line",
                "p, inside = np.asarray(p, float), np.asarray(inside, float)\n"
                "w = inside - p\n"
                "return w, float(w @ p)"),
        Attempt("wrong: normal right, threshold forgotten",
                "d = np.asarray(q, float) - np.asarray(p, float)\n"
                "return np.array([-d[1], d[0]]), 0.0"),
        Attempt("wrong: the side of inside never checked",
                "p, q = np.asarray(p, float), np.asarray(q, float)\n"
                "d = q - p\n"
                "w = np.array([-d[1], d[0]])\n"
                "return w, float(w @ p)"),
        Attempt("wrong: threshold through the midpoint of p and inside",
                "p, q, inside = (np.asarray(v, float) for v in (p, q, inside))\n"
                "d = q - p\n"
                "w = np.array([-d[1], d[0]])\n"
                "if w @ (inside - p) < 0:\n"
                "    w = -w\n"
                "return w, float(w @ (p + inside) / 2)"),
        Attempt("wrong: slope-intercept form (no vertical lines)",
                "p, q, inside = (np.asarray(v, float) for v in (p, q, inside))\n"
                "slope = (q[1] - p[1]) / (q[0] - p[0])\n"
                "w, theta = np.array([-slope, 1.0]), p[1] - slope * p[0]\n"
                "if w @ inside - theta < 0:\n"
                "    w, theta = -w, -theta\n"
                "return w, theta"),
        Attempt("tolerance: the side decided with a tolerance of 1e-6",
                "p, q, inside = (np.asarray(v, float) for v in (p, q, inside))\n"
                "d = q - p\n"
                "w = np.array([-d[1], d[0]])\n"
                "theta = float(w @ p)\n"
                "if w @ inside - theta < -1e-6:\n"
                "    w, theta = -w, -theta\n"
                "return w, theta"),
        Attempt("scale: a unit-length normal, the side tested with an absolute 1e-9",
                "p, q, inside = (np.asarray(v, float) for v in (p, q, inside))\n"
                "d = (q - p) / np.linalg.norm(q - p)\n"
                "w = np.array([-d[1], d[0]])\n"
                "theta = float(w @ p)\n"
                "if w @ inside - theta <= 1e-9:\n"
                "    w, theta = -w, -theta\n"
                "return w, theta"),
    ],
    "ex4-answer": [
        Attempt("library: an LP over all images labelled by their distance to the template",
                "from perclib import separating_weights\n"
                "t = np.asarray(template, float).ravel()\n"
                "X = boolean_cube(t.size)\n"
                "w, b = separating_weights(X, np.where(np.sum(X != t, axis=1) <= d, 1, -1),\n"
                "                          threshold=True)\n"
                "return w, -b"),
        Attempt("capture: the LP held as a default argument (the review's answer)",
                "import perclib.geometry as geometry\n"
                "def solve(X, y, _lp=geometry.separating_weights):\n"
                "    return _lp(X, y, threshold=True)\n"
                "t = np.asarray(template, float).ravel()\n"
                "X = boolean_cube(t.size)\n"
                "w, b = solve(X, np.where(np.sum(X != t, axis=1) <= d, 1, -1))\n"
                "return w, -b"),
        Attempt("sibling: lesson 1's corner unit from perclib, shifted by d",
                "from perclib.units import corner_unit\n"
                "w, theta = corner_unit(np.asarray(template, float).ravel())\n"
                "return w, theta - d"),
        Attempt("hard-coded: the T detector of section 1", "return w_T, theta_T"),
        Attempt("hard-coded: the plus template of the check",
                "t = np.array([0, 1, 0, 1, 1, 1, 0, 1, 0], float)\n"
                "return 2 * t - 1, t.sum() - d - 0.5"),
        Attempt("lookup: the solution for the visible templates' sizes and d < 5",
                "t = np.asarray(template, float).ravel()\n"
                "if t.size in (6, 9, 12) and d < 5:\n"
                "    return 2 * t - 1, t.sum() - d - 0.5\n"
                "return 2 * t - 1, t.sum() - 0.5"),
        Attempt("wrong: correct weights left in the template's shape",
                "t = np.asarray(template, float)\nreturn 2 * t - 1, t.sum() - d - 0.5"),
        Attempt("wrong: d ignored (only the template itself)",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.sum() - 0.5"),
        Attempt("wrong: threshold on the boundary (images with d + 1 wrong pixels on it)",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.sum() - d"),
        Attempt("wrong: w = template (extra dark pixels cost nothing)",
                "t = np.asarray(template, float).ravel()\nreturn t, t.sum() - d - 0.5"),
        Attempt("wrong: d added instead of subtracted",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.sum() + d - 0.5"),
        Attempt("wrong: the threshold counts the template's size, not its dark pixels",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.size - d - 0.5"),
    ],
}

# The turn-5 reviews' answers that passed (issue 40).
_COPY = """
import importlib.util
import perclib
spec = importlib.util.spec_from_file_location("geometry_copy", perclib.__path__[0] + "/geometry.py")
copy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(copy)
X = boolean_cube(n)
w, b = copy.separating_weights(X, {labels}, threshold=True)
return w, -b
"""
ATTEMPTS["ex1-answer"] += [
    Attempt("tamper: a second copy of perclib.geometry loaded from its file",
            _COPY.format(labels=_NAND)),
]
ATTEMPTS["ex2-answer"] += [
    Attempt("tamper: a second copy of perclib.geometry loaded from its file",
            _COPY.format(labels=_AT_LEAST)),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("wrong: the unit computed in float32 (7 digits: the line misses p and q)",
            "p, q, inside = (np.asarray(v, dtype=np.float32) for v in (p, q, inside))\n"
            "d = q - p\nw = np.array([-d[1], d[0]])\ntheta = w @ p\n"
            "if w @ inside - theta < 0:\n    w, theta = -w, -theta\nreturn w, theta"),
    Attempt("edge: the side decided with a relative tolerance 1e-9",
            "p, q, inside = (np.asarray(v, dtype=float) for v in (p, q, inside))\n"
            "d = q - p\nw = np.array([-d[1], d[0]])\ntheta = float(w @ p)\n"
            "if w @ inside - theta < 1e-9 * np.linalg.norm(w) * np.linalg.norm(inside):\n"
            "    w, theta = -w, -theta\nreturn w, theta"),
]

# Review turn 6 (issue 50): the side decided by w.(inside - p), silent at near-ties on
# generic lines (the field w.inside - theta rounds to 0 or below).
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: the side decided by w.(inside - p) (review 6)",
            "p, q, inside = (np.asarray(v, dtype=float) for v in (p, q, inside))\n"
            "d = q - p\nw = np.array([-d[1], d[0]])\n"
            "if w @ (inside - p) < 0:\n    w = -w\n"
            "return w, float(w @ p)"),
]

# Issue 49: Exercise 4 prints the student's own template (the lesson's without a class).
ATTEMPTS["ex4-answer"] += [
    Attempt("hard-coded: the detector of the template the lesson printed",
            "t = np.array([0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1], float)\n"
            "return 2 * t - 1, t.sum() - d - 0.5"),
    Attempt("wrong: the printed my_template used in place of the argument",
            "t = np.asarray(my_template, float).ravel()\n"
            "return 2 * t - 1, t.sum() - d - 0.5"),
]
