"""Relevance frequency ``log2(2 + tp / max(1, fp))`` (Lan, Tan, Su & Lu 2009, IEEE TPAMI 31(4)):
a metric only (no benchmark encoding; Kim's natural-log variant is ``kim_rf``)."""

import numpy as np

from termweight.weightings import Weighting


def rf(tp, fp, fn, tn):
    """Relevance frequency ``log2(2 + tp / max(1, fp))`` (Lan, Tan, Su & Lu 2009, TPAMI 31(4))."""
    return np.log2(2.0 + tp / np.maximum(1.0, fp))


WEIGHTINGS = (Weighting("rf", rf, "log2(2 + tp / max(1, fp)) (Lan, Tan, Su & Lu 2009, relevance "
                        "frequency)"),)
