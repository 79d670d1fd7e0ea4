"""The README's quick start exactly as a new user meets it: a fresh `git clone` of this repository
(with ../shared beside it), the committed dvc.lock, the README's run command. It must exit 0, a
second run must have nothing to do, DVC must agree with what ran, and the files must be written
as a plain `open` would (the umask's mode, no temporary left behind).

The clone is of the working tree as it would be committed (HEAD plus the tracked and untracked,
not ignored, changes), so the test checks what the next commit gives a new user. The README's
install step is not repeated here: this test runs inside the environment it made (`.ci/run` runs
the README's run command whole, install included, in its own fresh clone).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
from workflow_utils import REPO, mtimes, run

pytestmark = pytest.mark.slow


def readme_commands() -> list[str]:
    """The commands of the README's quick-start block (the first ```bash block)."""
    text = (REPO / "README.md").read_text()
    block = re.search(r"```bash\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def after_install(command: str) -> str:
    """The part of the README's run command after it installs and activates the environment."""
    parts = command.split(" && ")
    i = next(k for k, p in enumerate(parts) if "activate" in p)
    return " && ".join(parts[i + 1:])


def fresh_clone(dest) -> None:
    """`git clone` this repository, then bring in the working tree's uncommitted changes."""
    run(["git", "clone", "-q", str(REPO), str(dest)], dest.parent)
    git = ["git", "-C", str(REPO)]
    changed = subprocess.run([*git, "ls-files", "-z", "--modified", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
    deleted = subprocess.run([*git, "ls-files", "-z", "--deleted"], capture_output=True,
                             check=True).stdout
    for rel in filter(None, changed.decode().split("\0")):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dest / rel)
    for rel in filter(None, deleted.decode().split("\0")):
        (dest / rel).unlink(missing_ok=True)


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    base = tmp_path_factory.mktemp("newuser")
    shared = REPO.parent / "shared"
    if shared.is_dir():
        (base / "shared").symlink_to(shared)
    fresh_clone(base / "main")
    return base / "main"


def test_ci_runs_the_readme_commands_as_written():
    ci = (REPO / ".ci/run").read_text()
    run_cmd, *test_cmds = readme_commands()
    names = ("RUN_CMD", "TEST_CMD", "HEAVY_CMD")
    assert len(test_cmds) == len(names) - 1, test_cmds
    for name, cmd in zip(names, [run_cmd, *test_cmds], strict=True):
        assert f"{name}='{cmd}'" in ci, name
    # and runs them, not just names them: the install line as is, each test tier through run_tier
    assert f"\n{run_cmd}\n" in ci
    for cmd in test_cmds:
        assert f"\nrun_tier {cmd} || status=1\n" in ci, cmd


def test_readme_has_the_commands():
    run_cmd, test_cmd, heavy_cmd = readme_commands()
    assert run_cmd.startswith("python3 -m venv .venv && ")
    # the environment from the lock (exact versions, hashes), then the project itself, editable
    assert ".venv/bin/pip install --require-hashes -r envs/requirements.lock.txt && " in run_cmd
    assert ".venv/bin/pip install --no-deps -e . && " in run_cmd
    assert after_install(run_cmd) == "snakemake --cores 2"
    assert test_cmd == ".venv/bin/python -m pytest"  # the default tier: pyproject's addopts
    assert heavy_cmd == f"{test_cmd} -m heavy"  # the second tier


def test_the_readmes_quick_start_figures_are_the_committed_measurement():
    """The README quotes the newest revision of benchmarks/results/quickstart.json (written by
    benchmarks/bench_quickstart.py), never a typed number."""
    m = json.loads((REPO / "benchmarks/results/quickstart.json").read_text())
    newest = [r for r in m["runs"] if r["rev"] == m["runs"][-1]["rev"]]
    text = " ".join((REPO / "README.md").read_text().split())
    walls = " and ".join(f"{r['wall_s']:.1f}" for r in newest)
    cpus = " and ".join(f"{r['cpu_s']:.1f}" for r in newest)
    assert f"On {m['date']} (2 cores) the first command ran {newest[0]['jobs']} jobs in {walls} s " \
           f"of wall time, {cpus} s of CPU" in text
    assert all(r["second_run_nothing_to_do"] and not r["files_changed"] for r in newest)


def test_the_readmes_test_figures_are_the_committed_ci_run():
    """The README's test counts and times are those of benchmarks/results/ci_fresh_clone.json."""
    m = json.loads((REPO / "benchmarks/results/ci_fresh_clone.json").read_text())
    text = " ".join((REPO / "README.md").read_text().split())

    def duration(seconds):
        minutes, rest = divmod(int(seconds), 60)  # as pytest prints it
        return f"{minutes} min {rest} s"

    d, h = m["default_tier"], m["heavy_tier"]
    assert f"on {m['date']}, in a fresh clone" in text
    assert f"{d['passed']:,} tests passed and {d['skipped']} were skipped in " \
           f"{duration(d['seconds'])}" in text
    assert f"{h['passed']} tests in {duration(h['seconds'])}" in text


@pytest.mark.heavy  # the second tier (`pytest -m heavy`): a whole fresh clone
def test_quick_start_in_a_fresh_clone(clone):
    umask = os.umask(0o022)
    os.umask(umask)
    res = run(after_install(readme_commands()[0]), clone, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    # the offline default and the report, nothing else
    ran = set(re.findall(r"^(?:local)?rule (\w+):", res.stdout + res.stderr, re.M))
    assert "train" in ran and "report" in ran, sorted(ran)
    assert not {r for r in ran if r.split("_")[0] in ("esuli", "mukras", "forman", "kim",
                                                        "ferreira", "benchmark")}, sorted(ran)

    # an unchanged checkout stays unchanged: the same results rewrite no committed file (the
    # build stamp and the PDF are kept when the PDF's inputs are the recorded ones)
    dirty = run(["git", "status", "--porcelain", "--untracked-files=no"], clone).stdout
    assert dirty == "", dirty

    # a second run has nothing to do and rewrites nothing
    before = mtimes(clone)
    again = run("snakemake --cores 2", clone)
    assert "Nothing to be done" in again.stdout + again.stderr, again.stderr[-3000:]
    changed = {p for p, t in mtimes(clone).items() if before.get(p) != t}
    assert not changed, sorted(changed)

    # DVC agrees with Snakemake for every stage that ran: the bytes dvc.lock records, which
    # DVC's cache lacks until `dvc commit` stores them (docs/workflow.md)
    from test_workflow import assert_only_not_in_cache

    ran_stages = ["table@slice", "figure@slice", "report_macros@slice"]
    assert_only_not_in_cache(run(["dvc", "status", "--json", "--with-deps", *ran_stages], clone))
    run(["dvc", "commit", "--force", "--with-deps", *ran_stages], clone)
    st = run(["dvc", "status", "--json", "--with-deps", *ran_stages], clone).stdout.strip()
    assert json.loads(st or "{}") == {}, st

    # files as a plain open() makes them; no temporary left in any output directory
    for p in (clone / "data").rglob("*"):
        assert ".tmp-" not in p.name, p
        if p.is_file():
            assert p.stat().st_mode & 0o777 == 0o666 & ~umask, p
    for p in (clone / "reports").rglob("*"):
        if p.is_file() and not p.is_symlink():
            assert p.stat().st_mode & 0o777 in (0o666 & ~umask, 0o777 & ~umask), p
