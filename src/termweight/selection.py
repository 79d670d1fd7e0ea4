"""Feature selection and reduction ([methods: selection][methods-selection]; Ferreira & Figueiredo,
sections 3, 4.2).

Every class is a scikit-learn transformer fitted on the TRAINING rows only; ``X`` is documents x
features (CSR/CSC or dense), so a "feature" is a column (the paper's TD matrix is its transpose).

- [`L0Unsupervised`][termweight.selection.L0Unsupervised] -- Method 1: ``l0(i)`` = nonzeros of
  feature i; drop ``l0 = 0`` and ``l0 = N``; keep the m largest ``l0``.
- [`L0Supervised`][termweight.selection.L0Supervised] -- Method 2: drop as above; rank by eq.
  (3)/(6) (``variant='diff'``) or the negative entropy of eq. (4)/(5) (``variant='entropy'``);
  keep the m largest.
- [`FisherRatio`][termweight.selection.FisherRatio] -- eq. (7) ``|mu- - mu+| / sqrt(var- +
  var+)`` (0 where both var are 0); K > 2 classes: the Fisher score
  ``sum_k n_k (mu_k - mu)^2 / sum_k n_k var_k``.
- [`AchlioptasProjection`][termweight.selection.AchlioptasProjection] -- eq. (8) ``y = A x``,
  Achlioptas' {1/6, 2/3, 1/6} distribution; sparse input gives sparse output.
- [`MIM`][termweight.selection.MIM], [`CMIM`][termweight.selection.CMIM] -- (conditional) mutual
  information on presence (TDI), Fleuret 2004.
- [`SelectByScore`][termweight.selection.SelectByScore] -- top-k by a precomputed score vector, a
  callable, or a metric name of [`METRICS`][termweight.scoring.METRICS] (one-vs-rest scores
  combined by ``max`` or prior-weighted ``avg``).

Ties (all selectors): higher score first, then LOWER feature index (a stable sort of ``-score``).
Information-theoretic scores are rounded to ``INFO_DECIMALS`` (1e-10 nats) before ranking, so that
mathematically equal values whose floating-point sums differ in the last bit tie exactly.
``selected_`` holds the kept features in rank (pick) order; ``get_support`` / ``transform`` keep
the original column order (sklearn's ``SelectorMixin``).
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from termweight import scoring
from termweight.scoring import METRICS

__all__ = [
    "CMIM",
    "INFO_DECIMALS",
    "METRICS",
    "MIM",
    "AchlioptasProjection",
    "FisherRatio",
    "L0Supervised",
    "L0Unsupervised",
    "SelectByScore",
    "cmi_pairs",
    "mutual_information",
    "top_k",
]

INFO_DECIMALS = 10
"""Decimals (nats) to which MI / CMI / entropy scores are rounded before ranking."""

# METRICS is termweight.scoring.METRICS itself (one registry): SelectByScore resolves names there.


# --------------------------------------------------------------------------------------------
# helpers


def top_k(scores, k: int, eligible=None) -> np.ndarray:
    """Indices of the ``k`` best features: higher score first, ties by lower index.

    ``eligible`` (bool mask) restricts the candidates; fewer than ``k`` may be returned. NaN scores
    rank last.
    """
    scores = np.asarray(scores, dtype=np.float64)
    scores = np.where(np.isnan(scores), -np.inf, scores)
    idx = np.arange(scores.size) if eligible is None else np.flatnonzero(eligible)
    order = np.argsort(-scores[idx], kind="stable")
    return idx[order[: max(int(k), 0)]]


def _canon(values) -> np.ndarray:
    """Round information values to ``INFO_DECIMALS`` and map -0.0 to 0.0."""
    return np.round(values, INFO_DECIMALS) + 0.0


def _xlogx_table(n: int) -> np.ndarray:
    """``T[k] = k ln k`` for k = 0..n (``0 ln 0 = 0``): exact per integer, so equal count tables
    give bitwise equal terms."""
    k = np.arange(n + 1, dtype=np.float64)
    return k * np.log(np.maximum(k, 1.0))


def _presence(X) -> sp.csc_array:
    """Binary presence (TDI) of a documents x features matrix as int64 CSC (``X != 0``)."""
    if sp.issparse(X):
        B = sp.csc_array(X, copy=True)
        B.data = (B.data != 0).astype(np.int64)
        B.eliminate_zeros()
        return B
    return sp.csc_array((np.asarray(X) != 0).astype(np.int64))


def _encode(y):
    """(classes, class index per row, one-hot int64 (n, K))."""
    check_classification_targets(y)
    classes, yi = np.unique(y, return_inverse=True)
    onehot = np.zeros((yi.size, classes.size), dtype=np.int64)
    onehot[np.arange(yi.size), yi] = 1
    return classes, yi, onehot


def _class_l0(B, onehot) -> np.ndarray:
    """``l0(i, k)``: training documents of class k in which feature i occurs, (p, K) int64."""
    return np.asarray(B.T @ onehot, dtype=np.int64)


def mutual_information(X, y) -> np.ndarray:
    """``I(Y; X_i)`` in nats for every feature's presence ``X_i = [x_i != 0]``, vectorised.

    From the class-conditional counts ``n_ac`` (a = presence, c = class)::

        N I = sum_ac n_ac ln n_ac - sum_a n_a ln n_a - sum_c n_c ln n_c + N ln N

    Equals ``sklearn.metrics.mutual_info_score(y, x_i != 0)`` (natural log); divide by ``ln 2``
    for bits (the ranking is the same). Rounded to ``INFO_DECIMALS``.
    """
    B = _presence(X)
    _, _, onehot = _encode(y)
    return _mi_from_counts(_class_l0(B, onehot), onehot.sum(axis=0), B.shape[0])


def _mi_from_counts(l0c, nc, n, T=None) -> np.ndarray:
    T = _xlogx_table(n) if T is None else T
    n0c = nc[None, :] - l0c
    l0 = l0c.sum(axis=1)
    nI = (T[l0c].sum(axis=1) + T[n0c].sum(axis=1) - T[l0] - T[n - l0]
          - T[nc].sum() + T[n])
    return _canon(nI / n)


def _cmi_from_counts(A, lic, ljc, nc, n, T) -> np.ndarray:
    """``I(Y; X_i | X_j)`` (nats) per row from ``A[., c] = #(x_i = 1, x_j = 1, y = c)``.

    With ``n_abc = #(X_i = a, X_j = b, Y = c)`` (all four follow from A, l0(i, c), l0(j, c), n_c)::

        N I = sum_abc T(n_abc) - sum_ab T(n_ab) - sum_bc T(n_bc) + sum_b T(n_b),  T(k) = k ln k
    """
    n10c = lic - A
    n01c = ljc - A
    n00c = nc - lic - ljc + A
    n11 = A.sum(axis=1)
    li = lic.sum(axis=1)
    lj = ljc.sum(axis=-1)
    nI = ((T[A] + T[n10c] + T[n01c] + T[n00c]).sum(axis=1)
          - (T[n11] + T[li - n11] + T[lj - n11] + T[n - li - lj + n11])
          - (T[ljc] + T[nc - ljc]).sum(axis=-1) + T[lj] + T[n - lj])
    return _canon(nI / n)


def cmi_pairs(X, y, i, j) -> np.ndarray:
    """``I(Y; X_i | X_j)`` in nats for paired index arrays ``i``, ``j`` (presence of columns)."""
    B = _presence(X)
    _, _, onehot = _encode(y)
    return _cmi_pairs(B, onehot, _class_l0(B, onehot), np.asarray(i), np.asarray(j),
                      _xlogx_table(B.shape[0]))


def _cmi_pairs(B, onehot, l0c, i, j, T) -> np.ndarray:
    both = B[:, i].multiply(B[:, j])  # (n, P) joint presence
    A = np.asarray(both.T @ onehot, dtype=np.int64)  # (P, K)
    return _cmi_from_counts(A, l0c[i], l0c[j], onehot.sum(axis=0), B.shape[0], T)


# --------------------------------------------------------------------------------------------
# selectors


class _TopSelector(SelectorMixin, BaseEstimator):
    """Shared fit/transform: subclasses define ``_score(X, y)`` -> (scores, eligible mask)."""

    _parameter_constraints: dict = {"m": [Interval(Integral, 1, None, closed="left")]}
    _supervised = True

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        if self._supervised:
            X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"), dtype="numeric")
        else:
            X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype="numeric")
        return self._fit_scores(X, y)

    def _fit_scores(self, X, y):
        """Score the validated ``X``; keep the best: ``scores_``, ``selected_``, ``support_``."""
        scores, eligible = self._score(X, y)
        self.scores_ = scores
        self.selected_ = self._select(scores, eligible)
        mask = np.zeros(X.shape[1], dtype=bool)
        mask[self.selected_] = True
        self.support_ = mask
        return self

    def _select(self, scores, eligible):
        return top_k(scores, self.m, eligible)

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = self._supervised
        return tags


class L0Unsupervised(_TopSelector):
    """Ferreira & Figueiredo Method 1 (section 3.1), unsupervised.

    ``l0(i)`` = number of training documents with ``x_i != 0`` (same for TD and TDI); features with
    ``l0 = 0`` or ``l0 = N`` are removed; of the rest the ``m`` largest ``l0`` are kept (all of
    them when at most ``m`` remain). ``y`` is ignored. See [methods: selection][methods-selection].

    Parameters
    ----------
    m : int, default=1000
        Number of features to keep.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        ``l0`` of every feature.
    selected_ : ndarray of int
        Kept features, best first (ties: lower index).
    support_ : ndarray of bool, shape (n_features,)
        Mask of the kept features.

    References
    ----------
    Ferreira & Figueiredo (2010), "Feature transformation and reduction for text
    classification", PRIS 2010 (with ICEIS 2010), SciTePress, pp. 72-81.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.selection import L0Unsupervised
    >>> X = np.array([[1, 0, 2, 1], [0, 0, 1, 1], [3, 0, 1, 1]])
    >>> L0Unsupervised(m=1).fit(X).selected_
    array([0])
    """

    _supervised = False

    def __init__(self, m=1000):
        self.m = m

    def _score(self, X, y):
        l0 = np.asarray(_presence(X).sum(axis=0)).ravel()
        n = X.shape[0]
        return l0.astype(np.float64), (l0 > 0) & (l0 < n)


class L0Supervised(_TopSelector):
    """Ferreira & Figueiredo Method 2 (section 3.2); ``l0(i, k)``: nonzeros of feature i in class k.

    Features with ``l0 = 0`` or ``l0 = N`` are removed first (as Method 1); the m largest of:

    - ``variant='diff'``: binary eq. (3) ``r_i = |l0(i,-1) - l0(i,+1)|``; K > 2 classes eq. (6)
      ``r_i = sum_l sum_k |l0(i,l) - l0(i,k)|`` (for K = 2 eq. (6) is 2 x eq. (3): same ranking).
    - ``variant='entropy'``: negative entropy eq. (4) (binary) / eq. (5) (K classes)
      ``h_i = sum_k (l0(i,k)/l0(i)) log2(l0(i,k)/l0(i))``, ``0 log 0 = 0`` (the paper reports it
      is not better than r_i). It ignores how often a feature occurs: every feature found in one
      class only -- a term of a single document, too -- ties at the best score ``h = 0``. When more
      than ``m`` eligible features tie there, the m kept are the first by column index, not the
      most relevant: the fit then warns (measured on 20 Newsgroups, 20 classes: macro-F1 0.034 at
      m = 1,000 against 0.573 with ``'diff'``, LinearSVC). ``'diff'`` ranks by the counts, for any K.

    Both use raw counts, not rates (the paper balances its training sets). See
    [methods: selection][methods-selection].

    Parameters
    ----------
    m : int, default=1000
        Number of features to keep.
    variant : {"diff", "entropy"}, default="diff"
        Ranking criterion: eq. (3)/(6) or the negative entropy eq. (4)/(5).

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    scores_ : ndarray of shape (n_features,)
        ``r_i`` or ``h_i``.
    selected_ : ndarray of int
        Kept features, best first (ties: lower index).
    support_ : ndarray of bool, shape (n_features,)
        Mask of the kept features.

    Warns
    -----
    UserWarning
        ``variant='entropy'`` with more than ``m`` eligible features tied at ``h = 0``.

    References
    ----------
    Ferreira & Figueiredo (2010), "Feature transformation and reduction for text
    classification", PRIS 2010 (with ICEIS 2010), SciTePress, pp. 72-81.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.selection import L0Supervised
    >>> X = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1], [0, 1, 0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> L0Supervised(m=1).fit(X, y).selected_
    array([0])
    """

    _parameter_constraints = {
        **_TopSelector._parameter_constraints,
        "variant": [StrOptions({"diff", "entropy"})],
    }

    def __init__(self, m=1000, variant="diff"):
        self.m = m
        self.variant = variant

    def _score(self, X, y):
        B = _presence(X)
        self.classes_, _, onehot = _encode(y)
        if self.classes_.size < 2:
            raise ValueError("L0Supervised needs at least 2 classes in y; got one class")
        l0c = _class_l0(B, onehot)
        l0 = l0c.sum(axis=1)
        eligible = (l0 > 0) & (l0 < X.shape[0])
        K = l0c.shape[1]
        if self.variant == "diff":
            if K == 2:
                r = np.abs(l0c[:, 0] - l0c[:, 1])
            else:  # sum_{l,k} |a_l - a_k| = 2 sum_j (2j - K - 1) a_(j), a sorted, j = 1..K
                coef = 2 * (2 * np.arange(1, K + 1) - K - 1)
                r = np.sort(l0c, axis=1) @ coef
            return r.astype(np.float64), eligible
        frac = l0c / np.maximum(l0, 1)[:, None]
        h = _canon(np.where(frac > 0, frac * np.log2(np.where(frac > 0, frac, 1.0)), 0.0)
                   .sum(axis=1))
        tied = int(np.count_nonzero(eligible & (h == 0)))
        if tied > self.m:
            warnings.warn(
                f"L0Supervised(variant='entropy'): {tied} of the {int(eligible.sum())} eligible "
                f"features occur in one class only and tie at the best score h = 0, more than "
                f"m={self.m}: the m kept are the first by column index, not the most relevant "
                f"(eq. (4)/(5) ignore how often a feature occurs); variant='diff' (eq. (3), "
                f"K = {K} classes eq. (6)) ranks by the counts", UserWarning, stacklevel=4)
        return h, eligible


class FisherRatio(_TopSelector):
    """Fisher ratio, Ferreira & Figueiredo eq. (7), on TD (values, not presence); K-class Fisher score.

    Two classes: ``FiR_i = |mu_i(-) - mu_i(+)| / sqrt(var_i(-) + var_i(+))``, 0 where both
    variances are 0 (the methods page's choice; the paper does not say); class "-" is
    ``classes_[0]``. K > 2 classes: the Fisher score (Duda, Hart & Stork 2001, section 3.8; Gu, Li
    & Han 2011, UAI, eq. 1) ``F_i = sum_k n_k (mu_i(k) - mu_i)^2 / sum_k n_k var_i(k)``, ``mu_i``
    the overall mean, 0 where the denominator is 0. (For two classes of equal size
    ``F = FiR^2 / 2``: same ranking.) Means and variances come from sparse per-class sums with the
    two-pass formula ``SS = sum_{nonzero} (x - mu)^2 + (n_c - nnz_c) mu^2`` (no densifying);
    ``var = SS/(n_c-ddof)``. See [methods: selection][methods-selection].

    Parameters
    ----------
    m : int, default=1000
        Number of features to keep.
    ddof : int, default=0
        0: population variance; 1: sample variance (the ranking is identical for equal class
        sizes).

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    scores_ : ndarray of shape (n_features,)
        The Fisher ratio (score) of every feature.
    selected_ : ndarray of int
        Kept features, best first (ties: lower index).
    support_ : ndarray of bool, shape (n_features,)
        Mask of the kept features.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.selection import FisherRatio
    >>> X = np.array([[3., 1.], [4., 0.], [0., 1.], [1., 0.]])
    >>> y = np.array([0, 0, 1, 1])
    >>> fr = FisherRatio(m=1).fit(X, y)
    >>> fr.selected_, fr.scores_.round(3)
    (array([0]), array([4.243, 0.   ]))
    """

    _parameter_constraints = {
        **_TopSelector._parameter_constraints,
        "ddof": [Interval(Integral, 0, 1, closed="both")],
    }

    def __init__(self, m=1000, ddof=0):
        self.m = m
        self.ddof = ddof

    def _score(self, X, y):
        self.classes_, yi, onehot = _encode(y)
        K = self.classes_.size
        if K < 2:
            raise ValueError(f"FisherRatio needs at least 2 classes in y; got {K} class")
        C = sp.coo_array(sp.csr_array(X, dtype=np.float64))
        C.eliminate_zeros()
        p = X.shape[1]
        nc = onehot.sum(axis=0).astype(np.float64)
        if np.any(nc <= self.ddof):
            raise ValueError("FisherRatio needs more than ddof rows in each class")
        cls = yi[C.row]
        key = cls * p + C.col
        s1 = np.bincount(key, weights=C.data, minlength=K * p).reshape(K, p)
        nnz = np.bincount(key, minlength=K * p).reshape(K, p)
        mu = s1 / nc[:, None]
        dev = C.data - mu[cls, C.col]
        ss = np.bincount(key, weights=dev * dev, minlength=K * p).reshape(K, p)
        ss += (nc[:, None] - nnz) * mu**2
        var = ss / (nc[:, None] - self.ddof)
        fir = np.zeros(p)
        if K == 2:
            den = np.sqrt(var[0] + var[1])
            ok = den > 0
            fir[ok] = np.abs(mu[0, ok] - mu[1, ok]) / den[ok]
            return fir, None
        mean = s1.sum(axis=0) / nc.sum()
        num = nc @ (mu - mean) ** 2
        den = nc @ var
        ok = den > 0
        fir[ok] = num[ok] / den[ok]
        return fir, None


class MIM(_TopSelector):
    """Mutual information maximisation: top-m by ``I(Y; X_i)`` on presence (TDI), K classes.

    ``scores_`` in nats (see [`mutual_information`][termweight.selection.mutual_information]),
    rounded to ``INFO_DECIMALS``. See [methods: selection][methods-selection].

    Parameters
    ----------
    m : int, default=1000
        Number of features to keep.

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    scores_ : ndarray of shape (n_features,)
        ``I(Y; X_i)`` in nats.
    selected_ : ndarray of int
        Kept features, best first (ties: lower index).
    support_ : ndarray of bool, shape (n_features,)
        Mask of the kept features.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.selection import MIM
    >>> X = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1], [0, 1, 0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> MIM(m=1).fit(X, y).selected_
    array([0])
    """

    def __init__(self, m=1000):
        self.m = m

    def _score(self, X, y):
        self.classes_ = np.unique(y)
        return mutual_information(X, y), None


class CMIM(_TopSelector):
    """Conditional mutual information maximisation (Fleuret 2004, JMLR 5:1531), on presence.

    ``nu_1 = argmax_i I(Y; X_i)``; ``nu_k = argmax_i min_{l<k} I(Y; X_i | X_{nu_l})`` (nats, K
    classes, ties to the lower index). ``selected_`` is the pick order; ``scores_[nu_k]`` is the
    score at which nu_k was picked (other entries: the partial score when selection stopped).
    See [methods: selection][methods-selection].

    ``lazy=True`` is Fleuret's lazy evaluation: ``ps[i]`` = min over the first ``upd[i]`` picks
    (an upper bound of the true score); a candidate is only brought up to date while its partial
    score beats the best fully-updated one. Vectorised: each round advances the (up to 32,
    doubling) best such candidates by up to 64 pending picks at once, the counts of
    (X_i, X_j, Y) summed over each candidate's documents. ``lazy=False`` updates every candidate
    against each new pick (one sparse product per pick): a slower reference; both give identical
    picks.

    Parameters
    ----------
    m : int, default=1000
        Number of features to pick.
    lazy : bool, default=True
        Fleuret's lazy evaluation (identical picks, faster).

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    scores_ : ndarray of shape (n_features,)
        Score of each feature when picked (or its partial score).
    selected_ : ndarray of int
        Picked features, in pick order.
    support_ : ndarray of bool, shape (n_features,)
        Mask of the picked features.

    References
    ----------
    Fleuret (2004), "Fast binary feature selection with conditional mutual information", JMLR 5.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.selection import CMIM
    >>> X = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1], [0, 1, 0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> CMIM(m=2).fit(X, y).selected_
    array([0, 1])
    """

    _parameter_constraints = {
        **_TopSelector._parameter_constraints,
        "lazy": ["boolean"],
    }

    def __init__(self, m=1000, lazy=True):
        self.m = m
        self.lazy = lazy

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"), dtype="numeric")
        B = _presence(X)
        self.classes_, _, onehot = _encode(y)
        k = min(self.m, X.shape[1])
        run = _cmim_lazy if self.lazy else _cmim_eager
        self.selected_, self.scores_ = run(B, onehot, k)
        mask = np.zeros(X.shape[1], dtype=bool)
        mask[self.selected_] = True
        self.support_ = mask
        return self


_LAZY_BATCH = 32
_LAZY_STEPS = 64


def _cmim_setup(B, onehot):
    n = B.shape[0]
    l0c = _class_l0(B, onehot)
    nc = onehot.sum(axis=0)
    T = _xlogx_table(n)
    return l0c, nc, n, T, _mi_from_counts(l0c, nc, n, T)


def _cmim_eager(B, onehot, k):
    """Non-lazy reference: after each pick j, ps = min(ps, I(Y; X_. | X_j)) for all features."""
    l0c, nc, n, T, ps = _cmim_setup(B, onehot)
    Br = sp.csr_array(B)
    p = B.shape[1]
    picked = np.zeros(p, dtype=bool)
    order = np.empty(k, dtype=np.int64)
    at_pick = np.empty(k)
    for t in range(k):
        j = int(np.argmax(np.where(picked, -np.inf, ps)))  # first max: lowest index
        order[t] = j
        at_pick[t] = ps[j]
        picked[j] = True
        if t + 1 == k:
            ps[order] = at_pick
            break
        docs = B.indices[B.indptr[j]:B.indptr[j + 1]]
        A = np.asarray(Br[docs].T @ onehot[docs], dtype=np.int64)  # (p, K)
        ps = np.minimum(ps, _cmi_from_counts(A, l0c, l0c[j], nc, n, T))
    return order, ps


def _cmim_lazy(B, onehot, k):
    """Fleuret's lazy CMIM, vectorised over batches of candidates (see [`CMIM`][termweight.selection.CMIM]).

    Works on the "live" features (MI > 0): a feature with MI = 0 scores 0 for ever, as does any
    whose partial score reaches 0, so only positive partial scores are ever brought up to date.
    The counts ``#(x_i = 1, x_j = 1, y = c)`` of a (candidate, pick) pair are summed over the
    candidate's documents from a dense (documents x picks) presence table of the picked features.
    """
    l0c, nc, n, T, mi = _cmim_setup(B, onehot)
    p = B.shape[1]
    K = onehot.shape[1]
    yi = onehot.argmax(axis=1)
    live = np.flatnonzero(mi > 0)  # ascending, so local order = feature order
    dead = np.flatnonzero(mi <= 0)
    ps = mi[live].copy()
    L = live.size
    l0 = l0c[live].sum(axis=1)
    lc = l0c[live]
    indptr, indices = B.indptr, B.indices
    upd = np.zeros(L, dtype=np.int64)  # picks already folded into ps; DONE once exact for good
    taken = np.zeros(L, dtype=bool)
    picked_docs = np.zeros((n, k), dtype=np.uint8)  # presence of the t-th pick, t < k
    pick_l0c = np.zeros((k, K), dtype=np.int64)
    order = np.empty(k, dtype=np.int64)
    scores = np.zeros(p)
    scores[live] = ps
    next_dead = 0
    for t in range(k):  # t picks made; ps[i] is exact where upd[i] >= t
        batch = _LAZY_BATCH
        f, fs = -1, -np.inf
        while L:
            full = np.where(upd >= t, ps, -np.inf)  # taken: ps = -inf
            f = int(np.argmax(full))
            fs = full[f]
            cand = np.flatnonzero((upd < t) & (ps >= fs))
            cand = cand[(ps[cand] > fs) | (cand < f)]  # ties beat f only with a lower index
            if cand.size == 0:
                break
            if cand.size > batch:
                cand = np.sort(cand[np.argpartition(-ps[cand], batch - 1)[:batch]])
                batch *= 2
            cnt = np.minimum(t - upd[cand], _LAZY_STEPS)
            start = np.cumsum(cnt) - cnt
            pair_c = np.repeat(cand, cnt)
            pair_t = np.arange(cnt.sum()) - np.repeat(start, cnt) + np.repeat(upd[cand], cnt)
            # expand each pair over the candidate's documents
            feat = live[pair_c]
            lens = l0[pair_c]
            dstart = np.cumsum(lens) - lens
            pid = np.repeat(np.arange(pair_c.size), lens)
            rows = indices[np.arange(lens.sum()) - np.repeat(dstart, lens)
                           + np.repeat(indptr[feat], lens)]
            hit = picked_docs[rows, pair_t[pid]]
            A = np.bincount(pid * K + yi[rows], weights=hit,
                            minlength=pair_c.size * K).reshape(-1, K).astype(np.int64)
            cmi = _cmi_from_counts(A, lc[pair_c], pick_l0c[pair_t], nc, n, T)
            ps[cand] = np.minimum(ps[cand], np.minimum.reduceat(cmi, start))
            upd[cand] = np.where(ps[cand] <= 0, _DONE, upd[cand] + cnt)  # zero stays zero
        if fs <= 0:  # best live score is 0 (or none left): lowest index among all zero scores
            d = dead[next_dead] if next_dead < dead.size else p
            if fs == -np.inf or d < live[f]:
                order[t] = d
                next_dead += 1
                continue
        j = live[f]
        order[t] = j
        taken[f] = True
        scores[j] = ps[f]
        ps[f], upd[f] = -np.inf, _DONE
        if t + 1 < k:
            picked_docs[indices[indptr[j]:indptr[j + 1]], t] = 1
            pick_l0c[t] = l0c[j]
    rest = ~taken
    scores[live[rest]] = ps[rest]
    return order, scores


_DONE = np.iinfo(np.int64).max


class AchlioptasProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Random projection ``y = A x`` (Ferreira & Figueiredo eq. (8); Achlioptas 2001), unsupervised.

    ``A = scale_ * R`` with R (m x p) drawn iid from ``{+1 w.p. 1/6, 0 w.p. 2/3, -1 w.p. 1/6}``
    and stored sparse (``components_``, int8 CSR). The two ``scaling`` choices differ by the
    constant 1/sqrt(m) (irrelevant for stumps, not for a C=1 SVM). Row r of R is drawn r-th from
    ``random_state``, so a smaller m gives the leading rows of a larger one. ``X @ R'`` is a
    sparse product: sparse input gives a CSR output (the values of the dense output, bit for
    bit, without its explicit zeros), as scikit-learn's
    ``SparseRandomProjection(dense_output=False)``; dense input a dense array. See [methods:
    selection][methods-selection].

    Parameters
    ----------
    m : int, default=1000
        Output dimension.
    random_state : int, RandomState instance or None, default=None
        Seed of R.
    scaling : {"paper", "achlioptas"}, default="paper"
        ``'paper'``: the paper's PMF over ``{-sqrt(3)/m, 0, sqrt(3)/m}``, scale sqrt(3)/m;
        ``'achlioptas'``: Achlioptas' ``sqrt(3) R / sqrt(m)``, scale sqrt(3/m), which preserves
        squared norms in expectation.
    dense_output : bool, default=False
        Return a dense array for sparse input too (the earlier behaviour). With ``X`` of many
        terms per row the projection is nearly dense (each output value sums a third of a
        row's terms): a dense array then takes less memory than CSR.

    Attributes
    ----------
    components_ : sparse array of shape (m, n_features)
        R, int8 CSR.
    scale_ : float
        The scale of ``A = scale_ * R``.

    References
    ----------
    Achlioptas (2001), "Database-friendly random projections", PODS 2001.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from termweight.selection import AchlioptasProjection
    >>> X = sp.csr_array(np.eye(4))
    >>> rp = AchlioptasProjection(m=2, random_state=0).fit(X)
    >>> Z = rp.transform(X)
    >>> Z.format, Z.shape, rp.transform(X.toarray()).shape
    ('csr', (4, 2), (4, 2))
    """

    _parameter_constraints = {
        "m": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "scaling": [StrOptions({"paper", "achlioptas"})],
        "dense_output": ["boolean"],
    }

    def __init__(self, m=1000, random_state=None, scaling="paper", dense_output=False):
        self.m = m
        self.random_state = random_state
        self.scaling = scaling
        self.dense_output = dense_output

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype="numeric")
        p = X.shape[1]
        rs = check_random_state(self.random_state)
        seed = rs.randint(0, 2**31 - 1, dtype=np.int64)
        rng = np.random.default_rng(seed)
        indptr = [0]
        indices, data = [], []
        for _ in range(self.m):
            u = rng.integers(0, 6, size=p, dtype=np.int8)  # 0 -> -1, 1 -> +1, 2..5 -> 0
            nz = np.flatnonzero(u < 2)
            indices.append(nz.astype(np.int32))
            data.append(np.where(u[nz] == 0, -1, 1).astype(np.int8))
            indptr.append(indptr[-1] + nz.size)
        self.components_ = sp.csr_array(
            (np.concatenate(data), np.concatenate(indices), np.asarray(indptr, dtype=np.int64)),
            shape=(self.m, p))
        root3 = np.sqrt(3.0)
        self.scale_ = root3 / self.m if self.scaling == "paper" else root3 / np.sqrt(self.m)
        self._n_features_out = self.m
        return self

    def transform(self, X):
        """Project ``X``: ``X @ (scale_ * R)'``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        Z : ndarray or CSR sparse matrix/array of shape (n_samples, m)
            CSR (the input's kind: matrix or array) for sparse ``X`` unless ``dense_output``,
            else dense.
        """
        check_is_fitted(self, "components_")
        X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype=np.float64, reset=False)
        sparse_in = sp.issparse(X)
        matrix_in = sparse_in and not isinstance(X, sp.sparray)
        X = sp.csr_array(X) if sparse_in else X
        step = 256  # bound the float copy of R
        blocks = []
        for r in range(0, self.m, step):
            block = X @ self.components_[r:r + step].astype(np.float64).T
            blocks.append(sp.csr_array(block) if sparse_in else block)
        if not sparse_in or self.dense_output:
            out = np.empty((X.shape[0], self.m))
            for r, block in zip(range(0, self.m, step), blocks, strict=True):
                out[:, r:r + step] = block.toarray() if sp.issparse(block) else block
            out *= self.scale_
            return out
        out = sp.hstack(blocks, format="csr")
        out.data *= self.scale_  # the same products as the dense output's, value by value
        out.eliminate_zeros()
        out.sort_indices()
        if out.nnz < 2**31 - 1:  # 32-bit indices, as scikit-learn's estimators require
            out.indices = out.indices.astype(np.int32, copy=False)
            out.indptr = out.indptr.astype(np.int32, copy=False)
        return sp.csr_matrix(out) if matrix_in else out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = False
        return tags


