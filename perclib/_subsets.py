"""Every square subset of a set of rows, checked for a small condition number in batches.

:func:`perclib.in_general_position` asks whether every subset of ``D`` rows of a
``P x D`` matrix ``Z`` is well conditioned: ``s_min > tol * s_max`` for its singular
values. One SVD per subset answers it (:func:`all_subsets_svd`, the reference), but
a determinant (one LU) is several times cheaper, and for nearly every subset it
settles the question on its own. Write the rows of a subset ``A`` as ``n_i u_i``
with unit ``u_i``. Then

    s_min(A) >= |det A| / ||adj A||_F,    ||adj A||_F**2 = sum_i vol(rows but i)**2
                                                          <= sum_i prod_{l != i} n_l**2

(the cofactors of row ``i`` are the minors of the other rows, whose squares sum to
their squared volume, at most the product of their squared norms: Hadamard), and
``s_max(A) <= ||A||_F``. With ``|det A| = |det U| prod n_l`` this gives

    s_min / s_max  >=  |det U| / sqrt(sum_i n_i**2 * sum_i n_i**-2),

a scale-free volume ``|det U|`` (at most 1 by Hadamard's inequality) over a factor
between ``D`` (equal norms) and more for unequal ones; it is at most ``D`` times
below the true ratio when the norms are equal. A subset whose bound exceeds
``SCREEN * tol`` is well conditioned, with room for the rounding of the LU (a
relative error below 1e-5 at the condition numbers that pass); every other subset
is decided by the SVD test itself, so the verdict is always the reference's.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

#: A subset is passed by its determinant alone when the bound exceeds this times tol.
SCREEN = 4.0
#: Subsets per batch (a batch of 11 x 11 matrices is about 20 MB at this size).
BLOCK = 20_000


@lru_cache(maxsize=256)
def _combinations(n: int, r: int) -> NDArray[np.intp]:
    """All r-subsets of ``range(n)`` in lexicographic order, one per row (read-only)."""
    if r == 0:
        out = np.zeros((1, 0), dtype=np.intp)
    elif r > n:
        out = np.zeros((0, r), dtype=np.intp)
    else:
        # Subsets whose first element is f: f, then an (r-1)-subset of f+1 .. n-1.
        parts = []
        for f in range(n - r + 1):
            tail = _combinations(n - f - 1, r - 1) + (f + 1)
            parts.append(np.hstack([np.full((len(tail), 1), f, dtype=np.intp), tail]))
        out = np.vstack(parts)
    out.setflags(write=False)
    return out


def combination_blocks(P: int, k: int, block: int = BLOCK) -> Iterator[NDArray[np.intp]]:
    """All k-subsets of ``range(P)`` in lexicographic order, in arrays of at most ``block`` rows.

    A prefix is fixed until the subsets that complete it fit in a block; their
    completions come from a cached table, so no Python tuple is built per subset.

    Examples
    --------
    >>> [b.tolist() for b in combination_blocks(4, 2, block=3)]
    [[[0, 1], [0, 2], [0, 3]], [[1, 2], [1, 3]], [[2, 3]]]
    """

    def rec(prefix: list[int], start: int, r: int) -> Iterator[NDArray[np.intp]]:
        if math.comb(P - start, r) <= block:
            tail = _combinations(P - start, r) + start
            head = np.broadcast_to(np.array(prefix, dtype=np.intp), (len(tail), len(prefix)))
            yield np.hstack([head, tail])
            return
        for i in range(start, P - r + 1):
            yield from rec([*prefix, i], i + 1, r - 1)

    yield from rec([], 0, k)


def _ill_conditioned(A: NDArray[np.float64], tol: float) -> bool:
    """The reference test on a stack of matrices: some ``s_min <= tol * s_max``."""
    s = np.linalg.svd(A, compute_uv=False)  # shape (n, k), descending
    return bool(np.any(s[:, -1] <= tol * s[:, 0]))


def all_subsets_svd(Z: NDArray[np.float64], tol: float) -> bool:
    """Whether every ``min(P, D)``-subset of rows of ``Z`` passes the SVD test (reference).

    One batched SVD per block of subsets: the method of :func:`perclib.in_general_position`
    before the determinant screen, kept to check it and to benchmark it.
    """
    P, D = Z.shape
    k = min(P, D)
    return not any(_ill_conditioned(Z[idx], tol) for idx in combination_blocks(P, k))


def all_subsets_well_conditioned(Z: NDArray[np.float64], tol: float) -> bool:
    """The verdict of :func:`all_subsets_svd`, screened by determinants (see module notes).

    Examples
    --------
    >>> Z = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> all_subsets_well_conditioned(Z, 1e-9), all_subsets_well_conditioned(Z[[0, 0, 1]], 1e-9)
    (True, False)
    """
    from perclib._validation import row_norms

    P, D = Z.shape
    if P < D:  # one subset, not square: the SVD itself
        return not _ill_conditioned(Z[None], tol)
    norms = row_norms(Z)
    if np.any(norms == 0):
        return False  # a zero row makes every subset holding it singular: s_min = 0
    U = Z / norms[:, None]
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        square, inverse_square = norms * norms, 1.0 / (norms * norms)  # 1e-200 rows: inf
    for idx in combination_blocks(P, D):
        volume = np.abs(np.linalg.det(U[idx]))
        with np.errstate(over="ignore"):
            spread = np.sqrt(np.sum(square[idx], axis=1) * np.sum(inverse_square[idx], axis=1))
        unsure = ~(volume > SCREEN * tol * spread)  # inf spread: unsure too
        if np.any(unsure) and _ill_conditioned(Z[idx[unsure]], tol):
            return False
    return True
