"""Numbers in README.md and docs/ that describe this project come from a run of it: the job
counts the docs give for their commands are what Snakemake and DVC plan now (a dry run with
``--forceall`` plans every job of a target, done or not). Timings and test counts are read from
committed result files (tests/test_quickstart.py)."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from workflow_utils import REPO, env


def planned(*args: str) -> int:
    """Jobs Snakemake plans for ``args`` (a target, ``--config ...``) from scratch."""
    res = subprocess.run(["snakemake", "-n", "--forceall", *args], cwd=REPO, env=env(),
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return int(re.search(r"^total\s+(\d+)$", res.stdout, re.M).group(1))


def text(path: str) -> str:
    return " ".join((REPO / path).read_text().split())


@pytest.mark.parametrize(("target", "row"), [
    ((), "| `snakemake --cores 2` |"), (("experiments",), "| `snakemake --cores 2 experiments` |")])
def test_the_workflow_pages_job_counts_are_planned(target, row):
    jobs = planned(*target)
    line = next(ln for ln in (REPO / "docs/workflow.md").read_text().splitlines()
                if ln.startswith(row))
    assert line.rstrip(" |").rsplit("|", 1)[1].strip() == str(jobs), line


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # DVC's own, 2,677 of them
def test_the_dvc_stage_count_is_dvcs():
    """docs/workflow.md: `dvc repro table@slice figure@slice` runs N stages (every stage they
    depend on)."""
    from dvc.repo import Repo

    repo = Repo(str(REPO))
    graph = repo.index.graph
    targets = [s for s in repo.index.stages if s.addressing in ("table@slice", "figure@slice")]
    assert len(targets) == 2
    import networkx as nx

    upstream = set(targets)
    for t in targets:
        upstream |= nx.descendants(graph, t)
    row = next(ln for ln in (REPO / "docs/workflow.md").read_text().splitlines()
               if ln.startswith("| `dvc repro table@slice figure@slice` |"))
    assert row.rstrip(" |").rsplit("|", 1)[1].strip() == f"{len(upstream)} stages", row


def test_measured_job_counts_are_the_measurements():
    """A job count that describes a past measurement is that measurement's, from its file."""
    kim = json.loads((REPO / "benchmarks/results/kim_target.json").read_text())
    assert f"the whole target ({kim['jobs']} jobs on {kim['date'][:10]}," in text(
        "docs/papers/kim.md")
    rules = json.loads((REPO / "workflow/profiles/measured-slice.json").read_text())["rules"]
    jobs = sum(r["jobs"] for r in rules.values())
    assert f"Measured on the default slice ({jobs} jobs in " \
           "`workflow/profiles/measured-slice.json`" in text("docs/cluster.md")
