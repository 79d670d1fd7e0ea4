"""Bi-Normal Separation ``|F^-1(tpr) - F^-1(fpr)|`` (Forman 2003, JMLR 3:1289; Forman 2008, CIKM,
"BNS feature scaling"), ``F^-1`` the standard normal quantile, rates clipped to [0.0005, 0.9995]."""

import numpy as np
from scipy.special import ndtri

from termweight.contingency import rates
from termweight.weightings import Weighting

#: Forman's clip of the rates (a rate of 0 or 1 has an infinite quantile)
CLIP = (0.0005, 0.9995)


def bns(tp, fp, fn, tn):
    """``abs(ndtri(tpr) - ndtri(fpr))``, rates clipped to ``CLIP`` (Forman 2008)."""
    tpr, fpr = rates(tp, fp, fn, tn)
    lo, hi = CLIP
    return np.abs(ndtri(np.clip(tpr, lo, hi)) - ndtri(np.clip(fpr, lo, hi)))


WEIGHTINGS = (Weighting(
    "bns", bns, "abs(ndtri(tpr) - ndtri(fpr)), rates clipped to [0.0005, 0.9995] (Forman 2008, BNS)",
    bases=("binary", "tf")),)
