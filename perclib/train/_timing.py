"""When did each update happen? The perceptron with the time of every update.

Pocket and averaged training both need to know how long each weight vector lasted:
the number of presentations between two updates. The run is the classical
perceptron (``w0 = 0``, ``eta = 1``); presentation ``t = e P + s`` is the ``s``-th
pattern shown in epoch ``e`` (counting from 0).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib.train.perceptron import PerceptronResult, _perceptron_run


def timed_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    max_epochs: int,
    order: str,
    rng: object,
    max_work: int | None = None,
    name: str = "perceptron",
) -> tuple[PerceptronResult, NDArray[np.int64]]:
    """Run the perceptron from zero and return it with the presentation of each update.

    Examples
    --------
    >>> run, times = timed_perceptron([[1.0], [1.0]], [1, -1], max_epochs=2, order="cyclic", rng=None)
    >>> run.indices.tolist(), times.tolist()
    ([0, 1, 0, 1], [0, 1, 2, 3])
    """
    orders: list[NDArray[np.int64] | None] = []
    run = _perceptron_run(X, y, 1.0, None, max_epochs, order, rng, orders, max_work=max_work, name=name)
    P = run.X.shape[0]
    per_epoch = np.split(run.indices, np.cumsum(run.mistakes_per_epoch)[:-1])
    times = []
    for epoch, (perm, done) in enumerate(zip(orders, per_epoch, strict=True)):
        slot = done if perm is None else np.argsort(perm)[done]  # where it was shown
        times.append(epoch * P + slot)
    return run, np.concatenate(times).astype(np.intp)


def lifetimes(times: NDArray[np.int64], total: int) -> NDArray[np.int64]:
    """Presentations each weight vector of the trace was the current one *after*.

    Weight vector ``k`` (after ``k`` updates) is current after presentations
    ``times[k-1] .. times[k] - 1`` (from 0 for ``k = 0``; up to ``total - 1`` for the
    last), Freund and Schapire's survival counts. They sum to ``total``.

    Examples
    --------
    >>> lifetimes(np.array([0, 3]), 5).tolist()
    [0, 3, 2]
    """
    edges = np.concatenate([[0], times, [total]])
    return np.diff(edges).astype(np.int64)
