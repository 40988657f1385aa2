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
    ],
}
