"""The benchmark's concluding steps refuse incomplete or non-finite results: ``benchmark-report``,
``sensitivity-compare`` and ``external-compare`` name the file and the first missing, duplicated
or bad cell in one line, exit 2 and write nothing (``termweight.results_check``)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml

from termweight.runner.cli import main
from termweight.runner.errors import DataError

DATASETS = {"tr11": {}, "tr12": {}, "tr23": {}, "cachopo_r8": {"protocol": {"type": "fixed"}}}
WEIGHTINGS = ["binary", "tfidf", "tf-igm"]
LEARNERS = ["linearsvc", "mnb"]


def _params() -> dict:
    return {"seed": 1,
            "experiments": {"slice": {"dataset": "bbc", "protocol": {"type": "fixed"},
                                      "scores": ["idf"], "encodings": ["binary", "tfidf"],
                                      "learner": {"name": "linearsvc", "C": 1.0}}},
            "benchmark": {
                "datasets": DATASETS,
                "protocol": {"type": "kfold", "folds": 2, "repeats": 1, "stratified": True},
                "weightings": WEIGHTINGS, "modules": ["unsupervised", "igm"],
                "learners": LEARNERS,
                "tuning": {"normalize": "l2", "C": [0.1, 1.0], "alpha": [0.01, 1.0], "folds": 3,
                           "max_iter": 1000, "tol": 0.01},
                "sensitivity": {"datasets": ["tr11", "tr12"], "normalize": "none"},
                "measures": ["headline_macro_f1", "macro_f1", "accuracy"], "baseline": "tfidf",
                "comparisons": [], "alpha": 0.05}}


def _runs_frame(dataset: str, seed: int) -> pd.DataFrame:
    """A runs.csv as ``aggregate`` writes it for a benchmark run: a row per (weighting, split)."""
    splits = ["fixed"] if DATASETS[dataset] else ["r0f0", "r0f1"]
    cells = [(w, s) for w in WEIGHTINGS for s in splits]
    u = np.random.RandomState(seed).uniform(0.5, 0.95, (len(cells), 3))
    return pd.DataFrame({
        "encoding": [w for w, _ in cells], "split": [s for _, s in cells],
        "micro_f1": u[:, 0], "macro_f1": u[:, 1], "accuracy": u[:, 2],
        "top1_macro_f1": u[:, 1] - 0.01, "top1_micro_f1": u[:, 2],
        "single_label": dataset != "cachopo_r8", "majority_accuracy": 0.3,
        "majority_macro_f1": 0.1, "majority_micro_f1": 0.3, "value": 1.0, "unconverged": 0,
        "inner_unconverged": 1})


@pytest.fixture
def bench(tmp_path):
    """params.yaml, the headline grid's and the sensitivity grid's runs.csv and a seconds file."""
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(_params(), sort_keys=False))
    seed = 0
    for tree in ("results", "other"):
        for d in DATASETS:
            for lr in LEARNERS:
                path = tmp_path / tree / f"bench_{d}" / lr / "runs.csv"
                path.parent.mkdir(parents=True)
                _runs_frame(d, seed).to_csv(path, index=False)
                seed += 1
    pd.DataFrame([{"kind": "grid", "dataset": d, "weighting": w, "splits": 2,
                   "command_wall_s": 10.5, "command_cpu_s": 9.25, "encode_wall_s": 0.5,
                   "linearsvc_wall_s": 3.0, "mnb_wall_s": 1.0}
                  for d in DATASETS for w in WEIGHTINGS]).to_csv(tmp_path / "seconds.csv",
                                                                 index=False)
    return tmp_path


def _report_argv(root) -> list[str]:
    return ["benchmark-report", "--params", str(root / "params.yaml"),
            "--runs", str(root / "results" / "{run}" / "{learner}" / "runs.csv"),
            "--data", str(root / "out" / "data"), "--reports", str(root / "out" / "reports"),
            "--seconds", str(root / "seconds.csv")]


def _sensitivity_argv(root) -> list[str]:
    return ["sensitivity-compare", "--params", str(root / "params.yaml"),
            "--runs", str(root / "results" / "{run}" / "{learner}" / "runs.csv"),
            "--other-runs", str(root / "other" / "{run}" / "{learner}" / "runs.csv"),
            "--reports", str(root / "out" / "reports")]


def _spoil(path, how: str) -> str:
    """Spoil one runs.csv; the cell the error must name."""
    f = pd.read_csv(path)
    if how == "missing":
        f = f.drop(index=3)  # tfidf, r0f1
    elif how == "duplicated":
        f = pd.concat([f, f.iloc[[3]]], ignore_index=True)
    elif how == "nan":
        f.loc[3, "macro_f1"] = np.nan
    elif how == "out_of_range":
        f.loc[3, "accuracy"] = 1.25
    elif how == "undeclared":
        f.loc[3, "encoding"] = "tf-chi2"
    f.to_csv(path, index=False)
    return f"encoding={'tf-chi2' if how == 'undeclared' else 'tfidf'}, split=r0f1"


HOW = ["missing", "duplicated", "nan", "out_of_range", "undeclared"]
MESSAGE = {"missing": "is missing", "duplicated": "appears twice", "nan": "not a finite number",
           "out_of_range": "lies outside [0, 1]", "undeclared": "not declared by the params"}


def _assert_refused(rc, capsys, path, how, cell, out) -> None:
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert len(err) == 1, err
    assert str(path) in err[0] and cell in err[0] and MESSAGE[how] in err[0], err[0]
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*")), \
        sorted(map(str, out.rglob("*")))


@pytest.mark.parametrize("how", HOW)
def test_benchmark_report_refuses_a_bad_runs_file(bench, capsys, how):
    path = bench / "results" / "bench_tr23" / "mnb" / "runs.csv"
    cell = _spoil(path, how)
    _assert_refused(main(_report_argv(bench)), capsys, path, how, cell, bench / "out")


@pytest.mark.parametrize("how", HOW)
def test_sensitivity_compare_refuses_a_bad_runs_file(bench, capsys, how):
    path = bench / "other" / "bench_tr12" / "linearsvc" / "runs.csv"
    cell = _spoil(path, how)
    _assert_refused(main(_sensitivity_argv(bench)), capsys, path, how, cell, bench / "out")


def test_a_runs_file_of_the_grid_not_in_the_study_is_not_read(bench):
    """sensitivity-compare reads only the study's datasets (benchmark.sensitivity.datasets)."""
    from termweight.experiments import sensitivity
    from termweight.runner.config import load_params

    _spoil(bench / "other" / "bench_tr23" / "mnb" / "runs.csv", "nan")
    params = load_params(bench / "params.yaml")
    runs = sensitivity._runs(params, str(bench / "other" / "{run}" / "{learner}" / "runs.csv"),
                             ["tr11", "tr12"], "headline_macro_f1")
    assert sorted(runs["dataset"].unique()) == ["tr11", "tr12"]


