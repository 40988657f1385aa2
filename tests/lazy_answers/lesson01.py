"""Lazy and wrong answers to lesson 01's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

_SEPARATING = """
from perclib import separating_weights
X = boolean_cube({n})
w, b = separating_weights(X, {labels}, threshold=True)
return w, -b
"""

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: an LP separator of the NAND table",
                _SEPARATING.format(n="n", labels="np.where(X.sum(axis=1) < n, 1, -1)")),
        Attempt("library: the perceptron trained on the NAND table",
                "from perclib import augment, perceptron\n"
                "X = boolean_cube(n)\n"
                "result = perceptron(augment(X), np.where(X.sum(axis=1) < n, 1, -1))\n"
                "return result.w[:-1], -result.w[-1]"),
        Attempt("hard-coded: the two-input NAND unit", "return np.array([-1.0, -1.0]), -1.5"),
        Attempt("hard-coded: a lookup table for n = 1, 2, 3",
                "table = {1: ([-1.0], -0.5), 2: ([-1.0, -1.0], -1.5),\n"
                "         3: ([-1.0, -1.0, -1.0], -2.5)}\n"
                "w, theta = table.get(n, table[2])\n"
                "return np.array(w), theta"),
        Attempt("wrong: the AND unit (not negated)", "return np.ones(n), n - 0.5"),
        Attempt("wrong: w negated, theta kept", "return -np.ones(n), n - 0.5"),
        Attempt("wrong: NOR instead of NAND", "return -np.ones(n), -0.5"),
        Attempt("wrong: threshold on a vertex (all ones on the line)",
                "return -np.ones(n), -float(n)"),
        Attempt("wrong: threshold at n - 1 ones (a tie)", "return -np.ones(n), -(n - 1.0)"),
    ],
    "ex2-answer": [
        Attempt("library: an LP separator of the 'at least k' table",
                _SEPARATING.format(n="n", labels="np.where(X.sum(axis=1) >= k, 1, -1)")),
        Attempt("hard-coded: the majority of three", "return np.ones(3), 1.5"),
        Attempt("hard-coded: a table good up to n = 6", "return np.ones(min(n, 6)), k - 0.5"),
        Attempt("hard-coded: only AND and OR",
                "return np.ones(n), (n - 0.5 if k == n else 0.5)"),
        Attempt("wrong: threshold k (ties at k ones)", "return np.ones(n), float(k)"),
        Attempt("wrong: threshold k - 1 (ties at k - 1 ones)", "return np.ones(n), k - 1.0"),
        Attempt("wrong: off by one (at least k + 1)", "return np.ones(n), k + 0.5"),
        Attempt("wrong: averaged inputs with an unscaled threshold",
                "return np.ones(n) / n, k - 0.5"),
    ],
    "ex3-answer": [
        Attempt("library: an LP separator of inside against p and q",
                "from perclib import separating_weights\n"
                "w, b = separating_weights(np.array([p, q, inside], dtype=float), [-1, -1, 1],\n"
                "                          threshold=True)\n"
                "return w, -b"),
        Attempt("hard-coded: the first case (the x1 axis)", "return np.array([0.0, 1.0]), 0.0"),
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
    ],
    "ex4-answer": [
        Attempt("hard-coded: the T detector of section 1", "return w_T, theta_T"),
        Attempt("hard-coded: the plus template of the check",
                "t = np.array([0, 1, 0, 1, 1, 1, 0, 1, 0], float)\n"
                "return 2 * t - 1, t.sum() - d - 0.5"),
        Attempt("wrong: d ignored (only the template itself)",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.sum() - 0.5"),
        Attempt("wrong: threshold on the boundary (images with d + 1 wrong pixels on it)",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.sum() - d"),
        Attempt("wrong: w = template (extra dark pixels cost nothing)",
                "t = np.asarray(template, float).ravel()\nreturn t, t.sum() - d - 0.5"),
        Attempt("wrong: d added instead of subtracted",
                "t = np.asarray(template, float).ravel()\nreturn 2 * t - 1, t.sum() + d - 0.5"),
    ],
}
