"""Mukras et al. (2007): IG vs IG + the Probability Re-distribution Procedure (PRP), ordinal data.

Paper: ../shared/papers/mukras-et-al-ig-probability-redistribution.txt ([methods][methods-ordinal]).
Protocol, per ordinal corpus (``mukras.datasets`` in params.yaml):

1. ``mukras-split``: equal class sizes by a seeded subsample (``balanced_subsample``,
   ``per_class`` documents of every class; the paper trimmed each class to 500 or 100 reviews),
   then stratified ``folds``-fold cross-validation of that subsample (the paper: 10 folds).
   Optional ``author`` keeps one Pang & Lee critic (an experiment-level filter on the pooled
   corpus: its document ids are ``<author>/<id>``).
2. ``mukras-score``: on the TRAINING rows of a fold only (the terms present there), every selector
   scores every term: ``ig`` (multi-class IG = I(C; F), F = presence) or ``chi2``, optionally
   after the PRP with a similarity (``ig+linear`` is the paper's IG+PRP, eq. 1-2;
   ``+exponential``, ``+stepwise`` and ``+confusion`` (learned from cross-validated MNB confusion
   counts on the training rows; paper section 5) go beyond it). Terms are ranked by score, ties
   by the lower column (as ``SelectKBestJoint``).
3. ``mukras-evaluate``: for every number of features k of ``features`` (the top-k terms; all terms
   when k exceeds the training vocabulary, recorded as ``k_used``), fit on the training rows and
   predict the test rows with: ``nb`` multinomial naive Bayes on raw counts; ``svm`` LinearSVC
   (liblinear, C = ``svm_C``, one-vs-rest) on cosine-normalised TF-IDF (training IDF) of the
   selected terms; ``fh`` Frank & Hall's ordinal decomposition over the same LinearSVC with Platt
   (sigmoid) probabilities (beyond the paper; only for ``fh_selectors`` to bound its cost).
   Score: MSE over ordinal class indices (paper section 4).
4. ``mukras-aggregate``: curves (mean and standard error over folds per k) and the paper's Table 1
   statistic: per fold, the mean MSE over the k of a range (``ranges``, both ends inclusive, as the
   paper's headings "10-350" and "350-3000"), then a paired two-tailed t-test across folds of
   selector vs its plain metric (IG+PRP vs IG; chi2+PRP vs chi2), Wilcoxon beside it; then the
   paper's claims, each tested with a paired t-test across folds per corpus (Holm within a claim)
   and given a verdict by the rules of ``assess_claims``, the gap of every published number
   (``gaps``) and the headline: the relative MSE change IG+PRP vs IG (the one statistic comparable
   across corpora).
5. ``mukras-tables``, ``mukras-figures``, ``mukras-macros``: Table 1 (ours, then the published
   table), the extended grid table, the toy example of Fig. 1/3, Fig. 4 and the grid figure, and
   LaTeX macros of every number the report quotes.

Steps 4 and 5 (and ``mukras-movers``) live in ``termweight.experiments.mukras.report``: their code
is no dependency of steps 1-3.

Where the paper is silent we chose: document presence for the joint table (as
``termweight.multiclass``), PRP on the present and absent columns ([methods][methods-ordinal]; the paper
writes only ``P(c, f_t)``), MNB with Laplace smoothing (alpha = 1), SVM input = cosine TF-IDF (the paper
does not state SVMlight's input), LinearSVC instead of SVMlight. The paper's datasets (Rateitall
Actors and Movies, Edmunds) are no longer public: we use Pang & Lee's scale data (3 and 4 classes)
and Amazon 2018 All_Beauty (5 classes), see README/report.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.intermediates import check
from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError

PUBLISHED = Path(__file__).with_name("published.json")
METRICS = ("ig", "chi2")
SIMILARITIES = ("linear", "exponential", "stepwise", "confusion")
CLASSIFIERS = ("nb", "svm", "fh")
_SELECTOR = re.compile(r"^(ig|chi2)(?:\+(linear|exponential|stepwise|confusion))?$")
CLASSIFIER_LABELS = {"nb": "Naive Bayes", "svm": "SVM (one-vs-rest)", "fh": "Frank & Hall SVM"}
METRIC_LABELS = {"ig": "IG", "chi2": "Chi2"}
SIM_LABELS = {"linear": "PRP", "exponential": "PRP-exp", "stepwise": "PRP-step",
              "confusion": "PRP-conf"}

# ------------------------------------------------------------------------------------- config


def load_config(params_path) -> tuple[dict, dict]:
    """``(params, params['mukras'])`` from a validated params.yaml; dataset names checked."""
    from termweight.datasets import DATASETS
    from termweight.runner.config import load_params

    params = load_params(params_path)
    if "mukras" not in params:
        raise ConfigError(f"{params_path}: no 'mukras' section")
    cfg = params["mukras"]
    for unit, spec in cfg["datasets"].items():
        if spec["dataset"] not in DATASETS:
            raise ConfigError(f"{params_path}: mukras/datasets/{unit}/dataset: unknown dataset "
                              f"{spec['dataset']!r}; known: {', '.join(sorted(DATASETS))}")
    for name in cfg.get("fh_selectors", []):
        if name not in cfg["selectors"]:
            raise ConfigError(f"{params_path}: mukras/fh_selectors: {name!r} is not in "
                              "mukras/selectors")
    for lo, hi in cfg["ranges"]:
        if lo > hi or not any(lo <= k <= hi for k in cfg["features"]):
            raise ConfigError(f"{params_path}: mukras/ranges: [{lo}, {hi}] holds none of the "
                              "feature counts")
    return params, cfg


def fold_names(folds: int) -> list[str]:
    from termweight.splits import split_names

    return split_names({"type": "kfold", "folds": int(folds)})


def selector_parts(name: str) -> tuple[str, str | None]:
    """``'ig+linear'`` -> ``('ig', 'linear')``; ``'chi2'`` -> ``('chi2', None)``."""
    m = _SELECTOR.match(name)
    if not m:
        raise ConfigError(f"unknown selector {name!r}: use ig or chi2, optionally "
                          f"+{'/+'.join(SIMILARITIES)}")
    return m.group(1), m.group(2)


def baseline_of(selector: str) -> str | None:
    """The plain metric a PRP selector is compared with (None for a plain metric)."""
    metric, sim = selector_parts(selector)
    return None if sim is None else metric


def selector_label(selector: str) -> str:
    metric, sim = selector_parts(selector)
    return METRIC_LABELS[metric] + ("" if sim is None else f"+{SIM_LABELS[sim]}")


def range_name(lo: int, hi: int) -> str:
    return f"{lo}-{hi}"


# ------------------------------------------------------------------------------------- protocol


def unit_rows(corpus, author: str | None) -> np.ndarray:
    """Rows of ``corpus`` in the experiment: all, or one Pang & Lee critic's (id prefix)."""
    if author is None:
        return np.arange(corpus.n_docs)
    ids = np.asarray(corpus.doc_ids)
    rows = np.flatnonzero(np.char.startswith(ids.astype(str), f"{author}/"))
    if rows.size == 0:
        raise DataError(corpus.name, f"no documents of author {author!r} (ids '<author>/<id>')")
    return rows


