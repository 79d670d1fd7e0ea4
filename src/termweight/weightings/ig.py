"""Information gain in bits ``e(pos, neg) - [P(t) e(tp, fp) + (1 - P(t)) e(fn, tn)]`` (Forman 2003,
JMLR 3:1289), ``e`` the binary entropy."""

from termweight.contingency import div, entropy2
from termweight.weightings import Weighting


def ig(tp, fp, fn, tn):
    """Information gain of the term for the task, bits (Forman 2003)."""
    n = tp + fp + fn + tn
    pt = div(tp + fp, n)
    return entropy2(tp + fn, fp + tn) - (pt * entropy2(tp, fp) + (1 - pt) * entropy2(fn, tn))


WEIGHTINGS = (Weighting(
    "ig", ig, "information gain e(pos, neg) - [P(t) e(tp, fp) + (1 - P(t)) e(fn, tn)], bits "
    "(Forman 2003)", bases=("binary", "tf")),)
