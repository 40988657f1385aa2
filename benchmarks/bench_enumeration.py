"""Separable dichotomies: listing them (two ways) and counting them without listing.

Part 1, enumeration: both methods run in one process on the same seeded Gaussian
points and must find exactly Cover's C(P, N) labelings. The point-by-point method
(``perclib.count_dichotomies``) is measured twice: as used by perclib, and with
its two LP-saving shortcuts (conflict certificates, rotated separators) turned
off, i.e. one LP for every extension its stored separator does not give for free.
The reference tests all 2**P labelings with one LP each. Times are medians over
``--repeats`` runs (the reference runs once: it is slow); CPU time is shown next
to wall time because the wall clock suffers when the machine is shared.

Part 2, counting (issues 41 and 52): ``count_dichotomies`` as it was before issue 41
(the point-by-point LP enumeration, counted), deletion-restriction on the hyperplanes
(issue 41, exact integers, no listing) and ``count_dichotomies`` now (issue 52:
closed forms near P = N, Cover's count in general position, the cube counted with
its symmetry by the finite field method, perclib._cube), side by side: 20 random
integer points in 3-D, the 4-, 5- and 6-cube with a threshold (1,882, 94,572 and
15,028,134 threshold functions, OEIS A000609), the 6-cube in shuffled order, the +-1
7-cube through the origin (the 6-cube's arrangement) and 18 Gaussian points in 18-D.
Each answer is checked against Cover's formula or the OEIS value. The LP method on
the 5-cube takes minutes (``--old-5cube`` runs it); on the 6-cube it is not run (its
answer would be fifteen million LP-checked rows). ``--cube7`` also tries the 7-cube
(8,378,070,864) in a subprocess with a time limit, and reports whether it finished.

Run: ``python benchmarks/bench_enumeration.py [--part all|enumeration|counting]
[--P 14] [--N 3] [--seed 2026] [--old-5cube] [--cube7 SECONDS]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from perclib import boolean_cube, count_dichotomies, cover_count, gaussian_patterns
from perclib._cube import cube_work
from perclib._regions import count_regions, essential, pattern_normals
from perclib.counting import _enumerate_bruteforce, _enumerate_incremental, _unit_rows

#: Threshold functions of n inputs (OEIS A000609), n = 0 .. 7.
A000609 = [2, 4, 14, 104, 1882, 94572, 15028134, 8378070864]


def measure(fn, repeats: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``fn()`` over ``repeats`` runs, and its result."""
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), out


def old_count(X: np.ndarray, threshold: bool) -> int:
    """``count_dichotomies`` before issue 41: the LP enumeration, counted (no size limit)."""
    U = _unit_rows(X, threshold)
    return 0 if U is None else int(_enumerate_incremental(U)[0].shape[0])


def plain_count(X: np.ndarray, threshold: bool) -> int:
    """Deletion-restriction on the hyperplanes (issue 41), with no formula and no symmetry."""
    normals = pattern_normals(X, threshold)
    return 0 if normals is None else count_regions(essential(normals)[0])


def counting_cases(seed: int, old_5cube: bool) -> list[tuple[str, np.ndarray, bool, int | None, bool, bool]]:
    """(name, patterns, threshold, known answer or None, run the LP method, run the plain one)."""
    ints = np.random.default_rng(seed).integers(-10, 11, size=(20, 3)).astype(float)
    # Random integer points in -10..10 are often not in general position (a few
    # coplanar triples with the origin): the reference is the old method's count,
    # and Cover's count is shown as the upper bound it must not exceed.
    gauss = gaussian_patterns(18, 18, rng=seed)
    return [
        ("20 random integer points in 3-D", ints, False, None, True, True),
        ("the same, with a threshold", ints, True, None, True, True),
        ("4-cube, threshold", boolean_cube(4), True, A000609[4], True, True),
        ("5-cube, threshold", boolean_cube(5), True, A000609[5], old_5cube, True),
        ("6-cube, threshold", boolean_cube(6), True, A000609[6], False, True),
        ("6-cube, rows shuffled", boolean_cube(6)[np.random.default_rng(seed).permutation(64)],
         True, A000609[6], False, True),
        ("+-1 7-cube through the origin", 2 * boolean_cube(7) - 1, False, A000609[6], False, True),
        ("18 Gaussian points in 18-D", gauss, False, 2**18, False, False),
    ]


def counting_table(seed: int, old_5cube: bool, repeats: int) -> bool:
    print("Counting separable labelings: LP enumeration (before issue 41), deletion-restriction "
          "on the hyperplanes (issue 41) and count_dichotomies now (issue 52: closed forms, "
          "general position, the cube's symmetry)\n")
    header = (f"{'problem':<31} {'known':>13} {'LP count':>11} {'LP CPU s':>9} "
              f"{'d-r count':>11} {'d-r CPU s':>9} {'now count':>11} {'now CPU s':>9} "
              f"{'now wall s':>10} {'d-r/now':>8}")
    print(header)
    print("-" * len(header))
    all_ok = True
    for name, X, threshold, known, run_old, run_plain in counting_cases(seed, old_5cube):
        wall, cpu, new = measure(
            lambda X=X, t=threshold: count_dichotomies(X, threshold=t, max_work=None), repeats
        )
        bound = cover_count(len(X), X.shape[1] + threshold)
        ok = new == known if known is not None else new <= bound
        known_text = f"{known:,}" if known is not None else f"<= {bound:,}"
        old_text, old_cpu_text = "not run", ""
        if run_old:
            _, old_cpu, old = measure(lambda X=X, t=threshold: old_count(X, t), 1)
            ok &= old == new
            old_text, old_cpu_text = f"{old:,}", f"{old_cpu:.3f}"
        plain_text, plain_cpu_text, speed = "not run", "", ""
        if run_plain:
            _, plain_cpu, plain = measure(lambda X=X, t=threshold: plain_count(X, t), 1)
            ok &= plain == new
            plain_text, plain_cpu_text = f"{plain:,}", f"{plain_cpu:.3f}"
            speed = f"{plain_cpu / max(cpu, 1e-6):.1f}x"
        all_ok &= ok
        print(f"{name:<31} {known_text:>13} {old_text:>11} {old_cpu_text:>9} {plain_text:>11} "
              f"{plain_cpu_text:>9} {new:>11,} {cpu:>9.3f} {wall:>10.3f} {speed:>8}"
              f"{'' if ok else '  MISMATCH'}")
    print("(known: OEIS A000609 for the cubes, Cover's count for the Gaussian points, Cover's "
          "bound for the random integers; every method run must agree. d-r: deletion-restriction "
          "alone, which on the 18 x 18 Gaussian points visits 2**17 flats (76 s in issue 52), "
          "so it is not run. Now: median of the repeats; the others: one run. CPU seconds are "
          "the fair figure on a shared machine.)")
    return all_ok


