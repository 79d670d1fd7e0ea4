"""AdaBoost.MH with real-valued decision stumps and MP-Boost on binary (presence) features.

AdaBoost.MH: Schapire & Singer, "BoosTexter", Machine Learning 39 (2000), the real-valued
(non-abstaining) weak hypotheses with smoothing ``eps``. MP-Boost: Esuli, Fagni & Sebastiani,
SPIRE 2006. Spec: METHODS.md section 6.

Weights ``D(i,l)`` over (document, label) pairs start at ``1/(m k)``. In round ``t``, for a
feature ``w`` split the documents into ``X1`` (``w`` present) and ``X0`` (absent) and let
``W+^{jl}`` / ``W-^{jl}`` be the weight of pairs in ``Xj`` whose label ``l`` is positive /
negative. The stump on ``w`` predicts ``c_{jl} = 0.5 ln((W+^{jl} + eps) / (W-^{jl} + eps))``
with ``eps = 1/(m k)``, and

- AdaBoost.MH picks ONE pivot minimising ``Z = 2 sum_j sum_l sqrt(W+^{jl} W-^{jl})``;
- MP-Boost picks one pivot PER LABEL minimising ``Z_l = 2 sum_j sqrt(W+^{jl} W-^{jl})``.

Then ``D(i,l) <- D(i,l) exp(-Y_il h(x_i,l)) / Z_t`` with ``Y`` in {-1,+1}; ``Z_t`` is the
normaliser making ``D`` a distribution (it equals the ``Z`` above when ``eps = 0``; the recorded
``z_`` is the criterion value ``Z`` of the chosen pivot(s)). Label ``l`` is assigned iff
``sum_t h_t(x,l) > 0``.

Ties: features whose criterion is within a relative ``1e-9`` of the minimum count as tied and
the LOWEST feature index wins (``TIE_RTOL``); this makes the choice immune to last-bit rounding
differences between summation orders.

Speed: write ``D(i,l) = s_{l,sign(Y_il)} E(i,l)``. A round multiplies every pair by
``exp(-Y c_{0l})`` (absorbed in the per-label scales ``s``) and only the pairs of the documents
containing the pivot by the extra ``exp(-Y (c_{1l} - c_{0l}))`` (changes ``E``). Hence
``G+ = X^T (E * Y+)`` and ``G- = X^T (E * Y-)`` (features x labels) change only by a sparse
product over the pivot's documents, ``W+^{1} = s+ G+``, ``W^{0} = totals - W^{1}``, and ``Z`` of
every feature and label is a few vectorised numpy passes. When the pivot occurs in more than
half of the documents the roles flip (the scales take ``c_{1l}``, the absent side is updated
explicitly), so a round touches at most ``m/2`` documents per label. ``G`` is recomputed from
scratch every ``REFRESH_EVERY`` rounds to bound rounding drift. All arithmetic is float64 and single
threaded (sparse products and numpy ufuncs; no BLAS), so results do not depend on core count.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, check_scalar, validate_data

__all__ = ["AdaBoostMH", "MPBoost"]

TIE_RTOL = 1e-9
REFRESH_EVERY = 100
_CHUNK = 2048

# label modes: how ``y`` was given to ``fit`` (stored in the .npz as an int)
_INDICATOR, _MULTICLASS, _BINARY = 0, 1, 2


def _ranges(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenate ``arange(s, s + n)`` for each (s, n), vectorised."""
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(lens)
    shift = np.repeat(starts - (ends - lens), lens)
    return np.arange(total, dtype=np.int64) + shift


def _stump_values(wp1, wn1, wp0, wn0, eps):
    """``c_{jl} = 0.5 ln((W+ + eps)/(W- + eps))`` for j = 0, 1 and the criterion terms."""
    c1 = 0.5 * np.log((wp1 + eps) / (wn1 + eps))
    c0 = 0.5 * np.log((wp0 + eps) / (wn0 + eps))
    zl = 2.0 * (np.sqrt(wp1 * wn1) + np.sqrt(wp0 * wn0))
    return c0, c1, zl


