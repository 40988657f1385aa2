"""Start a Jupyter kernel, again if it lost the race for its ports.

``jupyter_client`` chooses a kernel's five TCP ports by binding to port 0 and letting
go; the kernel binds them a moment later. When several kernels start at once (the
players render lessons in parallel, pytest runs on two workers, nbval starts its own),
another process can take a port in between, and the new kernel dies with "Address
already in use" before it answers ``kernel_info``. The ports are drawn afresh on each
start, so a second start almost always succeeds; a kernel that dies for any other
reason dies three times and the last error is raised.
"""

from __future__ import annotations

import time
from typing import Any

ATTEMPTS = 3


def start_kernel(kernel_name: str = "python3", attempts: int = ATTEMPTS,
                 **kwargs: Any) -> tuple[Any, Any]:
    """Start a kernel and return ``(manager, client)``, as ``start_new_kernel`` does.

    Parameters
    ----------
    kernel_name : str
        The kernel spec to start.
    attempts : int
        How many starts to try before the last error is raised.
    **kwargs
        Passed to ``jupyter_client.manager.start_new_kernel`` (``cwd``, ``env``,
        ``startup_timeout``...).

    Examples
    --------
    >>> manager, client = start_kernel(cwd=".")          # doctest: +SKIP
    >>> manager.shutdown_kernel(now=True)                # doctest: +SKIP
    """
    from jupyter_client.manager import start_new_kernel

    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, got {attempts}")
    for attempt in range(1, attempts + 1):
        try:
            return start_new_kernel(kernel_name=kernel_name, **kwargs)
        except RuntimeError as error:
            # start_new_kernel shuts the dead kernel down itself before it raises.
            if "died" not in str(error) or attempt == attempts:
                raise
            time.sleep(0.2 * attempt)
    raise AssertionError("unreachable")  # the loop returns or raises
