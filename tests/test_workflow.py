"""Real Snakemake and DVC runs of a small configuration in temporary projects.

The small config is the offline default (BBC News) with 2 folds x 1 repeat and two encodings; its
Snakemake and DVC builds are shared by the whole test run (conftest.py: ``slice_smk``,
``slice_dvc``). Checks: outputs exist and are sane; `--cores 1` and `--cores 2` give identical bytes;
so does the per-split fan-out; `dvc repro` then `dvc status` is clean and `snakemake -n` has nothing
to do; Snakemake's outputs match DVC's lock (so `dvc repro` after Snakemake recomputes nothing); the
two tools never run at once. The DVC remote round trip is in tests/test_dvc_metrics.py.
"""

from __future__ import annotations

import json

import pytest
import yaml
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
    # one job per step over all splits and encodings (the default fan-out)
    assert (snake2 / "logs/train/slice.log").read_text().count("tasks fitted") == 4
    assert nothing_to_do(copy_project(snake2, tmp_path / "again"), SMK_SLICE)


def test_cores_do_not_change_results(slice_smk, tmp_path):
    root = make_project(tmp_path / "snake1", SMALL)
    run(["snakemake", *SMK_SLICE, "--cores", "1", "--quiet"], root)
    assert digests(root) == digests(slice_smk)


def test_per_split_fanout_writes_the_same_bytes(slice_smk, tmp_path):
    # `--config fanout=split` (the Slurm profile's): one job per split and encoding
    root = make_project(tmp_path / "split", SMALL)
    res = run(["snakemake", *SMK_SLICE, "--cores", "2", "--config", "fanout=split"], root)
    assert "rule train:" in res.stdout + res.stderr and "train_slice" not in res.stdout + res.stderr
    assert (root / "logs/train/slice/binary/r0f0.log").exists()
    assert digests(root) == digests(slice_smk)


def test_snakemake_and_dvc_never_run_at_once(tmp_path):
    import subprocess
    import time

    from workflow_utils import env

    root = make_project(tmp_path / "both", SMALL)
    # dvc repro running -> snakemake refuses before touching anything
    dvc = subprocess.Popen(["dvc", "repro", "-q", *DVC_SLICE], cwd=root, env=env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not (root / "data/documents/bbc").exists() and dvc.poll() is None:
            time.sleep(0.2)
        res = run(["snakemake", "--cores", "1", *SMK_SLICE], root, check=False)
        assert dvc.poll() is None, "dvc repro ended too soon for the test"
        assert res.returncode != 0
        assert "is running in this checkout" in res.stderr + res.stdout
    finally:
        assert dvc.wait(timeout=600) == 0, dvc.stderr.read()
    # snakemake running -> dvc repro is refused by DVC's own lock
    smk = subprocess.Popen(["snakemake", "--cores", "1", "--forceall", *SMK_SLICE], cwd=root,
                           env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        log = root / "logs/stats/slice.log"
        while not log.exists() and smk.poll() is None:
            time.sleep(0.2)
        res = run(["dvc", "repro", *DVC_SLICE], root, check=False)
        assert smk.poll() is None, "snakemake ended too soon for the test"
        assert res.returncode != 0 and "Unable to acquire lock" in res.stderr + res.stdout
    finally:
        assert smk.wait(timeout=600) == 0, smk.stderr.read()


def test_dvc_repro_then_snakemake_has_nothing_to_do(slice_dvc, slice_smk, tmp_path):
    dvcrun = copy_project(slice_dvc, tmp_path / "dvc")
    assert run(["dvc", "status", "--json", "--with-deps", *DVC_SLICE], dvcrun).stdout.strip() == "{}"
    assert nothing_to_do(dvcrun, SMK_SLICE)
    # Snakemake and DVC write byte-identical files
    assert digests(dvcrun) == digests(slice_smk)


def test_snakemake_then_dvc_repro_recomputes_nothing(slice_smk, tmp_path):
    # A clone has the committed dvc.lock but no data; Snakemake builds everything (slice_smk ran
    # with DVC's lock in place), and its onsuccess handler stores the outputs in DVC's cache
    # because they match the lock.
    log = slice_smk.with_suffix(".log").read_text()
    assert "every output byte-identical to the lock; their data/ outputs are now in the DVC" in log
    root = copy_project(slice_smk, tmp_path / "s_then_d")
    assert run(["dvc", "status", "--json", "--with-deps", *DVC_SLICE], root).stdout.strip() == "{}"
    before = mtimes(root)
    res = run(["dvc", "repro", *DVC_SLICE], root)
    assert "didn't change, skipping" in res.stdout and "Running stage" not in res.stdout
    assert mtimes(root) == before  # no stage ran, no file rewritten
    assert nothing_to_do(root, SMK_SLICE)


def test_dvc_yaml_prepares_every_dataset_params_uses(repo):
    """The corpus stages are generated for the datasets params.yaml uses (no list to keep in step):
    one prepare stage per declaring module, which depends on that module and not the others."""
    from termweight.datasets import DATASETS
    from termweight.pipeline import dvcyaml
    from termweight.pipeline.dvcyaml import datasets_used

    stages = yaml.safe_load((repo / "dvc.yaml").read_text())["stages"]
    params = yaml.safe_load((repo / "params.yaml").read_text())
    used = set(datasets_used(params))
    text = {d for d in used if DATASETS[d].kind == "text"}
    assert set(stages["tokenize"]["foreach"]) == set(stages["count"]["foreach"]) == text
    for name in stages:
        if not name.startswith("prepare_"):
            continue
        module = name.removeprefix("prepare_")
        deps = dvcyaml.digested_code(stages, name)
        assert f"src/termweight/datasets/{module}.py" in deps, name
        others = {f"src/termweight/datasets/{m['module']}.py" for s in stages.values()
                  if isinstance(s.get("foreach"), dict) for m in s["foreach"].values()
                  if isinstance(m, dict) and "module" in m} - {f"src/termweight/datasets/{module}.py"}
        assert not others & set(deps), (name, others & set(deps))
