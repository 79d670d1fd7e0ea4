"""Tests for Kim (2016) mix-ch and mini-max (termweight.learners.kim)."""

import itertools
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

from termweight.learners import TrivialModelWarning
from termweight.learners.kim import (
    MiniMax,
    MixCH,
    _base_scores,
    _line_search,
    alpha_step,
    finish_hinge_svm,
    minimax_objective,
    minimax_path,
    project_simplex,
)


def _problem(n=120, d=40, J=3, seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.15, random_state=seed, format="csr",
                  data_rvs=lambda k: rng.integers(1, 4, k).astype(float))
    X = normalize(X)
    w = rng.normal(size=d)
    y = np.where(X @ w + 0.1 * rng.normal(size=n) > 0, 1, 0)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    B = rng.gamma(2.0, 0.5, size=(J, d))
    return X, y, B


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_mixch_single_base_equals_linearsvc(fit_intercept):
    X, y, B = _problem(J=1)
    m = MixCH(B, C=2.0, fit_intercept=fit_intercept).fit(X, y)
    ref = LinearSVC(C=2.0, loss="hinge", dual=True, fit_intercept=fit_intercept, tol=1e-5,
                    max_iter=10000, random_state=0).fit(X @ sp.diags_array(B[0]), y)
    np.testing.assert_allclose(m.svm_coef_, ref.coef_.ravel(), atol=1e-10)
    np.testing.assert_allclose(m.alpha_, [1.0])
    np.testing.assert_allclose(m.decision_function(X),
                               ref.decision_function(X @ sp.diags_array(B[0])), atol=1e-8)
    assert m.converged_ and m.n_iter_ == 1


def test_mixch_alternation_monotone_and_on_simplex():
    X, y, B = _problem(J=4, noise=0.2)
    m = MixCH(B, C=1.0, max_iter=20).fit(X, y)
    assert np.isclose(m.alpha_.sum(), 1.0) and np.all(m.alpha_ >= 0)
    h = m.history_
    obj = np.array(h["objective"])
    after = np.array(h["objective_after_alpha"])
    assert np.all(after <= obj + 1e-9)  # the LP step never increases the objective
    assert np.all(obj[1:] <= after[:-1] + 1e-3 * np.abs(after[:-1]))  # SVM step (inexact)
    np.testing.assert_allclose(m.weights_, m.alpha_ @ B)
    np.testing.assert_allclose(m.decision_function(X), X @ m.coef_ + m.intercept_[0])


def test_alpha_step_solves_lp_bruteforce():
    rng = np.random.default_rng(3)
    n, J = 9, 3
    S = rng.normal(size=(n, J)) * 2
    y = rng.choice([-1.0, 1.0], n)
    alpha, val = alpha_step(S, y, intercept=0.3)
    assert np.all(alpha >= 0) and np.isclose(alpha.sum(), 1.0)

    def f(a):
        return np.maximum(0.0, 1.0 - y * (S @ a + 0.3)).sum()

    assert np.isclose(f(alpha), val, atol=1e-8)
    # brute force: the optimum of a piecewise-linear convex function over the simplex lies at a
    # vertex of the arrangement; every such vertex is where J-1 of the pieces' breakpoints
    # (1 - y_i (s_i.a + w0) = 0) or the simplex faces (a_j = 0) intersect with sum a = 1.
    rows = [np.append(y[i] * S[i], 1 - 0.3 * y[i]) for i in range(n)]  # y_i s_i.a = 1 - y_i w0
    rows += [np.append(np.eye(J)[j], 0.0) for j in range(J)]  # a_j = 0
    best = np.inf
    for combo in itertools.combinations(rows, J - 1):
        M = np.vstack([np.array(combo)[:, :J], np.ones(J)])
        rhs = np.append(np.array(combo)[:, J], 1.0)
        try:
            a = np.linalg.solve(M, rhs)
        except np.linalg.LinAlgError:
            continue
        if np.all(a >= -1e-12):
            best = min(best, f(np.maximum(a, 0)))
    assert val <= best + 1e-8 and val >= best - 1e-8


