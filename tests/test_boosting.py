"""Tests for termweight.learners.boosting: AdaBoost.MH and MP-Boost (METHODS.md section 6)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from termweight.learners import AdaBoostMH, MPBoost
from termweight.learners import boosting as B


# ----------------------------------------------------------------------------- reference
def reference(X, Y, rounds: int, per_label: bool, normalize: str = "global"):
    """Brute force straight from the definitions: every feature, label and document in Python.

    ``normalize="global"``: D sums to 1 after each round; ``"label"``: every label's column sums
    to 1/k. Returns pivots (rounds x k), c0, c1 (rounds x k), the distribution after each round
    and the training scores after the last round.
    """
    Xb = (np.asarray(X.toarray() if sp.issparse(X) else X) > 0).tolist()
    Yl = np.asarray(Y).astype(int).tolist()
    m, n, k = len(Xb), len(Xb[0]), len(Yl[0])
    eps = 1.0 / (m * k)
    D = [[1.0 / (m * k)] * k for _ in range(m)]
    F = [[0.0] * k for _ in range(m)]
    out = {"pivots": [], "c0": [], "c1": [], "D": []}

    def stats(f, lab):
        w = {(j, s): 0.0 for j in (0, 1) for s in (0, 1)}
        for i in range(m):
            w[(1 if Xb[i][f] else 0, Yl[i][lab])] += D[i][lab]
        return w

    def zl(w):
        return 2 * (math.sqrt(w[(1, 1)] * w[(1, 0)]) + math.sqrt(w[(0, 1)] * w[(0, 0)]))

    def first_min(values):
        lo = min(values)
        return next(f for f, v in enumerate(values) if v <= lo * (1 + B.TIE_RTOL))

    for _ in range(rounds):
        if per_label:
            piv = [first_min([zl(stats(f, lab)) for f in range(n)]) for lab in range(k)]
        else:
            p = first_min([sum(zl(stats(f, lab)) for lab in range(k)) for f in range(n)])
            piv = [p] * k
        c0, c1 = [], []
        for lab in range(k):
            w = stats(piv[lab], lab)
            c1.append(0.5 * math.log((w[(1, 1)] + eps) / (w[(1, 0)] + eps)))
            c0.append(0.5 * math.log((w[(0, 1)] + eps) / (w[(0, 0)] + eps)))
        for i in range(m):
            for lab in range(k):
                h = c1[lab] if Xb[i][piv[lab]] else c0[lab]
                F[i][lab] += h
                D[i][lab] *= math.exp(-(2 * Yl[i][lab] - 1) * h)
        if normalize == "label":
            col = [sum(D[i][lab] for i in range(m)) * k for lab in range(k)]
            D = [[d / col[lab] for lab, d in enumerate(row)] for row in D]
        else:
            total = sum(map(sum, D))
            D = [[d / total for d in row] for row in D]
        out["pivots"].append(piv)
        out["c0"].append(c0)
        out["c1"].append(c1)
        out["D"].append(np.array(D))
    return {key: np.array(v) for key, v in out.items()} | {"F": np.array(F)}


def tiny(seed: int, m: int = 40, n: int = 14, k: int = 4):
    """Random sparse counts with an empty column, a full column and a duplicated column."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(m, n)) * (rng.random((m, n)) < 0.3)
    X[:, 3] = 0  # never present
    X[:, 5] = 1 + rng.integers(0, 2, size=m)  # always present
    X[:, 9] = X[:, 2]  # duplicate of an earlier column: ties must go to column 2
    if n > 12:  # frequent columns: exercise the "update the smaller side" path
        X[:, 11] = rng.random(m) < 0.8
        X[:, 12] = rng.random(m) < 0.6
    Y = rng.random((m, k)) < 0.35
    Y[0, :] = True
    Y[1, :] = False
    return sp.csr_matrix(X), Y


# ----------------------------------------------------------------------------- vs reference
LEARNERS = [(AdaBoostMH, {}), (MPBoost, {"normalize": "label"}),
            (MPBoost, {"normalize": "global"})]


