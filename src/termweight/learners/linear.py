"""One-vs-rest linear SVMs with optional per-task column scaling, stored as plain arrays.

Task ``c`` is fitted on ``X * diag(w_c)`` (``w_c`` = that task's supervised scaling weights, or
none) with scikit-learn's LinearSVC (liblinear; [methods: learners][methods-learners]). Because
``(X diag(w)) . beta = X . (w * beta)``, a fitted task is stored as the effective coefficient
vector ``w_c * beta_c`` and intercept, and prediction is one sparse product for all tasks.
Tasks without a training positive (or without a negative) are not fitted: they are reported as
skipped, predicting negative everywhere. The liblinear fits that stop at ``max_iter`` are counted
and reported by ONE ``ConvergenceWarning`` (with the count) per call, not one per task; fitted
tasks whose weights are all zero by one ``TrivialModelWarning``.
"""

from __future__ import annotations

import logging
import warnings
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from termweight.learners._checks import TrivialModelWarning
from termweight.learners.registry import one_vs_rest

if TYPE_CHECKING:
    from sklearn.svm import LinearSVC

log = logging.getLogger(__name__)


#: C of the linear learners when params.yaml gives none (scikit-learn's default): the one default
DEFAULT_C = 1.0


def linear_svc(C: float = DEFAULT_C, random_state: int = 0, max_iter: int = 1000) -> LinearSVC:
    """scikit-learn's LinearSVC (squared hinge, L2) with liblinear's DUAL coordinate descent always.

    ``dual='auto'`` (the default) takes the primal trust-region solver when a training matrix has
    fewer features than rows (after feature selection); that solver calls BLAS, so its result
    depended on the OpenBLAS kernel of the machine (measured: 19 of 70 cells of Ferreira's R8
    table with m <= 5000 moved by one test document between the Haswell and SkylakeX kernels).
    The dual solver uses no BLAS: the same numbers on every machine.
    """
    from sklearn.svm import LinearSVC  # here: a step that only reads DEFAULT_C does not pay

    return LinearSVC(C=C, dual=True, random_state=random_state, max_iter=max_iter)


def fit_one_vs_rest(X, Y, C: float = 1.0, col_weights=None, random_state: int = 0,
                    max_iter: int = 10000):
    """Fit one LinearSVC per column of ``Y``.

    Returns ``coef`` (n_tasks, n_features) effective coefficients, ``intercept`` (n_tasks,) and
    ``fitted`` (n_tasks,) bool: False where the task had no training positive or negative.
    """

    def fit_one(Xc, y):
        svm = linear_svc(C, random_state, max_iter).fit(Xc, y)
        return svm.coef_[0], svm.intercept_[0]

    return _fit_tasks(X, Y, fit_one, col_weights)


def rms_row_norms(X, col_weights=None) -> np.ndarray:
    """Root-mean-square row norm of ``X diag(w_c)`` for every task ``c``: ``s_c = sqrt(sum_j q_j
    w_cj^2 / n)`` with ``q_j = sum_i x_ij^2`` (one array of ones without ``col_weights``).

    Summed with scipy's sequential sparse product and ``math.fsum`` (exactly rounded), not
    BLAS: the same bits on every machine."""
    import math

    X = sp.csr_matrix(X, dtype=np.float64)
    q = np.asarray(X.multiply(X).sum(axis=0)).ravel()
    W = np.ones((1, X.shape[1])) if col_weights is None else np.atleast_2d(col_weights)
    n = max(X.shape[0], 1)
    return np.array([math.sqrt(math.fsum(q * w * w) / n) for w in W])


def _fit_tasks(X, Y, fit_one, col_weights=None, relative_C: bool = False):
    """``fit_one(X * diag(w_c), y_c) -> (beta, b0)`` for every column ``c`` of ``Y``; stores
    ``w_c * beta`` and ``b0``. Tasks without a training positive or negative are skipped.

    ``relative_C``: task ``c`` is fitted on ``X diag(w_c) / s_c`` (``rms_row_norms``: its
    training rows then have RMS norm 1) and stores ``w_c * beta / s_c``. For a liblinear model this
    is the fit on ``X diag(w_c)`` with ``C / s_c^2`` and ``intercept_scaling = s_c``: C relative to
    the data scale, SVM-light's default ``C = 1 / mean ||x||^2`` for C = 1 (Joachims 2002). A
    weighting's overall magnitude then no longer changes the regularisation, only the relative
    weights of its terms count."""
    from sklearn.exceptions import ConvergenceWarning

    from termweight.encoding import scale_columns

    X = sp.csr_matrix(X, dtype=np.float64)
    Y = sp.csc_matrix(Y)
    n_tasks = Y.shape[1]
    coef = np.zeros((n_tasks, X.shape[1]))
    intercept = np.full(n_tasks, -1.0)
    fitted = np.zeros(n_tasks, dtype=bool)
    scale = None
    if relative_C:
        norms = rms_row_norms(X, col_weights)
        scale = np.where(norms > 0, norms, 1.0)  # an all-zero task matrix is fitted as it is
    unconverged, zero = [], []
    for c in range(n_tasks):
        y = Y[:, c].toarray().ravel() > 0
        if y.all() or not y.any():
            log.warning("task %d: %d training positives of %d; skipped", c, int(y.sum()), y.size)
            continue
        w = None if col_weights is None else np.asarray(col_weights)[c]
        Xc = X if w is None else scale_columns(X, w)
        s = 1.0 if scale is None else float(scale[0 if w is None else c])
        if s != 1.0:
            Xc = sp.csr_matrix((Xc.data / s, Xc.indices, Xc.indptr), shape=Xc.shape)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            beta, b0 = fit_one(Xc, y)
        for caught_warning in caught:
            if issubclass(caught_warning.category, ConvergenceWarning):
                unconverged.append(c)
            else:
                warnings.warn(caught_warning.message, caught_warning.category, stacklevel=2)
        if not np.any(beta):
            zero.append(c)
        beta = beta / s  # exact for s = 1
        coef[c] = beta if w is None else beta * w
        intercept[c] = b0
        fitted[c] = True
    if unconverged:
        unconverged = sorted(set(unconverged))
        warnings.warn(f"one-vs-rest: {len(unconverged)} of {int(fitted.sum())} fitted tasks did "
                      f"not converge (liblinear stopped at max_iter; tasks "
                      f"{_few(unconverged)}); raise max_iter", ConvergenceWarning, stacklevel=3)
    if zero:
        warnings.warn(f"one-vs-rest: {len(zero)} of {int(fitted.sum())} fitted tasks have all "
                      f"weights zero (w = 0; tasks {_few(zero)})", TrivialModelWarning,
                      stacklevel=3)
    return coef, intercept, fitted