def test_project_simplex():
    p = project_simplex(np.array([0.5, 2.0, -1.0]))
    np.testing.assert_allclose(p, [0.0, 1.0, 0.0])
    p = project_simplex(np.array([0.2, 0.3, 0.1]))
    np.testing.assert_allclose(p.sum(), 1.0)
    np.testing.assert_allclose(p, np.array([0.2, 0.3, 0.1]) + 0.4 / 3)


def test_minimax_single_base_matches_liblinear_hinge():
    X, y, B = _problem(n=150, d=30, J=1)
    C = 0.5
    mm = MiniMax(B, C=C, solver="exact", tol=1e-7, max_iter=3000, normalize=None).fit(X, y)
    ref = LinearSVC(C=C, loss="hinge", dual=True, fit_intercept=False, tol=1e-10,
                    max_iter=1_000_000, random_state=0).fit(X @ sp.diags_array(B[0]), y)
    ypm = 2.0 * y - 1.0
    f_mm = minimax_objective(X, ypm, B, mm.coef_, C=C)
    f_ref = minimax_objective(X, ypm, B, ref.coef_.ravel(), C=C)
    assert mm.converged_
    assert f_mm <= f_ref * (1 + 1e-6)
    assert abs(f_mm - f_ref) <= 1e-6 * f_ref
    # strongly convex objective: ||w - w*||^2 / (2C) <= F(w) - F(w*) -> coefficients agree
    np.testing.assert_allclose(mm.coef_, ref.coef_.ravel(), atol=3e-3)


def _hinge_objective(X, y, w, w0, s, C):
    return np.maximum(0.0, 1.0 - y * (X @ w + s * w0)).sum() + (w @ w + w0 * w0) / (2 * C)


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_finish_hinge_svm_takes_a_capped_liblinear_point_to_the_optimum(fit_intercept):
    X, y, _ = _problem(n=200, d=60, seed=3, noise=0.05)
    ypm, C, s = 2.0 * y - 1.0, 100.0, (1.0 if fit_intercept else 0.0)
    kw = {"C": C, "loss": "hinge", "dual": True, "fit_intercept": fit_intercept, "random_state": 0}
    with pytest.warns(ConvergenceWarning):
        capped = LinearSVC(tol=1e-4, max_iter=5, **kw).fit(X, ypm)
    ref = LinearSVC(tol=1e-6, max_iter=100_000, **kw).fit(X, ypm)
    assert ref.n_iter_ < 100_000  # met liblinear's own test
    w0_of = (lambda m: float(m.intercept_[0])) if fit_intercept else (lambda m: 0.0)
    f_cap = _hinge_objective(X, ypm, capped.coef_.ravel(), w0_of(capped), s, C)
    f_opt = _hinge_objective(X, ypm, ref.coef_.ravel(), w0_of(ref), s, C)
    assert f_cap > 1.01 * f_opt  # the capped point is really short of the optimum
    w, w0, gap, ok = finish_hinge_svm(X, ypm, C, capped.coef_.ravel(), w0_of(capped), s,
                                      tol=1e-4)
    f = _hinge_objective(X, ypm, w, w0, s, C)
    assert ok and 0 <= gap <= 1e-4
    assert f_opt * (1 - 1e-4) <= f <= f_opt * (1 + 1e-4)  # both within 1e-4 of the optimum
    assert f <= f_cap


