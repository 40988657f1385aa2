"""Lazy and wrong answers to lesson 07's (non-separable data) exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

# The stored solution, for attempts that are right only on some inputs.
_VOTE = """
ballots = np.where(Z @ W.T > 0, 1, -1)
return np.where(ballots @ c > 0, 1, -1)
"""

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("hard-coded: every pattern -1", "return -np.ones(len(Z), dtype=int)"),
        Attempt("lookup: right for the visible numbers of patterns (1, 3, 12, 300) only",
                "if len(Z) not in (1, 3, 12, 300):\n"
                "    return np.ones(len(Z), dtype=int)\n" + _VOTE),
        Attempt("wrong: numpy's sign, so w.z = 0 abstains instead of voting -1",
                "return np.where(np.sign(Z @ W.T) @ c > 0, 1, -1)"),
        Attempt("wrong: numpy's sign at both levels (a tied vote is 0)",
                "return np.sign(np.sign(Z @ W.T) @ c).astype(int)"),
        Attempt("wrong: a tied vote goes to +1",
                "return np.where(np.where(Z @ W.T > 0, 1, -1) @ c >= 0, 1, -1)"),
        Attempt("wrong: one vote per weight vector, counts ignored",
                "return np.where(np.where(Z @ W.T > 0, 1, -1).sum(axis=1) > 0, 1, -1)"),
        Attempt("wrong: the averaged perceptron instead of the vote",
                "return np.where(Z @ (c @ W) > 0, 1, -1)"),
        Attempt("wrong: each weight vector votes with c_k (w.z), not c_k sign(w.z)",
                "return np.where((Z @ W.T) @ c > 0, 1, -1)"),
        Attempt("tolerance: |w.z| <= 1e-9 counted as a tie",
                "ballots = np.where(Z @ W.T > 1e-9, 1, -1)\n"
                "return np.where(ballots @ c > 0, 1, -1)"),
        Attempt("tolerance: a tie relative to the lengths, |w.z| <= 1e-9 |w| |z|",
                "scale = np.linalg.norm(Z, axis=1)[:, None] * np.linalg.norm(W, axis=1)[None, :]\n"
                "ballots = np.where(Z @ W.T > 1e-9 * scale, 1, -1)\n"
                "return np.where(ballots @ c > 0, 1, -1)"),
        Attempt("scale: float32 products",
                "P = Z.astype(np.float32) @ W.T.astype(np.float32)\n"
                "return np.where(np.where(P > 0, 1, -1) @ c > 0, 1, -1)"),
    ],
}

# Review turn 6 (issue 50): ballots with a tolerance.
ATTEMPTS["ex1-answer"] += [
    Attempt("edge: a ballot is +1 only when w.z > 1e-30 (review 6)",
            "ballots = np.where(Z @ W.T > 1e-30, 1, -1)\n"
            "return np.where(ballots @ c > 0, 1, -1)"),
    Attempt("edge: a ballot is +1 only when w.z > 1e-15 |w| |z| (review 6)",
            "size = np.outer(np.linalg.norm(Z, axis=1), np.linalg.norm(W, axis=1))\n"
            "ballots = np.where(Z @ W.T > 1e-15 * size, 1, -1)\n"
            "return np.where(ballots @ c > 0, 1, -1)"),
]
