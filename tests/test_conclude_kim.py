"""kim-report refuses incomplete or non-finite results (termweight.results_check).

Every declared (split, method, task) of every dataset key's kim-fit tables present exactly once,
counts and C >= 0 and finite; the kim-convergence JSON holds one run per declared C with finite
test F1 in [0, 1]; the sg probe holds each single weighting once with micro-F in [0, 1].
Otherwise one line naming the file and the cell, exit status 2, nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from termweight.runner.cli import main

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ["course", "faculty", "project", "student"]
SIZES = [40, 60, 30, 120]  # test positives per class (unequal: the micro/macro arithmetic)
METHODS = ["idf", "chi2", "rf", "mix-ch", "mini-max"]
SPLITS = ["r0", "r1"]


def _fit_rows(split: str, seed: int) -> pd.DataFrame:
    """A kim-fit table of one split (the columns fit_split writes)."""
    rng = np.random.default_rng(seed)
    rows = []
    for task, n in zip(CLASSES, SIZES, strict=True):
        for m in METHODS:
            tp = int(rng.integers(n // 2, n))
            fp = int(rng.integers(0, 10))
            rows.append({"split": split, "method": m, "task": task, "C": 1.0, "tp": tp, "fp": fp,
                         "fn": n - tp, "tn": sum(SIZES) - n - fp, "train_pos": n, "n_terms": 500,
                         "status": "ok", "fit_time": 0.01 * (1 + len(rows)), "n_iter": 3,
                         "converged": True, "warnings": 0,
                         "svm_iter": 10 if m != "mini-max" else np.nan,
                         "svm_converged": True if m != "mini-max" else np.nan,
                         "svm_finished": 0 if m != "mini-max" else np.nan,
                         "svm_gap": 0.0 if m != "mini-max" else np.nan,
                         "alpha": "0.2000;0.2000;0.2000;0.2000;0.2000" if m == "mix-ch"
                         else np.nan,
                         "objective": 2.5 if m == "mini-max" else np.nan})
    return pd.DataFrame(rows)


def _convergence() -> dict:
    def run(C):
        return {"C": C,
                "mixch": {"objective": [3.0, 2.5], "objective_after_alpha": [2.8, 2.5],
                          "alpha": [[0.2] * 5, [0.3, 0.2, 0.2, 0.2, 0.1]],
                          "rel_change": [None, 0.01], "time": [0.05, 0.1], "n_iter": 2,
                          "converged": True, "time_s": 0.1, "test_f1": 0.8},
                "subgradient": {"objective": [5.0, 4.0, 3.5], "best_objective": [5.0, 4.0, 3.5],
                                "iter_time": [0.01] * 3, "time": [0.01, 0.02, 0.03],
                                "time_s": 0.03, "test_f1": 0.7},
                "exact": {"objective": [5.0, 3.2, 3.1], "best_objective": [5.0, 3.2, 3.1],
                          "lower_bound": [0.0, 3.0, 3.09], "gap": [5.0, 0.2, 0.01],
                          "iter_time": [0.01] * 3, "time": [0.01, 0.02, 0.03], "n_iter": 3,
                          "converged": True, "time_s": 0.03, "test_f1": 0.82}}

    return {"dataset": "webkb", "split": "r0", "task": "course", "n_docs": 125,
            "n_terms": 500, "bases": ["idf", "chi2", "ig", "rf", "or"],
            "runs": [run(1.0), run(10.0)]}


def _probe() -> dict:
    rows = [{"method": m, "published_micro_f": f, "exact_micro_f": f + 0.05,
             **{f"sg{n}_micro_f": f - 0.1 + 0.01 * i for i, n in enumerate((300, 1000))}}
            for m, f in zip(("idf", "chi2", "ig", "rf", "or"),
                            (0.8129, 0.8984, 0.8982, 0.8629, 0.8512), strict=True)]
    return {"steps": [300, 1000], "runs": [{"key": "webkb", "split": "r0", "tasks": 4,
                                            "rows": rows}]}


@pytest.fixture
def project(tmp_path):
    """Valid kim-report inputs (one dataset key, 2 splits) and the report's arguments."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["kim"] = {**params["kim"],
                     "datasets": {"webkb": {"dataset": "cachopo_webkb", "repeats": len(SPLITS),
                                            "methods": METHODS}},
                     "validation": {"fraction": 0.3, "C_grid": [1.0]},
                     "convergence": {**params["kim"]["convergence"], "C": [1.0, 10.0]}}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta/cachopo_webkb.json").write_text(json.dumps(
        {"name": "WebKB", "n_docs": 500, "n_terms": 1000, "classes": CLASSES}))
    (tmp_path / "fit").mkdir()
    for i, name in enumerate(SPLITS):
        _fit_rows(name, i).to_csv(tmp_path / f"fit/webkb_{name}.csv", index=False)
    (tmp_path / "convergence.json").write_text(json.dumps(_convergence()))
    (tmp_path / "probe.json").write_text(json.dumps(_probe()))
    out = tmp_path / "out"
    args = ["kim-report", "--params", str(tmp_path / "params.yaml"),
            "--meta", str(tmp_path / "meta/{dataset}.json"),
            "--fits", str(tmp_path / "fit/{key}_{split}.csv"),
            "--convergence", str(tmp_path / "convergence.json"),
            "--sg-probe", str(tmp_path / "probe.json"),
            "--out-runs", str(out / "runs.csv"), "--out-json", str(out / "kim.json"),
            "--tables", str(out / "tables"), "--figures", str(out / "figures"),
            "--macros", str(out / "kim.tex")]
    return tmp_path, out, args