def test_mixch_finishes_svm_steps_that_stop_at_the_pass_cap():
    X, y, B = _problem(n=200, d=60, J=1, seed=3, noise=0.05)
    ref = MixCH(B, C=100.0, svm_tol=1e-6, svm_max_iter=100_000).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # certified: nothing to warn about
        m = MixCH(B, C=100.0, svm_max_iter=5, svm_gap_tol=1e-4).fit(X, y)
    assert m.svm_n_iter_ == 5 and m.svm_finished_ == 1 and m.svm_converged_
    assert 0 < m.svm_gap_ <= 1e-4
    ypm = 2.0 * y - 1.0
    f = minimax_objective(X, ypm, B, m.svm_coef_, C=100.0)
    f_ref = minimax_objective(X, ypm, B, ref.svm_coef_, C=100.0)
    assert f <= f_ref * (1 + 1e-4)
    assert ref.svm_finished_ == 0 and ref.svm_converged_
    with pytest.warns(ConvergenceWarning, match="Liblinear"):  # None: liblinear's point kept
        raw = MixCH(B, C=100.0, svm_max_iter=5, svm_gap_tol=None).fit(X, y)
    assert raw.svm_finished_ == 0 and not raw.svm_converged_
    assert minimax_objective(X, ypm, B, raw.svm_coef_, C=100.0) > f_ref * 1.01


def test_mixch_warns_when_the_finishing_of_a_capped_svm_step_is_not_certified():
    X, y, B = _problem(n=200, d=60, J=1, seed=3, noise=0.05)
    with pytest.warns(ConvergenceWarning, match="svm_gap_tol"):
        m = MixCH(B, C=100.0, svm_max_iter=5, svm_gap_tol=1e-8, svm_finish_max_iter=2).fit(X, y)
    assert m.svm_finished_ == 1 and not m.svm_converged_ and m.svm_gap_ > 1e-8


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_minimax_exact_matches_bruteforce_qp(fit_intercept):
    X, y, B = _problem(n=25, d=5, J=3, seed=4, noise=0.2)
    C = 1.0
    mm = MiniMax(B, C=C, solver="exact", tol=1e-8, max_iter=5000,
                 fit_intercept=fit_intercept, normalize=None).fit(X, y)
    # epigraph QP: min ||v||^2/(2C) + sum xi, xi_i >= 1 - m_ij(v), xi >= 0 (SLSQP, dense, tiny)
    Xd, ypm, n = X.toarray(), 2.0 * y - 1.0, X.shape[0]
    Z = ypm[:, None, None] * (B[None, :, :] * Xd[:, None, :])  # (n, J, d)
    if fit_intercept:
        Z = np.concatenate([Z, np.broadcast_to(ypm[:, None, None], (n, 3, 1))], axis=2)
    D = Z.shape[2]
    cons = [{"type": "ineq", "fun": lambda u, j=j: u[D:] - 1.0 + Z[:, j, :] @ u[:D]}
            for j in range(3)]
    res = minimize(lambda u: u[:D] @ u[:D] / (2 * C) + u[D:].sum(), np.zeros(D + n),
                   jac=lambda u: np.concatenate([u[:D] / C, np.ones(n)]), constraints=cons,
                   bounds=[(None, None)] * D + [(0, None)] * n, method="SLSQP",
                   options={"maxiter": 1000, "ftol": 1e-12})
    assert res.success
    f_mm = mm.history_["best_objective"][-1]
    assert abs(f_mm - res.fun) <= 1e-6 * res.fun
    v = np.append(mm.coef_, mm.intercept_[0]) if fit_intercept else mm.coef_
    np.testing.assert_allclose(v, res.x[:D], atol=1e-3)


def test_subgradient_history_and_gap_to_exact():
    X, y, B = _problem(n=100, d=20, J=3, noise=0.2)
    sg = MiniMax(B, C=0.1, solver="subgradient", max_iter=300, normalize=None).fit(X, y)
    ex = MiniMax(B, C=0.1, solver="exact", tol=1e-6, normalize=None).fit(X, y)
    h = sg.history_
    assert len(h["objective"]) == 301 and len(h["iter_time"]) == 301
    assert np.all(np.diff(h["best_objective"]) <= 0)
    f_ex = ex.history_["best_objective"][-1]
    assert h["best_objective"][-1] >= f_ex * (1 - 1e-6)  # exact is a lower bound (certified)
    assert ex.history_["lower_bound"][-1] <= h["best_objective"][-1]


