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
  decisions ``> 0``. Each inner fold is encoded from its own inner-training rows (idf, BM25's
  mean length, a supervised weighting's scores, mix-ch's fitted combination): no statistic of a
  fold's model sees its validation rows (``fold_encoder``).
- **Convergence**: every final fit's liblinear convergence is recorded per task. liblinear stops
  when its dual projected gradient falls below ``tol``; scikit-learn's default is 1e-4, the
  LIBLINEAR authors' for these dual solvers 0.1 (Fan et al. 2008, the ``-e`` option). The
  protocol's 1e-2 (``benchmark.tuning.tol``) cuts a LinearSVC fit at C = 100 about 18-fold
  (pang_lee_4class, tf-idf) and moves its decisions by at most 2e-3, leaving every top-1
  prediction as it was (docs/benchmark.md).

Each fold's unit-length rows are built once per task and every grid value is fitted on them; a
learner's ``extension`` (values above its grid) is tried one value at a time while the top value
tried scores best (``cv_scores``), so the grid reaches the optimum where it lies above the grid and
costs nothing where it does not. Naive Bayes needs no
fit per value: its class-conditional term totals are one sparse product per fold for all tasks,
and each alpha is a closed-form smoothing of them.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from termweight.encoding import scale_columns
from termweight.learners.linear import LEARNERS, _fit_tasks, _linear_parts

#: the grid values of each learner's regularisation parameter (at least 5 over 4 decades)
DEFAULT_C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)
DEFAULT_ALPHA_GRID = (0.0001, 0.001, 0.01, 0.1, 1.0)
#: liblinear's iteration cap in the tuned protocol (dual coordinate descent on unit-length rows)
DEFAULT_MAX_ITER = 10000
#: liblinear's stopping tolerance in the tuned protocol (scikit-learn's default 1e-4; LIBLINEAR's
#: own default for its dual solvers 0.1)
DEFAULT_TOL = 1e-2
#: logistic regression's C above which liblinear's primal trust-region Newton solver fits it
#: (LIBLINEAR's -s 0, whose default tolerance is also 0.01) instead of its dual coordinate descent
#: (-s 7), which slows with C: on 20 Newsgroups (tf-f1, 4 tasks, tol 0.01) the dual took 2.3 /
#: 23.4 / 102.6 s at C = 100 / 1e3 / 1e4 and stopped at the 10,000-pass cap on 3 of 4 tasks at
#: 1e4; the primal 7.4 / 8.5 / 8.0 s in 11-13 Newton steps. The primal solver calls BLAS, whose
#: kernels round differently: its coefficients' bits differed between 4 of 6 OpenBLAS kernels
#: (OPENBLAS_CORETYPE), its test predictions did not (docs/benchmark.md)
PRIMAL_ABOVE = 100.0
#: the keys of params.yaml's ``benchmark.tuning`` (``Protocol.from_params``)
TUNING_KEYS = frozenset({"normalize", "C", "extend", "alpha", "folds", "max_iter", "tol"})


