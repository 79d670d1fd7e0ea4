"""Esuli & Sebastiani (2009) experiment: protocol pieces, and one small real Snakemake run.

The end-to-end test parses the real Reuters-21578 SGML files from the mirror, runs the generic
prepare -> tokenize -> count rules and the `esuli` target with 5 boosting rounds, and checks the
reports and the ModApte feature counts.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from termweight.encoding import ThresholdEncoder
from termweight.evaluation import confusion_counts
from termweight.experiments import esuli
from termweight.learners.boosting import AdaBoostMH, MPBoost


def _toy(seed=0, m=120, n=30, k=4):
    rng = np.random.default_rng(seed)
    X = sp.csr_matrix(rng.poisson(0.4, size=(m, n)) * (rng.random((m, n)) < 0.5))
    Y = np.zeros((m, k), dtype=bool)
    for lab in range(k):  # label l is signalled by term l's count
        Y[:, lab] = X[:, lab].toarray().ravel() + rng.integers(0, 2, m) >= 2
    return X, Y


# ---------------------------------------------------------------- thresholds

def test_every_integer_thresholds_fill_the_gaps():
    X = sp.csr_matrix(np.array([[1, 0, 5], [3, 2, 0], [0, 2, 1]]))
    d = ThresholdEncoder().fit(X)
    e = ThresholdEncoder(thresholds="every").fit(X)
    assert d.thresholds_.tolist() == [1, 3, 2, 1, 5]
    assert e.thresholds_.tolist() == [1, 2, 3, 1, 2, 1, 2, 3, 4, 5]
    assert e.feature_ptr_.tolist() == [0, 3, 5, 10]
    assert d.mean_values_per_term_ == pytest.approx(5 / 3)
    assert e.mean_values_per_term_ == pytest.approx(10 / 3)
    T = sp.csr_matrix(np.array([[2, 1, 7], [4, 0, 0]]))  # test counts between / above training
    assert d.transform(T).toarray().tolist() == [[1, 0, 0, 1, 1], [1, 1, 0, 0, 0]]
    assert e.transform(T).toarray().tolist() == [[1, 1, 0, 1, 0, 1, 1, 1, 1, 1],
                                                 [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]]


def test_every_integer_needs_integer_counts():
    with pytest.raises(ValueError, match="integer"):
        ThresholdEncoder(thresholds="every").fit(sp.csr_matrix(np.array([[0.5, 1.0]])))


def test_both_readings_give_the_same_distinct_columns_on_training_rows():
    X, _ = _toy()
    a = ThresholdEncoder().fit(X).transform(X).toarray()
    b = ThresholdEncoder(thresholds="every").fit(X).transform(X).toarray()
    assert {tuple(c) for c in a.T} == {tuple(c) for c in b.T}


def test_encode_representation_fits_on_training_rows_only():
    Xtr = sp.csr_matrix(np.array([[1, 2], [3, 0]]))
    Xte = sp.csr_matrix(np.array([[9, 9]]))
    A, B, info = esuli.encode_representation("ordinal", Xtr, Xte)
    assert info["n_features"] == 3 and B.toarray().tolist() == [[1, 1, 1]]
    A, B, info = esuli.encode_representation("tfidf", Xtr, Xte)
    assert np.allclose(np.sqrt(B.multiply(B).sum(axis=1)), 1.0)
    assert info["n_features"] == 2
    with pytest.raises(Exception, match="unknown representation"):
        esuli.encode_representation("logtf", Xtr, Xte)


def test_feature_summary_counts():
    X = sp.csr_matrix(np.array([[1, 0, 5], [3, 2, 0], [0, 2, 1]]))
    s = esuli.feature_summary(X, X)
    assert s["terms_before"] == 3
    assert s["distinct_train"]["features_after"] == 5
    assert s["every_train"]["features_after"] == 10
    assert s["max_training_count"] == 5 and s["terms_with_one_value"] == 0


def test_modapte_split_needs_both_subsets():
    tr, te = esuli.modapte_split(["train", "test", "train"])
    assert tr.tolist() == [0, 2] and te.tolist() == [1]
    with pytest.raises(Exception, match="train and test"):
        esuli.modapte_split(["train", "train"])


# ---------------------------------------------------------------- evaluation

def test_scores_macro_f1_is_mean_of_per_category_f1():
    tp, fp, fn = np.array([8, 0, 1]), np.array([2, 0, 3]), np.array([0, 4, 1])
    s = esuli.scores_from_counts(tp, fp, fn)
    f1 = [16 / 18, 0.0, 2 / 6]
    assert s["macro_f1"] == pytest.approx(np.mean(f1))
    assert s["micro_f1"] == pytest.approx(18 / (18 + 5 + 5))
    assert s["macro_precision"] == pytest.approx(np.mean([0.8, 0.0, 0.25]))  # 0/0 -> 0
    assert esuli.macro_precision_no_prediction_as_one(tp, fp) == pytest.approx(
        np.mean([0.8, 1.0, 0.25]))


@pytest.mark.parametrize("cls", [AdaBoostMH, MPBoost])
def test_confusion_per_round_matches_prediction_at_every_round(cls):
    X, Y = _toy(1)
    est = cls(n_rounds=8).fit(X[:80], Y[:80])
    counts = esuli.confusion_per_round(est.staged_decision_function(X[80:]), Y[80:])
    assert counts["tp"].shape == (8, Y.shape[1])
    for t in (1, 4, 8):
        ref = cls.from_arrays({**est.to_arrays(), "n_rounds": np.int64(t),
                               "pivots": est.pivots_[:t], "c0": est.c0_[:t],
                               "c1": est.c1_[:t], "z": est.z_[:t]})
        c = confusion_counts(Y[80:], ref.predict(X[80:]))
        for col in ("tp", "fp", "fn"):
            assert counts[col][t - 1].tolist() == c[col].tolist()


def test_published_numbers_are_complete_and_consistent():
    pub = esuli.published()
    rows = pub["table1"]["rows"]
    assert set(rows) == {"adaboost_mh/binary", "adaboost_mh/ordinal", "mp_boost/binary",
                         "mp_boost/ordinal", "svm/tfidf"}
    for row in rows.values():
        assert set(row) == set(esuli.MEASURES)
    f = pub["features"]
    assert round(f["features_after"] / f["terms_before"], 2) == f["values_per_term"]
    assert esuli.published_key("mp_boost_ordinal_every") == "mp_boost/ordinal"
    assert esuli.published_key("adaboost_mh_binary") == "adaboost_mh/binary"
    assert esuli.published_key(esuli.SVM_RUN) == "svm/tfidf"


# ---------------------------------------------------------------- end to end

@pytest.mark.slow
@pytest.mark.realdata
def test_esuli_target_end_to_end(papers_tiny):
    """The esuli part of one `snakemake papers` run on tiny configs (conftest's papers_tiny)."""
    root = papers_tiny
    summary = json.loads((root / "data/esuli/features/summary.json").read_text())
    assert (summary["train_docs"], summary["test_docs"], summary["categories"]) == (9603, 3299, 90)
    assert abs(summary["terms_before"] - 20123) / 20123 < 0.05
    d, e = summary["distinct_train"], summary["every_train"]
    assert d["features_after"] < e["features_after"]
    assert abs(e["values_per_term"] - 2.34) < 0.1  # the reading that matches the paper

    metrics = json.loads((root / "reports/metrics/esuli.json").read_text())
    assert set(metrics["runs"]) == {"adaboost_mh_binary", "adaboost_mh_ordinal",
                                    "mp_boost_binary", "mp_boost_ordinal", "svm_tfidf"}
    assert 0.8 < metrics["runs"]["svm_tfidf"]["micro_f1"] < 0.95
    curve = pd.read_csv(root / "data/esuli/curves/mp_boost_ordinal.csv")
    assert curve["round"].tolist() == [1, 2, 3, 4, 5]
    assert curve["micro_f1"].iloc[-1] == pytest.approx(
        metrics["runs"]["mp_boost_ordinal"]["micro_f1"], abs=1e-6)
    table = (root / "reports/tables/esuli_table1.tex").read_text()
    assert "published" in table and r"\toprule" in table and "0.853" in table
    assert r"\newcommand{\esuliPubFeatures}{47,087}" in (root / "reports/macros/esuli.tex"
                                                        ).read_text()
    assert "every integer" in (root / "reports/tables/esuli_notes.tex").read_text().lower()
    for ext in ("pdf", "png"):
        assert (root / f"reports/figures/esuli_f1_rounds.{ext}").stat().st_size > 1000
    assert "Nothing to be done" in papers_tiny.with_suffix(".dryrun.log").read_text()  # all five