@pytest.mark.parametrize(("cls", "params"), LEARNERS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_brute_force_reference(cls, params, seed):
    X, Y = tiny(seed)
    ref = reference(X, Y, 20, per_label=cls is MPBoost, normalize=params.get("normalize",
                                                                                 "global"))
    est = cls(n_rounds=20, **params).fit(X, Y)
    piv = est.pivots_ if cls is MPBoost else est.pivots_[:, None].repeat(Y.shape[1], axis=1)
    np.testing.assert_array_equal(piv, ref["pivots"])
    np.testing.assert_allclose(est.c0_, ref["c0"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(est.c1_, ref["c1"], rtol=1e-9, atol=1e-12)
    F = est.decision_function(X)
    np.testing.assert_allclose(F, ref["F"], rtol=1e-9, atol=1e-12)
    assert np.all(np.abs(ref["F"]) > 1e-9)  # no borderline scores: predictions are comparable
    np.testing.assert_array_equal(est.predict(X), (ref["F"] > 0).astype(int))


@pytest.mark.parametrize(("per_label", "normalize"),
                         [(False, "global"), (True, "global"), (True, "label")])
def test_distribution_normalised_and_equal_to_reference(per_label, normalize, monkeypatch):
    monkeypatch.setattr(B, "REFRESH_EVERY", 3)  # exercise the periodic exact recomputation
    X, Y = tiny(7, m=30, n=13, k=3)
    ref = reference(X, Y, 20, per_label, normalize)
    est = (MPBoost if per_label else AdaBoostMH)(n_rounds=1).fit(X, Y)
    state = B._Booster(est._binary_X(X, reset=False), Y, per_label, normalize)
    for t in range(20):
        if t and t % B.REFRESH_EVERY == 0:
            state.refresh()
        state.step()
        D = state.distribution()
        if normalize == "label":
            np.testing.assert_allclose(D.sum(axis=0), 1.0 / Y.shape[1], rtol=1e-12)
        else:
            assert D.sum() == pytest.approx(1.0, abs=1e-12)
        assert np.all(D > 0)
        np.testing.assert_allclose(D, ref["D"][t], rtol=1e-9, atol=1e-15)


def test_ties_go_to_lowest_feature_index():
    X = sp.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 0, 0]]))
    X = sp.hstack([X, X]).tocsr()  # columns 3..5 duplicate 0..2
    Y = np.array([[1], [1], [0], [0]])
    for cls in (AdaBoostMH, MPBoost):
        est = cls(n_rounds=3).fit(X, Y)
        assert np.ravel(est.pivots_)[0] == 0  # columns 0, 1, 3, 4 tie: lowest wins


# ----------------------------------------------------------------------------- hand example
def test_one_round_by_hand():
    # 4 documents, features f0 = {d0, d1}, f1 = {d2}; labels A = {d0, d1}, B = {d0, d2}.
    X = sp.csr_matrix(np.array([[1, 0], [1, 0], [0, 1], [0, 0]]))
    Y = np.array([[1, 1], [1, 0], [0, 1], [0, 0]])
    # D = 1/8 everywhere, eps = 1/8.
    # f0: A: X1 W+=2/8 W-=0, X0 W+=0 W-=2/8 -> 0;  B: X1 1/8,1/8; X0 1/8,1/8 -> 1/8 + 1/8
    #     Z(f0) = 2 (0 + 1/4) = 0.5
    # f1: A: X1 W+=0 W-=1/8; X0 W+=2/8 W-=1/8 -> sqrt(2)/8;  B: X1 1/8,0; X0 1/8,2/8 -> sqrt(2)/8
    #     Z(f1) = 2 (sqrt(2)/8 + sqrt(2)/8) = sqrt(2)/2 = 0.7071  => AdaBoost.MH pivot f0
    mh = AdaBoostMH(n_rounds=1).fit(X, Y)
    assert mh.pivots_.tolist() == [0]
    assert mh.z_[0] == pytest.approx(0.5)
    half_ln3 = 0.5 * math.log(3)  # A: c1 = .5 ln((2/8+1/8)/(0+1/8)), c0 = .5 ln((1/8)/(3/8))
    np.testing.assert_allclose(mh.c1_[0], [half_ln3, 0.0], atol=1e-15)  # B: .5 ln(2/8 / 2/8)
    np.testing.assert_allclose(mh.c0_[0], [-half_ln3, 0.0], atol=1e-15)
    # update: every A pair is classified correctly -> x 1/sqrt(3); B pairs x 1;
    # normaliser = 4/8 (1/sqrt 3) + 4/8 = 0.788675; D(A) = 0.091506, D(B) = 0.158494
    state = B._Booster(sp.csr_matrix(X, dtype=float), Y, per_label=False)
    state.step()
    norm = 0.5 / math.sqrt(3) + 0.5
    np.testing.assert_allclose(state.distribution()[:, 0], 0.125 / math.sqrt(3) / norm)
    np.testing.assert_allclose(state.distribution()[:, 1], 0.125 / norm)
    np.testing.assert_allclose(mh.decision_function(X)[:, 0], [half_ln3] * 2 + [-half_ln3] * 2)
    np.testing.assert_array_equal(mh.predict(X), [[1, 0], [1, 0], [0, 0], [0, 0]])
    # MP-Boost: Z_A(f0) = 0 < Z_A(f1) = sqrt(2)/4;  Z_B(f0) = 0.5 > Z_B(f1) = sqrt(2)/4
    mp = MPBoost(n_rounds=1).fit(X, Y)
    assert mp.pivots_.tolist() == [[0, 1]]
    np.testing.assert_allclose(mp.z_[0], [0.0, math.sqrt(2) / 4], atol=1e-15)
    # B with f1: X1 = {d2}: W+ = 1/8, W- = 0 -> c1 = .5 ln((2/8)/(1/8)) = .5 ln 2
    #            X0: W+ = 1/8, W- = 2/8 -> c0 = .5 ln((2/8)/(3/8)) = .5 ln(2/3)
    np.testing.assert_allclose(mp.c1_[0], [half_ln3, 0.5 * math.log(2)])
    np.testing.assert_allclose(mp.c0_[0], [-half_ln3, 0.5 * math.log(2 / 3)])
    np.testing.assert_array_equal(mp.predict(X), [[1, 0], [1, 0], [0, 1], [0, 0]])