@dataclass(frozen=True)
class Protocol:
    """How the benchmark fits: ``normalize`` ("l2" or "none"), the grids, inner folds, cap,
    tolerance. ``learner_grids``: ``((learner, values), ...)``, a learner's own grid in place
    of ``C_grid`` (``alpha_grid`` for ``mnb``)."""

    normalize: str = "l2"
    C_grid: tuple[float, ...] = DEFAULT_C_GRID
    alpha_grid: tuple[float, ...] = DEFAULT_ALPHA_GRID
    inner_folds: int = 3
    max_iter: int = DEFAULT_MAX_ITER
    seed: int = 0
    tol: float = DEFAULT_TOL
    learner_grids: tuple[tuple[str, tuple[float, ...]], ...] = ()
    learner_extend: tuple[tuple[str, tuple[float, ...]], ...] = ()

    def grid(self, learner: str) -> tuple[float, ...]:
        """The values always tried for ``learner``, ascending: its own grid, else alpha for
        ``mnb`` and C otherwise."""
        own = dict(self.learner_grids).get(learner)
        if own is not None:
            return tuple(sorted(own))
        return tuple(sorted(self.alpha_grid if learner == "mnb" else self.C_grid))

    def extension(self, learner: str) -> tuple[float, ...]:
        """Values above the grid, ascending, each tried only while the last value tried scores
        best so far (strictly): the grid grows where its top is still the optimum."""
        top = max(self.grid(learner))
        return tuple(v for v in sorted(dict(self.learner_extend).get(learner, ())) if v > top)

    def values(self, learner: str) -> tuple[float, ...]:
        """Every value ``learner`` may be tuned to: the grid, then its extension."""
        return self.grid(learner) + self.extension(learner)

    @classmethod
    def from_params(cls, section: dict | None, seed: int = 0) -> Protocol | None:
        """The ``benchmark.tuning`` section of params.yaml (None: the fixed-C protocol). Its
        ``C`` is one grid for both linear learners or a mapping ``{learner: grid}``; ``extend``
        maps a learner to the values tried above its grid while its top keeps winning."""
        if not section:
            return None
        unknown = sorted(set(section) - TUNING_KEYS)
        if unknown:
            from termweight.runner.errors import ConfigError

            raise ConfigError(f"benchmark.tuning: unknown key(s) {', '.join(map(str, unknown))}; "
                              f"known: {', '.join(sorted(TUNING_KEYS))}")
        learners = set(LEARNERS)
        for key in ("C", "extend"):
            v = section.get(key)
            bad = sorted(set(v) - learners) if isinstance(v, dict) else []
            if bad:
                from termweight.runner.errors import ConfigError

                raise ConfigError(f"benchmark.tuning.{key}: unknown learner(s) {', '.join(bad)}; "
                                  f"known: {', '.join(sorted(learners))}")
        C = section.get("C", DEFAULT_C_GRID)
        own = tuple((k, tuple(map(float, v))) for k, v in C.items()) if isinstance(C, dict) else ()
        ext = tuple((k, tuple(map(float, v))) for k, v in (section.get("extend") or {}).items())
        return cls(normalize=section.get("normalize", "l2"),
                   C_grid=DEFAULT_C_GRID if own else tuple(map(float, C)),
                   alpha_grid=tuple(map(float, section.get("alpha", DEFAULT_ALPHA_GRID))),
                   inner_folds=int(section.get("folds", 3)),
                   max_iter=int(section.get("max_iter", DEFAULT_MAX_ITER)), seed=seed,
                   tol=float(section.get("tol", DEFAULT_TOL)), learner_grids=own,
                   learner_extend=ext)


def task_norms(X, col_weights=None) -> np.ndarray:
    """Euclidean length of every row of ``X diag(w_c)`` for every task: ``(n_docs, n_tasks)``
    (``(n_docs, 1)`` without ``col_weights``), ``sqrt((X (.) X) (W (.) W)^T)``."""
    X = sp.csr_matrix(X, dtype=np.float64)
    sq = X.multiply(X).tocsr()
    if col_weights is None:
        return np.sqrt(np.asarray(sq.sum(axis=1)))
    W = np.atleast_2d(np.asarray(col_weights, dtype=np.float64))
    return np.sqrt(np.asarray(sq @ (W * W).T))


def task_rows(X, w=None, normalize: str = "l2") -> sp.csr_matrix:
    """Task ``c``'s training matrix ``X diag(w_c)``, each row divided by its Euclidean length
    under ``normalize="l2"`` (scikit-learn's ``normalize``; empty rows stay empty)."""
    from sklearn.preprocessing import normalize as unit_length

    X = sp.csr_matrix(X, dtype=np.float64)
    Xc = X if w is None else scale_columns(X, w)
    if normalize == "l2":
        return unit_length(Xc, norm="l2", copy=Xc is X)
    return Xc


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