def _outputs(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) \
        if out.exists() else []


def _refused(capsys, project, path: Path, *cell: str) -> None:
    """kim-report exits 2 with one line naming ``path`` and ``cell``, writing nothing."""
    _, out, args = project
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert str(path) in err, err
    for c in cell:
        assert c in err, err
    assert _outputs(out) == []


def test_valid_inputs_give_the_report(project):
    _, out, args = project
    assert main(args) == 0
    assert {"runs.csv", "kim.json", "kim.tex", "tables/kim_webkb.tex"} <= set(_outputs(out))
    metrics = json.loads((out / "kim.json").read_text())
    assert metrics["datasets"]["webkb"]["runs"] == len(SPLITS)
    assert f"over {len(SPLITS)} random 50/50 splits" in (out / "tables/kim_webkb.tex").read_text()
    assert r"\newcommand{\KimWebkbRuns}{2}" in (out / "kim.tex").read_text()


# --- kim-fit tables -----------------------------------------------------------------------------

def _edit_fit(project, split, edit) -> Path:
    path = project[0] / f"fit/webkb_{split}.csv"
    frame = pd.read_csv(path)
    edit(frame).to_csv(path, index=False)
    return path


def test_fit_table_missing_cell_is_refused(capsys, project):
    path = _edit_fit(project, "r1", lambda f: f[~((f["method"] == "rf")
                                                  & (f["task"] == "project"))])
    _refused(capsys, project, path, "split=r1, method=rf, task=project", "missing")


def test_fit_table_missing_split_file_is_refused(capsys, project):
    path = project[0] / "fit/webkb_r1.csv"
    path.unlink()
    _refused(capsys, project, path)


def test_fit_table_duplicated_cell_is_refused(capsys, project):
    path = _edit_fit(project, "r0", lambda f: pd.concat([f, f.iloc[[3]]], ignore_index=True))
    _refused(capsys, project, path, "split=r0, method=mix-ch, task=course", "twice")


def test_fit_table_of_another_split_is_refused(capsys, project):
    path = _edit_fit(project, "r1", lambda f: f.assign(split="r0"))
    _refused(capsys, project, path, "split=r0", "not declared")


def test_fit_table_nan_count_is_refused(capsys, project):
    def edit(f):
        f.loc[(f["method"] == "chi2") & (f["task"] == "student"), "tp"] = np.nan
        return f

    path = _edit_fit(project, "r0", edit)
    _refused(capsys, project, path, "'tp'", "split=r0, method=chi2, task=student", "finite")


def test_fit_table_negative_count_is_refused(capsys, project):
    def edit(f):
        f.loc[(f["method"] == "idf") & (f["task"] == "faculty"), "fn"] = -3
        return f

    path = _edit_fit(project, "r1", edit)
    _refused(capsys, project, path, "'fn'", "split=r1, method=idf, task=faculty", "outside")


