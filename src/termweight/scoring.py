"""Feature scoring metrics from the per-term 2x2 contingency table, vectorised over tasks and terms.

Every metric is a function of the one-vs-rest cells ``tp, fp, fn, tn`` (arrays of shape
(n_tasks, n_terms), computed from training rows only by
[`term_stats`][termweight.statistics.term_stats]) with ``pos = tp + fn``, ``neg = fp + tn``,
``N = pos + neg``, ``tpr = tp/pos``, ``fpr = fp/neg``. Formulas and edge rules: see
[methods: scoring][methods-scoring] (Forman 2003, JMLR 3:1289; Forman 2008, CIKM "BNS feature
scaling"; Lan, Tan, Su & Lu 2009, IEEE TPAMI 31(4); Kim 2016, IJFIS 16(2) section 2). The
registry is [termweight.scoring.METRICS][]; each metric's one-line description is in
[termweight.scoring.METRIC_DESCRIPTIONS][] (what ``python -m termweight list metrics`` prints).

| name | formula | symmetric |
| --- | --- | --- |
| bns | ``abs(ndtri(tpr) - ndtri(fpr))``, rates clipped to [0.0005, 0.9995] | yes |
| idf | ``ln(N / (tp + fp))`` (0 for a term absent from training) | -- |
| ig | ``e(pos, neg) - [P(t) e(tp, fp) + (1 - P(t)) e(fn, tn)]``, bits | yes |
| chi2 | ``N (tp tn - fp fn)^2 / ((tp + fp)(fn + tn)(tp + fn)(fp + tn))`` | yes |
| acc | ``tp - fp`` | no |
| acc2 | ``abs(tpr - fpr)`` | yes |
| f1 | ``2 tp / (pos + tp + fp)`` | no |
| oddsnum | ``tpr (1 - fpr)`` | no |
| odds | ``tpr (1 - fpr) / ((1 - tpr) fpr)``, zero cells -> 0.5 | no |
| logodds | ``ln(tp tn / (fp fn))``, zero cells -> 0.5 | no |
| power | ``(1 - fpr)^5 - (1 - tpr)^5`` | no |
| probratio | ``tpr / fpr``, zero cells -> 0.5 | no |
| pearson | ``abs(tp tn - fp fn) / sqrt((tp + fp)(fn + tn)(tp + fn)(fp + tn))`` | yes |
| pmi | ``ln(tp N / ((tp + fp) pos))``, zero cells -> 0.5 | no |
| dfreq | ``tp + fp`` | -- |
| none | ``1`` (no scaling) | -- |
| rf | ``log2(2 + tp / max(1, fp))`` (Lan et al. 2009, relevance frequency) | -- |
| kim_idf | as idf (Kim 2016) | -- |
| kim_chi2 | as chi2 (Kim 2016) | -- |
| kim_ig | mutual information of term and class in nats (Kim 2016, as printed) | -- |
| kim_rf | ``ln(2 + tp / max(1, fp))`` (Kim 2016's rf, natural log) | -- |
| kim_or | ``tp tn / (fn fp)``, zero cells -> 0.5 (Kim 2016, no swap) | -- |
| delta_idf | ``abs(log2(pos (fp + 0.5) / ((tp + 0.5) neg)))`` (Martineau & Finin 2009, smoothed) | -- |

Asymmetric metrics ("no") are made sign-blind as Forman does: where a term is negatively correlated
(``tpr < fpr``) the cells are swapped ``tp<->fn, fp<->tn`` before scoring, so strong negative
indicators score high too. "Zero cells -> 0.5" replaces every zero count among tp, fp, fn, tn by 0.5
before the formula. Chi2 and Pearson are 0 where a margin is 0. ``rf`` is Lan et al.'s relevance
frequency with ``a = tp`` (positive documents containing the term) and ``c = fp`` (negative
documents containing it), base-2 logarithm as in the paper; ``kim_rf`` is the same ratio with the
natural logarithm as Kim (2016) prints it. Kim's other base weights are the remaining ``kim_*``
entries: idf; chi2; ig with natural logarithms as printed (Kim eq. in section 2, which is the mutual
information in nats); or ``tp tn / (fn fp)`` with zero cells -> 0.5 (no swap: Kim uses them as
printed).

[`scaling_weights`][termweight.scoring.scaling_weights] turns any score into a valid column scale:
finite and >= 0.

Multi-class and multi-label targets ([`one_vs_rest`][termweight.scoring.one_vs_rest],
[`combine_tasks`][termweight.scoring.combine_tasks], [`term_scores`][termweight.scoring.term_scores];
used by ``SupervisedScaler`` and ``SelectByScore``): a binary target is ONE task, ``y == positive``
(1 for 0/1 or boolean labels, else the larger label); K > 2 classes are K one-vs-rest tasks and a
label-indicator matrix one task per column. The per-task scores ``s[c, t]`` become one global score
per term by a rule of Yang & Pedersen (1997, ICML, "A comparative study on feature selection in
text categorization", section 2.3):

| rule | formula | note |
| --- | --- | --- |
| max | ``s_t = max_c s[c, t]`` | chi2_max; a term strong for any one class scores high |
| avg | ``s_t = sum_c P(c) s[c, t]``, ``P(c) = pos_c / sum_c pos_c`` | chi2_avg; class-prior weighted |

With one task both rules return that task's scores unchanged (binary results are bit-identical).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtri

from termweight.errors import ConfigError
from termweight.statistics import TermStats, term_stats

BNS_CLIP = (0.0005, 0.9995)


def _div(a, b):
    """``a / b`` with 0 where ``b == 0``."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    out = np.zeros(a.shape, dtype=np.float64)
    np.divide(a, b, out=out, where=b != 0)
    return out


