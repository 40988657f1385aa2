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

#: Exercises whose answer takes no input: a lookup table of it is the answer itself.
NO_INPUT = {"ex5-answer"}

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
        Attempt("capture: perclib's perceptron held in a default argument",
                "def run(X, y, eta, m, _train=perceptron):\n"
                "    r = _train(X, y, eta=eta, max_epochs=m)\n"
                "    return r.w, r.indices.tolist()\n"
                "return run(X, y, eta, max_epochs)"),
        Attempt("capture: perclib's private engine _perceptron_run",
                "from perclib.train.perceptron import _perceptron_run\n"
                "r = _perceptron_run(X, y, eta, None, max_epochs, 'cyclic', None)\n"
                "return r.w, r.indices.tolist()"),
        Attempt("sibling: the perceptron with margin, beta = 0",
                "from perclib import margin_perceptron\n"
                "r = margin_perceptron(X, y, beta=0.0, eta=eta, max_epochs=max_epochs)\n"
                "return r.w, r.indices.tolist()"),
        Attempt("sibling: the kernel perceptron with the linear kernel, back to weights",
                "from perclib import kernel_perceptron\n"
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "r = kernel_perceptron(X, y, kernel='linear', max_epochs=max_epochs)\n"
                "return eta * (r.alpha * y) @ X, r.indices.tolist()"),
        Attempt("tolerance: a mistake is y (w.x) <= 1e-9",
                _LOOP.format(test="<=", eta="eta").replace("0:\n", "1e-9:\n", 1)),
        Attempt("wrong: float32 weights",
                _LOOP.format(test="<=", eta="eta")
                .replace("w, indices = np.zeros(X.shape[1]), []",
                         "w, indices = np.zeros(X.shape[1], dtype=np.float32), []")
                .replace("w = w + (eta * y[mu]) * X[mu]",
                         "w = (w + (eta * y[mu]) * X[mu]).astype(np.float32)")),
        Attempt("lookup: right on the visible check's shapes only, one epoch elsewhere",
                "X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)\n"
                "seen = {(3, 3), (3, 2), (9, 3), (14, 4), (20, 5), (12, 4), (10, 3)}\n"
                "epochs = max_epochs if X.shape in seen else 1\n"
                "w, indices = np.zeros(X.shape[1]), []\n"
                "for _ in range(epochs):\n"
                "    clean = True\n"
                "    for mu in range(len(X)):\n"
                "        if y[mu] * (X[mu] @ w) <= 0:\n"
                "            w = w + (eta * y[mu]) * X[mu]\n"
                "            indices.append(mu)\n"
                "            clean = False\n"
                "    if clean:\n"
                "        break\n"
                "return w, indices"),
    ],
    "ex2-answer": [
        Attempt("library: perclib's mistake_bound",
                "return mistake_bound(augment_weights(w, theta), X, y, threshold=True)"),
        Attempt("library: perclib's radius and separator_margin",
                "u = augment_weights(w, theta)\n"
                "return radius(X, threshold=True) ** 2 / separator_margin(\n"
                "    u, X, y, threshold=True) ** 2"),
        Attempt("hard-coded: the lesson's answer", "return 10.0", secrets=("10",)),
        Attempt("capture: perclib's mistake_bound held in a default argument",
                "def bound(u, X, y, _mb=mistake_bound):\n"
                "    return _mb(u, X, y, threshold=True)\n"
                "return bound(augment_weights(w, theta), X, y)"),
        Attempt("lookup: right on the visible check's shapes only",
                "X = np.asarray(X, dtype=float)\n"
                "u = augment_weights(w, theta) / np.linalg.norm(augment_weights(w, theta))\n"
                "g = np.min(np.asarray(y) * (augment(X) @ u))\n"
                "R2 = np.max(np.sum(augment(X)**2, axis=1))\n"
                "if X.shape not in {(2, 1), (12, 2), (30, 5)}:\n"
                "    R2 = np.max(np.sum(X**2, axis=1))\n"
                "return float(R2 / g**2)"),
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
        Attempt("capture: the float run with eta = 1 (private engine), scaled by eta",
                "from perclib.train.perceptron import _perceptron_run\n"
                "r = _perceptron_run(np.array(X, float), np.array(y, float), 1.0, None,\n"
                "                    max_epochs, 'cyclic', None)\n"
                "return r.indices.tolist(), [Fraction(eta) * Fraction(v) for v in r.w]"),
        Attempt("capture: perclib's perceptron held in a default argument",
                "def run(X, y, _train=perceptron):\n"
                "    return _train(np.array(X, float), np.array(y, float), max_epochs=max_epochs)\n"
                "r = run(X, y)\n"
                "return r.indices.tolist(), [Fraction(eta) * Fraction(v) for v in r.w]"),
        Attempt("tolerance: floats with eta = 1, weights rounded back to small fractions",
                _EXACT.format(conv="float", eta="1.0",
                              ret="indices, [Fraction(eta) * Fraction(v).limit_denominator(10**4)"
                                  " for v in w]")),
        Attempt("wrong: max_epochs ignored (loops until a clean epoch)",
                _EXACT.replace("for _ in range(max_epochs):", "while True:")
                .format(conv="Fraction", eta="Fraction(eta)", ret="indices, w")),
        Attempt("lookup: exact on the visible check's shapes only, floats elsewhere",
                "shape = (len(X), len(X[0]))\n"
                "conv = Fraction if shape in {(2, 2), (6, 3), (7, 3), (3, 2)} else float\n"
                "Xc = [[conv(v) for v in row] for row in X]\n"
                "w, indices = [conv(0)] * shape[1], []\n"
                "for _ in range(max_epochs):\n"
                "    clean = True\n"
                "    for mu, (x, t) in enumerate(zip(Xc, y)):\n"
                "        if t * sum(a * b for a, b in zip(w, x)) <= 0:\n"
                "            w = [a + conv(eta) * t * b for a, b in zip(w, x)]\n"
                "            indices.append(mu)\n"
                "            clean = False\n"
                "    if clean:\n"
                "        break\n"
                "return indices, [Fraction(v) for v in w]"),
    ],
    "ex5-answer": [
        Attempt("wrong: the stored answer minus a row (too few patterns)",
                "J = np.array([[1.0, 2.0, 2.0], [2.0, 1.0, -2.0], [2.0, -2.0, 1.0]])\n"
                "return J[:2], np.array([1.0, -1.0])"),
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

# The turn-5 reviews' answers that passed (issue 40).
_LOOP = """
X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
w, indices = np.zeros(X.shape[1]), []
for _ in range(max_epochs):
    clean = True
    for mu in range(len(X)):
        if y[mu] * (X[mu] @ w) <= {tolerance}:
            w = w + (eta * y[mu]) * X[mu]
            indices.append(mu)
            clean = False
    if clean:
        break
return w, indices
"""
_EXACT = """
X = [[{read} for v in row] for row in X]
y = [Fraction(v) for v in y]
eta = Fraction(eta)
w, indices = [Fraction(0)] * len(X[0]), []
for _ in range(max_epochs):
    clean = True
    for mu, (x, t) in enumerate(zip(X, y)):
        if t * sum(a * b for a, b in zip(w, x)) <= 0:
            w = [a + eta * t * b for a, b in zip(w, x)]
            indices.append(mu)
            clean = False
    if clean:
        break
return indices, w
"""
ATTEMPTS["ex1-answer"] += [
    Attempt("edge: a mistake within a relative 1e-9 (scale-invariant, wrong at a near-tie)",
            _LOOP.format(tolerance="1e-9 * np.linalg.norm(X[mu]) * np.linalg.norm(w)")),
    Attempt("edge: a mistake within an absolute 1e-20 (wrong on data at 1e-11)",
            _LOOP.format(tolerance="1e-20")),
    Attempt("tamper: a second copy of perclib's trainer loaded from its file",
            "import importlib.util, perclib\n"
            "spec = importlib.util.spec_from_file_location('t2', perclib.__path__[0] + "
            "'/train/perceptron.py')\n"
            "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\n"
            "r = m.perceptron(X, y, eta=eta, max_epochs=max_epochs)\nreturn r.w, r.indices"),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: the float loop on data scaled to integers (inexact beyond 2**53)",
            "import math\n"
            "L = math.lcm(*(Fraction(v).denominator for row in X for v in row))\n"
            "Xi = np.array([[float(Fraction(v) * L) for v in row] for row in X])\n"
            "yv = np.array([float(v) for v in y])\n"
            "w, indices = np.zeros(Xi.shape[1]), []\n"
            "for _ in range(max_epochs):\n    clean = True\n"
            "    for mu in range(len(Xi)):\n"
            "        if yv[mu] * (Xi[mu] @ w) <= 0:\n"
            "            w = w + yv[mu] * Xi[mu]\n            indices.append(mu)\n"
            "            clean = False\n    if clean:\n        break\n"
            "return indices, [Fraction(eta) * Fraction(int(v)) / L for v in w]"),
    Attempt("edge: the inputs read through floats, denominators limited to 1e6",
            _EXACT.format(read="Fraction(float(v)).limit_denominator(10**6)")),
]
ATTEMPTS["ex5-answer"] += [
    Attempt("wrong: patterns 1e-170 away from the axes (two non-zero entries each)",
            "J = np.array([[1.0, 1e-170, 0.0], [-1e-170, 1.0, 1e-170], [0.0, -1e-170, 1.0]])\n"
            "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * J, y"),
]

