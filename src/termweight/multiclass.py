"""Multi-class scoring from the class x presence joint table, and Mukras et al.'s PRP.

Source: Mukras, Wiratunga, Lothian, Chakraborti & Harper, "Information Gain Feature Selection for
Ordinal Text Classification using Probability Re-distribution" ([methods: ordinal][methods-ordinal]).

Probability model (document presence; the paper does not spell its estimator out): per term t,
with ``T = sum_c pos[c]`` (= N training docs for single-label data)::

    P(c, present) = tp[c, t] / T          P(c, absent) = (pos[c] - tp[c, t]) / T

Each term's table sums to 1. IG is the mutual information I(C; F) of that table (paper section 2,
citing Cover & Thomas). PRP (paper section 3) first revises the table with a row-normalised class
similarity ``S`` (eq. 1: ``S(ci, cj) = 1 - |i - j| / M``; ``sum_k S(ci, ck) = 1``) by eq. 2,
``P'(cj, f) = sum_k P(ck, f) S(ck, cj)``, and then scores ``P'`` with the same metric. Both the
"present" and the "absent" column are revised by default (the methods page; the paper only writes
``P(c, f_t)``); ``columns='present'`` revises only the "present" column.

Everything is vectorised over terms: tables are arrays of shape ``(n_terms, n_classes, 2)``.
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, _fit_context, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import MultinomialNB
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from termweight.statistics import TermStats, term_stats

__all__ = [
    "JOINT_METRICS",
    "SelectKBestJoint",
    "confusion_similarity",
    "cv_confusion_matrix",
    "exponential_similarity",
    "joint_chi2",
    "joint_metric",
    "joint_table",
    "linear_similarity",
    "mutual_information",
    "normalise_rows",
    "prp_score",
    "redistribute",
    "similarity_matrix",
    "stepwise_similarity",
]

JointMetric = Callable[[np.ndarray], np.ndarray]


# --------------------------------------------------------------------------- joint table
def joint_table(stats: TermStats) -> np.ndarray:
    """Joint table ``P[t, c, f]`` (f = 0 present, 1 absent) of every term; see module docstring.

    ``P[t, c, 0] = tp[c, t] / T``, ``P[t, c, 1] = (pos[c] - tp[c, t]) / T``, ``T = sum(pos)``.
    """
    tp = stats.tp.astype(np.float64)  # (M, n_terms)
    pos = stats.pos.astype(np.float64)  # (M,)
    total = pos.sum()
    if total <= 0:
        raise ValueError("no labelled training documents: cannot build the joint table")
    P = np.empty((stats.n_terms, stats.n_classes, 2), dtype=np.float64)
    P[:, :, 0] = tp.T / total
    P[:, :, 1] = (pos[:, None] - tp).T / total
    return P


def _margins(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Expected table under independence ``P(c) P(f)`` (same shape as P), and the mask P > 0."""
    pc = P.sum(axis=2)  # (T, M)
    pf = P.sum(axis=1)  # (T, 2)
    return pc[:, :, None] * pf[:, None, :], P > 0


# --------------------------------------------------------------------------- metrics
def mutual_information(P: np.ndarray, base: float = 2.0) -> np.ndarray:
    """Multi-class IG = I(C; F) = sum_{c,f} P(c,f) log(P(c,f) / (P(c) P(f))), per term.

    ``0 log 0 = 0``; log base 2 (bits) by default. Clipped at 0 against rounding. Shape (n_terms,).
    """
    P = np.asarray(P, dtype=np.float64)
    E, nz = _margins(P)
    ratio = np.ones_like(P)
    np.divide(P, E, out=ratio, where=nz & (E > 0))
    mi = (P * np.log(ratio)).sum(axis=(1, 2)) / np.log(base)
    return np.maximum(mi, 0.0)


def joint_chi2(P: np.ndarray) -> np.ndarray:
    """Multi-class chi-square per term, divided by N: ``sum_{c,f} (P - P(c)P(f))^2 / (P(c)P(f))``.

    Pearson's chi2 of the M x 2 count table is ``N * joint_chi2(P)`` (same ranking: N is shared by
    all terms). Cells with a zero margin contribute 0.
    """
    P = np.asarray(P, dtype=np.float64)
    E, _ = _margins(P)
    out = np.zeros_like(P)
    np.divide((P - E) ** 2, E, out=out, where=E > 0)
    return out.sum(axis=(1, 2))


JOINT_METRICS: dict[str, JointMetric] = {
    "ig": mutual_information,
    "mi": mutual_information,
    "chi2": joint_chi2,
}


