"""Mutation testing of the exercise checks, sampled (issue 40).

``python -m coursetools.mutation`` runs every mutant of every exercise's solution against
its full check and writes ``docs/mutation-report.md`` (minutes of CPU). Here, a seeded
sample keeps it honest in CI: one lesson and a few of its mutants, each of which must be
killed by the check or listed, with a reason, in ``tests/mutation_equivalents.toml``.
The seed is ``MUTATION_SEED`` or, by default, the commit being tested, so that
successive commits sample different mutants. The mutator and the list of equivalents
are tested whole (cheap: no lesson runs).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from coursetools.authoring.mutation import EQUIVALENTS, exercises, lessons, load_equivalents, mutants

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = 12  # mutants per CI run (about a minute of CPU with the lesson's own run)

TOY = '''def f(x, n):
    ### BEGIN SOLUTION
    total = 0.0
    for k in range(n):
        if abs(x[k]) <= 0:
            return total
        total += x[k] / 2.0
    return float(total)
    ### END SOLUTION
'''


def test_the_mutator_makes_every_kind_of_mutant_inside_the_solution_only() -> None:
    made = {m.operator for m in mutants(TOY)}
    assert made >= {"compare", "tolerance", "constant", "dtype", "call", "normalisation",
                    "arith", "range", "swap", "early-return", "loop-cut", "drop"}, made
    for mutant in mutants(TOY):
        compile(mutant.source, mutant.id, "exec")        # every mutant is valid Python
        assert mutant.source.startswith("def f(x, n):")  # the signature is untouched
    ids = [m.id for m in mutants(TOY)]
    assert len(ids) == len(set(ids)) and ids == [m.id for m in mutants(TOY)]  # unique, stable
    assert "range: range(n) -> range(n - 1)" in ids
    assert "call: abs(x[k]) -> x[k]" in ids


def test_a_mutant_really_changes_what_the_code_does() -> None:
    namespace: dict = {}
    by_id = {m.id: m for m in mutants(TOY)}
    exec(by_id["loop-cut: break after the first pass of 'for k in range(n):'"].source, namespace)
    assert namespace["f"]([2.0, 4.0], 2) == 1.0      # the solution gives 3.0


def _all_mutant_ids() -> dict[str, set[str]]:
    return {ex.key: {m.id for m in mutants(ex.answer)}
            for notebook in lessons([]) for ex in exercises(notebook)}


def test_every_listed_equivalent_names_a_real_mutant_with_a_reason() -> None:
    listed = load_equivalents()
    assert EQUIVALENTS.exists()
    real = _all_mutant_ids()
    for key, entries in listed.items():
        assert key in real, f"{key}: no such exercise (renamed? update the list)"
        for mid, reason in entries.items():
            assert mid in real[key], f"{key}: no mutant {mid!r} (the solution changed?)"
            assert isinstance(reason, str) and len(reason.split()) >= 4, (
                f"{key} {mid!r}: say in one line why it is equivalent")


def _seed() -> str:
    if "MUTATION_SEED" in os.environ:
        return os.environ["MUTATION_SEED"]
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True, check=False)
    # The short commit id in hexadecimal, as the integer the tool's --seed takes.
    return str(int(done.stdout.strip() or "0", 16))


def test_a_seeded_sample_of_mutants_is_killed_or_listed_as_equivalent(tmp_path: Path) -> None:
    seed = _seed()
    notebook = random.Random(seed).choice(lessons([]))
    out = tmp_path / "results.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-m", "coursetools.mutation", str(notebook),
                           "--sample", str(SAMPLE), "--seed", seed, "--json", str(out),
                           "--no-report"], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=900, check=False)
    assert out.exists(), f"seed {seed}, {notebook.name}: the run failed\n{done.stdout[-3000:]}" \
                         f"\n{done.stderr[-3000:]}"
    results = json.loads(out.read_text())
    assert results, f"seed {seed}: no mutant ran"
    listed = load_equivalents()
    survivors = [f"{r['exercise']}: {r['mutant']}" for r in results
                 if r["outcome"] == "survived" and r["mutant"] not in listed.get(r["exercise"], {})]
    stale = [f"{r['exercise']}: {r['mutant']}" for r in results
             if r["outcome"] != "survived" and r["mutant"] in listed.get(r["exercise"], {})]
    assert not survivors, (f"seed {seed}: mutants the check lets through (kill them with a "
                           "hidden test, or list them with a reason):\n" + "\n".join(survivors))
    assert not stale, f"seed {seed}: listed as equivalent but killed:\n" + "\n".join(stale)


@pytest.mark.parametrize("notebook", lessons([]), ids=lambda p: p.stem)
def test_every_exercise_has_mutants(notebook: Path) -> None:
    for ex in exercises(notebook):
        assert mutants(ex.answer), f"{ex.key}: no mutant (is the solution between the markers?)"
