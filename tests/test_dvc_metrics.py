"""DVC: the headline metrics (`dvc metrics show` is one short row) and the default remote.

The full ``reports/metrics/*.json`` are plain ``cache: false`` outputs of their stages; the one
``metrics:`` file is ``reports/headlines.json`` (stage and rule ``headlines``). The committed
``.dvc/config`` has a default remote, a directory beside the checkout, so ``dvc push`` works with
no set-up and a second checkout restores from it (``workflow/scripts/restore-from-dvc``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
import yaml
from workflow_utils import (
    DVC_SLICE,
    REPO,
    SMALL,
    SMK_SLICE,
    copy_lock,
    copy_project,
    digests,
    make_project,
    nothing_to_do,
    run,
)

from termweight.experiments.claims import VERDICTS

PAPERS = ("esuli", "mukras", "forman", "kim", "ferreira")


def tw(*args, cwd):
    return subprocess.run([sys.executable, "-m", "termweight", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_only_the_headlines_are_dvc_metrics():
    dvc = yaml.safe_load((REPO / "dvc.yaml").read_text())
    assert "metrics" not in dvc  # no top-level list (it held the whole reports/metrics)
    with_metrics = {name for name, st in dvc["stages"].items()
                    if "metrics" in st or "metrics" in st.get("do", {})}
    assert with_metrics == {"headlines"}
    bench = yaml.safe_load((REPO / "workflow/benchmark/dvc.yaml").read_text())  # none there
    assert "metrics" not in bench and not any("metrics" in st.get("do", st)
                                              for st in bench["stages"].values())
    assert dvc["stages"]["headlines"]["metrics"] == [{"reports/headlines.json": {"cache": False}}]
    # each full metrics file is still an output of its stage, uncached (git carries it)
    outs = {}
    for st in dvc["stages"].values():
        for out in st.get("do", st).get("outs", []):
            if isinstance(out, dict):
                outs.update(out)
    for path in [f"reports/metrics/{p}.json" for p in PAPERS] + ["reports/metrics/${key}.json"]:
        assert outs[path] == {"cache": False}, path


def _params(path, experiments):
    path.write_text(yaml.safe_dump({"seed": 1, "experiments": experiments}))


SLICE_METRICS = {"experiment": "x", "dataset": "bbc", "splits": 2, "skipped_tasks": 0,
                 "encodings": {"binary": {"micro_f1": 0.91, "macro_f1": 0.9},
                               "binary-bns": {"micro_f1": 0.93, "macro_f1": 0.92}}}


def test_headlines_are_the_readme_rows_and_each_experiments_micro_f1(tmp_path):
    from termweight.experiments.report import readme_rows, summary_rows

    _params(tmp_path / "p.yaml", {"x": SMALL["experiments"]["slice"]})
    (tmp_path / "reports/metrics").mkdir(parents=True)
    (tmp_path / "reports/metrics/x.json").write_text(json.dumps(SLICE_METRICS))
    for paper in PAPERS:  # the committed results of the five papers
        shutil.copy2(REPO / f"reports/metrics/{paper}.json", tmp_path / f"reports/metrics/{paper}.json")
    published = REPO / "src/termweight/experiments/published"
    res = tw("headlines", "--params", "p.yaml", "--published", published, "--out", "h.json",
             cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    h = json.loads((tmp_path / "h.json").read_text())
    assert h["x"] == {"micro_f1": {"binary": 0.91, "binary-bns": 0.93},
                      "macro_f1": {"binary": 0.9, "binary-bns": 0.92}}
    assert set(h) == {"x", *PAPERS}
    rows, _ = summary_rows(tmp_path / "reports", published)
    shown = {r[6]: r[4] for r in rows}  # key -> our number as the summary table prints it
    for paper, keys in readme_rows().items():
        assert list(h[paper]) == sorted([*keys, "claims"])
        verdicts = [c["verdict"] for c in json.loads(
            (REPO / f"reports/metrics/{paper}.json").read_text())["claims"]]
        assert h[paper].pop("claims") == {v: verdicts.count(v) for v in VERDICTS}
        for key, value in h[paper].items():
            printed = shown[f"{paper}:{key}"]
            if value is None:
                assert printed == "n/a"
            elif isinstance(value, str):
                assert value in printed
            else:  # the same number, printed with the table's digits
                digits = len(printed.split(".")[1]) if "." in printed else 0
                assert f"{value:.{digits}f}" == printed, (paper, key)


def test_headlines_of_the_benchmark_are_its_leaderboards_top(tmp_path):
    (tmp_path / "reports/metrics").mkdir(parents=True)
    shutil.copy2(REPO / "reports/metrics/benchmark.json", tmp_path / "reports/metrics")
    _params(tmp_path / "p.yaml", {"x": SMALL["experiments"]["slice"]})  # not run: skipped
    res = tw("headlines", "--params", "p.yaml", "--out", "h.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    bench = json.loads((REPO / "reports/metrics/benchmark.json").read_text())
    measure = bench["measures"][0]
    h = json.loads((tmp_path / "h.json").read_text())["benchmark"]
    assert set(h) == {"linearsvc", "logreg", "mnb"}
    for learner, row in h.items():
        assert row == {"measure": measure, "best": bench["best"][learner][measure]["weighting"],
                       "best_avg_rank": bench["best"][learner][measure]["avg_rank"],
                       "tfidf_avg_rank": bench["baseline_rank"][learner][measure]}
    bench["best"]["mnb"] = {}  # a leaderboard without the measure: one line naming the file
    (tmp_path / "reports/metrics/benchmark.json").write_text(json.dumps(bench))
    res = tw("headlines", "--params", "p.yaml", "--out", "h2.json", cwd=tmp_path)
    errors = [line for line in res.stderr.splitlines() if " INFO " not in line]
    assert res.returncode == 2 and len(errors) == 1 and "reports/metrics/benchmark.json" in errors[0]
    assert not (tmp_path / "h2.json").exists()


def test_headlines_bad_metrics_is_one_line(tmp_path):
    _params(tmp_path / "p.yaml", {"x": SMALL["experiments"]["slice"]})
    (tmp_path / "reports/metrics").mkdir(parents=True)
    (tmp_path / "reports/metrics/x.json").write_text(json.dumps({"encodings": {"binary": {}}}))
    res = tw("headlines", "--params", "p.yaml", "--out", "h.json", cwd=tmp_path)
    assert res.returncode == 2
    assert "reports/metrics/x.json" in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "h.json").exists()


def _with_default_remote(root):
    """The repository's .dvc/config (its default remote), in a project made without git."""
    shutil.copy2(REPO / ".dvc/config", root / ".dvc/config")
    run(["dvc", "config", "core.no_scm", "true"], root)
    return root