def test_majority_vote_hand_made():
    X0 = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0]]))
    with pytest.warns(TrivialModelWarning, match="w = 0"):  # base 3 never separates doc 2
        est = MiniMax(np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]), solver="exact",
                      normalize=None).fit(X0, np.array(["a", "b"]))
    est.coef_ = np.array([1.0, -1.0])
    est.intercept_ = np.array([0.0])
    X = sp.csr_matrix(np.array([[10.0, 1.0], [1.0, 0.0], [0.0, 0.0]]))
    # margins: (10, -1, -1): vote 1:2 -> "a" though the mean margin is positive;
    # (1, 0, 0): one vote, two abstentions -> "b"; all zero -> classes_[0] = "a"
    assert est.predict(X).tolist() == ["a", "b", "a"]
    est.set_params(voting="soft")
    assert est.predict(X).tolist() == ["b", "b", "a"]
    # J = 2: tied votes are broken by the sign of the mean margin
    with pytest.warns(TrivialModelWarning, match="w = 0"):
        est2 = MiniMax(np.eye(2), solver="exact", normalize=None).fit(X0, np.array([0, 1]))
    est2.coef_ = np.array([1.0, -1.0])
    Xt = sp.csr_matrix(np.array([[3.0, 1.0], [1.0, 3.0]]))
    assert est2.predict(Xt).tolist() == [1, 0]
    np.testing.assert_array_equal(est2.decision_function(Xt) > 0, [True, False])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sklearn_conventions_and_ovr():
    X, _, B = _problem(n=90, d=30, J=3)
    rng = np.random.default_rng(0)
    y3 = rng.integers(0, 3, X.shape[0])
    seen = []

    def bases(Xtr, y01):
        seen.append((Xtr.shape[0], int(y01.sum())))
        return B

    for est in (MixCH(bases, C=0.5, max_iter=5), MiniMax(bases, C=0.5, solver="exact", normalize=None)):
        params = est.get_params()
        assert params["C"] == 0.5 and params["base_weights"] is bases
        c = clone(est)
        assert c.get_params()["C"] == 0.5 and not hasattr(c, "coef_")
        ovr = OneVsRestClassifier(est).fit(X[:60], y3[:60])
        pred = ovr.predict(X[60:])
        assert pred.shape == (30,) and set(pred) <= {0, 1, 2}
        assert ovr.decision_function(X[60:]).shape == (30, 3)
    # the callable only ever saw the 60 training rows
    assert {s[0] for s in seen} == {60}
    with pytest.raises(ValueError, match="at least 2 classes"):
        MiniMax(B, normalize=None).fit(X, np.zeros(X.shape[0]))
    with pytest.raises(ValueError, match="nonnegative"):
        MixCH(-B).fit(X, y3 > 0)
    mm = MiniMax(None, solver="exact", normalize=None).fit(X, y3 > 0)  # None -> plain hinge SVM
    np.testing.assert_allclose(mm.base_weights_, np.ones((1, X.shape[1])))


def test_base_scores_sparse():
    X, _, B = _problem(n=10, d=8, J=2)
    w = np.arange(8.0)
    np.testing.assert_allclose(_base_scores(X, B, w), (X.toarray()[:, None, :] * B * w).sum(2))


