"""Kim (2016, IJFIS 16(2), section 2)'s five base weightings as printed, and mix-ch, which learns a
convex combination of them per task (eq. 2).

``kim_idf`` is idf and ``kim_chi2`` is chi2 (the same formulas; tests/test_weighting_formulas.py
checks them equal); ``kim_ig`` is the mutual information of term and class in nats, ``kim_rf``
Lan et al.'s relevance frequency with the natural logarithm, ``kim_or`` the odds ratio with zero
cells -> 0.5 and no swap. On cosine-normalised TF (``ntf``) the first three give the rows of
tfidf, tf-chi2 and tf-ig (``termweight.weighting.UNIT_LENGTH_ALIASES``).
"""

import numpy as np

from termweight.contingency import div, half, idf, xlogx_ratio
from termweight.weightings import Weighting

#: Kim's five bases, the weightings mix-ch combines
BASES = ("kim_idf", "kim_chi2", "kim_ig", "kim_rf", "kim_or")


def kim_chi2(tp, fp, fn, tn):
    """Chi-squared ``N (tp tn - fp fn)^2 / ((tp + fp)(fn + tn)(tp + fn)(fp + tn))``, 0 where a margin
    is 0 (Kim 2016's chi2 base weight)."""
    n = tp + fp + fn + tn
    return div(n * (tp * tn - fp * fn) ** 2, (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn))


def kim_ig(tp, fp, fn, tn):
    """Kim section 2: sum over the four cells of ``P(cell) log(P(cell) / (P(class) P(f)))``, nats."""
    n = tp + fp + fn + tn
    pos, neg = tp + fn, fp + tn
    return (xlogx_ratio(tp, n * tp, pos * (tp + fp)) + xlogx_ratio(fn, n * fn, pos * (fn + tn))
            + xlogx_ratio(fp, n * fp, neg * (tp + fp))
            + xlogx_ratio(tn, n * tn, neg * (fn + tn))) / np.where(n > 0, n, 1)


def kim_rf(tp, fp, fn, tn):
    """Kim (2016)'s rf ``ln(2 + tp / max(1, fp))`` (natural log; Lan et al.'s ``rf`` is log2)."""
    return np.log(2 + tp / np.maximum(1.0, fp))


def kim_or(tp, fp, fn, tn):
    """Kim (2016)'s odds ratio ``tp tn / (fn fp)``, zero cells -> 0.5, no swap."""
    tp, fp, fn, tn = half(tp, fp, fn, tn)
    return tp * tn / (fn * fp)


def mixch_weights(X_train, Y_train, scores, C: float = 1.0, max_iter: int = 10, tol: float = 1e-3,
                  bases=BASES) -> np.ndarray:
    """Per-task column scales ``b_c = sum_j alpha_cj b_cj`` learned by Kim's mix-ch (2016, eq. 2).

    ``b_cj``: the scaling weights of Kim's five bases for task ``c`` (from ``scores``, the training
    statistics), each rescaled so that the weighted training documents have unit root-mean-square
    norm (``1 / sqrt(mean_i ||b_cj * x_i||^2)``, vectorised over bases, tasks and terms);
    ``alpha_c`` from ``termweight.learners.kim.MixCH`` (hinge-loss SVM, C, no intercept)
    fitted on the training rows ``X_train`` of task ``c`` only. A task without a training
    positive or negative gets ``alpha = 1/J``.
    """
    import scipy.sparse as sp

    from termweight.learners.kim import MixCH
    from termweight.scoring import as_scaling_weights

    X = sp.csr_matrix(X_train, dtype=np.float64)
    Y = sp.csc_matrix(Y_train)
    B = np.stack([as_scaling_weights(scores[b]) for b in bases])  # (J, K, T)
    colsq = np.asarray(X.multiply(X).sum(axis=0)).ravel()
    rms = np.sqrt((B**2 @ colsq) / max(X.shape[0], 1))  # (J, K)
    B = B * np.divide(1.0, rms, out=np.zeros_like(rms), where=rms > 0)[:, :, None]
    out = B.mean(axis=0)
    for c in range(Y.shape[1]):
        y = (Y[:, c].toarray().ravel() > 0).astype(np.int64)
        if y.all() or not y.any():
            continue
        model = MixCH(base_weights=B[:, c, :], C=C, max_iter=max_iter, tol=tol).fit(X, y)
        out[c] = model.weights_
    return out


WEIGHTINGS = (
    Weighting("kim_idf", idf, "ln(N / (tp + fp)), as idf (Kim 2016's idf base weight)",
              bases=("ntf",)),
    Weighting("kim_chi2", kim_chi2, "as chi2 (Kim 2016's chi2 base weight)", bases=("ntf",)),
    Weighting("kim_ig", kim_ig, "sum over the four cells of P(cell) ln(P(cell) / (P(class) "
              "P(term))), nats (Kim 2016's ig, as printed)", bases=("ntf",)),
    Weighting("kim_rf", kim_rf, "ln(2 + tp / max(1, fp)) (Kim 2016's rf, natural log; Lan et al.'s "
              "rf is log2)", bases=("ntf",)),
    Weighting("kim_or", kim_or, "tp tn / (fn fp), zero cells -> 0.5, no swap (Kim 2016's "
              "odds-ratio base weight)", bases=("ntf",)),
    Weighting("mixch", mixch_weights, "a convex combination of Kim's five bases per task, learned "
              "by a hinge-loss SVM (Kim 2016, mix-ch, eq. 2)", bases=("ntf",), learned=True,
              needs=BASES),
)
