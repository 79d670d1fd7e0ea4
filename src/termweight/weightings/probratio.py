"""Probability ratio ``tpr / fpr`` (Forman 2003, JMLR 3:1289), zero cells -> 0.5, after the
negative-feature swap."""

from termweight.contingency import half, rates
from termweight.weightings import Weighting


def probratio(tp, fp, fn, tn):
    """``tpr / fpr`` on the cells with zeros replaced by 0.5."""
    tp, fp, fn, tn = half(tp, fp, fn, tn)
    tpr, fpr = rates(tp, fp, fn, tn)
    return tpr / fpr


WEIGHTINGS = (Weighting("probratio", probratio, "tpr / fpr, zero cells -> 0.5 (probability ratio)",
                        asymmetric=True, bases=("binary", "tf")),)
