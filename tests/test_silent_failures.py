"""No learner or selector fails silently (issue #31): a fit that ends unconverged warns
ConvergenceWarning, one that ends at a trivial model (w = 0, or one class predicted for every
training row) warns TrivialModelWarning; a normal fit warns nothing. Also: n_jobs gives the same
model, verbose prints progress, and the sparse random projection equals the dense one."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from termweight.learners import (
    AdaBoostMH,
    FrankHallClassifier,
    MiniMax,
    MixCH,
    ModestAdaBoost,
    MPBoost,
    TrivialModelWarning,
)
from termweight.learners.linear import fit_one_vs_rest
from termweight.selection import AchlioptasProjection, L0Supervised


def _data(n=60, d=15, K=2, seed=0):
    """Separable-ish counts: class c favours terms c, c + K, ..."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % K
    X = rng.poisson(0.3, (n, d)).astype(float)
    for c in range(K):
        X[y == c, c::K] += rng.poisson(2.0, (int((y == c).sum()), len(range(c, d, K))))
    return sp.csr_matrix(X), y


def _no_warning(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fit()


# --- a normal fit warns nothing ------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: MiniMax(), lambda: MiniMax(n_jobs=2), lambda: MixCH(), lambda: AdaBoostMH(n_rounds=20),
    lambda: MPBoost(n_rounds=20), lambda: FrankHallClassifier(LogisticRegression()),
], ids=["MiniMax", "MiniMax-n_jobs", "MixCH", "AdaBoostMH", "MPBoost", "FrankHall"])
def test_a_normal_fit_does_not_warn(make):
    X, y = _data(K=3)
    est = _no_warning(lambda: make().fit(X, y))
    assert (est.predict(X) == y).mean() > 0.8


def test_a_normal_binary_fit_does_not_warn():
    X, y = _data(K=2)
    for est in (MiniMax(), MixCH(), ModestAdaBoost()):
        _no_warning(lambda est=est: est.fit(X, y))
    _no_warning(lambda: fit_one_vs_rest(X, np.eye(2)[y], C=1.0))


# --- unconverged ---------------------------------------------------------------------------------

def test_minimax_exact_unconverged_warns():
    X, y = _data()
    with pytest.warns(ConvergenceWarning, match="relative gap"):
        MiniMax(max_iter=1).fit(X, y)


