"""Forman (2008), "BNS feature scaling: an improved representation over TF-IDF for SVM text
classification" (CIKM; HPL-2007-32R1): the protocol of sections 3-4 and Figs. 1-6.

Protocol (paper section 3, [methods: scoring][methods-scoring], [experiments][methods-experiments]):

- Tasks: every class of every Forman word-count dataset against the rest of that dataset (the
  paper's 19 datasets give 237 tasks; the 11 obtainable here give 110).
- Splits: stratified 4-fold cross-validation repeated with 8 seeds; seed ``r`` of a dataset is
  scikit-learn's ``StratifiedKFold(shuffle=True, random_state=params.seed + r)`` over the
  multi-class label, which stratifies every one-vs-rest task of the dataset at once. The same
  folds serve every representation, selection level and task ("kept consistent for each
  representation tested"). Unlike ``termweight.splits.make_splits`` this allows a class with
  fewer documents than folds (tr31's class 310 has 2 documents and is one of the paper's 237 tasks):
  such a class has test positives in only some folds, which is why measurements pool the folds.
- Per training fold: the terms present in the training rows, their training statistics
  (``termweight.statistics.term_stats``) and, once per fold for ALL tasks (vectorised), each
  scaling metric's weights (``termweight.scoring.as_scaling_weights``); nothing is computed
  from test rows.
- Representations: base ``binary`` (presence) or ``tf`` (raw counts), column ``j`` multiplied by
  the task's weight of metric ``m`` (``none`` = 1, ``idf`` = the training IDF): 15 x 2 = 30, named
  ``<base>-<metric>``. No per-document normalisation (the paper disabled WEKA's).
- Learners (``forman.learners``, on the same folds): LinearSVC (liblinear; the figures and tables)
  and ``smo`` (libsvm's exact solver of WEKA SMO's problem, ``make_learner``; the claims'
  verdicts), C = 1, one binary SVM per task; the effective coefficients ``w * beta`` predict the
  unscaled test rows (``termweight.learners.linear``).
- Selection (Fig. 6): per task, the top ``k`` training terms by IG or by BNS (higher score first,
  ties by lower column index, as ``termweight.selection.top_k``), on binary features, with no
  scaling or with BNS scaling (IG selection + BNS scaling is the paper's hybrid), and "all".
- Measurement: one per (task, seed): the confusion counts of the 4 test folds are pooled (as WEKA's
  cross-validation does) and give accuracy, precision, recall and F-measure (0 for a zero
  denominator). Averages are macro-averages over the tasks x seeds measurements, with standard
  error ``sd / sqrt(N)`` (paper section 4.1); paired two-tailed t-tests pair the same
  measurements (``termweight.inference.paired_tests``).

Differences from the paper (see the report): beside WEKA 3.4's SMO problem (hinge loss,
unregularised bias; ``smo``), liblinear's LinearSVC as the [methods page][methods-learners]
prescribes (squared hinge, regularised bias) draws the figures; LinearSVC fits stop at
``max_iter`` iterations (the paper's footnote 1: unlogged Odds, ProbRatio and Chi2 "took many
hours" and were excluded; here they are capped and counted as not converged); the "hBNS" point
of Fig. 2 belongs to a discussion section absent from the text we have and is not drawn; only 11
of the 19 datasets are obtainable.

Steps (CLI sub-commands, one arrow each): ``forman-evaluate`` (30 representations, one dataset x
seed per unit), ``forman-select`` (Fig. 6 grid, one dataset x seed per unit), ``forman-report``
(measurements, tables, figures, metrics, macros).
"""

from __future__ import annotations

import logging
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from termweight import io
from termweight.errors import ConfigError, DataError

log = logging.getLogger(__name__)

PUBLISHED = Path(__file__).with_name("published.json")

COUNT_COLUMNS = ("tp", "fp", "fn", "tn")
METRIC_LABELS = {"none": "", "idf": "IDF", "bns": "BNS", "ig": "IG", "chi2": "Chi2", "acc": "Acc",
                 "acc2": "Acc2", "f1": "F1", "oddsnum": "OddsNum", "odds": "Odds",
                 "logodds": "LogOdds", "power": "Power", "probratio": "ProbRatio",
                 "pearson": "Pearson", "pmi": "PMI"}
#: Fig. 1-4's six representations, in the paper's order (TF.IDF, IDF, TF, binary, TF.BNS, BNS).
SIX = ("tf-idf", "binary-idf", "tf-none", "binary-none", "tf-bns", "binary-bns")
BNS_BINARY, TFIDF = "binary-bns", "tf-idf"
#: F-measure difference below which Fig. 6's "all features" and a selection level count as tied.
SELECTION_TIE = 5e-4
#: equivalence margins of "feature selection does not help" (Fig. 6), per measure: a third of
#: the smallest gain the paper's headline claims measured here (BNS over TF-IDF with LinearSVC:
#: F +3.06 points, accuracy +0.59 points), fixed on 2026-12-02 after those results were seen
#: (the deviations log, entry forman-selection-equivalence)
SELECTION_MARGIN = {"f1": 0.01, "accuracy": 0.002}


def label(rep: str) -> str:
    """The paper's name of a representation: binary-bns -> BNS, tf-idf -> TF.IDF, tf-none -> TF."""
    base, _, metric = rep.partition("-")
    m = METRIC_LABELS.get(metric, metric)
    if base == "binary":
        return m or "binary"
    return f"TF·{m}" if m else "TF"


# --- protocol pieces ---------------------------------------------------------------------------