def f1_from_counts(tp, fp, fn) -> tuple[float, float]:
    """``(macro, micro)`` F1 from per-class counts, ``F1 = 2 tp / (2 tp + fp + fn)``: the macro
    mean over the classes with a true or a predicted document (scikit-learn's ``f1_score`` over
    the labels present), the micro F1 of the summed counts (0 without any)."""
    tp, fp, fn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn))
    present = (tp + fp + fn) > 0
    macro = float(np.mean(2 * tp[present] / (2 * tp[present] + fp[present] + fn[present]))
                  if present.any() else 0.0)
    return macro, float(2 * tp.sum() / max(2 * tp.sum() + fp.sum() + fn.sum(), 1.0))


def macro_f1(Y_true, Y_pred) -> float:
    """Macro-F1 of 0/1 matrices ``(n_docs, n_classes)`` (``f1_from_counts``)."""
    T = sp.csr_matrix(Y_true, dtype=np.int64)
    P = sp.csr_matrix(Y_pred, dtype=np.int64)
    tp = np.asarray(T.multiply(P).sum(axis=0)).ravel()
    t = np.asarray(T.sum(axis=0)).ravel()
    p = np.asarray(P.sum(axis=0)).ravel()
    return f1_from_counts(tp, p - tp, t - tp)[0]


