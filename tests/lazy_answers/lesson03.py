"""Lazy and wrong answers to lesson 03's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

ATTEMPTS: dict[str, list[Attempt]] = {
    # Three points, the first the given a, none the origin: affine yes, through 0 no.
    "ex1-answer": [
        Attempt("hard-coded: section 1's triple with the origin",
                "return np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])"),
        Attempt("hard-coded: the solution for a = (1, 0)",
                "return np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]])"),
        Attempt("wrong: the origin as the dependent point",
                "a = np.asarray(a, dtype=float)\n"
                "return np.array([a, [0.0, 0.0], [-a[1], a[0]]])"),
        Attempt("wrong: a, 2a, 3a (dependent, but on one line)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 2 * a, 3 * a])"),
        Attempt("wrong: a generic triangle (general position both ways)",
                "a = np.asarray(a, dtype=float)\n"
                "return np.array([a, a + [1.0, 0.0], a + [0.0, 1.0]])"),
        Attempt("library: search with in_general_position",
                "a = np.asarray(a, dtype=float)\n"
                "for b in np.random.default_rng(0).normal(size=(100, 2)):\n"
                "    pts = np.array([a, 2 * a, b])\n"
                "    if in_general_position(pts, threshold=True) and not in_general_position(pts):\n"
                "        return pts"),
        Attempt("capture: in_general_position under another name, imported afresh",
                "from perclib.geometry import in_general_position as gp\n"
                "a = np.asarray(a, dtype=float)\n"
                "for b in np.random.default_rng(0).normal(size=(100, 2)):\n"
                "    pts = np.array([a, 2 * a, b])\n"
                "    if gp(pts, threshold=True) and not gp(pts):\n"
                "        return pts"),
        Attempt("wrong: a, 2a and the fixed point (1, 1) (review M1)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 2 * a, [1.0, 1.0]])"),
        Attempt("wrong: a, 2a and a + (1, 1) (review M1)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 2 * a, a + [1.0, 1.0]])"),
        Attempt("wrong: a, 2a and the fixed point (0, 1)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 2 * a, [0.0, 1.0]])"),
        Attempt("wrong: a, -a and a + (1, 2) (an offset along no listed direction)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, -a, a + [1.0, 2.0]])"),
        Attempt("wrong: a, 2a and a with its coordinates swapped (a mirror, not a turn)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 2 * a, a[::-1]])"),
        Attempt("wrong: a, 3a and a fixed point far away (1e6, 1)",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 3 * a, [1e6, 1.0]])"),
        Attempt("lookup: the right triple for the check's listed a, a fixed point otherwise",
                "a = np.asarray(a, dtype=float)\n"
                "if any(np.array_equal(a, np.asarray(v, dtype=float)) for v in starts.values()):\n"
                "    return np.array([a, 2 * a, [-a[1], a[0]]])\n"
                "return np.array([a, 2 * a, [1.0, 1.0]])"),
        # Right in another form: 3a and a / 3 are rounded off the line through a for most
        # a, so an exact count of their labellings sees general position (6, not 4).
        Attempt("right: a, 3a and a turned by 90 degrees",
                "a = np.asarray(a, dtype=float)\nreturn np.array([a, 3 * a, [-a[1], a[0]]])"),
        Attempt("right: a, a / 3 and a plus a turned by 90 degrees",
                "a = np.asarray(a, dtype=float)\n"
                "return np.array([a, a / 3, a + [-a[1], a[0]]])"),
    ],
    # Exact affine general position of integer points in the plane.
    "ex2-answer": [
        Attempt("library: in_general_position",
                "return in_general_position(np.asarray(points, dtype=float), threshold=True)"),
        Attempt("hard-coded: answers of the cases listed in the check",
                "key = np.asarray(points).tolist()\n"
                "return key not in ([[0, 0], [1, 3], [2, 1], [4, 2]], [[3, 5], [3, 5]])"),
        Attempt("hard-coded: always True", "return True"),
        Attempt("wrong: floating-point determinants with a tolerance",
                "pts = np.asarray(points, dtype=float)\n"
                "for t in itertools.combinations(range(len(pts)), 3):\n"
                "    if abs(np.linalg.det(augment(pts[list(t)]))) < 1e-9:\n"
                "        return False\n"
                "return len({tuple(p) for p in pts}) == len(pts)"),
        Attempt("wrong: NumPy int64 cross products (wrap around)",
                "pts = np.asarray(points, dtype=np.int64)\n"
                "if len({tuple(p) for p in pts.tolist()}) < len(pts):\n"
                "    return False\n"
                "for i, j, k in itertools.combinations(range(len(pts)), 3):\n"
                "    u, v = pts[j] - pts[i], pts[k] - pts[i]\n"
                "    if u[0] * v[1] - u[1] * v[0] == 0:\n"
                "        return False\n"
                "return True"),
        Attempt("wrong: triples only, equal points forgotten (P = 2)",
                "pts = [tuple(int(c) for c in p) for p in points]\n"
                "for (ax, ay), (bx, by), (cx, cy) in itertools.combinations(pts, 3):\n"
                "    if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) == 0:\n"
                "        return False\n"
                "return True"),
        Attempt("wrong: only triples of neighbours in the list",
                "pts = [tuple(int(c) for c in p) for p in points]\n"
                "if len(set(pts)) < len(pts):\n"
                "    return False\n"
                "for (ax, ay), (bx, by), (cx, cy) in zip(pts, pts[1:], pts[2:]):\n"
                "    if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) == 0:\n"
                "        return False\n"
                "return True"),
        Attempt("wrong: the matrix rank of all the augmented points",
                "Z = np.column_stack([np.asarray(points, dtype=float), np.ones(len(points))])\n"
                "return bool(np.linalg.matrix_rank(Z) == min(len(points), 3))"),
        Attempt("capture: in_general_position through its module",
                "import perclib.geometry as g\n"
                "return g.in_general_position(np.asarray(points, dtype=float), threshold=True)"),
        Attempt("sibling: the widget's collinear_triples, plus a duplicate test",
                "from perclib.widgets import collinear_triples\n"
                "pts = np.asarray(points, dtype=float)\n"
                "return len({tuple(p) for p in pts}) == len(pts) and not collinear_triples(pts)"),
        Attempt("scale: cross products in np.longdouble (80-bit floats; review #13)",
                "pts = np.asarray(points).astype(np.longdouble)\n"
                "if len({tuple(p) for p in np.asarray(points).tolist()}) < len(pts):\n"
                "    return False\n"
                "for a, b, c in itertools.combinations(pts, 3):\n"
                "    if (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) == 0:\n"
                "        return False\n"
                "return True"),
        Attempt("tolerance: float64 twice-areas with a relative tolerance",
                "pts = np.asarray(points, dtype=float)\n"
                "if len({tuple(p) for p in pts}) < len(pts):\n"
                "    return False\n"
                "for a, b, c in itertools.combinations(pts, 3):\n"
                "    u, v = b - a, c - a\n"
                "    if abs(u[0] * v[1] - u[1] * v[0]) <= 1e-15 * np.abs(u).max() * np.abs(v).max():\n"
                "        return False\n"
                "return True"),
        Attempt("lookup: the answers of the check's own list of cases, True otherwise",
                "key = np.asarray(points, dtype=np.int64)\n"
                "for pts, expected, name in cases:\n"
                "    if np.array_equal(np.asarray(pts, dtype=np.int64), key):\n"
                "        return expected\n"
                "return True"),
    ],
    # P distinct points with the fewest separable labellings (2P, on a line).
    "ex4-answer": [
        Attempt("hard-coded: five points on a line",
                "return np.array([[t, t] for t in range(5)], dtype=float)",
                secrets=("2 * P", "2P", "10 ")),
        Attempt("hard-coded: the lesson's six points on a line, cut to P",
                "return line6[:P]"),
        Attempt("wrong: points in general position (a parabola)",
                "t = np.arange(P, dtype=float)\nreturn np.column_stack([t, t**2])",
                secrets=("2 * P", "2P", "10 ")),
        Attempt("wrong: all but one on a line",
                "t = np.arange(P, dtype=float)\n"
                "pts = np.column_stack([t, 0 * t])\npts[-1] = [0.5, 1.0]\nreturn pts"),
        Attempt("wrong: all points equal (not distinct)", "return np.zeros((P, 2))"),
        Attempt("wrong: a line with one point given twice",
                "t = np.arange(P, dtype=float)\nt[-1] = t[0]\n"
                "return np.column_stack([t, 2 * t])"),
        Attempt("lookup: a line for the P the check shows, a parabola otherwise",
                "t = np.arange(P, dtype=float)\n"
                "return np.column_stack([t, t if P in (2, 3, 5, 6, 8) else t**2])"),
    ],
    # Number of k-subsets whose augmented points are dependent.
    "ex5-answer": [
        Attempt("library: in_general_position on every subset",
                "X = np.asarray(X, dtype=float)\n"
                "return sum(not in_general_position(X[list(s)], threshold=True)\n"
                "           for s in itertools.combinations(range(len(X)), k))"),
        Attempt("hard-coded: the cube's 12 coplanar quadruples", "return 12"),
        Attempt("hard-coded: a lookup by size and k",
                "return {(8, 4): 12, (8, 3): 0, (16, 5): 1360}.get((len(X), k), 0)",
                secrets=("1360",)),
        Attempt("wrong: the rank without the column of 1s",
                "X = np.asarray(X, dtype=float)\n"
                "return sum(np.linalg.matrix_rank(X[list(s)]) < k\n"
                "           for s in itertools.combinations(range(len(X)), k))"),
        Attempt("wrong: the non-degenerate subsets",
                "Z = augment(np.asarray(X, dtype=float))\n"
                "return sum(np.linalg.matrix_rank(Z[list(s)]) == k\n"
                "           for s in itertools.combinations(range(len(X)), k))"),
        Attempt("wrong: a square determinant (fails unless k = N + 1)",
                "Z = augment(np.asarray(X, dtype=float))\n"
                "return sum(round(np.linalg.det(Z[list(s)])) == 0\n"
                "           for s in itertools.combinations(range(len(X)), k))"),
        Attempt("wrong: rank below N + 1 instead of below k",
                "Z = augment(np.asarray(X, dtype=float))\n"
                "return sum(np.linalg.matrix_rank(Z[list(s)]) < Z.shape[1]\n"
                "           for s in itertools.combinations(range(len(X)), k))"),
        Attempt("sibling: the number of subsets dependent_subsets lists (review #14)",
                "from perclib import dependent_subsets\n"
                "return len(dependent_subsets(np.asarray(X, dtype=float), k, threshold=True))"),
        Attempt("capture: in_general_position through its module, on every subset",
                "import perclib.geometry as g\n"
                "X = np.asarray(X, dtype=float)\n"
                "return sum(not g.in_general_position(X[list(s)], threshold=True)\n"
                "           for s in itertools.combinations(range(len(X)), k))"),
        Attempt("lookup: a table keyed on (P, N, k, affine rank), all subsets if k > rank (review #15)",
                "from math import comb\n"
                "X = np.asarray(X)\n"
                "r = int(np.linalg.matrix_rank(np.column_stack([X, np.ones(len(X))])))\n"
                "if k > r:\n"
                "    return comb(len(X), k)\n"
                "table = {(8, 3, 4, 4): 12, (8, 3, 3, 4): 0, (6, 2, 3, 3): 0, (7, 2, 3, 3): 5,\n"
                "         (7, 2, 2, 3): 1, (6, 3, 4, 4): 0, (6, 3, 3, 4): 0, (16, 4, 5, 5): 1360}\n"
                "return table.get((*X.shape, k, r), 0)"),
    ],
}

# The turn-5 reviews' answers that passed (issue 40).
ATTEMPTS["ex2-answer"] += [
    Attempt("edge: differences in int64, products in Python integers (the differences wrap "
            "near +-5e18)",
            "pts = np.asarray(points, dtype=np.int64)\n"
            "if len({tuple(int(c) for c in p) for p in pts}) < len(pts):\n    return False\n"
            "for a, b, c in itertools.combinations(range(len(pts)), 3):\n"
            "    d1, d2 = pts[b] - pts[a], pts[c] - pts[a]\n"
            "    if int(d1[0]) * int(d2[1]) - int(d1[1]) * int(d2[0]) == 0:\n"
            "        return False\nreturn True"),
]
ATTEMPTS["ex4-answer"] += [
    Attempt("wrong: a parabola of curvature 1e-12 (in general position, 22 labellings at P = 5)",
            "t = np.arange(P, dtype=float)\nreturn np.column_stack([t, 1e-12 * t**2])"),
    Attempt("wrong: a line with one point moved 1e-11 off it",
            "t = np.arange(P, dtype=float)\ny = 3 * t - 1\ny[-1] += 1e-11\n"
            "return np.column_stack([t, y])"),
]
ATTEMPTS["ex5-answer"] += [
    Attempt("tamper: the reference read from the calling check's frame",
            "import sys\nreturn sys._getframe(1).f_locals.get('answer', 0)"),
]
