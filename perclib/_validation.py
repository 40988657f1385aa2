"""Input checks shared by every public function.

Validation happens once, at the public boundary, so the numerical code behind it
can assume clean ``float64`` arrays. Every failure names the argument and what is
wrong with it, because the people reading these errors are students.
"""

from __future__ import annotations

import numbers
from typing import TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

T = TypeVar("T", float, NDArray[np.float64])


def reject_complex(value: ArrayLike, name: str, what: str) -> None:
    """Refuse complex input: casting it to float would silently drop the imaginary part.

    Examples
    --------
    >>> reject_complex([1.0, 2.0], "w", "real")  # real input passes silently
    """
    try:
        complex_input = np.iscomplexobj(value)
    except (TypeError, ValueError):
        return  # ragged or non-numeric: the float conversion that follows reports it
    if complex_input:
        raise TypeError(f"{name} must be {what}, got complex numbers")


def as_float_array(value: object, name: str, what: str) -> NDArray[np.float64]:
    """The one converter of array arguments to float64, with clear errors.

    Refuses strings (also numeric ones: ``"1.5"`` is text, not a number), masked
    arrays with masked entries (their mask would be lost silently), complex numbers,
    ragged or non-numeric input (TypeError), and numbers beyond float64's range such
    as ``2**1100`` (ValueError rather than a raw OverflowError). ``what`` describes the
    expected value for the message ("a 2-D array of numbers").

    Examples
    --------
    >>> as_float_array([1, 2], "w", "a vector").tolist()
    [1.0, 2.0]
    >>> as_float_array(["1", "2"], "w", "a vector")
    Traceback (most recent call last):
    ...
    TypeError: w must be a vector, got text ('1'); convert strings to numbers first
    """
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} must be {what}, got a string")
    if isinstance(value, np.ma.MaskedArray):
        if np.any(np.ma.getmaskarray(value)):
            raise ValueError(
                f"{name} is a masked array with masked entries; remove them (or fill them "
                "with .filled()) first: perclib would otherwise use the hidden values"
            )
        value = np.ma.getdata(value)
    reject_complex(value, name, what.replace("numbers", "real numbers", 1))
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be {what}: {err}") from None
    if raw.dtype.kind in "USV":
        sample = str(raw.flat[0]) if raw.size else ""
        raise TypeError(f"{name} must be {what}, got text ({sample!r}); convert strings to numbers first")
    if raw.dtype.kind == "O":
        for item in raw.flat:
            if isinstance(item, str | bytes):
                raise TypeError(
                    f"{name} must be {what}, got text ({item!r}); convert strings to numbers first"
                )
    try:
        return np.asarray(raw, dtype=np.float64)
    except OverflowError:
        raise ValueError(f"{name} contains a number too large for float64 (beyond 1.8e308)") from None
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be {what}: {err}") from None


def as_patterns(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite, non-empty ``(P, N)`` float64 array or raise.

    Examples
    --------
    >>> as_patterns([[1, 2], [3, 4]]).shape
    (2, 2)
    """
    arr = as_float_array(X, name, "a 2-D array of numbers")
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D with one pattern per row (shape (P, N)), got shape {arr.shape}"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: it has no patterns (shape {arr.shape})")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has patterns of dimension 0 (shape {arr.shape})")
    if not _all_finite(arr):
        bad = int(np.count_nonzero(~np.isfinite(arr)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s)")
    return arr



def as_plane_points(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """:func:`as_patterns` for figures and tools that work in the plane: shape ``(P, 2)``.

    Examples
    --------
    >>> as_plane_points([[1, 2]]).shape
    (1, 2)
    """
    arr = as_patterns(X, name)
    if arr.shape[1] != 2:
        raise ValueError(
            f"{name} must hold points of the plane (2 columns, shape (P, 2)), got shape {arr.shape}"
        )
    return arr


def as_plane_data(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Labelled patterns of the plane: :func:`as_plane_points` and :func:`as_labels`.

    Examples
    --------
    >>> X, y = as_plane_data([[1, 2], [3, 4]], [1, -1])
    >>> X.shape, y.tolist()
    ((2, 2), [1.0, -1.0])
    """
    X = as_plane_points(X)
    return X, as_labels(y, X.shape[0])

def _all_finite(arr: NDArray[np.float64]) -> bool:
    """Whether every entry is finite, in one fast pass for the usual case.

    The sum of squares (one BLAS dot product, no temporary array) is finite when
    every entry is finite and moderate; only when it is not (a NaN, an inf, or
    entries beyond 1e154 whose squares overflow) are the entries checked one by one.
    """
    flat = arr.ravel()
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(flat @ flat):
            return True
    return bool(np.all(np.isfinite(arr)))


def as_labels(y: ArrayLike, n_patterns: int | None = None, name: str = "y") -> NDArray[np.float64]:
    """Return labels as a float64 vector of -1/+1 or raise.

    Labels must be exactly -1 or +1; {0, 1} labels are rejected with a hint to
    convert them explicitly (``to_pm1``), since silently mapping 0 would hide a bug.

    Examples
    --------
    >>> as_labels([1, -1, 1], 3)
    array([ 1., -1.,  1.])
    """
    arr = as_float_array(y, name, "a 1-D array of labels -1/+1")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per pattern), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: there are no labels")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values; labels must be -1 or +1")
    bad = ~np.isin(arr, (-1.0, 1.0))
    if np.any(bad):
        found = np.unique(arr[bad])[:5]
        hint = " (for {0, 1} labels use perclib.to_pm1 first)" if np.all(np.isin(arr, (0, 1))) else ""
        raise ValueError(f"{name} must contain only -1 and +1, found {found.tolist()}{hint}")
    if n_patterns is not None and arr.size != n_patterns:
        raise ValueError(
            f"{name} has {arr.size} labels but there are {n_patterns} patterns; "
            "lengths must match"
        )
    return arr