def _fit_binary(learner: str, value: float, X, y, max_iter: int, tol: float = DEFAULT_TOL):
    """``(beta, b, converged)`` of one binary liblinear model with C ``value``: logistic
    regression above ``PRIMAL_ABOVE`` by liblinear's primal trust-region Newton solver, else (and
    LinearSVC always) by its dual coordinate descent."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = LEARNERS[learner](value, 0, max_iter).set_params(tol=tol)
        if learner == "logreg" and value > PRIMAL_ABOVE:
            model.set_params(dual=False)
        model.fit(X, y)
    for w in caught:
        if not issubclass(w.category, ConvergenceWarning):
            warnings.warn(w.message, w.category, stacklevel=3)
    beta, b = _linear_parts(model)
    return beta, b, not any(issubclass(w.category, ConvergenceWarning) for w in caught)


def _labels(Y) -> np.ndarray:
    """``Y`` as a dense boolean ``(n_docs, n_tasks)`` array."""
    return sp.csr_matrix(Y).toarray() > 0


def _fittable(y) -> bool:
    """A task is fitted when its training rows hold a positive and a negative."""
    return bool(y.any() and not y.all())


def _inverse_norms(X, col_weights, normalize: str) -> np.ndarray:
    """``1 / task_norms`` (0 for an empty row), or ones ``(n_docs, 1)`` without normalisation."""
    if normalize != "l2":
        return np.ones((X.shape[0], 1))
    n = task_norms(X, col_weights)
    return np.divide(1.0, n, out=np.zeros_like(n), where=n > 0)


def _nb_totals(X, L, col_weights, normalize: str):
    """Class-conditional term totals of every task's unit rows: ``(pos, neg)``, each
    ``(n_tasks, n_terms)``; ``pos_c = w_c (.) sum_{i: y_ic} x_i / ||x_i (.) w_c||``."""
    X = sp.csr_matrix(X, dtype=np.float64)
    if X.nnz and X.data.min() < 0 or col_weights is not None and np.min(col_weights) < 0:
        raise ValueError("Negative values in data passed to MultinomialNB (input X)")
    R = _inverse_norms(X, col_weights, normalize)
    R = np.broadcast_to(R, L.shape)
    pos = np.asarray((X.T @ (R * L)).T)
    neg = np.asarray((X.T @ (R * ~L)).T)
    if col_weights is not None:
        W = np.atleast_2d(np.asarray(col_weights, dtype=np.float64))
        pos, neg = pos * W, neg * W
    return pos, neg


def _nb_model(pos, neg, n_pos, n_neg, alpha: float):
    """Binary multinomial NB per task as ``(coef, intercept)``: ``coef = log theta_pos - log
    theta_neg`` with ``theta = (F + alpha) / sum(F + alpha)`` and ``intercept = log n_pos -
    log n_neg`` (scikit-learn's MultinomialNB, fit_prior=True)."""
    sp_, sn = pos + alpha, neg + alpha
    coef = (np.log(sp_) - np.log(sp_.sum(axis=1, keepdims=True))
            - (np.log(sn) - np.log(sn.sum(axis=1, keepdims=True))))
    return coef, np.log(n_pos) - np.log(n_neg)


def _nb_fit(X, L, values, col_weights, normalize: str):
    """For each alpha in ``values``: ``(coef, intercept)`` with the coefficients on the RAW
    columns (``w_c * beta_c``, as every stored model), unfitted tasks ``(0, -1)``."""
    pos, neg = _nb_totals(X, L, col_weights, normalize)
    n_pos = L.sum(axis=0).astype(np.float64)
    n_neg = L.shape[0] - n_pos
    ok = (n_pos > 0) & (n_neg > 0)
    out = []
    for alpha in values:
        coef = np.zeros(pos.shape)
        intercept = np.full(pos.shape[0], -1.0)
        if ok.any():
            c, b = _nb_model(pos[ok], neg[ok], n_pos[ok], n_neg[ok], alpha)
            if col_weights is not None:
                c = c * np.atleast_2d(np.asarray(col_weights, dtype=np.float64))[ok]
            coef[ok], intercept[ok] = c, b
        out.append((coef, intercept))
    return out, ok


def _decide(X, coef, intercept, R) -> np.ndarray:
    """Margins from raw-column coefficients and the rows' inverse task norms ``R``."""
    return np.asarray(X @ coef.T) * R + intercept[None, :]


def fit(learner: str, X, Y, value: float, col_weights=None, protocol: Protocol = Protocol()):
    """One-vs-rest fit of ``learner`` with C (or alpha) ``value`` under ``protocol``'s
    normalisation: ``(coef, intercept, fitted, converged)``, as
    ``termweight.learners.linear.fit_learner`` (coefficients on the raw columns, ``w_c *
    beta_c``; tasks without a training positive or negative skipped with intercept -1) plus a
    per-task flag ``converged`` (False where liblinear stopped at the cap; True for skipped tasks
    and naive Bayes)."""
    if learner == "mnb":
        L = _labels(Y)
        [(coef, intercept)], fitted = _nb_fit(sp.csr_matrix(X, dtype=np.float64), L, [value],
                                              col_weights, protocol.normalize)
        return coef, intercept, fitted, np.ones(L.shape[1], dtype=bool)
    flags: list[bool] = []

    def fit_one(Xc, y):  # Xc: X diag(w_c), made unit-length here
        beta, b, ok = _fit_binary(learner, value, task_rows(Xc, None, protocol.normalize), y,
                                  protocol.max_iter, protocol.tol)
        flags.append(ok)
        return beta, b

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


def _fold_decisions(learner: str, L, protocol: Protocol, grid, folds, fold_rows):
    """Validation margins ``D[f][i]`` ``(len(va), n_tasks)`` of every fold ``f`` and grid value
    ``i``, and the number of inner fits stopped at the cap. ``fold_rows(tr, va)`` gives the
    fold's ``(X_tr, X_va, col_weights)``; each task's unit rows are built per fold from them. A
    task without a positive or a negative in a fold's training part decides -1 there."""
    n_tasks = L.shape[1]
    D = [[np.full((va.size, n_tasks), -1.0) for _ in grid] for _, va in folds]
    unconverged = 0
    for f, (tr, va) in enumerate(folds):
        Xtr, Xva, W = fold_rows(tr, va)
        if learner == "mnb":
            models, _ = _nb_fit(Xtr, L[tr], grid, W, protocol.normalize)
            R = np.broadcast_to(_inverse_norms(Xva, W, protocol.normalize), (va.size, n_tasks))
            for i, (coef, intercept) in enumerate(models):
                D[f][i] = _decide(Xva, coef, intercept, R)
            continue
        if W is None:
            shared = (task_rows(Xtr, None, protocol.normalize),
                      task_rows(Xva, None, protocol.normalize))
        for c in range(n_tasks):
            y = L[tr, c]
            if not _fittable(y):
                continue
            A, V = shared if W is None else (task_rows(Xtr, W[c], protocol.normalize),
                                             task_rows(Xva, W[c], protocol.normalize))
            for i, value in enumerate(grid):
                beta, b, ok = _fit_binary(learner, value, A, y, protocol.max_iter, protocol.tol)
                unconverged += not ok
                D[f][i][:, c] = V @ beta + b
    return D, unconverged


def _fixed_rows(X, col_weights):
    """``fold_rows`` that slices one encoded matrix and reuses one set of column weights: right
    only when neither depends on which rows are the training rows."""
    X = sp.csr_matrix(X, dtype=np.float64)
    W = None if col_weights is None else np.atleast_2d(np.asarray(col_weights, np.float64))
    return lambda tr, va: (X[tr], X[va], W)


class FoldLeakageWarning(UserWarning):
    """Inner folds scored with column weights computed on rows that include their validation
    rows (``fit_tuned`` with ``col_weights`` and no ``fold_encoder``)."""


def cv_scores(learner: str, X, Y, col_weights=None, protocol: Protocol = Protocol(),
              fold_encoder=None):
    """Inner cross-validated score of every grid value: ``(grid, scores, n_unconverged)``.

    The score is the mean over the folds of ``macro_f1`` of the top-1 predictions (single-label
    ``Y``) or of the per-category decisions ``> 0`` (multi-label). ``fold_encoder(tr, va)``:
    the inner fold's ``(X_tr, X_va, col_weights)`` with every statistic of the encoding (idf,
    supervised scores, learned weights) computed from the rows ``tr`` only
    (``termweight.steps.features.fold_encoder``); without it the folds slice ``X`` and reuse
    ``col_weights``, which leaks the validation labels into a supervised weighting."""
    L = _labels(Y)
    single = is_single_label(L)
    folds = inner_folds(Y, protocol.inner_folds, protocol.seed)
    if fold_encoder is None:
        if col_weights is not None:
            warnings.warn("inner folds reuse col_weights computed on all the training rows, "
                          "their validation rows included: pass fold_encoder", FoldLeakageWarning,
                          stacklevel=2)
        fold_encoder = _fixed_rows(X, col_weights)
    encoded = {}  # each fold encoded once, also when the grid is extended

    def rows(tr, va):
        key = (tr.tobytes(), va.tobytes())
        if key not in encoded:
            encoded[key] = fold_encoder(tr, va)
        return encoded[key]

    def score(values) -> tuple[list[float], int]:
        D, unconverged = _fold_decisions(learner, L, protocol, values, folds, rows)
        out = np.zeros(len(values))
        for f, (_, va) in enumerate(folds):
            for i in range(len(values)):
                pred = top1(D[f][i]) if single else (D[f][i] > 0).astype(np.uint8)
                out[i] += macro_f1(L[va], pred) / len(folds)
        return list(out), unconverged

    grid = list(protocol.grid(learner))
    scores, unconverged = score(grid)
    # every fit is independent of the others (no warm start): a value tried in a later round
    # gets the numbers it would get in the first
    for value in protocol.extension(learner):
        if len(scores) > 1 and scores[-1] <= max(scores[:-1]):
            break
        more, n = score([value])
        grid.append(value)
        scores += more
        unconverged += n
    return tuple(grid), np.asarray(scores), unconverged


def fit_tuned(learner: str, X, Y, col_weights=None, protocol: Protocol = Protocol(),
              fold_encoder=None):
    """Choose C (alpha) by ``cv_scores`` on these (training) rows, refit on all of them:
    ``(coef, intercept, fitted, converged, value, inner_unconverged)``. Ties: the smaller
    value (stronger regularisation); a one-value grid is that value, without inner fits.
    ``fold_encoder``: as ``cv_scores`` (the inner folds' own encodings)."""
    if len(protocol.values(learner)) == 1:  # nothing to choose: no inner fits
        value, inner_unconverged = float(protocol.grid(learner)[0]), 0
    else:
        grid, scores, inner_unconverged = cv_scores(learner, X, Y, col_weights, protocol,
                                                     fold_encoder)
        value = float(grid[int(np.flatnonzero(scores == scores.max())[0])])
    coef, intercept, fitted, converged = fit(learner, X, Y, value, col_weights, protocol)
    return coef, intercept, fitted, converged, value, inner_unconverged
