"""Which rows a figure's data table keeps of a long series (``CourseFigure.set_data_table``).

A table under a figure is read, not scrolled through: a long run is sampled on a
logarithmic grid, the way its log axis shows it (dense at the start, sparse later).

Examples
--------
>>> log_steps(1, 1000, 5)
[1, 6, 32, 178, 1000]
"""

from __future__ import annotations

import numpy as np


def log_steps(first: int, last: int, n: int) -> list[int]:
    """About ``n`` whole numbers from ``first`` to ``last`` (both kept, ``first >= 1``),
    evenly spaced on a log scale, without repeats, in order.

    Examples
    --------
    >>> log_steps(1, 4, 10)
    [1, 2, 3, 4]
    """
    return [int(k) for k in np.unique(np.geomspace(first, last, n).round().astype(int))]