# ----------------------------------------------------------------------------- properties
def test_single_label_mh_equals_mp():
    X, Y = tiny(3, m=50, n=20, k=1)
    mh = AdaBoostMH(n_rounds=30).fit(X, Y)
    mp = MPBoost(n_rounds=30).fit(X, Y)
    np.testing.assert_array_equal(mh.pivots_, mp.pivots_[:, 0])
    # same model; the two code paths may differ in the last bits of the float arithmetic
    np.testing.assert_allclose(mh.c0_, mp.c0_, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(mh.c1_, mp.c1_, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(mh.z_, mp.z_[:, 0], rtol=1e-12)
    np.testing.assert_allclose(mh.decision_function(X), mp.decision_function(X))


@pytest.mark.parametrize("cls", [AdaBoostMH, MPBoost])
def test_staged_scores_equal_shorter_runs(cls):
    X, Y = tiny(4, m=60, n=25, k=3)
    est = cls(n_rounds=25).fit(X, Y)
    Xt, _ = tiny(5, m=30, n=25, k=3)
    staged = list(est.staged_decision_function(Xt))
    assert len(staged) == 25
    np.testing.assert_allclose(staged[-1], est.decision_function(Xt), atol=1e-12)
    for t in (1, 7, 19):
        short = cls(n_rounds=t).fit(X, Y)
        np.testing.assert_allclose(staged[t - 1], short.decision_function(Xt), atol=1e-12)
    sel = list(est.staged_decision_function(Xt, rounds=[19, 7]))
    np.testing.assert_array_equal(sel[0], staged[6])
    np.testing.assert_array_equal(sel[1], staged[18])
    preds = list(est.staged_predict(Xt, rounds=[25]))
    np.testing.assert_array_equal(preds[0], est.predict(Xt))
    with pytest.raises(ValueError):
        list(est.staged_decision_function(Xt, rounds=[26]))


@pytest.mark.parametrize(("cls", "params"), LEARNERS)
def test_deterministic_and_array_roundtrip(cls, params, tmp_path):
    X, Y = tiny(6, m=50, n=30, k=4)
    a = cls(n_rounds=15, **params).fit(X, Y)
    b = cls(n_rounds=15, **params).fit(X.toarray(), sp.csr_matrix(Y))  # dense X, sparse Y
    for key, value in a.to_arrays().items():
        np.testing.assert_array_equal(value, b.to_arrays()[key])
    np.savez(tmp_path / "m.npz", **a.to_arrays())
    with np.load(tmp_path / "m.npz", allow_pickle=False) as z:
        c = cls.from_arrays(z)
    np.testing.assert_array_equal(c.decision_function(X), a.decision_function(X))
    np.testing.assert_array_equal(c.predict(X), a.predict(X))
    assert c.get_params() == a.get_params()
    other = MPBoost if cls is AdaBoostMH else AdaBoostMH
    with pytest.raises(ValueError):
        other.from_arrays(a.to_arrays())


def test_mpboost_normalize_option():
    X, Y = tiny(2, m=50, n=20, k=4)
    label = MPBoost(n_rounds=15).fit(X, Y)
    assert label.normalize == "label"
    glob = MPBoost(n_rounds=15, normalize="global").fit(X, Y)
    assert not np.allclose(label.c1_, glob.c1_)  # the two readings differ after round 1
    np.testing.assert_allclose(label.c1_[0], glob.c1_[0])  # ... but not in round 1
    # files written before the parameter existed hold globally normalised models
    arrays = {key: v for key, v in glob.to_arrays().items() if key != "normalize"}
    assert MPBoost.from_arrays(arrays).normalize == "global"
    assert MPBoost.from_arrays(label.to_arrays()).normalize == "label"
    for bad in ("column", "", None, 1):
        with pytest.raises(ValueError):
            MPBoost(n_rounds=2, normalize=bad).fit(X, Y)


def test_input_matrix_is_not_modified():
    X, Y = tiny(11)
    rng = np.random.default_rng(0)
    # non-canonical CSR: shuffled indices within rows, a duplicate in row 0, explicit 0 in row 1
    data, indices, indptr = [], [], [0]
    for i in range(X.shape[0]):
        cols = X.indices[X.indptr[i]:X.indptr[i + 1]]
        vals = X.data[X.indptr[i]:X.indptr[i + 1]]
        perm = rng.permutation(len(cols))
        cols, vals = list(cols[perm]), list(vals[perm])
        if i == 0:
            cols, vals = cols + [cols[0]], vals + [2.0]
        if i == 1:
            cols, vals = cols + [int(np.setdiff1d(np.arange(X.shape[1]), cols)[0])], vals + [0.0]
        data += vals
        indices += cols
        indptr.append(len(indices))
    Xn = sp.csr_matrix((np.array(data), np.array(indices, dtype=np.int32),
                        np.array(indptr, dtype=np.int32)), shape=X.shape)
    assert not Xn.has_canonical_format
    before = (Xn.data.copy(), Xn.indices.copy(), Xn.indptr.copy())
    for cls in (AdaBoostMH, MPBoost):
        a = cls(n_rounds=8).fit(Xn, Y)
        b = cls(n_rounds=8).fit((X > 0).astype(float), Y)  # same presence pattern
        np.testing.assert_array_equal(a.pivots_, b.pivots_)
        np.testing.assert_array_equal(a.c1_, b.c1_)
        for arr, old in zip((Xn.data, Xn.indices, Xn.indptr), before, strict=True):
            np.testing.assert_array_equal(arr, old)


def test_counts_are_binarised():
    X, Y = tiny(8)
    a = AdaBoostMH(n_rounds=10).fit(X * 7, Y)
    b = AdaBoostMH(n_rounds=10).fit((X > 0).astype(float), Y)
    np.testing.assert_array_equal(a.pivots_, b.pivots_)
    with pytest.raises(ValueError):
        AdaBoostMH(n_rounds=2).fit(-X, Y)


# ----------------------------------------------------------------------------- sklearn API
@pytest.mark.parametrize("cls", [AdaBoostMH, MPBoost])
def test_sklearn_api(cls):
    X, Y = tiny(9)
    est = cls()
    extra = {"normalize": "label"} if cls is MPBoost else {}
    assert est.get_params() == {"n_rounds": 1000, "verbose": 0, **extra}
    est.set_params(n_rounds=5)
    c = clone(est)
    assert c.get_params() == {"n_rounds": 5, "verbose": 0, **extra} and not hasattr(c, "pivots_")
    assert c.fit(X, Y) is c
    assert c.predict(X).shape == Y.shape
    assert c.decision_function(X).shape == Y.shape
    assert c.n_features_in_ == X.shape[1]
    np.testing.assert_array_equal(c.classes_, np.arange(Y.shape[1]))
    with pytest.raises(ValueError):
        c.predict(X[:, :-1])
    for bad in (0, -3, 2.5, "10"):
        with pytest.raises((ValueError, TypeError)):
            cls(n_rounds=bad).fit(X, Y)


@pytest.mark.parametrize("cls", [AdaBoostMH, MPBoost])
def test_one_dimensional_targets(cls):
    X, Y = tiny(10, m=60, n=20, k=3)
    names = np.array(["a", "b", "c"])
    y = names[np.argmax(Y + 0.1 * np.arange(3), axis=1)]
    est = cls(n_rounds=10).fit(X, y)
    np.testing.assert_array_equal(est.classes_, names)
    assert est.decision_function(X).shape == (60, 3)
    assert set(est.predict(X)) <= set(names)
    np.testing.assert_array_equal(est.predict(X), names[est.decision_function(X).argmax(1)])
    yb = np.where(Y[:, 0], "yes", "no")
    est = cls(n_rounds=10).fit(X, yb)
    F = est.decision_function(X)
    assert F.shape == (60,)
    np.testing.assert_array_equal(est.predict(X), np.where(F > 0, "yes", "no"))
    assert 0.0 <= est.score(X, yb) <= 1.0
    with pytest.raises(ValueError):
        cls(n_rounds=3).fit(X, np.zeros(60))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.SkipTestWarning")
@pytest.mark.parametrize("cls", [AdaBoostMH, MPBoost])
def test_sklearn_check_estimator(cls):
    from sklearn.utils.estimator_checks import check_estimator

    # every applicable check passes (poor_score tag: X is binarised, so the continuous toy data
    # of check_classifiers_train carries no signal)
    check_estimator(cls(n_rounds=5))