def test_minimax_one_vs_rest_warns_once_with_the_count():
    X, y = _data(K=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = MiniMax(max_iter=1).fit(X, y)
    conv = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert len(conv) == 1 and "3 of 3 one-vs-rest tasks did not converge" in str(conv[0].message)
    assert not est.converged_.any()


def test_mixch_unconverged_warns():
    X, y = _data()
    with pytest.warns(ConvergenceWarning, match="MixCH did not converge"):
        MixCH(np.vstack([np.ones(15), np.arange(1.0, 16.0)]), max_iter=1).fit(X, y)


def test_mixch_one_vs_rest_warns_once():
    X, y = _data(K=3)
    B = np.vstack([np.ones(15), np.arange(1.0, 16.0)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        MixCH(B, max_iter=1, svm_max_iter=1).fit(X, y)
    conv = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert len(conv) == 1 and "of 3 one-vs-rest tasks did not converge" in conv[0]


def test_fit_one_vs_rest_counts_unconverged_liblinear_fits():
    X, y = _data(K=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit_one_vs_rest(X, np.eye(3)[y], C=100.0, max_iter=1)
    conv = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert conv == [conv[0]] and "3 of 3 fitted tasks did not converge" in conv[0]


# --- trivial models ------------------------------------------------------------------------------

def test_minimax_subgradient_stuck_at_zero_warns():
    """The former default on raw counts: the steps overshoot and the best iterate stays w = 0."""
    X, y = _data()
    X = X * 50.0
    with pytest.warns(TrivialModelWarning, match="w = 0"):
        est = MiniMax(solver="subgradient", normalize=None, max_iter=3, eta0=100.0).fit(X, y)
    assert not np.any(est.coef_)


def test_minimax_absurd_C_is_trivial():
    X, y = _data()
    with pytest.warns(TrivialModelWarning):
        MiniMax(C=1e-12).fit(X, y)


def test_mixch_on_empty_documents_is_trivial():
    X, y = _data()
    with pytest.warns(TrivialModelWarning, match="w = 0"):
        MixCH().fit(X * 0.0, y)


def test_boosting_on_constant_features_is_trivial():
    X = np.ones((6, 3))
    y = np.array([0, 1, 0, 1, 0, 1])
    for est in (AdaBoostMH(n_rounds=3), MPBoost(n_rounds=3)):
        with pytest.warns(TrivialModelWarning, match="every training row"):
            est.fit(X, y)


def test_modest_without_a_split_is_trivial():
    with pytest.warns(TrivialModelWarning, match="no stump"):
        ModestAdaBoost().fit(np.ones((4, 2)), np.array([0, 1, 0, 1]))


def test_frank_hall_with_a_constant_base_is_trivial():
    X = np.arange(6.0)[:, None]
    with pytest.warns(TrivialModelWarning, match="FrankHallClassifier"):
        FrankHallClassifier(LogisticRegression(C=1e-8)).fit(X, np.array([1, 1, 2, 2, 3, 3]))


def test_fit_one_vs_rest_counts_zero_weight_tasks():
    X, y = _data(K=3)
    with pytest.warns(TrivialModelWarning, match="have all weights zero"):
        fit_one_vs_rest(X * 0.0 + sp.csr_matrix(np.zeros(X.shape)), np.eye(3)[y])


# --- n_jobs, verbose ------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [MiniMax, MixCH])
def test_n_jobs_gives_the_same_model(cls):
    X, y = _data(K=3, seed=2)
    one = cls(n_jobs=1).fit(X, y)
    two = cls(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    np.testing.assert_array_equal(one.n_iter_, two.n_iter_)


@pytest.mark.parametrize("make", [lambda: MiniMax(verbose=1), lambda: MixCH(verbose=1),
                                  lambda: AdaBoostMH(n_rounds=20, verbose=1),
                                  lambda: MPBoost(n_rounds=20, verbose=1),
                                  lambda: ModestAdaBoost(verbose=1)])
def test_verbose_prints_progress(make, capsys):
    X, y = _data(K=2)
    make().fit(X, y)
    out = capsys.readouterr().out
    assert out.count("\n") >= 1 and out.startswith("[")
    make().set_params(verbose=0).fit(X, y)
    assert capsys.readouterr().out == ""


def test_new_parameters_are_validated():
    X, y = _data()
    with pytest.raises(ValueError):
        MiniMax(verbose=-1).fit(X, y)
    with pytest.raises(ValueError, match="n_jobs"):
        MixCH(n_jobs=0).fit(X, y)
    with pytest.raises(ValueError):
        ModestAdaBoost(verbose=-1).fit(X, y)


# --- selectors -----------------------------------------------------------------------------------

def test_l0supervised_entropy_warns_when_ties_decide():
    X, y = _data(n=90, d=40, K=3)
    X = sp.hstack([X, sp.csr_matrix(np.eye(90)[:, :30])]).tocsr()  # 30 one-document terms
    with pytest.warns(UserWarning, match="tie at the best score"):
        L0Supervised(m=5, variant="entropy").fit(X, y)
    _no_warning(lambda: L0Supervised(m=5, variant="diff").fit(X, y))
    _no_warning(lambda: L0Supervised(m=60, variant="entropy").fit(X, y))


def test_achlioptas_sparse_output_equals_the_dense_one():
    X, y = _data(n=50, d=300)
    rp = AchlioptasProjection(m=40, random_state=3).fit(X)
    Zs = rp.transform(X)
    assert sp.issparse(Zs) and Zs.format == "csr" and isinstance(Zs, sp.spmatrix)
    assert isinstance(rp.transform(sp.csr_array(X)), sp.sparray)
    Zd = rp.set_params(dense_output=True).transform(X)
    assert isinstance(Zd, np.ndarray)
    np.testing.assert_array_equal(Zs.toarray(), Zd)  # bit for bit
    np.testing.assert_array_equal(rp.transform(X.toarray()), Zd)
    # the classifiers of Ferreira's experiment give the same predictions on both
    for clf in (LinearSVC(dual=True, random_state=0), ModestAdaBoost()):
        a = clf.fit(Zs, y).predict(Zs)
        b = clf.fit(Zd, y).predict(Zd)
        np.testing.assert_array_equal(a, b)
    c1 = LinearSVC(dual=True, random_state=0).fit(Zs, y).coef_
    c2 = LinearSVC(dual=True, random_state=0).fit(Zd, y).coef_
    np.testing.assert_array_equal(c1, c2)
