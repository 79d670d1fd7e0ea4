"""The pinned environment: the lock file covers what the README installs, the conda file pins the
same versions, the environment is recorded with the results, and the tests run this checkout's
own code."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from conftest import REPO
from packaging.requirements import Requirement

from termweight import environment
from termweight.environment import canonical, lock_pins

LOCK = REPO / "envs" / "requirements.lock.txt"


def _requirements(extras: tuple[str, ...]) -> list[Requirement]:
    """pyproject's core dependencies and those of ``extras``, self-references expanded."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    out, todo, seen = list(map(Requirement, project["dependencies"])), list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for spec in project["optional-dependencies"][extra]:
            req = Requirement(spec)
            if canonical(req.name) == "termweight":
                todo.extend(req.extras)
            else:
                out.append(req)
    return out


def test_the_lock_pins_every_dependency_of_the_readmes_install_within_its_bounds():
    pins = lock_pins(LOCK)
    for req in _requirements(("workflow", "test")):
        name = canonical(req.name)
        assert name in pins, f"{req} is not in {LOCK.name}"
        assert req.specifier.contains(pins[name], prereleases=True), (str(req), pins[name])


def test_every_pin_of_the_lock_carries_hashes():
    text = LOCK.read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    pinned = [b for b in blocks if re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*==", b)]
    assert len(pinned) == len(lock_pins(LOCK)) > 100
    assert all("--hash=sha256:" in b for b in pinned), [b.split()[0] for b in pinned
                                                        if "--hash" not in b]


def test_the_lock_states_its_refresh_command_as_the_docs_give_it():
    header = LOCK.read_text().splitlines()[1].strip("# ").strip()
    assert header.startswith("uv pip compile pyproject.toml ") and "--generate-hashes" in header
    docs = " ".join((REPO / "docs" / "environment.md").read_text().split())
    assert header in docs


def test_the_conda_environment_pins_the_locks_versions():
    env = yaml.safe_load((REPO / "envs" / "termweight.yaml").read_text())
    listed = [d for d in env["dependencies"] if isinstance(d, str)]
    listed += [d for d in env["dependencies"] if isinstance(d, dict) for d in d["pip"]]
    pins = lock_pins(LOCK)
    checked = 0
    for spec in listed:
        name, _, version = spec.partition("==")
        if name in ("python=3.11", "pip", "-e .."):
            continue
        assert version, f"envs/termweight.yaml: {spec} is not pinned"
        assert pins[canonical(name)] == version, (spec, pins[canonical(name)])
        checked += 1
    assert checked >= 14


def test_lock_differences_name_what_moved(tmp_path):
    numpy = environment.installed_version("numpy")
    lock = tmp_path / "lock.txt"
    lock.write_text(f"numpy=={numpy} \\\n    --hash=sha256:00\nnot-a-package-here==1.0\n"
                    "scipy==0.0.1 ; python_version >= '3'\n")
    diff = environment.lock_differences(lock)
    assert "numpy" not in diff
    assert diff["not-a-package-here"] == {"lock": "1.0", "installed": None}
    assert diff["scipy"]["lock"] == "0.0.1" and diff["scipy"]["installed"]


def test_the_environment_record_names_versions_blas_and_lock():
    rec = environment.describe(REPO)
    assert rec["python"] == ".".join(map(str, sys.version_info[:3]))
    assert rec["packages"]["numpy"] and rec["packages"]["scikit-learn"]
    assert rec["lock"]["sha256"] and len(rec["lock"]["sha256"]) == 64
    assert all("filepath" not in b for b in rec["blas"])  # no machine paths
    assert any(b.get("user_api") == "blas" for b in rec["blas"])


def test_pytest_imports_this_checkouts_code_not_the_venvs_other_clone(tmp_path):
    """A second clone run with this venv (installed editable from another clone) tests its own
    src/: pyproject's pythonpath puts it first."""
    other = tmp_path / "other"
    shutil.copytree(REPO / "src" / "termweight", other / "src" / "termweight",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (other / "tests").mkdir()
    shutil.copy(REPO / "tests" / "conftest.py", other / "tests")
    shutil.copy(REPO / "pyproject.toml", other)
    (other / "tests" / "test_which.py").write_text(
        "import termweight\n"
        "def test_which():\n"
        f"    assert termweight.__file__.startswith({str(other)!r}), termweight.__file__\n")
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                          "tests/test_which.py"], cwd=other, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]


def test_the_session_refuses_another_copy_in_one_line(tmp_path):
    """With the checkout's src/ taken off the path (pythonpath emptied), the conftest refuses."""
    other = tmp_path / "other"
    (other / "tests").mkdir(parents=True)
    (other / "src" / "termweight").mkdir(parents=True)
    (other / "src" / "termweight" / "__init__.py").write_text("")
    shutil.copy(REPO / "tests" / "conftest.py", other / "tests")
    (other / "tests" / "test_x.py").write_text("def test_x():\n    pass\n")
    (other / "pytest.ini").write_text("[pytest]\n")
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "tests/test_x.py"], cwd=other, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 2, res.stdout + res.stderr
    line = [ln for ln in (res.stdout + res.stderr).splitlines() if "imports termweight from" in ln]
    assert len(line) == 1 and str(other / "src" / "termweight") in line[0], res.stdout + res.stderr


def test_the_lock_is_current_with_pyproject(tmp_path):
    """The documented refresh command, run on a copy of the lock, keeps every pin (uv keeps an
    output file's pins unless told to upgrade): pyproject.toml asks for nothing the lock lacks."""
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    (tmp_path / "envs").mkdir()
    shutil.copy(LOCK, tmp_path / "envs")
    cmd = LOCK.read_text().splitlines()[1].strip("# ").split()
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv, "uv is in the test extra"
    res = subprocess.run([uv, *cmd[1:], "--quiet"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    assert lock_pins(tmp_path / "envs" / LOCK.name) == lock_pins(LOCK)


def test_the_docs_quote_the_last_newest_versions_run():
    """docs/environment.md's figures are those of benchmarks/results/newest_versions.json."""
    import json

    m = json.loads((REPO / "benchmarks/results/newest_versions.json").read_text())
    text = " ".join((REPO / "docs/environment.md").read_text().split())
    assert f"Last run {m['date']} at {m['commit']}" in text
    assert f"{len(m['packages_that_differ'])} packages differ from the lock" in text
    for name, v in m["packages_that_differ"].items():
        assert f"| {name} | {v['lock']} | {v['newest'] or 'not installed'} |" in text
