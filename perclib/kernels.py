"""Kernels, Gram matrices, and the explicit feature map of the polynomial kernel.

A kernel ``k(a, b)`` is a dot product ``phi(a) . phi(b)`` in some feature space,
computed without building ``phi``. The names follow scikit-learn:

* ``"linear"``: ``a . b``;
* ``"poly"``: ``(gamma a . b + coef0) ** degree``;
* ``"rbf"``: ``exp(-gamma ||a - b||^2)`` (the Gaussian kernel, width
  ``sigma = 1 / sqrt(2 gamma)``).

For the polynomial kernel :func:`polynomial_features` builds ``phi`` itself (one
column per monomial), so a lesson can check that the perceptron in dual form and
the perceptron on the explicit features are the same algorithm.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, as_patterns, as_positive_float, as_real, exponent

#: A user kernel: ``k(A, B)`` returns the ``(len(A), len(B))`` matrix of ``k(a_i, b_j)``.
KernelFunction = Callable[[NDArray[np.float64], NDArray[np.float64]], ArrayLike]

KERNELS = ("linear", "poly", "rbf")
_MAX_FEATURES = 100_000
#: Largest Gram matrix (entries, 800 MB): kernel_perceptron stores P x P of them.
_MAX_GRAM = 10**8


def _pair(A: ArrayLike, B: ArrayLike | None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    A = as_patterns(A, "A")
    B = A if B is None else as_patterns(B, "B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(
            f"A and B must have the same number of columns, got {A.shape[1]} and {B.shape[1]}"
        )
    return A, B


def gram_matrix(
    A: ArrayLike,
    B: ArrayLike | None = None,
    *,
    kernel: str | KernelFunction = "linear",
    degree: int = 2,
    coef0: float = 1.0,
    gamma: float = 1.0,
) -> NDArray[np.float64]:
    """The matrix ``G[i, j] = k(A[i], B[j])`` (``B = A`` when omitted).

    Parameters
    ----------
    A : array_like, shape (P, N)
    B : array_like, shape (Q, N), optional
    kernel : {"linear", "poly", "rbf"} or callable
        A callable gets the two validated arrays and must return a finite
        ``(P, Q)`` matrix.
    degree : int, default 2
        Degree of the polynomial kernel (>= 1).
    coef0 : float, default 1
        Constant of the polynomial kernel.
    gamma : float, default 1
        Scale of the polynomial kernel, inverse squared width (times 1/2) of the
        Gaussian one; > 0.

    Returns
    -------
    ndarray, shape (P, Q)

    Raises
    ------
    ValueError
        For more than 1e8 entries (800 MB), or when the linear or polynomial kernel
        of these patterns overflows (or, linear, underflows) float64: entries near
        1e200 or 1e-200. The Gaussian kernel works at any scale (0 and 1 there).

    Examples
    --------
    >>> gram_matrix([[1.0, 2.0]], [[3.0, 4.0]], kernel="poly", degree=2).tolist()
    [[144.0]]
    >>> round(float(gram_matrix([[0.0, 0.0]], [[1.0, 1.0]], kernel="rbf", gamma=0.5)[0, 0]), 6)
    0.367879
    """
    A, B = _pair(A, B)
    size = A.shape[0] * B.shape[0]
    if size > _MAX_GRAM:
        raise ValueError(
            f"A, B: the Gram matrix would be {A.shape[0]} x {B.shape[0]} = {size:,} entries "
            f"({8 * size / 1e9:.3g} GB), more than the limit of {_MAX_GRAM:,}; use fewer patterns"
        )
    if callable(kernel):
        raw = np.asarray(kernel(A, B))
        if np.iscomplexobj(raw):  # casting would drop the imaginary part with a mere warning
            raise TypeError(
                "kernel: the callable returned complex numbers; a kernel must return real "
                "values (k(x, z) is an inner product of real features)"
            )
        if not (np.issubdtype(raw.dtype, np.number) or raw.dtype == bool):
            raise TypeError(f"kernel: the callable must return real numbers, got dtype {raw.dtype}")
        G = raw.astype(np.float64)
        if G.shape != (A.shape[0], B.shape[0]):
            raise ValueError(
                f"the kernel callable must return shape {(A.shape[0], B.shape[0])}, got {G.shape}"
            )
        if not np.all(np.isfinite(G)):
            raise ValueError("the kernel callable returned NaN or infinite values")
        return G
    if kernel == "linear":
        if exponent(A) + exponent(B) < -1000:  # every dot product is below 1e-300
            raise ValueError("A, B: the linear kernel underflows float64 for these patterns; rescale them")
        return _checked(_dot(A, B), "the linear kernel")
    if kernel == "poly":
        degree = as_count(degree, "degree", 1)
        gamma = as_positive_float(gamma, "gamma")
        coef0 = as_real(coef0, "coef0")
        with np.errstate(over="ignore", invalid="ignore"):
            G = (gamma * _dot(A, B) + coef0) ** degree
        return _checked(G, f"the polynomial kernel of degree {degree}")
    if kernel == "rbf":
        gamma = as_positive_float(gamma, "gamma")
        # Distances from data scaled by a common power of two (exact), then scaled back:
        # far points of 1e200 give exp(-inf) = 0 and near ones of 1e-200 give 1, both
        # what float64 can say, instead of inf - inf = NaN.
        e = max(exponent(A), exponent(B))
        As, Bs = np.ldexp(A, -e), np.ldexp(B, -e)
        sq = (As * As).sum(1)[:, None] + (Bs * Bs).sum(1)[None, :] - 2.0 * (As @ Bs.T)
        # Rounding can make a squared distance slightly negative; it is >= 0.
        with np.errstate(over="ignore", under="ignore"):
            return np.exp(-gamma * np.ldexp(np.maximum(sq, 0.0), 2 * e))
    raise ValueError(f"kernel must be one of {KERNELS} or a callable, got {kernel!r}")


def _dot(A: NDArray[np.float64], B: NDArray[np.float64]) -> NDArray[np.float64]:
    """``A @ B.T`` computed on exactly rescaled data: inf (not NaN) on overflow, 0 only if tiny."""
    ea, eb = exponent(A), exponent(B)
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(np.ldexp(A, -ea) @ np.ldexp(B, -eb).T, ea + eb)


def _checked(G: NDArray[np.float64], what: str) -> NDArray[np.float64]:
    if not np.all(np.isfinite(G)):
        raise ValueError(f"A, B: {what} overflows float64 for these patterns; rescale them")
    return G


def _comb_capped(n: int, k: int, cap: int) -> int | None:
    """``comb(n, k)``, or None as soon as it is known to exceed ``cap``.

    ``math.comb`` of a huge pair takes minutes before any size check could refuse it;
    the running product ``comb(n - k + i, i)`` grows with ``i``, so it stops early.
    """
    k = min(k, n - k)
    value = 1
    for i in range(1, k + 1):
        value = value * (n - k + i) // i
        if value > cap:
            return None
    return value


def polynomial_features(
    X: ArrayLike, *, degree: int = 2, coef0: float = 1.0, gamma: float = 1.0
) -> NDArray[np.float64]:
    """The explicit feature map of the polynomial kernel.

    Returns ``Phi`` with ``Phi[i] . Phi[j] == (gamma X[i].X[j] + coef0) ** degree``
    (up to rounding). By the multinomial theorem the kernel is a sum over exponents
    ``k_0 + k_1 + ... + k_N = degree`` of ``degree! / (k_0! ... k_N!) coef0^k_0
    prod_i (gamma x_i z_i)^k_i``, so each such term is one feature
    ``sqrt(multinomial coef0^k_0 gamma^(degree - k_0)) prod_i x_i^k_i``.
    There are ``binom(N + degree, degree)`` features when ``coef0 > 0`` (only the
    ``binom(N + degree - 1, degree)`` monomials of degree exactly ``degree`` when
    ``coef0 = 0``), in the order of :func:`itertools.combinations_with_replacement`.
    At most 100,000 features and 1e8 entries in all; monomials that leave float64
    (entries near 1e200 or 1e-200) raise a ValueError.

    Parameters
    ----------
    X : array_like, shape (P, N)
    degree : int, default 2
        >= 1.
    coef0 : float, default 1
        >= 0 (a negative constant has no real feature map).
    gamma : float, default 1
        > 0.

    Returns
    -------
    ndarray, shape (P, number of features)

    Examples
    --------
    >>> Phi = polynomial_features([[1.0, 2.0], [3.0, 4.0]], degree=2)
    >>> Phi.shape, bool(np.isclose(Phi[0] @ Phi[1], (1 * 3 + 2 * 4 + 1) ** 2))
    ((2, 6), True)
    """
    X = as_patterns(X)
    degree = as_count(degree, "degree", 1)
    gamma = as_positive_float(gamma, "gamma")
    coef0 = as_real(coef0, "coef0")
    if coef0 < 0:
        raise ValueError(f"coef0 must be >= 0 for a real feature map, got {coef0}")
    P, N = X.shape
    # Variable 0 stands for the constant (sqrt(coef0)); 1..N for the inputs.
    count = _comb_capped(N + degree, degree, _MAX_FEATURES)
    if count is None:
        raise ValueError(
            f"degree {degree} in {N} dimensions has more than {_MAX_FEATURES:,} features; "
            "use a lower degree, fewer dimensions or the kernel instead"
        )
    e = exponent(X)
    if abs(e) * degree > 1000:  # monomials of degree `degree` leave float64
        raise ValueError(
            f"X: monomials of degree {degree} of entries near 2**{e} overflow or underflow "
            "float64; rescale the patterns (or use the kernel)"
        )
    if P * count > _MAX_GRAM:
        raise ValueError(
            f"X: {P} patterns with {count} features each make {P * count:,} entries, more than "
            f"the limit of {_MAX_GRAM:,} (800 MB); use fewer patterns or the kernel"
        )
    Z = np.column_stack([np.ones(P), X])
    columns, scales = [], []
    for combo in itertools.combinations_with_replacement(range(N + 1), degree):
        powers = np.bincount(combo, minlength=N + 1)
        k0 = int(powers[0])
        if coef0 == 0 and k0 > 0:
            continue
        multinomial = math.factorial(degree)
        for k in powers:
            multinomial //= math.factorial(int(k))
        scales.append(math.sqrt(multinomial * coef0**k0 * gamma ** (degree - k0)))
        columns.append(np.prod(Z[:, list(combo)], axis=1))
    return np.column_stack(columns) * np.array(scales)