def fold_indices(labels, folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified ``folds``-fold CV of single-label ``labels`` with ``seed``: [(train, test)].

    Classes smaller than ``folds`` are allowed (their test positives fall in some folds only).
    """
    from sklearn.model_selection import StratifiedKFold

    labels = np.asarray(labels)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
        cv = StratifiedKFold(int(folds), shuffle=True, random_state=int(seed))
        return [(np.sort(tr), np.sort(te)) for tr, te in cv.split(np.zeros(labels.size), labels)]


def train_view(X, train, test):
    """Training/test rows restricted to the terms present in the training rows (CSR float64)."""
    Xtr = sp.csr_matrix(X[train], dtype=np.float64)
    columns = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)
    return Xtr[:, columns], sp.csr_matrix(X[test], dtype=np.float64)[:, columns], columns


def fold_weights(stats, scalings) -> dict[str, np.ndarray]:
    """Scaling weights (n_tasks, n_terms) of every metric, from one fold's training statistics."""
    from termweight import scoring

    return {m: scoring.as_scaling_weights(scoring.score(m, stats)) for m in scalings}


def base_matrix(X, base: str) -> sp.csr_matrix:
    from termweight.encoding import encode

    return encode(X, base)


#: the learners of the ``forman.learners`` option: liblinear's LinearSVC (the methods page's
#: learner: squared hinge, the bias regularised as a feature of value 1) and ``smo``, libsvm's exact
#: dual solver of WEKA 3.4 SMO's problem (see ``make_learner``)
LEARNERS = ("linearsvc", "smo")
#: iteration cap of libsvm's SMO (pairs of multipliers updated); WEKA's SMO has none
SMO_MAX_ITER = 10_000_000


def make_learner(learner: str, C: float, max_iter: int, precomputed: bool = False):
    """The binary learner ``learner`` (one of ``LEARNERS``) with complexity ``C``.

    ``linearsvc``: ``termweight.learners.linear.linear_svc`` (liblinear dual coordinate descent,
    squared hinge loss, the intercept regularised like a weight), stopped at ``max_iter``.
    ``smo``: scikit-learn's ``SVC(kernel="linear")`` (libsvm), the problem WEKA 3.4's SMO solves
    with the paper's settings: hinge loss (L1-SVM), an UNregularised bias (the dual's equality
    constraint sum_i alpha_i y_i = 0), C = 1, linear kernel (PolyKernel, exponent 1), stopping
    tolerance 1e-3 (WEKA's ``-L 0.001``, libsvm's ``tol``), and no input normalisation (the paper
    disabled WEKA's [0, 1] rescaling, section 3.3). Both are SMO solvers of the same dual, so they
    differ only by where the tolerance stops them. ``max_iter`` does not apply (libsvm's cap is
    ``SMO_MAX_ITER``). ``precomputed``: the kernel is given as the Gram matrix ``X X'`` (the same
    problem and, measured on oh0, the same coefficients bit for bit; 3-5 times faster than libsvm's
    sparse dot products); ``fit_smo`` uses it up to ``SMO_GRAM_ROWS`` training rows.
    """
    if learner == "linearsvc":
        from termweight.learners.linear import linear_svc

        return linear_svc(C, random_state=0, max_iter=max_iter)
    if learner == "smo":
        from sklearn.svm import SVC

        return SVC(kernel="precomputed" if precomputed else "linear", C=C, tol=1e-3,
                   shrinking=True, cache_size=200, max_iter=SMO_MAX_ITER)
    raise ConfigError(f"forman: unknown learner {learner!r} (known: {', '.join(LEARNERS)})")


#: training rows up to which ``fit_smo`` passes libsvm the dense Gram matrix (8 bytes x rows^2)
SMO_GRAM_ROWS = 5000


def fit_smo(X, y, C: float):
    """``make_learner("smo")`` fitted on sparse ``X``: (coef (n_terms,), intercept, iterations).

    Up to ``SMO_GRAM_ROWS`` rows, on the Gram matrix ``X X'``; the primal weights are then
    ``X[support]' dual_coef`` (the decision function ``X w + b`` equals libsvm's).
    """
    if X.shape[0] > SMO_GRAM_ROWS:
        svm = make_learner("smo", C, 0).fit(X, y)
        coef = svm.coef_.toarray()[0] if sp.issparse(svm.coef_) else np.asarray(svm.coef_)[0]
        return coef, float(svm.intercept_[0]), int(np.max(svm.n_iter_))
    X = sp.csr_matrix(X)
    svm = make_learner("smo", C, 0, precomputed=True).fit((X @ X.T).toarray(), y)
    coef = np.asarray(X[svm.support_].T @ svm.dual_coef_[0]).ravel()
    return coef, float(svm.intercept_[0]), int(np.max(svm.n_iter_))


def fit_tasks(X, labels, weights, C: float, max_iter: int, columns=None,
              learner: str = "linearsvc"):
    """One SVM (``make_learner(learner, ...)``) per task on ``X`` (base-encoded training rows)
    scaled by ``weights[c]``.

    ``labels``: training class index per row (task c = ``labels == c``); ``weights``:
    (n_tasks, n_terms) or None; ``columns``: per task, the selected columns (or None for all).
    Returns effective coefficients (n_tasks, n_terms) such that test margins are
    ``X_test @ coef.T + intercept`` on unscaled base-encoded test rows, the intercepts, and a
    bool per task: whether the solver converged within its iteration cap.
    """
    from sklearn.exceptions import ConvergenceWarning

    from termweight.encoding import scale_columns

    n_tasks = int(weights.shape[0]) if weights is not None else len(columns)
    coef = np.zeros((n_tasks, X.shape[1]))
    intercept = np.full(n_tasks, -1.0)
    converged = np.ones(n_tasks, dtype=bool)
    Xc_all = X.tocsc() if columns is not None else None
    for c in range(n_tasks):
        y = labels == c
        if y.all() or not y.any():
            continue  # no training positive (cannot happen with >= 1 doc per class in training)
        cols = None if columns is None else columns[c]
        Xc = X if cols is None else sp.csr_matrix(Xc_all[:, cols])
        w = None if weights is None else (weights[c] if cols is None else weights[c][cols])
        if w is not None:
            Xc = scale_columns(Xc, w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            if learner == "smo":
                raw, b0, n_iter = fit_smo(Xc, y, C)
                cap = SMO_MAX_ITER
            else:
                svm = make_learner(learner, C, max_iter).fit(Xc, y)
                raw, b0, n_iter = svm.coef_[0], float(svm.intercept_[0]), int(np.max(svm.n_iter_))
                cap = max_iter
        beta = raw if w is None else raw * w
        if cols is None:
            coef[c] = beta
        else:
            coef[c, cols] = beta
        intercept[c] = b0
        converged[c] = n_iter < cap
    return coef, intercept, converged


def confusion(labels_test, margins) -> np.ndarray:
    """(n_tasks, 4) counts tp, fp, fn, tn of the decisions ``margins > 0`` (docs x tasks)."""
    n_tasks = margins.shape[1]
    truth = labels_test[:, None] == np.arange(n_tasks)[None, :]
    pred = margins > 0
    tp = (truth & pred).sum(0)
    fp = (~truth & pred).sum(0)
    fn = (truth & ~pred).sum(0)
    return np.stack([tp, fp, fn, truth.shape[0] - tp - fp - fn], axis=1)


def _load(corpus_dir):
    from termweight.corpus import Corpus

    corpus = Corpus.load(corpus_dir)
    if corpus.multilabel or np.any(np.asarray(corpus.Y.sum(axis=1)).ravel() != 1):
        raise DataError(corpus_dir, "Forman's protocol needs single-label (1-of-n) data")
    return corpus, corpus.labels


def _rows(dataset, classes, repeat, fold, counts, train_pos, extra, converged):
    frame = pd.DataFrame(counts, columns=list(COUNT_COLUMNS))
    frame.insert(0, "task", [f"{dataset}/{c}" for c in classes])
    frame.insert(0, "dataset", dataset)
    for k, v in reversed(list(extra.items())):
        frame.insert(2, k, v)
    frame.insert(2, "fold", fold)
    frame.insert(2, "repeat", repeat)
    frame["train_pos"] = train_pos
    frame["converged"] = converged.astype(int)
    return frame


def learners_of(cfg: dict) -> list[str]:
    """``cfg["learners"]`` (default: LinearSVC only, the results before the option existed)."""
    out = list(cfg.get("learners", ["linearsvc"]))
    bad = [x for x in out if x not in LEARNERS]
    if bad or not out:
        raise ConfigError(f"forman.learners: {bad or out} (known: {', '.join(LEARNERS)})")
    return out


def evaluate_repeat(corpus_dir, cfg: dict, seed: int, repeat: int) -> pd.DataFrame:
    """All representations x tasks x folds of one dataset and one CV seed: confusion counts."""
    from termweight.statistics import term_stats

    corpus, labels = _load(corpus_dir)
    C, max_iter = float(cfg["C"]), int(cfg["max_iter"])
    frames = []
    for fold, (train, test) in enumerate(fold_indices(labels, cfg["folds"], seed + repeat)):
        t0 = time.perf_counter()
        Xtr, Xte, _ = train_view(corpus.X, train, test)
        st = term_stats(Xtr, corpus.Y[train])
        weights = fold_weights(st, cfg["scalings"])
        for learner in learners_of(cfg):
            t1 = time.perf_counter()
            for base in cfg["bases"]:
                Btr, Bte = base_matrix(Xtr, base), base_matrix(Xte, base)
                for metric in cfg["scalings"]:
                    coef, b, conv = fit_tasks(Btr, labels[train], weights[metric], C, max_iter,
                                              learner=learner)
                    counts = confusion(labels[test], np.asarray(Bte @ coef.T) + b)
                    frames.append(_rows(corpus.name, corpus.classes, repeat, fold, counts, st.pos,
                                        {"learner": learner, "rep": f"{base}-{metric}"}, conv))
            log.info("%s seed %d fold %d %s: %d tasks x %d representations, %d terms, %.1f s",
                     corpus.name, repeat, fold, learner, len(corpus.classes),
                     len(cfg["bases"]) * len(cfg["scalings"]), Xtr.shape[1],
                     time.perf_counter() - t1)
        log.info("%s seed %d fold %d: %.1f s", corpus.name, repeat, fold, time.perf_counter() - t0)
    return pd.concat(frames, ignore_index=True)


def ranked_columns(scores) -> np.ndarray:
    """Per task, columns by decreasing score, ties by lower index (``selection.top_k`` order)."""
    s = np.where(np.isnan(scores), -np.inf, np.asarray(scores, dtype=np.float64))
    return np.argsort(-s, axis=1, kind="stable")


def select_repeat(corpus_dir, cfg: dict, seed: int, repeat: int) -> pd.DataFrame:
    """Fig. 6 grid of one dataset and seed: top-k by each selector x each scaling, binary base."""
    from termweight import scoring
    from termweight.statistics import term_stats

    corpus, labels = _load(corpus_dir)
    sel = cfg["selection"]
    C, max_iter = float(cfg["C"]), int(cfg["max_iter"])
    frames = []
    for fold, (train, test) in enumerate(fold_indices(labels, cfg["folds"], seed + repeat)):
        t0 = time.perf_counter()
        Xtr, Xte, _ = train_view(corpus.X, train, test)
        st = term_stats(Xtr, corpus.Y[train])
        weights = fold_weights(st, [m for m in sel["scalings"] if m != "none"])
        weights["none"] = None
        order = {s: ranked_columns(scoring.score(s, st)) for s in sel["selectors"]}
        Btr, Bte = base_matrix(Xtr, "binary"), base_matrix(Xte, "binary")
        n_terms = Xtr.shape[1]
        grid = [(s, k) for k in sel["counts"] if k < n_terms for s in sel["selectors"]]
        grid.append(("all", n_terms))
        for selector, k in grid:
            cols = None if selector == "all" else [o[:k] for o in order[selector]]
            for metric in sel["scalings"]:
                w = weights[metric]
                if cols is None and w is None:
                    w = np.ones((len(corpus.classes), n_terms))
                coef, b, conv = fit_tasks(Btr, labels[train], w, C, max_iter, columns=cols)
                counts = confusion(labels[test], np.asarray(Bte @ coef.T) + b)
                frames.append(_rows(corpus.name, corpus.classes, repeat, fold, counts, st.pos,
                                    {"selector": selector, "k": k,
                                     "all": int(selector == "all"), "scaling": metric}, conv))
        log.info("%s seed %d fold %d: selection grid of %d x %d in %.1f s", corpus.name, repeat,
                 fold, len(grid), len(sel["scalings"]), time.perf_counter() - t0)
    return pd.concat(frames, ignore_index=True)


# --- measurements and summaries ---------------------------------------------------------------

def measurements(frame: pd.DataFrame, keys) -> pd.DataFrame:
    """Pool the folds: one row per (keys, task, repeat) with accuracy, precision, recall, F."""
    from termweight.evaluation import rates

    keys = list(keys) + ["dataset", "task", "repeat"]
    g = frame.groupby(keys, sort=False)
    out = g[list(COUNT_COLUMNS)].sum()
    out["converged"] = g["converged"].min()
    out = out.reset_index()
    for k, v in rates(*(out[c].to_numpy() for c in COUNT_COLUMNS)).items():
        out[k] = v
    out["positives"] = out["tp"] + out["fn"]
    out["n"] = out[list(COUNT_COLUMNS)].sum(axis=1)
    out["pct_pos"] = 100.0 * out["positives"] / out["n"]
    return out


def selection_measurements(frame: pd.DataFrame) -> pd.DataFrame:
    """``measurements`` of the Fig. 6 grid; "all" (k = that fold's vocabulary) pools as k = 0.

    A level ``k`` at or above a fold's vocabulary selects every term: that fold's "all" result
    stands in for it, so that every level averages over the same tasks (the oh* datasets have
    about 3,000 terms, the tr* sets 5,800-10,100).
    """
    frame = frame.copy()
    frame.loc[frame["selector"] == "all", "k"] = 0
    alls = frame[frame["selector"] == "all"]
    unit = ["task", "repeat", "fold", "scaling"]
    pieces = [frame]
    grid = frame.loc[frame["selector"] != "all", ["selector", "k"]].drop_duplicates()
    for selector, k in grid.itertuples(index=False):
        have = frame.loc[(frame["selector"] == selector) & (frame["k"] == k), unit]
        merged = alls.merge(have, on=unit, how="left", indicator=True)
        fill = merged[merged["_merge"] == "left_only"].drop(columns="_merge")
        pieces.append(fill.assign(selector=selector, k=k))
    return measurements(pd.concat(pieces, ignore_index=True), ["selector", "k", "scaling"])


def summarise(meas: pd.DataFrame, keys, metrics=("accuracy", "f1", "precision", "recall")):
    """Mean and standard error of each metric per ``keys`` group (keys in first-seen order)."""
    from termweight.evaluation import mean_se

    rows = []
    for key, grp in meas.groupby(list(keys), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(keys, key, strict=True))
        row["n"] = len(grp)
        for m in metrics:
            row[m], row[f"{m}_se"] = mean_se(grp[m])
        row["not_converged"] = int((grp["converged"] == 0).sum())
        rows.append(row)
    return pd.DataFrame(rows)


#: the unit of the paired tests: a task (one class of one dataset), its seeds averaged first:
#: the seeds of one task re-split the same documents, so they are not independent (#52)
UNIT = ["dataset", "task"]


def per_task(frame: pd.DataFrame, metric: str) -> pd.Series:
    """``metric`` of each task (``UNIT``), averaged over its seeds."""
    return frame.groupby(UNIT, sort=True)[metric].mean()


def paired(meas: pd.DataFrame, a: str, b: str, metric: str) -> dict:
    """Paired two-tailed t-test (and Wilcoxon) of representations ``a`` vs ``b`` on ``metric``
    over the tasks, each task's seeds averaged first (n = the tasks)."""
    from termweight.inference import paired_tests

    wide = meas.groupby([*UNIT, "rep"], sort=True)[metric].mean().unstack("rep")
    return {"a": a, "b": b, "metric": metric, **paired_tests(wide[a], wide[b])}


# --- reporting --------------------------------------------------------------------------------

def _errorbar_panel(ax, summ, reps, metric, ylabel):
    s = summ.set_index("rep").loc[list(reps)]
    ax.errorbar(range(len(reps)), s[metric], yerr=s[f"{metric}_se"], fmt="o", capsize=4)
    ax.set_xticks(range(len(reps)), [label(r) for r in reps], rotation=30)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def fig1(summ, reps):
    from termweight.reporting import figure

    fig, axes = figure(1, 2, height=2.9)
    _errorbar_panel(axes[0], summ, reps, "accuracy", "Accuracy")
    _errorbar_panel(axes[1], summ, reps, "f1", "F-measure")
    fig.suptitle("Fig. 1: SVM accuracy and F-measure (mean $\\pm$ s.e.)")
    fig.tight_layout()
    return fig


def fig2(summ, reps):
    from termweight.reporting import figure

    s = summ.set_index("rep").loc[list(reps)]
    lo = float(min(s["precision"].min(), s["recall"].min())) - 0.05
    hi = min(1.0, float(max(s["precision"].max(), s["recall"].max())) + 0.05)
    fig, ax = figure(width=0.62, height=3.9)
    r = np.linspace(0.01, 1, 400)
    for f in np.arange(0.5, 1.0, 0.05):
        p = f * r / (2 * r - f)
        ok = (r > f / 2) & (p > 0) & (p <= 1)
        ax.plot(r[ok], p[ok], ":", color="grey", lw=0.7)
    for rep in reps:
        ax.errorbar(s.loc[rep, "recall"], s.loc[rep, "precision"], xerr=s.loc[rep, "recall_se"],
                    yerr=s.loc[rep, "precision_se"], fmt="o", capsize=3, label=label(rep))
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("Recall")
    ax.set_ylabel("Precision")
    ax.set_aspect("equal")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Fig. 2: precision vs recall (dotted: iso-F)")
    fig.tight_layout()
    return fig


def fig3(bins: pd.DataFrame, reps):
    from termweight.reporting import figure

    fig, ax = figure(width=0.75, height=3.0)
    for rep in reps:
        b = bins[bins["rep"] == rep]
        ax.errorbar(b["bin_mid"], b["f1"], yerr=b["f1_se"], marker="o", capsize=3,
                    label=label(rep))
    ticks = bins.drop_duplicates("bin_mid")
    ax.set_xticks(ticks["bin_mid"], ticks["bin"])
    ax.set_xlabel("% positives")
    ax.set_ylabel("F-measure")
    ax.legend()
    ax.grid(alpha=0.3)
    ax.set_title("Fig. 3: F-measure by percentage of positives")
    fig.tight_layout()
    return fig


def fig4(per_ds: pd.DataFrame, reps):
    from termweight.reporting import TEXT_WIDTH_IN, figure

    order = (per_ds[per_ds["rep"] == BNS_BINARY].sort_values("f1")["dataset"].tolist()
             if BNS_BINARY in set(per_ds["rep"]) else sorted(per_ds["dataset"].unique()))
    fig, ax = figure(width=min(1.0, (1.2 + 0.5 * len(order)) / TEXT_WIDTH_IN), height=3.2)
    for rep in reps:
        d = per_ds[per_ds["rep"] == rep].set_index("dataset").loc[order]
        ax.plot(range(len(order)), d["f1"], marker="o", label=label(rep))
    ax.set_xticks(range(len(order)), order, rotation=45)
    ax.set_ylabel("F-measure")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    ax.set_title("Fig. 4: F-measure per dataset (sorted by BNS)")
    fig.tight_layout()
    return fig


def fig5(summ):
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure

    s = summ.sort_values("f1")
    fig, ax = figure(width=0.8, height=min(FIGURE_MAX_HEIGHT_IN, 0.16 * len(s) + 0.9))
    colors = ["C0" if r.startswith("binary") else "C1" for r in s["rep"]]
    ax.barh(range(len(s)), s["f1"], xerr=s["f1_se"], color=colors, capsize=2)
    ax.set_yticks(range(len(s)), [label(r) for r in s["rep"]])
    ax.set_xlim(max(0.0, float(s["f1"].min()) - 0.05), min(1.0, float(s["f1"].max()) + 0.03))
    ax.set_xlabel("F-measure (blue: binary, orange: TF)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"Fig. 5: F-measure of {len(s)} representations")
    fig.tight_layout()
    return fig


def fig6(sel: pd.DataFrame):
    from termweight.reporting import figure

    fig, axes = figure(1, 2, height=3.0)
    alls = sel[sel["selector"] == "all"]
    kmax = int(sel.loc[sel["selector"] != "all", "k"].max()) if (sel["selector"] != "all").any() \
        else 10
    x_all = kmax * 3
    for ax, metric, name in ((axes[0], "f1", "F-measure"), (axes[1], "accuracy", "Accuracy")):
        for selector in [s for s in sel["selector"].unique() if s != "all"]:
            for scaling in sel["scaling"].unique():
                d = sel[(sel["selector"] == selector) & (sel["scaling"] == scaling)]
                a = alls[alls["scaling"] == scaling]
                xs = list(d["k"]) + [x_all] * len(a)
                ys = list(d[metric]) + list(a[metric])
                es = list(d[f"{metric}_se"]) + list(a[f"{metric}_se"])
                lab = f"{selector.upper()} selection" + (
                    f" + {scaling.upper()} scaling" if scaling != "none" else "")
                ax.errorbar(xs, ys, yerr=es, marker="o", ms=3, capsize=2, label=lab,
                            ls="-" if scaling != "none" else "--")
        ax.set_xscale("log")
        ticks = sorted(set(sel.loc[sel["selector"] != "all", "k"])) + [x_all]
        # turned: at half the page's width, 1000 / 2000 / 5000 / all run into each other level
        ax.set_xticks(ticks, [str(t) for t in ticks[:-1]] + ["all"], rotation=45, ha="right",
                      rotation_mode="anchor")
        ax.minorticks_off()
        ax.set_xlabel("number of features selected (binary features)")
        ax.set_ylabel(name)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 6: feature selection with and without BNS scaling")
    fig.tight_layout()
    return fig


def tex_label(rep: str) -> str:
    """``label`` as LaTeX (TF$\\cdot$BNS)."""
    from termweight.reporting import latex_escape

    return latex_escape(label(rep)).replace("·", "$\\cdot$")


def _fmt(m, se, digits=4):
    return f"{m:.{digits}f} $\\pm$ {se:.{digits}f}"


def _macro_name(key: str) -> str:
    """``bns_binary_f1`` -> ``\\FormanBnsBinaryFOne`` (LaTeX macro names are letters only)."""
    digits = {"0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four", "5": "Five",
              "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine"}
    parts = "".join(digits.get(ch, ch) for ch in key).replace("-", "_").split("_")
    return "\\Forman" + "".join(p[:1].upper() + p[1:] for p in parts if p)


# --- claims and gaps (termweight.experiments.claims) -------------------------------------------

#: the learner closest to the paper's WEKA SMO: the claims' verdicts use it when it was run
PAPER_LEARNER = "smo"
ALPHA = 0.05
MISSING = ("fbis", "la1", "la2", "new3", "ohscal", "re0", "re1", "tr21")


def gain_interval(test: dict, scale: float = 100.0, level: float = 0.95) -> tuple[float, float]:
    """The ``level`` confidence interval of a paired test's mean difference (``paired``:
    ``mean_diff``, ``t``, ``n``), times ``scale``: ``d +- t_{n-1} d / t``."""
    from scipy.stats import t as student

    d, t, n = scale * test["mean_diff"], test["t"], test["n"]
    if not np.isfinite(t) or t == 0 or n < 2:
        return d, d
    half = student.ppf(0.5 + level / 2, n - 1) * abs(d / t)
    return d - half, d + half


def verdict_gain(diff_pts: float, p: float, published_pts: float,
                 ci: tuple[float, float], alpha: float = ALPHA) -> str:
    """A claimed gain of about ``published_pts`` points, a claim of size (#52; the rule before
    accepted anything within a factor 2): "reproduced" if our mean gain is positive,
    significant (paired two-tailed t-test ``p < alpha``) and its 95% interval ``ci`` holds the
    published gain; "partly" if positive and significant but the interval excludes it;
    "inconclusive" if not significant while the interval holds both 0 and the published gain
    (too noisy to tell); "not reproduced" otherwise."""
    inside = ci[0] <= published_pts <= ci[1]
    if diff_pts > 0 and p < alpha:
        return "reproduced" if inside else "partly"
    if p >= alpha and inside and ci[0] <= 0:
        return "inconclusive"
    return "not reproduced"


def verdict_best(first: bool, diff: float, p: float, p_paper: float = 0.01,
                 alpha: float = ALPHA) -> str:
    """"Binary BNS is the best representation, significantly (p < ``p_paper``) better than the
    best other": ``first`` = it has the highest mean F; ``diff``, ``p`` = its paired t-test against
    the best other representation. "reproduced" if first with ``diff > 0`` and ``p < p_paper``;
    "partly" if first but not that significant, or second and not significantly worse
    (``p >= alpha``); "not reproduced" if another representation is significantly better."""
    if first and diff > 0 and p < p_paper:
        return "reproduced"
    if first or p >= alpha:
        return "partly"
    return "not reproduced"


def verdict_runner_up(others_ranked, published: str) -> str:
    """"The runner-up was ``published``": over the representations other than binary BNS ranked
    by mean F, "reproduced" if ``published`` is first, "partly" if in the top 3, else
    "not reproduced"."""
    others = [r for r in others_ranked if r != BNS_BINARY]
    if others[:1] == [published]:
        return "reproduced"
    return "partly" if published in others[:3] else "not reproduced"


def verdict_sign(diff: float, p: float, sign: int, alpha: float = ALPHA) -> str:
    """A claimed difference of sign ``sign`` (+1 / -1): "reproduced" if ours has that sign and
    ``p < alpha``; "partly" if that sign but not significant; "not reproduced" otherwise."""
    if diff * sign > 0:
        return "reproduced" if p < alpha else "partly"
    return "not reproduced"


def verdict_cells(tests, sign: int = 1, alpha: float = ALPHA) -> str:
    """A difference of sign ``sign`` claimed in every cell (``paired`` results): "reproduced" if
    every cell has it with ``p < alpha``; "not reproduced" if any cell is significantly of the
    other sign or none has it significantly; else "partly"."""
    from termweight.experiments.claims import count_verdict

    ok = sum(t["mean_diff"] * sign > 0 and t["t_pvalue"] < alpha for t in tests)
    bad = sum(t["mean_diff"] * sign < 0 and t["t_pvalue"] < alpha for t in tests)
    return count_verdict(ok, len(tests), bad)


def verdict_selection(states: dict) -> str:
    """"BNS scaling with all features gives the best F-measure and accuracy of Fig. 6", per
    measure ``states[measure]``: "holds" (all features with BNS at least the best selection
    level's mean, or TOST-equivalent to it within ``SELECTION_MARGIN``), "fails" (the best level
    significantly better) or "undecided". Reproduced if it holds for both measures, partly for
    one, not reproduced if it fails for every measure it does not hold for, else inconclusive."""
    n = sum(v == "holds" for v in states.values())
    if n == len(states):
        return "reproduced"
    if n:
        return "partly"
    return "not reproduced" if all(v == "fails" for v in states.values()) else "inconclusive"


def _t(test: dict, scale: float = 1.0, unit: str = "") -> str:
    return (f"mean diff {scale * test['mean_diff']:+.{2 if scale > 1 else 4}f}{unit}, "
            f"paired t = {test['t']:.2f}, "
            f"p = {test['t_pvalue']:.2g}, n = {test['n']}")


def skew_reweighted_gain(meas: pd.DataFrame, a: str, b: str, metric: str, edges) -> dict:
    """The mean per-task gain ``a - b`` (seeds averaged) with the tasks reweighted so that the bins
    of % positives (``edges``) hold the paper's mix, "each successive bin contains roughly half
    as many benchmark tasks" (Sec. 4.3): bin i gets share 2^-(i+1), normalised over the bins we
    have tasks in; within a bin the tasks count equally."""
    wide = meas.groupby([*UNIT, "rep"], sort=True)[metric].mean().unstack("rep")
    pos = meas.groupby(UNIT, sort=True)["pct_pos"].mean().loc[wide.index]
    gain = (wide[a] - wide[b]).to_numpy()
    bins = np.digitize(pos.to_numpy(), np.asarray(edges[1:-1], dtype=float))
    counts = np.bincount(bins, minlength=len(edges) - 1)
    share = 0.5 ** (np.arange(len(counts)) + 1.0) * (counts > 0)
    w = (share / share.sum())[bins] / counts[bins]
    return {"gain": float(np.sum(w * gain)), "unweighted": float(gain.mean()),
            "tasks_per_bin": counts.tolist(), "paper_share": (share / share.sum()).round(4).tolist()}


def learner_results(meas: pd.DataFrame, reps, edges=None) -> dict:
    """One learner's summary for the claims: means, rankings and the paired tests they need
    (``edges``: the bins of % positives, for the gains reweighted to the paper's skew mix)."""
    summ = summarise(meas, ["rep"]).set_index("rep").loc[list(reps)]
    ranked = summ.sort_values("f1", ascending=False).index.tolist()
    out = {"f1": {r: round(float(summ.loc[r, "f1"]), 6) for r in reps},
           "accuracy": {r: round(float(summ.loc[r, "accuracy"]), 6) for r in reps},
           "ranking_by_f1": ranked,
           "ranking_by_accuracy": summ.sort_values("accuracy", ascending=False).index.tolist(),
           "not_converged": int(summ["not_converged"].sum()), "tests": {}}
    if BNS_BINARY not in reps:
        return out
    best_other = next(r for r in ranked if r != BNS_BINARY)
    out["best_other_than_bns"] = best_other
    pairs = [("bns_vs_tfidf_f1", BNS_BINARY, TFIDF, "f1"),
             ("bns_vs_tfidf_accuracy", BNS_BINARY, TFIDF, "accuracy"),
             ("bns_vs_best_other_f1", BNS_BINARY, best_other, "f1"),
             ("idf_vs_none_f1", "binary-idf", "binary-none", "f1")]
    for key, a, b, metric in pairs:
        if a in reps and b in reps:
            out["tests"][key] = paired(meas, a, b, metric)
    if edges is not None and TFIDF in reps and "pct_pos" in meas:
        out["skew_reweighted"] = {m: skew_reweighted_gain(meas, BNS_BINARY, TFIDF, m, edges)
                                  for m in ("f1", "accuracy")}
    out["cells"] = cell_tests(meas, reps)
    out["skew"] = skew_trend(meas, reps)
    out["hardest"] = hardest_datasets(meas, reps)
    return out


#: Sec. 4.1-4.2, 4.5: the paired comparisons of the claims beyond the headline gains, as
#: (claim key, a, b, metric) templates over the bases {b} and scalings {s} of the paper's six
#: representations: binary vs TF features (accuracy, precision), BNS vs IDF and no scaling
#: (recall), log odds ratio vs odds ratio (F), binary BNS vs unscaled binary (F)
CELL_TESTS = (
    *(("binary_accuracy", f"binary-{s}", f"tf-{s}", "accuracy") for s in ("none", "idf", "bns")),
    *(("binary_precision", f"binary-{s}", f"tf-{s}", "precision") for s in ("none", "idf", "bns")),
    *(("bns_recall", f"{b}-bns", f"{b}-{s}", "recall") for b in ("binary", "tf")
      for s in ("idf", "none")),
    *(("logodds_f1", f"{b}-logodds", f"{b}-odds", "f1") for b in ("binary", "tf")),
    ("bns_vs_none_f1", "binary-bns", "binary-none", "f1"),
)


def cell_tests(meas: pd.DataFrame, reps) -> dict[str, list[dict]]:
    """``CELL_TESTS`` run (``paired``: over the tasks, seeds averaged), grouped by claim key;
    templates whose representations were not run are left out."""
    out: dict[str, list[dict]] = {}
    for key, a, b, metric in CELL_TESTS:
        if a in reps and b in reps:
            out.setdefault(key, []).append(paired(meas, a, b, metric))
    return out


def skew_trend(meas: pd.DataFrame, reps) -> list[dict]:
    """Sec. 4.3, Fig. 3, "the benefit of BNS scaling is greater for highly imbalanced
    classification problems": per task (seeds averaged) the F gain of binary BNS over binary
    unscaled and over binary IDF against the task's % positives; Spearman's rho (scipy), a
    negative rho meaning larger gains at fewer positives."""
    from scipy.stats import spearmanr

    if BNS_BINARY not in reps or "pct_pos" not in meas:
        return []
    wide = meas.groupby([*UNIT, "rep"], sort=True)["f1"].mean().unstack("rep")
    pos = meas.groupby(UNIT, sort=True)["pct_pos"].mean()
    out = []
    for other in ("binary-none", "binary-idf"):
        if other in reps:
            gain = wide[BNS_BINARY] - wide[other]
            r = spearmanr(pos.loc[gain.index], gain)
            out.append({"a": BNS_BINARY, "b": other, "rho": float(r.statistic),
                        "p": float(r.pvalue), "n": int(gain.size)})
    return out


def hardest_datasets(meas: pd.DataFrame, reps, n: int = 3) -> list[dict]:
    """Sec. 4.4, Fig. 4, "BNS did not dominate for three of the most difficult datasets, where
    instead TF-BNS performed best": the ``n`` datasets with the lowest mean F of binary BNS, each
    with its best representation by mean F and TF-BNS minus binary BNS there."""
    if BNS_BINARY not in reps or "tf-bns" not in reps:
        return []
    f = meas[meas["rep"].isin(reps)].groupby(["dataset", "rep"])["f1"].mean().unstack("rep")
    hard = f[BNS_BINARY].sort_values().index[:n]
    return [{"dataset": d, "binary_bns": float(f.loc[d, BNS_BINARY]),
             "tf_bns": float(f.loc[d, "tf-bns"]), "best": str(f.loc[d].idxmax()),
             "best_f1": float(f.loc[d].max())} for d in hard]


def selection_results(selm: pd.DataFrame, sel: pd.DataFrame) -> dict | None:
    """Fig. 6: all features with BNS scaling against the best selection level, per measure, with
    paired t-tests over the tasks, seeds averaged (None without the all + BNS cell)."""
    alls = selm[(selm["selector"] == "all") & (selm["scaling"] == "bns")]
    levels = sel[sel["selector"] != "all"]
    if alls.empty:
        return None
    out = {}
    for metric in ("f1", "accuracy"):
        a = per_task(alls, metric)
        res = {"all_bns": round(float(a.mean()), 6)}
        if len(levels):
            best = levels.loc[levels[metric].idxmax()]
            cell = selm[(selm["selector"] == best["selector"]) & (selm["k"] == best["k"])
                        & (selm["scaling"] == best["scaling"])]
            from termweight.inference import paired_tests

            b = per_task(cell, metric).reindex(a.index)
            res |= {"best_level": {"selector": best["selector"], "k": int(best["k"]),
                                   "scaling": best["scaling"],
                                   metric: round(float(best[metric]), 6)},
                    "test": {"a": "all+bns", "b": "best level", "metric": metric,
                             **paired_tests(a.to_numpy(), b.to_numpy())}}
            t = res["test"]
            from termweight.inference import tost_p

            res["tost_p"] = tost_p(a.to_numpy() - b.to_numpy(), SELECTION_MARGIN[metric])
            res["margin"] = SELECTION_MARGIN[metric]
            tied = res["all_bns"] >= float(best[metric]) - SELECTION_TIE
            res["state"] = ("holds" if tied or (res["tost_p"] is not None
                                                 and res["tost_p"] < ALPHA) else
                            "fails" if t["mean_diff"] < 0 and t["t_pvalue"] < ALPHA else
                            "undecided")
        else:
            res["state"] = "holds"
        res["holds"] = res["state"] == "holds"
        out[metric] = res
    out["unscaled"] = _unscaled_selection(selm)
    out["hybrid"] = _hybrid_levels(selm)
    return out


def _level(selm: pd.DataFrame, selector: str, k: int, scaling: str, metric: str) -> pd.Series:
    cell = selm[(selm["selector"] == selector) & (selm["k"] == k) & (selm["scaling"] == scaling)]
    return per_task(cell, metric)


def _unscaled_selection(selm: pd.DataFrame) -> dict:
    """Sec. 4.6: "Without BNS scaling, the best available performance is obtained by selecting a
    subset of features via BNS." Per measure, among the unscaled cells (all features and every
    top-k of each selector): the best BNS-selected level against the best other (all features
    or IG top-k), paired over the tasks."""
    from termweight.inference import paired_tests

    none = selm[selm["scaling"] == "none"]
    means = none.groupby(["selector", "k"], sort=True)[["f1", "accuracy"]].mean()
    out = {}
    for metric in ("f1", "accuracy"):
        m = means[metric]
        bns = [i for i in m.index if i[0] == "bns"]
        other = [i for i in m.index if i[0] != "bns"]
        if not bns or not other:
            continue
        a, b = max(bns, key=m.get), max(other, key=m.get)
        ta, tb = _level(selm, *a, "none", metric), _level(selm, *b, "none", metric)
        out[metric] = {"bns_level": {"k": int(a[1]), metric: round(float(m[a]), 6)},
                       "other_level": {"selector": b[0], "k": int(b[1]),
                                       metric: round(float(m[b]), 6)},
                       "test": {"a": f"bns k={a[1]}", "b": f"{b[0]} k={b[1]}", "metric": metric,
                                **paired_tests(ta.to_numpy(), tb.reindex(ta.index).to_numpy())}}
    return out


def _hybrid_levels(selm: pd.DataFrame) -> list[dict]:
    """Sec. 2 and the abstract: the recommended hybrid for reduced data, IG selection with BNS
    scaling. Per top-k level (k below the vocabulary): IG + BNS against the best other reduced
    representation of that k (BNS selection with or without BNS scaling, IG unscaled), F, paired
    over the tasks."""
    from termweight.inference import paired_tests

    sub = selm[selm["selector"] != "all"]
    means = sub.groupby(["k", "selector", "scaling"], sort=True)["f1"].mean()
    out = []
    for k in sorted(sub["k"].unique()):
        mk = means.loc[k]
        if ("ig", "bns") not in mk.index or len(mk) < 2:
            continue
        rival = max((i for i in mk.index if i != ("ig", "bns")), key=mk.get)
        a = _level(selm, "ig", k, "bns", "f1")
        b = _level(selm, rival[0], k, rival[1], "f1").reindex(a.index)
        out.append({"k": int(k), "hybrid_f1": round(float(mk[("ig", "bns")]), 6),
                    "rival": f"{rival[0]}+{rival[1]}", "rival_f1": round(float(mk[rival]), 6),
                    "test": {"a": "ig+bns", "b": f"{rival[0]}+{rival[1]}", "metric": "f1",
                             **paired_tests(a.to_numpy(), b.to_numpy())}})
    return out


def ascii_label(rep: str) -> str:
    """``label`` in plain ASCII (the claims' texts): TF-IDF, TF-BNS, BNS."""
    return label(rep).replace("·", "-")


def _learner_name(learner: str) -> str:
    return {"linearsvc": "LinearSVC", "smo": "SMO (libsvm, WEKA's problem)"}.get(learner, learner)


# --- what the report reads, checked before anything is written --------------------------------

def _count_ranges() -> dict:
    """The columns the report reads of a per-fold row: counts >= 0, ``converged`` 0 or 1 (a
    function, not a module constant: import-time code is part of every Forman stage's digest)."""
    from termweight.results_check import NONNEGATIVE, UNIT

    return {**dict.fromkeys(COUNT_COLUMNS, NONNEGATIVE), "converged": UNIT}

SELECT_KEYS = ("dataset", "task", "repeat", "fold", "selector", "k", "scaling")


def _cell_text(frame, keys, i: int) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, frame[list(keys)].iloc[i], strict=True))


def _check_tested(path, frame, keys) -> None:
    """Every row counts a test fold's documents (tp + fp + fn + tn > 0): its rates are not 0/0."""
    total = frame[list(COUNT_COLUMNS)].to_numpy(dtype=np.float64).sum(axis=1)
    empty = np.flatnonzero(total <= 0)
    if empty.size:
        i = int(empty[0])
        raise DataError(path, f"cell ({_cell_text(frame, keys, i)}) counts no test document "
                              "(tp + fp + fn + tn = 0)", line=i + 2)


def _check_evaluated(path, frame, unit, tasks, cfg) -> None:
    """One ``forman-evaluate`` table: every task x fold x learner x representation of its
    dataset and seed once, counts >= 0, ``converged`` in [0, 1]."""
    reps = [f"{b}-{m}" for b in cfg["bases"] for m in cfg["scalings"]]
    cells = {"dataset": [unit[0]], "task": tasks, "repeat": [unit[1]],
             "fold": range(int(cfg["folds"])), "learner": learners_of(cfg), "rep": reps}
    from termweight.results_check import check_cells

    check_cells(path, frame.copy(), cells, _count_ranges())
    _check_tested(path, frame, list(cells))


def _selection_grid(path, frame, unit, tasks, cfg) -> pd.DataFrame:
    """The cells a ``forman-select`` table must hold (``select_repeat``'s grid): per fold, the
    counts below that fold's vocabulary (the k of its "all" rows) x the selectors, and "all",
    x the scalings x the tasks."""
    sel, keys = cfg["selection"], list(SELECT_KEYS)
    alls = frame[frame["selector"].astype(str) == "all"]
    vocab = alls.groupby("fold")["k"].agg(["min", "max"])
    pieces = []
    for fold in range(int(cfg["folds"])):
        if fold not in vocab.index:
            raise DataError(path, f"cell (dataset={unit[0]}, task={tasks[0]}, repeat={unit[1]}, "
                                  f"fold={fold}, selector=all, scaling={sel['scalings'][0]}) is "
                                  "missing: no \"all\" row in this fold")
        n, other = vocab.loc[fold, "min"], vocab.loc[fold, "max"]
        if n != other:
            i = int(np.flatnonzero((alls["fold"] == fold) & (alls["k"] == other))[0])
            raise DataError(path, f"fold {fold}: \"all\" rows with k = {n} and k = {other} (one "
                                  "vocabulary per fold)", line=int(alls.index[i]) + 2)
        levels = [(s, k) for k in sel["counts"] if k < n for s in sel["selectors"]]
        levels.append(("all", n))
        grid = pd.DataFrame(levels, columns=["selector", "k"]).merge(
            pd.DataFrame({"scaling": sel["scalings"]}), how="cross").merge(
            pd.DataFrame({"task": tasks}), how="cross")
        pieces.append(grid.assign(dataset=unit[0], repeat=unit[1], fold=fold)[keys])
    return pd.concat(pieces, ignore_index=True)


def _check_selected(path, frame, unit, tasks, cfg) -> None:
    """One ``forman-select`` table: every cell of its grid (``_selection_grid``) once and no
    other, counts >= 0, ``converged`` in [0, 1]."""
    sel, keys = cfg["selection"], list(SELECT_KEYS)
    vocab = frame.loc[frame["selector"].astype(str) == "all", "k"].astype(str).unique()
    cells = {"dataset": [unit[0]], "task": tasks, "repeat": [unit[1]],
             "fold": range(int(cfg["folds"])), "selector": [*sel["selectors"], "all"],
             "k": [*map(str, sel["counts"]), *vocab], "scaling": sel["scalings"]}
    from termweight.results_check import check_cells

    check_cells(path, frame.copy(), cells, _count_ranges(), complete=False)
    _check_tested(path, frame, keys)
    want = _selection_grid(path, frame, unit, tasks, cfg).astype(str)
    have = frame[keys].astype(str)
    extra = np.flatnonzero(have.merge(want, on=keys, how="left", indicator=True)["_merge"]
                           == "left_only")
    if extra.size:
        i = int(extra[0])
        raise DataError(path, f"cell ({_cell_text(frame, keys, i)}) is not declared by the "
                              "params: not a selection level below this fold's vocabulary",
                        line=i + 2)
    both = want.merge(have, on=keys, how="left", indicator=True)
    lost = both[both["_merge"] == "left_only"]
    if len(lost):
        cell = ", ".join(f"{k}={lost.iloc[0][k]}" for k in keys)
        raise DataError(path, f"cell ({cell}) is missing: the params declare {len(want)} cells "
                              f"of the selection grid, the file holds {len(frame)}")


def read_results(eval_paths, select_paths, units, cfg) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``forman-evaluate`` and ``forman-select`` tables of every (dataset, seed) of
    ``units``, checked against the params (``_check_evaluated``, ``_check_selected``); a
    dataset's tasks are those any of its tables names, so each of its tables must hold them
    all. Returns both concatenated, as read."""
    if not len(eval_paths) == len(select_paths) == len(units):
        raise ConfigError(f"forman-report: {len(units)} (dataset, seed) units, "
                          f"{len(eval_paths)} evaluate and {len(select_paths)} select tables")
    evaluated = [io.read_table(p, required=("task",)) for p in eval_paths]
    for frame in evaluated:
        if "learner" not in frame:  # results from before the learners option: LinearSVC
            frame.insert(2, "learner", "linearsvc")
    selected = [io.read_table(p, required=("task", "selector", "fold", "k"))
                for p in select_paths]
    tasks: dict[str, list] = {}
    for (dataset, _), frame in zip(units * 2, evaluated + selected, strict=True):
        tasks[dataset] = list(pd.unique(pd.Series([*tasks.get(dataset, []),
                                                   *frame["task"].astype(str)])))
    for path, frame, unit in zip(eval_paths, evaluated, units, strict=True):
        _check_evaluated(path, frame, unit, tasks[unit[0]], cfg)
    for path, frame, unit in zip(select_paths, selected, units, strict=True):
        _check_selected(path, frame, unit, tasks[unit[0]], cfg)
    return (pd.concat(evaluated, ignore_index=True), pd.concat(selected, ignore_index=True))


# --- CLI --------------------------------------------------------------------------------------

def config(params_path) -> tuple[dict, int]:
    from termweight.config import load_params

    params = load_params(params_path)
    if "forman" not in params:
        raise ConfigError(f"{params_path}: no 'forman' section")
    return params["forman"], int(params["seed"])


def _units(args, cfg):
    datasets = args.dataset or cfg["datasets"]
    repeats = args.repeat if args.repeat is not None else range(int(cfg["repeats"]))
    return [(d, int(r)) for d in datasets for r in repeats]


def _run(args, func, what):
    cfg, seed = config(args.params)
    for dataset, repeat in _units(args, cfg):
        t0, c0 = time.perf_counter(), time.process_time()
        frame = func(args.corpus.format(dataset=dataset), cfg, seed, repeat)
        io.write_table(args.out.format(dataset=dataset, repeat=repeat), frame)
        log.info("%s %s seed %d: %d LinearSVC fits (one per output row) in %.1f s wall, %.1f s "
                 "CPU", what, dataset, repeat, len(frame), time.perf_counter() - t0,
                 time.process_time() - c0)


def cmd_evaluate(args) -> None:
    _run(args, evaluate_repeat, "evaluate")


def cmd_select(args) -> None:
    _run(args, select_repeat, "select")


def register(sub) -> None:
    def common(p, out_help):
        p.add_argument("--params", required=True)
        p.add_argument("--dataset", nargs="+", help="default: the config's datasets")
        p.add_argument("--repeat", type=int, nargs="+", help="CV seeds (default: all)")
        p.add_argument("--corpus", default="data/corpus/{dataset}", help="template with {dataset}")
        p.add_argument("--out", required=True, help=out_help)

    p = sub.add_parser("forman-evaluate", help="Forman 2008: 30 representations per dataset x seed")
    common(p, "table template with {dataset} and {repeat}")
    p.set_defaults(func=cmd_evaluate)
    p = sub.add_parser("forman-select", help="Forman 2008 Fig. 6: selection x BNS scaling")
    common(p, "table template with {dataset} and {repeat}")
    p.set_defaults(func=cmd_select)


def argparse_suppress():
    import argparse

    return argparse.SUPPRESS


# --- the paper's declaration (termweight.experiments.papers) -------------------------------------