def _half(*cells):
    """Replace zero counts by 0.5 (the edge rule of odds ratio, log odds, probability ratio, PMI)."""
    return tuple(np.where(c == 0, 0.5, c) for c in cells)


def _rates(tp, fp, fn, tn):
    return _div(tp, tp + fn), _div(fp, fp + tn)


def _entropy2(x, y):
    """Binary entropy in bits of the split (x, y); 0 log 0 = 0."""
    n = x + y
    px, py = _div(x, n), _div(y, n)
    return -(_xlog2x(px) + _xlog2x(py))


def _xlog2x(p):
    out = np.zeros_like(p)
    np.multiply(p, np.log2(p, out=np.zeros_like(p), where=p > 0), out=out, where=p > 0)
    return out


def _xlogx_ratio(a, num, den):
    """``a * log(num/den)`` with 0 where a == 0 (natural log)."""
    out = np.zeros_like(a)
    ok = (a > 0) & (num > 0) & (den > 0)
    out[ok] = a[ok] * np.log(num[ok] / den[ok])
    return out


# --- symmetric metrics -------------------------------------------------------------------------

def bns(tp, fp, fn, tn):
    tpr, fpr = _rates(tp, fp, fn, tn)
    lo, hi = BNS_CLIP
    return np.abs(ndtri(np.clip(tpr, lo, hi)) - ndtri(np.clip(fpr, lo, hi)))


def idf(tp, fp, fn, tn):
    n = tp + fp + fn + tn
    df = tp + fp
    return np.log(_div(n, df), out=np.zeros_like(df), where=df > 0)


def ig(tp, fp, fn, tn):
    n = tp + fp + fn + tn
    pt = _div(tp + fp, n)
    return _entropy2(tp + fn, fp + tn) - (pt * _entropy2(tp, fp) + (1 - pt) * _entropy2(fn, tn))


def chi2(tp, fp, fn, tn):
    n = tp + fp + fn + tn
    return _div(n * (tp * tn - fp * fn) ** 2, (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn))


def acc2(tp, fp, fn, tn):
    tpr, fpr = _rates(tp, fp, fn, tn)
    return np.abs(tpr - fpr)


def pearson(tp, fp, fn, tn):
    den = np.sqrt((tp + fp) * (fn + tn) * (tp + fn) * (fp + tn))
    return _div(np.abs(tp * tn - fp * fn), den)


def dfreq(tp, fp, fn, tn):
    return tp + fp


def none(tp, fp, fn, tn):
    return np.ones_like(tp)


# --- asymmetric metrics (applied after the negative-feature swap) ------------------------------

def acc(tp, fp, fn, tn):
    return tp - fp


def f1(tp, fp, fn, tn):
    return _div(2 * tp, (tp + fn) + tp + fp)


def oddsnum(tp, fp, fn, tn):
    tpr, fpr = _rates(tp, fp, fn, tn)
    return tpr * (1 - fpr)


def odds(tp, fp, fn, tn):
    tp, fp, fn, tn = _half(tp, fp, fn, tn)
    tpr, fpr = _rates(tp, fp, fn, tn)
    return tpr * (1 - fpr) / ((1 - tpr) * fpr)


def logodds(tp, fp, fn, tn):
    tp, fp, fn, tn = _half(tp, fp, fn, tn)
    return np.log((tp * tn) / (fp * fn))


