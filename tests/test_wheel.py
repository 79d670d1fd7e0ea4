"""The distribution: ``python -m build`` + ``twine check``, and the wheel used outside the repository.

The wheel goes into a fresh virtual environment (no system site-packages, no repository on the
path, run from a temporary directory with no ../shared beside it). By default that environment
gets the wheel with ``--no-deps`` plus only numpy, scipy, scikit-learn, numba and pandas from the package
index (about 25 s): this also proves that the estimator API needs none of the workflow
dependencies (snakemake, dvc, matplotlib, ...). ``TERMWEIGHT_WHEEL_FULL_DEPS=1`` installs the
wheel with all its declared dependencies instead (about 95 s on the shared 2-core machine).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
API_DEPS = ["numpy", "scipy", "scikit-learn", "numba", "pandas"]

SCRIPT = r'''
import sys
from pathlib import Path

import numpy as np
import termweight
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from termweight import SelectByScore, SupervisedScaler, TermEncoder, MiniMax

assert Path(termweight.__file__).is_relative_to(sys.prefix), termweight.__file__
rng = np.random.default_rng(0)
topics = {"sport": "goal match team coach", "tech": "software chip user phone",
          "money": "bank shares market profit"}
noise = "the of a and to in is said".split()
texts, labels = [], []
for i in range(150):
    label = list(topics)[i % 3]
    words = rng.choice(topics[label].split(), 4).tolist() + rng.choice(noise, 6).tolist()
    texts.append(" ".join(words))
    labels.append(label)
clf = make_pipeline(CountVectorizer(), SelectByScore(metric="ig", k=10),
                    SupervisedScaler(metric="bns", base="binary"), LinearSVC())
clf.fit(texts[:100], labels[:100])
accuracy = clf.score(texts[100:], labels[100:])
assert accuracy > 0.9, accuracy
names = clf[:-1].get_feature_names_out()
assert names.size == 10 and set(names) <= set(topics["sport"].split() + topics["tech"].split()
                                               + topics["money"].split() + noise)
mm = make_pipeline(CountVectorizer(), TermEncoder("binary"), MiniMax(solver="exact"))
assert mm.fit(texts[:100], labels[:100]).score(texts[100:], labels[100:]) > 0.9
print("OK", termweight.__version__, accuracy)
'''


def _run(cmd, cwd, env=None, timeout=600):
    run = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=timeout)
    assert run.returncode == 0, f"{cmd}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """sdist and wheel built from a copy of the project files (the tree stays untouched)."""
    tmp = tmp_path_factory.mktemp("build")
    project = tmp / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, project / name)
    shutil.copytree(REPO / "src", project / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
    out = tmp / "dist"
    _run([sys.executable, "-m", "build", "--outdir", out, project], cwd=tmp)
    return out


@pytest.mark.slow
def test_build_and_twine_check(dist):
    files = sorted(dist.iterdir())
    assert sorted(f.suffix for f in files) == [".gz", ".whl"]
    out = _run([sys.executable, "-m", "twine", "check", "--strict", *files], cwd=dist)
    assert out.count("PASSED") == 2
    wheel = zipfile.ZipFile(next(dist.glob("*.whl")))
    names = wheel.namelist()
    assert "termweight/py.typed" in names and "termweight/learners/kim.py" in names
    assert any(n.startswith("termweight/experiments/published/") and n.endswith(".json")
               for n in names)
    assert not any(n.startswith(("tests/", "docs/", "data/")) for n in names)
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    requires = Parser().parsestr(wheel.read(meta).decode()).get_all("Requires-Dist")
    base = [r for r in requires if "extra ==" not in r]
    assert sorted(r.replace(" ", "") for r in base) == sorted(d.replace(" ", "") for d in declared)


@pytest.mark.slow
@pytest.mark.heavy  # the second tier (`pytest -m heavy`): a whole clean environment
def test_wheel_in_a_clean_environment(dist, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    py = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    wheel = next(dist.glob("*.whl"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    work = tmp_path / "elsewhere"  # no repository, no ../shared
    work.mkdir()
    pip = [py, "-m", "pip", "install", "--quiet"]
    if os.environ.get("TERMWEIGHT_WHEEL_FULL_DEPS") == "1":
        _run([*pip, wheel], cwd=work, env=env, timeout=900)
    else:
        _run([*pip, "--no-deps", wheel], cwd=work, env=env)
        _run([*pip, *API_DEPS], cwd=work, env=env)
    out = _run([py, "-I", "-c", SCRIPT], cwd=work, env=env)
    assert out.startswith("OK 0.1.0")
    assert not (work.parent / "shared").exists()
