"""The distribution: ``python -m build`` + ``twine check``, and the wheel used outside the repository.

The wheel goes into a fresh virtual environment (no system site-packages, no repository on the
path, run from a temporary directory with no ../shared beside it), with its declared dependencies
resolved from the package index: the light core a researcher gets from ``pip install termweight``
(about 10 s). None of the workflow extra's tools (snakemake, dvc, pandas, matplotlib) may be
there, and the estimators and the README's library snippet must run without them, and without a
warning.
"""

from __future__ import annotations

import os
import re
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
#: the workflow extra's tools, never pulled in by the core install
WORKFLOW_ONLY = ["snakemake", "dvc", "pandas", "matplotlib"]

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
    for kind in ("__init__.py", "report.py", "published.json", "section.tex",
                 "caption.rst"):  # a paper package is whole in the wheel
        assert f"termweight/experiments/kim/{kind}" in names
    assert not any(n.startswith(("tests/", "docs/", "data/")) for n in names)
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    requires = Parser().parsestr(wheel.read(meta).decode()).get_all("Requires-Dist")
    base = [r for r in requires if "extra ==" not in r]
    assert sorted(r.replace(" ", "") for r in base) == sorted(d.replace(" ", "") for d in declared)


#: every module of the workflow extra (and those only its packages bring), by import name
WORKFLOW_MODULES = ["pandas", "pyarrow", "matplotlib", "Stemmer", "jsonschema", "yaml", "snakemake",
                    "dvc", "scikit_posthocs", "statsmodels", "baycomp"]

CORE_ONLY = r'''
import sys

for name in sys.argv[1:]:
    sys.modules[name] = None  # `import name` raises ModuleNotFoundError, as in a core install

import termweight
from termweight.datasets import get_dataset

for name in termweight.__all__:
    getattr(termweight, name)
bbc = get_dataset("bbc").parser(None, {})
print(len(bbc.texts))
'''


def test_the_library_imports_without_the_workflow_extra():
    """``import termweight``, every public estimator and the bundled BBC data: the core
    dependencies suffice (the heavy test below installs them alone; this one hides the rest)."""
    out = _run([sys.executable, "-c", CORE_ONLY, *WORKFLOW_MODULES], cwd=REPO)
    assert out.split() == ["2225"]


def readme_library_snippet() -> str:
    """The README's ```python block of "Use the library" (the BBC pipeline, 3-fold CV)."""
    text = (REPO / "README.md").read_text()
    section = text[text.index("## Use the library"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def readme_snippet_score() -> str:
    """The accuracy the README's library snippet says it prints (the comment of its print line)."""
    return re.search(r"^print\(.*# (\d\.\d{3})\b", readme_library_snippet(), re.M).group(1)


def test_readme_states_what_its_snippet_prints():
    assert "cross_val_score" in readme_library_snippet()
    assert 0.9 < float(readme_snippet_score()) < 1


@pytest.mark.slow
@pytest.mark.heavy  # the second tier (`pytest -m heavy`): a whole clean environment
def test_wheel_in_a_clean_environment(dist, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    py = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    wheel = next(dist.glob("*.whl"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "NUMBA_CACHE_DIR")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # numba's cache of the exact solver's loops
    work = tmp_path / "elsewhere"  # no repository, no ../shared
    work.mkdir()
    # the core dependencies, resolved from the package index as `pip install termweight` does
    _run([py, "-m", "pip", "install", "--quiet", wheel], cwd=work, env=env, timeout=900)
    found = _run([py, "-I", "-c", "import importlib.util as u, sys; "
                  "print(*[m for m in sys.argv[1:] if u.find_spec(m)])", *WORKFLOW_ONLY],
                 cwd=work, env=env)
    assert found.split() == [], f"the core install pulled in {found.split()}"
    # a warning (a ConvergenceWarning is a UserWarning; a failed CV fit a RuntimeWarning) fails
    strict = [py, "-I", "-W", "error::UserWarning", "-W", "error::RuntimeWarning"]
    out = _run([*strict, "-c", SCRIPT], cwd=work, env=env)
    assert out.startswith("OK 0.1.0")
    # MiniMax(solver="exact") compiled its loops: cached in the user's cache, not in the package
    assert list((tmp_path / "cache" / "termweight" / "numba").rglob("*.nbi"))
    assert not [p for p in env_dir.rglob("*") if p.suffix in (".nbi", ".nbc")]
    snippet = work / "readme_snippet.py"
    snippet.write_text(readme_library_snippet())
    out = _run([*strict, snippet], cwd=work, env=env)
    # LinearSVC's solver has a tolerance: the third decimal of the mean may move by one
    assert abs(float(out) - float(readme_snippet_score())) <= 0.0015, out
    assert not (work.parent / "shared").exists()
    # the command line of a core-only install: --help works and says which steps need the
    # workflow extra; running such a step is one line saying what to install, exit 2
    cli = subprocess.run([str(env_dir / "bin" / "termweight"), "--help"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0 and "Traceback" not in cli.stderr, cli.stderr
    assert "pip install 'termweight[workflow]'" in " ".join(cli.stdout.split()), cli.stdout
    cli = subprocess.run([str(env_dir / "bin" / "termweight"), "kim-fit", "--help"], cwd=work,
                         env=env, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 2 and "Traceback" not in cli.stderr, cli.stderr
    assert cli.stderr.strip().count("\n") == 0 and "termweight[workflow]" in cli.stderr, cli.stderr


def test_conda_environment_lists_the_packages_of_pyproject():
    """envs/termweight.yaml (snakemake --use-conda) = core + workflow extra, less the two tools
    (and DVC's YAML speed-up, ruamel.yaml.clib, which only DVC uses)."""
    import tomllib

    import yaml

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["workflow"]]

    def names(specs):
        return {re.split(r"[<>=!\[ ]", s, maxsplit=1)[0].lower() for s in specs}

    env = yaml.safe_load((REPO / "envs/termweight.yaml").read_text(encoding="utf-8"))
    listed = [d for d in env["dependencies"] if isinstance(d, str)]
    listed += [d for d in env["dependencies"] if isinstance(d, dict) for d in d["pip"]]
    assert names(listed) - {"python", "pip", "-e"} == names(wanted) - {"snakemake", "dvc", "ruamel.yaml.clib"}
