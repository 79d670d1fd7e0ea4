"""Pointwise mutual information ``ln(tp N / ((tp + fp) pos))`` (Forman 2003, JMLR 3:1289), zero
cells -> 0.5, after the negative-feature swap."""

import numpy as np

from termweight.contingency import half
from termweight.weightings import Weighting


def pmi(tp, fp, fn, tn):
    """``ln(tp N / ((tp + fp) pos))`` on the cells with zeros replaced by 0.5."""
    tp, fp, fn, tn = half(tp, fp, fn, tn)
    n = tp + fp + fn + tn
    return np.log(tp * n / ((tp + fp) * (tp + fn)))


WEIGHTINGS = (Weighting("pmi", pmi, "ln(tp N / ((tp + fp) pos)), zero cells -> 0.5 (pointwise "
                        "mutual information)", asymmetric=True, bases=("binary", "tf")),)
