"""The benchmark family under DVC, on a tiny config: `dvc repro benchmark_report` writes the same
bytes as `snakemake benchmark`, and each tool's outputs satisfy the other's record (the Slurm run
of the same config is in tests/test_slurm.py)."""

from __future__ import annotations

import json
import re

import pytest
from workflow_utils import GSS_MODULE, TINY_BENCHMARK_REPORTS, copy_project, digests, run

from termweight.pipeline import dvcyaml

pytestmark = [pytest.mark.slow, pytest.mark.realdata]


@pytest.fixture(scope="module")
def both(tiny_bench_dvc, tiny_bench_smk):
    """(DVC project after `dvc repro`, Snakemake project run with that dvc.lock in place): the
    shared builds of conftest.py."""
    log = tiny_bench_dvc.with_suffix(".log").read_text()
    for stage in ("benchmark_column_bns@tr12-tf-bns", "benchmark_aggregate@tr11-mnb", "benchmark_report"):
        assert f"Running stage '{stage}'" in log, stage
    return tiny_bench_dvc, tiny_bench_smk


def test_dvc_repro_equals_snakemake(both, tmp_path):
    dvc, smk = both
    assert run(["dvc", "status", "--json", "benchmark_report"],
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
    hash as DVC's: `dvc repro` after Snakemake has nothing to recompute."""
    _, smk = both
    assert (smk / "data/benchmark/splits/bench_tr11/.snakemake_timestamp").exists()
    assert run(["dvc", "status", "--json", "benchmark_report"],
               copy_project(smk, tmp_path / "smk")).stdout.strip() == "{}"


def test_a_new_weighting_stales_its_columns_only(tiny_bench_dvc, tmp_path):
    """A new weighting written as NEW code (a module of termweight.weightings) and named in
    params.yaml: after regenerating dvc.yaml, DVC has its new column on each dataset to run, the
    aggregates (their params) and the report, and nothing else: no other column, split or
    statistics stage depends on the new module."""
    import yaml

    root = copy_project(tiny_bench_dvc, tmp_path / "more")
    (root / "src/termweight/weightings/gss.py").write_text(GSS_MODULE)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["benchmark"]["weightings"].append("tf-gss")
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    run(["python", "-m", "termweight", "dvc-yaml"], root)
    status = json.loads(run(["dvc", "status", "--json", "--with-deps", "benchmark_report"],
                            root).stdout)
    assert set(status) == {"benchmark_column_gss@tr11-tf-gss", "benchmark_column_gss@tr12-tf-gss",
                           "benchmark_aggregate@tr11-linearsvc", "benchmark_aggregate@tr11-mnb",
                           "benchmark_aggregate@tr12-linearsvc", "benchmark_aggregate@tr12-mnb",
                           "benchmark_report", "code_benchmark_column_gss"}, sorted(status)
    generated = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    owners = {n for n in generated
              if "src/termweight/weightings/gss.py" in dvcyaml.digested_code(generated, n)}
    assert owners == {"benchmark_column_gss"}


def test_a_clone_reuses_the_committed_columns(tiny_bench_dvc, tmp_path):
    """What git keeps of a DVC run (sources, dvc.lock, the columns' tables; no DVC cache, no
    other data) is enough: `dvc repro benchmark_report` rebuilds the splits and statistics,
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
    res = run(["dvc", "repro", "benchmark_report"], root, timeout=900)
    log = res.stdout + res.stderr
    assert "Running stage 'benchmark_split@tr11'" in log  # not in git: rebuilt
    assert not re.search(r"Running stage 'benchmark_column\w*@", log), log[-3000:]
    assert "Stage 'benchmark_column_bns@tr12-tf-bns' didn't change, skipping" in log
    for rel in TINY_BENCHMARK_REPORTS:
        assert (root / rel).read_bytes() == (tiny_bench_dvc / rel).read_bytes(), rel