def joint_metric(name: str | JointMetric) -> JointMetric:
    """The metric ``f(P) -> scores (n_terms,)`` called ``name`` ('ig'/'mi', 'chi2'), or ``name``
    itself when it is already a callable on joint tables."""
    if callable(name):
        return name
    try:
        return JOINT_METRICS[name]
    except KeyError:
        raise ValueError(
            f"unknown joint metric {name!r}; choose from {sorted(JOINT_METRICS)}") from None


# --------------------------------------------------------------------------- similarities
def _distance(n_classes: int) -> np.ndarray:
    i = np.arange(n_classes)
    return np.abs(i[:, None] - i[None, :]).astype(np.float64)


def normalise_rows(S) -> np.ndarray:
    """Row-normalise a non-negative similarity so that ``sum_k S(ci, ck) = 1`` (paper, after eq. 2).

    This keeps the mass of the joint table: ``sum_j P'(cj, f) = sum_k P(ck, f)``.
    """
    S = np.array(S, dtype=np.float64)
    if S.ndim != 2 or S.shape[0] != S.shape[1]:
        raise ValueError(f"similarity must be a square matrix, got shape {S.shape}")
    if not np.all(np.isfinite(S)) or np.any(S < 0):
        raise ValueError("similarity entries must be finite and >= 0")
    rs = S.sum(axis=1, keepdims=True)
    if np.any(rs <= 0):
        raise ValueError("every row of the similarity needs a positive sum")
    return S / rs


def linear_similarity(n_classes: int) -> np.ndarray:
    """Paper eq. 1, ``S(ci, cj) = 1 - |i - j| / M``, rows normalised to sum 1."""
    return normalise_rows(1.0 - _distance(n_classes) / n_classes)


def exponential_similarity(n_classes: int, scale: float = 1.0) -> np.ndarray:
    """``S(ci, cj) = exp(-|i - j| / scale)`` ([methods: ordinal][methods-ordinal]; paper's future work), rows
    normalised to sum 1."""
    return normalise_rows(np.exp(-_distance(n_classes) / scale))


def stepwise_similarity(n_classes: int, width: int = 1) -> np.ndarray:
    """``S(ci, cj) = 1 if |i - j| <= width else 0`` ([methods: ordinal][methods-ordinal]), rows normalised."""
    return normalise_rows((_distance(n_classes) <= width).astype(np.float64))


def confusion_similarity(confusion, symmetric: bool = True, smoothing: float = 0.0) -> np.ndarray:
    """Class similarity learned from a confusion matrix (paper section 5, future work).

    ``confusion[i, j]`` = #documents of true class i predicted as j (e.g. cross-validated
    predictions of a base classifier on the TRAINING rows, see
    [`cv_confusion_matrix`][termweight.multiclass.cv_confusion_matrix]).
    ``R[i, j] = (C[i, j] + smoothing) / sum_j (C[i, j] + smoothing)`` estimates P(pred j | true i):
    classes that are hard to separate get a high similarity. With ``symmetric`` (default)
    ``S = (R + R^T) / 2``; a class with no documents gets an identity row. Rows normalised to 1.
    """
    C = np.array(confusion, dtype=np.float64)
    if C.ndim != 2 or C.shape[0] != C.shape[1] or np.any(C < 0) or not np.all(np.isfinite(C)):
        raise ValueError("confusion must be a square matrix of finite, non-negative counts")
    C = C + smoothing
    rs = C.sum(axis=1, keepdims=True)
    eye = np.eye(C.shape[0])
    R = np.where(rs > 0, C / np.where(rs > 0, rs, 1.0), eye)
    if symmetric:
        R = 0.5 * (R + R.T)
    return normalise_rows(R)


def cv_confusion_matrix(X, y, n_classes: int, estimator=None, cv: int = 5,
                        random_state: int = 0) -> np.ndarray:
    """Confusion counts of ``cross_val_predict(estimator, X, y)`` over classes ``0..n_classes-1``.

    Call it with TRAINING rows only. Default estimator: MultinomialNB; folds: StratifiedKFold
    (shuffled, seeded by ``random_state``).
    """
    y = np.asarray(y)
    est = MultinomialNB() if estimator is None else clone(estimator)
    folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state)
    pred = cross_val_predict(est, X, y, cv=folds)
    return confusion_matrix(y, pred, labels=np.arange(n_classes))