class SelectByScore(_TopSelector):
    """Keep the top-``k`` columns by a per-feature score (ties: lower index first; NaN last).

    ``metric`` is a name in [`METRICS`][termweight.scoring.METRICS] (scored on the presence
    ``X > 0`` of the training rows, [`term_scores`][termweight.scoring.term_scores]), a
    precomputed score vector (length n_features), or a callable ``score_func(X, y) -> scores`` (a
    tuple's first element is used, as sklearn's ``chi2``). A name needs ``y``; a binary ``y`` is
    one task, K > 2 classes or a label-indicator matrix give one-vs-rest scores ``s[c, t]``
    combined per term by ``combine``: ``"max"`` ``s_t = max_c s[c, t]`` or ``"avg"``
    ``s_t = sum_c P(c) s[c, t]``, ``P(c) = pos_c / sum pos`` (Yang & Pedersen 1997). See
    [methods: selection][methods-selection].

    Parameters
    ----------
    metric : str, callable or array-like, default="ig"
        Metric name, score function or score vector.
    k : int or "all", default=10
        Number of features to keep; ``'all'`` keeps every feature (ranked in ``selected_``).
    combine : {"max", "avg"}, default="max"
        How one-vs-rest scores are combined per term.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        The (combined) score of every feature.
    selected_ : ndarray of int
        Kept features, best first (ties: lower index).
    support_ : ndarray of bool, shape (n_features,)
        Mask of the kept features.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.selection import SelectByScore
    >>> X = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1], [0, 1, 0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> SelectByScore(metric=np.array([0.1, 0.5, 0.3]), k=2).fit(X, y).selected_
    array([1, 2])
    """

    _parameter_constraints = {
        "metric": [callable, str, "array-like"],
        "k": [Interval(Integral, 1, None, closed="left"), StrOptions({"all"})],
        "combine": [StrOptions(set(scoring.COMBINE_RULES))],
    }

    def __init__(self, metric="ig", k=10, combine="max"):
        self.metric = metric
        self.k = k
        self.combine = combine

    @property
    def _supervised(self):
        """A metric name needs ``y``; a score vector or a callable takes it only if given."""
        return isinstance(self.metric, str)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        if isinstance(self.metric, str):
            scoring.check_metric(self.metric)
            if y is None:
                raise ValueError(f"{type(self).__name__}(metric={self.metric!r}) requires y to be "
                                 "passed, but the target y is None")
        if y is None:
            X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype="numeric")
        else:
            X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"), dtype="numeric",
                                 multi_output=True)
        return self._fit_scores(X, y)

    def _score(self, X, y):
        metric = self.metric
        if isinstance(metric, str):
            return scoring.term_scores(metric, X, y, self.combine)[1], None
        if callable(metric):
            scores = metric(X, y)
            if isinstance(scores, tuple):
                scores = scores[0]
        else:
            scores = metric
        scores = np.asarray(scores, dtype=np.float64).ravel()
        if scores.shape != (X.shape[1],):
            raise ValueError(f"metric gave {scores.shape[0]} scores for {X.shape[1]} features")
        return scores, None

    def _select(self, scores, eligible):
        return top_k(scores, scores.size if self.k == "all" else self.k, eligible)
