"""Kim (2016), "Robust Algorithms for Combining Multiple Term Weighting Vectors", IJFIS 16(2).

Two linear classifiers (binary, as in the paper; K > 2 classes one-vs-rest) over J nonnegative
base term-weight vectors ``b_j`` (rows of
``base_weights``, e.g. idf, chi2, ig, rf, or), with ``z_ij = b_j * x_i`` (element-wise, eq. 1):

- :class:`MixCH` (section 3.1, eq. 2): one weight vector ``b = sum_j alpha_j b_j`` in the convex
  hull of the bases, ``min_{alpha, w} sum_i (1 - y_i w.(b * x_i))_+ + C_Kim ||w||^2``, by block
  coordinate descent: LinearSVC (hinge loss) for ``w`` with ``alpha`` fixed, a linear program
  (HiGHS) for ``alpha`` with ``w`` fixed; until the relative change of the iterates < ``tol``.
- :class:`MiniMax` (section 3.2, eq. 3-4): ``min_w sum_i max_j (1 - y_i w.z_ij)_+ + C_Kim ||w||^2``
  by the paper's subgradient method (step ``eta_k = eta0 / k``) or, beyond the paper, an exact
  (certified to a relative duality gap ``tol``) cutting-plane / bundle solver; prediction by
  majority vote of ``sign(w.z_j)`` over the J bases.

Conventions (documented choices):

- ``C`` is scikit-learn's/liblinear's: the estimators minimise ``0.5||w||^2 + C sum_i loss_i``,
  which has the same minimiser as Kim's ``sum_i loss_i + C_Kim ||w||^2`` with
  ``C_Kim = 1 / (2 C)``. So one C grid serves LinearSVC baselines, mix-ch and mini-max.
  Objectives recorded in ``history_`` are on Kim's scale: ``sum_i loss_i + ||w||^2 / (2 C)``.
- Kim's model has no bias term (``y = sgn(w.(b * x))``), hence ``fit_intercept=False`` by default.
  With ``fit_intercept=True`` the intercept is handled as liblinear does (a constant feature of
  value ``intercept_scaling``, weight 1 in every base, regularised with ``w``).
- The loss is the hinge loss as in the paper (not LinearSVC's default squared hinge).
- ``base_weights``: array (J, n_features), or a callable ``f(X, y01) -> (J, n_features)`` evaluated
  in ``fit`` on the training data only (``y01`` in {0, 1}, 1 = ``classes_[1]``), or None (one base
  of ones: a plain linear SVM).
- K > 2 classes (beyond the paper, which is binary): one-vs-rest, one binary model per class
  ``y == classes_[k]`` (a clone with the same parameters; a callable ``base_weights`` is evaluated
  per task) in ``estimators_``; ``coef_`` (K, n_features), ``intercept_`` (K,), ``n_iter_`` (K,),
  ``decision_function`` (n, K) and ``predict`` = ``classes_[argmax]``, as OneVsRestClassifier.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["MiniMax", "MixCH", "alpha_step", "minimax_objective", "project_simplex"]


# ----------------------------------------------------------------------------- helpers
def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of ``v`` onto the probability simplex (sort-based, O(J log J))."""
    v = np.asarray(v, dtype=np.float64)
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, v.size + 1)
    rho = np.nonzero(u - css / k > 0)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1.0), 0.0)


def _resolve_bases(base_weights, X, y01: np.ndarray) -> np.ndarray:
    d = X.shape[1]
    if base_weights is None:
        B = np.ones((1, d))
    elif callable(base_weights):
        B = base_weights(X, y01)
    else:
        B = base_weights
    B = np.asarray(B.toarray() if sp.issparse(B) else B, dtype=np.float64)
    if B.ndim == 1:
        B = B[None, :]
    if B.ndim != 2 or B.shape[0] < 1 or B.shape[1] != d:
        raise ValueError(f"base_weights must have shape (n_bases, {d}), got {B.shape}")
    if not np.all(np.isfinite(B)) or np.any(B < 0):
        raise ValueError("base_weights must be finite and nonnegative")
    return B


def _binary_targets(est, y) -> tuple[np.ndarray, np.ndarray]:
    y01 = (y == est.classes_[1]).astype(np.int64)
    return y01, 2.0 * y01 - 1.0