# Review turn 6 (issue 50): tolerances below the edges the checks held back before.
_LOOP = """X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
w, indices = np.zeros(X.shape[1]), []
for _ in range(max_epochs):
    clean = True
    for mu in range(len(X)):
        if {test}:
            w = w + (eta * y[mu]) * X[mu]
            indices.append(mu)
            clean = False
    if clean:
        break
return w, indices"""
_EXACT = """import math
X = [[{convert} for v in row] for row in X]
y = [Fraction(v) for v in y]
eta = Fraction(eta)
w, indices = [Fraction(0)] * len(X[0]), []
for _ in range(max_epochs):
    clean = True
    for mu, (x, t) in enumerate(zip(X, y)):
        if {test} <= 0:
            w = [a + eta * t * b for a, b in zip(w, x)]
            indices.append(mu)
            clean = False
    if clean:
        break
return indices, w"""
ATTEMPTS["ex1-answer"] += [
    Attempt("edge: a relative tolerance 1e-16 |w| |x| in the mistake test (review 6)",
            _LOOP.format(test="y[mu] * (X[mu] @ w) <= 1e-16 * np.linalg.norm(w) "
                              "* np.linalg.norm(X[mu])")),
    Attempt("edge: an absolute tolerance 1e-250 in the mistake test (review 6)",
            _LOOP.format(test="y[mu] * (X[mu] @ w) <= 1e-250")),
]
ATTEMPTS["ex3-answer"] += [
    Attempt("edge: exact weights, the mistake test a float fsum (review 6)",
            _EXACT.format(convert="Fraction(v)", test="float(t) * math.fsum(float(a) * float(b) "
                                                      "for a, b in zip(w, x))")),
    Attempt("edge: inputs through limit_denominator(10**15) (review 6)",
            _EXACT.format(convert="Fraction(v).limit_denominator(10**15)",
                          test="t * sum(a * b for a, b in zip(w, x))")),
]
ATTEMPTS["ex5-answer"] += [
    Attempt("wrong: the rows times 1e7, the third times 1e7 + 1 (lengths differ) (review 6)",
            "J = np.array([[1.0, 2.0, 2.0], [2.0, 1.0, -2.0], [2.0, -2.0, 1.0]])\n"
            "J = J * np.array([[1e7], [1e7], [1e7 + 1]])\n"
            "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * J, y"),
    Attempt("wrong: z3 orthogonal to z1 + z2 only (review 6)",
            "J = np.array([[1.0, 2.0, 2.0], [2.0, 1.0, -2.0], [19999.0, -19999.0, 10004.0]])\n"
            "y = np.array([1.0, -1.0, 1.0])\nreturn y[:, None] * J, y"),
]
