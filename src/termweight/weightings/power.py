"""Power ``(1 - fpr)^k - (1 - tpr)^k`` with ``k = 5`` (Forman 2003, JMLR 3:1289), after the
negative-feature swap."""

from termweight.contingency import rates
from termweight.weightings import Weighting


def power(tp, fp, fn, tn, k: int = 5):
    """``(1 - fpr)^k - (1 - tpr)^k``."""
    tpr, fpr = rates(tp, fp, fn, tn)
    return (1 - fpr) ** k - (1 - tpr) ** k


WEIGHTINGS = (Weighting("power", power, "(1 - fpr)^5 - (1 - tpr)^5 (Forman 2003, power)",
                        asymmetric=True, bases=("binary", "tf")),)