def power(tp, fp, fn, tn, k: int = 5):
    tpr, fpr = _rates(tp, fp, fn, tn)
    return (1 - fpr) ** k - (1 - tpr) ** k


def probratio(tp, fp, fn, tn):
    tp, fp, fn, tn = _half(tp, fp, fn, tn)
    tpr, fpr = _rates(tp, fp, fn, tn)
    return tpr / fpr


def pmi(tp, fp, fn, tn):
    tp, fp, fn, tn = _half(tp, fp, fn, tn)
    n = tp + fp + fn + tn
    return np.log(tp * n / ((tp + fp) * (tp + fn)))


# --- Kim (2016) base weights, as printed ---------------------------------------------------------

def kim_ig(tp, fp, fn, tn):
    """Kim section 2: sum over the four cells of ``P(cell) log(P(cell) / (P(class) P(f)))``, nats."""
    n = tp + fp + fn + tn
    pos, neg = tp + fn, fp + tn
    return (_xlogx_ratio(tp, n * tp, pos * (tp + fp)) + _xlogx_ratio(fn, n * fn, pos * (fn + tn))
            + _xlogx_ratio(fp, n * fp, neg * (tp + fp))
            + _xlogx_ratio(tn, n * tn, neg * (fn + tn))) / np.where(n > 0, n, 1)


def rf(tp, fp, fn, tn):
    """Relevance frequency ``log2(2 + tp / max(1, fp))`` (Lan, Tan, Su & Lu 2009, TPAMI 31(4))."""
    return np.log2(2.0 + tp / np.maximum(1.0, fp))


def kim_rf(tp, fp, fn, tn):
    """Kim (2016)'s rf ``ln(2 + tp / max(1, fp))`` (natural log; Lan et al.'s ``rf`` is log2)."""
    return np.log(2 + tp / np.maximum(1.0, fp))


def kim_or(tp, fp, fn, tn):
    """Kim (2016)'s odds ratio ``tp tn / (fn fp)``, zero cells -> 0.5, no swap."""
    tp, fp, fn, tn = _half(tp, fp, fn, tn)
    return tp * tn / (fn * fp)


def delta_idf(tp, fp, fn, tn):
    """Delta IDF (Martineau & Finin 2009, ICWSM, "Delta TFIDF", eq. 1), smoothed, sign-blind.

    ``|log2( (|P| (N_t + 0.5)) / ((P_t + 0.5) |N|) )|`` with ``P_t = tp``, ``N_t = fp``,
    ``|P| = tp + fn``, ``|N| = fp + tn``: the paper's ``log2(|P|/P_t) - log2(|N|/N_t)`` with 0.5
    added to the term's two document frequencies (Paltoglou & Thelwall 2010, ACL, "smoothed delta
    idf"). The absolute value gives a valid column scale; for a linear SVM or logistic regression
    it changes nothing (a column's sign is absorbed by its coefficient, the L2 penalty is even).
    """
    pos, neg = tp + fn, fp + tn
    ratio = _div(pos * (fp + 0.5), (tp + 0.5) * neg)
    return np.abs(np.log2(ratio, out=np.zeros_like(ratio), where=ratio > 0))


Metric = Callable[..., np.ndarray]

#: name -> (function of the cells, whether the negative-feature swap applies)
METRICS: dict[str, tuple[Metric, bool]] = {
    "none": (none, False), "idf": (idf, False), "bns": (bns, False), "ig": (ig, False),
    "chi2": (chi2, False), "acc": (acc, True), "acc2": (acc2, False), "f1": (f1, True),
    "oddsnum": (oddsnum, True), "odds": (odds, True), "logodds": (logodds, True),
    "power": (power, True), "probratio": (probratio, True), "pearson": (pearson, False),
    "pmi": (pmi, True), "dfreq": (dfreq, False), "rf": (rf, False),
    "kim_idf": (idf, False), "kim_chi2": (chi2, False), "kim_ig": (kim_ig, False),
    "kim_rf": (kim_rf, False), "kim_or": (kim_or, False), "delta_idf": (delta_idf, False),
}

#: a benchmark column runs one metric of this table (and idf): it depends on that metric's
#: function and on the table's text (its swap flags), not on the other functions the table
#: names (termweight.pipeline.codedeps)
PER_ITEM = ("METRICS",)

