"""F1 of the term as a classifier ``2 tp / (pos + tp + fp)`` (Forman 2003, JMLR 3:1289), after the
negative-feature swap."""

from termweight.contingency import div
from termweight.weightings import Weighting


def f1(tp, fp, fn, tn):
    """``2 tp / (pos + tp + fp)``."""
    return div(2 * tp, (tp + fn) + tp + fp)


WEIGHTINGS = (Weighting("f1", f1, "2 tp / (pos + tp + fp) (Forman 2003)", asymmetric=True,
                        bases=("binary", "tf")),)
