"""Lazy and wrong answers to lesson 04's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

# The section-1 table and the values the old check printed, as a lookup.
_TABLE = (
    "table = {(4, 2): 8, (7, 3): 44, (6, 5): 62, (30, 4): 8180, (8, 4): 128, (8, 5): 198}\n"
    "if P <= N:\n"
    "    return 2**P\n"
    "return table.get((P, N), 2 ** (P - 1))"
)

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: perclib's count", "return cover_count(P, N)"),
        Attempt("library: imported afresh", "import perclib\nreturn perclib.cover_count(P, N)"),
        Attempt("hard-coded: the lesson's table as a lookup", _TABLE),
        Attempt(
            "wrong: Cover's closed form with binomials, boundary values ignored",
            "import math\nreturn 2 * sum(math.comb(P - 1, k) for k in range(N))",
        ),
        Attempt(
            "wrong: the row tested before the column",
            "if P == 1:\n    return row\nif N == 1:\n    return column\n"
            "return by_recursion(P - 1, N, row, column) + by_recursion(P - 1, N - 1, row, column)",
        ),
        Attempt(
            "wrong: boundary values fixed at 2",
            "if P == 1 or N == 1:\n    return 2\n"
            "return by_recursion(P - 1, N, row, column) + by_recursion(P - 1, N - 1, row, column)",
        ),
        Attempt(
            "wrong: the second term steps in N instead of P",
            "if N == 1:\n    return column\nif P == 1:\n    return row\n"
            "return by_recursion(P - 1, N, row, column) + by_recursion(P, N - 1, row, column)",
        ),
        Attempt("capture: cover_count under another name, from its module",
                "from perclib.counting import cover_count as count\nreturn count(P, N)"),
        Attempt(
            "self-consistent: boundary values used, but row and column not passed on (review M2)",
            "if N == 1:\n    return column\nif P == 1:\n    return row\n"
            "return by_recursion(P - 1, N) + by_recursion(P - 1, N - 1)",
        ),
        Attempt(
            "self-consistent: row and column swapped in the recursive calls",
            "if N == 1:\n    return column\nif P == 1:\n    return row\n"
            "return by_recursion(P - 1, N, column, row) + by_recursion(P - 1, N - 1, column, row)",
        ),
        Attempt(
            "wrong: the two boundary values swapped",
            "if N == 1:\n    return row\nif P == 1:\n    return column\n"
            "return by_recursion(P - 1, N, row, column) + by_recursion(P - 1, N - 1, row, column)",
        ),
        Attempt(
            "lookup: the closed form for the (P, N) the check lists, 2**(P - 1) elsewhere",
            "from math import comb\n"
            "if (P, N) in edges + fresh:\n"
            "    return row * sum(comb(P - 1, j) for j in range(N - 1)) + column * comb(P - 1, N - 1)\n"
            "return 2 ** (P - 1)",
        ),
        Attempt(
            "wrong: boundary at P = 0 and N = 0",
            "if N == 0:\n    return column\nif P == 0:\n    return row\n"
            "return by_recursion(P - 1, N, row, column) + by_recursion(P - 1, N - 1, row, column)",
        ),
    ],
    "ex2-answer": [
        Attempt(
            "library: the extension split",
            "return extension_split(X_old, x_new).both",
        ),
        Attempt(
            "library: LPs on the projected points",
            "return separable_dichotomies(project_out(X_old, x_new))",
        ),
        Attempt(
            "hard-coded: the rows of the lesson's old check",
            "return np.array([[-1, 1, 1, 1, -1], [1, -1, -1, -1, 1]])",
            secrets=("(-1, 1, 1, 1, -1)",),
        ),
        Attempt(
            "hard-coded: the two rows of section 3.3's points (the answer cell's, alone)",
            "return np.array([[-1, 1, 1, -1, -1], [1, -1, -1, 1, 1]])",
            secrets=("(-1, 1, 1, -1, -1)",),
        ),
        Attempt(
            "wrong: x_new itself as the normal",
            "side = np.sign(np.asarray(X_old) @ np.asarray(x_new)).astype(int)\n"
            "return np.array([side, -side])",
        ),
        Attempt(
            "wrong: coordinates swapped without the sign",
            "x_new = np.asarray(x_new)\nnormal = np.array([x_new[1], x_new[0]])\n"
            "side = np.sign(np.asarray(X_old) @ normal).astype(int)\n"
            "return np.array([side, -side])",
        ),
        Attempt(
            "wrong: only one side returned",
            "x_new = np.asarray(x_new)\nnormal = np.array([-x_new[1], x_new[0]])\n"
            "return np.sign(np.asarray(X_old) @ normal).astype(int)",
        ),
        Attempt(
            "wrong: labels 0/1 instead of -1/+1",
            "x_new = np.asarray(x_new)\nnormal = np.array([-x_new[1], x_new[0]])\n"
            "side = (np.asarray(X_old) @ normal > 0).astype(int)\n"
            "return np.array([side, 1 - side])",
        ),
        Attempt(
            "capture: the extension split under another name",
            "import perclib\nsplit = perclib.extension_split\nreturn split(X_old, x_new).both",
        ),
        Attempt(
            "sibling: all separable dichotomies, kept if both labels of x_new are separable",
            "from perclib import is_separable, separable_dichotomies\n"
            "keep = [y for y in separable_dichotomies(X_old)\n"
            "        if all(is_separable(np.vstack([X_old, x_new]), np.append(y, s)) for s in (-1, 1))]\n"
            "return np.array(keep, dtype=int)",
        ),
        Attempt(
            "wrong: the right sides as floats (review #19)",
            "x_new = np.asarray(x_new, dtype=float)\nnormal = np.array([-x_new[1], x_new[0]])\n"
            "side = np.sign(np.asarray(X_old, dtype=float) @ normal)\n"
            "return np.array([side, -side])",
        ),
        Attempt(
            "lookup: the visible cases regenerated from their seed, x_new as the normal "
            "otherwise",
            "rng = np.random.default_rng(42)\n"
            "for p in (3, 6, 10):\n"
            "    pts, new = rng.normal(size=(p, 2)), rng.normal(size=2)\n"
            "    if np.array_equal(pts, X_old) and np.array_equal(new, x_new):\n"
            "        side = np.sign(pts @ np.array([-new[1], new[0]])).astype(int)\n"
            "        return np.array([side, -side])\n"
            "side = np.sign(np.asarray(X_old) @ np.asarray(x_new)).astype(int)\n"
            "return np.array([side, -side])",
        ),
        Attempt(
            "reach: the expected rows of the check's own cases, x_new as the normal otherwise",
            "for pts, new_pt, expected in cases:\n"
            "    if np.array_equal(pts, X_old) and np.array_equal(new_pt, x_new):\n"
            "        return np.array(sorted(expected), dtype=int)\n"
            "side = np.sign(np.asarray(X_old) @ np.asarray(x_new)).astype(int)\n"
            "return np.array([side, -side])",
        ),
    ],
    "ex3-answer": [
        Attempt(
            "hard-coded: the loads the old check printed",
            "return {(50, 0.9): 88, (50, 0.5): 100, (10, 0.9): 15, (100, 0.9): 182}"
            ".get((N, level), 2 * N)",
        ),
        Attempt("wrong: capacity 2N whatever the level", "return 2 * N"),
        Attempt(
            "wrong: the normal estimate at level 0.9, rounded",
            "return round(2 * N - 1.2816 * np.sqrt(2 * N))",
        ),
        Attempt(
            "wrong: the first P below level (one too many)",
            "P = 1\nwhile capacity_fraction(P, N) >= level:\n    P += 1\nreturn P",
        ),
        Attempt(
            "wrong: strict comparison (misses P = 2N at level 1/2)",
            "P = 1\nwhile capacity_fraction(P + 1, N) > level:\n    P += 1\nreturn P",
        ),
        Attempt(
            "wrong: the normal approximation at the given level, rounded",
            "from scipy.stats import norm\n"
            "return round(2 * N - norm.ppf(level) * np.sqrt(2 * N))",
        ),
        Attempt(
            "wrong: a float from the normal approximation at the given level",
            "from scipy.stats import norm\n"
            "return 2 * N - norm.ppf(level) * np.sqrt(2 * N)",
        ),
        Attempt(
            "wrong: the largest P on the lesson's grid, P up to 4N (review #20)",
            "alpha, frac = capacity_curve(N, 4 * N)\n"
            "ok = [a for a, f in zip(alpha, frac) if f >= level]\n"
            "return int(round(max(ok) * N))",
        ),
        Attempt(
            "wrong: a walk that stops at P = 4N",
            "P = 1\nwhile P < 4 * N and capacity_fraction(P + 1, N) >= level:\n    P += 1\nreturn P",
        ),
        Attempt(
            "lookup: right for the check's listed (N, level), 2N otherwise",
            "if (N, level) in cases:\n"
            "    P = 1\n"
            "    while capacity_fraction(P + 1, N) >= level:\n"
            "        P += 1\n"
            "    return P\n"
            "return 2 * N",
        ),
    ],
}

# The turn-5 reviews' answers that passed (issue 40).
ATTEMPTS["ex1-answer"] += [
    Attempt("reach: the check's closed-form helper called from the answer",
            "return table_entry(P, N, row, column)"),
    Attempt("tamper: the expected value read from the calling check's frame",
            "import sys\nreturn sys._getframe(2).f_locals['value']"),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: the search stops at 8N (wrong for N = 1 at levels 1e-3, 1e-4)",
            "best = 1\nfor P in range(1, 8 * N + 1):\n"
            "    if capacity_fraction(P, N) >= level:\n        best = P\nreturn best"),
    Attempt("edge: a floating-point binomial distribution function (rounds 1/2 down)",
            "from scipy.stats import binom\nP = 1\n"
            "while binom.cdf(N - 1, P, 0.5) >= level:\n    P += 1\nreturn P"),
]