class _Booster:
    """The training state of one run (AdaBoost.MH if ``per_label`` is False, else MP-Boost).

    ``D(i,l) = s_{l,sign} E(i,l)``; ``GP = X^T (E * Y+)``, ``GN = X^T (E * Y-)`` are stored
    features x labels for AdaBoost.MH (dense per-round update over the pivot's documents) and
    labels x features for MP-Boost (scatter-add of one entry per (pair, feature) triple).
    """

    def __init__(self, Xb: sp.csr_matrix, Y: np.ndarray, per_label: bool):
        m, n = Xb.shape
        k = Y.shape[1]
        self.m, self.k, self.per_label = m, k, per_label
        self.eps = 1.0 / (m * k)
        df = np.diff(Xb.tocsc().indptr)
        # Features absent from all or present in all documents give the same (no-split) stump;
        # keep only the lowest-indexed of them as a candidate.
        trivial = (df == 0) | (df == m)
        cand = np.flatnonzero(~trivial)
        if trivial.any():
            cand = np.sort(np.append(cand, np.flatnonzero(trivial)[0]))
        self.cand = cand
        self.nc = nc = len(cand)
        self.Xc = Xb[:, cand].tocsr()
        self.Xc.sort_indices()
        self.Xcc = self.Xc.tocsc()
        self.Xcc.sort_indices()
        self.Ypos = np.ascontiguousarray(Y, dtype=bool)
        self.E = np.ones((m, k))
        self.sP = np.full(k, self.eps)
        self.sN = np.full(k, self.eps)
        shape = (k, nc) if per_label else (nc, k)
        if per_label:  # one contiguous block so that the flat scatter-add can address both
            self.G = np.zeros((2 * k, nc))
            self.GP, self.GN = self.G[:k], self.G[k:]
        else:
            self.GP, self.GN = np.zeros(shape), np.zeros(shape)
        self.refresh()

    # -- state -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Fold the scales into ``E`` and recompute ``G+``, ``G-`` and the totals exactly."""
        D = self.distribution()
        D /= D.sum()
        self.E = D * (self.m * self.k)
        self.sP = np.full(self.k, self.eps)
        self.sN = np.full(self.k, self.eps)
        EP = np.where(self.Ypos, self.E, 0.0)
        EN = np.where(self.Ypos, 0.0, self.E)
        XcT = self.Xc.T.tocsr()
        gp = (XcT @ sp.csr_matrix(EP)).toarray()
        gn = XcT @ EN
        if self.per_label:
            self.GP[:], self.GN[:] = gp.T, gn.T
        else:
            self.GP[:], self.GN[:] = gp, gn
        self.sumEP = EP.sum(axis=0)
        self.sumEN = EN.sum(axis=0)

    def distribution(self) -> np.ndarray:
        """The current ``D`` (m x k)."""
        return self.E * np.where(self.Ypos, self.sP, self.sN)

    # -- criterion -------------------------------------------------------------------------
    def _chunks(self, clip: bool, out: np.ndarray | None = None):
        """Yield (block, sqrt(W+^1 W-^1) + sqrt(W+^0 W-^0)) over contiguous blocks of G.

        AdaBoost.MH (features x labels): blocks of ``_CHUNK`` features. MP-Boost (labels x
        features): blocks of whole label rows, computed in place in ``out[block]``."""
        lm = self.per_label
        n_rows = self.k if lm else self.nc
        step = max(1, (_CHUNK * self.k) // self.nc) if lm else _CHUNK
        width = self.nc if lm else self.k
        if lm:
            sP, sN = self.sP[:, None], self.sN[:, None]
            TP, TN = sP * self.sumEP[:, None], sN * self.sumEN[:, None]
        else:
            sP, sN = self.sP, self.sN
            TP, TN = sP * self.sumEP, sN * self.sumEN
        buf = np.empty((3, step, width))
        for a in range(0, n_rows, step):
            b = min(n_rows, a + step)
            blk = slice(a, b)
            w1p = buf[0, :b - a] if out is None else out[blk]
            w1n, w0p = buf[1, :b - a], buf[2, :b - a]
            bs = (blk,) if lm else (slice(None),)  # slice of the broadcast scales/totals
            np.multiply(self.GP[blk], sP[bs], out=w1p)
            np.multiply(self.GN[blk], sN[bs], out=w1n)
            np.subtract(TP[bs], w1p, out=w0p)
            np.multiply(w1p, w1n, out=w1p)  # W+^1 W-^1 (>= 0 up to rounding drift)
            np.subtract(TN[bs], w1n, out=w1n)  # W-^0
            np.multiply(w0p, w1n, out=w1n)  # W+^0 W-^0; rounding can give tiny negatives
            if clip:
                np.maximum(w1p, 0.0, out=w1p)
            np.maximum(w1n, 0.0, out=w1n)
            np.sqrt(w1p, out=w1p)
            np.sqrt(w1n, out=w1n)
            w1p += w1n
            yield blk, w1p

    def best_single(self, clip: bool = False) -> int:
        """Candidate index minimising ``Z`` (sum over labels); lowest index among ties."""
        z = np.empty(self.nc)
        with np.errstate(invalid="ignore"):
            for blk, terms in self._chunks(clip):
                np.sum(terms, axis=1, out=z[blk])
        zmin = z.min()
        if np.isnan(zmin):  # a rounding-negative W+^1 W-^1: redo with clipping
            return self.best_single(clip=True)
        return int(np.argmax(z <= zmin * (1.0 + TIE_RTOL)))

    def best_per_label(self) -> np.ndarray:
        """Per label, the candidate index minimising ``Z_l``; lowest index among ties."""
        Zl = np.empty((self.k, self.nc))
        # always clip: the scatter-added G of MP-Boost drifts to tiny negatives more often
        for _ in self._chunks(True, out=Zl):
            pass
        zmin = Zl.min(axis=1)
        return np.argmax(Zl <= (zmin * (1.0 + TIE_RTOL))[:, None], axis=1)

    # -- one round -------------------------------------------------------------------------
    def step(self):
        """Run one round; return (pivot(s) as candidate indices, c0, c1, Z or Z_l)."""
        return self._step_mp() if self.per_label else self._step_mh()

    def _stumps(self, wp_side, wn_side, flip):
        """Stump values from the weights of the explicitly updated side (X1, or X0 if flip)."""
        TP, TN = self.sP * self.sumEP, self.sN * self.sumEN
        wp_other = np.maximum(TP - wp_side, 0.0)
        wn_other = np.maximum(TN - wn_side, 0.0)
        wp1, wp0 = np.where(flip, wp_other, wp_side), np.where(flip, wp_side, wp_other)
        wn1, wn0 = np.where(flip, wn_other, wn_side), np.where(flip, wn_side, wn_other)
        c0, c1, zl = _stump_values(wp1, wn1, wp0, wn0, self.eps)
        # the scales take the bulk side's value; the explicit side gets the difference
        c_bulk, delta = np.where(flip, c1, c0), np.where(flip, c0 - c1, c1 - c0)
        self.sP *= np.exp(-c_bulk)
        self.sN *= np.exp(c_bulk)
        return c0, c1, zl, delta

    def _normalise(self) -> None:
        norm = float(np.sum(self.sP * self.sumEP) + np.sum(self.sN * self.sumEN))
        self.sP /= norm
        self.sN /= norm

    def _complement(self, docs: np.ndarray) -> np.ndarray:
        mask = np.ones(self.m, dtype=bool)
        mask[docs] = False
        return np.flatnonzero(mask)

    def _step_mh(self):
        p = self.best_single()
        R = self.Xcc.indices[self.Xcc.indptr[p]:self.Xcc.indptr[p + 1]]
        # every pair gets exp(-Y c_j) of its side j; the larger side goes into the scales
        flip = 2 * len(R) > self.m
        if flip:
            R = self._complement(R)
        pos = self.Ypos[R]
        old = self.E[R]
        DR = old * np.where(pos, self.sP, self.sN)
        wp = np.where(pos, DR, 0.0).sum(axis=0)
        wn = np.where(pos, 0.0, DR).sum(axis=0)
        c0, c1, zl, delta = self._stumps(wp, wn, np.full(self.k, flip))
        new = old * np.where(pos, np.exp(-delta), np.exp(delta))
        self.E[R] = new
        dE = new - old
        dEP = np.where(pos, dE, 0.0)
        dEN = np.where(pos, 0.0, dE)
        self.sumEP += dEP.sum(axis=0)
        self.sumEN += dEN.sum(axis=0)
        if len(R):
            # G += X[R]^T dE, on the features occurring in the updated documents only
            XR = self.Xc[R]
            mark = np.zeros(self.nc, dtype=bool)
            mark[XR.indices] = True
            feats = np.flatnonzero(mark)
            where = np.empty(self.nc, dtype=np.int64)
            where[feats] = np.arange(len(feats))
            XRT = sp.csr_matrix((XR.data, where[XR.indices], XR.indptr),
                                shape=(len(R), len(feats))).T.tocsr()
            self.GN[feats] += XRT @ dEN
            gp = (XRT @ sp.csr_matrix(dEP)).tocoo()
            self.GP[feats[gp.row], gp.col] += gp.data
        self._normalise()
        return p, c0, c1, zl.sum()

    def _step_mp(self):
        k = self.k
        piv = self.best_per_label()
        ptr = self.Xcc.indptr
        lens = ptr[piv + 1] - ptr[piv]
        flip = 2 * lens > self.m  # update the smaller side explicitly
        keep = np.flatnonzero(~flip)
        rows = [self.Xcc.indices[_ranges(ptr[piv[keep]], lens[keep])]]
        labs = [np.repeat(keep, lens[keep])]
        for lab in np.flatnonzero(flip):  # loop over (few) labels, not features
            comp = self._complement(self.Xcc.indices[ptr[piv[lab]]:ptr[piv[lab] + 1]])
            rows.append(comp)
            labs.append(np.full(len(comp), lab))
        rows, labs = np.concatenate(rows), np.concatenate(labs)
        pos = self.Ypos[rows, labs]
        old = self.E[rows, labs]
        d_vals = old * np.where(pos, self.sP[labs], self.sN[labs])
        wp = np.bincount(labs, weights=np.where(pos, d_vals, 0.0), minlength=k)
        wn = np.bincount(labs, weights=np.where(pos, 0.0, d_vals), minlength=k)
        c0, c1, zl, delta = self._stumps(wp, wn, flip)
        new = old * np.exp(np.where(pos, -delta[labs], delta[labs]))
        self.E[rows, labs] = new
        dE = new - old
        self.sumEP += np.bincount(labs, weights=np.where(pos, dE, 0.0), minlength=k)
        self.sumEN += np.bincount(labs, weights=np.where(pos, 0.0, dE), minlength=k)
        # G[(l, sign), f] += dE(i, l) for every updated pair (i, l) and feature f of document i
        xp = self.Xc.indptr
        dl = xp[rows + 1] - xp[rows]
        feats = self.Xc.indices[_ranges(xp[rows], dl)]
        grow = np.repeat(labs + k * (~pos), dl)
        np.add.at(self.G.reshape(-1), grow * self.nc + feats, np.repeat(dE, dl))
        self._normalise()
        return piv, c0, c1, zl


class _BaseBoost(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    _per_label = False

    def __init__(self, n_rounds: int = 1000):
        self.n_rounds = n_rounds

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = True
        tags.classifier_tags.multi_label = True
        tags.classifier_tags.poor_score = True  # binarises X: continuous toy data is hopeless
        tags.target_tags.single_output = True
        return tags

    # -- input handling --------------------------------------------------------------------
    def _binary_X(self, X, reset: bool) -> sp.csr_matrix:
        X = validate_data(self, X, reset=reset, accept_sparse=["csr", "csc", "coo"],
                          dtype=np.float64)
        X = sp.csr_matrix(X)
        X.sum_duplicates()
        if X.data.size and X.data.min() < 0:
            raise ValueError(f"Negative values in data passed to {type(self).__name__}: X must "
                             "be nonnegative (values > 0 mean 'feature present')")
        Xb = sp.csr_matrix(((X.data > 0).astype(np.float64), X.indices, X.indptr),
                           shape=X.shape)
        Xb.eliminate_zeros()
        return Xb

    def _targets(self, y) -> np.ndarray:
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None")
        if sp.issparse(y):
            y = y.toarray()
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] >= 1 and type_of_target(y) in (
                "multilabel-indicator", "binary") and set(np.unique(y)) <= {0, 1}:
            self._mode = _INDICATOR
            self.classes_ = np.arange(y.shape[1])
            return y.astype(bool)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError("y must be a 1-d label vector or a 2-d 0/1 indicator matrix")
        kind = type_of_target(y)
        if kind not in ("binary", "multiclass"):
            raise ValueError(f"Unknown label type: {kind!r}; y must be a 1-d label vector or a "
                             "2-d 0/1 indicator matrix")
        self.classes_, idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError("y has only 1 class; at least 2 classes are needed")
        if len(self.classes_) == 2:
            self._mode = _BINARY
            return (idx == 1)[:, None]
        self._mode = _MULTICLASS
        return idx[:, None] == np.arange(len(self.classes_))[None, :]

    # -- training --------------------------------------------------------------------------
    def fit(self, X, y):
        """Run ``n_rounds`` boosting rounds. ``X``: (docs x features), presence = ``X > 0``;
        ``y``: (docs x labels) 0/1 indicator, or a 1-d label vector (binarised)."""
        check_scalar(self.n_rounds, "n_rounds", Integral, min_val=1)
        Xb = self._binary_X(X, reset=True)
        Y = self._targets(y)
        if Y.shape[0] != Xb.shape[0]:
            raise ValueError(f"X has {Xb.shape[0]} rows but y has {Y.shape[0]}")
        T, k = int(self.n_rounds), Y.shape[1]
        state = _Booster(Xb, Y, self._per_label)
        piv = np.empty((T, k), dtype=np.int64)
        c0 = np.empty((T, k))
        c1 = np.empty((T, k))
        z = np.empty((T, k)) if self._per_label else np.empty(T)
        for t in range(T):
            if t and t % REFRESH_EVERY == 0:
                state.refresh()
            p, c0[t], c1[t], z[t] = state.step()
            piv[t] = state.cand[p]
        self.pivots_ = piv if self._per_label else piv[:, 0].copy()
        self.c0_, self.c1_, self.z_ = c0, c1, z
        self.n_rounds_ = T
        return self

    # -- the model as plain arrays ---------------------------------------------------------
    def _pivot_matrix(self) -> np.ndarray:
        p = self.pivots_
        return p if p.ndim == 2 else np.repeat(p[:, None], self.c0_.shape[1], axis=1)

    def _linear(self, t: int):
        """The first ``t`` rounds as ``F(x) = x @ A + b`` with sparse A (features x labels)."""
        k = self.c0_.shape[1]
        piv = self._pivot_matrix()[:t]
        delta = (self.c1_[:t] - self.c0_[:t])
        A = sp.coo_matrix((delta.ravel(), (piv.ravel(), np.tile(np.arange(k), t))),
                          shape=(self.n_features_in_, k)).tocsr()
        return A, self.c0_[:t].sum(axis=0)

    def to_arrays(self) -> dict:
        """The fitted model as a dict of plain arrays (``np.savez``-able without pickle)."""
        check_is_fitted(self, "pivots_")
        return {"pivots": self.pivots_, "c0": self.c0_, "c1": self.c1_, "z": self.z_,
                "classes": np.asarray(self.classes_), "mode": np.int64(self._mode),
                "n_features_in": np.int64(self.n_features_in_),
                "n_rounds": np.int64(self.n_rounds_)}

    @classmethod
    def from_arrays(cls, arrays) -> _BaseBoost:
        """Rebuild a fitted estimator from :meth:`to_arrays` output (or an ``np.load`` file)."""
        est = cls(n_rounds=int(arrays["n_rounds"]))
        est.pivots_ = np.asarray(arrays["pivots"], dtype=np.int64)
        est.c0_ = np.asarray(arrays["c0"], dtype=np.float64)
        est.c1_ = np.asarray(arrays["c1"], dtype=np.float64)
        est.z_ = np.asarray(arrays["z"], dtype=np.float64)
        est.classes_ = np.asarray(arrays["classes"])
        est._mode = int(arrays["mode"])
        est.n_features_in_ = int(arrays["n_features_in"])
        est.n_rounds_ = int(arrays["n_rounds"])
        if (est.pivots_.ndim == 2) != cls._per_label:
            raise ValueError(f"arrays do not hold a {cls.__name__} model")
        return est

    # -- prediction ------------------------------------------------------------------------
    def _format_scores(self, F: np.ndarray) -> np.ndarray:
        return F[:, 0].copy() if self._mode == _BINARY else F

    def _scores_to_labels(self, F: np.ndarray) -> np.ndarray:
        if self._mode == _INDICATOR:
            return (F > 0).astype(np.int64)
        if self._mode == _BINARY:
            return self.classes_[(F[:, 0] > 0).astype(np.int64)]
        return self.classes_[np.argmax(F, axis=1)]

    def decision_function(self, X) -> np.ndarray:
        """``F(x, l) = sum_t h_t(x, l)`` over all rounds: (docs x labels); (docs,) if binary."""
        return self._format_scores(self._scores(X))

    def _scores(self, X) -> np.ndarray:
        check_is_fitted(self, "pivots_")
        Xb = self._binary_X(X, reset=False)
        A, b = self._linear(self.n_rounds_)
        return (Xb @ A).toarray() + b

    def predict(self, X) -> np.ndarray:
        """Indicator (label l iff ``F(x,l) > 0``); for a 1-d ``y``: argmax class (binary:
        ``classes_[1]`` iff ``F > 0``)."""
        return self._scores_to_labels(self._scores(X))

    def staged_decision_function(self, X, rounds=None):
        """Yield the scores after each round ``t`` in ``rounds`` (ascending, 1-based; default
        every round 1..n_rounds). Incremental: each round touches only the rows holding its
        pivot(s); one (docs x labels) array is yielded per requested round (a fresh copy)."""
        check_is_fitted(self, "pivots_")
        Xb = self._binary_X(X, reset=False)
        T = self.n_rounds_
        rounds = np.arange(1, T + 1) if rounds is None else np.unique(np.asarray(rounds, int))
        if rounds.size and (rounds[0] < 1 or rounds[-1] > T):
            raise ValueError(f"rounds must lie in 1..{T}")
        Xcsc = Xb.tocsc()
        k = self.c0_.shape[1]
        piv = self._pivot_matrix()
        S = np.zeros((Xb.shape[0], k))
        bias = np.zeros(k)
        want = set(rounds.tolist())
        last = int(rounds[-1]) if rounds.size else 0
        labels = np.arange(k)
        for t in range(last):
            bias += self.c0_[t]
            delta = self.c1_[t] - self.c0_[t]
            p = piv[t]
            if self._per_label:
                lens = Xcsc.indptr[p + 1] - Xcsc.indptr[p]
                r = Xcsc.indices[_ranges(Xcsc.indptr[p], lens)]
                lab = np.repeat(labels, lens)
                S[r, lab] += delta[lab]
            else:
                r = Xcsc.indices[Xcsc.indptr[p[0]]:Xcsc.indptr[p[0] + 1]]
                S[r] += delta
            if t + 1 in want:
                yield self._format_scores(S + bias)

    def staged_predict(self, X, rounds=None):
        """Like :meth:`staged_decision_function`, yielding :meth:`predict` outputs."""
        for F in self.staged_decision_function(X, rounds):
            F2 = F[:, None] if F.ndim == 1 else F
            yield self._scores_to_labels(F2)


class AdaBoostMH(_BaseBoost):
    """AdaBoost.MH with real-valued decision stumps (Schapire & Singer 2000).

    One pivot feature per round for all labels, minimising
    ``Z = 2 sum_{j in {0,1}} sum_l sqrt(W+^{jl} W-^{jl})``; the stump outputs
    ``c_{jl} = 0.5 ln((W+^{jl} + eps)/(W-^{jl} + eps))``, ``eps = 1/(m k)``.

    Parameters
    ----------
    n_rounds : number of boosting rounds (default 1000).

    Attributes
    ----------
    pivots_ : (n_rounds,) int, the pivot feature of each round.
    c0_, c1_ : (n_rounds, n_labels) float, stump output when the pivot is absent / present.
    z_ : (n_rounds,) float, the criterion ``Z`` of each round's pivot.
    classes_ : label names (``arange(n_labels)`` for an indicator ``y``).
    """

    _per_label = False


class MPBoost(_BaseBoost):
    """MP-Boost (Esuli, Fagni & Sebastiani 2006): AdaBoost.MH with one pivot PER LABEL per round.

    Label ``l``'s pivot minimises ``Z_l = 2 sum_j sqrt(W+^{jl} W-^{jl})``; stump outputs and the
    update of ``D`` as in :class:`AdaBoostMH`.

    Attributes
    ----------
    pivots_ : (n_rounds, n_labels) int, the pivot feature of each round and label.
    c0_, c1_ : (n_rounds, n_labels) float, stump outputs (pivot absent / present).
    z_ : (n_rounds, n_labels) float, ``Z_l`` of each label's pivot.
    """

    _per_label = True