def test_minimax_l2_normalize_is_the_plain_problem_on_unit_weighted_documents():
    # one base: z_i = b * x_i / ||b * x_i|| -> the paper's problem on the pre-normalised rows Z
    X, y, B = _problem(n=120, d=30, J=1, seed=3, noise=0.15)
    X = sp.vstack([X, sp.csr_matrix((1, X.shape[1]))]).tocsr()  # an empty document stays 0
    y = np.append(y, 1)
    Z = normalize(X @ sp.diags_array(B[0]))
    C = 2.0
    mm = MiniMax(B, C=C, solver="exact", tol=1e-8, max_iter=3000, normalize="l2").fit(X, y)
    ref = MiniMax(None, C=C, solver="exact", tol=1e-8, max_iter=3000, normalize=None).fit(Z, y)
    # the same w: w.(b * x) / ||b * x|| = w.z
    np.testing.assert_allclose(mm.coef_, ref.coef_, atol=1e-3)
    ypm = 2.0 * y - 1.0
    f = minimax_objective(X, ypm, B, mm.coef_, C=C, normalize="l2")
    assert abs(f - mm.history_["best_objective"][-1]) <= 1e-9 * f
    np.testing.assert_allclose(mm.base_margins(X)[:, 0], Z @ mm.coef_, atol=1e-12)


def test_minimax_l2_normalize_ignores_the_scale_of_each_base():
    X, y, B = _problem(n=80, d=20, J=3, seed=5, noise=0.2)
    B2 = B * np.array([[1e3], [1.0], [1e-2]])
    a = MiniMax(B, C=1.0, solver="exact", tol=1e-8, max_iter=3000, normalize="l2").fit(X, y)
    b = MiniMax(B2, C=1.0, solver="exact", tol=1e-8, max_iter=3000, normalize="l2").fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-3)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    # without normalisation the scale matters (the reason for the option)
    with pytest.warns(TrivialModelWarning, match="w = 0"):  # base 3 at 1e-2: no margin reaches 1
        c = MiniMax(B2, C=1.0, solver="exact", tol=1e-8, max_iter=3000, normalize=None).fit(X, y)
    assert np.max(np.abs(c.coef_ - MiniMax(B, C=1.0, solver="exact", tol=1e-8,
                                          max_iter=3000, normalize=None).fit(X, y).coef_)) > 1e-2
    with pytest.raises(ValueError, match="normalize"):
        MiniMax(B, normalize="l1").fit(X, y)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("make", [lambda B: MixCH(B, C=0.5, max_iter=5),
                                  lambda B: MiniMax(B, C=0.5, solver="exact", normalize=None)],
                         ids=["MixCH", "MiniMax"])
def test_k_classes_fit_one_vs_rest(make):
    X, _, B = _problem(n=90, d=30, J=3)
    y3 = np.array(["x", "y", "z"])[np.random.default_rng(1).integers(0, 3, X.shape[0])]
    est = make(B).fit(X, y3)
    assert est.classes_.tolist() == ["x", "y", "z"] and len(est.estimators_) == 3
    assert est.coef_.shape == (3, X.shape[1]) and est.intercept_.shape == (3,)
    assert est.n_iter_.shape == (3,)
    D = est.decision_function(X)
    assert D.shape == (X.shape[0], 3)
    for k, c in enumerate(est.classes_):  # column k is the binary model of c against the rest
        binary = make(B).fit(X, (y3 == c).astype(int))
        np.testing.assert_array_equal(est.coef_[k], binary.coef_)
        np.testing.assert_array_equal(D[:, k], binary.decision_function(X))
    np.testing.assert_array_equal(est.predict(X), est.classes_[D.argmax(axis=1)])
    np.testing.assert_array_equal(make(B).fit(X.toarray(), y3).predict(X), est.predict(X))