_NAMED_SIMILARITIES: dict[str, Callable[[int], np.ndarray]] = {
    "linear": linear_similarity,
    "exponential": exponential_similarity,
    "stepwise": stepwise_similarity,
    "identity": lambda m: np.eye(m),
}


def similarity_matrix(similarity, n_classes: int) -> np.ndarray:
    """Row-normalised M x M similarity from a name ('linear', 'exponential', 'stepwise',
    'identity') or from a given non-negative matrix (normalised here)."""
    if isinstance(similarity, str):
        try:
            return _NAMED_SIMILARITIES[similarity](n_classes)
        except KeyError:
            raise ValueError(f"unknown similarity {similarity!r}; choose from "
                             f"{sorted(_NAMED_SIMILARITIES)} or pass a matrix") from None
    S = normalise_rows(similarity)
    if S.shape[0] != n_classes:
        raise ValueError(
            f"similarity is {S.shape[0]}x{S.shape[0]} but there are {n_classes} classes")
    return S


# --------------------------------------------------------------------------- PRP
def redistribute(P: np.ndarray, S: np.ndarray, columns: str = "both") -> np.ndarray:
    """PRP step 2 (paper eq. 2): ``P'[t, j, f] = sum_k P[t, k, f] S[k, j]``.

    ``S`` must already be row-normalised (see
    [`similarity_matrix`][termweight.multiclass.similarity_matrix]). ``columns='both'``
    revises the present and absent columns ([methods: ordinal][methods-ordinal]); ``'present'`` only
    the present one.
    """
    P = np.asarray(P, dtype=np.float64)
    S = np.asarray(S, dtype=np.float64)
    if columns not in ("both", "present"):
        raise ValueError("columns must be 'both' or 'present'")
    out = np.matmul(P.transpose(0, 2, 1), S).transpose(0, 2, 1)  # (T, M, 2), no loop per term
    if columns == "present":
        out[:, :, 1] = P[:, :, 1]
    return np.ascontiguousarray(out)


def prp_score(stats: TermStats, metric: str | JointMetric = "ig", similarity="linear",
              columns: str = "both") -> np.ndarray:
    """Score every term with ``metric`` on the PRP-revised joint table (paper section 3).

    ``similarity``: 'linear' (paper eq. 1), 'exponential', 'stepwise', 'identity', an M x M
    non-negative matrix (e.g. [`confusion_similarity`][termweight.multiclass.confusion_similarity]),
    or None for the plain metric.
    The identity similarity returns exactly the plain metric. Note: eqs. 1-2 favour terms of the
    edge classes (a term found in class 1 or M scores higher than one found only in a middle class
    with the same plain IG; see tests/test_multiclass.py).
    """
    P = joint_table(stats)
    if similarity is not None:
        P = redistribute(P, similarity_matrix(similarity, stats.n_classes), columns=columns)
    return joint_metric(metric)(P)


# --------------------------------------------------------------------------- transformer
def _indicator(Y, n_classes: int | None) -> tuple[sp.csr_matrix, np.ndarray | None]:
    """(indicator CSR, 1-d labels or None) from 1-d ordinal labels 0..M-1 or an indicator.

    1-d labels that are not non-negative integers (strings, negative or fractional numbers) are
    ranked: class ``i`` is the i-th smallest label (their sorted order is the ordinal order).
    """
    if sp.issparse(Y) or (np.ndim(Y) == 2 and np.shape(Y)[1] > 1):
        Yi = sp.csr_matrix(Y, dtype=np.float64)
        if n_classes is not None and Yi.shape[1] != n_classes:
            raise ValueError(f"Y has {Yi.shape[1]} columns but n_classes={n_classes}")
        counts = np.asarray(Yi.sum(axis=1)).ravel()
        labels = np.asarray(Yi.argmax(axis=1)).ravel() if np.all(counts == 1) else None
        return Yi, labels
    y = np.asarray(Y).ravel()
    check_classification_targets(y)
    if y.dtype.kind not in "biuf" or (y.size and (np.any(np.mod(y, 1) != 0) or y.min() < 0)):
        if n_classes is not None:
            raise ValueError(f"with n_classes={n_classes}, 1-d Y must hold ordinal class indices "
                             f"0..{n_classes - 1}")
        y = np.unique(y, return_inverse=True)[1]
    y = y.astype(np.int64)
    m = int(y.max()) + 1 if n_classes is None else int(n_classes)
    if y.size and (y.min() < 0 or y.max() >= m):
        raise ValueError(f"class indices must lie in 0..{m - 1}")
    Yi = sp.csr_matrix((np.ones(y.size), (np.arange(y.size), y)), shape=(y.size, m))
    return Yi, y


