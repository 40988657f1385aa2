"""Lazy and wrong answers to lesson 09's (statistical mechanics) exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("library: perclib's generalization_error", "return generalization_error(w, B)"),
        Attempt("library: perclib's overlap",
                "from perclib import overlap\nreturn np.arccos(overlap(w, B)) / np.pi"),
        Attempt("capture: generalization_error held as a default argument",
                "def err(a, b, _ge=generalization_error):\n"
                "    return _ge(a, b)\n"
                "return err(w, B)"),
        Attempt("tolerance: the cosine rounded to 12 decimals instead of clipped",
                "R = round(float(w @ B / (np.linalg.norm(w) * np.linalg.norm(B))), 12)\n"
                "return np.arccos(R) / np.pi"),
        Attempt("tolerance: nearly parallel (R > 1 - 1e-12) counted as parallel",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return 0.0 if R > 1 - 1e-12 else np.arccos(np.clip(R, -1, 1)) / np.pi"),
        Attempt("scale: computed in float32",
                "w, B = w.astype(np.float32), B.astype(np.float32)\n"
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return float(np.arccos(np.clip(R, -1, 1)) / np.pi)"),
        Attempt("lookup: right for the visible sizes of w only",
                "if len(w) not in (3, 5, 6, 7, 12, 15, 27, 30, 40, 54):\n"
                "    return 0.25\n"
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, -1, 1)) / np.pi"),
        Attempt("hard-coded: the error of the student the lesson printed", "return 0.3059"),
        Attempt("hard-coded: the error of w_own and B_own as printed without a class",
                "return 5.0490035077900535e-11"),
        Attempt("hard-coded: lookup of the old check's four examples",
                "table = {(1, 0, 1, 1): 0.25, (3, 4, 4, 3): 0.0903345}\n"
                "return table.get(tuple(np.r_[w, B].astype(int)), 0.5)"),
        Attempt("wrong: overlap not normalised",
                "return np.arccos(np.clip(w @ B, -1, 1)) / np.pi"),
        Attempt("wrong: normalised by |w| only",
                "return np.arccos(np.clip(w @ B / np.linalg.norm(w), -1, 1)) / np.pi"),
        Attempt("wrong: no clip (nan when w is parallel to B)",
                "return np.arccos(w @ B / (np.linalg.norm(w) * np.linalg.norm(B))) / np.pi"),
        Attempt("wrong: no clip, norms as sqrt of dot products",
                "return np.arccos(w @ B / np.sqrt((w @ w) * (B @ B))) / np.pi"),
        Attempt("wrong: the angle itself, not divided by pi",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, -1, 1))"),
        Attempt("wrong: the angle in degrees",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.degrees(np.arccos(np.clip(R, -1, 1)))"),
        Attempt("wrong: |R| (an opposite student counted as good)",
                "R = abs(w @ B) / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, -1, 1)) / np.pi"),
        Attempt("wrong: one wedge only, theta / (2 pi)",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, -1, 1)) / (2 * np.pi)"),
        Attempt("wrong: the accuracy 1 - eps",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return 1 - np.arccos(np.clip(R, -1, 1)) / np.pi"),
        Attempt("wrong: returns R",
                "return w @ B / (np.linalg.norm(w) * np.linalg.norm(B))"),
        Attempt("wrong: linear in R, (1 - R) / 2",
                "return (1 - w @ B / (np.linalg.norm(w) * np.linalg.norm(B))) / 2"),
        Attempt("wrong: R clipped to [0, 1]",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, 0, 1)) / np.pi"),
        Attempt("wrong: arcsin instead of arccos",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arcsin(np.clip(R, -1, 1)) / np.pi"),
        Attempt("wrong: estimated by sampling fresh patterns",
                "Z = np.random.default_rng(0).standard_normal((20000, len(w)))\n"
                "return float(np.mean(np.sign(Z @ w) != np.sign(Z @ B)))"),
        Attempt("wrong: arccos of the clipped cosine (R rounds to 1 near the teacher)",
                "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, -1.0, 1.0)) / np.pi"),
        Attempt("wrong: the unit vectors' arctan2 not doubled (theta / 2)",
                "u, v = w / np.linalg.norm(w), B / np.linalg.norm(B)\n"
                "return np.arctan2(np.linalg.norm(u - v), np.linalg.norm(u + v)) / np.pi"),
        Attempt("wrong: arctan2 with the sum and the difference swapped",
                "u, v = w / np.linalg.norm(w), B / np.linalg.norm(B)\n"
                "return 2 * np.arctan2(np.linalg.norm(u + v), np.linalg.norm(u - v)) / np.pi"),
        Attempt("wrong: the teacher not normalised",
                "u = w / np.linalg.norm(w)\n"
                "return 2 * np.arctan2(np.linalg.norm(u - B), np.linalg.norm(u + B)) / np.pi"),
        Attempt("wrong: the raw vectors' difference and sum, not the unit vectors'",
                "return 2 * np.arctan2(np.linalg.norm(w - B), np.linalg.norm(w + B)) / np.pi"),
        Attempt("wrong: elementwise, no dot product",
                "R = w * B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
                "return np.arccos(np.clip(R, -1, 1)) / np.pi"),
    ],
    "ex2-answer": [
        Attempt("lookup: right for the visible alphas only (the check's seed replayed)",
                "g = np.random.default_rng(82)\n"
                "seen = np.r_[0.0101, g.uniform(0.02, 0.2, 2), g.uniform(0.2, 1.99, 4)]\n"
                "if alpha >= 2:\n    return 0.0\n"
                "if not np.any(np.isclose(seen, alpha, rtol=0, atol=1e-15)):\n    return 0.5\n"
                "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0, xtol=1e-12)"),
        Attempt("hard-coded: the values the old check printed",
                "table = {1.0: 0.470655, 0.5: 1.034314, 0.25: 1.735578}\n"
                "return 0.0 if alpha >= 2 else table.get(alpha, 0.5)"),
        Attempt("wrong: forgets alpha >= 2",
                "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0)"),
        Attempt("wrong: search interval too short for small alpha",
                "if alpha >= 2:\n    return 0.0\n"
                "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 5.0)"),
        Attempt("wrong: search interval starting at 0.1 (misses alpha near 2)",
                "if alpha >= 2:\n    return 0.0\n"
                "return brentq(lambda k: gardner_capacity(k) - alpha, 0.1, 50.0)"),
        Attempt("wrong: nan for alpha >= 2",
                "if alpha >= 2:\n    return np.nan\n"
                "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0)"),
        Attempt("wrong: the negative of the root",
                "if alpha >= 2:\n    return 0.0\n"
                "return -brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0)"),
        Attempt("wrong: returns the capacity, not the stability",
                "return 0.0 if alpha >= 2 else gardner_capacity(alpha)"),
        Attempt("wrong: the large-kappa asymptote 1/sqrt(alpha)",
                "return 0.0 if alpha >= 2 else 1 / np.sqrt(alpha)"),
        Attempt("wrong: a coarse grid and interpolation",
                "if alpha >= 2:\n    return 0.0\n"
                "k = np.linspace(0, 12, 121)\n"
                "return float(np.interp(alpha, gardner_capacity(k)[::-1], k[::-1]))"),
        Attempt("wrong: solves alpha_c(kappa) = 2 alpha (double counting)",
                "if alpha >= 1:\n    return 0.0\n"
                "return brentq(lambda k: gardner_capacity(k) - 2 * alpha, 0.0, 50.0)"),
        Attempt("wrong: loose tolerance",
                "if alpha >= 2:\n    return 0.0\n"
                "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0, xtol=1e-2)"),
    ],
}

# The turn-5 reviews' answers that passed (issue 40).
ATTEMPTS["ex2-answer"] += [
    Attempt("wrong: a search interval that misses alpha = 0.01 (the spec's lower end)",
            "if alpha >= 2:\n    return 0.0\n"
            "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 9.5, xtol=1e-12)"),
    Attempt("wrong: a relative tolerance 1e-6 on kappa (errors up to 2e-6 in kappa)",
            "if alpha >= 2:\n    return 0.0\n"
            "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0, xtol=1e-300, "
            "rtol=1e-6)"),
]

# The turn-5 reviews' answers to exercise 1 that passed the arccos version (issue 40).
ATTEMPTS["ex1-answer"] += [
    Attempt("tolerance: R clipped to 1 - 1e-16 (a parallel student errs 4.7e-9)",
            "R = w @ B / (np.linalg.norm(w) * np.linalg.norm(B))\n"
            "return np.arccos(np.clip(R, -1.0, 1 - 1e-16)) / np.pi"),
    Attempt("tolerance: the result rounded to 10 decimals (3e-11 becomes 0)",
            "u, v = w / np.linalg.norm(w), B / np.linalg.norm(B)\n"
            "half = np.arctan2(np.linalg.norm(u - v), np.linalg.norm(u + v))\n"
            "return round(float(2 * half / np.pi), 10)"),
]

# Review turn 6 (issue 50): the small-alpha asymptote used below alpha = 0.17.
ATTEMPTS["ex2-answer"] += [
    Attempt("edge: the asymptote sqrt(1/alpha - 1) below alpha = 0.17 (review 6)",
            "if alpha >= 2:\n    return 0.0\n"
            "if alpha < 0.17:\n    return float(np.sqrt(1 / alpha - 1))\n"
            "return brentq(lambda k: gardner_capacity(k) - alpha, 0.0, 50.0, xtol=1e-12)"),
]