#: name -> one line (formula and source) per metric of ``METRICS``: what ``python -m termweight
#: list metrics`` prints; ``register_weighting`` adds an entry for a new metric.
METRIC_DESCRIPTIONS: dict[str, str] = {
    "none": "1: no scaling",
    "idf": "ln(N / (tp + fp)), 0 for a term absent from training (inverse document frequency)",
    "bns": "abs(ndtri(tpr) - ndtri(fpr)), rates clipped to [0.0005, 0.9995] (Forman 2008, BNS)",
    "ig": "information gain e(pos, neg) - [P(t) e(tp, fp) + (1 - P(t)) e(fn, tn)], bits "
          "(Forman 2003)",
    "chi2": "N (tp tn - fp fn)^2 / ((tp + fp)(fn + tn)(tp + fn)(fp + tn)), 0 where a margin is 0",
    "acc": "tp - fp (Forman 2003, accuracy)",
    "acc2": "abs(tpr - fpr) (Forman 2003, balanced accuracy)",
    "f1": "2 tp / (pos + tp + fp) (Forman 2003)",
    "oddsnum": "tpr (1 - fpr) (Forman 2003, odds-ratio numerator)",
    "odds": "tpr (1 - fpr) / ((1 - tpr) fpr), zero cells -> 0.5 (odds ratio)",
    "logodds": "ln(tp tn / (fp fn)), zero cells -> 0.5 (log odds ratio)",
    "power": "(1 - fpr)^5 - (1 - tpr)^5 (Forman 2003, power)",
    "probratio": "tpr / fpr, zero cells -> 0.5 (probability ratio)",
    "pearson": "abs(tp tn - fp fn) / sqrt((tp + fp)(fn + tn)(tp + fn)(fp + tn)) (Pearson "
               "correlation)",
    "pmi": "ln(tp N / ((tp + fp) pos)), zero cells -> 0.5 (pointwise mutual information)",
    "dfreq": "tp + fp (document frequency)",
    "rf": "log2(2 + tp / max(1, fp)) (Lan, Tan, Su & Lu 2009, relevance frequency)",
    "kim_idf": "ln(N / (tp + fp)), as idf (Kim 2016's idf base weight)",
    "kim_chi2": "as chi2 (Kim 2016's chi2 base weight)",
    "kim_ig": "sum over the four cells of P(cell) ln(P(cell) / (P(class) P(term))), nats "
              "(Kim 2016's ig, as printed)",
    "kim_rf": "ln(2 + tp / max(1, fp)) (Kim 2016's rf, natural log; Lan et al.'s rf is log2)",
    "kim_or": "tp tn / (fn fp), zero cells -> 0.5, no swap (Kim 2016's odds-ratio base weight)",
    "delta_idf": "abs(log2(pos (fp + 0.5) / ((tp + 0.5) neg))): smoothed delta idf "
                 "(Martineau & Finin 2009; Paltoglou & Thelwall 2010)",
}

#: Forman (2008)'s 15 scaling choices, in the paper's order.
FORMAN_SCALINGS = ("none", "idf", "bns", "ig", "chi2", "acc", "acc2", "f1", "oddsnum", "odds",
                   "logodds", "power", "probratio", "pearson", "pmi")
#: Kim (2016)'s five base weightings.
KIM_BASES = ("kim_idf", "kim_chi2", "kim_ig", "kim_rf", "kim_or")


class UnknownMetricError(ConfigError, ValueError):
    """A metric name not in ``METRICS``: a ``ConfigError`` for the CLI, a ``ValueError`` for
    scikit-learn code (``GridSearchCV(error_score=...)``, ``pytest.raises(ValueError)``)."""


def check_metric(name) -> None:
    """Raise ``UnknownMetricError`` (a ``ValueError``) naming the known metrics unless ``name``
    is a key of [termweight.scoring.METRICS][], the one registry every component resolves metric
    names in."""
    if not isinstance(name, str) or name not in METRICS:
        raise UnknownMetricError(
            f"unknown metric {name!r}; known metrics: {', '.join(sorted(METRICS))}")


def swap_negative(tp, fp, fn, tn):
    """Forman's swap: where ``tpr < fpr`` exchange tp<->fn and fp<->tn."""
    tpr, fpr = _rates(tp, fp, fn, tn)
    neg = tpr < fpr
    return (np.where(neg, fn, tp), np.where(neg, tn, fp), np.where(neg, tp, fn),
            np.where(neg, fp, tn))


