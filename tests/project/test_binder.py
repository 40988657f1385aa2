"""Binder (repo2docker) configuration in binder/.

Two kinds of test:

* Fast checks that need neither Docker nor the network: repo2docker renders the
  Dockerfile it would build (``--no-build``), and that build installs
  binder/requirements.txt, runs binder/postBuild (which installs perclib) and uses the
  Python from binder/runtime.txt; repo2docker rejects a broken runtime.txt; the
  requirements cover perclib's runtime dependencies without pinning the Jupyter stack.
* ``test_binder_environment_imports_and_runs_the_lessons`` (marked ``network``): builds a fresh
  virtual environment from exactly what Binder installs (binder/requirements.txt, then
  binder/postBuild), imports there every module any lesson imports, and executes
  lessons 1 and 4 (widgets, sympy, scipy's LP) in a kernel of that environment. (Binder
  resolves the same newest versions as the test environment, where nbval runs every
  lesson; running all of them twice would cost CI five minutes.) It downloads from
  PyPI (pip's cache is used), so it takes a few minutes. Deselect it with
  ``-m "not network"`` when offline.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
NOTEBOOKS = ROOT / "notebooks"
COURSE_SETTINGS = ROOT / "course-settings"  # overrides.json, installed by postBuild and the README
INDEX = "notebooks/00_index.ipynb"

# Packages that Binder's own environment provides; pinning them fights that environment.
JUPYTER_STACK = {
    canonicalize_name(n)
    for n in (
        "jupyterlab",
        "notebook",
        "jupyter_server",
        "jupyterhub",
        "ipykernel",
        "ipywidgets",
        "jupyterlab_widgets",
        "widgetsnbextension",
        "traitlets",
        "tornado",
        "jupyter_client",
        "jupyter_core",
    )
}


def _repo2docker() -> list[str]:
    # The test extra installs it next to this interpreter, whose folder need not be on
    # PATH (the README runs .venv/bin/python without activating the environment).
    beside = Path(sys.executable).parent / "jupyter-repo2docker"
    exe = str(beside) if beside.is_file() else shutil.which("jupyter-repo2docker")
    if exe is None:
        pytest.skip("jupyter-repo2docker is not installed")
    return [exe]


def _render_dockerfile(repo: Path) -> subprocess.CompletedProcess[str]:
    """Ask repo2docker for the Dockerfile it would build, without Docker.

    ``--no-build`` is a dry run that prints the Dockerfile; ``--user-id 1000`` and
    ``--user-name jovyan`` are what mybinder.org uses (the default would be our uid).
    """
    cmd = _repo2docker() + [
        "--no-build",
        "--no-run",
        "--user-id",
        "1000",
        "--user-name",
        "jovyan",
        str(repo),
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=repo)


def _lessons() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


# The lessons executed in the Binder environment (the others are imported from, see above).
BINDER_RUNS = ("01_threshold_units.ipynb", "04_cover_counting.ipynb")


def _imported_modules(paths: list[Path]) -> set[str]:
    """Every module a code cell of these notebooks imports (``import a.b``, ``from a import``)."""
    import ast

    modules: set[str] = set()
    for path in paths:
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            code = "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(code)):
                if isinstance(node, ast.Import):
                    modules.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    modules.add(node.module)
    return modules


def _requirements() -> list[Requirement]:
    reqs = []
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            reqs.append(Requirement(line))
    return reqs


# --------------------------------------------------------------------------- static


def test_binder_files_exist_and_postbuild_is_a_script():
    assert (BINDER / "requirements.txt").is_file()
    assert (BINDER / "runtime.txt").is_file()
    post = BINDER / "postBuild"
    assert post.is_file()
    text = post.read_text()
    assert text.startswith("#!/bin/bash"), "postBuild needs a shebang (repo2docker execs it)"
    assert "set -e" in text, "postBuild must stop at the first failing command"
    # perclib itself is installed from the repository root (editable or not).
    assert re.search(r"pip install\b[^\n]*\s(-e\s+)?\.(\s|$)", text), text
    assert post.stat().st_mode & stat.S_IXUSR, "binder/postBuild should be executable"


def _default_shortcuts() -> list[dict]:
    """Every keyboard shortcut the installed JupyterLab/Notebook 7 extensions define."""
    found = []
    for base in {Path(sys.prefix), Path(sys.base_prefix)}:
        for schema in (base / "share" / "jupyter" / "lab" / "schemas").rglob("*.json"):
            try:
                data = json.loads(schema.read_text())
            except (ValueError, OSError):
                continue
            if isinstance(data, dict):
                found.extend(data.get("jupyter.lab.shortcuts", []))
    return found


def _overrides() -> dict:
    return json.loads((COURSE_SETTINGS / "overrides.json").read_text())


def test_course_settings_are_installed_by_every_install():
    """Binder, the README's two commands and requirements.txt all install course-settings/."""
    assert "./course-settings" in (BINDER / "postBuild").read_text()
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)```", quick, flags=re.S)
    assert len(commands) == 2 and all("./course-settings" in c for c in commands), commands
    assert "./course-settings" in (ROOT / "requirements.txt").read_text().split()
    project = tomllib.loads((COURSE_SETTINGS / "pyproject.toml").read_text())
    data_files = project["tool"]["setuptools"]["data-files"]
    # What the install puts into the environment: the Lab settings, the server extension
    # (save hook, nbgrader off for students), the page config hiding nbgrader's menus and
    # the front-end extension; every listed file must exist in course-settings/.
    expected = {
        "share/jupyter/lab/settings": ["overrides.json"],
        "etc/jupyter/jupyter_server_config.d": [
            "jupyter-config/jupyter_server_config.d/perceptron_course_settings.json"
        ],
        "etc/jupyter/labconfig/page_config.d": [
            "jupyter-config/labconfig/page_config.d/perceptron_course_settings.json"
        ],
        "share/jupyter/labextensions/perceptron-course-settings": ["labextension/package.json"],
        "share/jupyter/labextensions/perceptron-course-settings/static": [
            "labextension/static/remoteEntry.js"
        ],
    }
    assert data_files == expected, data_files
    missing = [f for files in data_files.values() for f in files if not (COURSE_SETTINGS / f).is_file()]
    assert not missing, f"data files listed in course-settings/pyproject.toml but absent: {missing}"


def test_course_settings_keep_widget_state_out_of_saves():
    assert _overrides()["@jupyter-widgets/jupyterlab-manager:plugin"] == {"saveState": False}


def test_no_news_toast_over_the_figures(tmp_path):
    """JupyterLab's "get Jupyter news?" toast (fetchNews "Ask") covered figures: "Never".

    Read through jupyterlab_server's own settings loader, validated against the
    installed schema, as JupyterLab reads it at start-up.
    """
    settings_utils = pytest.importorskip("jupyterlab_server.settings_utils")
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"
    if not (schemas / "@jupyterlab" / "apputils-extension" / "notification.json").is_file():
        pytest.skip("no JupyterLab schemas installed")
    overrides, error = settings_utils._get_overrides(str(COURSE_SETTINGS))
    assert not error, error
    found, warnings = settings_utils.get_settings(
        str(COURSE_SETTINGS), str(schemas), str(tmp_path),
        schema_name="@jupyterlab/apputils-extension:notification", overrides=overrides)
    assert not any(warnings), warnings
    # The server hands Lab the schema with the overrides as its defaults.
    defaults = {k: v.get("default") for k, v in found["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false", defaults  # "none" asks with a toast
    assert defaults["checkForUpdates"] is False, defaults  # no request to a website
    allowed = [option["const"] for option in found["schema"]["properties"]["fetchNews"]["oneOf"]]
    assert defaults["fetchNews"] in allowed, allowed


def test_disabled_shortcuts_match_real_ones():
    """A disabled shortcut only takes effect if command, keys and selector match exactly."""
    shortcuts = _overrides()["@jupyterlab/shortcuts-extension:shortcuts"]["shortcuts"]
    disabled = [s for s in shortcuts if s.get("disabled")]
    assert {s["keys"][0] for s in disabled} == {"ArrowLeft", "ArrowRight"}
    defaults = _default_shortcuts()
    if not defaults:
        pytest.skip("no JupyterLab schemas installed to compare with")
    for shortcut in disabled:
        key = (shortcut["command"], tuple(shortcut["keys"]), shortcut["selector"])
        assert any((d["command"], tuple(d["keys"]), d["selector"]) == key for d in defaults), (
            f"{key} is not a shortcut of the installed JupyterLab/Notebook; disabling it does nothing"
        )


def test_binder_python_matches_pyproject():
    """binder/ hides pyproject.toml from repo2docker, so runtime.txt must pick the Python."""
    runtime = (BINDER / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-(\d+)\.(\d+)", runtime)
    assert m, f"binder/runtime.txt should read python-X.Y, not {runtime!r}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    from packaging.specifiers import SpecifierSet

    assert f"{m[1]}.{m[2]}" in SpecifierSet(project["requires-python"])


def test_binder_requirements_cover_perclib_dependencies():
    """postBuild installs perclib with --no-deps, so requirements.txt must list its deps."""
    listed = {canonicalize_name(r.name) for r in _requirements()}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = {canonicalize_name(Requirement(d).name) for d in project["dependencies"]}
    missing = sorted(needed - listed)
    assert not missing, f"binder/requirements.txt lacks perclib dependencies: {missing}"


def test_binder_requirements_do_not_pin_the_jupyter_stack():
    for req in _requirements():
        if canonicalize_name(req.name) not in JUPYTER_STACK:
            continue
        upper = [s for s in req.specifier if s.operator in ("==", "===", "<", "<=", "~=", "!=")]
        assert not upper, f"{req}: Binder ships its own Jupyter stack; use a lower bound (>=) at most"


def test_readme_binder_badge_opens_the_course_index():
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"https://mybinder\.org/v2/[^\s)\]]+", readme)
    if not links:
        pytest.skip("README.md has no Binder badge yet")
    for link in links:
        assert "/v2/gh/perceptron-course/perceptron-course/main" in link, link
        target = link.replace("%2F", "/").replace("%2f", "/")
        assert f"lab/tree/{INDEX}" in target or f"labpath={INDEX}" in target, link
    assert (ROOT / INDEX).is_file(), f"the Binder badge opens {INDEX}, which does not exist"


# ------------------------------------------------------------- repo2docker dry run


def test_repo2docker_renders_binder_build():
    proc = _render_dockerfile(ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    dockerfile = proc.stdout
    assert "FROM " in dockerfile
    # The Python of binder/runtime.txt (its conda lock file is copied into the image).
    runtime = (BINDER / "runtime.txt").read_text().strip().split("-", 1)[1]
    assert f"python={runtime}" in proc.stderr + proc.stdout or (
        f"environment-2epy-2d{runtime.replace('.', '-2e')}" in dockerfile
    ), "repo2docker did not pick the Python version of binder/runtime.txt"
    # binder/requirements.txt is installed into the kernel's environment ...
    assert re.search(r'pip install [^\n]*-r "?binder/requirements\.txt', dockerfile), dockerfile
    # ... and binder/postBuild (which installs perclib) runs after the repo is copied in.
    assert "./binder/postBuild" in dockerfile
    copy_at = dockerfile.index("COPY --chown=1000:1000 src/ ${REPO_DIR}/")
    assert copy_at < dockerfile.index("RUN ./binder/postBuild")
    # Root configuration is ignored when binder/ exists: no root-level install of '.'.
    assert "setup.py" not in dockerfile


def _copy_config(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(BINDER, repo / "binder")
    shutil.copy2(ROOT / "pyproject.toml", repo / "pyproject.toml")
    return repo


@pytest.mark.parametrize(
    ("runtime", "message"),
    [
        ("python3.11", "Invalid runtime.txt"),  # no dash: unparseable
        ("python-3.99", "not supported"),  # a Python repo2docker cannot provide
    ],
)
def test_repo2docker_rejects_broken_runtime(tmp_path, runtime, message):
    repo = _copy_config(tmp_path)
    # Sanity: the unmodified copy renders.
    assert _render_dockerfile(repo).returncode == 0
    (repo / "binder" / "runtime.txt").write_text(runtime + "\n")
    proc = _render_dockerfile(repo)
    assert proc.returncode != 0
    assert message in proc.stderr


# ------------------------------------------------ the Binder environment, for real

_RUNNER = textwrap.dedent(
    r"""
    import json, sys, traceback
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebooks_dir = Path(sys.argv[1])
    paths = [Path(p) for p in sys.argv[2:]]
    failures = {}

    # First make sure the kernel really is this environment's Python.
    probe = nbformat.v4.new_notebook()
    probe.cells = [nbformat.v4.new_code_cell("import sys, perclib; print(sys.prefix)")]
    NotebookClient(probe, kernel_name="python3", timeout=120).execute()
    kernel_prefix = probe.cells[0].outputs[0]["text"].strip()
    if kernel_prefix != sys.prefix:
        failures["<kernel>"] = f"kernel runs in {kernel_prefix}, not in {sys.prefix}"

    for path in paths:
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb,
            kernel_name="python3",
            timeout=600,
            resources={"metadata": {"path": str(notebooks_dir)}},
        )
        try:
            client.execute()
        except CellExecutionError as err:
            failures[path.name] = str(err)[-4000:]
        except Exception:
            failures[path.name] = traceback.format_exc()[-4000:]
        print(path.name, "FAILED" if path.name in failures else "ok", flush=True)
    print("RESULT " + json.dumps(failures))
    """
)


@pytest.mark.network
def test_binder_environment_imports_and_runs_the_lessons(tmp_path):
    """Install exactly what Binder installs into a fresh venv; import and run the lessons there.

    Needs PyPI. Binder's base environment also provides the Jupyter stack; of it, only
    ipykernel and nbclient (to execute the notebooks) are added here.
    """
    lessons = _lessons()
    if not lessons:
        pytest.skip("no lesson notebooks (notebooks/NN_*.ipynb) yet")

    # The repository as Binder sees it (a copy: postBuild may write build files).
    repo = tmp_path / "repo"
    shutil.copytree(
        ROOT,
        repo,
        ignore=shutil.ignore_patterns(
            ".git",
            "test-output",
            "__pycache__",
            ".venv*",
            "build",
            "*.egg-info",
            ".pytest_cache",
            ".ipynb_checkpoints",
            ".hypothesis",
            ".ruff_cache",
        ),
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bindir = venv / "bin"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV", "CONDA", "PIP_REQUIRE"))
    }
    env.update(
        PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
        JUPYTER_PLATFORM_DIRS="1",
        IPYTHONDIR=str(tmp_path / "ipython"),
        MPLCONFIGDIR=str(tmp_path / "mpl"),
    )
    py = str(bindir / "python")

    def run(cmd, cwd, timeout):
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, (
            f"{' '.join(map(str, cmd))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
        return proc

    # 1. What repo2docker runs: pip install -r binder/requirements.txt (+ the kernel bits
    #    Binder's base environment already has), then binder/postBuild from the repo root.
    run(
        [
            py,
            "-m",
            "pip",
            "install",
            "-q",
            "-r",
            "binder/requirements.txt",
            "ipykernel",
            "nbclient",
            "nbformat",
        ],
        repo,
        1200,
    )
    run(["bash", "binder/postBuild"], repo, 600)
    run([py, "-c", "import perclib, sys; assert sys.prefix != sys.base_prefix"], tmp_path, 60)
    installed = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(installed.read_text()) == _overrides(), "postBuild did not install the course settings"

    # 2. Every module the lessons import is there; two lessons run in a kernel of that
    #    environment, from notebooks/.
    modules = sorted(_imported_modules(lessons))
    assert {"perclib", "sympy", "numpy"} <= set(modules), modules
    run([py, "-c", "import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]", *modules],
        repo / "notebooks", 300)
    runs = [p for p in lessons if p.name in BINDER_RUNS]
    assert len(runs) == len(BINDER_RUNS), f"lessons to run on Binder not found: {BINDER_RUNS}"
    proc = run(
        [py, "-c", _RUNNER, str(repo / "notebooks")] + [str(repo / "notebooks" / p.name) for p in runs],
        repo / "notebooks",
        3600,
    )
    result_line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    failures = json.loads(result_line[len("RESULT ") :])
    assert not failures, "\n\n".join(f"== {k}\n{v}" for k, v in failures.items())