def test_minimax_path_reuses_cuts_with_the_same_certificate():
    X, y, B = _problem(n=150, d=40, J=3, seed=2, noise=0.2)
    Cs, tol = [0.1, 1.0, 10.0], 1e-3
    path = minimax_path(MiniMax(B, solver="exact", tol=tol, max_iter=3000, normalize=None), X, y, Cs)
    ypm = 2.0 * y - 1.0
    for C, est in zip(Cs, path, strict=True):
        assert est.C == C and est.converged_ and not hasattr(est, "_warm")
        ref = MiniMax(B, C=C, solver="exact", tol=1e-9, max_iter=5000, normalize=None).fit(X, y)
        f_star = ref.history_["best_objective"][-1]
        f = minimax_objective(X, ypm, B, est.coef_, C=C)
        assert f_star * (1 - 1e-9) <= f <= f_star * (1 + tol)
        # the lower bound from cuts gathered at other C is still a lower bound
        assert est.history_["lower_bound"][-1] <= f_star * (1 + 1e-9)
    # warm-started fits need fewer passes at the larger C than cold ones
    cold = [MiniMax(B, C=C, solver="exact", tol=tol, max_iter=3000, normalize=None).fit(X, y).n_iter_
            for C in Cs]
    assert sum(e.n_iter_ for e in path[1:]) < sum(cold[1:])


def test_minimax_few_cuts_aggregated_keep_a_valid_bound():
    X, y, B = _problem(n=150, d=40, J=3, seed=6, noise=0.2)
    ref = MiniMax(B, C=5.0, solver="exact", tol=1e-9, max_iter=5000, normalize=None).fit(X, y)
    f_star = ref.history_["best_objective"][-1]
    few = MiniMax(B, C=5.0, solver="exact", tol=1e-4, max_iter=5000, max_cuts=8, normalize=None).fit(X, y)
    assert few.n_iter_ > 8  # cuts were aggregated
    assert few.converged_
    assert np.all(np.asarray(few.history_["lower_bound"]) <= f_star * (1 + 1e-9))
    f = minimax_objective(X, 2.0 * y - 1.0, B, few.coef_, C=5.0)
    assert f_star * (1 - 1e-9) <= f <= f_star * (1 + 1e-4)


def test_line_search_finds_the_minimum_along_the_segment():
    rng = np.random.default_rng(7)
    n, J, D, C = 60, 3, 10, 2.0
    for _ in range(20):
        Mb, Mc = rng.normal(size=(n, J)), rng.normal(size=(n, J)) * 2
        vb, d = rng.normal(size=D), rng.normal(size=D)

        def phi(k, Mb=Mb, Mc=Mc, vb=vb, d=d):
            v, M = vb + k * d, Mb + k * (Mc - Mb)
            return (v @ v) / (2 * C) + np.maximum(0.0, 1.0 - M.min(axis=1)).sum()

        k = _line_search(Mb, Mc, vb, d, C)
        best = min(phi(g) for g in np.linspace(0.0, 4.0, 4001))
        assert k >= 0.0 and phi(k) <= phi(0.0)
        assert phi(0.0) - phi(k) >= (1 - 1e-3) * (phi(0.0) - best)  # (a heuristic's accuracy)


