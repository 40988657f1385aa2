"""Lazy and wrong answers to lesson 08's (kernels) exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

# Eigen-factor of a Gram matrix: rows F with F F^T = G, the way to feed G to perclib.
_FACTOR = """
vals, vecs = np.linalg.eigh(G)
F = vecs * np.sqrt(np.clip(vals, 0.0, None))
"""

# The stored solution of exercise 2, for attempts that are right only on some inputs.
_DUAL = """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    clean = True
    for i in range(len(y)):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
"""

# The stored solution of exercise 3.
_AVERAGED = """
P = len(y)
alpha, total = np.zeros(P), np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
        total += alpha
"""

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: perclib's homogeneous features",
                "return polynomial_features(X, degree=2, coef0=0.0)"),
        Attempt("capture: polynomial_features held as a default argument",
                "def features(Z, _poly=polynomial_features):\n"
                "    return _poly(Z, degree=2, coef0=0.0)\n"
                "return features(X)"),
        Attempt("capture: perclib.kernels.polynomial_features under another name",
                "from perclib.kernels import polynomial_features as pf\n"
                "return pf(X, degree=2, coef0=0.0)"),
        Attempt("lookup: right for the visible numbers of patterns (7, 5, 1) only",
                "if len(X) not in (7, 5, 1):\n"
                "    return np.zeros((len(X), 3))\n"
                "return np.column_stack([X[:, 0]**2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1]**2])"),
        Attempt("scale: float32 features",
                "X = np.asarray(X, dtype=np.float32)\n"
                "return np.column_stack([X[:, 0]**2, np.sqrt(np.float32(2)) * X[:, 0] * X[:, 1], "
                "X[:, 1]**2])"),
        Attempt("hard-coded: the two patterns of the old check",
                "return np.array([[1.0, 2 * np.sqrt(2), 4.0], [9.0, -3 * np.sqrt(2), 1.0]])"),
        Attempt("wrong: no sqrt(2) on the cross term",
                "return np.column_stack([X[:, 0]**2, X[:, 0] * X[:, 1], X[:, 1]**2])"),
        Attempt("wrong: factor 2 instead of sqrt(2)",
                "return np.column_stack([X[:, 0]**2, 2 * X[:, 0] * X[:, 1], X[:, 1]**2])"),
        Attempt("wrong: columns in another order",
                "return np.column_stack([X[:, 0]**2, X[:, 1]**2, np.sqrt(2) * X[:, 0] * X[:, 1]])"),
        Attempt("wrong: minus sign on the cross term",
                "return np.column_stack([X[:, 0]**2, -np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1]**2])"),
        Attempt("wrong: the kernel matrix instead of the features", "return (X @ X.T) ** 2"),
        Attempt("wrong: features scaled by the largest one",
                "F = np.column_stack([X[:, 0]**2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1]**2])\n"
                "return F / np.abs(F).max()"),
    ],
    "ex2-answer": [
        Attempt("library: the perceptron on a factor of G",
                _FACTOR + "run = perceptron(F, y, max_epochs=max_epochs)\n"
                "return np.bincount(run.indices, minlength=len(y)), list(run.indices)"),
        Attempt("sibling: the margin perceptron (beta = 0) on a factor of G",
                _FACTOR + "from perclib import margin_perceptron\n"
                "run = margin_perceptron(F, y, beta=0.0, max_epochs=max_epochs)\n"
                "idx = np.asarray(run.indices, dtype=int)\n"
                "return np.bincount(idx, minlength=len(y)), list(idx)"),
        Attempt("capture: kernel_perceptron held as a default argument, G looked up by index",
                "def run(G, y, m, _kp=kernel_perceptron):\n"
                "    k = lambda a, b: G[np.ix_(np.argmax(a, 1), np.argmax(b, 1))]\n"
                "    r = _kp(np.eye(len(y)), y, kernel=k, max_epochs=m)\n"
                "    return r.alpha, list(r.indices)\n"
                "return run(G, y, max_epochs)"),
        Attempt("capture: perclib's private epoch engine",
                "from perclib.train.perceptron import _run_epochs\n"
                "return _run_epochs(G, y, max_epochs)"),
        Attempt("tolerance: a mistake is a score below 1e-9", _DUAL.replace("<= 0", "< 1e-9")
                + "return alpha, updates"),
        Attempt("lookup: right for the visible numbers of patterns (4, 9, 30) only",
                "if len(y) not in (4, 9, 30):\n"
                "    return np.ones(len(y), dtype=int), list(range(len(y)))\n" + _DUAL
                + "return alpha, updates"),
        Attempt("hard-coded: the XOR answer",
                "return np.array([1, 1, 1, 1]), [0, 2, 3, 1]"),
        Attempt("wrong: strict test < 0 (alpha = 0 never updates)", """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    clean = True
    for i in range(len(y)):
        if y[i] * np.sum(alpha * y * G[:, i]) < 0:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates
