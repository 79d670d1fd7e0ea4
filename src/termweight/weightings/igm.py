"""tf-igm's inverse gravity moment (Chen, Zhang, Long & Zhang 2016, "Turning from TF-IDF to TF-IGM
for term weighting in text classification", Expert Systems with Applications 66:245-260, eqs. 7-8):
``1 + lambda f_1 / sum_r f_r r`` over the term's class document frequencies sorted in decreasing
order, ``lambda = 7``; learned in the encode step (it reads every class at once)."""

import numpy as np

from termweight.contingency import div
from termweight.weightings import Weighting

#: lambda of tf-igm (Chen et al. 2016 recommend 5..9; 7 is their default).
LAMBDA = 7.0


def igm(tp, fp, fn, tn, lam: float = LAMBDA):
    """Inverse gravity moment weight ``1 + lambda f_1 / sum_r f_r r`` (Chen et al. 2016, ESWA 66).

    ``f_r`` are the term's class document frequencies sorted in decreasing order (``f_1`` the
    largest). Natively multi-class: with K > 1 tasks the class frequencies are the rows of ``tp``
    (one task per class) and every task gets the SAME weight; with one (binary) task they are
    ``(tp, fp)``. A term absent from training gets 1 (no class information).
    """
    f = np.stack([tp[0], fp[0]]) if tp.shape[0] == 1 else tp
    f = -np.sort(-f, axis=0)
    r = np.arange(1, f.shape[0] + 1, dtype=np.float64)[:, None]
    g = div(f[0], (f * r).sum(axis=0))
    return np.broadcast_to(1.0 + lam * g, tp.shape).copy()


def igm_weights(X_train, Y_train, scores=None) -> np.ndarray:
    """tf-igm's global weight ``1 + 7 igm`` ([`igm`][termweight.weightings.igm.igm]) from the class
    document frequencies of the training rows; the same row for every task."""
    from termweight.statistics import term_stats

    return igm(*term_stats(X_train, Y_train).cells())


WEIGHTINGS = (Weighting("igm", igm_weights, "1 + 7 f_1 / sum_r f_r r over the class document "
                        "frequencies sorted (Chen et al. 2016, tf-igm)", bases=("tf",),
                        learned=True),)
