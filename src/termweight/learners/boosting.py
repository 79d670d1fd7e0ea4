"""AdaBoost.MH with real-valued decision stumps and MP-Boost on binary (presence) features.

AdaBoost.MH: Schapire & Singer, "BoosTexter", Machine Learning 39 (2000), the real-valued
(non-abstaining) weak hypotheses with smoothing ``eps``. MP-Boost: Esuli, Fagni & Sebastiani,
SPIRE 2006, as implemented by its authors in MP-Boost++ (github.com/aesuli/mp-boost,
``adaboostmhmodel.cpp``, ``mpboostmodel.cpp``, ``distribution.cpp``). See
[methods: learners][methods-learners].

Weights ``D(i,l)`` over (document, label) pairs start at ``1/(m k)``. In round ``t``, for a
feature ``w`` split the documents into ``X1`` (``w`` present) and ``X0`` (absent) and let
``W+^{jl}`` / ``W-^{jl}`` be the weight of pairs in ``Xj`` whose label ``l`` is positive /
negative. The stump on ``w`` predicts ``c_{jl} = 0.5 ln((W+^{jl} + eps) / (W-^{jl} + eps))``
with ``eps = 1/(m k)`` (MP-Boost++: ``epsilon = 1/(categoryCount exampleCount)``), and

- AdaBoost.MH picks ONE pivot minimising ``Z = 2 sum_j sum_l sqrt(W+^{jl} W-^{jl})``;
- MP-Boost picks one pivot PER LABEL minimising ``Z_l = 2 sum_j sqrt(W+^{jl} W-^{jl})``.

Then ``D(i,l) <- D(i,l) exp(-Y_il h(x_i,l))`` with ``Y`` in {-1,+1}, renormalised:

- AdaBoost.MH: over all pairs, ``sum_il D = 1`` (MP-Boost++ ``Distribution::Normalize``);
- MP-Boost (``normalize="label"``, default): per label, ``sum_i D(i,l) = 1/k``, at the start and
  after every round (MP-Boost++ ``Distribution::NormalizeByColumn``). ``normalize="global"`` is
  termweight's earlier reading (renormalise over all pairs, as AdaBoost.MH; the methods page says
  only "as AdaBoost.MH, but ... a pivot term PER LABEL"); no published text we could read specifies
  either. Per-label renormalisation matters because ``eps`` is the same for every label: with it,
  a label whose pairs are mostly classified right keeps weight ``1/k`` against ``eps``.

The recorded ``z_`` is the criterion value ``Z`` (``Z_l``) of the chosen pivot(s). Label ``l`` is
assigned iff ``sum_t h_t(x,l) > 0``. MP-Boost++ multiplies by ``pow(2.7182818285, .)``; we use
``exp`` (a relative difference below ``2e-11`` per factor).

Ties: MP-Boost++ takes the first feature (in index order) with a strictly smaller criterion, i.e.
the LOWEST index among exact ties. Here features whose criterion is within a relative ``1e-9`` of
the minimum count as tied (``TIE_RTOL``) and the lowest index wins; this makes the choice immune
to last-bit rounding differences between summation orders.

Speed: write ``D(i,l) = s_{l,sign(Y_il)} E(i,l)``. A round multiplies every pair by
``exp(-Y c_{0l})`` (absorbed in the per-label scales ``s``) and only the pairs of the documents
containing the pivot by the extra ``exp(-Y (c_{1l} - c_{0l}))`` (changes ``E``). Hence
``G+ = X^T (E * Y+)`` and ``G- = X^T (E * Y-)`` (features x labels) change only by a sparse
product over the pivot's documents, ``W+^{1} = s+ G+``, ``W^{0} = totals - W^{1}``, and ``Z`` of
every feature and label is a few vectorised numpy passes. Both normalisations only rescale ``s``.
When the pivot occurs in more than half of the documents the roles flip (the scales take
``c_{1l}``, the absent side is updated explicitly), so a round touches at most ``m/2`` documents
per label. ``G`` is recomputed from scratch every ``REFRESH_EVERY`` rounds to bound rounding drift.
In between, the positive (negative) part of a label whose weight has collapsed -- the weight that
came and went there since its last refresh exceeds ``MAX_CANCEL`` times ``max(its weight, eps)``
-- has its total and ``G`` row recomputed exactly, so totals and ``G`` keep ~1e-10 relative
precision. Incremental sums otherwise cancel: per-label normalisation keeps a rare label's ``c``
large, and its few positives shrink by ``exp(-2c)`` round after round (without the check the
MP-Boost state on Reuters ModApte turned NaN by round 7). ``MAX_CANCEL = inf`` disables it.

Memory: the state is ``G+``, ``G-`` (2 x features x labels), ``E`` (documents x labels, float64),
the 0/1 structure of ``X`` (CSR and CSC indices sharing one all-ones data array) and ``Y``; every
temporary is bounded by blocks (``_CHUNK`` features, ``_TRIPLES`` scatter-add entries) rather than
by features x labels. All arithmetic is float64 and single threaded (sparse products and numpy
ufuncs; no BLAS), so results do not depend on core count.
"""

