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


def test_unknown_family_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="family: 'solvers' is not one of"), without(family="solvers"):
        pass


def _members() -> list[tuple[str, str]]:
    from perclib.checking import FAMILIES

    return [(family, name) for family, names in FAMILIES.items() for name in names]


@pytest.mark.parametrize(("family", "name"), _members(), ids=lambda v: v)
def test_every_member_of_a_family_is_refused_by_every_route(family: str, name: str) -> None:
    """Alias, default argument, closure and class attribute: the function itself is blocked."""
    from perclib.checking import _resolve

    function = _resolve(name)
    short = name.rpartition(".")[2]

    def by_default(*args, _f=function):
        return _f(*args)

    def make_closure():
        held = function
        return lambda *args: held(*args)

    class Holder:
        solve = staticmethod(function)

    alias = function
    routes = {"alias": alias, "default argument": by_default, "closure": make_closure(),
              "class attribute": Holder.solve}
    with without(family=family, reason="write it yourself"):
        for route, call in routes.items():
            with pytest.raises(AssertionError, match=f"not perclib.{short}: write it yourself"):
                call([[1.0, 0.0]], [1])
                pytest.fail(f"{name} escaped the guard through a {route}")
    # Restored: the real code runs again (it may reject these arguments, but not as blocked).
    try:
        function([[1.0, 0.0]], [1])
    except AssertionError as error:  # pragma: no cover - would mean the guard stayed on
        assert "asks for your own code" not in str(error)
    except Exception:
        pass


def test_restored_after_keyboard_interrupt() -> None:
    code = perclib.perceptron.__code__
    with pytest.raises(KeyboardInterrupt), without(family="perceptron"):
        raise KeyboardInterrupt
    assert perclib.perceptron.__code__ is code
    assert perclib.perceptron([[1.0, 0.0]], [1]).n_updates == 1


def test_private_helpers_can_be_named() -> None:
    from perclib import counting

    with without("counting.separable_dichotomies_bruteforce"):
        with pytest.raises(AssertionError, match="separable_dichotomies_bruteforce"):
            counting.separable_dichotomies_bruteforce([[1.0]])
    assert len(counting.separable_dichotomies_bruteforce([[1.0]])) == 2
    with pytest.raises(ValueError, match="does not exist"), without("counting.no_such_helper"):
        pass
