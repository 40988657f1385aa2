"""perclib's perceptron against scikit-learn's compiled one, side by side in one run.

scikit-learn's ``Perceptron`` is configured as the classical algorithm: no
intercept, patterns in their given order, learning rate 1, no penalty, and
``tol=None`` so it runs exactly ``max_iter`` epochs. It gets the number of epochs
perclib needed (the last one clean), so both do the same work and must end with
the same weights.

Every problem of ``PROBLEMS`` is timed (median of ``--repeats`` runs) and printed as
one row of a table, from wide teacher margins (a few epochs) down to thin ones
(hundreds of epochs). Timings on a shared machine are noisy: compare within a run.

Run: ``python benchmarks/bench_perceptron.py [--repeats 5] [--loop]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from sklearn.linear_model import Perceptron
from threadpoolctl import threadpool_limits

from perclib import perceptron, teacher_data


def per_pattern_loop(X: np.ndarray, y: np.ndarray, max_epochs: int) -> np.ndarray:
    """The textbook Python loop, for scale (one Python iteration per presentation)."""
    w = np.zeros(X.shape[1])
    for _ in range(max_epochs):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w = w + label * x
                clean = False
        if clean:
            break
    return w


def best_of(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


#: (P, N, teacher margin): wide margins converge in a few epochs, thin ones need many.
PROBLEMS = [
    (100_000, 50, 0.5),
    (100_000, 50, 0.1),
    (100_000, 50, 0.05),
    (100_000, 50, 0.02),
    (20_000, 20, 0.005),  # many epochs on a smaller set
]


def compare(P: int, N: int, margin: float, seed: int, repeats: int, loop: bool) -> dict[str, object]:
    """Time both implementations on one problem; scikit-learn runs perclib's epoch count."""
    d = teacher_data(P, N, margin=margin, rng=seed)
    ours_s, ours = best_of(lambda: perceptron(d.X, d.y, max_epochs=100_000), repeats)
    sk_model = Perceptron(
        fit_intercept=False, shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=ours.epochs
    )
    sk_s, sk = best_of(lambda: sk_model.fit(d.X, d.y), repeats)
    row = {
        "P": P, "N": N, "margin": margin, "epochs": ours.epochs, "updates": ours.n_updates,
        "ours": ours_s, "sklearn": sk_s, "same": bool(np.array_equal(ours.w, sk.coef_.ravel())),
        "converged": ours.converged,
    }
    if loop:
        row["loop"], loop_w = best_of(lambda: per_pattern_loop(d.X, d.y, ours.epochs), 1)
        row["same_loop"] = bool(np.array_equal(ours.w, loop_w))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--loop", action="store_true", help="also time the per-pattern Python loop")
    args = parser.parse_args()

    print("both on one BLAS thread (sklearn's loop is single-threaded; cores are shared)")
    print(f"{'P':>7} {'N':>3} {'margin':>7} {'epochs':>6} {'updates':>7} {'perclib s':>10} "
          f"{'sklearn s':>10} {'ratio':>6} {'same w':>6}" + ("  loop s" if args.loop else ""))
    met = True
    for P, N, margin in PROBLEMS:
        with threadpool_limits(1):
            r = compare(P, N, margin, args.seed, args.repeats, args.loop)
        ratio = r["ours"] / r["sklearn"]
        met &= ratio <= 1.0 and r["same"]
        print(f"{P:>7} {N:>3} {margin:>7} {r['epochs']:>6} {r['updates']:>7} {r['ours']:>10.4f} "
              f"{r['sklearn']:>10.4f} {ratio:>6.2f} {str(r['same']):>6}"
              + (f"  {r['loop']:.2f}" if args.loop else ""))
    print()
    print("ratio = perclib median time / sklearn median time; 'same w': final weights bitwise equal")
    print(f"target (ratio <= 1.0 and identical weights on every problem): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