"""),
        Attempt("wrong: one epoch too many", """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs + 1):
    clean = True
    for i in range(len(y)):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates
"""),
        Attempt("wrong: alpha frozen during the epoch (batch update)", """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    frozen = alpha.copy()
    for i in range(len(y)):
        if y[i] * np.sum(frozen * y * G[:, i]) <= 0:
            alpha[i] += 1
            updates.append(i)
    if np.array_equal(frozen, alpha):
        break
return alpha, updates
"""),
        Attempt("wrong: label y_i left out of the mistake test", """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    clean = True
    for i in range(len(y)):
        if np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates
"""),
        Attempt("wrong: patterns in reverse order", """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    clean = True
    for i in reversed(range(len(y))):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates
"""),
        Attempt("wrong: stops after the first epoch", """
alpha = np.zeros(len(y), dtype=int)
updates = []
for i in range(len(y)):
    if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
        alpha[i] += 1
        updates.append(i)
return alpha, updates
"""),
        Attempt("wrong: signed counts alpha_i += y_i", """
alpha = np.zeros(len(y))
updates = []
for _ in range(max_epochs):
    clean = True
    for i in range(len(y)):
        if y[i] * np.sum(alpha * G[:, i]) <= 0:
            alpha[i] += y[i]
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates
"""),
    ],
    "ex3-answer": [
        Attempt("library: the averaged perceptron on a factor of G",
                "from perclib import averaged_perceptron\n" + _FACTOR
                + "avg = averaged_perceptron(F, y, epochs=epochs)\n"
                "return np.linalg.lstsq(F.T, avg.w, rcond=None)[0] * y"),
        Attempt("capture: kernel_perceptron held as a default argument, survival arithmetic",
                "def beta_of(G, y, T, _kp=kernel_perceptron):\n"
                "    k = lambda a, b: G[np.ix_(np.argmax(a, 1), np.argmax(b, 1))]\n"
                "    r = _kp(np.eye(len(y)), y, kernel=k, max_epochs=T)\n"
                "    P = len(y)\n"
                "    ep = np.repeat(np.arange(r.epochs), r.mistakes_per_epoch)\n"
                "    t = ep * P + r.indices\n"
                "    return np.bincount(r.indices, weights=T * P - t, minlength=P) / (T * P)\n"
                "return beta_of(G, y, epochs)"),
        Attempt("tolerance: a mistake is a score below 1e-9", _AVERAGED.replace("<= 0", "< 1e-9")
                + "return total / (epochs * P)"),
        Attempt("lookup: right for the visible numbers of patterns (2, 4, 10) only",
                "if len(y) not in (2, 4, 10):\n"
                "    return np.ones(len(y)) / 2\n" + _AVERAGED + "return total / (epochs * P)"),
        Attempt("hard-coded: the XOR numbers of the old check",
                "return np.array([12, 7, 10, 9]) / 12"),
        Attempt("wrong: early stop, mean over the presentations made", """
P = len(y)
alpha, total, shown = np.zeros(P), np.zeros(P), 0
for _ in range(epochs):
    clean = True
    for i in range(P):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
            clean = False
        total += alpha
        shown += 1
    if clean:
        break
return total / shown
"""),
        Attempt("wrong: early stop, divided by epochs * P", """
P = len(y)
alpha, total = np.zeros(P), np.zeros(P)
for _ in range(epochs):
    clean = True
    for i in range(P):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
            clean = False
        total += alpha
    if clean:
        break
return total / (epochs * P)
"""),
        Attempt("wrong: alpha added before the update", """
P = len(y)
alpha, total = np.zeros(P), np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        total += alpha
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
return total / (epochs * P)
"""),
        Attempt("wrong: averaged once per epoch", """
