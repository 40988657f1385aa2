"""The perceptron in dual form: it touches the patterns only through a kernel.

From ``w = 0`` every update adds ``y_i phi(x_i)``, so the weights are always
``w = sum_mu alpha_mu y_mu phi(x_mu)`` with ``alpha_mu`` the number of mistakes made
on pattern ``mu``. Then ``w . phi(x) = sum_mu alpha_mu y_mu k(x_mu, x)``: the run can
be carried out on the coefficients ``c = alpha * y`` and the Gram matrix alone.

It reuses the primal perceptron's compiled epoch loop: Gram-matrix row ``i`` times
``c`` is the margin of pattern ``i``, and an update adds ``y_i`` to ``c_i``. Same
mistakes in the same order as the primal perceptron run on ``phi(x)`` (up to rounding
in exact ties).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, as_labels, as_patterns
from perclib.kernels import KernelFunction, gram_matrix
from perclib.train._budget import MAX_WORK, as_budget
from perclib.train.perceptron import _run_epochs


@dataclass(frozen=True, eq=False)
class KernelPerceptronResult:
    """What a kernel perceptron run did.

    Attributes
    ----------
    alpha : ndarray of int, shape (P,)
        Mistakes made on each pattern (the dual coefficients).
    converged : bool
        True when the last epoch made no mistake.
    epochs : int
        Epochs run, the final clean one included.
    indices : ndarray of int, shape (n_updates,)
        The pattern behind each update, in order.
    mistakes_per_epoch : ndarray of int, shape (epochs,)
    kernel : str or callable
    params : dict
        ``degree``, ``coef0`` and ``gamma`` as passed to :func:`perclib.gram_matrix`.
    out_of_budget : bool
        True when the work budget stopped the run before ``max_epochs``.
    """

    alpha: NDArray[np.int64]
    converged: bool
    epochs: int
    indices: NDArray[np.intp]
    mistakes_per_epoch: NDArray[np.int64]
    kernel: str | KernelFunction
    params: dict[str, float]
    _X: NDArray[np.float64] = field(repr=False)
    _y: NDArray[np.float64] = field(repr=False)
    out_of_budget: bool = False

    @property
    def n_updates(self) -> int:
        """Number of updates (mistakes) made in the whole run."""
        return int(self.indices.size)

    @property
    def support(self) -> NDArray[np.intp]:
        """The patterns the weights are built from (at least one mistake)."""
        return np.flatnonzero(self.alpha > 0).astype(np.intp)

    def decision_function(self, Z: ArrayLike) -> NDArray[np.float64]:
        """``w . phi(z) = sum_mu alpha_mu y_mu k(x_mu, z)`` for every row ``z`` of ``Z``.

        Only the support patterns enter the sum.
        """
        Z = as_patterns(Z, "Z")
        if Z.shape[1] != self._X.shape[1]:
            raise ValueError(
                f"Z must have {self._X.shape[1]} columns like the training patterns, got {Z.shape[1]}"
            )
        s = self.support
        K = gram_matrix(Z, self._X[s], kernel=self.kernel, **self.params)
        return K @ (self.alpha[s] * self._y[s])

    def __repr__(self) -> str:
        state = "converged" if self.converged else "did NOT converge"
        state += " (work budget spent)" if self.out_of_budget else ""
        name = self.kernel if isinstance(self.kernel, str) else "callable"
        return (
            f"KernelPerceptronResult({name} kernel, {state} after {self.epochs} epoch(s), "
            f"{self.n_updates} update(s), {self.support.size} support pattern(s))"
        )


def kernel_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    kernel: str | KernelFunction = "linear",
    degree: int = 2,
    coef0: float = 1.0,
    gamma: float = 1.0,
    max_epochs: int = 1000,
    max_work: int | None = MAX_WORK,
) -> KernelPerceptronResult:
    """The perceptron in dual form, from ``w = 0``, patterns in cyclic order.

    A mistake is ``y_i sum_mu alpha_mu y_mu k(x_mu, x_i) <= 0``; it adds one to
    ``alpha_i``. The Gram matrix of the training set is computed once
    (``P^2`` numbers, so keep ``P`` to a few thousand).

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    kernel : {"linear", "poly", "rbf"} or callable
        See :func:`perclib.gram_matrix`.
    degree, coef0, gamma :
        Kernel parameters (ignored by kernels that do not use them).
    max_epochs : int, default 1000
        Upper limit on passes; data not separable in feature space stop here with
        ``converged=False``.
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds: the Gram matrix costs ``P^2 N``, an epoch ``P^2``.
        The run stops after the last epoch that fits (at least one), with
        ``out_of_budget=True`` and a :class:`perclib.train.WorkBudgetWarning`; None: no
        limit but ``max_epochs``.

    Returns
    -------
    KernelPerceptronResult

    Examples
    --------
    >>> X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]   # XOR
    >>> run = kernel_perceptron(X, [1, 1, -1, -1], kernel="poly", degree=2)
    >>> run.converged, run.alpha.tolist(), run.indices.tolist()
    (True, [1, 1, 1, 1], [0, 2, 3, 1])
    >>> np.sign(run.decision_function(X)).tolist()
    [1.0, 1.0, -1.0, -1.0]
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    max_epochs = as_count(max_epochs, "max_epochs", 1)
    max_work = as_budget(max_work)
    params = {"degree": degree, "coef0": coef0, "gamma": gamma}
    G = gram_matrix(X, kernel=kernel, **params)  # validates the kernel and its parameters
    P = X.shape[0]
    left = None if max_work is None else max(1, max_work - P * P * X.shape[1])  # the Gram matrix's
    c, per_epoch, converged, spent = _run_epochs(
        G, y, np.zeros(P), 1.0, max_epochs, None, dual=True, max_work=left, name="kernel_perceptron"
    )
    indices = np.concatenate(per_epoch).astype(np.intp)
    return KernelPerceptronResult(
        alpha=np.bincount(indices, minlength=P).astype(np.int64),
        converged=converged,
        epochs=len(per_epoch),
        indices=indices,
        mistakes_per_epoch=np.array([done.size for done in per_epoch], dtype=np.int64),
        kernel=kernel,
        params=params,
        _X=X,
        _y=y,
        out_of_budget=spent,
    )
