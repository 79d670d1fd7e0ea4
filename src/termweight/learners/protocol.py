"""The benchmark's learning protocol: unit-length documents after weighting, the regularisation
chosen on training rows, top-1 predictions for single-label corpora.

- **Length normalisation** (Debole & Sebastiani 2003; Lan et al. 2009; Chen et al. 2016): task
  ``c`` learns on the rows of ``X diag(w_c)`` divided by their Euclidean length, ``x (.) w_c /
  ||x (.) w_c||``. With the stored coefficients ``w_c * beta_c`` the decision is
  ``x . (w_c * beta_c) / ||x (.) w_c|| + b_c``; the norms of all tasks at once are
  ``sqrt((X (.) X) (W (.) W)^T)``, one sparse product.
- **Tuning**: C of LinearSVC and logistic regression, alpha of multinomial naive Bayes, is the
  grid value with the best inner cross-validated score on the outer training rows only (the same
  seeded folds for every weighting); ties go to the smaller value. Single-label data is scored by
  the macro-F1 of the top-1 prediction, multi-label data by the macro-F1 of the per-category
  decisions ``> 0``.
- **Convergence**: every final fit's liblinear convergence is recorded per task.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from termweight.learners.linear import LEARNERS, _fit_tasks, _linear_parts

#: the grid values of each learner's regularisation parameter (at least 5 over 4 decades)
DEFAULT_C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)
DEFAULT_ALPHA_GRID = (0.0001, 0.001, 0.01, 0.1, 1.0)
#: liblinear's iteration cap in the tuned protocol (dual coordinate descent on unit-length rows)
DEFAULT_MAX_ITER = 10000


@dataclass(frozen=True)
class Protocol:
    """How the benchmark fits: ``normalize`` ("l2" or "none"), the grids, inner folds, cap."""

    normalize: str = "l2"
    C_grid: tuple[float, ...] = DEFAULT_C_GRID
    alpha_grid: tuple[float, ...] = DEFAULT_ALPHA_GRID
    inner_folds: int = 3
    max_iter: int = DEFAULT_MAX_ITER
    seed: int = 0

    def grid(self, learner: str) -> tuple[float, ...]:
        """The values tried for ``learner``, ascending: alpha for ``mnb``, C otherwise."""
        return tuple(sorted(self.alpha_grid if learner == "mnb" else self.C_grid))

    @classmethod
    def from_params(cls, section: dict | None, seed: int = 0) -> Protocol | None:
        """The ``benchmark.tuning`` section of params.yaml (None: the fixed-C protocol)."""
        if not section:
            return None
        return cls(normalize=section.get("normalize", "l2"),
                   C_grid=tuple(map(float, section.get("C", DEFAULT_C_GRID))),
                   alpha_grid=tuple(map(float, section.get("alpha", DEFAULT_ALPHA_GRID))),
                   inner_folds=int(section.get("folds", 3)),
                   max_iter=int(section.get("max_iter", DEFAULT_MAX_ITER)), seed=seed)


def task_norms(X, col_weights=None) -> np.ndarray:
    """Euclidean length of every row of ``X diag(w_c)`` for every task: ``(n_docs, n_tasks)``
    (``(n_docs, 1)`` without ``col_weights``), ``sqrt((X (.) X) (W (.) W)^T)``."""
    X = sp.csr_matrix(X, dtype=np.float64)
    sq = X.multiply(X).tocsr()
    if col_weights is None:
        return np.sqrt(np.asarray(sq.sum(axis=1)))
    W = np.atleast_2d(np.asarray(col_weights, dtype=np.float64))
    return np.sqrt(np.asarray(sq @ (W * W).T))


def unit_rows(X) -> sp.csr_matrix:
    """Rows of ``X`` divided by their Euclidean length (empty rows stay empty)."""
    X = sp.csr_matrix(X, dtype=np.float64)
    n = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    n[n == 0] = 1.0
    return sp.csr_matrix(sp.diags(1.0 / n) @ X)


def decisions(X, coef, intercept, col_weights=None, normalize: str = "none") -> np.ndarray:
    """Margins ``(n_docs, n_tasks)``: ``X coef^T / norms + intercept`` (norms: ``task_norms``
    under ``normalize="l2"``, else 1)."""
    X = sp.csr_matrix(X, dtype=np.float64)
    raw = np.asarray(X @ np.asarray(coef).T)
    if normalize == "l2":
        n = task_norms(X, col_weights)
        raw = raw / np.where(n > 0, n, 1.0)
    return raw + np.asarray(intercept)[None, :]


def top1(scores) -> sp.csr_matrix:
    """One-hot matrix of each row's highest score (ties: the first class)."""
    scores = np.asarray(scores)
    n = scores.shape[0]
    return sp.csr_matrix((np.ones(n, dtype=np.uint8), (np.arange(n), scores.argmax(axis=1))),
                         shape=scores.shape)


def is_single_label(Y) -> bool:
    """Every document has exactly one class."""
    return bool((np.asarray(sp.csr_matrix(Y).sum(axis=1)).ravel() == 1).all())