P = len(y)
alpha, total = np.zeros(P), np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
    total += alpha
return total / epochs
"""),
        Attempt("wrong: the final counts, not their mean", """
P = len(y)
alpha = np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
            alpha[i] += 1
return alpha
"""),
        Attempt("wrong: strict mistake test < 0", """
P = len(y)
alpha, total = np.zeros(P), np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        if y[i] * np.sum(alpha * y * G[:, i]) < 0:
            alpha[i] += 1
        total += alpha
return total / (epochs * P)
"""),
    ],
}

# The turn-5 reviews' answers that passed (issue 40).
_DUAL_WITHIN = """
alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    clean = True
    for i in range(len(y)):
        terms = alpha * y * G[:, i]
        if y[i] * np.sum(terms) <= {tolerance}:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates
"""
_AVERAGED_WITHIN = """
P = len(y)
alpha, total = np.zeros(P), np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        terms = alpha * y * G[:, i]
        if y[i] * np.sum(terms) <= {tolerance}:
            alpha[i] += 1
        total += alpha
return total / (epochs * P)
"""
ATTEMPTS["ex1-answer"] += [
    Attempt("edge: the cross term as sign(x1 x2) sqrt(2 x1^2 x2^2) (underflows near 1e-80)",
            "x1, x2 = X[:, 0], X[:, 1]\n"
            "return np.column_stack([x1**2, np.sign(x1 * x2) * np.sqrt(2 * x1**2 * x2**2), "
            "x2**2])"),
]
ATTEMPTS["ex2-answer"] += [
    Attempt("edge: a mistake within a relative 1e-9 (wrong at a near-tie at 1e-10)",
            _DUAL_WITHIN.format(tolerance="1e-9 * np.abs(terms).sum()")),
    Attempt("edge: a mistake within an absolute 1e-20 (wrong for G times 1e-25)",
            _DUAL_WITHIN.format(tolerance="1e-20")),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: a mistake within a relative 1e-9 (wrong at a near-tie at 1e-10)",
            _AVERAGED_WITHIN.format(tolerance="1e-9 * np.abs(terms).sum()")),
    Attempt("edge: a mistake within an absolute 1e-20 (wrong for G times 1e-25)",
            _AVERAGED_WITHIN.format(tolerance="1e-20")),
]

# Review turn 6 (issue 50): the cross term by polarisation, and tolerances in the
# mistake test of the dual runs.
_DUAL = """alpha = np.zeros(len(y), dtype=int)
updates = []
for _ in range(max_epochs):
    clean = True
    for i in range(len(y)):
        terms = alpha * y * G[:, i]
        if {test}:
            alpha[i] += 1
            updates.append(i)
            clean = False
    if clean:
        break
return alpha, updates"""
_AVERAGED = """P = len(y)
alpha = np.zeros(P)
total = np.zeros(P)
for _ in range(epochs):
    for i in range(P):
        terms = alpha * y * G[:, i]
        if {test}:
            alpha[i] += 1
        total += alpha
return total / (epochs * P)"""
_RELATIVE = "y[i] * np.sum(terms) <= 1e-16 * np.sum(np.abs(terms))"
_ABSOLUTE = "y[i] * np.sum(terms) <= 1e-300"
ATTEMPTS["ex1-answer"] += [
    Attempt("edge: the cross term by polarisation, ((x1 + x2)^2 - x1^2 - x2^2) / sqrt(2) "
            "(review 6)",
            "x1, x2 = X[:, 0], X[:, 1]\n"
            "return np.column_stack([x1**2, ((x1 + x2)**2 - x1**2 - x2**2) / np.sqrt(2), x2**2])"),
]
ATTEMPTS["ex2-answer"] += [
    Attempt("edge: a relative tolerance 1e-16 sum|alpha y G| (review 6)", _DUAL.format(test=_RELATIVE)),
    Attempt("edge: an absolute tolerance 1e-300 (review 6)", _DUAL.format(test=_ABSOLUTE)),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: a relative tolerance 1e-16 sum|alpha y G| (review 6)",
            _AVERAGED.format(test=_RELATIVE)),
    Attempt("edge: an absolute tolerance 1e-300 (review 6)", _AVERAGED.format(test=_ABSOLUTE)),
]
