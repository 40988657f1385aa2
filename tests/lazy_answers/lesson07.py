"""Lazy and wrong answers to lesson 07's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

# Eigen-factor of a Gram matrix: rows F with F F^T = G, the way to feed G to perclib.
_FACTOR = """
vals, vecs = np.linalg.eigh(G)
F = vecs * np.sqrt(np.clip(vals, 0.0, None))
"""

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: perclib's homogeneous features",
                "return polynomial_features(X, degree=2, coef0=0.0)"),
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
    "ex4-answer": [
        Attempt("library: the averaged perceptron on a factor of G",
                _FACTOR + "avg = averaged_perceptron(F, y, epochs=epochs)\n"
                "return np.linalg.lstsq(F.T, avg.w, rcond=None)[0] * y"),
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
