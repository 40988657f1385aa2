"""Pattern generators: random patterns, the Boolean cube, XOR, teacher data.

Every generator that draws takes ``rng`` (a seed or a ``numpy.random.Generator``)
so that a notebook seeded once at the top is reproducible on any machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, as_real, as_rng, as_weights, norm, reject_complex

#: Largest n of :func:`boolean_cube` and :func:`boolean_function`: 2**20 vertices
#: (8 MB per coordinate); beyond, the tables no longer fit in a lesson.
MAX_CUBE_DIMENSION = 20


#: Largest array (bytes) the data generators build: 1 GiB, far beyond any lesson's data
#: (and the benchmarks' largest, 100,000 x 500); a larger request is a clear error up
#: front instead of minutes of drawing followed by a MemoryError.
MAX_DATA_BYTES = 2**30


def _allocate(shape: tuple[int, ...], draw, what: str) -> NDArray[np.float64]:
    """Call ``draw()``, turning numpy's MemoryError into a ValueError that names the size.

    Arrays beyond :data:`MAX_DATA_BYTES` are refused before anything is drawn.
    """
    size = 8 * math.prod(shape)
    if size > MAX_DATA_BYTES:
        names = "P x N" if len(shape) == 2 else "P"
        raise ValueError(
            f"{what} of shape {shape} ({names} = {math.prod(shape):,} numbers) would take "
            f"{size:,} bytes, more than the {MAX_DATA_BYTES:,} bytes (1 GiB) perclib's data "
            "generators build; ask for fewer patterns P" + (" or dimensions N" if len(shape) == 2 else "")
        )
    try:
        return draw()
    except MemoryError:
        raise ValueError(
            f"{what} of shape {shape} need {size:,} bytes, more memory than this machine "
            "can give; ask for fewer patterns or dimensions"
        ) from None


def _cube_dimension(n: object) -> int:
    n = as_count(n, "n", 1)
    if n > MAX_CUBE_DIMENSION:
        raise ValueError(
            f"n = {n} would give 2**{n} = {2**n:,} vertices; boolean_cube and "
            f"boolean_function accept n <= {MAX_CUBE_DIMENSION}"
        )
    return n


def gaussian_patterns(P: int, N: int, *, rng: object = None) -> NDArray[np.float64]:
    """``P`` patterns in ``N`` dimensions with i.i.d. standard normal entries.

    Such points are in general position with probability one (they have a density).

    Examples
    --------
    >>> gaussian_patterns(4, 3, rng=0).shape
    (4, 3)
    """
    P = as_count(P, "P", 1)
    N = as_count(N, "N", 1)
    gen = as_rng(rng)
    return _allocate((P, N), lambda: gen.standard_normal((P, N)), "patterns")


def random_labels(P: int, *, rng: object = None) -> NDArray[np.float64]:
    """``P`` labels drawn independently and uniformly from {-1, +1}.

    Examples
    --------
    >>> set(random_labels(20, rng=1).tolist()) <= {-1.0, 1.0}
    True
    """
    P = as_count(P, "P", 1)
    gen = as_rng(rng)
    return _allocate((P,), lambda: gen.choice(np.array([-1.0, 1.0]), size=P), "labels")


def boolean_cube(n: int) -> NDArray[np.float64]:
    """The ``2**n`` vertices of {0,1}^n, one per row, in binary counting order.

    Row ``i`` holds the binary digits of ``i``, most significant first, so for
    ``n = 2`` the rows are (0,0), (0,1), (1,0), (1,1).

    Examples
    --------
    >>> boolean_cube(2).tolist()
    [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    """
    n = _cube_dimension(n)
    i = np.arange(2**n)[:, None]
    return ((i >> np.arange(n - 1, -1, -1)) & 1).astype(np.float64)  # binary digits of i


def boolean_function(n: int, table: int | ArrayLike) -> NDArray[np.float64]:
    """Labels (-1/+1) of a Boolean function on the rows of ``boolean_cube(n)``.

    Parameters
    ----------
    n : int
        Number of inputs.
    table : int or array_like
        Either the function's number ``k`` in ``0 .. 2**(2**n) - 1`` (bit ``i`` of ``k``
        is the output on vertex ``i``), or the truth table itself as ``2**n`` values in
        {0, 1} or in {-1, +1}. ``n <= 20`` (:data:`MAX_CUBE_DIMENSION`), like
        :func:`boolean_cube`.

    Examples
    --------
    >>> boolean_function(2, [0, 0, 0, 1]).tolist()  # AND
    [-1.0, -1.0, -1.0, 1.0]
    >>> boolean_function(2, 6).tolist()  # 0b0110: XOR
    [-1.0, 1.0, 1.0, -1.0]
    """
    n = _cube_dimension(n)
    size = 2**n
    if isinstance(table, bool | np.bool_):
        raise TypeError(f"table must be a function number or a truth table, got {table!r}")
    if isinstance(table, int | np.integer):
        k = int(table)
        if k < 0 or k.bit_length() > size:  # k < 2**size without building 2**size
            top = f"{2**size - 1}" if n <= 3 else f"2**{size} - 1"
            raise ValueError(f"table (the function number) must be in 0 .. {top} for n = {n}, got {k}")
        raw = np.frombuffer(k.to_bytes(max(1, (size + 7) // 8), "little"), dtype=np.uint8)
        bits = np.unpackbits(raw, bitorder="little")[:size].astype(np.float64)
        return 2.0 * bits - 1.0
    if isinstance(table, str | bytes):
        raise TypeError(f"table must be a function number or a truth table, got the string {table!r}")
    reject_complex(table, "table", "a truth table of 0/1 or -1/+1 values")
    try:
        values = np.asarray(table, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise TypeError(f"table must be a function number or a truth table of numbers: {err}") from None
    if values.shape != (size,):
        raise ValueError(
            f"table (the truth table) must have {size} entries for n = {n}, got shape {values.shape}"
        )
    if np.all(np.isin(values, (0.0, 1.0))):
        return 2.0 * values - 1.0
    if np.all(np.isin(values, (-1.0, 1.0))):
        return values.copy()
    raise ValueError("table (the truth table) must hold only 0/1 or only -1/+1 values")


def xor() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The XOR problem: the four vertices of {0,1}^2 with labels -1, +1, +1, -1.

    Examples
    --------
    >>> X, y = xor()
    >>> y.tolist()
    [-1.0, 1.0, 1.0, -1.0]
    """
    return boolean_cube(2), boolean_function(2, [0, 1, 1, 0])