def test_a_runs_file_without_a_measure_column_is_refused(bench, capsys):
    """One file without the top-1 columns (the headline measure's): named, not read as NaN."""
    paths = [bench / tree / "bench_tr12" / "linearsvc" / "runs.csv" for tree in ("results", "other")]
    for path in paths:
        pd.read_csv(path).drop(columns=["top1_macro_f1", "top1_micro_f1", "majority_accuracy",
                                        "majority_macro_f1", "majority_micro_f1"]
                               ).to_csv(path, index=False)
    for argv in (_report_argv(bench), _sensitivity_argv(bench)):
        rc = main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 2 and len(err) == 1, err
        assert str(paths[0]) in err[0] and "no column 'headline_macro_f1'" in err[0], err
        assert not (bench / "out").exists()


@pytest.mark.parametrize("how, cell, message", [
    ("duplicated", "kind=grid, dataset=tr12, weighting=tfidf", "appears twice"),
    ("nan", "kind=grid, dataset=tr12, weighting=tfidf", "not a finite number"),
    ("negative", "kind=grid, dataset=tr12, weighting=tfidf", "lies outside [0, inf]"),
])
def test_benchmark_report_refuses_bad_seconds_before_writing(bench, capsys, how, cell, message):
    path = bench / "seconds.csv"
    f = pd.read_csv(path)
    i = f.index[(f["dataset"] == "tr12") & (f["weighting"] == "tfidf")][0]
    if how == "duplicated":
        f = pd.concat([f, f.loc[[i]]], ignore_index=True)
    else:
        f.loc[i, "mnb_wall_s"] = np.nan if how == "nan" else -1.0
    f.to_csv(path, index=False)
    rc = main(_report_argv(bench))
    err = capsys.readouterr().err
    assert rc == 2 and str(path) in err and cell in err and message in err, err
    assert not (bench / "out").exists()


