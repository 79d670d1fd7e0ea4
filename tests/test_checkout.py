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


def test_every_step_runs_one_blas_kernel_and_thread(tmp_path):
    """`python -m termweight` pins OpenBLAS's kernel (Haswell, on AVX2 + FMA CPUs) and one thread
    before numpy loads: the logistic-regression columns then do not depend on the machine (under
    OpenBLAS's own choice on an AVX-512 CPU, SkylakeX, R52's binary-bns fits gave another document
    accuracy) nor on --cores; a value set by the user is kept."""
    import subprocess
    import sys

    from termweight.runner.checkout import BLAS_KERNEL, pin_blas

    probe = ("from termweight.runner.checkout import pin_blas; pin_blas()\n"
             "import numpy, threadpoolctl\n"
             "print(*[(i['architecture'], i['num_threads']) for i in threadpoolctl.threadpool_info()\n"
             "        if i['internal_api'] == 'openblas'][:1])")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src")  # this checkout's
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                         check=True).stdout
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    if " avx2" in flags and " fma" in flags:
        assert out.strip() == f"('{BLAS_KERNEL}', 1)", out
    given = {"OPENBLAS_CORETYPE": "Zen", "OPENBLAS_NUM_THREADS": "2"}
    pin_blas(given)
    assert given == {"OPENBLAS_CORETYPE": "Zen", "OPENBLAS_NUM_THREADS": "2"}