def score_cells(name: str, tp, fp, fn, tn) -> np.ndarray:
    """Score every (task, term) cell table with metric ``name`` (see the module table)."""
    check_metric(name)
    func, asymmetric = METRICS[name]
    cells = [np.asarray(c, dtype=np.float64) for c in (tp, fp, fn, tn)]
    if asymmetric:
        cells = swap_negative(*cells)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return func(*cells)


def score(name: str, stats: TermStats) -> np.ndarray:
    """Scores (n_classes, n_terms) of metric ``name`` for every one-vs-rest task of ``stats``."""
    return score_cells(name, *stats.cells())


def scaling_weights(name: str, stats: TermStats) -> np.ndarray:
    """Column scales for supervised scaling: [`as_scaling_weights`][termweight.scoring.as_scaling_weights]
    of the score."""
    return as_scaling_weights(score(name, stats))


def as_scaling_weights(s) -> np.ndarray:
    """Make scores valid column scales: finite and >= 0.

    NaN -> 0, +inf -> the largest finite value of that task, negatives -> 0 (e.g. Acc = tp - fp is
    negative for a rare-class term even after the swap). With the edge rules above only Acc can
    produce a negative and no metric produces NaN or inf; the guard keeps that a guarantee.
    """
    s = np.asarray(s, dtype=np.float64)
    s = np.where(np.isnan(s), 0.0, s)
    finite_max = np.max(np.where(np.isfinite(s), s, 0.0), axis=-1, keepdims=True)
    s = np.where(np.isposinf(s), finite_max, s)
    return np.maximum(s, 0.0)


# --- multi-class / multi-label targets -----------------------------------------------------------

#: Rules that turn per-task scores (n_tasks, n_terms) into one score per term (module docstring).
COMBINE_RULES = ("max", "avg")


def one_vs_rest(y) -> tuple[sp.csr_matrix, np.ndarray]:
    """Task indicator ``Y`` (n_samples, n_tasks) and task labels of a classification target ``y``.

    Binary ``y`` (at most two distinct values): one task ``y == positive``, ``positive = 1`` when
    the labels are 0/1 or boolean (also if a fold holds one class only), else the larger label.
    K > 2 classes: K tasks ``y == c`` over the sorted classes. A 2-d 0/1 label-indicator matrix
    (multi-label): one task per column, labels ``0 .. n_labels - 1``.
    """
    from sklearn.utils.multiclass import check_classification_targets, type_of_target

    if sp.issparse(y) or (np.ndim(y) == 2 and np.shape(y)[1] > 1):
        if type_of_target(y) != "multilabel-indicator":
            raise ValueError("a 2-d target must be a 0/1 label-indicator matrix (multi-label)")
        Y = sp.csr_matrix(y, dtype=np.float64)
        return Y, np.arange(Y.shape[1])
    y = np.asarray(y)
    y = y.ravel() if y.ndim == 2 else y
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.size <= 2:
        positive = 1 if np.isin(classes, [0, 1]).all() else classes[-1]
        return sp.csr_matrix((y == positive).astype(np.float64)[:, None]), np.array([positive])
    onehot = (y[:, None] == classes[None, :]).astype(np.float64)
    return sp.csr_matrix(onehot), classes


def combine_tasks(scores, rule: str = "max", pos=None) -> np.ndarray:
    """One score per term from per-task scores (n_tasks, n_terms) (module docstring table).

    ``max``: ``s_t = max_c s[c, t]``; ``avg``: ``s_t = sum_c P(c) s[c, t]`` with the class prior
    ``P(c) = pos[c] / sum(pos)`` (uniform when ``pos`` is None or sums to 0). One task: its row.
    """
    s = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    if rule not in COMBINE_RULES:
        raise ValueError(f"unknown combination rule {rule!r}; choose from {', '.join(COMBINE_RULES)}")
    if s.shape[0] == 1:
        return s[0].copy()
    if rule == "max":
        return s.max(axis=0)
    p = np.ones(s.shape[0]) if pos is None else np.asarray(pos, dtype=np.float64)
    p = p / p.sum() if p.sum() > 0 else np.full(s.shape[0], 1.0 / s.shape[0])
    return p @ s


def term_scores(name: str, X, y, combine: str = "max", scaling: bool = False):
    """Scores of metric ``name`` for the one-vs-rest tasks of ``y`` on rows X.

    The tasks are those of [`one_vs_rest`][termweight.scoring.one_vs_rest]. Returns
    ``(per_task, combined)``: (n_tasks, n_terms) scores
    ([`as_scaling_weights`][termweight.scoring.as_scaling_weights] of them if ``scaling``) and
    [`combine_tasks`][termweight.scoring.combine_tasks] of those with the class prior of ``y``.
    """
    check_metric(name)
    Y, _ = one_vs_rest(y)
    stats = term_stats(X, Y)
    s = score(name, stats)
    if scaling:
        s = as_scaling_weights(s)
    return s, combine_tasks(s, combine, stats.pos)