def balanced_folds(labels, per_class: int, folds: int, seed: int, rows=None):
    """Seeded equal-class subsample of ``rows`` (default all), then stratified k-fold CV on it.

    Returns ``(sample, splits)``: the sampled row indices (sorted) and a list of
    ``(name, train_rows, test_rows)``, all indices into the full ``labels``.
    """
    import scipy.sparse as sp

    from termweight.datasets.ordinal import balanced_subsample
    from termweight.splits import make_splits

    labels = np.asarray(labels)
    rows = np.arange(labels.size) if rows is None else np.asarray(rows)
    sample = rows[balanced_subsample(labels[rows], seed=seed, per_class=per_class)]
    y = labels[sample]
    classes = np.unique(labels)
    Y = sp.csr_matrix((np.ones(y.size), (np.arange(y.size), np.searchsorted(classes, y))),
                      shape=(y.size, classes.size))
    splits = make_splits({"type": "kfold", "folds": int(folds), "stratified": True}, Y,
                         np.full(y.size, "all"), seed=seed)
    return sample, [(s.name, sample[s.train], sample[s.test]) for s in splits]


def rank_terms(X_train, y_train, selector: str, n_classes: int, seed: int,
               columns: str = "both") -> tuple[np.ndarray, np.ndarray]:
    """Scores and ranking (best first; ties by lower column) of every column of ``X_train``.

    Uses only the rows it is given (the training rows of a fold). The top-k of the ranking is
    exactly ``SelectKBestJoint(k, metric, prp, ...)``'s support.
    """
    from termweight.multiclass import SelectKBestJoint

    metric, sim = selector_parts(selector)
    sel = SelectKBestJoint(k="all", metric=metric, prp=sim, columns=columns, n_classes=n_classes,
                           random_state=seed).fit(X_train, y_train)
    scores = sel.scores_
    return scores, np.argsort(-scores, kind="stable")


