"""Lazy and wrong answers to lesson 02's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

ATTEMPTS: dict[str, list[Attempt]] = {
    # Exercise 1: weights and threshold for x1 => x2, by hand.
    "ex1-answer": [
        Attempt("library: the LP's separator",
                "w, b = separating_weights(boolean_cube(2), [1, 1, -1, 1], threshold=True)\n"
                "theta = -b"),
        Attempt("library: the maximum-margin separator",
                "from perclib import max_margin\n"
                "best = max_margin(boolean_cube(2), [1, 1, -1, 1], threshold=True)\n"
                "w, theta = 4 * best.w, -4 * best.b"),
        Attempt("hard-coded: OR's unit", "w = np.array([2.0, 2.0])\ntheta = 1.0"),
        Attempt("hard-coded: AND's unit from the lesson", "w = np.array([1.0, 1.0])\ntheta = 1.5"),
        Attempt("wrong: corner on the line", "w = np.array([-1.0, 1.0])\ntheta = -1.0"),
        Attempt("wrong: converse implication", "w = np.array([2.0, -2.0])\ntheta = -1.0"),
        Attempt("wrong: the complement (sign flipped)", "w = np.array([2.0, -2.0])\ntheta = 1.0"),
        Attempt("wrong: a fractional LP-style answer", "w = np.array([-1.5, 1.5])\ntheta = -0.5"),
        Attempt("wrong: one weight only", "w = np.array([-2.0])\ntheta = -1.0"),
    ],
    # Exercise 2: one polynomial feature of degree <= 2 that separates XOR.
    "ex2-answer": [
        Attempt("hard-coded: the four values for the lesson's corners",
                "return np.array([0.0, 1.0, 1.0, 0.0])"),
        Attempt("hard-coded: the labels themselves", "return xor()[1]"),
        Attempt("hard-coded: the labels computed by rounding the inputs",
                "R = np.round(np.asarray(X, dtype=float)).astype(int)\n"
                "return np.where(R[:, 0] != R[:, 1], 1.0, -1.0)"),
        Attempt("hard-coded: exact comparison of the inputs",
                "X = np.asarray(X, dtype=float)\nreturn (X[:, 0] != X[:, 1]).astype(float)"),
        Attempt("hard-coded: a lookup table of the corners",
                "table = {(0, 0): 0.0, (0, 1): 1.0, (1, 0): 1.0, (1, 1): 0.0}\n"
                "return np.array([table[tuple(int(v) for v in x)] for x in X])"),
        Attempt("hard-coded: the lookup only for the four corners, a polynomial elsewhere",
                "X = np.asarray(X, dtype=float)\n"
                "if len(X) == 4:\n"
                "    return np.array([0.0, 1.0, 1.0, 0.0])\n"
                "return X[:, 0] + X[:, 1]"),
        Attempt("wrong: a linear feature", "X = np.asarray(X, dtype=float)\nreturn X[:, 0] + X[:, 1]"),
        Attempt("wrong: the product alone", "X = np.asarray(X, dtype=float)\nreturn X[:, 0] * X[:, 1]"),
        Attempt("wrong: the square of the sum",
                "X = np.asarray(X, dtype=float)\nreturn (X[:, 0] + X[:, 1]) ** 2"),
        Attempt("wrong: degree 3",
                "X = np.asarray(X, dtype=float)\nreturn (X[:, 0] - X[:, 1]) ** 2 * (1 + X[:, 0])"),
        Attempt("wrong: absolute difference (not a polynomial)",
                "X = np.asarray(X, dtype=float)\nreturn np.abs(X[:, 0] - X[:, 1])"),
        Attempt("wrong: separates the corners with no gap to spare",
                "X = np.asarray(X, dtype=float)\n"
                "return (X[:, 0] - X[:, 1]) ** 2 + 100 * (X[:, 0] ** 2 - X[:, 0])"),
        Attempt("wrong: a column instead of a flat array of the right size",
                "X = np.asarray(X, dtype=float)\nreturn ((X[:, 0] - X[:, 1]) ** 2)[:4, None]"),
    ],
    # Exercise 3: count the separable labellings of a point set with the LP.
    "ex3-answer": [
        Attempt("library: count_dichotomies",
                "return count_dichotomies(points, threshold=True)", secrets=("104",)),
        Attempt("library: separable_dichotomies",
                "from perclib import separable_dichotomies\n"
                "return len(separable_dichotomies(points, threshold=True))"),
        Attempt("hard-coded: the known counts 4, 14, 104 by size",
                "return {2: 4, 4: 14, 8: 104}.get(len(points), 2 ** len(points))",
                secrets=("22",)),
        Attempt("hard-coded: Cover's formula for points in general position",
                "from math import comb\n"
                "P, N = np.shape(points)\n"
                "return 2 * sum(comb(P - 1, k) for k in range(N + 1))"),
        Attempt("wrong: no threshold",
                "count = 0\n"
                "for labels in itertools.product((-1, 1), repeat=len(points)):\n"
                "    count += is_separable(points, labels)\n"
                "return count", secrets=("22", "104")),
        Attempt("wrong: counts the labellings that are not separable",
                "count = 0\n"
                "for labels in itertools.product((-1, 1), repeat=len(points)):\n"
                "    count += not is_separable(points, labels, threshold=True)\n"
                "return count"),
        Attempt("wrong: skips the last labelling (range(2**P - 1))",
                "P = len(points)\ncount = 0\n"
                "for k in range(2**P - 1):\n"
                "    labels = [1 if (k >> i) & 1 else -1 for i in range(P)]\n"
                "    count += is_separable(points, labels, threshold=True)\n"
                "return count"),
        Attempt("wrong: half of the labellings, then doubled (first label fixed to +1)",
                "P = len(points)\ncount = 0\n"
                "for rest in itertools.product((-1, 1), repeat=P - 1):\n"
                "    count += is_separable(points, (1, *rest), threshold=True)\n"
                "return 2 * count - 2"),
        Attempt("wrong: counts all 2**P", "return 2 ** len(points)"),
    ],
    # Exercise 5: a Gordan certificate for parity in every dimension.
    "ex5-answer": [
        Attempt("hard-coded: XOR's certificate from the lesson", "return np.ones(4)"),
        Attempt("hard-coded: XOR's certificate padded with zeros for n = 2, 3 only",
                "return np.ones(4) if n == 2 else np.r_[np.ones(4), np.zeros(4)]"),
        Attempt("wrong: only the odd corners",
                "return (boolean_cube(n).sum(axis=1) % 2 == 1).astype(float)"),
        Attempt("wrong: the half-cube x1 = 0", "return (boolean_cube(n)[:, 0] == 0).astype(float)"),
        Attempt("wrong: a null-space vector of J^T, whatever its signs",
                "from scipy.linalg import null_space\n"
                "c = boolean_cube(n)\n"
                "y = np.where(c.sum(axis=1) % 2 == 1, 1.0, -1.0)\n"
                "J = y[:, None] * np.column_stack([c, np.ones(2**n)])\n"
                "return null_space(J.T)[:, 0]"),
        Attempt("wrong: all zeros", "return np.zeros(2**n)"),
        Attempt("wrong: the labels as multipliers",
                "return np.where(boolean_cube(n).sum(axis=1) % 2 == 1, 1.0, -1.0)"),
    ],
}