def test_fit_table_C_off_the_grid_is_refused(capsys, project):
    def edit(f):
        f.loc[(f["method"] == "mini-max") & (f["task"] == "course"), "C"] = 10.0
        return f

    path = _edit_fit(project, "r0", edit)
    _refused(capsys, project, path, "split=r0, method=mini-max, task=course", "C grid")


def test_fit_table_negative_fit_time_is_refused(capsys, project):
    def edit(f):
        f.loc[(f["method"] == "rf") & (f["task"] == "course"), "fit_time"] = -1.0
        return f

    path = _edit_fit(project, "r0", edit)
    _refused(capsys, project, path, "'fit_time'", "method=rf, task=course")


def test_constant_task_without_fit_time_is_accepted(project):
    """A task without positives in training has no fit (status 'constant', no fit_time)."""
    def edit(f):
        sel = (f["method"] == "idf") & (f["task"] == "project")
        f.loc[sel, "status"] = "constant"
        f["converged"] = f["converged"].astype(object)
        f.loc[sel, ["fit_time", "n_iter", "converged", "warnings"]] = np.nan
        return f

    _edit_fit(project, "r0", edit)
    assert main(project[2]) == 0


# --- kim-convergence JSON -----------------------------------------------------------------------

def _edit_json(project, name, edit) -> Path:
    path = project[0] / name
    obj = json.loads(path.read_text())
    edit(obj)
    path.write_text(json.dumps(obj))
    return path


def _edit_conv(project, edit) -> Path:
    return _edit_json(project, "convergence.json", edit)


def test_convergence_missing_C_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"].pop(1))
    _refused(capsys, project, path, "C=10", "missing")


def test_convergence_duplicated_C_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"].__setitem__(1, c["runs"][0]))
    _refused(capsys, project, path, "C=1", "twice")


def test_convergence_null_test_f1_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"][1]["exact"].__setitem__("test_f1", None))
    _refused(capsys, project, path, "exact test_f1", "C=10")


def test_convergence_test_f1_out_of_range_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"][0]["mixch"].__setitem__("test_f1", 1.2))
    _refused(capsys, project, path, "mixch test_f1", "C=1", "outside")


def test_convergence_null_in_a_trace_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"][0]["subgradient"]["best_objective"]
                      .__setitem__(1, None))
    _refused(capsys, project, path, "subgradient best_objective[1]", "C=1", "finite")


def test_convergence_alpha_out_of_range_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"][1]["mixch"]["alpha"][1].__setitem__(0, 1.5))
    _refused(capsys, project, path, "mixch alpha[1, 0]", "C=10", "outside")


def test_convergence_zero_lower_bound_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c["runs"][0]["exact"]["lower_bound"]
                      .__setitem__(2, 0.0))
    _refused(capsys, project, path, "lower_bound", "C=1")


def test_convergence_of_another_task_is_refused(capsys, project):
    path = _edit_conv(project, lambda c: c.__setitem__("task", "student"))
    _refused(capsys, project, path, "task", "student", "course")


# --- the subgradient probe ----------------------------------------------------------------------

def _edit_probe(project, edit) -> Path:
    return _edit_json(project, "probe.json", edit)


def test_probe_missing_weighting_is_refused(capsys, project):
    path = _edit_probe(project, lambda p: p["runs"][0]["rows"].pop(2))
    _refused(capsys, project, path, "method=ig", "missing")


def test_probe_duplicated_weighting_is_refused(capsys, project):
    path = _edit_probe(project, lambda p: p["runs"][0]["rows"].append(p["runs"][0]["rows"][0]))
    _refused(capsys, project, path, "method=idf", "twice")


def test_probe_null_micro_f_is_refused(capsys, project):
    path = _edit_probe(project, lambda p: p["runs"][0]["rows"][3].__setitem__("sg1000_micro_f",
                                                                              None))
    _refused(capsys, project, path, "'sg1000_micro_f'", "method=rf")


def test_probe_micro_f_out_of_range_is_refused(capsys, project):
    path = _edit_probe(project, lambda p: p["runs"][0]["rows"][0].__setitem__("sg300_micro_f",
                                                                              -0.2))
    _refused(capsys, project, path, "'sg300_micro_f'", "method=idf", "outside")
