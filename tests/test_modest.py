"""Modest AdaBoost (Vezhnevets & Vezhnevets 2005) with decision stumps."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.utils._param_validation import InvalidParameterError

from termweight.learners import ModestAdaBoost
from termweight.selection import L0Supervised


def _reference(X, y, n_estimators):
    """Loop-per-feature, loop-per-threshold reference of the paper's algorithm (dense X, y +-1).

    Returns the list of (feature, threshold, f_left, f_right)."""
    n, p = X.shape
    w = np.full(n, 1.0 / n)
    stumps = []
    for _ in range(n_estimators):
        best = None
        for j in range(p):
            values = np.unique(X[:, j])
            for lo, hi in zip(values[:-1], values[1:], strict=True):
                theta = lo + (hi - lo) / 2
                left = X[:, j] <= theta
                err = 0.0
                for mask in (left, ~left):
                    c = np.sum(w[mask] * y[mask]) / np.sum(w[mask])  # weighted LS leaf value
                    err += np.sum(w[mask] * (y[mask] - c) ** 2)
                if best is None or err < best[0] - 1e-12:
                    best = (err, j, theta)
        _, j, theta = best
        left = X[:, j] <= theta
        wbar = (1 - w) / np.sum(1 - w)
        f = []
        for mask in (left, ~left):
            pp, pn = w[mask & (y > 0)].sum(), w[mask & (y < 0)].sum()
            bp, bn = wbar[mask & (y > 0)].sum(), wbar[mask & (y < 0)].sum()
            f.append(pp * (1 - bp) - pn * (1 - bn))
        stumps.append((j, theta, f[0], f[1]))
        w = w * np.exp(-y * np.where(left, f[0], f[1]))
        w /= w.sum()
    return stumps


def test_first_round_by_hand():
    # one feature x = 1..5, y = (-, -, +, -, +), w = 1/5 each.
    # WLS gain S_L^2/W_L + S_R^2/W_R per split after k rows (S = sum w y, total S = -0.2):
    #   k=1: .04/.2 + 0 = .2;  k=2: .16/.4 + .04/.6 = .467;  k=3: .04/.6 + 0 = .067;
    #   k=4: .16/.8 + .04/.2 = .4   -> split at 2.5.
    # wbar = (1 - .2) / (5 * .8) = .2 each.
    # left {1, 2}: P+ = 0, P- = .4, Pbar- = .4       -> f = 0 - .4 * .6 = -0.24
    # right {3, 4, 5}: P+ = .4, P- = .2, Pbar+ = .4, Pbar- = .2 -> f = .4*.6 - .2*.8 = 0.08
    X = np.arange(1.0, 6.0)[:, None]
    y = np.array([-1, -1, 1, -1, 1])
    clf = ModestAdaBoost(n_estimators=1).fit(X, y)
    assert clf.features_.tolist() == [0]
    assert clf.thresholds_[0] == 2.5
    assert np.allclose(clf.leaf_values_[0], [-0.24, 0.08])
    assert np.allclose(clf.decision_function(X), [-0.24, -0.24, 0.08, 0.08, 0.08])
    # round 2 weights: w ~ exp(-y f): rows 1,2 exp(-.24), row 3 exp(-.08), row 4 exp(.08), ...
    two = ModestAdaBoost(n_estimators=2).fit(X, y)
    ref = _reference(X, y.astype(float), 2)
    assert np.allclose(two.leaf_values_, [[r[2], r[3]] for r in ref])
    assert two.thresholds_.tolist() == [r[1] for r in ref]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_loop_reference(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 4)).round(1)
    X[rng.random(X.shape) < 0.5] = 0.0  # many zeros and negative values
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.5, 40) > 0, 1, -1)
    ref = _reference(X, y.astype(float), 6)
    for fmt in (np.asarray, sp.csr_array, sp.csc_matrix):
        clf = ModestAdaBoost(n_estimators=6).fit(fmt(X), y)
        assert clf.features_.tolist() == [r[0] for r in ref]
        assert np.allclose(clf.thresholds_, [r[1] for r in ref])
        assert np.allclose(clf.leaf_values_, [[r[2], r[3]] for r in ref])
        F = sum(np.where(X[:, j] <= t, a, b) for j, t, a, b in ref)
        assert np.allclose(clf.decision_function(fmt(X)), F)


def test_separable_zero_training_error():
    rng = np.random.default_rng(3)
    X = rng.random((200, 5))
    y = np.where((X[:, 0] > 0.5) | (X[:, 1] > 0.7), "spam", "ham")  # needs several stumps
    clf = ModestAdaBoost().fit(X, y)
    assert clf.n_estimators_ == 15
    assert np.array_equal(clf.predict(X), y)
    assert list(clf.classes_) == ["ham", "spam"]
    assert clf.score(X, y) == 1.0


def test_sparse_text_like():
    rng = np.random.default_rng(4)
    X = sp.random_array((80, 300), density=0.05, rng=rng, format="csr",
                        data_sampler=lambda size: rng.integers(1, 4, size))
    y = np.repeat([0, 1], 40)
    X = X.toarray()
    X[:, 7] = 2 * y  # feature 7 marks class 1
    X = sp.csr_array(X)
    clf = ModestAdaBoost(n_estimators=5).fit(X, y)
    assert clf.features_[0] == 7
    assert np.array_equal(clf.predict(X), y)
    dense = ModestAdaBoost(n_estimators=5).fit(X.toarray(), y)
    assert np.allclose(dense.decision_function(X.toarray()), clf.decision_function(X))


def test_stops_when_f_is_zero():
    X = np.array([[0.0], [1.0], [0.0], [1.0]])
    y = np.array([0, 0, 1, 1])  # x carries no information: P+ = P- in both leaves
    clf = ModestAdaBoost().fit(X, y)
    assert clf.n_estimators_ == 0
    assert np.array_equal(clf.decision_function(X), np.zeros(4))


def test_constant_features_give_empty_ensemble():
    X = np.ones((5, 2))
    y = np.array([1, 1, 1, 0, 0])
    clf = ModestAdaBoost().fit(X, y)
    # no split exists; even one node holding everything would give (P+ = .6, P- = .4, Pbar the
    # same under uniform w) f = .6 * .4 - .4 * .6 = 0: an empty (all-zero) ensemble
    assert clf.n_estimators_ == 0
    assert np.array_equal(clf.decision_function(X), np.zeros(5))
    assert np.array_equal(clf.predict(X), np.zeros(5))  # F = 0 -> classes_[0]


def test_sklearn_conventions():
    clf = ModestAdaBoost()
    assert clf.get_params() == {"n_estimators": 15, "verbose": 0}
    assert clone(ModestAdaBoost(n_estimators=3)).get_params() == {"n_estimators": 3, "verbose": 0}
    with pytest.raises(InvalidParameterError):
        ModestAdaBoost(n_estimators=0).fit(np.eye(2), [0, 1])
    with pytest.raises(ValueError, match="binary"):
        ModestAdaBoost().fit(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="one class"):
        ModestAdaBoost().fit(np.eye(3), [1, 1, 1])
    X = (np.random.default_rng(5).random((20, 4)) > 0.5).astype(float)  # TDI-like
    y = X[:, 2].astype(int)
    pipe = make_pipeline(L0Supervised(m=3), ModestAdaBoost(n_estimators=3)).fit(X, y)
    assert pipe.predict(X).shape == (20,)
    fitted = ModestAdaBoost(n_estimators=3).fit(X, y)
    with pytest.raises(ValueError):
        fitted.predict(np.ones((2, 3)))