def cube7(seconds: float) -> None:
    """Try the 7-cube's 8,378,070,864 threshold functions in a subprocess with a time limit."""
    print(f"\n7-cube, threshold, by the cube's symmetry: {cube_work(7):,} steps "
          f"(the 6-cube: {cube_work(6):,}), at primes from 79 to 103, where the subset sums "
          "of a weight vector take two 64-bit words instead of one.")
    code = ("import time; from perclib import boolean_cube, count_dichotomies; "
            "t = time.process_time(); "
            "n = count_dichotomies(boolean_cube(7), threshold=True, max_work=None); "
            "print(n, time.process_time() - t)")
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=seconds, check=True).stdout.split()
    except subprocess.TimeoutExpired:
        print(f"7-cube, threshold: not finished within {seconds:.0f} s (stopped).")
        return
    count, cpu = int(out[0]), float(out[1])
    verdict = "= OEIS A000609(7)" if count == A000609[7] else "MISMATCH with A000609(7)"
    print(f"7-cube, threshold: {count:,} in {cpu:.0f} CPU s ({verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("all", "enumeration", "counting"), default="all")
    parser.add_argument("--P", type=int, default=14)
    parser.add_argument("--N", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--old-5cube", action="store_true",
                        help="also run the old LP enumeration on the 5-cube (minutes)")
    parser.add_argument("--cube7", type=float, metavar="SECONDS", default=0.0,
                        help="also try the 7-cube, stopped after this many seconds")
    args = parser.parse_args()
    ok = True
    if args.part in ("all", "enumeration"):
        ok &= enumeration_table(args)
    if args.part in ("all", "counting"):
        if args.part == "all":
            print()
        ok &= counting_table(args.seed, args.old_5cube, args.repeats)
        if args.cube7 > 0:
            cube7(args.cube7)
    if not ok:
        raise SystemExit("MISMATCH: a method did not find the known number of labelings")


def enumeration_table(args: argparse.Namespace) -> bool:
    X = gaussian_patterns(args.P, args.N, rng=args.seed)
    U = _unit_rows(X, threshold=False)
    expected = cover_count(args.P, args.N)

    runs = {
        "point by point (perclib)": measure(lambda: _enumerate_incremental(U), args.repeats),
        "point by point, no shortcuts": measure(
            lambda: _enumerate_incremental(U, shortcuts=False), args.repeats
        ),
        "every labeling, one LP each": measure(lambda: _enumerate_bruteforce(U), 1),
    }
    # The public count (regions of the arrangement) must agree with the enumeration.
    assert count_dichotomies(X) == len(runs["point by point (perclib)"][2][0])

    ref_wall, ref_cpu, (ref_rows, _) = runs["every labeling, one LP each"]
    ref_set = {tuple(r) for r in ref_rows.tolist()}
    print(f"P = {args.P} Gaussian points in N = {args.N} dimensions (seed {args.seed}), "
          f"no threshold; Cover's C({args.P}, {args.N}) = {expected}; "
          f"2**{args.P} = {2**args.P} labelings\n")
    header = (f"{'method':<30} {'count':>6} {'= C?':>5} {'same set':>9} {'LPs':>6} "
              f"{'other':>6} {'wall s':>8} {'CPU s':>8} {'speed-up wall/CPU':>18}")
    print(header)
    print("-" * len(header))
    all_ok = True
    for name, (wall, cpu, (rows, stats)) in runs.items():
        count = len(rows)
        same = {tuple(r) for r in rows.tolist()} == ref_set
        ok = count == expected and same
        all_ok &= ok
        other = sum(v for k, v in stats.items() if k != "lp")
        print(f"{name:<30} {count:>6} {'yes' if count == expected else 'NO':>5} "
              f"{'yes' if same else 'NO':>9} {stats['lp']:>6} {other:>6} {wall:>8.3f} "
              f"{cpu:>8.3f} {ref_wall / wall:>8.1f}x /{ref_cpu / cpu:>6.1f}x")
    print()
    for name, (_, _, (_, stats)) in runs.items():
        if len(stats) > 1:
            detail = ", ".join(f"{k} {v}" for k, v in stats.items())
            print(f"{name}: extensions decided by {detail}")
    print("(free = the stored separator already gives that sign; conflict = an earlier "
          "LP's certificate applies; rotation = a rotated separator works)")
    return all_ok


if __name__ == "__main__":
    main()
