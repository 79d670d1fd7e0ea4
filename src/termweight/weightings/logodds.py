"""Log odds ratio ``ln(tp tn / (fp fn))`` (Forman 2003, JMLR 3:1289), zero cells -> 0.5, after the
negative-feature swap."""

import numpy as np

from termweight.contingency import half
from termweight.weightings import Weighting


def logodds(tp, fp, fn, tn):
    """``ln(tp tn / (fp fn))`` on the cells with zeros replaced by 0.5."""
    tp, fp, fn, tn = half(tp, fp, fn, tn)
    return np.log((tp * tn) / (fp * fn))


WEIGHTINGS = (Weighting("logodds", logodds, "ln(tp tn / (fp fn)), zero cells -> 0.5 (log odds "
                        "ratio)", asymmetric=True, bases=("binary", "tf")),)
