"""Smoothed delta idf (Martineau & Finin 2009, ICWSM, "Delta TFIDF", eq. 1; Paltoglou & Thelwall
2010, ACL): ``|log2(pos (fp + 0.5) / ((tp + 0.5) neg))|`` on TF."""

import numpy as np

from termweight.contingency import div
from termweight.weightings import Weighting


def delta_idf(tp, fp, fn, tn):
    """Delta IDF (Martineau & Finin 2009, ICWSM, "Delta TFIDF", eq. 1), smoothed, sign-blind.

    ``|log2( (|P| (N_t + 0.5)) / ((P_t + 0.5) |N|) )|`` with ``P_t = tp``, ``N_t = fp``,
    ``|P| = tp + fn``, ``|N| = fp + tn``: the paper's ``log2(|P|/P_t) - log2(|N|/N_t)`` with 0.5
    added to the term's two document frequencies (Paltoglou & Thelwall 2010, ACL, "smoothed delta
    idf"). The absolute value gives a valid column scale; for a linear SVM or logistic regression
    it changes nothing (a column's sign is absorbed by its coefficient, the L2 penalty is even).
    """
    pos, neg = tp + fn, fp + tn
    ratio = div(pos * (fp + 0.5), (tp + 0.5) * neg)
    return np.abs(np.log2(ratio, out=np.zeros_like(ratio), where=ratio > 0))


WEIGHTINGS = (Weighting(
    "delta_idf", delta_idf, "abs(log2(pos (fp + 0.5) / ((tp + 0.5) neg))): smoothed delta idf "
    "(Martineau & Finin 2009; Paltoglou & Thelwall 2010)", bases=("tf",)),)