def as_weights(w: ArrayLike, dim: int | None = None, name: str = "w") -> NDArray[np.float64]:
    """Return a finite float64 weight vector (of length ``dim`` if given) or raise.

    Examples
    --------
    >>> as_weights([1, 0], 2)
    array([1., 0.])
    """
    arr = as_float_array(w, name, "a 1-D array of numbers")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if dim is not None and arr.size != dim:
        raise ValueError(
            f"{name} has length {arr.size} but the patterns have dimension {dim}"
        )
    return arr


def as_count(value: object, name: str, minimum: int = 0) -> int:
    """Return ``value`` as a Python int >= ``minimum`` or raise.

    Booleans and floats are rejected: ``cover_count(3.5, 2)`` is a mistake, not a
    request for rounding.

    Examples
    --------
    >>> as_count(3, "P")
    3
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def row_norms(A: NDArray[np.float64]) -> NDArray[np.float64]:
    """Euclidean norms of the rows of ``A`` without overflow or underflow.

    ``sqrt(sum x**2)`` overflows for entries beyond about 1e154 and loses everything
    below 1e-154; dividing each row by its largest entry first keeps the squares near
    1, so the norm of ``1e200 * x`` is ``1e200 * ||x||`` (or inf only past 1.8e308).

    Examples
    --------
    >>> row_norms(np.array([[3.0, 4.0], [6.0, 8.0]]) * 2.0**700).tolist() == [5 * 2.0**700, 10 * 2.0**700]
    True
    """
    A = np.asarray(A, dtype=np.float64)
    top = np.max(np.abs(A), axis=-1) if A.shape[-1] else np.zeros(A.shape[:-1])
    e = np.frexp(top)[1]
    # Rows of ordinary size are not touched (same result as numpy's norm); the others
    # are scaled by a power of two, which is exact.
    e = np.where(np.abs(e) < 480, 0, e)
    with np.errstate(over="ignore"):
        return np.ldexp(np.sqrt(np.sum(np.ldexp(A, -e[..., None]) ** 2, axis=-1)), e)


def unit_rows(A: NDArray[np.float64]) -> NDArray[np.float64]:
    """The rows of ``A`` scaled to unit length at any float64 scale (zero rows stay zero).

    Each row is first scaled by a power of two (exact) so that its largest entry is
    in [1/2, 1): a row near 1.8e308 would otherwise get the norm inf and become the
    zero vector. For rows of ordinary size the result is bit for bit that of dividing
    by ``max|x| * ||x / max|x|| ||``.

    Examples
    --------
    >>> unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]]) * 2.0**1020).round(12).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    """
    top = np.max(np.abs(A), axis=1) if A.shape[1] else np.zeros(A.shape[0])
    A = np.ldexp(A, -np.frexp(top)[1][:, None])
    amax = np.max(np.abs(A), axis=1) if A.shape[1] else top
    safe = np.where(amax > 0, amax, 1.0)
    norms = amax * np.linalg.norm(A / safe[:, None], axis=1)
    return A / np.where(norms > 0, norms, 1.0)[:, None]


def homogeneous(X: NDArray[np.float64], threshold: bool) -> NDArray[np.float64]:
    """Patterns seen by hyperplanes through the origin: ``(x, c)`` with a threshold.

    The one scale rule for every function that appends a constant coordinate: the
    constant ``c`` is the data's largest absolute entry (1 for all-zero data). Any
    positive ``c`` gives the same separable labellings and the same affine
    dependences, but only one that scales with the data makes the answer
    independent of units: ``homogeneous(s * X)`` is ``s * homogeneous(X)`` up to one
    rounding per entry, for every factor ``s``, whereas a constant 1 next to entries
    of 1e9 vanishes in rounding (and dominates entries of 1e-9).

    Examples
    --------
    >>> homogeneous(np.array([[2.0, -4.0]]), True).tolist()
    [[2.0, -4.0, 4.0]]
    >>> homogeneous(np.array([[2.0, -4.0]]) * 1e9, True).tolist()
    [[2000000000.0, -4000000000.0, 4000000000.0]]
    """
    if not threshold:
        return X
    top = float(np.max(np.abs(X))) if X.size else 0.0
    return np.hstack([X, np.full((X.shape[0], 1), top if top > 0 else 1.0)])


def exponent(A: NDArray[np.float64]) -> int:
    """Exponent ``e`` with ``max |A| < 2**e <= 2 max |A|`` (0 for an all-zero array).

    Examples
    --------
    >>> exponent(np.array([3.0, -1e-3]))
    2
    """
    top = float(np.max(np.abs(A))) if np.size(A) else 0.0
    return int(np.frexp(top)[1]) if top > 0 and np.isfinite(top) else 0


def unit_scaled(A: NDArray[np.float64]) -> NDArray[np.float64]:
    """``A`` divided by the power of two :func:`exponent` gives: largest entry in [1/2, 1).

    Scaling by a power of two is exact, so directions, signs and ratios are unchanged,
    while dot products of such arrays can neither overflow nor underflow.

    Examples
    --------
    >>> unit_scaled(np.array([3.0, -1.0])).tolist()
    [0.75, -0.25]
    >>> unit_scaled(np.array([3.0, -1.0]) * 2.0**700).tolist()
    [0.75, -0.25]
    """
    return np.ldexp(A, -exponent(A))


def refuse_overflow(value: T, what: str, name: str = "X") -> T:
    """``value`` if every entry is finite; otherwise a ValueError that says what to do.

    For answers in the data's units (norms, margins, bounds) of data near float64's
    maximum: the true value exists but is not a float64, and inf or nan would be a
    silently wrong answer.

    Examples
    --------
    >>> refuse_overflow(2.5, "the radius")
    2.5
    """
    if not np.all(np.isfinite(value)):
        raise ValueError(
            f"{name}: {what} is beyond float64's range (about 1.8e308); divide {name} by "
            "a power of two such as 2**64 (exact) and scale the answer back"
        )
    return value


def norm(v: NDArray[np.float64]) -> float:
    """Euclidean norm of a vector, safe at any scale (see :func:`row_norms`).

    Examples
    --------
    >>> norm(np.array([3.0, 4.0]) * 2.0**-1000) == 5 * 2.0**-1000
    True
    """
    return float(row_norms(np.asarray(v, dtype=np.float64)[None, :])[0])


def as_flag(value: object, name: str) -> bool:
    """Return ``value`` as a bool, refusing anything but True/False (and numpy bools).

    Examples
    --------
    >>> as_flag(True, "threshold")
    True
    """
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def as_real(value: object, name: str) -> float:
    """Return ``value`` as a finite float (any sign) or raise.

    Examples
    --------
    >>> as_real(-2, "coef0")
    -2.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = _to_float(value, name)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def _to_float(value: numbers.Real, name: str) -> float:
    """``float(value)``, with a clear error for integers beyond float64 (``2**1100``)."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large for float64 (beyond 1.8e308), got an integer "
                         f"of {int(value).bit_length()} bits") from None


def as_positive_float(value: object, name: str) -> float:
    """Return ``value`` as a finite float > 0 or raise.

    Examples
    --------
    >>> as_positive_float(0.5, "eta")
    0.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = _to_float(value, name)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return value


def as_limit(value: object, name: str) -> int | None:
    """A work limit: None (no limit) or an int >= 1.

    Examples
    --------
    >>> as_limit(None, "max_work") is None
    True
    """
    return None if value is None else as_count(value, name, 1)


def refuse_work(work: int, limit: int | None, *, task: str, unit: str, name: str = "max_work") -> None:
    """Stop, before any work, a computation estimated to need more than ``limit`` units.

    The message names the task and its size, the estimate, the limit and the keyword
    that lifts it, so that a student who asks for too much learns why and what to do.

    Examples
    --------
    >>> refuse_work(10, 100, task="a small job", unit="steps")   # below the limit: silent
    """
    if limit is not None and work > limit:
        raise ValueError(
            f"{task} needs about {work:,} {unit}, more than {name}={limit:,}; it would run "
            f"for a long time or exhaust memory. Pass a larger {name} (or {name}=None) "
            "to run it anyway."
        )


def as_rng(rng: object) -> np.random.Generator:
    """Turn ``None``, an int seed or a Generator into a ``numpy.random.Generator``.

    Examples
    --------
    >>> int(as_rng(0).integers(10)) == int(as_rng(0).integers(10))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be None, an int seed or a numpy.random.Generator, got {rng!r}")
