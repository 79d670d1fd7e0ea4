"""The benchmark family under DVC, on a tiny config: `dvc repro
workflow/benchmark/dvc.yaml:benchmark_report` writes the same
bytes as `snakemake benchmark`, and each tool's outputs satisfy the other's record (the Slurm run
of the same config is in tests/test_slurm.py)."""

from __future__ import annotations

import json
import re

import pytest
from workflow_utils import BENCH, GSS_MODULE, TINY_BENCHMARK_REPORTS, copy_project, digests, run

REPORT = f"{BENCH}benchmark_report"  # DVC names a stage of workflow/benchmark/dvc.yaml by its file

pytestmark = [pytest.mark.slow, pytest.mark.realdata]


@pytest.fixture(scope="module")
def both(tiny_bench_dvc, tiny_bench_smk):
    """(DVC project after `dvc repro`, Snakemake project run with that dvc.lock in place): the
    shared builds of conftest.py."""
    log = tiny_bench_dvc.with_suffix(".log").read_text()
    for stage in ("benchmark_column@tr12-bns", "benchmark_aggregate@tr11-mnb", "benchmark_report"):
        assert f"Running stage '{BENCH}{stage}'" in log, stage
    return tiny_bench_dvc, tiny_bench_smk


def test_dvc_repro_equals_snakemake(both, tmp_path):
    dvc, smk = both
    assert run(["dvc", "status", "--json", REPORT],
               copy_project(dvc, tmp_path / "dvc")).stdout.strip() == "{}"
    for path in TINY_BENCHMARK_REPORTS:
        assert (dvc / path).read_bytes() == (smk / path).read_bytes(), path
    # the per-learner tables and figures (not DVC outputs: their names follow the config)
    listed = json.loads((dvc / "reports/metrics/benchmark.json").read_text())["files"]
    assert len(listed) == 2 + 2 * (3 + 1) * 2  # tables; (3 CD diagrams + heat map) x pdf, png
    for rel in listed:
        assert (dvc / "reports" / rel).read_bytes() == (smk / "reports" / rel).read_bytes(), rel
    # every file both tools wrote: splits, statistics, each weighting's column (its metrics
    # table), results, tables, figures
    assert digests(dvc) == digests(smk)


def test_snakemake_outputs_match_the_dvc_lock(both, tmp_path):
    """Snakemake's directories carry its .snakemake_timestamp marker (in .dvcignore), so they
    hash as DVC's: after Snakemake, `dvc status` lists only outputs its cache lacks, and
    `dvc commit` stores them."""
    from test_workflow import assert_only_not_in_cache

    _, smk = both
    assert (smk / "data/benchmark/splits/bench_tr11/.snakemake_timestamp").exists()
    root = copy_project(smk, tmp_path / "smk")
    assert_only_not_in_cache(run(["dvc", "status", "--json", REPORT], root))
    run(["dvc", "commit", "--force", "--with-deps", REPORT], root)
    assert run(["dvc", "status", "--json", REPORT], root).stdout.strip() == "{}"


def _stale(root, targets=(REPORT,)):
    """The stages DVC would rerun for ``targets`` once the code digests are current (an edit to
    src/ makes the stage ``code`` stale first: it rewrites data/code.yaml, in seconds)."""
    run(["dvc", "repro", "--single-item", "code"], root)
    return {name.removeprefix(BENCH) for name in json.loads(
        run(["dvc", "status", "--json", "--with-deps", *targets], root).stdout or "{}")}


