"""Autograde on several workers with a PostgreSQL gradebook (coursetools.classroom.scale).

Real nbgrader, the class's instructor configuration (sandbox kernel, the gradebook URL
read from the course folder), a throwaway PostgreSQL 15 cluster on loopback. Expected
scores come from the notebook's own points, never from the code under test.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cgroup_support import own_grading_cgroup  # noqa: E402
from pg_support import ThrowawayPostgres, pg_bin  # noqa: E402
from test_classroom import IN_CI, _hw_notebook  # noqa: E402

from coursetools.classroom.scale import autograde_many, check_gradebook, split_round_robin  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")


def test_split_and_sqlite_refusal() -> None:
    assert split_round_robin(list("abcde"), 2) == [["a", "c", "e"], ["b", "d"]]
    assert split_round_robin(["a"], 3) == [["a"]]
    check_gradebook("sqlite:///g.db", 1)
    check_gradebook("postgresql://u:p@h/db", 4)
    with pytest.raises(ValueError, match="one writer at a time"):
        check_gradebook("sqlite:///g.db", 2)


def test_two_workers_grade_into_postgres(tmp_path, monkeypatch, request) -> None:
    import json
    import secrets

    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from traitlets.config.loader import PyFileConfigLoader

    from coursetools.classroom.sandbox import KERNEL_NAME
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import gradebook_url_file, nbgrader_config_text, sandbox_kernel_text

    if pg_bin() is None or shutil.which("bwrap") is None:
        if IN_CI:
            pytest.fail("needs postgresql and bubblewrap (apt-get install postgresql bubblewrap)")
        pytest.skip("needs postgresql and bubblewrap")
    pg = ThrowawayPostgres().start()
    try:
        course = tmp_path / "course"
        (course / "source" / "hw").mkdir(parents=True)
        settings = ClassSettings(class_dir=tmp_path / "class", instructor="teacher", course_root=course,
                                 exchange_root=tmp_path / "exchange", gradebook_db_url=pg.url,
                                 course_id=f"t-{secrets.token_hex(3)}")
        own_grading_cgroup(settings, request)  # the kernels' memory limit, as setup makes it
        config_dir = tmp_path / "config"
        config_dir.mkdir()
        (config_dir / "nbgrader_config.py").write_text(nbgrader_config_text(settings, "instructor"))
        gradebook_url_file(settings).write_text(pg.url + "\n")
        spec = tmp_path / "share" / "kernels" / KERNEL_NAME / "kernel.json"
        spec.parent.mkdir(parents=True)
        spec.write_text(sandbox_kernel_text(settings))
        env = {**os.environ, "JUPYTER_PATH": str(tmp_path / "share"), "JUPYTER_CONFIG_PATH": str(config_dir),
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               "PYTHONPATH": str(ROOT)}
        for key in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PATH", "PYTHONPATH"):
            monkeypatch.setenv(key, env[key])
        nbformat.write(_hw_notebook(), course / "source" / "hw" / "hw.ipynb")
        config = PyFileConfigLoader("nbgrader_config.py", path=str(config_dir)).load_config()
        assert config.CourseDirectory.db_url == pg.url  # read from the course folder's file
        api = NbGraderAPI(config=config)
        assert api.generate_assignment("hw", force=True)["success"]
        released = nbformat.read(course / "release" / "hw" / "hw.ipynb", as_version=4)
        work = {}
        for i in range(2):  # a solved and a blank one, graded at the same time
            student = f"s{i}"
            nb = _hw_notebook() if i % 2 == 0 else nbformat.from_dict(json.loads(json.dumps(released)))
            folder = course / "submitted" / student / "hw"
            folder.mkdir(parents=True)
            nbformat.write(nb, folder / "hw.ipynb")
            work[student] = 2.0 if i % 2 == 0 else 0.0  # the check cell's points, or none
        results = autograde_many("hw", sorted(work), 2, cwd=course, env=env)
        assert all(r.ok for r in results), [r.log[-1500:] for r in results if not r.ok]
        with Gradebook(pg.url) as gb:
            scores = {s: gb.find_submission("hw", s).code_score for s in work}
        assert scores == work
        assert not (course / "gradebook.db").exists()  # nothing went to a SQLite file
    finally:
        pg.stop()


def test_bench_class_small_prints_its_table() -> None:
    """benchmarks/bench_class.py --small (the CI size): the table, every row a number."""
    import re
    import subprocess

    missing = [t for t in ("configurable-http-proxy", "bwrap") if shutil.which(t) is None]
    if pg_bin() is None or missing:
        if IN_CI:
            pytest.fail(f"bench_class needs postgresql and {missing}")
        pytest.skip(f"needs postgresql and {missing}")
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_class.py"), "--small"],
                       capture_output=True, text=True, timeout=1200, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    print(r.stdout)
    rows = {m.group(1).strip(): float(m.group(2))
            for m in re.finditer(r"^(\S.*?|  \S.*?)\s{2,}([0-9.]+)$", r.stdout, re.M)}
    assert rows["students enrolled"] == 20
    for key in ("rush: submissions/s (all at once)", "rush: p95 latency (s)",
                "autograde, 1 worker(s): submissions/min", "autograde, 2 worker(s): submissions/min",
                "workers to grade all in one hour"):
        assert rows[key] > 0, (key, rows)
    assert rows["rush: p50 latency (s)"] <= rows["rush: p95 latency (s)"]
