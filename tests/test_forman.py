"""Forman (2008) BNS feature scaling: protocol pieces and one real Snakemake run of `forman`.

Real data: tr23 (204 documents, 6 classes) and tr12 from ../shared/datasets/forman19.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import LinearSVC
from workflow_utils import FORMAN_CFG

from termweight import scoring
from termweight.experiments import forman
from termweight.statistics import term_stats

CFG = FORMAN_CFG  # the settings of the tiny `papers` run too (tests/workflow_utils.py)


@pytest.fixture(scope="module")
def tr23(mirror, tmp_path_factory):
    from termweight.datasets import get_dataset

    corpus = get_dataset("tr23").parser(mirror / "forman19", {})
    path = tmp_path_factory.mktemp("corpus") / "tr23"
    corpus.save(path)
    return corpus, path


@pytest.fixture(scope="module")
def evaluated(tr23):
    return forman.evaluate_repeat(tr23[1], CFG, seed=11, repeat=0)


def test_labels_follow_the_paper():
    assert forman.label("binary-bns") == "BNS"
    assert forman.label("tf-idf") == "TF·IDF"
    assert forman.label("tf-none") == "TF"
    assert forman.label("binary-none") == "binary"
    assert forman.label("binary-logodds") == "LogOdds"


def test_folds_are_stratified_seeded_and_allow_tiny_classes():
    labels = np.array([0] * 40 + [1] * 12 + [2] * 2)  # class 2 smaller than the folds (as tr31)
    folds = forman.fold_indices(labels, 4, seed=3)
    again = forman.fold_indices(labels, 4, seed=3)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, again, strict=True))
    assert not np.array_equal(folds[0][1], forman.fold_indices(labels, 4, seed=4)[0][1])
    tests = np.concatenate([te for _, te in folds])
    assert np.array_equal(np.sort(tests), np.arange(labels.size))  # a partition
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0
        assert np.bincount(labels[test], minlength=3)[:2].tolist() in ([10, 3], [10, 3])
        assert np.all(np.bincount(labels[train], minlength=3) >= 1)  # every task has positives


def test_same_folds_for_every_representation(evaluated, tr23):
    corpus, _ = tr23
    f = evaluated
    assert f["rep"].nunique() == len(CFG["bases"]) * len(CFG["scalings"])
    f = f.assign(test_pos=f["tp"] + f["fn"], n_test=f[list(forman.COUNT_COLUMNS)].sum(axis=1))
    per = f.groupby(["task", "fold"])[["test_pos", "n_test", "train_pos"]].nunique()
    assert (per == 1).all().all()  # identical test/train partitions across representations
    # the folds are exactly fold_indices(labels, 4, seed + repeat)
    folds = forman.fold_indices(corpus.labels, 4, 11)
    first = f[(f["rep"] == "binary-bns") & (f["task"] == f["task"].iloc[0])].sort_values("fold")
    assert first["n_test"].tolist() == [te.size for _, te in folds]
    # pooled over the folds, every document is tested exactly once per task
    meas = forman.measurements(evaluated, ["rep"])
    assert (meas["n"] == corpus.n_docs).all()
    assert len(meas) == len(corpus.classes) * f["rep"].nunique()


def test_scaling_uses_training_rows_only(tr23):
    corpus, _ = tr23
    train, test = forman.fold_indices(corpus.labels, 4, 5)[0]
    Xtr, Xte, cols = forman.train_view(corpus.X, train, test)
    w = forman.fold_weights(term_stats(Xtr, corpus.Y[train]), ["bns", "idf", "logodds"])
    # scramble every test row: the kept columns and the weights do not move
    X2 = sp.lil_matrix(corpus.X, dtype=np.float64)
    rng = np.random.default_rng(0)
    X2[test] = rng.integers(0, 3, size=(test.size, corpus.X.shape[1]))
    Xtr2, _, cols2 = forman.train_view(sp.csr_matrix(X2), train, test)
    w2 = forman.fold_weights(term_stats(Xtr2, corpus.Y[train]), ["bns", "idf", "logodds"])
    assert np.array_equal(cols, cols2)
    for m in w:
        assert np.array_equal(w[m], w2[m])
    # and they are the metric on the training contingency table, by hand for task 0 and BNS
    B = (corpus.X[train][:, cols] > 0).toarray()
    y = corpus.labels[train] == 0
    tp, fp = B[y].sum(0), B[~y].sum(0)
    by_hand = scoring.bns(tp, fp, y.sum() - tp, (~y).sum() - fp)
    np.testing.assert_allclose(w["bns"][0], by_hand)
    assert np.all(np.isfinite(w["logodds"])) and np.all(w["logodds"] >= 0)


def test_selection_and_scaling_hybrid_equals_direct_fit(tr23):
    """IG selection + BNS scaling (the paper's hybrid) = LinearSVC on X[:, top-k IG] * BNS."""
    corpus, _ = tr23
    train, test = forman.fold_indices(corpus.labels, 4, 5)[1]
    Xtr, Xte, _ = forman.train_view(corpus.X, train, test)
    st = term_stats(Xtr, corpus.Y[train])
    B = forman.base_matrix(Xtr, "binary")
    order = forman.ranked_columns(scoring.score("ig", st))
    bns = forman.fold_weights(st, ["bns"])["bns"]
    k = 50
    cols = [o[:k] for o in order]
    coef, b, conv = forman.fit_tasks(B, corpus.labels[train], bns, 1.0, 1000, columns=cols)
    for c in (0, 3):
        top = np.argsort(-scoring.score("ig", st)[c], kind="stable")[:k]
        assert np.array_equal(np.sort(top), np.sort(cols[c]))
        assert set(np.flatnonzero(coef[c])) <= set(cols[c])
        svm = LinearSVC(C=1.0, dual=True, max_iter=1000, random_state=0).fit(
            B[:, cols[c]].multiply(bns[c][cols[c]]).tocsr(), corpus.labels[train] == c)
        np.testing.assert_allclose(coef[c, cols[c]], svm.coef_[0] * bns[c][cols[c]], atol=1e-10)
        np.testing.assert_allclose(b[c], svm.intercept_[0])
    # margins on the unscaled test rows equal the scaled, selected test rows' margins
    Bte = forman.base_matrix(Xte, "binary")
    direct = Bte[:, cols[0]].multiply(bns[0][cols[0]]).tocsr() @ (coef[0, cols[0]] / np.where(
        bns[0][cols[0]] > 0, bns[0][cols[0]], 1))
    np.testing.assert_allclose((Bte @ coef[0]), direct, atol=1e-10)


def test_select_repeat_grid(tr23):
    corpus, path = tr23
    f = forman.select_repeat(path, CFG, seed=11, repeat=0)
    assert set(f["selector"]) == {"ig", "bns", "all"}
    assert (f.loc[f["selector"] == "all", "k"] > 5000).all()  # the fold's whole vocabulary
    meas = forman.selection_measurements(f)
    combos = meas.groupby(["selector", "k", "scaling"]).size()
    assert len(combos) == 2 * 2 * 2 + 2 and (combos == len(corpus.classes)).all()
    assert (meas["n"] == corpus.n_docs).all() and meas["f1"].between(0, 1).all()
    # "all" with no scaling is plain binary features: the same numbers as forman-evaluate's
    ev = forman.measurements(forman.evaluate_repeat(path, CFG, seed=11, repeat=0), ["rep"])
    a = meas[(meas["selector"] == "all") & (meas["scaling"] == "none")].set_index("task")
    b = ev[ev["rep"] == "binary-none"].set_index("task")
    assert np.array_equal(a.loc[b.index, "tp"], b["tp"])
    a = meas[(meas["selector"] == "all") & (meas["scaling"] == "bns")].set_index("task")
    b = ev[ev["rep"] == "binary-bns"].set_index("task")
    assert np.array_equal(a.loc[b.index, "fp"], b["fp"])


def test_selection_level_beyond_a_folds_vocabulary_is_all_features():
    import pandas as pd

    def row(fold, selector, k, tp):
        return {"dataset": "d", "task": "d/a", "repeat": 0, "fold": fold, "selector": selector,
                "k": k, "all": int(selector == "all"), "scaling": "bns", "tp": tp, "fp": 1,
                "fn": 1, "tn": 10, "train_pos": 3, "converged": 1}

    # fold 1 has fewer than 50 terms: no k=50 result there, its "all" result stands in
    f = pd.DataFrame([row(0, "ig", 50, 2), row(0, "all", 80, 5), row(1, "all", 40, 7)])
    m = forman.selection_measurements(f).set_index(["selector", "k"])
    assert m.loc[("ig", 50), "tp"] == 2 + 7
    assert m.loc[("all", 0), "tp"] == 5 + 7


def test_confusion_and_pooling():
    labels = np.array([0, 0, 1, 2])
    margins = np.array([[1.0, -1, -1], [-1, 1, -1], [-1, 1, -1], [1, -1, -1]])
    c = forman.confusion(labels, margins)
    assert c.tolist() == [[1, 1, 1, 1], [1, 1, 0, 2], [0, 0, 1, 3]]


@pytest.mark.slow
@pytest.mark.realdata
def test_snakemake_forman_target(papers_tiny):
    """The forman part of one `snakemake papers` run on tiny configs (conftest's papers_tiny)."""
    root = papers_tiny
    m = json.loads((root / "reports/metrics/forman.json").read_text())
    assert m["tasks"] == 6 + 8 and m["repeats"] == 1 and m["datasets"] == ["tr12", "tr23"]
    assert set(m["representations"]) == {f"{b}-{s}" for b in ("binary", "tf")
                                         for s in ("none", "idf", "bns", "logodds")}
    for r in m["representations"].values():
        assert 0.8 < r["accuracy"] <= 1 and 0.2 < r["f1"] <= 1
    assert {t["b"] for t in m["tests"]} >= {"tf-idf"}
    for n in range(1, 7):
        for ext in ("pdf", "png"):
            assert (root / f"reports/figures/forman_fig{n}.{ext}").stat().st_size > 1000
    tex = (root / "reports/tables/forman_representations.tex").read_text()
    assert r"\toprule" in tex and "TF$\\cdot$IDF" in tex
    assert "\\newcommand{\\FormanBinaryBnsF}" in (root / "reports/macros/forman.tex").read_text()
    assert "Nothing to be done" in papers_tiny.with_suffix(".dryrun.log").read_text()  # all five
