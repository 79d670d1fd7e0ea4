"""Real Snakemake and DVC runs of a small configuration in temporary projects.

The small config is the offline default (BBC News) with 2 folds x 1 repeat and two encodings; its
Snakemake and DVC builds are shared by the whole test run (conftest.py: ``slice_smk``,
``slice_dvc``). Checks: outputs exist and are sane; `--cores 1` and `--cores 2` give identical bytes;
`dvc repro` then `dvc status` is clean and `snakemake -n` has nothing to do; Snakemake's outputs
match DVC's lock (so `dvc repro` after Snakemake recomputes nothing). The DVC remote round trip
is in tests/test_dvc_metrics.py.
"""

from __future__ import annotations

import json

import pytest
from workflow_utils import (
    DVC_SLICE,
    SMALL,
    SMK_SLICE,
    copy_project,
    digests,
    make_project,
    mtimes,
    nothing_to_do,
    run,
)

pytestmark = pytest.mark.slow


def test_snakemake_outputs(slice_smk, tmp_path):
    snake2 = slice_smk
    metrics = json.loads((snake2 / "reports/metrics/slice.json").read_text())
    assert set(metrics["encodings"]) == {"binary", "binary-bns"}
    for enc in metrics["encodings"].values():
        assert 0.85 < enc["micro_f1"] <= 1.0  # BBC is an easy topical corpus
    tex = (snake2 / "reports/tables/slice.tex").read_text()
    assert r"\toprule" in tex and r"\bottomrule" in tex and "binary-bns" in tex
    for ext in ("pdf", "png"):
        assert (snake2 / f"reports/figures/slice.{ext}").stat().st_size > 1000
    # one job per encoding (each over the 2 splits), as DVC's stages
    for enc in ("binary", "binary-bns"):
        assert (snake2 / f"logs/train/slice_{enc}.log").read_text().count("tasks fitted") == 2
    assert nothing_to_do(copy_project(snake2, tmp_path / "again"), SMK_SLICE)


def test_cores_do_not_change_results(slice_smk, tmp_path):
    root = make_project(tmp_path / "snake1", SMALL)
    run(["snakemake", *SMK_SLICE, "--cores", "1", "--quiet"], root)
    assert digests(root) == digests(slice_smk)


def test_dvc_repro_then_snakemake_has_nothing_to_do(slice_dvc, slice_smk, tmp_path):
    dvcrun = copy_project(slice_dvc, tmp_path / "dvc")
    assert run(["dvc", "status", "--json", "--with-deps", *DVC_SLICE], dvcrun).stdout.strip() == "{}"
    assert nothing_to_do(dvcrun, SMK_SLICE)
    # Snakemake and DVC write byte-identical files
    assert digests(dvcrun) == digests(slice_smk)


def assert_only_not_in_cache(res) -> None:
    """`dvc status --json` lists outputs missing from DVC's cache and nothing else changed."""
    import json

    status = json.loads(res.stdout or "{}")
    assert status, "nothing listed"
    for stage, entries in status.items():
        for entry in entries:
            assert isinstance(entry, dict) and set(entry) == {"changed outs"}, (stage, entry)
            assert set(entry["changed outs"].values()) == {"not in cache"}, (stage, entry)


def test_snakemake_then_dvc_repro_recomputes_nothing(slice_smk, tmp_path):
    # A clone has the committed dvc.lock but no data; Snakemake builds everything (slice_smk ran
    # with DVC's lock in place): DVC finds every output as its lock records it.
    # DVC's cache lacks what Snakemake wrote: `dvc status` says so ("not in cache", never
    # "modified": the content is the lock's), and `dvc commit` stores it (DVC's verb for outputs
    # made outside it)
    root = copy_project(slice_smk, tmp_path / "s_then_d")
    assert_only_not_in_cache(run(["dvc", "status", "--json", "--with-deps", *DVC_SLICE], root))
    run(["dvc", "commit", "--force", "--with-deps", *DVC_SLICE], root)
    # the commit re-dates what it stored: Snakemake is told again, after DVC's check
    run([str(root / "workflow/scripts/restore-from-dvc"), "--no-pull", *DVC_SLICE, "--",
         *SMK_SLICE], root)
    before = mtimes(root)
    res = run(["dvc", "repro", *DVC_SLICE], root)
    assert "didn't change, skipping" in res.stdout and "Running stage" not in res.stdout
    assert mtimes(root) == before  # no stage ran, no file rewritten
    assert nothing_to_do(root, SMK_SLICE)