def macro_f1(Y_true, Y_pred) -> float:
    """Mean F1 over the classes with a true or a predicted document (scikit-learn's macro
    average over the labels present), ``F1 = 2 tp / (2 tp + fp + fn)``."""
    T = sp.csr_matrix(Y_true, dtype=np.int64)
    P = sp.csr_matrix(Y_pred, dtype=np.int64)
    tp = np.asarray(T.multiply(P).sum(axis=0)).ravel()
    t = np.asarray(T.sum(axis=0)).ravel()
    p = np.asarray(P.sum(axis=0)).ravel()
    present = (t + p) > 0
    if not present.any():
        return 0.0
    return float(np.mean(2 * tp[present] / (t[present] + p[present])))


def _binary(learner: str, value: float, max_iter: int, random_state: int = 0):
    if learner == "mnb":
        from sklearn.naive_bayes import MultinomialNB

        return MultinomialNB(alpha=value)
    return LEARNERS[learner](value, random_state, max_iter)


def fit(learner: str, X, Y, value: float, col_weights=None, protocol: Protocol = Protocol()):
    """One-vs-rest fit of ``learner`` with C (or alpha) ``value`` under ``protocol``'s
    normalisation: ``(coef, intercept, fitted, converged)``, as
    ``termweight.learners.linear.fit_learner`` plus a per-task flag ``converged`` (False where
    liblinear stopped at the cap; True for skipped tasks and naive Bayes)."""
    flags: list[bool] = []

    def fit_one(Xc, y):
        if protocol.normalize == "l2":
            Xc = unit_rows(Xc)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = _binary(learner, value, protocol.max_iter).fit(Xc, y)
        flags.append(not any(issubclass(w.category, ConvergenceWarning) for w in caught))
        for w in caught:
            if not issubclass(w.category, ConvergenceWarning):
                warnings.warn(w.message, w.category, stacklevel=2)
        return _linear_parts(model)

    coef, intercept, fitted = _fit_tasks(X, Y, fit_one, col_weights)
    converged = np.ones(fitted.size, dtype=bool)
    converged[np.flatnonzero(fitted)] = flags
    if not converged.all():
        warnings.warn(f"one-vs-rest {learner}: {int((~converged).sum())} of {int(fitted.sum())} "
                      f"fitted tasks stopped at max_iter={protocol.max_iter} (C or alpha "
                      f"{value:g})", ConvergenceWarning, stacklevel=2)
    return coef, intercept, fitted, converged


def inner_folds(Y, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``k`` seeded folds of the training rows, stratified by each row's first class."""
    from sklearn.model_selection import KFold, StratifiedKFold

    Y = sp.csr_matrix(Y)
    first = np.asarray(Y.argmax(axis=1)).ravel()
    counts = np.bincount(first)
    if counts[counts > 0].min() >= k:
        cv = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
        return list(cv.split(np.zeros(first.size), first))
    cv = KFold(n_splits=k, shuffle=True, random_state=seed)
    return list(cv.split(np.zeros(first.size)))


def cv_scores(learner: str, X, Y, col_weights=None, protocol: Protocol = Protocol()):
    """Inner cross-validated score of every grid value: ``(grid, scores, n_unconverged)``.

    The score is the mean over the folds of ``macro_f1`` of the top-1 predictions (single-label
    ``Y``) or of the per-category decisions ``> 0`` (multi-label)."""
    X = sp.csr_matrix(X, dtype=np.float64)
    Y = sp.csr_matrix(Y)
    single = is_single_label(Y)
    grid = protocol.grid(learner)
    folds = inner_folds(Y, protocol.inner_folds, protocol.seed)
    scores = np.zeros(len(grid))
    unconverged = 0
    for tr, va in folds:
        for i, value in enumerate(grid):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # counted below; one-class inner tasks skip
                coef, b, _, conv = fit(learner, X[tr], Y[tr], value, col_weights, protocol)
            unconverged += int((~conv).sum())
            s = decisions(X[va], coef, b, col_weights, protocol.normalize)
            pred = top1(s) if single else (s > 0).astype(np.uint8)
            scores[i] += macro_f1(Y[va], pred) / len(folds)
    return grid, scores, unconverged


def fit_tuned(learner: str, X, Y, col_weights=None, protocol: Protocol = Protocol()):
    """Choose C (alpha) by ``cv_scores`` on these (training) rows, refit on all of them:
    ``(coef, intercept, fitted, converged, value, inner_unconverged)``. Ties: the smaller
    value (stronger regularisation); a one-value grid is that value, without inner fits."""
    if len(protocol.grid(learner)) == 1:  # nothing to choose: no inner fits
        value, inner_unconverged = float(protocol.grid(learner)[0]), 0
    else:
        grid, scores, inner_unconverged = cv_scores(learner, X, Y, col_weights, protocol)
        value = float(grid[int(np.flatnonzero(scores == scores.max())[0])])
    coef, intercept, fitted, converged = fit(learner, X, Y, value, col_weights, protocol)
    return coef, intercept, fitted, converged, value, inner_unconverged
