"""Pearson correlation ``|tp tn - fp fn| / sqrt((tp + fp)(fn + tn)(tp + fn)(fp + tn))`` of term and
class (Forman 2003, JMLR 3:1289), 0 where a margin is 0."""

import numpy as np

from termweight.contingency import div
from termweight.weightings import Weighting


def pearson(tp, fp, fn, tn):
    """``abs(tp tn - fp fn) / sqrt((tp + fp)(fn + tn)(tp + fn)(fp + tn))``."""
    den = np.sqrt((tp + fp) * (fn + tn) * (tp + fn) * (fp + tn))
    return div(np.abs(tp * tn - fp * fn), den)


WEIGHTINGS = (Weighting(
    "pearson", pearson, "abs(tp tn - fp fn) / sqrt((tp + fp)(fn + tn)(tp + fn)(fp + tn)) (Pearson "
    "correlation)", bases=("binary", "tf")),)
