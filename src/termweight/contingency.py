"""Arithmetic on the one-vs-rest 2x2 contingency cells ``tp, fp, fn, tn`` that every term
scoring function shares (arrays of shape (n_tasks, n_terms), from
[`term_stats`][termweight.statistics.term_stats]), and the unsupervised scores read from them.

The weightings themselves are modules of [termweight.weightings][], one file each; this module
holds what all of them use, so that editing one weighting reruns only what computes with it.
"""

from __future__ import annotations

import numpy as np


def div(a, b):
    """``a / b`` with 0 where ``b == 0``."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    out = np.zeros(a.shape, dtype=np.float64)
    np.divide(a, b, out=out, where=b != 0)
    return out


def half(*cells):
    """Replace zero counts by 0.5 (the edge rule of odds ratio, log odds, probability ratio, PMI)."""
    return tuple(np.where(c == 0, 0.5, c) for c in cells)


def rates(tp, fp, fn, tn):
    """``tpr = tp / pos``, ``fpr = fp / neg`` (0 where the class is empty)."""
    return div(tp, tp + fn), div(fp, fp + tn)


def xlog2x(p):
    """``p log2 p`` with ``0 log 0 = 0``."""
    out = np.zeros_like(p)
    np.multiply(p, np.log2(p, out=np.zeros_like(p), where=p > 0), out=out, where=p > 0)
    return out


def entropy2(x, y):
    """Binary entropy in bits of the split (x, y); 0 log 0 = 0."""
    n = x + y
    px, py = div(x, n), div(y, n)
    return -(xlog2x(px) + xlog2x(py))


def xlogx_ratio(a, num, den):
    """``a * ln(num / den)`` with 0 where ``a == 0`` (or ``num``, ``den`` not positive)."""
    out = np.zeros_like(a)
    ok = (a > 0) & (num > 0) & (den > 0)
    out[ok] = a[ok] * np.log(num[ok] / den[ok])
    return out


# --- the unsupervised scores (no class information; every encoding with idf uses them) ---------

def idf(tp, fp, fn, tn):
    """``ln(N / (tp + fp))``, 0 for a term absent from training (inverse document frequency)."""
    n = tp + fp + fn + tn
    df = tp + fp
    return np.log(div(n, df), out=np.zeros_like(df), where=df > 0)


def dfreq(tp, fp, fn, tn):
    """``tp + fp`` (document frequency)."""
    return tp + fp


def none(tp, fp, fn, tn):
    """``1``: no scaling."""
    return np.ones_like(tp)
