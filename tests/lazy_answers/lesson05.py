"""Lazy and wrong answers to lesson 05's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

_LOOP = """
X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
w, indices = np.zeros(X.shape[1]), []
for _ in range(max_epochs):
    clean = True
    for mu in range(len(X)):
        if y[mu] * (X[mu] @ w) {test} 0:
            w = w + ({eta} * y[mu]) * X[mu]
            indices.append(mu)
            clean = False
    if clean:
        break
return w, indices
"""

_EXACT = """
X = [[{conv}(v) for v in row] for row in X]
y = [{conv}(v) for v in y]
eta = {eta}
w, indices = [{conv}(0)] * len(X[0]), []
for _ in range(max_epochs):
    clean = True
    for mu, (x, t) in enumerate(zip(X, y)):
        if t * sum(a * b for a, b in zip(w, x)) <= 0:
            w = [a + eta * t * b for a, b in zip(w, x)]
            indices.append(mu)
            clean = False
    if clean:
        break
return {ret}
"""

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: perclib's perceptron",
                "r = perceptron(X, y, eta=eta, max_epochs=max_epochs)\n"
                "return r.w, r.indices.tolist()"),
        Attempt("hard-coded: the runs the lesson printed",
                "X = np.asarray(X, dtype=float)\n"
                "if X.shape == (3, 3):\n"
                "    return np.ones(3), [0, 1, 2]\n"
                "return eta * np.array([-3.0, 4.0]), [0, 1, 1, 0, 1]"),
        Attempt("wrong: strict test '< 0'", _LOOP.format(test="<", eta="eta")),
        Attempt("wrong: learning rate ignored", _LOOP.format(test="<=", eta="1.0")),
        Attempt("wrong: restarts at pattern 0 after every update",
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "w, indices = np.zeros(X.shape[1]), []\n"
                "for _ in range(max_epochs * len(X)):\n"
                "    wrong = [mu for mu in range(len(X)) if y[mu] * (X[mu] @ w) <= 0]\n"
                "    if not wrong:\n"
                "        break\n"
                "    w = w + eta * y[wrong[0]] * X[wrong[0]]\n"
                "    indices.append(wrong[0])\n"
                "return w, indices"),
        Attempt("wrong: stops after one epoch",
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "w, indices = np.zeros(X.shape[1]), []\n"
                "for mu in range(len(X)):\n"
                "    if y[mu] * (X[mu] @ w) <= 0:\n"
                "        w = w + eta * y[mu] * X[mu]\n"
                "        indices.append(mu)\n"
                "return w, indices"),
        Attempt("wrong: stops at the first correctly classified pattern",
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "w, indices = np.zeros(X.shape[1]), []\n"
                "for _ in range(max_epochs):\n"
                "    for mu in range(len(X)):\n"
                "        if y[mu] * (X[mu] @ w) > 0:\n"
                "            return w, indices\n"
                "        w = w + eta * y[mu] * X[mu]\n"
                "        indices.append(mu)\n"
                "return w, indices"),
        Attempt("wrong: a new random order every epoch",
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "g = np.random.default_rng(0)\n"
                "w, indices = np.zeros(X.shape[1]), []\n"
                "for _ in range(max_epochs):\n"
                "    clean = True\n"
                "    for mu in g.permutation(len(X)):\n"
                "        if y[mu] * (X[mu] @ w) <= 0:\n"
                "            w = w + eta * y[mu] * X[mu]\n"
                "            indices.append(int(mu))\n"
                "            clean = False\n"
                "    if clean:\n"
                "        break\n"
                "return w, indices"),
        Attempt("wrong: max_epochs ignored",
                _LOOP.replace("for _ in range(max_epochs):", "while True:")
                .format(test="<=", eta="eta")),
    ],
    "ex2-answer": [
        Attempt("library: perclib's mistake_bound",
                "return mistake_bound(augment_weights(w, theta), X, y, threshold=True)"),
        Attempt("library: perclib's radius and separator_margin",
                "u = augment_weights(w, theta)\n"
                "return radius(X, threshold=True) ** 2 / separator_margin(\n"
                "    u, X, y, threshold=True) ** 2"),
        Attempt("hard-coded: the lesson's answer", "return 10.0", secrets=("10",)),
        Attempt("wrong: radius of x, not of (x, 1)",
                "X = np.asarray(X, dtype=float)\n"
                "u = augment_weights(w, theta) / np.linalg.norm(augment_weights(w, theta))\n"
                "g = np.min(np.asarray(y) * (augment(X) @ u))\n"
                "return float(np.max(np.sum(X**2, axis=1)) / g**2)"),
        Attempt("wrong: margin divided by ||w|| only",
                "X = np.asarray(X, dtype=float)\n"
                "g = np.min(np.asarray(y) * (X @ np.asarray(w) - theta)) / np.linalg.norm(w)\n"
                "return float(np.max(np.sum(augment(X)**2, axis=1)) / g**2)"),
        Attempt("wrong: separator not normalised",
                "X = np.asarray(X, dtype=float)\n"
                "g = np.min(np.asarray(y) * (augment(X) @ augment_weights(w, theta)))\n"
                "return float(np.max(np.sum(augment(X)**2, axis=1)) / g**2)"),
        Attempt("wrong: R_hat / gamma_hat, not squared",
                "X = np.asarray(X, dtype=float)\n"
                "u = augment_weights(w, theta) / np.linalg.norm(augment_weights(w, theta))\n"
                "g = np.min(np.asarray(y) * (augment(X) @ u))\n"
                "return float(np.sqrt(np.max(np.sum(augment(X)**2, axis=1))) / g)"),
        Attempt("wrong: threshold added with the wrong sign",
                "X = np.asarray(X, dtype=float)\n"
                "u = np.append(w, theta) / np.linalg.norm(np.append(w, theta))\n"
                "g = np.min(np.asarray(y) * (augment(X) @ u))\n"
                "return float(np.max(np.sum(augment(X)**2, axis=1)) / g**2)"),
    ],
    "ex3-answer": [
        Attempt("library: perclib's perceptron, converted to fractions",
                "r = perceptron(np.array(X, float), np.array(y, float), eta=float(eta))\n"
                "return r.indices.tolist(), [Fraction(v) for v in r.w]"),
        Attempt("hard-coded: the two-pattern example",
                "return [0, 1, 1, 0, 1], [Fraction(-3, 10), Fraction(2, 5)]"),
        Attempt("hard-coded: the eta = 1 run scaled",
                "return [0, 1, 1, 0, 1], [eta * -3, eta * 4]"),
        Attempt("wrong: floats throughout",
                _EXACT.format(conv="float", eta="float(eta)", ret="indices, w")),
        Attempt("wrong: floats, converted to Fraction at the end",
                _EXACT.format(conv="float", eta="float(eta)",
                              ret="indices, [Fraction(v) for v in w]")),
        Attempt("wrong: the rate goes through a float",
                _EXACT.format(conv="Fraction", eta="Fraction(float(eta))", ret="indices, w")),
        Attempt("wrong: only the indices (the old task)",
                _EXACT.format(conv="Fraction", eta="Fraction(eta)", ret="indices")),
        Attempt("wrong: strict test '< 0'",
                _EXACT.replace("<= 0", "< 0")
                .format(conv="Fraction", eta="Fraction(eta)", ret="indices, w")),
    ],
    "ex5-answer": [
        Attempt("hard-coded: section 9's e_1, e_2, e_3 with mixed labels",
                "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * np.eye(3), y"),
        Attempt("wrong: rank 2 (a tight set in a plane)",
                "return np.array([[1.0, 1, 0], [1, -1, 0]]), np.array([1.0, -1.0])"),
        Attempt("wrong: orthogonal, unequal lengths",
                "J = np.array([[1.0, 2, 2], [4, 2, -4], [2, -2, 1]])\n"
                "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * J, y"),
        Attempt("wrong: equal lengths, not orthogonal",
                "J = np.array([[1.0, 1, 0], [0, 1, 1], [1, 0, 1]])\n"
                "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * J, y"),
        Attempt("wrong: a random rotation (tight only by luck of rounding)",
                "Q = np.linalg.qr(np.random.default_rng(3).normal(size=(3, 3)))[0]\n"
                "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * Q, y"),
        Attempt("wrong: a random rotation (rounding breaks the ties)",
                "Q = np.linalg.qr(np.random.default_rng(1).normal(size=(3, 3)))[0]\n"
                "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * Q, y"),
    ],
}
