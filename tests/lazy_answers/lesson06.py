"""Lazy and wrong answers to lesson 06's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

_PRINTED_MARGINS = """table = {((3.0, 4.0), (1.0, 0.0), 1): 0.6, ((3.0, 4.0), (0.0, -1.0), 1): -0.8,
         ((3.0, 4.0), (0.0, -1.0), -1): 0.8, ((30.0, 40.0), (1.0, 0.0), 1): 0.6}
key = (tuple(map(float, w)), tuple(map(float, x)), int(label))
return table.get(key, 0.5)"""

_MINOVER_LOOP = """X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
w = np.zeros(X.shape[1])
chosen = []
for _ in range(steps):
    {choose}
    chosen.append(nu)
    w = w + {add}
return chosen, w"""


def _minover(choose: str, add: str = "y[nu] * X[nu]") -> str:
    return _MINOVER_LOOP.format(choose=choose, add=add)


ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: perclib's pattern_margins",
                "return float(pattern_margins(w, [x], [label])[0])"),
        Attempt("library: perclib's margin of a one-pattern set",
                "return float(margin(w, [x], [label]))"),
        Attempt("hard-coded: the four cases of the old check", _PRINTED_MARGINS),
        Attempt("capture: perclib's pattern_margins held in a default argument",
                "def one(w, x, label, _pm=pattern_margins):\n"
                "    return float(_pm(w, [x], [label])[0])\n"
                "return one(w, x, label)"),
        Attempt("sibling: separator_margin of the one-pattern set",
                "from perclib import separator_margin\n"
                "w = np.asarray(w, float)\n"
                "return float(separator_margin(w / np.linalg.norm(w), [x], [label]))"),
        Attempt("tolerance: adds 1e-12 to ||w|| against a division by zero",
                "w = np.asarray(w, float)\n"
                "return float(label * (w @ np.asarray(x, float)) / (np.linalg.norm(w) + 1e-12))"),
        Attempt("lookup: right on the visible check's sizes (5 and 2 entries) only",
                "w, x = np.asarray(w, float), np.asarray(x, float)\n"
                "d = label * (w @ x) / np.linalg.norm(w)\n"
                "return float(d if len(w) in (5, 2) else abs(d))"),
        Attempt("wrong: forgets the label",
                "w = np.asarray(w, float)\nreturn float(w @ np.asarray(x, float) / np.linalg.norm(w))"),
        Attempt("wrong: unsigned distance",
                "w = np.asarray(w, float)\n"
                "return float(abs(w @ np.asarray(x, float)) / np.linalg.norm(w))"),
        Attempt("wrong: the stability, not normalised",
                "return float(label * (np.asarray(w, float) @ np.asarray(x, float)))"),
        Attempt("wrong: the cosine (divides by |x| too)",
                "w, x = np.asarray(w, float), np.asarray(x, float)\n"
                "return float(label * (w @ x) / (np.linalg.norm(w) * np.linalg.norm(x)))"),
        Attempt("wrong: divides by |w|^2",
                "w = np.asarray(w, float)\n"
                "return float(label * (w @ np.asarray(x, float)) / (w @ w))"),
    ],
    "ex2-answer": [
        Attempt("library: perclib's max_margin",
                "X = np.array([[1.0, 2.0], [3.0, 0.0], [-1.0, -3.0]])\n"
                "res = max_margin(X, np.array([1.0, 1.0, -1.0]))\n"
                "return res.gamma, res.w / np.linalg.norm(res.w)"),
        Attempt("library: brute-force angle scan with perclib",
                "X = np.array([[1.0, 2.0], [3.0, 0.0], [-1.0, -3.0]])\n"
                "phis = np.linspace(-np.pi, np.pi, 100_001)\n"
                "scan = direction_margins(X, np.array([1.0, 1.0, -1.0]), phis)\n"
                "phi = phis[np.argmax(scan)]\n"
                "return scan.max(), np.array([np.cos(phi), np.sin(phi)])"),
        Attempt("capture: perclib's max_margin held in a default argument",
                "def solve(_mm=max_margin):\n"
                "    res = _mm(np.array([[1.0, 2], [3, 0], [-1, -3]]), np.array([1.0, 1, -1]))\n"
                "    return res.gamma, res.w / np.linalg.norm(res.w)\n"
                "return solve()"),
        Attempt("lookup: the answer copied to 12 digits from a solver's printout",
                "return 2.121320343560, np.array([0.707106781187, 0.707106781187])"),
        Attempt("hard-coded: the lesson's printed gamma_max and a guessed normal",
                "return 0.457870, np.array([1.0, 0.0])"),
        Attempt("hard-coded: the hint's example expression",
                "return np.sqrt(5) / 4, np.array([1.0, 1.0]) / np.sqrt(2)"),
        Attempt("wrong: support patterns 1 and 3 (a negative multiplier)",
                "return 1.0, np.array([1.0, 0.0])"),
        Attempt("wrong: support patterns 2 and 3 (pattern 1 infeasible)",
                "w = np.array([1 / 3, 2 / 9])\n"
                "return 1 / np.linalg.norm(w), w / np.linalg.norm(w)"),
        Attempt("wrong: canonical weights, not a unit normal",
                "w = np.array([1 / 3, 1 / 3])\nreturn 1 / np.linalg.norm(w), w"),
        Attempt("wrong: gamma = |w_c| instead of 1/|w_c|",
                "w = np.array([1 / 3, 1 / 3])\n"
                "return np.linalg.norm(w), w / np.linalg.norm(w)"),
        Attempt("wrong: forgets to reflect x3 (uses x3, not y3 x3)",
                "J = np.array([[1.0, 2.0], [-1.0, -3.0]])\n"
                "w = np.linalg.solve(J, np.ones(2))\n"
                "return 1 / np.linalg.norm(w), w / np.linalg.norm(w)"),
    ],
    "ex3-answer": [
        Attempt("library: perclib's minover",
                "res = minover(X, y, max_steps=max(steps, 1), tol=1e-15)\n"
                "return res.indices.tolist()[:steps], res.w if steps else np.zeros(2)"),
        Attempt("hard-coded: the hand example's six steps",
                "return [0, 1, 1, 1, 1, 0][:steps], np.array([4.0, 4.0]) if steps else np.zeros(2)"),
        Attempt("capture: perclib's minover held in a default argument",
                "def run(X, y, steps, _mo=minover):\n"
                "    res = _mo(X, y, max_steps=max(steps, 1), tol=1e-15)\n"
                "    return res.indices.tolist()[:steps], res.w if steps else np.zeros(len(X[0]))\n"
                "return run(X, y, steps)"),
        Attempt("sibling: the perceptron with margin, run long enough",
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "res = margin_perceptron(X, y, beta=1e9, max_epochs=steps + 1)\n"
                "chosen = res.indices.tolist()[:steps]\n"
                "return chosen, sum((y[i] * X[i] for i in chosen), np.zeros(X.shape[1]))"),
        Attempt("tolerance: values within 1e-6 of the minimum count as tied",
                _minover("h = y * (X @ w)\n    nu = int(np.flatnonzero(h <= h.min() + 1e-6)[0])")),
        Attempt("lookup: right on the visible (patterns, steps) pairs only",
                _minover("h = y * (X @ w)\n"
                         "    seen = {(3, 6), (7, 9), (6, 12), (40, 15), (3, 5), (3, 0)}\n"
                         "    nu = int(np.argmin(h) if (len(X), steps) in seen else np.argmax(h))")),
        Attempt("wrong: largest stability", _minover("nu = int(np.argmax(y * (X @ w)))")),
        Attempt("wrong: forgets the labels in the stability", _minover("nu = int(np.argmin(X @ w))")),
        Attempt("wrong: the last of tied minima",
                _minover("h = y * (X @ w)\n    nu = int(len(h) - 1 - np.argmin(h[::-1]))")),
        Attempt("wrong: argsort's first (not the first of tied minima on long arrays)",
                _minover("nu = int(np.argsort(y * (X @ w))[0])")),
        Attempt("wrong: adds x instead of y x",
                _minover("nu = int(np.argmin(y * (X @ w)))", add="X[nu]")),
        Attempt("wrong: normalised margins (divides by |x|)",
                _minover("nu = int(np.argmin(y * (X @ w) / np.linalg.norm(X, axis=1)))")),
        Attempt("wrong: stops once the data are separated (perceptron habit)",
                _minover("h = y * (X @ w)\n    if h.min() > 0:\n        break\n"
                         "    nu = int(np.argmin(h))")),
    ],
}

# Exercise 2's answer (gamma_max = 3/sqrt(2), normal (1, 1)/sqrt(2)) must never be printed.
ATTEMPTS["ex2-answer"] = [Attempt(a.label, a.code, secrets=("2.121", "0.7071", "3/√2"))
                          for a in ATTEMPTS["ex2-answer"]]

# The turn-5 reviews' answers that passed (issue 40).
ATTEMPTS["ex1-answer"] += [
    Attempt("edge: through the angle (nan at x = 0)",
            "w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)\n"
            "cos = w @ x / (np.linalg.norm(w) * np.linalg.norm(x))\n"
            "return float(label * np.linalg.norm(x) * cos)"),
    Attempt("edge: no float conversion (integer weights overflow int64)",
            "return float(label * (np.asarray(w) @ np.asarray(x)) / np.linalg.norm(w))"),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: ties within a relative 1e-9 taken as ties (wrong at a near-tie at 1e-10)",
            "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
            "w, chosen = np.zeros(X.shape[1]), []\n"
            "for _ in range(steps):\n    h = y * (X @ w)\n"
            "    tol = 1e-9 * np.linalg.norm(w) * np.linalg.norm(X, axis=1).max()\n"
            "    nu = int(np.flatnonzero(h <= h.min() + tol)[0])\n"
            "    chosen.append(nu)\n    w = w + y[nu] * X[nu]\nreturn chosen, w"),
]

# Review turn 6 (issue 50): ties within a tolerance relative to the largest stability.
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: minima tied within 1e-16 max|h| (review 6)",
            "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
            "w, chosen = np.zeros(X.shape[1]), []\n"
            "for _ in range(steps):\n"
            "    h = y * (X @ w)\n"
            "    nu = int(np.flatnonzero(h <= h.min() + 1e-16 * np.abs(h).max())[0])\n"
            "    chosen.append(nu)\n"
            "    w = w + y[nu] * X[nu]\n"
            "return chosen, w"),
]