def test_valid_runs_are_read_with_every_declared_split(bench):
    """The checked runs hold every declared split of every dataset: the leaderboard's stated
    number of splits (per learner: 3 x 2 + 1) is the number read."""
    import argparse

    from termweight.experiments.benchmark import read_report_inputs
    from termweight.runner.config import load_params

    params = load_params(bench / "params.yaml")
    args = argparse.Namespace(runs=_report_argv(bench)[4], seconds=str(bench / "seconds.csv"),
                              columns=None)
    runs, cost = read_report_inputs(args, params, params["benchmark"]["measures"])
    assert len(runs) == len(LEARNERS) * len(WEIGHTINGS) * 7
    per = runs[runs["learner"] == "mnb"].groupby("dataset")["split"].nunique()
    assert int(per.sum()) == 7
    assert cost["columns"].tolist() == [4, 4, 4]


# --- external-compare ------------------------------------------------------------------------

def _published() -> dict:
    from termweight.experiments import external

    return json.loads(external.PUBLISHED.read_text())


@pytest.mark.parametrize("how, message", [
    ("duplicated", "appears twice (rows[7] and rows[19])"),
    ("nan", "published at rows[7] (source=wang2015, run=wang_none, measure=macro_f1) is not a "
            "finite number"),
    ("out_of_range", "published at rows[7] (source=wang2015, run=wang_none, measure=macro_f1) "
                     "= 93.48 lies outside [0, 1]"),
])
def test_external_compare_refuses_bad_published_numbers(tmp_path, capsys, how, message):
    published = _published()
    row = published["rows"][7]
    if how == "duplicated":
        published["rows"].append(dict(row))
    else:
        row["published"] = float("nan") if how == "nan" else 93.48
    path = tmp_path / "external.json"
    path.write_text(json.dumps(published))  # NaN as JSON's NaN literal
    outs = [tmp_path / f"out.{ext}" for ext in ("csv", "tex", "json")]
    rc = main(["external-compare", "--raw-20news", str(tmp_path / "none"),
               "--corpus-r8", str(tmp_path / "none"), "--published", str(path),
               "--out-csv", str(outs[0]), "--out-tex", str(outs[1]), "--out-json", str(outs[2])])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and str(path) in err[0] and message in err[0], err
    assert not any(p.exists() for p in outs)


def test_external_results_missing_or_bad_are_refused():
    from termweight.experiments import external

    published = external.check_published("external.json", _published())
    runs = {r["run"] for r in published["rows"]}
    ok = {r: {"measures": dict.fromkeys(external.MEASURES, 0.9)} for r in runs}
    ok["wang_none"]["measures_l2"] = dict.fromkeys(external.MEASURES, 0.9)
    external.check_results("external.json", published, ok)
    missing = {r: v for r, v in ok.items() if r != "wang_none"}
    with pytest.raises(DataError, match=r"external\.json: .*run=wang_none.*not a run of this"):
        external.check_results("external.json", published, missing)
    no_measure = {**ok, "wang_none": {"measures": {"accuracy": 0.9}}}
    with pytest.raises(DataError, match="measure 'micro_f1' is missing"):
        external.check_results("external.json", published, no_measure)
    for bad, message in ((float("nan"), "not a finite number"), (1.5, "lies outside")):
        spoilt = {**ok, "wang_none": {**ok["wang_none"],
                                      "measures_l2": dict.fromkeys(external.MEASURES, bad)}}
        with pytest.raises(DataError) as exc:
            external.check_results("external.json", published, spoilt)
        assert "external.json" in str(exc.value) and "run=wang_none" in str(exc.value)
        assert message in str(exc.value) and "measures_l2" in str(exc.value)
