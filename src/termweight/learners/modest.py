"""Modest AdaBoost (Vezhnevets & Vezhnevets, "Modest AdaBoost - teaching AdaBoost to generalize
better", Graphicon 2005), binary, with decision-stump ("tree node") weak learners
([methods: learners][methods-learners]).

Labels are mapped to ``-1`` (``classes_[0]``) and ``+1`` (``classes_[1]``). Starting from
``w_i = 1/N``, each round m:

1. fit a stump by weighted least squares of y on x (as Gentle AdaBoost): over every feature j and
   threshold ``theta`` between consecutive distinct training values, minimise
   ``sum_i w_i (y_i - c(x_i))^2`` with ``c`` the leaf-wise weighted mean, i.e. maximise
   ``S_L^2 / W_L + S_R^2 / W_R`` (``W`` = leaf weight, ``S`` = leaf ``sum w y``); left leaf is
   ``x_j <= theta``;
2. ``wbar = (1 - w)`` renormalised (the paper's inverted distribution);
3. per leaf: ``P+ = sum w`` over ``y = +1`` in the leaf, ``P-`` likewise, ``Pbar+-`` with ``wbar``;
   ``f_m(leaf) = P+ (1 - Pbar+) - P- (1 - Pbar-)``;
4. ``w <- w exp(-y f_m(x))``, renormalised.

Boosting stops early when ``f_m = 0`` on both leaves (the paper's "while f_m != 0"; the weights
would not change again), or when no feature has two distinct values.
``decision_function = sum_m f_m(x)``; ``predict`` gives ``classes_[1]`` where it is > 0, else
``classes_[0]``.

The split search is vectorised over all features at once: the explicit nonzeros of the CSC
matrix plus one "zero block" per feature (weight = total minus the nonzeros' weight) are sorted
once by (feature, value); each round needs only cumulative sums over that order, so sparse TD/TDI
input costs O(nnz + p) per round. Ties between splits go to the first in that order (lowest
feature index, then lowest threshold).

Note: the GML AdaBoost Toolbox (Vezhnevets' own MATLAB code, used via ENTOOL by Ferreira &
Figueiredo) differs from the paper's pseudo-code: inverted distribution ``1/w`` renormalised, a
leaf is skipped where ``sign(f) != sign(P+ - P-)``, and weights ``exp(-y F / sum|F|)``. This class
follows the paper and the methods page.
"""

from __future__ import annotations

import time
import warnings
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from termweight.learners._checks import TrivialModelWarning, verbose_every, warn_if_trivial

__all__ = ["ModestAdaBoost"]


class _SplitSearch:
    """Sorted (feature, value) layout of a training matrix for vectorised stump search."""

    def __init__(self, X):
        X = sp.csc_array(X, dtype=np.float64, copy=True)
        X.eliminate_zeros()
        n, p = X.shape
        nnz_col = np.diff(X.indptr)
        feat_nz = np.repeat(np.arange(p), nnz_col)
        zero_feats = np.flatnonzero(nnz_col < n)  # features with a block of zero rows
        feat = np.concatenate([feat_nz, zero_feats])
        val = np.concatenate([X.data, np.zeros(zero_feats.size)])
        self.order = np.lexsort((val, feat))
        f_s, v_s = feat[self.order], val[self.order]
        nxt_same = np.append(f_s[1:] == f_s[:-1], False)
        v_next = np.append(v_s[1:], 0.0)
        self.valid = np.flatnonzero(nxt_same & (v_next > v_s))  # split after these positions
        self.feature = f_s[self.valid]
        self.threshold = v_s[self.valid] + (v_next[self.valid] - v_s[self.valid]) / 2
        self.first = np.searchsorted(f_s, f_s)  # position where each entry's feature starts
        self.rows = X.indices
        self.feat_nz = feat_nz
        self.zero_feats = zero_feats
        self.p = p

    def best(self, w, wy):
        """(feature, threshold) of the weighted least-squares stump, or None if no split exists."""
        if self.valid.size == 0:
            return None
        W, S = w.sum(), wy.sum()
        nzw = np.bincount(self.feat_nz, weights=w[self.rows], minlength=self.p)
        nzs = np.bincount(self.feat_nz, weights=wy[self.rows], minlength=self.p)
        ew = np.concatenate([w[self.rows], W - nzw[self.zero_feats]])[self.order]
        es = np.concatenate([wy[self.rows], S - nzs[self.zero_feats]])[self.order]
        cw, cs = np.cumsum(ew), np.cumsum(es)
        base_w = cw[self.first] - ew[self.first]
        base_s = cs[self.first] - es[self.first]
        wl = (cw - base_w)[self.valid]
        sl = (cs - base_s)[self.valid]
        wr, sr = W - wl, S - sl
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(wl > 0, sl * sl / wl, 0.0) + np.where(wr > 0, sr * sr / wr, 0.0)
        b = int(np.argmax(gain))
        return int(self.feature[b]), float(self.threshold[b])


def _column(X, j) -> np.ndarray:
    col = X[:, [j]]
    return (col.toarray() if sp.issparse(col) else np.asarray(col)).ravel()