@dataclass(frozen=True)
class TeacherData:
    """Patterns labelled by a teacher: ``y = sign(teacher . x)``, every ``|teacher . x| >= margin``.

    Attributes
    ----------
    X : ndarray, shape (P, N)
    y : ndarray, shape (P,)
    teacher : ndarray, shape (N,)
        Unit-norm teacher vector.
    margin : float
        The teacher's margin on ``X``: exactly ``min_mu y_mu (teacher . x_mu)``.
    """

    X: NDArray[np.float64]
    y: NDArray[np.float64]
    teacher: NDArray[np.float64]
    margin: float

    def __iter__(self):
        # Allows ``X, y, teacher, margin = teacher_data(...)``.
        return iter((self.X, self.y, self.teacher, self.margin))


def teacher_data(
    P: int,
    N: int,
    *,
    margin: float = 0.0,
    teacher: ArrayLike | None = None,
    rng: object = None,
) -> TeacherData:
    """Linearly separable data (through the origin) with a chosen teacher margin.

    Gaussian patterns are drawn, labelled by a unit teacher ``u``, and each is moved
    along ``u`` so that its signed distance becomes ``|u.x| - min|u.x| + margin``.
    The teacher's margin is then exactly ``margin`` (attained by one pattern); the
    maximum margin of the data can only be larger. The shift depends on the whole
    sample (through ``min|u.x|``), so the patterns are exchangeable but *not*
    independent draws: for i.i.d. data (lesson 6's generalisation bounds) draw each
    pattern on its own.

    Parameters
    ----------
    P, N : int
        Number of patterns and their dimension.
    margin : float, default 0
        The teacher's margin, >= 0. With 0 the closest pattern lies on the hyperplane
        (not strictly separable by the teacher), so use a positive margin for training.
    teacher : array_like, optional
        Teacher direction (normalised here); drawn at random when omitted.
    rng : seed or Generator, optional

    Examples
    --------
    >>> d = teacher_data(50, 3, margin=0.2, rng=0)
    >>> round(float(min(d.y * (d.X @ d.teacher))), 12)
    0.2
    """
    P = as_count(P, "P", 1)
    N = as_count(N, "N", 1)
    margin = as_real(margin, "margin")
    if margin < 0:
        raise ValueError(f"margin must be a finite number >= 0, got {margin}")
    gen = as_rng(rng)
    if teacher is None:
        u = gen.standard_normal(N)
    else:
        u = as_weights(teacher, N, name="teacher")
    length = norm(u)  # safe at any scale: a teacher of 1e200 is a direction like any other
    if length == 0:
        raise ValueError("teacher must be a non-zero vector")
    u = u / length
    X = _allocate((P, N), lambda: gen.standard_normal((P, N)), "patterns")
    t = X @ u
    # Ties t == 0 have probability zero for Gaussian draws; label them +1 on purpose.
    y = np.where(t >= 0, 1.0, -1.0)
    target = y * (np.abs(t) - np.abs(t).min() + margin)
    shift = target - t
    # X + outer(shift, u), a block of rows at a time: the same numbers without a
    # second P x N array at the peak.
    rows = max(1, 2**22 // N)
    for lo in range(0, P, rows):
        X[lo : lo + rows] += np.outer(shift[lo : lo + rows], u)
    return TeacherData(X=X, y=y, teacher=u, margin=margin)


#: Lesson 6's exercise 2: x1 = (1, 2), x2 = (3, 0) with label +1 and x3 = (-1, -3) with -1.
LESSON_THREE_PATTERNS = ((1, 2), (3, 0), (-1, -3))


def three_patterns(seed: int | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Three integer patterns in the plane, strictly separable through the origin: ``(X, y)``.

    The first two have label +1, the third -1; no pattern is 0 and no two reflected patterns
    ``y x`` are parallel, so the maximum margin has one or two support patterns and can be
    found by hand. ``seed=None`` gives the lesson's own set (:data:`LESSON_THREE_PATTERNS`);
    a seed (a student's own, ``perclib.classroom.student_seed``) draws coordinates in -4..4.

    Examples
    --------
    >>> X, y = three_patterns()
    >>> X.tolist(), y.tolist()
    ([[1.0, 2.0], [3.0, 0.0], [-1.0, -3.0]], [1.0, 1.0, -1.0])
    >>> X, y = three_patterns(12345)
    >>> bool(np.all(X == np.round(X)) and np.abs(X).max() <= 4)
    True
    """
    y = np.array([1.0, 1.0, -1.0])
    if seed is None:
        return np.array(LESSON_THREE_PATTERNS, dtype=float), y
    rng = np.random.default_rng(seed)
    while True:
        J = rng.integers(-4, 5, size=(3, 2))  # the reflected patterns y x
        if not np.all(np.abs(J).max(axis=1) > 0):
            continue
        if any(J[a, 0] * J[b, 1] == J[a, 1] * J[b, 0] for a, b in ((0, 1), (0, 2), (1, 2))):
            continue
        # Strictly separable through 0 <=> the three directions leave a gap wider than
        # half a turn (no two are parallel, so no gap is exactly half a turn).
        angles = np.sort(np.arctan2(J[:, 1], J[:, 0]))
        gaps = np.diff(np.append(angles, angles[0] + 2 * np.pi))
        if gaps.max() > np.pi:
            return (J * y[:, None]).astype(float), y
