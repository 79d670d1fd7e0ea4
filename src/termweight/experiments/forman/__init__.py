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

from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError

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


#: the unit of the paired tests: a task (one class of one dataset), its seeds averaged first:
#: the seeds of one task re-split the same documents, so they are not independent (#52)
UNIT = ["dataset", "task"]


# --- reporting --------------------------------------------------------------------------------


# --- claims and gaps (termweight.experiments.claims) -------------------------------------------

#: the learner closest to the paper's WEKA SMO: the claims' verdicts use it when it was run
PAPER_LEARNER = "smo"
ALPHA = 0.05
MISSING = ("fbis", "la1", "la2", "new3", "ohscal", "re0", "re1", "tr21")


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


# --- what the report reads, checked before anything is written --------------------------------


SELECT_KEYS = ("dataset", "task", "repeat", "fold", "selector", "k", "scaling")


# --- CLI --------------------------------------------------------------------------------------

def config(params_path) -> tuple[dict, int]:
    from termweight.runner.config import load_params

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