class _OneVsRest(ClassifierMixin, BaseEstimator):
    """Shared ``fit`` dispatch: binary ``_fit_binary``; K > 2 classes one clone per class."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        K = self.classes_.size
        if K < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes in the "
                             f"data; got 1 class: {self.classes_[0]!r}")
        if K == 2:
            self.estimators_ = None
            return self._fit_binary(X, y)
        self.estimators_ = [clone(self).fit(X, (y == c).astype(np.int64)) for c in self.classes_]
        for name in ("coef_", "intercept_"):
            setattr(self, name, np.vstack([getattr(e, name) for e in self.estimators_]))
        self.intercept_ = self.intercept_.ravel()
        self.n_iter_ = np.array([e.n_iter_ for e in self.estimators_])
        self.converged_ = np.array([e.converged_ for e in self.estimators_])
        return self

    def decision_function(self, X):
        """Binary: (n,) margins, > 0 for ``classes_[1]``; K > 2: (n, K), one column per class."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        if self.estimators_ is None:
            return self._decision_binary(X)
        return np.column_stack([e._decision_binary(X) for e in self.estimators_])

    def predict(self, X):
        d = self.decision_function(X)
        idx = (d > 0).astype(np.int64) if d.ndim == 1 else np.argmax(d, axis=1)
        return self.classes_[idx]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _base_scores(X, B: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``S[i, j] = w.(b_j * x_i) = x_i.(b_j * w)``: one sparse x dense product, (n, J)."""
    return np.asarray(X @ (B * w).T)


def _base_row_scale(X, B: np.ndarray, normalize) -> np.ndarray | None:
    """``R[i, j] = 1 / ||b_j * x_i||`` for ``normalize='l2'`` (0 where the norm is 0), else None.

    ``||b_j * x_i||^2 = sum_t x_it^2 b_jt^2``: one sparse x dense product, (n, J).
    """
    if normalize is None:
        return None
    if normalize != "l2":
        raise ValueError(f"normalize must be None or 'l2', got {normalize!r}")
    X = sp.csr_matrix(X)
    sq = np.asarray(X.multiply(X) @ (B * B).T)
    return np.divide(1.0, np.sqrt(sq), out=np.zeros_like(sq), where=sq > 0)


def alpha_step(S: np.ndarray, y: np.ndarray, intercept: float = 0.0) -> tuple[np.ndarray, float]:
    """Kim eq. (2) with ``w`` fixed: ``min_{alpha in simplex} sum_i (1 - y_i (alpha.s_i + w0))_+``.

    LP in ``(alpha, xi)``: min ``sum xi`` s.t. ``xi_i >= 1 - y_i (s_i.alpha + w0)``, ``xi >= 0``,
    ``alpha >= 0``, ``sum alpha = 1`` (scipy linprog, HiGHS). Returns ``(alpha, optimal value)``.
    """
    n, J = S.shape
    c = np.concatenate([np.zeros(J), np.ones(n)])
    A_ub = sp.hstack([sp.csr_matrix(-y[:, None] * S), -sp.eye(n, format="csr")], format="csr")
    b_ub = -1.0 + y * intercept
    A_eq = np.concatenate([np.ones(J), np.zeros(n)])[None, :]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0], bounds=(0, None),
                  method="highs")
    if res.status != 0:
        raise RuntimeError(f"alpha LP failed: {res.message}")
    alpha = np.maximum(res.x[:J], 0.0)
    return alpha / alpha.sum(), float(res.fun)


# ----------------------------------------------------------------------------- mix-ch
class MixCH(_OneVsRest):
    """Kim's convex-hull mixture "mix-ch" (section 3.1, eq. 2); K > 2 classes one-vs-rest.

    ``min_{alpha in simplex, w} sum_i (1 - y_i w.(b * x_i))_+ + ||w||^2 / (2C)``,
    ``b = sum_j alpha_j b_j``. Block coordinate descent from ``alpha = 1/J``:
    (i) ``w`` = LinearSVC(loss='hinge', C) on ``X * b`` (liblinear, ``random_state``);
    (ii) ``alpha`` = :func:`alpha_step` (accepted only if it lowers the loss, which rules out
    cycling between tied LP vertices). Stops when ``||theta_k - theta_{k-1}|| / ||theta_{k-1}||``
    < ``tol`` with ``theta = (w, intercept, alpha)`` (section 4: "norm of the relative changes in
    the consecutive iterates ... smaller than 1e-4") or after ``max_iter`` SVM fits. The model kept
    is the last SVM fit together with the ``alpha`` it used.

    Attributes: ``alpha_`` (J,), ``weights_`` = ``b`` (n_features,), ``svm_coef_`` = ``w``,
    ``coef_ = w * b`` (so ``decision_function(X) = X @ coef_ + intercept_``), ``intercept_``,
    ``base_weights_`` (J, n_features), ``n_iter_``, ``converged_``, ``history_`` (dict of lists:
    ``objective`` after each SVM step and ``objective_after_alpha`` after each LP step, on Kim's
    scale; ``alpha``; ``rel_change``; ``time`` cumulative seconds).
    """

    def __init__(self, base_weights=None, C=1.0, max_iter=50, tol=1e-4, fit_intercept=False,
                 intercept_scaling=1.0, svm_tol=1e-5, svm_max_iter=10000, random_state=0):
        self.base_weights = base_weights
        self.C = C
        self.max_iter = max_iter
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.svm_tol = svm_tol
        self.svm_max_iter = svm_max_iter
        self.random_state = random_state

    def _svm(self, X, y, b):
        svm = LinearSVC(C=self.C, loss="hinge", dual=True, fit_intercept=self.fit_intercept,
                        intercept_scaling=self.intercept_scaling, tol=self.svm_tol,
                        max_iter=self.svm_max_iter, random_state=self.random_state)
        svm.fit(X @ sp.diags_array(b), y)
        # liblinear's internal bias weight is intercept_ / intercept_scaling (regularised)
        w0 = float(np.ravel(svm.intercept_)[0])
        w0_raw = w0 / self.intercept_scaling if self.fit_intercept else 0.0
        return svm.coef_.ravel().copy(), w0, w0_raw

    def _fit_binary(self, X, y):
        y01, ypm = _binary_targets(self, y)
        B = _resolve_bases(self.base_weights, X, y01)
        J = B.shape[0]
        alpha = np.full(J, 1.0 / J)
        hist = {"objective": [], "objective_after_alpha": [], "alpha": [], "rel_change": [],
                "time": []}
        t0 = time.perf_counter()
        theta_prev = None
        self.converged_ = False
        for k in range(1, self.max_iter + 1):
            b = alpha @ B
            w, w0, w0_raw = self._svm(X, ypm, b)
            S = _base_scores(X, B, w)
            loss = np.maximum(0.0, 1.0 - ypm * (S @ alpha + w0)).sum()
            reg = (w @ w + w0_raw**2) / (2.0 * self.C)
            theta = np.concatenate([w, [w0], alpha])
            rel = (np.inf if theta_prev is None else
                   np.linalg.norm(theta - theta_prev) / max(np.linalg.norm(theta_prev), 1e-300))
            self.alpha_, self.svm_coef_, self.intercept_ = alpha.copy(), w, np.array([w0])
            hist["objective"].append(float(loss + reg))
            hist["alpha"].append(alpha.tolist())
            hist["rel_change"].append(float(rel))
            self.n_iter_ = k
            if J == 1 or rel < self.tol:
                hist["objective_after_alpha"].append(float(loss + reg))
                hist["time"].append(time.perf_counter() - t0)
                self.converged_ = True
                break
            theta_prev = theta
            new_alpha, new_loss = alpha_step(S, ypm, w0)
            if new_loss < loss - 1e-9 * max(1.0, loss):
                alpha, loss = new_alpha, new_loss
            hist["objective_after_alpha"].append(float(loss + reg))
            hist["time"].append(time.perf_counter() - t0)
        if not self.converged_:
            warnings.warn(f"MixCH did not converge in {self.max_iter} iterations",
                          ConvergenceWarning, stacklevel=2)
        self.base_weights_ = B
        self.weights_ = self.alpha_ @ B
        self.coef_ = self.svm_coef_ * self.weights_
        self.history_ = hist
        return self

    def _decision_binary(self, X):
        """``w.(b * x) + intercept`` (section 3.1: ``y = sgn(w.(b * x))``)."""
        return np.asarray(X @ self.coef_).ravel() + self.intercept_[0]


# ----------------------------------------------------------------------------- mini-max
class _MinimaxProblem:
    """Evaluates Kim eq. (3) on Kim's scale, ``F(v) = sum_i max_j (1 - m_ij)_+ + ||v||^2/(2C)``,
    ``m_ij = y_i (w.z_ij + s w0)``, ``v = (w, w0)`` (``w0`` only with an intercept, ``s`` =
    intercept_scaling), and one subgradient of the loss (eq. 4: ``-y_i z_{i j*(i)}`` on the
    active set, ``j*(i) = argmin_j m_ij``, first index on ties). With a row scale ``R`` (n, J),
    ``z_ij = R_ij b_j * x_i``."""

    def __init__(self, X, B, y, C, s, R=None):
        self.X, self.B, self.y, self.C, self.s, self.R = X, B, y, C, s, R
        self.XT = X.T.tocsr() if sp.issparse(X) else sp.csr_matrix(X.T)
        self.d = X.shape[1]

    def margins(self, v):
        M = _base_scores(self.X, self.B, v[: self.d])
        if self.R is not None:
            M *= self.R
        if self.s:
            M += self.s * v[self.d]
        return self.y[:, None] * M

    def evaluate(self, v):
        """Return ``(objective, loss subgradient a, number of active docs)``."""
        M = self.margins(v)
        jstar = np.argmin(M, axis=1)
        mmin = M[np.arange(M.shape[0]), jstar]
        active = mmin < 1.0
        loss = float(np.sum(1.0 - mmin[active]))
        Wm = np.zeros_like(M)
        rows = np.nonzero(active)[0]
        Wm[rows, jstar[active]] = self.y[active] * (
            self.R[rows, jstar[active]] if self.R is not None else 1.0)
        a = -np.einsum("jd,dj->d", self.B, self.XT @ Wm)
        if self.s:
            a = np.append(a, -self.s * self.y[active].sum())
        return loss + (v @ v) / (2.0 * self.C), a, int(active.sum())


def minimax_objective(X, y, base_weights, coef, intercept=0.0, C=1.0, intercept_scaling=1.0,
                      normalize=None):
    """Kim eq. (3) on Kim's scale for given ``coef`` (and raw-scaled ``intercept``), y in {-1, 1}.

    ``sum_i max_j (1 - y_i (coef.z_ij + intercept))_+ + (||coef||^2 + w0^2) / (2C)`` with
    ``z_ij = b_j * x_i`` (``normalize='l2'``: divided by its norm) and
    ``w0 = intercept / intercept_scaling`` (liblinear's regularised bias weight).
    """
    X = sp.csr_matrix(X, dtype=np.float64)
    B = np.atleast_2d(np.asarray(base_weights, dtype=np.float64))
    y = np.asarray(y, dtype=np.float64)
    S = _base_scores(X, B, np.asarray(coef, dtype=np.float64))
    R = _base_row_scale(X, B, normalize)
    if R is not None:
        S *= R
    M = y[:, None] * (S + intercept)
    w0 = intercept / intercept_scaling if intercept else 0.0
    loss = np.maximum(0.0, 1.0 - M.min(axis=1)).sum()
    return float(loss + (np.dot(coef, coef) + w0**2) / (2.0 * C))


def _simplex_qp(G, c, C, mu, tol, max_iter):
    """FISTA for ``min_{mu in simplex} 0.5 C mu'G mu - c'mu`` (bundle master dual), warm start."""
    L = C * max(np.linalg.eigvalsh(G)[-1], 1e-300)
    x, yk, t = mu.copy(), mu.copy(), 1.0
    fprev = np.inf
    for _ in range(max_iter):
        grad = C * (G @ yk) - c
        x_new = project_simplex(yk - grad / L)
        f = 0.5 * C * x_new @ G @ x_new - c @ x_new
        if f > fprev:  # adaptive restart (O'Donoghue & Candes)
            t, yk = 1.0, x.copy()
            continue
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        yk = x_new + ((t - 1.0) / t_new) * (x_new - x)
        x, t, fprev = x_new, t_new, f
        g = C * (G @ x) - c
        if g @ x - g.min() <= tol:  # Frank-Wolfe gap bounds suboptimality
            break
    return x


class MiniMax(_OneVsRest):
    """Kim's mini-max robust classifier (section 3.2, eq. 3); K > 2 classes one-vs-rest.

    ``min_w F(w) = sum_i max_j (1 - y_i w.(b_j * x_i))_+ + ||w||^2 / (2C)`` (convex).

    ``solver='subgradient'`` (the paper, eq. 4): ``w <- w - eta_k (w / C + sum_i dl_i)``,
    ``eta_k = eta0 / k`` (section 4: ``1/k``), from ``w = 0``, for exactly ``max_iter`` steps; the
    best iterate is kept (a subgradient step need not descend; Bertsekas 1999, the paper's [11]).

    ``solver='exact'`` (beyond the paper): bundle / cutting-plane method (BMRM, Teo et al. 2010;
    1-slack cutting planes, Joachims 2009). Each loss subgradient ``a_t`` at ``w_t`` gives the
    minorant ``R(w) >= a_t.w + c_t`` (``c_t`` = number of active docs); the master problem
    ``min_w ||w||^2/(2C) + max(0, max_t a_t.w + c_t)`` is solved in its dual over a simplex
    (``w = -C A'mu``, FISTA). Stops when ``min_t F(w_t) - master lower bound <= tol * F``: a
    certified relative duality gap. At most ``max_cuts`` cuts are kept (inactive ones dropped, the
    oldest aggregated, which keeps the bound valid). One pass over the data per iteration.

    ``normalize='l2'`` (beyond the paper): every weighted document is put on the unit sphere,
    ``z_ij = b_j * x_i / ||b_j * x_i||`` (cosine normalisation after weighting, as for tf-idf), so
    no base dominates the max over j by the scale of its weights alone; the problem stays convex
    (the scale is data, not a variable). Default None: the paper's ``z_ij = b_j * x_i``.

    Prediction (section 3.2): majority vote of ``sign(w.z_j)`` over the J bases. ``voting='hard'``:
    ``decision_function = v + tanh(mbar) / (3J)``, ``v = mean_j sign(m_j)`` the vote balance and
    ``mbar = mean_j m_j`` the mean base margin; so the vote decides, a tied vote (or all zero
    margins) is broken by the sign of the mean margin, and an exact 0 predicts ``classes_[0]``;
    ``predict`` = ``decision_function > 0`` (consistent with OneVsRestClassifier). ``voting='soft'``:
    ``decision_function = mbar``.

    Attributes: ``coef_`` = ``w``, ``intercept_``, ``base_weights_``, ``n_iter_``, ``history_``
    (``objective`` per iteration on Kim's scale, ``best_objective``, ``iter_time`` seconds per
    iteration, ``time`` cumulative; exact solver also ``lower_bound``, ``gap``), ``converged_``.
    """

    def __init__(self, base_weights=None, C=1.0, solver="subgradient", max_iter=1000, tol=1e-4,
                 eta0=1.0, voting="hard", fit_intercept=False, intercept_scaling=1.0,
                 max_cuts=100, normalize=None):
        self.base_weights = base_weights
        self.C = C
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.eta0 = eta0
        self.voting = voting
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.max_cuts = max_cuts
        self.normalize = normalize

    def fit(self, X, y):
        if self.solver not in ("subgradient", "exact"):
            raise ValueError(f"solver must be 'subgradient' or 'exact', got {self.solver!r}")
        if self.voting not in ("hard", "soft"):
            raise ValueError(f"voting must be 'hard' or 'soft', got {self.voting!r}")
        return super().fit(X, y)

    def _fit_binary(self, X, y):
        y01, ypm = _binary_targets(self, y)
        B = _resolve_bases(self.base_weights, X, y01)
        s = float(self.intercept_scaling) if self.fit_intercept else 0.0
        prob = _MinimaxProblem(X, B, ypm, float(self.C), s, _base_row_scale(X, B, self.normalize))
        solve = self._fit_subgradient if self.solver == "subgradient" else self._fit_exact
        v = solve(prob)
        d = X.shape[1]
        self.base_weights_ = B
        self.coef_ = v[:d].copy()
        self.intercept_ = np.array([s * v[d] if s else 0.0])
        return self

    def _fit_subgradient(self, prob):
        v = np.zeros(prob.d + (1 if prob.s else 0))
        best_v, best = v.copy(), np.inf
        hist = {"objective": [], "best_objective": [], "iter_time": [], "time": []}
        t0 = time.perf_counter()
        for k in range(1, self.max_iter + 2):
            ts = time.perf_counter()
            obj, a, _ = prob.evaluate(v)
            if obj < best:
                best, best_v = obj, v.copy()
            if k <= self.max_iter:
                v = v - (self.eta0 / k) * (v / prob.C + a)
            te = time.perf_counter()
            hist["objective"].append(obj)
            hist["best_objective"].append(best)
            hist["iter_time"].append(te - ts)
            hist["time"].append(te - t0)
        self.n_iter_ = self.max_iter
        self.converged_ = False  # no optimality certificate for the subgradient method
        self.history_ = hist
        return best_v

    def _fit_exact(self, prob):
        C = prob.C
        D = prob.d + (1 if prob.s else 0)
        A = np.zeros((1, D))  # cut 0: the trivial minorant R(w) >= 0
        c = np.zeros(1)
        G = np.zeros((1, 1))
        mu = np.ones(1)
        idle = np.zeros(1, dtype=np.int64)  # iterations each cut has had mu == 0
        v = np.zeros(D)
        ub, lb, best_v = np.inf, -np.inf, v.copy()
        hist = {"objective": [], "best_objective": [], "lower_bound": [], "gap": [],
                "iter_time": [], "time": []}
        t0 = time.perf_counter()
        self.converged_ = False
        for k in range(1, self.max_iter + 1):
            ts = time.perf_counter()
            obj, a, n_active = prob.evaluate(v)
            if obj < ub:
                ub, best_v = obj, v.copy()
            # add the cut; keep G = A A'
            ga = A @ a
            A = np.vstack([A, a])
            c = np.append(c, float(n_active))
            G = np.block([[G, ga[:, None]], [ga[None, :], np.array([[a @ a]])]])
            mu = np.append(mu, 0.0)
            idle = np.append(idle, 0)
            if A.shape[0] > self.max_cuts:
                A, c, G, mu, idle = self._shrink(A, c, G, mu, idle)
            inner_tol = max(0.1 * (ub - lb) if np.isfinite(lb) else 0.1 * ub, 1e-12 * ub)
            mu = _simplex_qp(G, c, C, mu, inner_tol, 2000)
            lb = max(lb, float(c @ mu - 0.5 * C * mu @ G @ mu))
            idle = np.where(mu > 0, 0, idle + 1)
            v = -C * (mu @ A)
            te = time.perf_counter()
            gap = ub - lb
            hist["objective"].append(obj)
            hist["best_objective"].append(ub)
            hist["lower_bound"].append(lb)
            hist["gap"].append(gap)
            hist["iter_time"].append(te - ts)
            hist["time"].append(te - t0)
            self.n_iter_ = k
            if gap <= self.tol * max(ub, 1e-300):
                self.converged_ = True
                break
        if not self.converged_:
            warnings.warn(f"MiniMax(solver='exact') stopped at relative gap {gap / ub:.2e} > tol "
                          f"after {self.max_iter} iterations", ConvergenceWarning, stacklevel=3)
        self.history_ = hist
        return best_v

    def _shrink(self, A, c, G, mu, idle):
        """Drop long-idle cuts; if still too many, aggregate the oldest (mu-weighted average of
        minorants is a minorant, and the current master solution is preserved)."""
        T = A.shape[0]
        keep = np.ones(T, dtype=bool)
        drop = np.nonzero((idle > 10) & (mu == 0))[0]
        drop = drop[drop > 0][: T - self.max_cuts]
        keep[drop] = False
        A, c, G, mu, idle = A[keep], c[keep], G[np.ix_(keep, keep)], mu[keep], idle[keep]
        if A.shape[0] > self.max_cuts:
            n_agg = A.shape[0] - self.max_cuts + 1
            old = np.arange(1, 1 + n_agg)  # oldest real cuts (index 0 = trivial cut)
            m = mu[old].sum()
            wts = mu[old] / m if m > 0 else np.full(n_agg, 1.0 / n_agg)
            a_agg, c_agg = wts @ A[old], wts @ c[old]
            rest = np.setdiff1d(np.arange(A.shape[0]), old)
            A = np.vstack([A[rest[:1]], a_agg, A[rest[1:]]])
            c = np.concatenate([c[rest[:1]], [c_agg], c[rest[1:]]])
            mu = np.concatenate([mu[rest[:1]], [m], mu[rest[1:]]])
            idle = np.concatenate([idle[rest[:1]], [0], idle[rest[1:]]])
            G = A @ A.T
        return A, c, G, mu, idle

    def base_margins(self, X):
        """``(n, J)`` margins ``w.(b_j * x) + intercept`` of the J bases (binary models)."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        if self.estimators_ is not None:
            raise AttributeError("base_margins is per binary model: use estimators_[k].base_margins")
        return self._base_margins(X)

    def _base_margins(self, X):
        S = _base_scores(X, self.base_weights_, self.coef_)
        R = _base_row_scale(X, self.base_weights_, self.normalize)
        if R is not None:
            S *= R
        return S + self.intercept_[0]

    def _decision_binary(self, X):
        M = self._base_margins(X)
        mbar = M.mean(axis=1)
        if self.voting == "soft":
            return mbar
        J = M.shape[1]
        return np.sign(M).mean(axis=1) + np.tanh(mbar) / (3.0 * J)
