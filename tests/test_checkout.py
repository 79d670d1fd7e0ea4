"""A step started in a termweight checkout runs that checkout's src/, not another copy's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _second_clone(tmp_path: Path) -> Path:
    """A checkout beside the one Python imports (the editable install): its own src/, its own
    version string, and the workflow files that make it a checkout."""
    clone = tmp_path / "second"
    shutil.copytree(REPO / "src", clone / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    init = clone / "src/termweight/__init__.py"
    init.write_text(init.read_text().replace('__version__ = "', '__version__ = "9.9.9+second-'))
    shutil.copy2(REPO / "dvc.yaml", clone / "dvc.yaml")
    return clone


def _env(**extra_env):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TERMWEIGHT_OWN_SRC")}
    return {**env, **extra_env}


def _run(args, cwd, **extra_env):
    return subprocess.run([sys.executable, "-m", "termweight", *args], cwd=cwd,
                          env=_env(**extra_env), capture_output=True, text=True, timeout=120)


def test_a_step_in_a_second_clone_runs_that_clones_code(tmp_path):
    clone = _second_clone(tmp_path)
    res = _run(["--version"], clone)
    assert res.returncode == 0, res.stderr
    assert "9.9.9+second-" in res.stdout  # the clone's own code ran
    # outside a checkout: the installed package, as before
    res = _run(["--version"], tmp_path)
    assert res.returncode == 0 and "9.9.9" not in res.stdout


def test_a_clone_whose_code_cannot_be_imported_is_refused_in_one_line(tmp_path):
    clone = _second_clone(tmp_path)
    res = _run(["--version"], clone, TERMWEIGHT_OWN_SRC="1")  # as if the re-run failed to
    assert res.returncode == 2
    line = res.stderr.strip()
    assert "\n" not in line
    assert str((clone / "src/termweight").resolve()) in line
    imported = subprocess.run([sys.executable, "-c", "import termweight; print(termweight.__file__)"],
                              cwd=tmp_path, env=_env(), capture_output=True, text=True).stdout
    assert str(Path(imported.strip()).resolve().parent) in line
