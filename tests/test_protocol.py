"""The benchmark's tuned protocol (termweight.learners.protocol): unit-length rows after
weighting, C and alpha by inner cross-validation on training rows, top-1 F1, convergence."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import f1_score
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

from termweight.learners.protocol import (
    Protocol,
    cv_scores,
    decisions,
    fit,
    fit_tuned,
    inner_folds,
    macro_f1,
    task_norms,
    top1,
)

# the column weights here are fixed numbers, not computed from the rows: reusing them in the
# inner folds leaks nothing (tests/test_inner_cv_leakage.py covers weights that do)
pytestmark = pytest.mark.filterwarnings(
    "ignore::termweight.learners.protocol.FoldLeakageWarning")


def _data(seed=0, n=120, d=40, k=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.poisson(0.4, (n, d)).astype(float)
    X[np.arange(n), y * 3] += 2  # one telling term per class
    Y = sp.csr_matrix((np.ones(n), (np.arange(n), y)), shape=(n, k))
    W = rng.uniform(0.1, 3.0, (k, d))
    return sp.csr_matrix(X), Y, W, y


def test_task_norms_are_the_row_lengths_of_each_weighted_matrix():
    X, _, W, _ = _data()
    n = task_norms(X, W)
    for c in range(W.shape[0]):
        expect = np.linalg.norm(X.toarray() * W[c], axis=1)
        np.testing.assert_allclose(n[:, c], expect, rtol=1e-12)
    np.testing.assert_allclose(task_norms(X)[:, 0], np.linalg.norm(X.toarray(), axis=1))


def test_normalised_fit_is_liblinear_on_unit_rows_of_each_weighted_matrix():
    X, Y, W, y = _data()
    coef, b, fitted, conv = fit("linearsvc", X, Y, 1.0, W, Protocol())
    assert fitted.all() and conv.all()
    got = decisions(X, coef, b, W, "l2")
    for c in range(W.shape[0]):
        Xc = normalize(X.toarray() * W[c])
        svm = LinearSVC(C=1.0, dual=True, random_state=0, max_iter=10000,
                        tol=Protocol().tol).fit(Xc, y == c)
        np.testing.assert_allclose(got[:, c], svm.decision_function(Xc), atol=1e-8)


@pytest.mark.parametrize("learner", ["linearsvc", "logreg"])
def test_the_tolerance_reaches_liblinear(learner):
    """``tol`` (benchmark.tuning.tol) is liblinear's stopping tolerance: scikit-learn's 1e-4
    gives its default fit, the protocol's 1e-2 the same top-1 predictions on these data with
    decisions a little apart."""
    from sklearn.linear_model import LogisticRegression

    X, Y, W, y = _data(3)
    assert Protocol.from_params({"tol": 0.001}).tol == 0.001
    assert Protocol.from_params({"normalize": "l2"}).tol == Protocol().tol == 0.01
    strict = decisions(X, *fit(learner, X, Y, 100.0, W, Protocol(tol=1e-4))[:2], W, "l2")
    Xc = normalize(X.toarray() * W[0])
    ref = (LinearSVC(C=100.0, dual=True, random_state=0, max_iter=10000) if learner == "linearsvc"
           else LogisticRegression(C=100.0, solver="liblinear", dual=True, random_state=0,
                                   max_iter=10000)).fit(Xc, y == 0)
    np.testing.assert_allclose(strict[:, 0], ref.decision_function(Xc), atol=1e-8)
    loose = decisions(X, *fit(learner, X, Y, 100.0, W, Protocol())[:2], W, "l2")
    assert 0 < np.abs(loose - strict).max() < 0.1
    assert (loose.argmax(axis=1) == strict.argmax(axis=1)).all()


def test_normalised_protocol_ignores_the_scale_of_a_weighting():
    X, Y, W, _ = _data(1)
    a = decisions(X, *fit("logreg", X, Y, 1.0, W, Protocol())[:2], W, "l2")
    b = decisions(X, *fit("logreg", X, Y, 1.0, 7.0 * W, Protocol())[:2], 7.0 * W, "l2")
    np.testing.assert_allclose(a, b, atol=1e-7)


def test_top1_macro_f1_is_scikit_learns():
    rng = np.random.default_rng(3)
    s = rng.normal(size=(50, 4))
    y = rng.integers(0, 3, 50)  # class 3 never true, sometimes predicted
    Y = sp.csr_matrix((np.ones(50), (np.arange(50), y)), shape=(50, 4))
    expect = f1_score(y, s.argmax(axis=1), average="macro")
    assert macro_f1(Y, top1(s)) == pytest.approx(expect)


def test_tuning_uses_the_training_rows_only_and_picks_the_best_grid_value():
    X, Y, W, _ = _data(2)
    p = Protocol(C_grid=(0.001, 1.0, 100.0), inner_folds=3)
    grid, scores, _ = cv_scores("linearsvc", X, Y, W, p)
    *_, value, _ = fit_tuned("linearsvc", X, Y, W, p)
    assert grid == (0.001, 1.0, 100.0)
    assert value == grid[int(np.argmax(scores))]
    # rows outside the training part cannot change the choice: the folds are of X's rows only
    folds = inner_folds(Y, 3, 0)
    assert sorted(np.concatenate([va for _, va in folds])) == list(range(X.shape[0]))
    # the same folds for every weighting (they depend on the labels and the seed only)
    assert all((a[1] == b[1]).all() for a, b in zip(folds, inner_folds(Y, 3, 0), strict=True))


def test_naive_bayes_tunes_alpha():
    X, Y, _, _ = _data(4)
    p = Protocol(alpha_grid=(1e-3, 1.0, 1e3))
    *_, value, _ = fit_tuned("mnb", X, Y, None, p)
    assert value in (1e-3, 1.0, 1e3)
    # a huge alpha flattens every class's term distribution: the inner CV does not pick it
    assert value != 1e3


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("normalize_rows", ["l2", "none"])
def test_naive_bayes_closed_form_is_scikit_learns_multinomial_nb(weighted, normalize_rows):
    from sklearn.naive_bayes import MultinomialNB

    X, Y, W, y = _data(6)
    W = W if weighted else None
    coef, b, fitted, _ = fit("mnb", X, Y, 0.01, W, Protocol(normalize=normalize_rows))
    assert fitted.all()
    for c in range(Y.shape[1]):
        Xc = X.toarray() * (1.0 if W is None else W[c])
        Xc = normalize(Xc) if normalize_rows == "l2" else Xc
        nb = MultinomialNB(alpha=0.01).fit(Xc, y == c)
        flp, prior = nb.feature_log_prob_, nb.class_log_prior_
        beta = flp[1] - flp[0]
        np.testing.assert_allclose(coef[c], beta if W is None else beta * W[c], rtol=1e-10)
        assert b[c] == pytest.approx(prior[1] - prior[0], rel=1e-12)


def test_naive_bayes_refuses_negative_weights():
    X, Y, W, _ = _data(6)
    W[0, 0] = -1.0
    with pytest.raises(ValueError, match="Negative values"):
        fit("mnb", X, Y, 1.0, W, Protocol())


@pytest.mark.parametrize("learner", ["linearsvc", "logreg", "mnb"])
def test_inner_scores_are_those_of_separate_fits_on_each_fold(learner):
    """The fold decisions (each task's unit rows built once, sliced per fold) equal a plain
    one-vs-rest fit on the fold's training rows, predicted on its held-out rows."""
    X, Y, W, _ = _data(7, n=90)
    p = Protocol(C_grid=(0.1, 10.0), alpha_grid=(0.01, 1.0))
    grid, scores, _ = cv_scores(learner, X, Y, W, p)
    for i, value in enumerate(grid):
        expect = 0.0
        for tr, va in inner_folds(Y, p.inner_folds, p.seed):
            coef, b, _, _ = fit(learner, X[tr], Y[tr], value, W, p)
            expect += macro_f1(Y[va], top1(decisions(X[va], coef, b, W, "l2"))) / p.inner_folds
        assert scores[i] == pytest.approx(expect, abs=1e-12)


def test_a_fit_stopped_at_the_cap_is_recorded_and_warned():
    X, Y, W, _ = _data(5)
    with pytest.warns(ConvergenceWarning, match="stopped at max_iter=1"):
        *_, conv = fit("linearsvc", X, Y, 100.0, W, Protocol(max_iter=1))
    assert not conv.all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        *_, conv = fit("linearsvc", X, Y, 1.0, W, Protocol())
    assert conv.all()


@pytest.mark.parametrize("key,value,match", [
    ("value", np.array([-1.0]), "'value'"),
    ("converged", np.array([1, 2, 1]), "'converged'"),
    ("normalize", np.array([3], dtype=np.uint8), "'normalize'"),
    ("inner_unconverged", None, "needs arrays"),
])
def test_a_tuned_model_file_is_checked_when_read(tmp_path, key, value, match):
    from termweight.intermediates import load
    from termweight.runner import io
    from termweight.runner.errors import DataError
    from termweight.steps.learn import _protocol_arrays

    arrays = {"coef": np.zeros((3, 4)), "intercept": np.zeros(3), "fitted": np.ones(3, bool),
              "converged": np.ones(3, bool), "value": np.array([1.0]),
              "normalize": np.array([1], dtype=np.uint8), "inner_unconverged": np.array([0])}
    if value is None:
        arrays.pop(key)
    else:
        arrays[key] = value
    path = tmp_path / "model.npz"
    io.save_arrays(path, **arrays)
    model, _ = load("model", path)
    with pytest.raises(DataError, match=match) as err:
        _protocol_arrays(path, model)
    assert str(path) in str(err.value)


def test_evaluate_reads_the_flags_of_a_tuned_model_without_its_coefficients(tmp_path):
    from termweight.intermediates import load
    from termweight.runner import io
    from termweight.steps.learn import _flag_keys, _protocol_arrays

    path = tmp_path / "model.npz"
    io.save_arrays(path, coef=np.zeros((3, 4)), intercept=np.zeros(3), fitted=np.ones(3, bool),
                   converged=np.array([1, 0, 1], bool), value=np.array([10.0]),
                   normalize=np.array([1], dtype=np.uint8), inner_unconverged=np.array([2]))
    keys = _flag_keys(path)
    assert "coef" not in keys and "intercept" not in keys
    model, _ = load("model", path, keys=keys, n_classes=3)
    extra = _protocol_arrays(path, model)
    assert extra["converged"].tolist() == [1, 0, 1] and extra["value"][0] == 10.0
    io.save_arrays(path, coef=np.zeros((3, 4)), intercept=np.zeros(3), fitted=np.ones(3, bool))
    assert _flag_keys(path) == ("fitted",)  # a fixed-C model: fitted only


def _separable(seed=0, n=150, d=60, k=3):
    """Nearly separable data, where logistic regression's inner score keeps rising with C."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.poisson(0.3, (n, d)).astype(float)
    X[np.arange(n), y] += 1 + rng.poisson(0.5, n)
    return sp.csr_matrix(X), sp.csr_matrix((np.ones(n), (np.arange(n), y)), shape=(n, k))


def test_an_extension_is_tried_while_the_top_wins_and_scores_as_in_a_full_grid():
    """``extend``: each value above the grid is fitted only while the largest value tried scores
    best; the values tried score exactly as in one grid holding them all (no warm start), and
    the choice is that grid's choice whenever the inner score rises to its peak and then falls."""
    X, Y = _separable()
    full = Protocol(learner_grids=(("logreg", (0.01, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4)),))
    g_full, s_full, _ = cv_scores("logreg", X, Y, protocol=full)
    ext = Protocol(learner_grids=(("logreg", (0.01, 0.1)),),
                   learner_extend=(("logreg", (1.0, 10.0, 100.0, 1e3, 1e4)),))
    g, s, _ = cv_scores("logreg", X, Y, protocol=ext)
    assert g == g_full[:len(g)]
    np.testing.assert_array_equal(s, s_full[:len(g)])
    # it stopped at the first value that did not beat all before it, or at the end
    assert all(s[i] > s[:i].max() for i in range(2, len(g) - 1))
    assert len(g) == len(g_full) or s[-1] <= s[:-1].max()
    peak = int(np.argmax(s_full))
    if (np.diff(s_full[:peak + 1]) > 0).all():
        assert fit_tuned("logreg", X, Y, protocol=ext)[4] == g_full[peak]


def test_an_extension_costs_nothing_when_the_grid_top_loses():
    X, Y = _separable()
    base = Protocol(learner_grids=(("logreg", (1e3, 1e4)),))
    g, s, _ = cv_scores("logreg", X, Y, protocol=base)
    if s[1] > s[0]:
        pytest.skip("the top of this grid wins here")
    ext = Protocol(learner_grids=(("logreg", (1e3, 1e4)),), learner_extend=(("logreg", (1e5,)),))
    assert cv_scores("logreg", X, Y, protocol=ext)[0] == (1e3, 1e4)


def test_a_mistyped_tuning_key_or_learner_is_refused():
    from termweight.runner.errors import ConfigError

    with pytest.raises(ConfigError, match="extnd"):
        Protocol.from_params({"extnd": {"logreg": [1e3]}})
    with pytest.raises(ConfigError, match="lr"):
        Protocol.from_params({"extend": {"lr": [1e3]}})
    p = Protocol.from_params({"C": [0.1, 1.0], "extend": {"logreg": [0.5, 10.0, 100.0]}})
    assert p.extension("logreg") == (10.0, 100.0) and p.extension("linearsvc") == ()
    assert p.values("logreg") == (0.1, 1.0, 10.0, 100.0)


def test_the_tuning_keys_are_the_schemas():
    """``Protocol.from_params`` refuses the keys params.yaml's schema does not know, and knows
    every key the schema allows."""
    import yaml

    from termweight.learners.protocol import TUNING_KEYS
    from termweight.runner.config import SCHEMA_REL

    repo = __import__("pathlib").Path(__file__).resolve().parents[1]
    schema = yaml.safe_load((repo / SCHEMA_REL).read_text())
    tuning = schema["$defs"]["benchmark"]["properties"]["tuning"]["properties"]
    assert set(tuning) == TUNING_KEYS


def test_logistic_regression_above_primal_above_is_fitted_by_the_primal_solver():
    """Above ``PRIMAL_ABOVE`` logistic regression is liblinear's primal Newton fit (which
    converges in a few steps where dual coordinate descent slows with C); at or below it, and for
    LinearSVC, the dual fit as before."""
    from sklearn.linear_model import LogisticRegression

    from termweight.learners.protocol import PRIMAL_ABOVE, _fit_binary

    X, Y = _separable()
    y = Y.toarray()[:, 0] > 0
    for C, dual in ((PRIMAL_ABOVE, True), (PRIMAL_ABOVE * 10, False)):
        beta, b, ok = _fit_binary("logreg", C, X, y, 10000, 0.01)
        ref = LogisticRegression(C=C, solver="liblinear", dual=dual, tol=0.01, max_iter=10000,
                                 random_state=0).fit(X, y)
        np.testing.assert_array_equal(beta, ref.coef_.ravel())
        assert ok and b == ref.intercept_[0]
