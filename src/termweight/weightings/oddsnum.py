"""Odds-ratio numerator ``tpr (1 - fpr)`` (Forman 2003, JMLR 3:1289), after the negative-feature
swap."""

from termweight.contingency import rates
from termweight.weightings import Weighting


def oddsnum(tp, fp, fn, tn):
    """``tpr (1 - fpr)``."""
    tpr, fpr = rates(tp, fp, fn, tn)
    return tpr * (1 - fpr)


WEIGHTINGS = (Weighting("oddsnum", oddsnum, "tpr (1 - fpr) (Forman 2003, odds-ratio numerator)",
                        asymmetric=True, bases=("binary", "tf")),)