class SelectKBestJoint(SelectorMixin, BaseEstimator):
    """Keep the ``k`` terms with the highest joint-table score, optionally after PRP.

    The score of a term is ``metric`` of its class x presence joint table (module docstring),
    after the probability redistribution of Mukras et al. when ``prp`` is given
    ([methods: ordinal][methods-ordinal]). ``fit(X, Y)`` uses only the rows it is given: Y is a
    1-d vector of ordinal class indices 0..M-1 (other labels: their sorted order), or a docs x
    classes indicator. Ties are broken by the lower column index.

    Parameters
    ----------
    k : int or "all", default=10
        Number of terms to keep (more than the features keeps all).
    metric : {"ig", "mi", "chi2"} or callable, default="ig"
        Joint metric ([`JOINT_METRICS`][termweight.multiclass.JOINT_METRICS]) or a callable on
        joint tables ``(n_terms, M, 2) -> (n_terms,)``.
    prp : {"linear", "exponential", "stepwise", "identity", "confusion"}, array-like or None, default=None
        Class similarity of the redistribution: a name, an M x M matrix, or ``'confusion'``
        (from cross-validated confusion counts of ``confusion_estimator`` on the TRAINING rows,
        [`confusion_similarity`][termweight.multiclass.confusion_similarity]); None: no PRP.
    columns : {"both", "present"}, default="both"
        Which columns are redistributed ([`redistribute`][termweight.multiclass.redistribute]).
    n_classes : int or None, default=None
        Number of ordinal classes M (None: max label + 1).
    confusion_estimator : estimator or None, default=None
        Base classifier of ``prp='confusion'`` (None: MultinomialNB).
    cv : int, default=5
        Folds of ``prp='confusion'``.
    random_state : int, RandomState instance or None, default=0
        Seed of those folds.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        The score of every term.
    similarity_ : ndarray of shape (M, M) or None
        The row-normalised similarity used (None without PRP).
    stats_ : TermStats
        The training statistics.

    References
    ----------
    Mukras, Wiratunga, Lothian, Chakraborti & Harper (2007), "Information Gain Feature Selection
    for Ordinal Text Classification using Probability Re-distribution".

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.multiclass import SelectKBestJoint
    >>> X = np.array([[1, 0, 1], [1, 0, 0], [0, 1, 1], [0, 1, 0], [0, 1, 1]])
    >>> y = np.array([0, 0, 1, 2, 2])
    >>> SelectKBestJoint(k=1, prp="linear").fit(X, y).get_support()
    array([ True, False, False])
    """

    _parameter_constraints = {
        "k": [Interval(Integral, 0, None, closed="left"), StrOptions({"all"})],
        "metric": [StrOptions(set(JOINT_METRICS)), callable],
        "prp": [None, StrOptions({"linear", "exponential", "stepwise", "identity", "confusion"}),
                "array-like"],
        "columns": [StrOptions({"both", "present"})],
        "n_classes": [Interval(Integral, 1, None, closed="left"), None],
        "confusion_estimator": [HasMethods(["fit", "predict"]), None],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, k=10, metric="ig", prp=None, columns="both", n_classes=None,
                 confusion_estimator=None, cv=5, random_state=0):
        self.k = k
        self.metric = metric
        self.prp = prp
        self.columns = columns
        self.n_classes = n_classes
        self.confusion_estimator = confusion_estimator
        self.cv = cv
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, Y):
        X, Y = validate_data(self, X, Y, accept_sparse="csr", dtype="numeric", multi_output=True)
        Yi, labels = _indicator(Y, self.n_classes)
        stats = term_stats(X, Yi)
        sim = self.prp
        if isinstance(sim, str) and sim == "confusion":
            if labels is None:
                raise ValueError("prp='confusion' needs single-label Y")
            C = cv_confusion_matrix(X, labels, stats.n_classes, self.confusion_estimator,
                                    cv=self.cv, random_state=self.random_state)
            sim = confusion_similarity(C)
        self.similarity_ = None if sim is None else similarity_matrix(sim, stats.n_classes)
        self.scores_ = prp_score(stats, self.metric, self.similarity_, columns=self.columns)
        self.stats_ = stats
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "scores_")
        n = self.scores_.size
        k = n if self.k == "all" else min(int(self.k), n)
        mask = np.zeros(n, dtype=bool)
        mask[np.argsort(-self.scores_, kind="stable")[:k]] = True
        return mask

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        return tags
