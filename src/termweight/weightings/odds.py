"""Odds ratio ``tpr (1 - fpr) / ((1 - tpr) fpr)`` (Forman 2003, JMLR 3:1289), zero cells -> 0.5,
after the negative-feature swap."""

from termweight.contingency import half, rates
from termweight.weightings import Weighting


def odds(tp, fp, fn, tn):
    """``tpr (1 - fpr) / ((1 - tpr) fpr)`` on the cells with zeros replaced by 0.5."""
    tp, fp, fn, tn = half(tp, fp, fn, tn)
    tpr, fpr = rates(tp, fp, fn, tn)
    return tpr * (1 - fpr) / ((1 - tpr) * fpr)


WEIGHTINGS = (Weighting("odds", odds, "tpr (1 - fpr) / ((1 - tpr) fpr), zero cells -> 0.5 (odds "
                        "ratio)", asymmetric=True, bases=("binary", "tf")),)