@pytest.mark.slow
def test_dvc_metrics_show_is_one_short_row_and_snakemake_writes_the_same(slice_dvc, tmp_path):
    root = _with_default_remote(copy_project(slice_dvc, tmp_path / "p"))  # after dvc repro
    (root / "reports/metrics").mkdir(parents=True, exist_ok=True)
    for paper in PAPERS:  # committed results of the papers (their stages are not run here)
        shutil.copy2(REPO / f"reports/metrics/{paper}.json", root / f"reports/metrics/{paper}.json")
    # --single-item: the papers' stages upstream of reports/metrics are not run
    run(["dvc", "repro", "--quiet", "--single-item", "headlines"], root)
    shown = json.loads(run(["dvc", "metrics", "show", "--json"], root).stdout)
    files = shown[""]["data"]
    assert list(files) == ["reports/headlines.json"]
    slice_metrics = json.loads((root / "reports/metrics/slice.json").read_text())
    headlines = files["reports/headlines.json"]["data"]
    for m in ("micro_f1", "macro_f1"):
        assert headlines["slice"][m] == {e: slice_metrics["encodings"][e][m]
                                         for e in ("binary", "binary-bns")}
    written = json.loads((root / "reports/headlines.json").read_text())
    assert set(written) == {"slice", *PAPERS}
    # DVC shows every number and string of the file (it leaves out nulls: mukras' n/a)
    assert headlines == {k: {q: v for q, v in vals.items() if v is not None}
                         for k, vals in written.items() if any(v is not None
                                                               for v in vals.values())}
    table = run(["dvc", "metrics", "show"], root).stdout.splitlines()
    assert len(table) == 2  # the header and ONE row
    # was 63,555 characters with the full metrics files; 1,281 with the headlines of the slice
    # (micro- and macro-F1) and the five papers (their numbers and claim verdict counts)
    assert max(map(len, table)) < 2000
    # Snakemake's rule writes the same bytes (after re-dating DVC's outputs for Snakemake)
    by_dvc = (root / "reports/headlines.json").read_bytes()
    (root / "reports/headlines.json").unlink()
    run([str(root / "workflow/scripts/restore-from-dvc"), "--no-pull", *DVC_SLICE, "--",
         *SMK_SLICE], root)
    run(["snakemake", "--cores", "1", "headlines"], root)
    assert (root / "reports/headlines.json").read_bytes() == by_dvc


