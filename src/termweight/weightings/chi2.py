"""Chi-squared ``N (tp tn - fp fn)^2 / ((tp + fp)(fn + tn)(tp + fn)(fp + tn))`` (Forman 2003,
JMLR 3:1289), 0 where a margin is 0."""

from termweight.contingency import div
from termweight.weightings import Weighting


def chi2(tp, fp, fn, tn):
    """Chi-squared statistic of the 2x2 table, 0 where a margin is 0."""
    n = tp + fp + fn + tn
    return div(n * (tp * tn - fp * fn) ** 2, (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn))


WEIGHTINGS = (Weighting(
    "chi2", chi2, "N (tp tn - fp fn)^2 / ((tp + fp)(fn + tn)(tp + fn)(fp + tn)), 0 where a margin "
    "is 0", bases=("binary", "tf")),)