def _few(items, n: int = 10) -> str:
    return ", ".join(map(str, items[:n])) + (", ..." if len(items) > n else "")


def decision_scores(X, coef, intercept) -> np.ndarray:
    """Margins (n_docs, n_tasks) = ``X coef^T + intercept``."""
    X = sp.csr_matrix(X, dtype=np.float64)
    return np.asarray(X @ coef.T) + intercept[None, :]


# --- the learner registry (the benchmark's learners; linearsvc is the generic steps' default) ---

def _make_linearsvc(C: float, random_state: int, max_iter: int | None = None):
    return linear_svc(C, random_state, max_iter=max_iter or 10000)


def logistic_regression(C: float = DEFAULT_C, random_state: int = 0, max_iter: int = 1000):
    """L2-regularised logistic regression by liblinear's DUAL coordinate descent.

    The default (primal) liblinear solver is a trust-region Newton method that calls BLAS: its
    coefficients differed in their bits between the Haswell, SkylakeX and Sandybridge OpenBLAS
    kernels (measured on tr41, tf-chi2). The dual solver calls no BLAS (as ``linear_svc``)."""
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, solver="liblinear", dual=True, random_state=random_state,
                              max_iter=max_iter)


def _make_logreg(C: float, random_state: int, max_iter: int | None = None):
    return logistic_regression(C, random_state, max_iter=max_iter or 1000)


def _make_mnb(C: float, random_state: int, max_iter: int | None = None):
    from sklearn.naive_bayes import MultinomialNB

    return MultinomialNB(alpha=1.0)  # Laplace smoothing; C and max_iter do not apply


#: name -> factory ``(C, random_state, max_iter=None) -> binary scikit-learn classifier`` whose
#: decision is linear (None: the learner's default iteration cap); the names, their order and
#: their factories come from ``termweight.learners.registry``.
LEARNERS = {spec.name: globals()[spec.factory] for spec in one_vs_rest()}
#: learners whose C may be made relative to the data scale (``relative_C``); NB has no C.
RELATIVE_C_LEARNERS = tuple(spec.name for spec in one_vs_rest() if spec.relative_C)


def _linear_parts(model) -> tuple[np.ndarray, float]:
    """``(coef, intercept)`` of a fitted binary model as ``decision = x . coef + intercept > 0``.

    Multinomial NB: ``coef = log theta_pos - log theta_neg`` and ``intercept = log P(pos) -
    log P(neg)`` (its posterior log-odds are linear in the counts)."""
    if hasattr(model, "feature_log_prob_"):
        flp, prior = model.feature_log_prob_, model.class_log_prior_
        return flp[1] - flp[0], float(prior[1] - prior[0])
    return np.asarray(model.coef_).ravel(), float(np.ravel(model.intercept_)[0])


def fit_learner(name: str, X, Y, C: float = 1.0, col_weights=None, random_state: int = 0,
                relative_C: bool = False, max_iter: int | None = None):
    """One-vs-rest fit of learner ``name`` (``LEARNERS``), same outputs as ``fit_one_vs_rest``.

    Every learner fits one binary model per column of ``Y`` on ``X * diag(w_c)`` and stores
    ``w_c * coef`` (as above); ``linearsvc`` with the defaults IS ``fit_one_vs_rest`` (the
    generic steps' learner). ``relative_C`` (LinearSVC, logistic regression): C relative to each
    task's data scale (``_fit_tasks``). ``max_iter``: liblinear's cap (None: 10,000 for the
    SVM, 1,000 for logistic regression).
    """
    if name not in LEARNERS:
        from termweight.runner.errors import ConfigError

        raise ConfigError(f"unknown learner {name!r}; known: {', '.join(LEARNERS)}")
    relative_C = relative_C and name in RELATIVE_C_LEARNERS
    return _fit_tasks(
        X, Y, lambda Xc, y: _linear_parts(LEARNERS[name](C, random_state, max_iter).fit(Xc, y)),
        col_weights, relative_C=relative_C)


def top1_accuracy(Y_true, scores) -> float:
    """Share of test documents whose highest decision score is one of their true classes.

    For single-label data this is the usual multi-class accuracy of one-vs-rest by argmax;
    documents without any true class are left out (ties: the first class)."""
    Y = sp.csr_matrix(Y_true)
    has = np.diff(Y.indptr) > 0
    if not has.any():
        return 0.0
    top = np.asarray(scores).argmax(axis=1)
    hit = np.asarray(Y[np.arange(Y.shape[0]), top]).ravel() > 0
    return float(hit[has].mean())
