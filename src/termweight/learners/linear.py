"""One-vs-rest linear SVMs with optional per-task column scaling, stored as plain arrays.

Task ``c`` is fitted on ``X * diag(w_c)`` (``w_c`` = that task's supervised scaling weights, or
none) with scikit-learn's LinearSVC (liblinear; ../shared/METHODS.md section 6). Because
``(X diag(w)) . beta = X . (w * beta)``, a fitted task is stored as the effective coefficient
vector ``w_c * beta_c`` and intercept, and prediction is one sparse product for all tasks.
Tasks without a training positive (or without a negative) are not fitted: they are reported as
skipped, predicting negative everywhere.
"""

from __future__ import annotations

import logging

import numpy as np
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from termweight.encoding import scale_columns

log = logging.getLogger(__name__)


def fit_one_vs_rest(X, Y, C: float = 1.0, col_weights=None, random_state: int = 0,
                    max_iter: int = 10000):
    """Fit one LinearSVC per column of ``Y``.

    Returns ``coef`` (n_tasks, n_features) effective coefficients, ``intercept`` (n_tasks,) and
    ``fitted`` (n_tasks,) bool: False where the task had no training positive or negative.
    """
    X = sp.csr_matrix(X, dtype=np.float64)
    Y = sp.csc_matrix(Y)
    n_tasks = Y.shape[1]
    coef = np.zeros((n_tasks, X.shape[1]))
    intercept = np.full(n_tasks, -1.0)
    fitted = np.zeros(n_tasks, dtype=bool)
    for c in range(n_tasks):
        y = Y[:, c].toarray().ravel() > 0
        if y.all() or not y.any():
            log.warning("task %d: %d training positives of %d; skipped", c, int(y.sum()), y.size)
            continue
        w = None if col_weights is None else np.asarray(col_weights)[c]
        Xc = X if w is None else scale_columns(X, w)
        svm = LinearSVC(C=C, random_state=random_state, max_iter=max_iter)
        svm.fit(Xc, y)
        coef[c] = svm.coef_[0] if w is None else svm.coef_[0] * w
        intercept[c] = svm.intercept_[0]
        fitted[c] = True
    return coef, intercept, fitted


def decision_scores(X, coef, intercept) -> np.ndarray:
    """Margins (n_docs, n_tasks) = ``X coef^T + intercept``."""
    X = sp.csr_matrix(X, dtype=np.float64)
    return np.asarray(X @ coef.T) + intercept[None, :]
