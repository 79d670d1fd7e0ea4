"""Balanced accuracy ``|tpr - fpr|`` (Forman 2003, JMLR 3:1289)."""

import numpy as np

from termweight.contingency import rates
from termweight.weightings import Weighting


def acc2(tp, fp, fn, tn):
    """``abs(tpr - fpr)``."""
    tpr, fpr = rates(tp, fp, fn, tn)
    return np.abs(tpr - fpr)


WEIGHTINGS = (Weighting("acc2", acc2, "abs(tpr - fpr) (Forman 2003, balanced accuracy)",
                        bases=("binary", "tf")),)
