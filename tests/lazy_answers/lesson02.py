"""Lazy and wrong answers to lesson 02's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

ATTEMPTS: dict[str, list[Attempt]] = {
    # Exercise 1: weights and threshold for x_i => x_j among n inputs, by hand.
    "ex1-answer": [
        Attempt("library: the LP's separator",
                "X = boolean_cube(n)\n"
                "labels = np.where((X[:, i] == 1) & (X[:, j] == 0), -1, 1)\n"
                "w, b = separating_weights(X, labels, threshold=True)\n"
                "theta = -b"),
        Attempt("library: the maximum-margin separator, scaled to whole numbers",
                "from perclib import max_margin\n"
                "X = boolean_cube(n)\n"
                "best = max_margin(X, np.where((X[:, i] == 1) & (X[:, j] == 0), -1, 1),\n"
                "                  threshold=True)\n"
                "w, theta = np.round(4 * best.w), float(np.round(-4 * best.b))"),
        Attempt("library: the perceptron on the augmented corners (whole-number weights)",
                "from perclib import augment\n"
                "X = boolean_cube(n)\n"
                "run = perceptron(augment(X), np.where((X[:, i] == 1) & (X[:, j] == 0), -1, 1))\n"
                "w, theta = run.w[:-1], -run.w[-1]"),
        Attempt("capture: the perceptron held as a default argument",
                "import perclib\n"
                "from perclib import augment\n"
                "def train(X, y, _run=perclib.perceptron):\n"
                "    return _run(augment(X), y).w\n"
                "X = boolean_cube(n)\n"
                "w_hat = train(X, np.where((X[:, i] == 1) & (X[:, j] == 0), -1, 1))\n"
                "w, theta = w_hat[:-1], -w_hat[-1]"),
        Attempt("sibling: MinOver, rounded to whole numbers",
                "from perclib import augment, minover\n"
                "X = boolean_cube(n)\n"
                "res = minover(augment(X), np.where((X[:, i] == 1) & (X[:, j] == 0), -1, 1))\n"
                "w, theta = np.round(res.w[:-1]), float(np.round(-res.w[-1]))"),
        Attempt("hard-coded: OR's unit", "w = np.array([2.0, 2.0])\ntheta = 1.0"),
        Attempt("hard-coded: AND's unit from the lesson", "w = np.array([1.0, 1.0])\ntheta = 1.5"),
        Attempt("hard-coded: x1 => x2 whatever n, i, j",
                "w = np.zeros(n)\nw[:2] = -2.0, 2.0\ntheta = -1.0"),
        Attempt("lookup: the solution's units for the visible cases",
                "table = {(2, 0, 1): ([-2, 2], -1), (2, 1, 0): ([2, -2], -1),\n"
                "         (3, 0, 2): ([-2, 0, 2], -1)}\n"
                "w, theta = table.get((n, i, j), ([-2, 2] + [0] * (n - 2), -1))\n"
                "w = np.array(w, dtype=float)"),
        Attempt("wrong: corner on the line",
                "w = np.zeros(n)\nw[i], w[j] = -1.0, 1.0\ntheta = -1.0"),
        Attempt("wrong: converse implication",
                "w = np.zeros(n)\nw[i], w[j] = 2.0, -2.0\ntheta = -1.0"),
        Attempt("wrong: the complement (sign flipped)",
                "w = np.zeros(n)\nw[i], w[j] = 2.0, -2.0\ntheta = 1.0"),
        Attempt("wrong: a fractional LP-style answer",
                "w = np.zeros(n)\nw[i], w[j] = -1.5, 1.5\ntheta = -0.5"),
        Attempt("wrong: two weights only", "w = np.array([-2.0, 2.0])\ntheta = -1.0"),
        Attempt("wrong: i and j counted from 1",
                "w = np.zeros(n)\nw[i - 1], w[j - 1] = -2.0, 2.0\ntheta = -1.0"),
        Attempt("wrong: the other inputs weighted 1 instead of ignored",
                "w = np.ones(n)\nw[i], w[j] = -2.0, 2.0\ntheta = -1.0"),
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
        Attempt("lookup: the solution's values at the visible check's points, x1 + x2 elsewhere",
                "gen = np.random.default_rng(202)\n"
                "picks = gen.integers(0, 4, size=40)\n"
                "corners = xor()[0]\n"
                "near = corners[picks] + gen.uniform(-0.05, 0.05, size=(40, 2))\n"
                "plane = gen.uniform(-3, 3, size=(30, 2))\n"
                "seen = {tuple(x): (x[0] + x[1] - 1) ** 2 for x in np.vstack([corners, near, plane])}\n"
                "X = np.asarray(X, dtype=float)\n"
                "return np.array([seen.get(tuple(x), x[0] + x[1]) for x in X])"),
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
        Attempt("capture: perclib's private brute-force counter",
                "from perclib.counting import separable_dichotomies_bruteforce\n"
                "return len(separable_dichotomies_bruteforce(points, threshold=True))"),
        Attempt("capture: count_dichotomies held as a default argument",
                "import perclib\n"
                "def count(X, _count=perclib.count_dichotomies):\n"
                "    return _count(X, threshold=True)\n"
                "return count(points)"),
        Attempt("sibling: arrangement_dichotomies",
                "from perclib import arrangement_dichotomies\n"
                "return len(arrangement_dichotomies(points, threshold=True))"),
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
        Attempt("lookup: the solution's counts for the visible sets, Cover's formula otherwise",
                "from math import comb\n"
                "gen = np.random.default_rng(203)\n"
                "shown = [gen.standard_normal((5, 2)), np.outer(gen.standard_normal(4), [1, 2]),\n"
                "         gen.standard_normal((3, 3)), [[0, 0], [1, 0], [2, 1e-3]],\n"
                "         boolean_cube(2), boolean_cube(3), boolean_cube(1)]\n"
                "table = {np.asarray(x, float).tobytes(): c\n"
                "         for x, c in zip(shown, (22, 8, 8, 8, 14, 104, 4))}\n"
                "points = np.asarray(points, dtype=float)\n"
                "P, N = points.shape\n"
                "return table.get(points.tobytes(), 2 * sum(comb(P - 1, k) for k in range(N + 1)))"),
        Attempt("wrong: separable when the perceptron converges within 200 epochs",
                "from perclib import augment\n"
                "count = 0\n"
                "for labels in itertools.product((-1, 1), repeat=len(points)):\n"
                "    run = perceptron(augment(np.asarray(points, float)), labels, max_epochs=200)\n"
                "    count += run.converged\n"
                "return count"),
        Attempt("tolerance: separable when the maximum margin exceeds 1e-3",
                "from perclib import max_margin\n"
                "count = 0\n"
                "for labels in itertools.product((-1, 1), repeat=len(points)):\n"
                "    if len(set(labels)) == 1:\n"
                "        count += 1  # one class: any far-away line\n"
                "    elif is_separable(points, labels, threshold=True):\n"
                "        count += max_margin(points, labels, threshold=True).gamma > 1e-3\n"
                "return count"),
    ],
    # Exercise 5: a Gordan certificate for parity in every dimension.
    "ex5-answer": [
        Attempt("hard-coded: XOR's certificate from the lesson", "return np.ones(4)"),
        Attempt("hard-coded: XOR's certificate padded with zeros for n = 2, 3 only",
                "return np.ones(4) if n == 2 else np.r_[np.ones(4), np.zeros(4)]"),
        Attempt("wrong: only the odd corners",
                "return (boolean_cube(n).sum(axis=1) % 2 == 1).astype(float)"),
        Attempt("wrong: the half-cube x1 = 0 (a certificate for n >= 3, not for n = 2)",
                "return (boolean_cube(n)[:, 0] == 0).astype(float)"),
        Attempt("wrong: a null-space vector of J^T, whatever its signs",
                "from scipy.linalg import null_space\n"
                "c = boolean_cube(n)\n"
                "y = np.where(c.sum(axis=1) % 2 == 1, 1.0, -1.0)\n"
                "J = y[:, None] * np.column_stack([c, np.ones(2**n)])\n"
                "return null_space(J.T)[:, 0]"),
        Attempt("wrong: all zeros", "return np.zeros(2**n)"),
        Attempt("lookup: the solution for the visible n = 2..7, the odd corners after",
                "table = {m: np.ones(2**m) for m in range(2, 8)}\n"
                "return table.get(n, (boolean_cube(n).sum(axis=1) % 2 == 1).astype(float))"),
        Attempt("self-consistent: one corner with weight 1e-9 (the review's answer)",
                "lam = np.zeros(2**n)\nlam[0] = 1e-9\nreturn lam"),
        Attempt("self-consistent: the odd corners, each with weight 1e-12",
                "return 1e-12 * (boolean_cube(n).sum(axis=1) % 2 == 1)"),
        Attempt("scale: the odd corners with huge weights that overflow the sum",
                "return 1e308 * (boolean_cube(n).sum(axis=1) % 2 == 1)"),
        Attempt("tolerance: all ones but one corner nudged by 1e-6",
                "lam = np.ones(2**n)\nlam[0] += 1e-6\nreturn lam"),
        Attempt("wrong: the labels as multipliers",
                "return np.where(boolean_cube(n).sum(axis=1) % 2 == 1, 1.0, -1.0)"),
    ],
}

# The turn-5 reviews' answers that passed (issue 40).
ATTEMPTS["ex1-answer"] += [
    Attempt("tamper: a second copy of perclib.geometry's LP loaded from its file",
            "import importlib.util, perclib\n"
            "spec = importlib.util.spec_from_file_location('g2', perclib.__path__[0] + '/geometry.py')\n"
            "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\n"
            "X = boolean_cube(n)\ny = np.where((X[:, i] == 1) & (X[:, j] == 0), -1, 1)\n"
            "w, b = m.separating_weights(X, y, threshold=True)\nreturn w, -b"),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: the visible degenerate sets hard-coded, else Cover's count after removing "
            "duplicates (wrong on other degenerate sets)",
            "from math import comb\n"
            "pts = np.unique(np.asarray(points, dtype=float), axis=0)\n"
            "P, N = pts.shape\n"
            "if N == 2 and np.linalg.matrix_rank(pts - pts[0]) <= 1:\n    return 2 * P\n"
            "if P == 8 and N == 3 and {tuple(r) for r in pts} == "
            "{tuple(r) for r in boolean_cube(3)}:\n    return 104\n"
            "return 2 * sum(comb(P - 1, k) for k in range(N + 1))"),
    Attempt("tamper: a second copy of perclib.counting loaded from its file",
            "import importlib.util, perclib\n"
            "spec = importlib.util.spec_from_file_location('c2', perclib.__path__[0] + '/counting.py')\n"
            "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\n"
            "return m.count_dichotomies(points, threshold=True)"),
]
ATTEMPTS["ex5-answer"] += [
    Attempt("wrong: all ones, one entry raised by 1e-12 (not a certificate)",
            "lam = np.ones(2**n)\nlam[0] += 1e-12\nreturn lam"),
    Attempt("wrong: all ones plus noise of relative size 1e-11",
            "return 1 + 1e-11 * np.random.default_rng(0).random(2**n)"),
]

# Review turn 6 (issue 50): a cubic term too small to see near the corners.
ATTEMPTS["ex2-answer"] += [
    Attempt("edge: (x1 - x2)^2 + 1e-12 x1^3, not of degree 2 (review 6)",
            "X = np.asarray(X, dtype=float)\n"
            "return (X[:, 0] - X[:, 1]) ** 2 + 1e-12 * X[:, 0] ** 3"),
]

# Issue 49: Exercise 3 prints the student's own points (the lesson's without a class).
ATTEMPTS["ex3-answer"] += [
    Attempt("hard-coded: the count the lesson printed for its five points",
            "return 20", secrets=("22", "104")),
    Attempt("wrong: counts the printed my_points, not the argument",
            "count = 0\n"
            "for labels in itertools.product((-1, 1), repeat=len(my_points)):\n"
            "    count += is_separable(my_points, labels, threshold=True)\n"
            "return count", secrets=("22", "104")),
]
