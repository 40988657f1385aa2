"""perclib's perceptron against scikit-learn's compiled one, side by side in one run.

scikit-learn's ``Perceptron`` is configured as the classical algorithm: no
intercept, patterns in their given order, learning rate 1, no penalty, and
``tol=None`` so it runs exactly ``max_iter`` epochs. It gets the number of epochs
perclib needed (the last one clean), so both do the same work and must end with
the same weights.

Run: ``python benchmarks/bench_perceptron.py [--P 100000] [--N 50] [--repeats 5]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from sklearn.linear_model import Perceptron

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--P", type=int, default=100_000)
    parser.add_argument("--N", type=int, default=50)
    parser.add_argument("--margin", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    d = teacher_data(args.P, args.N, margin=args.margin, rng=args.seed)
    ours_s, ours = best_of(lambda: perceptron(d.X, d.y), args.repeats)
    sk_model = Perceptron(
        fit_intercept=False, shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=ours.epochs
    )
    sk_s, sk = best_of(lambda: sk_model.fit(d.X, d.y), args.repeats)
    sk_w = sk.coef_.ravel()
    loop_s, loop_w = best_of(lambda: per_pattern_loop(d.X, d.y, ours.epochs), 1)

    print(f"data: P={args.P}, N={args.N}, teacher margin {args.margin}, seed {args.seed}")
    print(f"perclib: converged={ours.converged}, {ours.epochs} epochs, {ours.n_updates} updates")
    print()
    print(f"{'implementation':<34} {'median s':>10} {'ratio to sklearn':>18}")
    print(f"{'perclib.perceptron (vectorised)':<34} {ours_s:10.4f} {ours_s / sk_s:18.2f}")
    print(f"{'sklearn Perceptron (compiled)':<34} {sk_s:10.4f} {1.0:18.2f}")
    print(f"{'per-pattern Python loop':<34} {loop_s:10.4f} {loop_s / sk_s:18.2f}")
    print()
    print(f"weights identical to sklearn (bitwise): {np.array_equal(ours.w, sk_w)}")
    print(f"max |w_perclib - w_sklearn|: {np.max(np.abs(ours.w - sk_w)):.3e}")
    print(f"weights identical to the Python loop:   {np.array_equal(ours.w, loop_w)}")
    print(f"target ratio <= 1.0: {'met' if ours_s <= sk_s else 'NOT met'}")


if __name__ == "__main__":
    main()
