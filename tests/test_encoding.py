"""Encodings (METHODS.md section 4): base kinds by hand, leak-free fitting, supervised scaling,
the Esuli & Sebastiani ordinal-to-binary encoding against a brute-force reference, and sklearn
conventions."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtri
from sklearn.base import clone
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC

from termweight import scoring
from termweight.encoding import (
    SupervisedScaler,
    TermEncoder,
    ThresholdEncoder,
    encode,
    idf_weights,
    l2_normalize,
    scale_columns,
)
from termweight.statistics import term_stats
from termweight.weightings import bns as bns_module

# 3 training docs x 4 terms; term 3 never occurs in training
X_TRAIN = np.array([[2, 0, 1, 0],
                    [0, 3, 0, 0],
                    [1, 1, 0, 0]], dtype=float)
X_TEST = np.array([[0, 5, 0, 2],
                   [4, 0, 0, 0],
                   [0, 0, 0, 0]], dtype=float)


def dense(M):
    return M.toarray() if sp.issparse(M) else np.asarray(M)


# ---------------------------------------------------------------- TermEncoder by hand

def test_binary_tf_logtf_by_hand():
    X = sp.csr_matrix(X_TRAIN)
    np.testing.assert_array_equal(dense(TermEncoder("binary").fit_transform(X)),
                                  [[1, 0, 1, 0], [0, 1, 0, 0], [1, 1, 0, 0]])
    np.testing.assert_array_equal(dense(TermEncoder("tf").fit_transform(X)), X_TRAIN)
    # log(1 + tf): 2 -> log 3, 1 -> log 2, 3 -> log 4
    np.testing.assert_allclose(dense(TermEncoder("logtf").fit_transform(X)),
                               [[math.log(3), 0, math.log(2), 0],
                                [0, math.log(4), 0, 0],
                                [math.log(2), math.log(2), 0, 0]])


def test_tfidf_by_hand():
    enc = TermEncoder("tfidf").fit(sp.csr_matrix(X_TRAIN))
    # N = 3; df = [2, 2, 1, 0] -> idf = [log(3/2), log(3/2), log 3, 0 (absent)]
    i0, i2 = math.log(3 / 2), math.log(3)
    np.testing.assert_allclose(enc.idf_, [i0, i0, i2, 0.0])
    # row 0: tf*idf = [2 log1.5, 0, log 3, 0], divided by sqrt((2 log1.5)^2 + (log 3)^2)
    r0 = np.array([2 * i0, 0, i2, 0]) / math.sqrt((2 * i0) ** 2 + i2**2)
    # row 1: [0, 3 log1.5, 0, 0] -> [0, 1, 0, 0]; row 2: [log1.5, log1.5, 0, 0] / (sqrt(2) log1.5)
    r2 = np.array([1, 1, 0, 0]) / math.sqrt(2)
    np.testing.assert_allclose(dense(enc.transform(sp.csr_matrix(X_TRAIN))), [r0, [0, 1, 0, 0], r2])


def test_tfidf_uses_training_df_only_and_unit_rows():
    enc = TermEncoder("tfidf").fit(sp.csr_matrix(X_TRAIN))
    idf_before = enc.idf_.copy()
    Z = dense(enc.transform(sp.csr_matrix(X_TEST)))
    np.testing.assert_array_equal(enc.idf_, idf_before)  # transforming test rows changes nothing
    # test row 0: [0, 5 log1.5, 0, 2*0] (term 3 absent from training -> idf 0) -> [0, 1, 0, 0]
    np.testing.assert_allclose(Z[0], [0, 1, 0, 0])
    np.testing.assert_allclose(Z[1], [1, 0, 0, 0])
    np.testing.assert_array_equal(Z[2], 0)  # empty row stays zero
    # idf fit on train+test would differ: the encoder must not have seen the test rows
    assert not np.allclose(idf_weights(sp.csr_matrix(np.vstack([X_TRAIN, X_TEST]))), enc.idf_)
    rng = np.random.default_rng(3)
    Xr = sp.random(60, 30, density=0.15, random_state=4, format="csr",
                   data_rvs=lambda k: rng.integers(1, 6, k).astype(float))
    Zr = TermEncoder("tfidf").fit(Xr[:40]).transform(Xr[40:])
    norms = np.sqrt(np.asarray(Zr.multiply(Zr).sum(axis=1)).ravel())
    nonzero_rows = np.asarray(abs(Zr).sum(axis=1)).ravel() > 0
    np.testing.assert_allclose(norms[nonzero_rows], 1.0)
    np.testing.assert_array_equal(norms[~nonzero_rows], 0.0)


def test_refit_with_another_kind_drops_idf():
    enc = TermEncoder("tfidf").fit(X_TRAIN)
    enc.set_params(kind="tf").fit(X_TRAIN)
    np.testing.assert_array_equal(dense(enc.transform(X_TRAIN)), X_TRAIN)
    assert not hasattr(enc, "idf_")


def test_helpers():
    X = sp.csr_matrix(X_TRAIN)
    np.testing.assert_array_equal(dense(scale_columns(X, [1, 2, 3, 4])), X_TRAIN * [1, 2, 3, 4])
    np.testing.assert_allclose(dense(l2_normalize(X))[0], [2 / math.sqrt(5), 0, 1 / math.sqrt(5), 0])
    np.testing.assert_array_equal(dense(encode(X, "binary", [2, 2, 2, 2])), 2 * (X_TRAIN > 0))
    with pytest.raises(ValueError):
        encode(X, "tfidf")
    before = X.toarray()
    for kind in ("binary", "tf", "logtf"):
        encode(X, kind)
    np.testing.assert_array_equal(X.toarray(), before)


# ---------------------------------------------------------------- SupervisedScaler

@pytest.mark.parametrize("metric", scoring.FORMAN_SCALINGS + scoring.KIM_BASES)
def test_supervised_scaler_weights_equal_scaling_weights(metric):
    rng = np.random.default_rng(11)
    X = sp.random(50, 25, density=0.2, random_state=5, format="csr",
                  data_rvs=lambda k: rng.integers(1, 5, k).astype(float))
    y = (rng.random(50) < 0.3).astype(int)
    train, test = np.arange(35), np.arange(35, 50)
    sc = SupervisedScaler(metric=metric, base="binary", norm=None).fit(X[train], y[train])
    w = scoring.scaling_weights(metric, term_stats(X[train], sp.csr_matrix(y[train][:, None])))[0]
    np.testing.assert_allclose(sc.weights_, w, rtol=1e-12)
    assert np.all(np.isfinite(sc.weights_)) and np.all(sc.weights_ >= 0)
    # binary base: [x > 0] * w; tf base: x * w; test rows scaled with the TRAINING weights
    np.testing.assert_allclose(dense(sc.transform(X[test])), (X[test].toarray() > 0) * w)
    sc_tf = SupervisedScaler(metric=metric, base="tf", norm=None).fit(X[train], y[train])
    np.testing.assert_allclose(dense(sc_tf.transform(X[test])), X[test].toarray() * w)


def test_supervised_scaler_bns_by_hand_and_norm():
    # term 0 in docs 0, 2 (both positive); term 1 in doc 1 (negative); term 2 in docs 0, 1
    X = np.array([[1, 0, 2], [0, 1, 1], [3, 0, 0], [0, 0, 0]], dtype=float)
    y = np.array([1, 0, 1, 0])
    sc = SupervisedScaler("bns").fit(X, y)
    lo, hi = bns_module.CLIP

    def f(r):
        return ndtri(np.clip(r, lo, hi))

    # pos = neg = 2: term 0 tpr 1, fpr 0; term 1 tpr 0, fpr 1/2; term 2 tpr 1/2, fpr 1/2
    np.testing.assert_allclose(sc.weights_, [abs(f(1.0) - f(0.0)), abs(f(0.0) - f(0.5)), 0.0])
    Z = dense(SupervisedScaler("bns", norm="l2").fit(X, y).transform(X))
    np.testing.assert_allclose(np.linalg.norm(Z[:3], axis=1), 1.0)
    # boolean labels and a single-class fold: the task is y == 1 / True
    np.testing.assert_allclose(SupervisedScaler("bns").fit(X, y.astype(bool)).weights_, sc.weights_)
    acc_none = SupervisedScaler("acc").fit(X, np.zeros(4, int)).weights_
    # no positives: tp = 0 for every term, Acc after the swap = fn - tn <= 0 -> 0
    np.testing.assert_array_equal(acc_none, 0.0)


def test_supervised_scaler_multiclass_and_multilabel_combine():
    rng = np.random.default_rng(4)
    X = sp.random(60, 12, density=0.3, random_state=2, format="csr")
    y = rng.integers(0, 3, 60)
    Y = (y[:, None] == np.arange(3)).astype(float)
    per_task = scoring.scaling_weights("bns", term_stats(X, sp.csr_matrix(Y)))  # (3, 12)
    prior = Y.sum(axis=0) / Y.sum()
    sc = SupervisedScaler("bns", base="binary", norm=None, combine="max").fit(X, y)
    np.testing.assert_array_equal(sc.task_weights_, per_task)
    np.testing.assert_array_equal(sc.weights_, per_task.max(axis=0))
    avg = SupervisedScaler("bns", combine="avg").fit(X, y).weights_
    np.testing.assert_allclose(avg, prior @ per_task, rtol=1e-12)
    assert np.all(avg <= sc.weights_ + 1e-12) and not np.allclose(avg, sc.weights_)
    # string labels: the same tasks in sorted order; a label-indicator matrix: one task per column
    names = np.array(["a", "b", "c"])[y]
    np.testing.assert_array_equal(SupervisedScaler("bns").fit(X, names).weights_, sc.weights_)
    np.testing.assert_array_equal(SupervisedScaler("bns").fit(X, Y.astype(int)).weights_, sc.weights_)
    np.testing.assert_allclose(dense(sc.transform(X)), (X.toarray() > 0) * sc.weights_)
    with pytest.raises(ValueError, match="known metrics: .*bns"):
        SupervisedScaler("bsn").fit(X, y)


# ---------------------------------------------------------------- ThresholdEncoder

def brute_force_thresholds(train: np.ndarray):
    """[(term, v)] for every term and DISTINCT nonzero training value v, by term then v."""
    return [(j, v) for j in range(train.shape[1]) for v in sorted(set(train[:, j][train[:, j] > 0]))]


def brute_force_encode(rows: np.ndarray, thresholds) -> np.ndarray:
    out = np.zeros((rows.shape[0], len(thresholds)))
    for i in range(rows.shape[0]):
        for f, (j, v) in enumerate(thresholds):
            out[i, f] = 1.0 if rows[i, j] >= v else 0.0
    return out


def test_threshold_encoder_by_hand():
    # term 0 values {1, 2}; term 1 {5}; term 2 never in training; term 3 {1, 2, 3}
    train = np.array([[1, 5, 0, 3],
                      [2, 0, 0, 1],
                      [1, 0, 0, 2],
                      [0, 5, 0, 0]], dtype=float)
    enc = ThresholdEncoder().fit(sp.csr_matrix(train))
    np.testing.assert_array_equal(enc.thresholds_, [1, 2, 5, 1, 2, 3])
    np.testing.assert_array_equal(enc.feature_ptr_, [0, 2, 3, 3, 6])
    assert enc.n_features_out_ == 6  # 2 + 1 + 0 + 3
    assert enc.mean_values_per_term_ == pytest.approx(6 / 3)  # 3 terms present in training
    assert list(enc.get_feature_names_out(["a", "b", "c", "d"])) == [
        "a>=1", "a>=2", "b>=5", "d>=1", "d>=2", "d>=3"]
    # test rows: above all thresholds (a=9 fires a>=1, a>=2), between (b=3 < 5 fires nothing;
    # d=2.5 fires d>=1, d>=2), below (d=0.5 fires nothing), absent term c=7 -> no feature
    test = np.array([[9, 3, 7, 2.5],
                     [0, 6, 0, 0.5]])
    np.testing.assert_array_equal(dense(enc.transform(sp.csr_matrix(test))),
                                  [[1, 1, 0, 1, 1, 0],
                                   [0, 0, 1, 0, 0, 0]])


def _random_counts(rng, n, d, values):
    mask = rng.random((n, d)) < 0.35
    return rng.choice(values, size=(n, d)) * mask


@pytest.mark.parametrize("seed", range(6))
def test_threshold_encoder_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    # training counts with gaps (1, 2, 4, 7): test counts 0..9 fall above, below and between them
    train = _random_counts(rng, 25, 12, np.array([1, 2, 4, 7])).astype(float)
    train[:, rng.integers(0, 12, 2)] = 0  # terms absent from training
    test = _random_counts(rng, 15, 12, np.arange(1, 10)).astype(float)
    enc = ThresholdEncoder().fit(sp.csr_matrix(train))
    thr = brute_force_thresholds(train)
    assert enc.n_features_out_ == len(thr)
    np.testing.assert_array_equal(np.column_stack([enc.threshold_terms_, enc.thresholds_]),
                                  np.array(thr).reshape(-1, 2))
    present = int(((train > 0).sum(axis=0) > 0).sum())
    assert enc.mean_values_per_term_ == pytest.approx(len(thr) / present)
    np.testing.assert_array_equal(dense(enc.transform(sp.csr_matrix(train))),
                                  brute_force_encode(train, thr))
    np.testing.assert_array_equal(dense(enc.transform(sp.csr_matrix(test))),
                                  brute_force_encode(test, thr))
    # test rows never change the fitted thresholds
    np.testing.assert_array_equal(np.column_stack([enc.threshold_terms_, enc.thresholds_]),
                                  np.array(thr).reshape(-1, 2))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(1, 12), st.integers(1, 8), st.integers(0, 2**31 - 1))
def test_threshold_encoder_property(n, d, seed):
    rng = np.random.default_rng(seed)
    train = (rng.integers(0, 5, (n, d)) * (rng.random((n, d)) < 0.5)).astype(float)
    test = rng.integers(0, 7, (4, d)).astype(float)
    enc = ThresholdEncoder().fit(sp.csr_matrix(train))
    thr = brute_force_thresholds(train)
    np.testing.assert_array_equal(dense(enc.transform(sp.csr_matrix(test))),
                                  brute_force_encode(test, thr))


def test_ordinal_encoding_of_binary_corpus_is_binary():
    rng = np.random.default_rng(7)
    B = (rng.random((30, 20)) < 0.2).astype(float)
    B[:, 4] = 0  # a term absent from training
    enc = ThresholdEncoder().fit(sp.csr_matrix(B))
    present = B.sum(axis=0) > 0
    assert enc.n_features_out_ == present.sum()
    assert enc.mean_values_per_term_ == 1.0
    np.testing.assert_array_equal(dense(enc.transform(sp.csr_matrix(B))),
                                  dense(TermEncoder("binary").fit_transform(B))[:, present])


def test_threshold_encoder_monotone_transform_invariant():
    # Esuli & Sebastiani: any non-decreasing tf (e.g. log(1 + tf)) gives the same binary features
    rng = np.random.default_rng(8)
    X = sp.csr_matrix(_random_counts(rng, 20, 10, np.arange(1, 6)).astype(float))
    a = ThresholdEncoder().fit(X[:14]).transform(X[14:])
    b = ThresholdEncoder().fit(np.log1p(X[:14])).transform(np.log1p(X[14:]))
    np.testing.assert_array_equal(dense(a), dense(b))


def test_threshold_encoder_leaves_input_alone_and_rejects_wrong_width():
    X = sp.csr_matrix((np.array([2.0, 0.0, 1.0]), np.array([0, 1, 1]), np.array([0, 2, 3])),
                      shape=(2, 2))
    before = X.toarray()
    enc = ThresholdEncoder().fit(X)
    enc.transform(X)
    np.testing.assert_array_equal(X.toarray(), before)
    with pytest.raises(ValueError):
        enc.transform(np.ones((1, 3)))


# ---------------------------------------------------------------- sklearn conventions

@pytest.mark.parametrize("est, params", [
    (TermEncoder("logtf"), {"kind": "logtf", "sparse_output": True}),
    (SupervisedScaler("ig", base="tf", norm="l2"),
     {"metric": "ig", "base": "tf", "norm": "l2", "combine": "max", "sparse_output": True}),
    (ThresholdEncoder(), {"thresholds": "distinct", "sparse_output": True}),
    (ThresholdEncoder("every", sparse_output=False), {"thresholds": "every", "sparse_output": False}),
])
def test_get_params_and_clone(est, params):
    assert est.get_params() == params
    est.fit(X_TRAIN, np.array([0, 1, 1]))
    c = clone(est)
    assert c.get_params() == params
    assert not any(k.endswith("_") and not k.startswith("_") for k in vars(c))  # unfitted


def test_invalid_kind():
    with pytest.raises(ValueError):
        TermEncoder("bm25").fit(X_TRAIN)


@pytest.mark.parametrize("first", [TermEncoder("tfidf"), SupervisedScaler("bns"), ThresholdEncoder()])
def test_pipeline_with_linear_svc(first):
    rng = np.random.default_rng(0)
    X = sp.random(80, 40, density=0.15, random_state=1, format="csr",
                  data_rvs=lambda k: rng.integers(1, 4, k).astype(float))
    y = (np.asarray(X[:, :5].sum(axis=1)).ravel() > 0).astype(int)
    pipe = Pipeline([("enc", first), ("svm", LinearSVC(C=1.0))]).fit(X[:60], y[:60])
    pred = pipe.predict(X[60:])
    assert pred.shape == (20,) and set(np.unique(pred)) <= {0, 1}
    assert pipe.score(X[:60], y[:60]) > 0.8
    p2 = clone(pipe).fit(X[:60], y[:60])
    np.testing.assert_array_equal(p2.predict(X[60:]), pred)


def test_sorted_unique_without_pandas(monkeypatch):
    """The core install has no pandas: ThresholdEncoder's distinct values come from np.unique,
    the same values in the same order."""
    import sys

    from termweight.encoding import _sorted_unique

    rng = np.random.default_rng(0)
    values = [rng.integers(0, 50, 300), rng.integers(1, 6, 200) / 4.0, np.array([], np.float64)]
    expected = [_sorted_unique(v) for v in values]
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` raises ModuleNotFoundError
    for v, e in zip(values, expected, strict=True):
        got = _sorted_unique(v)
        assert got.dtype == e.dtype
        np.testing.assert_array_equal(got, e)


# ---------------------------------------------------------------- defaults, input checks, dense guard

def test_supervised_scaler_defaults_are_logtf_l2():
    X = np.array([[3, 0, 1], [2, 0, 1], [0, 4, 1], [0, 1, 1]], dtype=float)
    y = np.array([1, 1, 0, 0])
    sc = SupervisedScaler().fit(X, y)
    assert (sc.metric, sc.base, sc.norm) == ("idf", "logtf", "l2")
    expect = np.log1p(X) * scoring.scaling_weights("idf", term_stats(X, y[:, None]))[0]
    expect /= np.linalg.norm(expect, axis=1, keepdims=True)
    np.testing.assert_allclose(dense(sc.transform(X)), expect)


@pytest.mark.parametrize("make", [lambda: SupervisedScaler("bns"), lambda: TermEncoder("binary"),
                                  lambda: TermEncoder("tfidf")])
def test_non_count_input_warns_in_fit_and_transform(make):
    from termweight.encoding import NonCountInputWarning

    X = np.array([[0.5, 0.0, 1.0], [0.0, 0.25, 1.0], [0.0, 0.0, 2.0]])
    y = np.array([1, 0, 1])
    est = make()
    with pytest.warns(NonCountInputWarning, match="non-integer values .*TfidfVectorizer"):
        est.fit(X, y)
    assert issubclass(NonCountInputWarning, UserWarning)
    with pytest.warns(NonCountInputWarning, match="0.5"):
        est.transform(X)
    with warnings.catch_warnings():  # counts: silent
        warnings.simplefilter("error")
        est.fit(np.round(X * 4), y).transform(np.round(X * 4))


def test_tfidf_vectorizer_output_warns():
    from sklearn.feature_extraction.text import TfidfVectorizer

    from termweight.encoding import NonCountInputWarning

    Z = TfidfVectorizer().fit_transform(["apple pear pear", "pear plum", "plum plum fig"])
    with pytest.warns(NonCountInputWarning, match="SupervisedScaler"):
        SupervisedScaler("bns").fit(Z, [1, 0, 0])


def test_dense_output_guard(monkeypatch):
    from termweight import encoding

    X = sp.csr_matrix(np.eye(50))
    y = np.arange(50) % 2
    monkeypatch.setenv("TERMWEIGHT_MAX_DENSE_BYTES", "1000")  # 50 x 50 x 8 = 20,000 bytes
    for est in (TermEncoder("tf", sparse_output=False), SupervisedScaler(sparse_output=False),
                ThresholdEncoder(sparse_output=False)):
        est.fit(X, y)
        with pytest.raises(ValueError, match=r"dense output would need 1\.86e-05 GiB \(50 x 50 "
                                             r"float64\), above the limit of 9\.31e-07 GiB "
                                             r"\(1,000 bytes\).*sparse_output=True"):
            est.transform(X)
        est.set_params(sparse_output=True).transform(X)  # sparse output: no limit
    monkeypatch.setenv("TERMWEIGHT_MAX_DENSE_BYTES", "20000")  # exactly enough
    assert TermEncoder("tf", sparse_output=False).fit(X).transform(X).shape == (50, 50)
    monkeypatch.delenv("TERMWEIGHT_MAX_DENSE_BYTES")
    assert encoding.max_dense_bytes() == encoding.MAX_DENSE_BYTES == 2**30
    monkeypatch.setattr(encoding, "MAX_DENSE_BYTES", 100)
    with pytest.raises(ValueError, match=r"GiB \(100 bytes\)"):
        TermEncoder("tf", sparse_output=False).fit(X).transform(X)
    monkeypatch.setenv("TERMWEIGHT_MAX_DENSE_BYTES", "lots")
    with pytest.raises(ValueError, match="TERMWEIGHT_MAX_DENSE_BYTES='lots'"):
        encoding.max_dense_bytes()


def test_dense_guard_message_names_the_20ng_size(monkeypatch):
    """The issue's case: 7,532 x 125,552 float64 is 7.05 GiB, refused without allocating it; the
    message says both sizes in one unit."""
    from termweight.encoding import _output

    big = sp.csr_matrix((7532, 125552))
    with pytest.raises(ValueError, match=r"7\.05 GiB \(7,532 x 125,552 float64\), above the "
                                         r"limit of 1 GiB \(1,073,741,824 bytes\)"):
        _output(big, sparse_output=False)