def make_classifier(name: str, C: float = 1.0, seed: int = 0):
    from sklearn.naive_bayes import MultinomialNB

    from termweight.learners.linear import linear_svc
    from termweight.learners.ordinal import FrankHallClassifier

    if name == "nb":
        return MultinomialNB(alpha=1.0)
    if name == "svm":
        return linear_svc(C, random_state=seed)
    if name == "fh":
        return FrankHallClassifier(linear_svc(C, random_state=seed), proba="sigmoid",
                                   calibration_cv=3)
    raise ConfigError(f"unknown classifier {name!r}; choose from {CLASSIFIERS}")


def evaluate_fold(X_train, y_train, X_test, y_test, orders: dict, features, classifiers,
                  fh_selectors=None, C: float = 1.0, seed: int = 0) -> pd.DataFrame:
    """MSE (and accuracy) of every selector x classifier x number of features on one fold.

    ``orders``: selector -> term ranking (columns of ``X_train``/``X_test``, computed from the
    training rows). NB sees raw counts; SVM and Frank & Hall see cosine TF-IDF with the training
    IDF of the selected columns. ``fh_selectors`` limits the ``fh`` classifier (None: all).
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from termweight.encoding import encode, idf_weights
    from termweight.evaluation import ordinal_mse

    idf = idf_weights(X_train)
    n_terms = X_train.shape[1]
    rows = []
    for selector, order in orders.items():
        for k in features:
            cols = np.sort(order[: min(int(k), n_terms)])
            raw_tr, raw_te = X_train[:, cols], X_test[:, cols]
            tfidf = None
            for clf in classifiers:
                if clf == "fh" and fh_selectors is not None and selector not in fh_selectors:
                    continue
                if clf == "nb":
                    A, B = raw_tr, raw_te
                else:
                    if tfidf is None:
                        tfidf = (encode(raw_tr, "tfidf", idf[cols]),
                                 encode(raw_te, "tfidf", idf[cols]))
                    A, B = tfidf
                model = make_classifier(clf, C=C, seed=seed)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    pred = model.fit(A, y_train).predict(B)
                rows.append({"selector": selector, "classifier": clf, "k": int(k),
                             "k_used": int(cols.size), "n_test": int(y_test.size),
                             "mse": ordinal_mse(y_test, pred),
                             "accuracy": float(np.mean(pred == y_test))})
    return pd.DataFrame(rows)



def _log():
    import logging

    return logging.getLogger("termweight")


def _units(args, cfg) -> list[str]:
    units = args.unit or list(cfg["datasets"])
    for u in units:
        if u not in cfg["datasets"]:
            raise ConfigError(f"{args.params}: mukras/datasets has no {u!r}")
    return units


def cmd_split(args) -> None:
    from termweight.corpus import Corpus

    params, cfg = load_config(args.params)
    for unit in _units(args, cfg):
        spec = cfg["datasets"][unit]
        path = args.corpus.format(dataset=spec["dataset"])
        corpus = Corpus.load(path)
        if not corpus.ordinal or corpus.multilabel:
            raise DataError(path, "mukras needs a single-label ordinal corpus")
        labels = corpus.labels
        rows = unit_rows(corpus, spec.get("author"))
        counts = np.bincount(labels[rows], minlength=len(corpus.classes))
        try:
            sample, splits = balanced_folds(labels, spec["per_class"], cfg["folds"],
                                            params["seed"], rows)
        except ValueError as exc:
            raise ConfigError(f"{args.params}: mukras/datasets/{unit}/per_class: {exc} "
                              f"(class sizes {counts.tolist()})") from None
        out = args.out.format(unit=unit)
        arrays = {"sample": sample, "folds": np.asarray([s[0] for s in splits])}
        for name, tr, te in splits:
            arrays[f"train_{name}"], arrays[f"test_{name}"] = tr, te
        io.save_arrays(out, **arrays)
        info = {"unit": unit, "dataset": spec["dataset"], "author": spec.get("author"),
                "classes": corpus.classes, "class_sizes": counts.tolist(),
                "per_class": int(spec["per_class"]), "n_docs": int(sample.size),
                "n_classes": len(corpus.classes), "folds": [s[0] for s in splits],
                "seed": params["seed"],
                "test_sizes": {s[0]: int(s[2].size) for s in splits}}
        io.write_json(Path(out).with_suffix(".json"), info)
        _log().info("%s: class sizes %s -> %d per class (%d docs), %d folds", unit,
                    counts.tolist(), spec["per_class"], sample.size, len(splits))


def _load_fold_splits(path, corpus) -> io.Arrays:
    """A unit's split file (``train_<fold>``, ``test_<fold>`` per fold), every fold checked as a
    split of ``corpus`` (``termweight.intermediates``) when it is read."""
    splits = io.load_arrays(path)
    for key in sorted(k for k in splits if k.startswith("train_")):
        fold = key.removeprefix("train_")
        check("split", path, {"train": splits[key], "test": splits[f"test_{fold}"]},
              n_docs=corpus.n_docs)
    return splits


def _fold_data(corpus, splits, fold):
    tr, te = splits[f"train_{fold}"], splits[f"test_{fold}"]
    labels = corpus.labels
    Xtr = corpus.X[tr]
    columns = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)  # terms of the training rows
    return columns, Xtr[:, columns], labels[tr], corpus.X[te][:, columns], labels[te]


def _folds(args, cfg) -> list[str]:
    names = fold_names(cfg["folds"])
    folds = args.fold or names
    bad = sorted(set(folds) - set(names))
    if bad:
        raise ConfigError(f"unknown folds {bad}; the protocol has {names[0]}..{names[-1]}")
    return folds


def _fold_jobs(args, cfg):
    """Yield ``(unit, fold, fold data)`` for every selected unit and fold, loading each corpus once."""
    from termweight.corpus import Corpus

    for unit in _units(args, cfg):
        corpus = Corpus.load(args.corpus.format(dataset=cfg["datasets"][unit]["dataset"]))
        splits = _load_fold_splits(args.splits.format(unit=unit), corpus)
        for fold in _folds(args, cfg):
            yield unit, fold, corpus, _fold_data(corpus, splits, fold)


def cmd_score(args) -> None:
    params, cfg = load_config(args.params)
    for unit, fold, corpus, (columns, Xtr, ytr, _, _) in _fold_jobs(args, cfg):
        t0 = time.perf_counter()
        arrays = {"columns": columns}
        for sel in cfg["selectors"]:
            scores, order = rank_terms(Xtr, ytr, sel, len(corpus.classes), params["seed"],
                                       cfg["prp_columns"])
            arrays[f"scores_{sel}"], arrays[f"order_{sel}"] = scores, order
        io.save_arrays(args.out.format(unit=unit, fold=fold), **arrays)
        _log().info("%s %s: %d training docs, %d terms, %d selectors in %.2f s", unit, fold,
                    Xtr.shape[0], columns.size, len(cfg["selectors"]), time.perf_counter() - t0)


def cmd_evaluate(args) -> None:
    params, cfg = load_config(args.params)
    for unit, fold, _, (columns, Xtr, ytr, Xte, yte) in _fold_jobs(args, cfg):
        t0 = time.perf_counter()
        scores = io.load_arrays(args.scores.format(unit=unit, fold=fold))
        if not np.array_equal(scores["columns"], columns):
            raise DataError(args.scores.format(unit=unit, fold=fold),
                            "term columns differ from the fold's training terms")
        orders = {s: scores[f"order_{s}"] for s in cfg["selectors"]}
        for order in orders.values():
            check("ranking", scores.path, {"order": order}, n_terms=columns.size)
        frame = evaluate_fold(Xtr, ytr, Xte, yte, orders, cfg["features"],
                              cfg["classifiers"], cfg.get("fh_selectors"), cfg["svm_C"],
                              params["seed"])
        frame.insert(0, "fold", fold)
        frame.insert(0, "unit", unit)
        io.write_table(args.out.format(unit=unit, fold=fold), frame)
        _log().info("%s %s: %d fits in %.2f s", unit, fold, len(frame),
                    time.perf_counter() - t0)

def register(sub) -> None:
    def base(name, func, help_):
        p = sub.add_parser(f"mukras-{name}", help=f"Mukras et al.: {help_}")
        p.add_argument("--params", required=True, help="params.yaml (section 'mukras')")
        p.set_defaults(func=func)
        return p

    def units(p):
        p.add_argument("--unit", nargs="+", help="dataset entries of mukras/datasets "
                       "(default: all)")

    def folds(p):
        p.add_argument("--fold", nargs="+", help="fold names (default: all)")

    p = base("split", cmd_split, "balanced subsample + k-fold splits per dataset")
    units(p)
    p.add_argument("--corpus", required=True, help="corpus directory template with {dataset}")
    p.add_argument("--out", required=True, help="splits .npz template with {unit}")

    for name, func, help_ in (("score", cmd_score, "term scores and rankings per fold"),
                              ("evaluate", cmd_evaluate, "MSE per selector x classifier x k")):
        p = base(name, func, help_)
        units(p)
        folds(p)
        p.add_argument("--corpus", required=True, help="template with {dataset}")
        p.add_argument("--splits", required=True, help="template with {unit}")
        if name == "evaluate":
            p.add_argument("--scores", required=True, help="template with {unit} and {fold}")
        p.add_argument("--out", required=True, help="template with {unit} and {fold}")


__all__ = ["balanced_folds", "evaluate_fold", "load_config", "rank_terms", "register"]


# --- the paper's declaration (termweight.experiments.papers) -------------------------------------