from __future__ import annotations

import time
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, check_scalar, validate_data

from termweight.learners._checks import verbose_every, warn_if_trivial

__all__ = ["AdaBoostMH", "MPBoost"]

TIE_RTOL = 1e-9
REFRESH_EVERY = 100
NORMALIZE = ("label", "global")
_CHUNK = 1024  # features per block of the criterion and of the G recomputation
_UPDATE_CHUNK = 1024  # features per block of the AdaBoost.MH G update
_TRIPLES = 1 << 17  # MP-Boost: (pair, feature) entries per scatter-add batch
_ROWS = 1024  # documents per block when folding the scales into E
_LABELS = 8  # labels per block of a per-label refresh
MAX_CANCEL = 1e6  # partial refresh when weight this many times the current came and went

# label modes: how ``y`` was given to ``fit`` (stored in the .npz as an int)
_INDICATOR, _MULTICLASS, _BINARY = 0, 1, 2


def _ranges(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenate ``arange(s, s + n)`` for each (s, n), vectorised."""
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(lens)
    out = np.repeat(starts - (ends - lens), lens).astype(np.int64, copy=False)
    out += np.arange(total, dtype=np.int64)
    return out


def _stump_values(wp1, wn1, wp0, wn0, eps):
    """``c_{jl} = 0.5 ln((W+ + eps)/(W- + eps))`` for j = 0, 1 and the criterion terms."""
    c1 = 0.5 * np.log((wp1 + eps) / (wn1 + eps))
    c0 = 0.5 * np.log((wp0 + eps) / (wn0 + eps))
    zl = 2.0 * (np.sqrt(wp1 * wn1) + np.sqrt(wp0 * wn0))
    return c0, c1, zl


def _select_columns(Xb: sp.csr_matrix, cols: np.ndarray) -> sp.csr_matrix:
    """``Xb[:, cols]`` for sorted ``cols`` (same values, sorted indices); ``Xb`` itself if all."""
    n = Xb.shape[1]
    if len(cols) == n:
        return Xb
    new = np.full(n, -1, dtype=Xb.indices.dtype)
    new[cols] = np.arange(len(cols), dtype=Xb.indices.dtype)
    mapped = new[Xb.indices]
    keep = mapped >= 0
    indptr = np.concatenate([[0], np.cumsum(keep)])[Xb.indptr]
    return sp.csr_matrix((Xb.data[keep], mapped[keep], indptr), shape=(Xb.shape[0], len(cols)))


class _Booster:
    """The training state of one run (AdaBoost.MH if ``per_label`` is False, else MP-Boost).

    ``D(i,l) = s_{l,sign} E(i,l)``; ``GP = X^T (E * Y+)``, ``GN = X^T (E * Y-)`` are stored
    features x labels for AdaBoost.MH (dense per-round update over the pivot's documents) and
    labels x features for MP-Boost (scatter-add of one entry per (pair, feature) triple).
    ``normalize``: ``"global"`` (sum of D = 1) or ``"label"`` (each label's column sums to 1/k).
    """

    def __init__(self, Xb: sp.csr_matrix, Y: np.ndarray, per_label: bool,
                 normalize: str = "global"):
        m, n = Xb.shape
        k = Y.shape[1]
        self.m, self.k, self.per_label = m, k, per_label
        self.by_label = normalize == "label"
        self.eps = 1.0 / (m * k)
        df = np.bincount(Xb.indices, minlength=n)
        # Features absent from all or present in all documents give the same (no-split) stump;
        # keep only the lowest-indexed of them as a candidate.
        trivial = (df == 0) | (df == m)
        cand = np.flatnonzero(~trivial)
        if trivial.any():
            cand = np.sort(np.append(cand, np.flatnonzero(trivial)[0]))
        self.cand = cand
        self.nc = nc = len(cand)
        # 0/1 structure only: CSR and CSC share one all-ones data array
        Xc = _select_columns(Xb, cand)
        self.ones = ones = Xc.data if np.all(Xc.data == 1.0) else np.ones(Xc.nnz)
        self.Xc = sp.csr_matrix((ones, Xc.indices, Xc.indptr), shape=Xc.shape)
        self.Xc.has_sorted_indices = True
        # int8 twin for row selections and transpositions (1 byte per entry, not 8)
        self.Xc8 = sp.csr_matrix((np.ones(Xc.nnz, dtype=np.int8), Xc.indices, Xc.indptr),
                                 shape=Xc.shape)
        Xcc = self.Xc8.tocsc()  # sorted indices (documents ascending in each column)
        self.Xcc = sp.csc_matrix((ones, Xcc.indices, Xcc.indptr), shape=Xcc.shape)
        self.Xcc.has_sorted_indices = True
        del Xc, Xcc
        if per_label:  # total length of the documents holding each feature (batch sizes)
            doclen = np.diff(self.Xc.indptr).astype(np.float64)
            self.featlen = self.Xcc.T @ doclen
            self.totlen = float(doclen.sum())
        self.Ypos = np.ascontiguousarray(Y, dtype=bool)
        self.E = np.ones((m, k))
        self.sP = np.full(k, self.eps)
        self.sN = np.full(k, self.eps)
        self.n_partial_refreshes = 0
        if per_label:  # one contiguous block so that the flat scatter-add can address both
            self.G = np.zeros((2 * k, nc))
            self.GP, self.GN = self.G[:k], self.G[k:]
        else:
            self.GP, self.GN = np.zeros((nc, k)), np.zeros((nc, k))
        self.refresh()

    # -- state -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Fold the scales into ``E``, renormalise, recompute ``G+``, ``G-`` and the totals."""
        m, k, E = self.m, self.k, self.E
        for a in range(0, m, _ROWS):  # E becomes D (elementwise, in row blocks)
            E[a:a + _ROWS] *= np.where(self.Ypos[a:a + _ROWS], self.sP, self.sN)
        if self.by_label:  # MP-Boost++ NormalizeByColumn: column l sums to 1/k
            E /= E.sum(axis=0) * k
        else:
            E /= E.sum()
        E *= m * k
        self.sP[:] = self.eps
        self.sN[:] = self.eps
        r, c = np.nonzero(self.Ypos)
        vals = E[r, c]
        self.sumEP = np.bincount(c, weights=vals, minlength=k)  # in document order
        EP = sp.csr_matrix((vals, (r, c)), shape=(m, k))  # E * Y+ (sparse: ~1 label/doc)
        E[r, c] = 0.0  # E is E * Y- until restored below (no documents x labels temporary)
        self.sumEN = E.sum(axis=0)
        XcT = self.Xcc.T  # features x documents, CSR
        for a in range(0, self.nc, _CHUNK):
            b = min(self.nc, a + _CHUNK)
            blk = XcT[a:b]
            gp = (blk @ EP).toarray()
            gn = blk @ E
            if self.per_label:
                self.GP[:, a:b], self.GN[:, a:b] = gp.T, gn.T
            else:
                self.GP[a:b], self.GN[a:b] = gp, gn
        E[r, c] = vals
        self.magP, self.magN = self.sumEP.copy(), self.sumEN.copy()

    def refresh_part(self, labels: np.ndarray, positive: bool) -> None:
        """For the positive (negative) pairs of ``labels``: fold ``s_{l,+}`` (``s_{l,-}``) into
        ``E`` (``E <- E s / eps``, ``s <- eps``, so D is unchanged) and recompute their total and
        ``G+`` (``G-``) rows exactly."""
        s = self.sP if positive else self.sN
        for a in range(0, len(labels), _LABELS):
            lab = labels[a:a + _LABELS]
            f = s[lab] / self.eps
            if positive:  # few pairs: sparse
                r, c = np.nonzero(self.Ypos[:, lab])
                vals = self.E[r, lab[c]] * f[c]
                self.E[r, lab[c]] = vals
                self.sumEP[lab] = np.bincount(c, weights=vals, minlength=len(lab))
                M = sp.csr_matrix((vals, (c, r)), shape=(len(lab), self.m))
                g = (M @ self.Xc).toarray()  # labels x features
                self.magP[lab] = self.sumEP[lab]
            else:
                neg = ~self.Ypos[:, lab]
                cols = self.E[:, lab]
                cols *= np.where(neg, f, 1.0)
                self.E[:, lab] = cols
                cols[~neg] = 0.0
                self.sumEN[lab] = cols.sum(axis=0)
                g = (self.Xcc.T @ cols).T
                self.magN[lab] = self.sumEN[lab]
            G = self.GP if positive else self.GN
            if self.per_label:
                G[lab] = g
            else:
                G[:, lab] = g.T
            s[lab] = self.eps
        self.n_partial_refreshes += len(labels)

    def _track(self, wp, wn, sP_old, sN_old, dP, dN) -> None:
        """Add ``sum E_old + sum E_new`` of the updated pairs per label and sign (from the
        explicit side's ``W = s_old sum E_old`` and the change ``sum dE``)."""
        self.magP += 2.0 * wp / sP_old + dP
        self.magN += 2.0 * wn / sN_old + dN

    def _check_precision(self) -> None:
        """Refresh the (label, sign) parts whose incremental total and ``G`` may have lost
        precision: the weight that came and went there since the last refresh, ``s mag``,
        exceeds ``MAX_CANCEL`` times ``max(current weight s sum, eps)``; rounding error is then
        below ~``2e-16 MAX_CANCEL`` of that (a cancellation check, e.g. when the few positives
        of a rare label all shrink by ``exp(-2 c)`` round after round)."""
        if MAX_CANCEL == np.inf:  # disabled: only the periodic refresh, as before this check
            return
        for positive, s, mag, tot in ((True, self.sP, self.magP, self.sumEP),
                                      (False, self.sN, self.magN, self.sumEN)):
            bad = ~(s * mag <= MAX_CANCEL * np.maximum(s * tot, self.eps))  # also NaN / inf
            if bad.any():
                self.refresh_part(np.flatnonzero(bad), positive)

    def distribution(self) -> np.ndarray:
        """The current ``D`` (m x k)."""
        return self.E * np.where(self.Ypos, self.sP, self.sN)

    # -- criterion -------------------------------------------------------------------------
    def _chunks(self, clip: bool):
        """Yield (block, sqrt(W+^1 W-^1) + sqrt(W+^0 W-^0)) over contiguous blocks of G.

        AdaBoost.MH (features x labels): blocks of ``_CHUNK`` features. MP-Boost (labels x
        features): blocks of whole label rows."""
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
        buf = np.empty((3, min(step, n_rows), width))
        for a in range(0, n_rows, step):
            b = min(n_rows, a + step)
            blk = slice(a, b)
            w1p, w1n, w0p = buf[0, :b - a], buf[1, :b - a], buf[2, :b - a]
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
        piv = np.empty(self.k, dtype=np.int64)
        # always clip: the scatter-added G of MP-Boost drifts to tiny negatives more often
        for blk, zl in self._chunks(True):
            zmin = zl.min(axis=1)
            piv[blk] = np.argmax(zl <= (zmin * (1.0 + TIE_RTOL))[:, None], axis=1)
        return piv

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
        if self.by_label:  # each label's column of D sums to 1/k
            norm = (self.sP * self.sumEP + self.sN * self.sumEN) * self.k
        else:
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
        neg = ~pos
        old = self.E[R]
        a = np.where(pos, self.sP, self.sN)
        a *= old  # D of the updated rows
        wp, wn = a.sum(axis=0, where=pos), a.sum(axis=0, where=neg)
        sP_old, sN_old = self.sP.copy(), self.sN.copy()
        c0, c1, zl, delta = self._stumps(wp, wn, np.full(self.k, flip))
        np.copyto(a, np.exp(delta))
        np.copyto(a, np.exp(-delta), where=pos)
        a *= old  # new E of the updated rows
        self.E[R] = a
        np.subtract(a, old, out=old)  # dE
        del a
        dP, dN = old.sum(axis=0, where=pos), old.sum(axis=0, where=neg)
        self.sumEP += dP
        self.sumEN += dN
        if len(R):
            r, c = np.nonzero(pos)
            vals = old[r, c]
            nz = vals != 0.0
            dEP = sp.csr_matrix((vals[nz], (r[nz], c[nz])), shape=old.shape)
            old[r, c] = 0.0  # dE * Y-
            self._add_rows(R, dEP, old)
        self._normalise()
        self._track(wp, wn, sP_old, sN_old, dP, dN)
        self._check_precision()
        return p, c0, c1, zl.sum()

    def _add_rows(self, R: np.ndarray, dEP: sp.csr_matrix, dEN: np.ndarray) -> None:
        """``G+ += X[R]^T dEP``, ``G- += X[R]^T dEN`` on the features of the rows ``R`` only."""
        XR = self.Xc8[R]
        mark = np.zeros(self.nc, dtype=bool)
        mark[XR.indices] = True
        feats = np.flatnonzero(mark)
        where = np.empty(self.nc, dtype=XR.indices.dtype)
        where[feats] = np.arange(len(feats))
        XRT = sp.csr_matrix((XR.data, where[XR.indices], XR.indptr),
                            shape=(len(R), len(feats))).T.tocsr()  # int8 structure
        del XR, where, mark
        XRT = sp.csr_matrix((self.ones[:XRT.nnz], XRT.indices, XRT.indptr), shape=XRT.shape)
        for a in range(0, len(feats), _UPDATE_CHUNK):
            b = min(len(feats), a + _UPDATE_CHUNK)
            blk, fb = XRT[a:b], feats[a:b]
            self.GN[fb] += blk @ dEN
            gp = (blk @ dEP).tocoo()
            self.GP[fb[gp.row], gp.col] += gp.data

    def _pairs(self, piv, flip, labels):
        """(documents, labels) of the explicitly updated pairs of ``labels`` (ascending): the
        pivot's documents, or their complement where ``flip``; per label in document order."""
        ptr = self.Xcc.indptr
        lf = labels[flip[labels]]
        lk = labels[~flip[labels]]
        lens = ptr[piv[lk] + 1] - ptr[piv[lk]]
        rows = [self.Xcc.indices[_ranges(ptr[piv[lk]], lens)]]
        labs = [np.repeat(lk, lens)]
        for lab in lf:  # loop over (few) flipped labels, not features
            comp = self._complement(self.Xcc.indices[ptr[piv[lab]]:ptr[piv[lab] + 1]])
            rows.append(comp)
            labs.append(np.full(len(comp), lab))
        return np.concatenate(rows), np.concatenate(labs)

    def _batches(self, piv, flip):
        """Labels in batches of at most ~``_TRIPLES`` scatter-add entries (whole labels)."""
        ptr = self.Xcc.indptr
        lens = ptr[piv + 1] - ptr[piv]
        cost = np.where(flip, self.totlen - self.featlen[piv], self.featlen[piv])
        cost = cost + np.where(flip, self.m - lens, lens)
        cut = np.cumsum(cost) // _TRIPLES
        edges = np.flatnonzero(np.diff(cut)) + 1
        return np.split(np.arange(self.k), edges)

    def _step_mp(self):
        k, nc = self.k, self.nc
        piv = self.best_per_label()
        ptr = self.Xcc.indptr
        flip = 2 * (ptr[piv + 1] - ptr[piv]) > self.m  # update the smaller side explicitly
        batches = self._batches(piv, flip)
        E, Yf = self.E.reshape(-1), self.Ypos.reshape(-1)  # flat views: pair (i, l) = i k + l
        wp, wn = np.zeros(k), np.zeros(k)
        for labels in batches:  # W of the explicit side; each label lies in one batch
            rows, labs = self._pairs(piv, flip, labels)
            fi = rows * k + labs
            pos = Yf[fi]
            d_vals = E[fi] * np.where(pos, self.sP[labs], self.sN[labs])
            wp[labels] = np.bincount(labs, weights=np.where(pos, d_vals, 0.0),
                                     minlength=k)[labels]
            wn[labels] = np.bincount(labs, weights=np.where(pos, 0.0, d_vals),
                                     minlength=k)[labels]
        sP_old, sN_old = self.sP.copy(), self.sN.copy()
        c0, c1, zl, delta = self._stumps(wp, wn, flip)
        dP, dN = np.zeros(k), np.zeros(k)
        Gflat = self.G.reshape(-1)
        for labels in batches:
            rows, labs = self._pairs(piv, flip, labels)
            fi = rows * k + labs
            pos = Yf[fi]
            old = E[fi]
            new = old * np.exp(np.where(pos, -delta[labs], delta[labs]))
            E[fi] = new
            dE = new - old
            del old, new, fi
            dP[labels] = np.bincount(labs, weights=np.where(pos, dE, 0.0), minlength=k)[labels]
            dN[labels] = np.bincount(labs, weights=np.where(pos, 0.0, dE), minlength=k)[labels]
            self.sumEP[labels] += dP[labels]
            self.sumEN[labels] += dN[labels]
            # G[(l, sign), f] += dE(i, l) for every updated pair (i, l), feature f of document i
            XR = self.Xc8[rows]  # the documents' features, in order (sorted per document)
            dl = np.diff(XR.indptr)
            idx = np.repeat((labs + k * (~pos)) * nc, dl)
            idx += XR.indices
            del XR
            np.add.at(Gflat, idx, np.repeat(dE, dl))
        self._normalise()
        self._track(wp, wn, sP_old, sN_old, dP, dN)
        self._check_precision()
        return piv, c0, c1, zl


class _BaseBoost(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    _per_label = False

    def __init__(self, n_rounds: int = 1000, verbose: int = 0):
        self.n_rounds = n_rounds
        self.verbose = verbose

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
        """``X > 0`` as CSR with all-ones data and sorted indices; ``X`` itself is not altered
        (its index arrays are shared when it is canonical CSR without explicit zeros)."""
        X = validate_data(self, X, reset=reset, accept_sparse=["csr", "csc", "coo"],
                          dtype=np.float64)
        X = sp.csr_matrix(X)
        if not X.has_canonical_format:  # sum_duplicates works in place: on a copy
            X = X.copy()
            X.sum_duplicates()
        if X.data.size and X.data.min() < 0:
            raise ValueError(f"Negative values in data passed to {type(self).__name__}: X must "
                             "be nonnegative (values > 0 mean 'feature present')")
        present = X.data > 0
        if present.all():
            indices, indptr = X.indices, X.indptr
        else:
            indices = X.indices[present]
            indptr = np.concatenate([[0], np.cumsum(present)])[X.indptr]
        Xb = sp.csr_matrix((np.ones(len(indices)), indices, indptr), shape=X.shape)
        Xb.has_sorted_indices = True
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
    def _normalization(self) -> str:
        return "global"

    def fit(self, X, y):
        """Run ``n_rounds`` boosting rounds.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Documents; presence = ``X > 0``.
        y : array-like of shape (n_samples,) or (n_samples, n_labels)
            A label vector (binarised), or a 0/1 label-indicator matrix (multi-label).

        Returns
        -------
        self : object
            The fitted estimator.
        """
        check_scalar(self.n_rounds, "n_rounds", Integral, min_val=1)
        check_scalar(self.verbose, "verbose", Integral, min_val=0)
        Xb = self._binary_X(X, reset=True)
        Y = self._targets(y)
        if Y.shape[0] != Xb.shape[0]:
            raise ValueError(f"X has {Xb.shape[0]} rows but y has {Y.shape[0]}")
        T, k = int(self.n_rounds), Y.shape[1]
        state = _Booster(Xb, Y, self._per_label, self._normalization())
        piv = np.empty((T, k), dtype=np.int64)
        c0 = np.empty((T, k))
        c1 = np.empty((T, k))
        z = np.empty((T, k)) if self._per_label else np.empty(T)
        every = verbose_every(self.verbose, T)
        t0 = time.perf_counter()
        for t in range(T):
            if t and t % REFRESH_EVERY == 0:
                state.refresh()
            p, c0[t], c1[t], z[t] = state.step()
            piv[t] = state.cand[p]
            if every and ((t + 1) % every == 0 or t + 1 == T):
                print(f"[{type(self).__name__}] round {t + 1}/{T}: Z = {np.mean(z[t]):.6g} "
                      f"({time.perf_counter() - t0:.1f} s)", flush=True)
        self.pivots_ = piv if self._per_label else piv[:, 0].copy()
        self.c0_, self.c1_, self.z_ = c0, c1, z
        self.n_rounds_ = T
        A, b = self._linear(T)
        warn_if_trivial(type(self).__name__, Y, self._scores_to_labels((Xb @ A).toarray() + b),
                        hint="more rounds, or features that occur in the training rows")
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
        """Rebuild a fitted estimator from ``to_arrays`` output (or an ``np.load`` file)."""
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
        est._set_arrays_params(arrays)
        return est

    def _set_arrays_params(self, arrays) -> None:
        """Restore estimator parameters stored by ``to_arrays`` (besides ``n_rounds``)."""

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
        """Like ``staged_decision_function``, yielding ``predict`` outputs."""
        for F in self.staged_decision_function(X, rounds):
            F2 = F[:, None] if F.ndim == 1 else F
            yield self._scores_to_labels(F2)


class AdaBoostMH(_BaseBoost):
    """AdaBoost.MH with real-valued decision stumps (Schapire & Singer 2000).

    One pivot feature per round for all labels, minimising
    ``Z = 2 sum_{j in {0,1}} sum_l sqrt(W+^{jl} W-^{jl})``; the stump outputs
    ``c_{jl} = 0.5 ln((W+^{jl} + eps)/(W-^{jl} + eps))``, ``eps = 1/(m k)`` (module docstring;
    [methods: learners][methods-learners]). Features are binarised (``X > 0``).

    Parameters
    ----------
    n_rounds : int, default=1000
        Number of boosting rounds.
    verbose : int, default=0
        0: silent; 1: about ten progress lines (round, ``Z``, seconds); 2: every round.

    Attributes
    ----------
    pivots_ : ndarray of shape (n_rounds,)
        The pivot feature of each round.
    c0_, c1_ : ndarray of shape (n_rounds, n_labels)
        Stump output when the pivot is absent / present.
    z_ : ndarray of shape (n_rounds,)
        The criterion ``Z`` of each round's pivot.
    classes_ : ndarray
        Label names (``arange(n_labels)`` for an indicator ``y``).

    Warns
    -----
    TrivialModelWarning
        When the fitted model predicts the same for every training row although the training
        labels differ (boosting has no convergence criterion: ``n_rounds`` are always run).

    References
    ----------
    Schapire & Singer (2000), "BoosTexter: A boosting-based system for text categorization",
    Machine Learning 39.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.learners import AdaBoostMH
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 1, 0]])
    >>> y = np.array(["a", "a", "b", "b"])
    >>> AdaBoostMH(n_rounds=5).fit(X, y).predict(X)
    array(['a', 'a', 'b', 'b'], dtype='<U1')
    """

    _per_label = False


class MPBoost(_BaseBoost):
    """MP-Boost (Esuli, Fagni & Sebastiani 2006): AdaBoost.MH with one pivot PER LABEL per round.

    Label ``l``'s pivot minimises ``Z_l = 2 sum_j sqrt(W+^{jl} W-^{jl})``; stump outputs
    ``c_{jl} = 0.5 ln((W+^{jl} + eps)/(W-^{jl} + eps))``, ``eps = 1/(m k)``, and the update
    ``D(i,l) <- D(i,l) exp(-Y_il h(x_i,l))`` as in
    [`AdaBoostMH`][termweight.learners.boosting.AdaBoostMH]; then ``D`` is renormalised as
    ``normalize`` says ([methods: learners][methods-learners]).

    Parameters
    ----------
    n_rounds : int, default=1000
        Number of boosting rounds.
    normalize : {"label", "global"}, default="label"
        ``"label"``: every label's column of ``D`` sums to ``1/k``, at the start and after every
        round, as the authors' MP-Boost++ does (``NormalizeByColumn``); ``"global"``: ``D`` sums
        to 1 over all pairs (termweight's earlier reading of "as AdaBoost.MH"; no published
        description we could read specifies it).
    verbose : int, default=0
        0: silent; 1: about ten progress lines (round, mean ``Z_l``, seconds); 2: every round.

    Attributes
    ----------
    pivots_ : ndarray of shape (n_rounds, n_labels)
        The pivot feature of each round and label.
    c0_, c1_ : ndarray of shape (n_rounds, n_labels)
        Stump outputs (pivot absent / present).
    z_ : ndarray of shape (n_rounds, n_labels)
        ``Z_l`` of each label's pivot.
    classes_ : ndarray
        Label names (``arange(n_labels)`` for an indicator ``y``).

    Warns
    -----
    TrivialModelWarning
        When the fitted model predicts the same for every training row although the training
        labels differ.

    References
    ----------
    Esuli, Fagni & Sebastiani (2006), "MP-Boost: A multiple-pivot boosting algorithm and its
    application to text categorization", SPIRE 2006.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight.learners import MPBoost
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 1, 0]])
    >>> Y = np.array([[1, 0], [1, 0], [0, 1], [1, 1]])
    >>> MPBoost(n_rounds=5).fit(X, Y).predict(X)
    array([[1, 0],
           [1, 0],
           [0, 1],
           [1, 1]])
    """

    _per_label = True

    def __init__(self, n_rounds: int = 1000, normalize: str = "label", verbose: int = 0):
        self.n_rounds = n_rounds
        self.normalize = normalize
        self.verbose = verbose

    def _normalization(self) -> str:
        if not isinstance(self.normalize, str) or self.normalize not in NORMALIZE:
            raise ValueError(f"normalize must be one of {NORMALIZE}; got {self.normalize!r}")
        return self.normalize

    def to_arrays(self) -> dict:
        """The fitted model as a dict of plain arrays, with ``normalize`` as a 0-d str array."""
        return {**super().to_arrays(), "normalize": np.asarray(self.normalize)}

    def _set_arrays_params(self, arrays) -> None:
        # files written before the parameter existed hold globally normalised models
        self.normalize = str(arrays["normalize"]) if "normalize" in arrays else "global"