@pytest.mark.slow
def test_default_remote_push_then_a_fresh_checkout_restores(slice_dvc, tmp_path):
    """`dvc push` to the committed default remote, then a checkout with the lock and git's files
    but no data: workflow/scripts/restore-from-dvc gives the same bytes and leaves Snakemake
    nothing to rebuild."""
    first = _with_default_remote(copy_project(slice_dvc, tmp_path / "first"))  # after dvc repro
    remote = tmp_path / "termweight-dvc-remote"  # beside the checkout, from .dvc/config
    assert run(["dvc", "remote", "default"], first).stdout.strip() == "local"
    assert not remote.exists()
    run(["dvc", "push", "--quiet", "--with-deps", *DVC_SLICE], first)  # no `dvc remote add`
    assert remote.is_dir() and any(p.is_file() for p in remote.rglob("*"))
    # a fresh checkout beside it: dvc.lock and the cache: false reports/ come from git
    clone = _with_default_remote(make_project(tmp_path / "clone", SMALL))
    copy_lock(first, clone)  # dvc.lock and the code digests
    for path in ("reports/metrics", "reports/tables", "reports/figures", "reports/macros",
                 "reports/generated"):
        if (first / path).exists():
            shutil.copytree(first / path, clone / path, dirs_exist_ok=True)
    if (first / "reports/paper.pdf").exists():  # committed to git, not a DVC output
        shutil.copy2(first / "reports/paper.pdf", clone / "reports/paper.pdf")
    assert not (clone / "data/corpus").exists()
    run([str(clone / "workflow/scripts/restore-from-dvc"), *DVC_SLICE, "--", *SMK_SLICE], clone)
    assert digests(clone) == digests(first)
    assert nothing_to_do(clone, SMK_SLICE)


@pytest.mark.parametrize("case", ["missing", "nan", "above-one", "rank-inf"])
def test_headlines_refuse_a_missing_or_bad_cell(tmp_path, case):
    """A declared encoding missing, a NaN, an F1 above 1, a non-finite average rank: one line
    naming the file and the cell, exit 2, nothing written."""
    _params(tmp_path / "p.yaml", {"x": SMALL["experiments"]["slice"]})
    (tmp_path / "reports/metrics").mkdir(parents=True)
    m = json.loads(json.dumps(SLICE_METRICS))
    text = None
    if case == "missing":
        del m["encodings"]["binary-bns"]
    elif case == "nan":
        text = json.dumps(m).replace("0.93", "NaN")
    elif case == "above-one":
        m["encodings"]["binary"]["macro_f1"] = 1.5
    else:
        shutil.copy2(REPO / "reports/metrics/benchmark.json", tmp_path / "reports/metrics")
        text = (REPO / "reports/metrics/benchmark.json").read_text()
        bench = json.loads(text)
        bench["best"]["mnb"][bench["measures"][0]]["avg_rank"] = 0.0
        (tmp_path / "reports/metrics/benchmark.json").write_text(json.dumps(bench))
        text = None
    (tmp_path / "reports/metrics/x.json").write_text(text or json.dumps(m))
    res = tw("headlines", "--params", "p.yaml", "--out", "h.json", cwd=tmp_path)
    errors = [line for line in res.stderr.splitlines() if " INFO " not in line]
    assert res.returncode == 2 and len(errors) == 1, res.stderr
    named = "benchmark.json" if case == "rank-inf" else "reports/metrics/x.json"
    assert named in errors[0], errors
    cell = {"missing": "binary-bns", "nan": "NaN", "above-one": "encodings/binary",
            "rank-inf": "best/mnb"}[case]
    assert cell in errors[0], errors
    assert not (tmp_path / "h.json").exists()