# --- the benchmark's term weightings (experiment family `benchmark`, termweight.weighting) ------

#: lambda of tf-igm (Chen et al. 2016 recommend 5..9; 7 is their default).
IGM_LAMBDA = 7.0


def igm(tp, fp, fn, tn, lam: float = IGM_LAMBDA):
    """Inverse gravity moment weight ``1 + lambda f_1 / sum_r f_r r`` (Chen et al. 2016, ESWA 66).

    K. Chen, Z. Zhang, J. Long, H. Zhang, "Turning from TF-IDF to TF-IGM for term weighting in text
    classification", Expert Systems with Applications 66:245-260, eqs. 7-8: ``f_r`` are the term's
    class document frequencies sorted in decreasing order (``f_1`` the largest), ``lambda = 7``.
    Natively multi-class: with K > 1 tasks the class frequencies are the rows of ``tp`` (one task
    per class) and every task gets the SAME weight; with one (binary) task they are ``(tp, fp)``.
    Not in ``METRICS`` (it is no function of one task's cells): the benchmark's ``tf-igm``
    calls it from ``termweight.weighting.igm_weights``.
    A term absent from training gets 1 (no class information).
    """
    f = np.stack([tp[0], fp[0]]) if tp.shape[0] == 1 else tp
    f = -np.sort(-f, axis=0)
    r = np.arange(1, f.shape[0] + 1, dtype=np.float64)[:, None]
    g = _div(f[0], (f * r).sum(axis=0))
    return np.broadcast_to(1.0 + lam * g, tp.shape).copy()


#: The benchmark's supervised column scalings: metric -> the base encodings it scales (encoding
#: ``<base>-<metric>``). Forman's 15 on binary and TF, Kim's five on cosine-normalised TF (his
#: documents). ``register_weighting`` adds one: it then enters ``weightings: all``.
WEIGHTINGS: dict[str, tuple[str, ...]] = {m: ("binary", "tf") for m in FORMAN_SCALINGS}
WEIGHTINGS.update({m: ("ntf",) for m in KIM_BASES})
WEIGHTINGS["delta_idf"] = ("tf",)  # Martineau & Finin (2009)'s delta idf scales TF


def register_weighting(name: str, func: Metric, asymmetric: bool = False,
                       bases: tuple[str, ...] = ("tf",), description: str | None = None) -> Metric:
    """Register ``func(tp, fp, fn, tn)`` as metric ``name`` and as a benchmark weighting.

    The one place a new weighting is added: it enters [termweight.scoring.METRICS][],
    [termweight.scoring.WEIGHTINGS][] (on ``bases``) and, with ``description`` (else the first
    line of ``func``'s docstring), [termweight.scoring.METRIC_DESCRIPTIONS][].

    Parameters
    ----------
    name : str
        The metric's name.
    func : callable
        ``func(tp, fp, fn, tn) -> scores``, vectorised over (n_tasks, n_terms) arrays.
    asymmetric : bool, default=False
        Apply Forman's negative-feature swap before scoring.
    bases : tuple of str, default=("tf",)
        The benchmark's base encodings it scales.
    description : str or None, default=None
        One line for ``python -m termweight list metrics``.

    Returns
    -------
    func : callable
        ``func`` unchanged.
    """
    METRICS[name] = (func, asymmetric)
    WEIGHTINGS[name] = tuple(bases)
    doc = (func.__doc__ or "").strip().splitlines()
    METRIC_DESCRIPTIONS[name] = description or (doc[0] if doc else "(no description)")
    return func


# tf-igm is not a per-(task, term) cell metric (it reads every class's frequency at once): it is
# computed from the training statistics in the encode step (termweight.weighting.LEARNED).


def _load_weighting_modules() -> None:
    """Import every module of [termweight.weightings][] (each registers its weightings). The
    import is dynamic on purpose: a stage depends on such a module only through the benchmark
    column or experiment that names its weighting (``code_by`` in workflow/stages.yaml)."""
    import importlib
    import pkgutil

    from termweight import weightings

    for info in sorted(pkgutil.iter_modules(weightings.__path__), key=lambda i: i.name):
        importlib.import_module(f"{weightings.__name__}.{info.name}")


_load_weighting_modules()
