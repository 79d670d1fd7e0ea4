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

from termweight import weightings as _weightings
from termweight.contingency import dfreq, idf, none, rates
from termweight.runner.errors import ConfigError
from termweight.statistics import TermStats, term_stats

Metric = Callable[..., np.ndarray]

#: the unsupervised rows (the weightings are modules of termweight.weightings, one file each)
_CORE = (
    _weightings.Weighting("none", none, "1: no scaling", bases=("binary", "tf")),
    _weightings.Weighting("idf", idf, "ln(N / (tp + fp)), 0 for a term absent from training "
                          "(inverse document frequency)", bases=("binary", "tf")),
    _weightings.Weighting("dfreq", dfreq, "tp + fp (document frequency)"),
)
#: name -> (module of termweight.weightings, or None for the rows above; its row)
ROWS: dict[str, tuple[str | None, _weightings.Weighting]] = {
    **{w.name: (None, w) for w in _CORE}, **_weightings.rows()}

#: Forman (2008)'s 15 scaling choices, in the paper's order.
FORMAN_SCALINGS = ("none", "idf", "bns", "ig", "chi2", "acc", "acc2", "f1", "oddsnum", "odds",
                   "logodds", "power", "probratio", "pearson", "pmi")
#: Kim (2016)'s five base weightings (the ones mix-ch combines: termweight.weightings.kim).
KIM_BASES = ROWS["mixch"][1].needs


#: the rows in the benchmark's order: Forman's 15, Kim's five, then the others by module
_ROWS_IN_ORDER = [(n, ROWS[n]) for n in dict.fromkeys([*FORMAN_SCALINGS, *KIM_BASES, *ROWS])]

#: name -> (function of the cells, whether the negative-feature swap applies)
METRICS: dict[str, tuple[Metric, bool]] = {
    name: (w.func, w.asymmetric) for name, (_, w) in _ROWS_IN_ORDER if not w.learned}

#: name -> one line (formula and source) per metric of ``METRICS``: what ``python -m termweight
#: list metrics`` prints; ``register_weighting`` adds an entry for a new metric.
METRIC_DESCRIPTIONS: dict[str, str] = {
    name: w.description for name, (_, w) in _ROWS_IN_ORDER if not w.learned}


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
    tpr, fpr = rates(tp, fp, fn, tn)
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


#: The benchmark's supervised column scalings: metric -> the base encodings it scales (encoding
#: ``<base>-<metric>``). Forman's 15 on binary and TF, Kim's five on cosine-normalised TF (his
#: documents), delta idf on TF. ``register_weighting`` adds one: it then enters ``weightings: all``.
WEIGHTINGS: dict[str, tuple[str, ...]] = {
    n: w.bases for n, (_, w) in _ROWS_IN_ORDER if w.bases and not w.learned}


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
