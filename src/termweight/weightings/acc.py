"""Accuracy ``tp - fp`` (Forman 2003, JMLR 3:1289), after the negative-feature swap."""

from termweight.weightings import Weighting


def acc(tp, fp, fn, tn):
    """``tp - fp``."""
    return tp - fp


WEIGHTINGS = (Weighting("acc", acc, "tp - fp (Forman 2003, accuracy)", asymmetric=True,
                        bases=("binary", "tf")),)