def test_a_new_weighting_reruns_what_names_it(both, tmp_path):
    """A new weighting written as a module of termweight.weightings and named in params.yaml (its
    weighting and its module: two files, dvc.yaml untouched): DVC has its column on each dataset
    to run, and the stages whose params list the weightings (here an explicit list: every column,
    the aggregates, the report; under the project's ``weightings: all`` the list does not change
    and the other columns stay current); Snakemake the same jobs."""
    import yaml

    for root in (copy_project(both[0], tmp_path / "dvc"), copy_project(both[1], tmp_path / "smk")):
        (root / "src/termweight/weightings/gss.py").write_text(GSS_MODULE)
        params = yaml.safe_load((root / "params.yaml").read_text())
        params["benchmark"]["weightings"].append("tf-gss")
        params["benchmark"]["modules"].append("gss")
        (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    stale = _stale(tmp_path / "dvc")
    columns = {f"benchmark_column@{d}-{m}" for d in ("tr11", "tr12")
               for m in ("unsupervised", "bns", "igm", "gss")}
    assert stale == columns | {"benchmark_aggregate@tr11-linearsvc", "benchmark_aggregate@tr11-mnb",
                               "benchmark_aggregate@tr12-linearsvc", "benchmark_aggregate@tr12-mnb",
                               "benchmark_report"}, sorted(stale)
    dry = run(["snakemake", "-n", "--cores", "1", "reports/metrics/benchmark.json"],
              tmp_path / "smk").stdout
    jobs = dict(re.findall(r"^(benchmark_\w+)\s+(\d+)$", dry, re.M))
    assert jobs == {"benchmark_column": "8", "benchmark_aggregate": "4", "benchmark_report": "1"}, dry



@pytest.mark.parametrize(("edit", "stale"), [
    # a weighting's module: its columns (both datasets), their aggregates, the report
    ("src/termweight/weightings/bns.py", {"benchmark_column@tr11-bns", "benchmark_column@tr12-bns"}),
    # runner code (the command line, params checks, atomic writes, pools): nothing
    ("src/termweight/runner/io.py", set()),
    ("src/termweight/runner/cli.py", set()),
])
def test_what_an_edit_reruns(both, tmp_path, edit, stale):
    """The rerun table (docs/workflow.md), measured on the tiny benchmark under DVC: a comment
    appended to the file, the code digests rewritten (`dvc repro -s code`), then `dvc status`."""
    root = copy_project(both[0], tmp_path / "dvc")
    with open(root / edit, "a") as fh:
        fh.write("# a comment\n")
    got = _stale(root)
    columns = {s for s in got if s.startswith("benchmark_column")}
    assert columns == stale, sorted(got)
    if not stale:
        assert got == set(), sorted(got)


def test_a_clone_reuses_the_committed_columns(tiny_bench_dvc, tmp_path):
    """What git keeps of a DVC run (sources, dvc.lock, the columns' tables; no DVC cache, no
    other data) is enough: `dvc repro` of the benchmark's report rebuilds the splits and statistics,
    finds every column unchanged against dvc.lock and reuses it, and writes the same report."""
    import shutil

    from workflow_utils import REPO

    root = tmp_path / "clone"
    shutil.copytree(tiny_bench_dvc, root, ignore=shutil.ignore_patterns(
        ".dvc", "data", "reports", "logs", ".snakemake"))
    (root / "reports").mkdir()
    shutil.copy2(REPO / "reports/paper.tex", root / "reports/paper.tex")
    shutil.copytree(REPO / "reports/sections", root / "reports/sections")
    run(["dvc", "init", "--no-scm", "-q"], root)
    # what .gitignore keeps of data/benchmark: the columns and the resolved settings
    bench = tiny_bench_dvc / "data/benchmark"
    kept = sorted([*(bench / "columns").rglob("*.csv"), bench / "settings.json"])
    assert kept
    for src in kept:
        dest = root / src.relative_to(tiny_bench_dvc)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
    res = run(["dvc", "repro", REPORT], root, timeout=900)
    log = res.stdout + res.stderr
    assert f"Running stage '{BENCH}benchmark_split@tr11'" in log  # not in git: rebuilt
    assert not re.search(r"Running stage '[^']*benchmark_column@", log), log[-3000:]
    assert f"Stage '{BENCH}benchmark_column@tr12-bns' didn't change, skipping" in log
    for rel in TINY_BENCHMARK_REPORTS:
        assert (root / rel).read_bytes() == (tiny_bench_dvc / rel).read_bytes(), rel