class ModestAdaBoost(ClassifierMixin, BaseEstimator):
    """Modest AdaBoost with decision stumps, binary (Vezhnevets & Vezhnevets 2005).

    Round m: the weighted least-squares stump, ``f_m(leaf) = P+ (1 - Pbar+) - P- (1 - Pbar-)``
    (``Pbar`` under the inverted distribution ``1 - w``), ``w <- w exp(-y f_m(x))`` (module
    docstring; [methods: learners][methods-learners]); ``decision_function = sum_m f_m(x)``.

    Parameters
    ----------
    n_estimators : int, default=15
        Maximum number of boosting rounds (stumps); fewer when ``f_m = 0`` on both leaves.
    verbose : int, default=0
        0: silent; 1: about ten progress lines (round, stump, seconds); 2: every round.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        Class labels; ``classes_[1]`` is the positive class.
    features_ : ndarray of shape (n_estimators_,)
        Feature of each stump.
    thresholds_ : ndarray of shape (n_estimators_,)
        Threshold of each stump (left leaf: ``x <= threshold``).
    leaf_values_ : ndarray of shape (n_estimators_, 2)
        ``f_m`` on ``x <= theta`` and on ``x > theta``.
    n_estimators_ : int
        Stumps actually fitted (0 when no feature has two distinct training values).

    Warns
    -----
    TrivialModelWarning
        When no stump was fitted, or the model predicts one class for every training row.

    References
    ----------
    Vezhnevets & Vezhnevets (2005), "Modest AdaBoost - teaching AdaBoost to generalize better",
    Graphicon 2005.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.learners import ModestAdaBoost
    >>> X = np.array([[0., 1.], [1., 1.], [2., 0.], [3., 0.]])
    >>> y = np.array([0, 0, 1, 1])
    >>> clf = ModestAdaBoost(n_estimators=3).fit(X, y)
    >>> clf.predict(X), clf.n_estimators_
    (array([0, 0, 1, 1]), 3)
    """

    _parameter_constraints: dict = {"n_estimators": [Interval(Integral, 1, None, closed="left")],
                                    "verbose": ["verbose"]}

    def __init__(self, n_estimators=15, verbose=0):
        self.n_estimators = n_estimators
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"), dtype=np.float64)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y")
        if y_type != "binary":
            raise ValueError("Only binary classification is supported (ModestAdaBoost). "
                             f"The type of the target is {y_type}.")
        self.classes_, yi = np.unique(y, return_inverse=True)
        if self.classes_.size != 2:
            raise ValueError(f"ModestAdaBoost needs 2 classes in y; got one class (n_samples="
                             f"{y.shape[0]})")
        n = X.shape[0]
        ys = np.where(yi == 1, 1.0, -1.0)
        pos = ys > 0
        search = _SplitSearch(X)
        Xc = sp.csc_array(X) if sp.issparse(X) else X
        w = np.full(n, 1.0 / n)
        feats, thrs, vals = [], [], []
        every = verbose_every(self.verbose, self.n_estimators)
        t0 = time.perf_counter()
        for r in range(self.n_estimators):
            split = search.best(w, w * ys)
            if split is None:  # every feature constant; a single node would give f = 0
                break
            j, theta = split
            left = _column(Xc, j) <= theta
            wbar = 1.0 - w
            wbar /= wbar.sum()
            f = np.empty(2)
            for leaf, mask in enumerate((left, ~left)):
                pp, pn = w[mask & pos].sum(), w[mask & ~pos].sum()
                bp, bn = wbar[mask & pos].sum(), wbar[mask & ~pos].sum()
                f[leaf] = pp * (1.0 - bp) - pn * (1.0 - bn)
            if not f.any():
                break
            feats.append(j)
            thrs.append(theta)
            vals.append(f)
            w = w * np.exp(-ys * np.where(left, f[0], f[1]))
            w /= w.sum()
            if every and ((r + 1) % every == 0 or r + 1 == self.n_estimators):
                print(f"[ModestAdaBoost] round {r + 1}/{self.n_estimators}: feature {j} <= "
                      f"{theta:.6g}, leaves {f[0]:.4g} {f[1]:.4g} "
                      f"({time.perf_counter() - t0:.1f} s)", flush=True)
        self.features_ = np.asarray(feats, dtype=np.int64)
        self.thresholds_ = np.asarray(thrs, dtype=np.float64)
        self.leaf_values_ = np.asarray(vals, dtype=np.float64).reshape(-1, 2)
        self.n_estimators_ = len(feats)
        if self.n_estimators_ == 0:
            warnings.warn("ModestAdaBoost fitted a trivial model: no stump (no feature has two "
                          "distinct training values, or the first stump has f = 0 on both "
                          "leaves); it predicts classes_[0] everywhere", TrivialModelWarning,
                          stacklevel=3)
        else:
            warn_if_trivial("ModestAdaBoost", yi, self.decision_function(X) > 0, stacklevel=4)
        return self

    def decision_function(self, X):
        """``F(x) = sum_m f_m(x)``; > 0 means ``classes_[1]``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            The summed stump outputs.
        """
        check_is_fitted(self, "leaf_values_")
        X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype=np.float64, reset=False)
        out = np.zeros(X.shape[0])
        if self.n_estimators_ == 0:
            return out
        uniq, inv = np.unique(self.features_, return_inverse=True)
        cols = X[:, uniq]
        cols = cols.toarray() if sp.issparse(cols) else np.asarray(cols)
        for m in range(self.n_estimators_):
            left = cols[:, inv[m]] <= self.thresholds_[m]
            out += np.where(left, self.leaf_values_[m, 0], self.leaf_values_[m, 1])
        return out

    def predict(self, X):
        """``classes_[1]`` where ``decision_function(X) > 0``, else ``classes_[0]``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Predicted classes.
        """
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.int64)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        return tags
