"""The concluding steps of Esuli & Sebastiani (``esuli-report``, ``esuli-figure``) and Forman
(``forman-report``) check what they read against params.yaml: a missing, duplicated, non-finite
or out-of-range cell is one line naming the file and the cell, exit status 2, nothing written.

Inputs are small synthetic tables in the pipeline's formats (``esuli-evaluate``/``esuli-svm``,
``esuli-features``, ``forman-evaluate``/``forman-select``), built in ``tmp_path``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from termweight.evaluation import rates
from termweight.experiments import esuli
from termweight.experiments.forman import results as forman_results
from termweight.runner.cli import main

REPO = Path(__file__).resolve().parents[1]


def _params(tmp_path, section: str, cfg: dict) -> Path:
    """The repository's params.yaml with ``section`` replaced by ``cfg``."""
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params[section] = cfg
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    return path


def _written(out: Path) -> list[str]:
    return sorted(p.name for p in out.rglob("*") if p.is_file()) if out.exists() else []


# ------------------------------------------------------------------------------------- esuli

ESULI = {"dataset": "reuters21578", "rounds": 3, "learners": ["adaboost_mh", "mp_boost"],
         "representations": ["binary", "ordinal"], "svm_C": 1.0,
         "svm_losses": ["squared_hinge", "hinge"]}
CATS = [f"c{i}" for i in range(8)]
BOOSTED = [esuli.run_name(lr, rep) for lr in ESULI["learners"] for rep in ESULI["representations"]]
SVMS = ["svm_tfidf", "svm_tfidf_hinge"]