def _mixch_reference(X, y, B, C, max_iter, tol):
    """The alternation refitting the SVM every round (no shortcut): (alpha, w, rounds)."""
    ypm = 2.0 * y - 1.0
    alpha, prev = np.full(B.shape[0], 1.0 / B.shape[0]), None
    for k in range(1, max_iter + 1):
        w = LinearSVC(C=C, loss="hinge", dual=True, fit_intercept=False, tol=1e-5,
                      max_iter=10000, random_state=0).fit(X @ sp.diags_array(alpha @ B), y)
        w = w.coef_.ravel()
        theta = np.concatenate([w, [0.0], alpha])
        if prev is not None and np.linalg.norm(theta - prev) / np.linalg.norm(prev) < tol:
            return alpha, w, k
        prev = theta
        S = _base_scores(X, B, w)
        loss = np.maximum(0.0, 1.0 - ypm * (S @ alpha)).sum()
        new, new_loss = alpha_step(S, ypm)
        if new_loss < loss - 1e-9 * max(1.0, loss):
            alpha = new
    return alpha, w, max_iter


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_mixch_kept_alpha_round_is_recorded_without_refit():
    kept = 0
    for seed, C in itertools.product(range(4), [0.1, 1.0]):
        X, y, B = _problem(n=100, d=30, J=3, seed=seed, noise=0.2)
        m = MixCH(B, C=C, max_iter=20).fit(X, y)
        alpha, w, rounds = _mixch_reference(X, y, B, C, 20, 1e-4)
        assert m.n_iter_ == rounds and len(m.history_["objective"]) == rounds
        # the same path, not the same bits: the reference sums in another order (numpy 2.4.6
        # put the two 6e-15 apart)
        np.testing.assert_allclose(m.alpha_, alpha, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(m.svm_coef_, w, rtol=1e-12, atol=1e-14)
        kept += m.history_["rel_change"][-1] == 0.0  # a round recorded without its refit
    assert kept > 0
    one = MixCH(B, C=1.0, max_iter=1)
    with pytest.warns(ConvergenceWarning):
        one.fit(X, y)
    assert not one.converged_ and one.n_iter_ == 1


KERNEL_ASM = r"""
import warnings
import numpy as np
import scipy.sparse as sp
from termweight.learners import _bundle
from termweight.learners.kim import MiniMax

warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
X = sp.random(60, 30, density=0.3, random_state=0, format="csr")
y = rng.integers(0, 2, 60)
for J in (1, 3, 5):  # the general and the unrolled margin loops
    MiniMax(rng.random((J, 30)), solver="exact", tol=1e-6, max_cuts=5, normalize=None).fit(X, y)
for name in ("_margins", "_margins5", "minimax_cut", "simplex_qp", "rows_dot", "rows_combine",
             "loss_slope", "dot", "qp_value"):
    asm = "".join(getattr(_bundle, name).inspect_asm().values())
    assert asm, name
    print(name, sum(asm.count(op) for op in ("vfmadd", "vfnmadd", "vfmsub", "vfnmsub")))
"""


def test_compiled_kernels_have_no_fused_multiply_add():
    """The exact solver's numba loops must give the same bits on every machine: no FMA (numba
    contracts only with fastmath), so a CPU with FMA units rounds exactly as one without."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_DISABLE_CACHING": "1"}  # inspect_asm needs a fresh compile
    out = subprocess.run([sys.executable, "-c", KERNEL_ASM], env=env, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    counts = dict(line.split() for line in out if line)
    assert len(counts) == 9 and all(c == "0" for c in counts.values()), counts


def test_compiled_loops_are_cached_outside_the_source_tree(tmp_path):
    """numba caches the exact solver's loops in the user's cache directory
    ($XDG_CACHE_HOME/termweight/numba), never beside learners/_bundle.py: an editable install's
    source tree gets no __pycache__/*.nbi or *.nbc."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import termweight

    src = Path(termweight.__file__).parent
    before = {p for p in src.rglob("*") if p.suffix in (".nbi", ".nbc")}
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    fit = ("import numpy as np; from termweight import MiniMax; rng = np.random.default_rng(0); "
           "X = rng.random((60, 8)); y = (X[:, 0] > 0.5).astype(int); "
           "print(MiniMax(solver='exact', normalize=None).fit(X, y).score(X, y))")
    subprocess.run([sys.executable, "-c", fit], env=env, capture_output=True, text=True, check=True)
    assert {p for p in src.rglob("*") if p.suffix in (".nbi", ".nbc")} == before
    assert list((tmp_path / "termweight" / "numba").rglob("*.nbi"))


def test_numba_cache_dir_is_the_users_choice_first(monkeypatch, tmp_path):
    from numba.core import config

    from termweight.learners import _bundle

    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert _bundle.cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _bundle.cache_dir() == tmp_path / "xdg" / "termweight" / "numba"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _bundle.cache_dir() == tmp_path / "home" / ".cache" / "termweight" / "numba"
