"""perclib.checking.without: the exercise checks' switch for perclib functions."""

from __future__ import annotations

import sys

import pytest

import perclib
from perclib.checking import without


def test_every_route_to_the_function_is_blocked_and_restored() -> None:
    main = vars(sys.modules["__main__"])
    main["my_alias"] = perclib.cover_count
    original = perclib.cover_count
    from perclib import counting
    try:
        with without("cover_count", reason="sum the binomials yourself"):
            for route in (perclib.cover_count, counting.cover_count, main["my_alias"]):
                with pytest.raises(AssertionError, match="not perclib.cover_count: sum the binomials"):
                    route(3, 2)
            assert perclib.separable_dichotomies is not None  # other names untouched
        assert perclib.cover_count is original and main["my_alias"] is original
        assert perclib.cover_count(3, 2) == 6
    finally:
        main.pop("my_alias", None)


def test_restored_even_when_the_block_raises() -> None:
    original = perclib.is_separable
    with pytest.raises(RuntimeError), without("is_separable"):
        raise RuntimeError("student code crashed")
    assert perclib.is_separable is original


def test_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'no_such' is not exported by perclib"), without("no_such"):
        pass