def _categories(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    pos = rng.integers(3, 12, len(CATS))
    tp = rng.integers(0, pos + 1)
    fp, fn = rng.integers(0, 4, len(CATS)), pos - tp
    tn = 100 - tp - fp - fn
    r = rates(tp, fp, fn, tn)
    return pd.DataFrame({"category": CATS, "train_pos": 3 * pos, "test_pos": pos, "tp": tp,
                         "fp": fp, "fn": fn, "tn": tn, "precision": r["precision"],
                         "recall": r["recall"], "f1": r["f1"]})


def _curve(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    tp, fp, fn = (rng.integers(0, 10, (ESULI["rounds"], len(CATS))) for _ in range(3))
    return pd.DataFrame({"round": np.arange(1, ESULI["rounds"] + 1),
                         **esuli.scores_from_counts(tp, fp, fn)})


@pytest.fixture
def esuli_files(tmp_path):
    """A valid set of esuli-report / esuli-figure inputs; returns (root, params, paths)."""
    root = tmp_path / "data"
    for sub in ("categories", "svm", "curves", "features"):
        (root / sub).mkdir(parents=True)
    for i, run in enumerate(BOOSTED):
        _categories(i).to_csv(root / "categories" / f"{run}.csv", index=False)
        _curve(i).to_csv(root / "curves" / f"{run}.csv", index=False)
    for i, run in enumerate(SVMS):
        _categories(10 + i).to_csv(root / "svm" / f"{run}.csv", index=False)
    reading = {"features_after": 300, "values_per_term": 1.5}
    summary = {"dataset": "reuters21578", "train_docs": 70, "test_docs": 30,
               "categories": len(CATS), "terms_before": 200, "max_training_count": 9,
               "terms_with_one_value": 120, "distinct_train": reading,
               "every_train": {"features_after": 470, "values_per_term": 2.35},
               "distinct_train_and_test": reading,
               "representations": {"binary": {"train_nnz": 100}, "ordinal": {"train_nnz": 160}}}
    (root / "features" / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return root, _params(tmp_path, "esuli", ESULI)


def _esuli_report(root, params, out):
    return main(["esuli-report", "--params", str(params),
                 "--summary", str(root / "features/summary.json"),
                 "--categories", str(root / "categories/{run}.csv"),
                 "--svm", str(root / "svm/{run}.csv"), "--curves", str(root / "curves/{run}.csv"),
                 "--out-table", str(out / "table1.tex"), "--out-features", str(out / "feat.tex"),
                 "--out-notes", str(out / "notes.tex"), "--out-macros", str(out / "macros.tex"),
                 "--out-metrics", str(out / "esuli.json")])


def _esuli_figure(root, params, out):
    return main(["esuli-figure", "--params", str(params),
                 "--curves", str(root / "curves/{learner}_{rep}.csv"),
                 "--svm", str(root / "svm/svm_tfidf.csv"), "--out", str(out / "fig.pdf")])


def _edit(path: Path, change) -> None:
    frame = pd.read_csv(path)
    change(frame).to_csv(path, index=False)


def _set(row: int, col: str, value):
    def change(frame):
        frame[col] = frame[col].astype(float) if isinstance(value, float) else frame[col]
        frame.loc[row, col] = value
        return frame
    return change


def test_esuli_report_valid_input_writes_everything(esuli_files, tmp_path):
    root, params = esuli_files
    out = tmp_path / "out"
    assert _esuli_report(root, params, out) == 0
    assert _written(out) == ["esuli.json", "feat.tex", "macros.tex", "notes.tex", "table1.tex"]
    assert f"ModApte, {len(CATS)} categories;" in (out / "table1.tex").read_text()
    assert _esuli_figure(root, params, out / "fig") == 0
    assert _written(out / "fig") == ["fig.csv", "fig.pdf", "fig.png"]


ESULI_CASES = {  # (file under data/, change, words the message must hold)
    "missing category": ("categories/mp_boost_binary.csv", lambda f: f.drop(index=3),
                         ["category=c3", "is missing"]),
    "missing category in the first run": (
        "categories/adaboost_mh_binary.csv", lambda f: f.drop(index=3),
        ["7 categories", "summary.json counts 8"]),
    "duplicated category": ("svm/svm_tfidf_hinge.csv", lambda f: pd.concat([f, f.iloc[[2]]]),
                            ["category=c2", "appears twice"]),
    "categories in another order": ("categories/mp_boost_ordinal.csv",
                                    lambda f: f.iloc[[1, 0, *range(2, len(CATS))]],
                                    ["'c1'", "one order"]),
    "NaN F1": ("categories/adaboost_mh_ordinal.csv", _set(4, "f1", float("nan")),
               ["'f1' at (category=c4)", "not a finite number"]),
    "precision above 1": ("svm/svm_tfidf.csv", _set(1, "precision", 1.5),
                          ["'precision' at (category=c1)", "outside [0, 1]"]),
    "negative count": ("categories/mp_boost_binary.csv", _set(0, "fp", -2),
                       ["'fp' at (category=c0)", "outside [0, inf]"]),
    "missing round": ("curves/mp_boost_ordinal.csv", lambda f: f.drop(index=2),
                      ["round=3", "is missing"]),
    "duplicated round": ("curves/adaboost_mh_binary.csv", lambda f: pd.concat([f, f.iloc[[0]]]),
                         ["round=1", "appears twice"]),
    "NaN in a curve": ("curves/mp_boost_binary.csv", _set(1, "micro_f1", float("nan")),
                       ["'micro_f1' at (round=2)", "not a finite number"]),
    "curve score above 1": ("curves/adaboost_mh_ordinal.csv", _set(0, "macro_recall", 1.01),
                            ["'macro_recall' at (round=1)", "outside [0, 1]"]),
    "rounds out of order": ("curves/adaboost_mh_ordinal.csv", lambda f: f.iloc[[0, 2, 1]],
                            ["round 2 after round 3"]),
}



def _assert_refused(capsys, path, words, out) -> None:
    """One line on stderr naming ``path`` and holding ``words``; nothing under ``out``."""
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err, err
    for w in words:
        assert w in err, err
    assert _written(out) == []

@pytest.mark.parametrize("case", list(ESULI_CASES))
def test_esuli_report_refuses_bad_results(esuli_files, tmp_path, capsys, case):
    root, params = esuli_files
    rel, change, words = ESULI_CASES[case]
    _edit(root / rel, change)
    out = tmp_path / "out"
    assert _esuli_report(root, params, out) == 2
    _assert_refused(capsys, root / rel, words, out)


@pytest.mark.parametrize("key, value, words", [
    ("categories", None, ["'categories' is missing"]),
    ("every_train", {"features_after": 470}, ["every_train: 'values_per_term' is missing"]),
    ("terms_before", -5, ["terms_before", "outside [0, inf]"]),
])
def test_esuli_report_refuses_a_bad_summary(esuli_files, tmp_path, capsys, key, value, words):
    root, params = esuli_files
    path = root / "features/summary.json"
    summ = json.loads(path.read_text())
    if value is None:
        del summ[key]
    else:
        summ[key] = value
    path.write_text(json.dumps(summ))
    out = tmp_path / "out"
    assert _esuli_report(root, params, out) == 2
    err = capsys.readouterr().err
    assert str(path) in err and all(w in err for w in words)
    assert _written(out) == []


def test_esuli_report_refuses_rounds_other_than_declared(esuli_files, tmp_path, capsys):
    root, _ = esuli_files
    params = _params(tmp_path, "esuli", {**ESULI, "rounds": 4})
    out = tmp_path / "out"
    assert _esuli_report(root, params, out) == 2
    err = capsys.readouterr().err
    assert "adaboost_mh_binary.csv" in err and "round=4" in err and "is missing" in err
    assert _written(out) == []


def test_esuli_report_refuses_a_missing_run(esuli_files, tmp_path, capsys):
    root, params = esuli_files
    (root / "svm/svm_tfidf_hinge.csv").unlink()
    out = tmp_path / "out"
    assert _esuli_report(root, params, out) == 2
    assert "svm_tfidf_hinge.csv" in capsys.readouterr().err
    assert _written(out) == []


FIGURE_CASES = {
    "missing round": ("curves/mp_boost_binary.csv", lambda f: f.drop(index=0),
                      ["round=1", "is missing"]),
    "duplicated round": ("curves/adaboost_mh_ordinal.csv",
                         lambda f: pd.concat([f, f.iloc[[1]]]), ["round=2", "appears twice"]),
    "NaN score": ("curves/mp_boost_ordinal.csv", _set(2, "macro_f1", float("nan")),
                  ["'macro_f1' at (round=3)", "not a finite number"]),
    "score below 0": ("curves/adaboost_mh_binary.csv", _set(1, "micro_f1", -0.1),
                      ["'micro_f1' at (round=2)", "outside [0, 1]"]),
    "duplicated SVM category": ("svm/svm_tfidf.csv", lambda f: pd.concat([f, f.iloc[[5]]]),
                                ["category=c5", "appears twice"]),
    "NaN SVM count": ("svm/svm_tfidf.csv", _set(3, "tp", float("nan")),
                      ["'tp' at (category=c3)", "not a finite number"]),
}


@pytest.mark.parametrize("case", list(FIGURE_CASES))
def test_esuli_figure_refuses_bad_results(esuli_files, tmp_path, capsys, case):
    root, params = esuli_files
    rel, change, words = FIGURE_CASES[case]
    _edit(root / rel, change)
    out = tmp_path / "fig"
    assert _esuli_figure(root, params, out) == 2
    _assert_refused(capsys, root / rel, words, out)


# ------------------------------------------------------------------------------------ forman

FORMAN = {"datasets": ["tr23", "tr12"], "folds": 2, "repeats": 1, "bases": ["binary", "tf"],
          "scalings": ["none", "idf", "bns", "logodds"], "C": 1.0, "max_iter": 1000,
          "learners": ["linearsvc"],
          "selection": {"selectors": ["ig", "bns"], "scalings": ["none", "bns"],
                        "counts": [10, 100]},
          "positive_bins": [5, 10, 15, 20, 25]}
TASKS = 5  # per dataset
VOCAB = {0: 150, 1: 80}  # fold -> its training vocabulary: k = 100 is run in fold 0 only


def _counts(rng, n_rows: int) -> dict:
    pos = rng.integers(1, 6, n_rows)
    tp = rng.integers(0, pos + 1)
    fp = rng.integers(0, 3, n_rows)
    return {"tp": tp, "fp": fp, "fn": pos - tp, "tn": 40 - pos - fp}


def _forman_evaluate(dataset, repeat, seed) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    reps = [f"{b}-{m}" for b in FORMAN["bases"] for m in FORMAN["scalings"]]
    idx = pd.MultiIndex.from_product([range(FORMAN["folds"]), FORMAN["learners"], reps,
                                      range(TASKS)], names=["fold", "learner", "rep", "c"])
    f = idx.to_frame(index=False)
    f.insert(0, "repeat", repeat)
    f.insert(0, "task", [f"{dataset}/{c}" for c in f.pop("c")])
    f.insert(0, "dataset", dataset)
    return f.assign(**_counts(rng, len(f)), train_pos=3, converged=1)


def _forman_select(dataset, repeat, seed) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    sel, frames = FORMAN["selection"], []
    for fold in range(FORMAN["folds"]):  # select_repeat's grid
        grid = [(s, k) for k in sel["counts"] if k < VOCAB[fold] for s in sel["selectors"]]
        for selector, k in [*grid, ("all", VOCAB[fold])]:
            for scaling in sel["scalings"]:
                frames.append(pd.DataFrame({
                    "dataset": dataset, "task": [f"{dataset}/{c}" for c in range(TASKS)],
                    "repeat": repeat, "fold": fold, "selector": selector, "k": k,
                    "all": int(selector == "all"), "scaling": scaling}))
    f = pd.concat(frames, ignore_index=True)
    return f.assign(**_counts(rng, len(f)), train_pos=3, converged=1)


@pytest.fixture
def forman_files(tmp_path):
    root = tmp_path / "data"
    for i, dataset in enumerate(FORMAN["datasets"]):
        for kind, make in (("evaluate", _forman_evaluate), ("select", _forman_select)):
            (root / kind / dataset).mkdir(parents=True)
            make(dataset, 0, 10 * i + len(kind)).to_csv(root / kind / dataset / "r0.csv",
                                                       index=False)
    return root, _params(tmp_path, "forman", FORMAN)


def _forman_report(root, params, out):
    return main(["forman-report", "--params", str(params),
                 "--evaluate", str(root / "evaluate/{dataset}/r{repeat}.csv"),
                 "--select", str(root / "select/{dataset}/r{repeat}.csv"),
                 "--figures", str(out / "fig"), "--table", str(out / "table.tex"),
                 "--tests", str(out / "tests.tex"), "--claims", str(out / "claims.tex"),
                 "--metrics", str(out / "forman.json"), "--macros", str(out / "macros.tex")])


def test_forman_report_valid_input_writes_everything(forman_files, tmp_path):
    root, params = forman_files
    out = tmp_path / "out"
    assert _forman_report(root, params, out) == 0
    metrics = json.loads((out / "forman.json").read_text())
    assert (metrics["tasks"], metrics["repeats"], metrics["folds"]) == (2 * TASKS, 1, 2)
    assert "2-fold stratified CV (N=10 measurements)" in (out / "table.tex").read_text()
    assert len(_written(out)) == 6 * 3 + 5


def _row(**match):
    def pick(f):
        hit = np.ones(len(f), dtype=bool)
        for k, v in match.items():
            hit &= (f[k] == v).to_numpy()
        return int(np.flatnonzero(hit)[0])
    return pick


FORMAN_CASES = {  # (file under data/, change, words the message must hold)
    "missing representation": (
        "evaluate/tr12/r0.csv",
        lambda f: f.drop(index=_row(task="tr12/2", fold=1, rep="tf-bns")(f)),
        ["task=tr12/2", "fold=1", "rep=tf-bns", "is missing"]),
    "missing task": ("evaluate/tr23/r0.csv", lambda f: f[f["task"] != "tr23/4"],
                     ["task=tr23/4", "is missing"]),
    "undeclared representation": ("evaluate/tr23/r0.csv", _set(7, "rep", "tf-pmi"),
                                  ["rep=tf-pmi", "not declared"]),
    "duplicated cell": ("evaluate/tr12/r0.csv", lambda f: pd.concat([f, f.iloc[[17]]]),
                        ["appears twice", "task=tr12/2"]),
    "NaN count": ("evaluate/tr23/r0.csv", _set(3, "fn", float("nan")),
                  ["'fn' at (dataset=tr23, task=tr23/3, repeat=0, fold=0", "not a finite"]),
    "negative count": ("evaluate/tr12/r0.csv", _set(0, "tn", -1),
                       ["'tn' at (dataset=tr12, task=tr12/0", "outside [0, inf]"]),
    "converged out of range": ("evaluate/tr23/r0.csv", _set(1, "converged", 2),
                               ["'converged' at (dataset=tr23, task=tr23/1", "outside [0, 1]"]),
    "empty test fold": ("evaluate/tr23/r0.csv",
                        lambda f: f.assign(**{c: f[c].where(f.index != 2, 0)
                                              for c in ("tp", "fp", "fn", "tn")}),
                        ["task=tr23/2", "counts no test document"]),
    "missing selection cell": (
        "select/tr23/r0.csv",
        lambda f: f.drop(index=_row(fold=0, selector="bns", k=100, scaling="bns")(f)),
        ["task=tr23/0", "fold=0", "selector=bns", "k=100", "scaling=bns", "is missing"]),
    "selection level beyond the vocabulary": (
        "select/tr12/r0.csv",
        lambda f: pd.concat([f, f[(f["fold"] == 0) & (f["k"] == 100)].assign(fold=1)]),
        ["fold=1", "k=100", "not declared", "vocabulary"]),
    "missing 'all' rows": ("select/tr12/r0.csv",
                           lambda f: f[~((f["fold"] == 1) & (f["selector"] == "all"))],
                           ["fold=1, selector=all", "is missing"]),
    "duplicated selection cell": ("select/tr12/r0.csv", lambda f: pd.concat([f, f.iloc[[4]]]),
                                  ["appears twice", "selector=ig"]),
    "NaN selection count": ("select/tr23/r0.csv", _set(6, "tp", float("nan")),
                            ["'tp' at (dataset=tr23, task=tr23/1", "not a finite number"]),
    "selection count out of range": ("select/tr23/r0.csv", _set(0, "fp", -3),
                                     ["'fp' at (dataset=tr23, task=tr23/0", "outside [0, inf]"]),
}


@pytest.mark.parametrize("case", list(FORMAN_CASES))
def test_forman_report_refuses_bad_results(forman_files, tmp_path, capsys, case):
    root, params = forman_files
    rel, change, words = FORMAN_CASES[case]
    _edit(root / rel, change)
    out = tmp_path / "out"
    assert _forman_report(root, params, out) == 2
    _assert_refused(capsys, root / rel, words, out)


def test_forman_report_refuses_a_missing_learner_or_seed(forman_files, tmp_path, capsys):
    root, _ = forman_files
    out = tmp_path / "out"
    params = _params(tmp_path, "forman", {**FORMAN, "learners": ["linearsvc", "smo"]})
    assert _forman_report(root, params, out) == 2
    err = capsys.readouterr().err
    assert "evaluate/tr23/r0.csv" in err and "learner=smo" in err and "is missing" in err
    params = _params(tmp_path, "forman", {**FORMAN, "repeats": 2})
    assert _forman_report(root, params, out) == 2
    assert "r1.csv" in capsys.readouterr().err
    assert _written(out) == []


def test_forman_read_results_raises_data_error(forman_files):
    from termweight.runner.errors import DataError

    root, _ = forman_files
    units = [(d, 0) for d in FORMAN["datasets"]]
    ev = [str(root / f"evaluate/{d}/r0.csv") for d, _ in units]
    se = [str(root / f"select/{d}/r0.csv") for d, _ in units]
    evaluated, selected = forman_results.read_results(ev, se, units, FORMAN)
    assert len(evaluated) == 2 * 2 * 8 * TASKS and set(selected["k"]) == {10, 100, 80, 150}
    _edit(Path(se[1]), lambda f: f.drop(index=0))
    with pytest.raises(DataError, match="is missing") as exc:
        forman_results.read_results(ev, se, units, FORMAN)
    assert exc.value.path == se[1]
