"""Ferreira & Figueiredo's concluding steps refuse incomplete or non-finite results.

``ferreira-collect`` (the per dataset / replication error tables, the split indexes, the
multi-class table), ``ferreira-figures`` and ``ferreira-tables`` (the summary, the multi-class
table, the indexes) check what they read against the params' ``ferreira`` section: every
declared (dataset, replication, representation, method, classifier, m) present once, every
score finite and in range, the replications a caption states equal to those read. A bad file is
one line naming it and the cell, exit status 2, and nothing written. Inputs are small synthetic
files built from a tiny params file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from termweight.runner.cli import main

REPO = Path(__file__).resolve().parents[1]
_PROTO = {"type": "balanced", "train_per_class": 5, "test_per_class": 5, "repeats": 3}
_TD = ["method1", "method2", "method2_entropy", "fisher", "rp_paper", "rp_achlioptas"]
TINY = {
    "svm_C": 1.0, "modest_rounds": 15,
    "datasets": {
        "spambase": {"n_features": 54, "protocol": dict(_PROTO), "m": [10, 40, 54],
                     "classifiers": ["svm", "modest"], "td_methods": _TD,
                     "tdi_methods": ["mim", "cmim"],
                     "method_classifiers": {"rp_achlioptas": ["svm"]}},
        "svmlight_example1": {"protocol": {**_PROTO, "train_subset": "train",
                                           "test_subset": "test"},
                              "m": [500, 1000], "classifiers": ["svm", "modest"],
                              "td_methods": _TD, "tdi_methods": ["mim"],
                              "method_classifiers": {"rp_achlioptas": ["svm"]}},
        "dexter": {"protocol": {**_PROTO, "train_subset": "train", "test_subset": "valid"},
                   "m": [500, 1000], "classifiers": ["svm"], "td_methods": _TD,
                   "tdi_methods": ["method1", "method2", "mim", "cmim"]},
    },
    "multiclass": {"dataset": "cachopo_r8", "protocol": {"type": "fixed"},
                   "representations": ["tdi", "td"], "m": [50, 100],
                   "methods": ["method1", "method2", "method2_entropy", "ig", "chi2"]},
}
_P = {"spambase": 54, "svmlight_example1": 9947, "dexter": 20000}
_SUBSETS = {"spambase": ["all"], "svmlight_example1": ["train", "test"],
            "dexter": ["train", "valid"]}


def _rows(dataset: str, name: str, dcfg: dict, rng) -> list[dict]:
    """The rows ``ferreira-run`` writes for one replication, in its order."""
    clfs, only = dcfg["classifiers"], dcfg.get("method_classifiers", {})
    rows = []

    def add(rep, method, m):
        for c in clfs:
            if method in only and c not in only[method]:
                continue
            rows.append({"dataset": dataset, "replication": name, "representation": rep,
                         "method": method, "m": m, "n_features": m, "classifier": c,
                         "error": round(float(rng.uniform(0.05, 0.3)), 4)})

    for rep in ("td", "tdi"):
        add(rep, "all", _P[dataset])
        for method in dcfg.get(f"{rep}_methods", []):
            for m in dcfg["m"]:
                add(rep, method, m)
    return rows


def _index(dataset: str) -> dict:
    chars = [{"subset": s, "p": _P[dataset], "patterns": 100, "pos": 50, "neg": 50,
              "l0": 9.5, "l0_neg": 4.5, "l0_pos": 5.0} for s in _SUBSETS[dataset]]
    out = {"dataset": dataset, "characteristics": chars,
           "splits": ["r0", "r1", "r2"], "sizes": {f"r{i}": [10, 10] for i in range(3)}}
    if dataset == "svmlight_example1":
        neg, pos = list(range(100, 120)), list(range(130, 170, 2))
        out["first_features"] = {"feature": list(range(1, 21)),
                                 "term": [f"t{i}" for i in range(1, 21)], "l0_neg": neg,
                                 "l0_pos": pos, "r": [abs(a - b) for a, b in zip(neg, pos, strict=True)]}
    return out


def _multiclass(rng) -> pd.DataFrame:
    mcfg = TINY["multiclass"]
    rows = []
    for rep in mcfg["representations"]:
        for method, m in [("all", 3000)] + [(x, m) for x in mcfg["methods"] for m in mcfg["m"]]:
            rows.append({"dataset": "cachopo_r8", "replication": "fixed", "representation": rep,
                         "method": method, "m": m, "n_features": m, "classifier": "svm",
                         "error": round(float(rng.uniform(0.05, 0.3)), 4),
                         "micro_f1": round(float(rng.uniform(0.7, 0.95)), 4),
                         "macro_f1": round(float(rng.uniform(0.6, 0.9)), 4)})
    return pd.DataFrame(rows)


def build_inputs(root: Path, seed: int = 0) -> dict:
    """A tiny params file and every file the three steps read (valid)."""
    rng = np.random.default_rng(seed)
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    params["ferreira"] = json.loads(json.dumps(TINY))
    root.mkdir(parents=True, exist_ok=True)
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    for d, dcfg in TINY["datasets"].items():
        for name in ("r0", "r1", "r2"):
            path = root / "errors" / d / f"{name}.csv"
            path.parent.mkdir(parents=True, exist_ok=True)
            pd.DataFrame(_rows(d, name, dcfg, rng)).to_csv(path, index=False)
        (root / "splits" / d).mkdir(parents=True, exist_ok=True)
        (root / "splits" / d / "index.json").write_text(json.dumps(_index(d)))
    _multiclass(rng).to_csv(root / "multiclass.csv", index=False)
    return paths(root)


def paths(root: Path) -> dict:
    return {"params": root / "params.yaml", "errors": str(root / "errors/{dataset}/{split}.csv"),
            "index": str(root / "splits/{dataset}/index.json"),
            "multiclass": root / "multiclass.csv", "out": root / "out"}


def collect(p: dict) -> list[str]:
    o = p["out"]
    return ["ferreira-collect", "--params", str(p["params"]), "--errors", p["errors"],
            "--multiclass", str(p["multiclass"]), "--index", p["index"],
            "--out-errors", str(o / "all_errors.csv"), "--out-summary", str(o / "summary.csv"),
            "--out-json", str(o / "ferreira.json")]


def figures(p: dict, summary) -> list[str]:
    return ["ferreira-figures", "--params", str(p["params"]), "--summary", str(summary),
            "--multiclass", str(p["multiclass"]), "--out-dir", str(p["out"] / "figures")]


def tables(p: dict, summary) -> list[str]:
    return ["ferreira-tables", "--params", str(p["params"]), "--summary", str(summary),
            "--index", p["index"], "--multiclass", str(p["multiclass"]),
            "--out-dir", str(p["out"] / "reports")]


# ------------------------------------------------------------------------ the checks


@pytest.fixture(scope="module")
def valid(tmp_path_factory) -> Path:
    """Valid inputs and the summary ``ferreira-collect`` makes of them (``summary.csv``)."""
    root = tmp_path_factory.mktemp("ferreira") / "inputs"
    p = build_inputs(root)
    assert main(collect(p)) == 0
    (p["out"] / "summary.csv").rename(root / "summary.csv")
    shutil.rmtree(p["out"])
    return root


@pytest.fixture
def inputs(valid, tmp_path) -> dict:
    """A fresh copy of the valid inputs (no output written yet)."""
    root = tmp_path / "inputs"
    shutil.copytree(valid, root)
    return {**paths(root), "summary": root / "summary.csv"}


#: the cell the defects hit, as the messages name it
CELL = "representation=td, method=fisher, classifier=modest, m=40"
MC_CELL = "representation=tdi, method=ig, classifier=svm, m=100"


def _hit(frame: pd.DataFrame, method="fisher", clf="modest", m=40, rep="td") -> pd.Series:
    return ((frame["representation"] == rep) & (frame["method"] == method)
            & (frame["classifier"] == clf) & (frame["m"] == m))


def _spoil(path: Path, defect: str, measure: str, **cell) -> None:
    """Give the results table at ``path`` one defect at ``cell``."""
    frame = pd.read_csv(path)
    hit = _hit(frame, **cell)
    assert hit.sum() == 1
    if defect == "missing":
        frame = frame[~hit]
    elif defect == "duplicated":
        frame = pd.concat([frame, frame[hit]], ignore_index=True)
    elif defect == "undeclared":  # a curve the params do not run: RP (Achlioptas) with AdaBoost
        extra = frame[hit].assign(method="rp_achlioptas")
        frame = pd.concat([frame, extra], ignore_index=True)
    else:
        frame[measure] = frame[measure].astype(float)
        frame.loc[hit, measure] = {"nan": np.nan, "range": 1.5, "negative": -0.1}[defect]
    frame.to_csv(path, index=False)


WANT = {"missing": "is missing", "duplicated": "appears twice", "nan": "is not a finite number",
        "range": "lies outside [0, 1]", "undeclared": "is not declared by the params",
        "negative": "lies outside [0, inf]"}
DEFECTS = ["missing", "duplicated", "nan", "range", "undeclared"]


def _refused(argv, capsys, path, *words, out=None) -> None:
    """The step exits 2 with one line naming ``path`` and ``words``, and writes nothing."""
    capsys.readouterr()
    assert main(argv) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "error" in ln]
    assert len(err) == 1, err
    assert str(path) in err[0], err[0]
    for w in words:
        assert w in err[0], (w, err[0])
    if out is not None:
        assert not out.exists() or not any(f.is_file() for f in out.rglob("*")), \
            sorted(out.rglob("*"))


def _cell_words(defect: str, cell: str) -> list[str]:
    # an undeclared row names its own method
    return [WANT[defect], cell.replace("fisher", "rp_achlioptas") if defect == "undeclared"
            else cell]


@pytest.mark.parametrize("defect", DEFECTS)
def test_collect_refuses_a_bad_errors_table(inputs, capsys, defect):
    path = Path(inputs["errors"].format(dataset="spambase", split="r1"))
    _spoil(path, defect, "error")
    _refused(collect(inputs), capsys, path, "replication=r1", *_cell_words(defect, CELL),
             out=inputs["out"])


@pytest.mark.parametrize("step", ["collect", "figures", "tables"])
@pytest.mark.parametrize("defect", DEFECTS)
def test_every_step_refuses_a_bad_multiclass_table(inputs, capsys, step, defect):
    path = inputs["multiclass"]
    _spoil(path, defect, "macro_f1", method="ig", clf="svm", m=100, rep="tdi")
    argv = {"collect": collect(inputs), "figures": figures(inputs, inputs["summary"]),
            "tables": tables(inputs, inputs["summary"])}[step]
    want = _cell_words(defect, MC_CELL)
    if defect == "undeclared":
        want = [WANT[defect], "method=rp_achlioptas"]
    _refused(argv, capsys, path, *want, out=inputs["out"])


@pytest.mark.parametrize("step", ["figures", "tables"])
@pytest.mark.parametrize("defect", DEFECTS + ["negative"])
def test_figures_and_tables_refuse_a_bad_summary(inputs, capsys, step, defect):
    path = inputs["summary"]
    measure = "se" if defect == "negative" else "mean"
    _spoil(path, defect, measure)
    argv = figures(inputs, path) if step == "figures" else tables(inputs, path)
    _refused(argv, capsys, path, "dataset=spambase", *_cell_words(defect, CELL),
             out=inputs["out"])


@pytest.mark.parametrize("step", ["figures", "tables"])
def test_the_stated_replications_are_the_ones_read(inputs, capsys, step):
    """A cell summarised over 2 replications where the protocol declares 3: the caption would
    state a count the file does not hold."""
    path = inputs["summary"]
    frame = pd.read_csv(path)
    frame.loc[_hit(frame) & (frame["dataset"] == "spambase"), "count"] = 2
    frame.to_csv(path, index=False)
    argv = figures(inputs, path) if step == "figures" else tables(inputs, path)
    _refused(argv, capsys, path, "replications of cell", CELL, "the params declare 3",
             "the file holds 2", out=inputs["out"])


def _spoil_index(path: Path, defect: str) -> None:
    index = json.loads(path.read_text())
    chars = index["characteristics"]
    if defect == "missing":
        del chars[1]
    elif defect == "duplicated":
        chars.append(dict(chars[0]))
    elif defect == "range":
        chars[0]["l0_neg"] = -1.0
    elif defect == "fig1":
        index["first_features"]["l0_pos"][14] = -3
    text = json.dumps(index)
    if defect == "nan":
        text = text.replace('"l0": 9.5', '"l0": NaN', 1)
    path.write_text(text)


INDEX_WANT = {"missing": ["'test' is missing"], "duplicated": ["subset=train", "appears twice"],
              "range": ["subset=train", "l0_neg", "lies outside [0, inf]"],
              "nan": ["NaN"], "fig1": ["first_features.l0_pos", "feature 15"]}


@pytest.mark.parametrize("step", ["collect", "tables"])
@pytest.mark.parametrize("defect", list(INDEX_WANT))
def test_collect_and_tables_refuse_a_bad_index(inputs, capsys, step, defect):
    path = Path(inputs["index"].format(dataset="svmlight_example1"))
    _spoil_index(path, defect)
    argv = collect(inputs) if step == "collect" else tables(inputs, inputs["summary"])
    _refused(argv, capsys, path, *INDEX_WANT[defect], out=inputs["out"])


def test_collect_refuses_negative_timings(inputs, capsys, tmp_path):
    path = tmp_path / "timings.json"
    path.write_text(json.dumps({"datasets": {"dexter": {"results": [
        {"method": "Method 1", "cpu_seconds": -0.5}]}}}))
    _refused([*collect(inputs), "--timings", str(path)], capsys, path, "cpu_seconds",
             "datasets.dexter.results[0]", "lies outside", out=inputs["out"])


def test_collect_refuses_an_out_of_range_probe(inputs, capsys, tmp_path):
    probe = json.loads((REPO / "benchmarks/results/probe_ferreira_all_features.json").read_text())
    probe["runs"][0]["all_features_error"]["raw counts"]["1"] = 1.2
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(probe))
    _refused([*collect(inputs), "--probe", str(path)], capsys, path, "all_features_error",
             "raw counts 1", "lies outside [0, 1]", out=inputs["out"])


def test_valid_inputs_pass_and_captions_state_the_replications_read(inputs):
    s = inputs["summary"]
    assert main(collect(inputs)) == 0
    assert main(figures(inputs, s)) == 0
    assert main(tables(inputs, s)) == 0
    out = inputs["out"]
    assert "over 3 replications" in (out / "reports/tables/ferreira_best.tex").read_text()
    metrics = json.loads((out / "ferreira.json").read_text())
    assert metrics["datasets"]["spambase"]["svm"]["td_method1"]["replications"] == 3
    assert (out / "figures/ferreira_multiclass.csv").exists()
