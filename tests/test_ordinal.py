"""Tests for termweight.learners.ordinal: Frank & Hall decomposition and ordinal MSE."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from termweight.learners import FrankHallClassifier
from termweight.learners.ordinal import ordinal_mse


def _toy(n=400, K=4, seed=0):
    # 1-d feature with thresholds 1, 2, 3: class = floor(x) for x in [0, 4).
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, K, size=n)
    return x[:, None], np.floor(x).astype(int)


def test_ordinal_mse_by_hand():
    # squared index errors 0, 1, 4, 0 -> mean 5/4
    assert ordinal_mse([0, 1, 2, 3], [0, 2, 0, 3]) == pytest.approx(1.25)
    # labels in ordinal order: 'bad' = 0, 'ok' = 1, 'good' = 2 -> errors 2^2, 0 -> mean 2
    assert ordinal_mse(["bad", "ok"], ["good", "ok"], labels=["bad", "ok", "good"]) == 2.0
    with pytest.raises(ValueError):
        ordinal_mse([0, 1], [0])


@pytest.mark.parametrize("est, proba", [
    (LogisticRegression(C=1000.0, max_iter=1000), "auto"),
    (LinearSVC(C=10.0), "auto"),  # Platt sigmoid via CalibratedClassifierCV
    (LinearSVC(C=10.0), "logistic"),
])
def test_frank_hall_toy_ordinal_problem(est, proba):
    X, y = _toy()
    fh = FrankHallClassifier(est, proba=proba).fit(X, y)
    assert len(fh.estimators_) == 3
    assert fh.proba_mode_ == {"auto": "predict_proba" if proba == "auto" and
                              isinstance(est, LogisticRegression) else "sigmoid"}.get(
        proba, proba)
    centres = np.array([[0.5], [1.5], [2.5], [3.5]])
    np.testing.assert_array_equal(fh.predict(centres), [0, 1, 2, 3])
    Xt, yt = _toy(seed=1)
    assert np.mean(fh.predict(Xt) == yt) > 0.95
    assert ordinal_mse(yt, fh.predict(Xt)) < 0.05
    P = fh.predict_proba(Xt)
    assert P.shape == (Xt.shape[0], 4)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)


def test_frank_hall_probability_formula_and_labels():
    X, y = _toy()
    labels = np.array([10, 20, 30, 40])[y]  # arbitrary ordered labels
    fh = FrankHallClassifier(LogisticRegression(max_iter=1000)).fit(X, labels)
    np.testing.assert_array_equal(fh.classes_, [10, 20, 30, 40])
    G = fh.cumulative_proba(X[:5])
    P = fh.predict_proba(X[:5])
    np.testing.assert_allclose(P[:, 0], 1 - G[:, 0])
    np.testing.assert_allclose(P[:, 1], G[:, 0] - G[:, 1])
    np.testing.assert_allclose(P[:, 3], G[:, 2])
    mono = FrankHallClassifier(LogisticRegression(max_iter=1000), monotone=True).fit(X, labels)
    assert np.all(mono.predict_proba(X) >= 0)
    assert set(fh.predict(X)) <= {10, 20, 30, 40}
    clone(fh)  # sklearn-compatible params


def test_frank_hall_n_jobs_gives_the_same_model_and_keeps_the_warnings():
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 6))
    y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=120), [-0.5, 0.5])
    one = FrankHallClassifier(LogisticRegression(), n_jobs=1).fit(X, y)
    two = FrankHallClassifier(LogisticRegression(), n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        FrankHallClassifier(LinearSVC(max_iter=1, C=100.0), proba="logistic", n_jobs=2).fit(X, y)
    assert sum(issubclass(w.category, ConvergenceWarning) for w in caught) == 2  # K-1 = 2 fits
    with pytest.raises(ValueError, match="n_jobs"):
        FrankHallClassifier(LogisticRegression(), n_jobs=0).fit(X, y)
