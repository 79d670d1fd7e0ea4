"""Esuli & Sebastiani (ECIR 2009): ordinal-to-binary encoding for AdaBoost.MH and MP-Boost.

Protocol (paper section 3; [methods: experiments][methods-experiments]):

- Reuters-21578 ModApte, 9,603 training / 3,299 test stories, the 90 categories with >= 1 training
  and >= 1 test positive (the registered text dataset ``reuters21578``, through the generic
  prepare_text -> tokenize -> count rules: lower-case, no punctuation, no tokens with digits, stop
  words removed, original Porter stemmer). The terms are those occurring in the training rows.
- Representations: ``binary`` (presence); ``ordinal``: for every term and every threshold ``v``
  a binary feature ``#(t, d) >= v`` (``termweight.encoding.ThresholdEncoder``, fitted on the
  training rows only); ``tfidf``: ``tf * log(N / df)`` (training N, df), rows L2-normalised.
- Learners: AdaBoost.MH and MP-Boost (``termweight.learners.boosting``) at 1,000 rounds on
  binary and ordinal features; one-vs-rest linear SVMs (liblinear, C = 1) on tf-idf, one run per
  loss in ``svm_losses``: ``squared_hinge`` (LinearSVC's default, run ``svm_tfidf``) and
  ``hinge`` (the loss SVM-light minimises, run ``svm_tfidf_hinge``).
- Evaluation: micro P, R, F1 from pooled counts; macro P, R and F1 as MEANS of the per-category
  values (macro-F1 = mean of per-category F1, the paper's F1^M); 0/0 counts as 0. The report also
  gives macro-precision with 0/0 counted as 1 (a category never predicted positive has precision
  1), the convention the paper's high macro-precision beside its low macro-recall implies;
  both come from the same per-category counts. F1 against the
  boosting round 1..T comes from the learners' ``staged_decision_function`` (one incremental pass
  over the rounds; per round one vectorised confusion count over documents x categories).

Which thresholds? -- the paper's text against its numbers. Section 2 says to generate a feature
"for all *and only* the different values v_1, ..., v_n(k) that #(t_k, -) takes in the training
set" and section 3 calls 2.34 "the average number of different nonzero values that #(t_k, -)
actually takes in the training set". The [methods page][methods-encoding] says the same. That is the
DEFAULT here (representation ``ordinal``, ``thresholds="distinct"``). On our ModApte training set it gives far
fewer features than the paper prints (about 1.8 values per term against 2.34), whereas thresholds
at EVERY integer 1..max training count of the term (representation ``ordinal_every``) give about
2.38 per term, close to the printed 20,123 -> 47,087. Both are run and reported; the report
(``reports/tables/esuli_notes.tex``) states the numbers. On the TRAINING rows the two encodings
are the same set of distinct columns (a threshold between two consecutive training values
duplicates the next one up), so the boosters see the same splits; with the lowest feature index
winning ties, ``ordinal_every`` uses the LOWEST threshold ``v_{i-1} + 1`` where ``ordinal`` uses
``v_i``, which changes only test documents whose count falls strictly between two training
values.

CLI steps (``python -m termweight esuli-<step>``): ``features``, ``boost``, ``evaluate``, ``svm``
(see ``register``); ``report`` and ``figure`` are registered by
``termweight.experiments.esuli.report``.
"""

from __future__ import annotations

import json
import logging
import time
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from termweight.intermediates import load
from termweight.learners.registry import LEARNERS as LEARNER_REGISTRY
from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError

log = logging.getLogger("termweight.esuli")

#: the boosters (termweight.learners.registry) -> their names in the tables and the figure
LEARNERS = {name: LEARNER_REGISTRY[name].display for name in ("adaboost_mh", "mp_boost")}
REPRESENTATIONS = {"binary": "Binary", "ordinal": "Ordinal",
                   "ordinal_every": "Ordinal (every integer)", "tfidf": "Weighted (tf-idf)"}
THRESHOLDS = {"ordinal": "distinct", "ordinal_every": "every"}
SVM_RUN = "svm_tfidf"
#: SVM loss -> run name (``svm_losses`` in params.yaml; the first run keeps the historical name)
SVM_LOSSES = {"squared_hinge": SVM_RUN, "hinge": f"{SVM_RUN}_hinge"}
DEFAULT_SVM_LOSSES = ("squared_hinge",)
MEASURES = ("micro_precision", "micro_recall", "micro_f1",
            "macro_precision", "macro_recall", "macro_f1")
TOLERANCE = 0.02


def published() -> dict:
    """The paper's printed numbers (this package's ``published.json``)."""
    text = resources.files(__name__).joinpath("published.json").read_text(encoding="utf-8")
    return json.loads(text)


def run_name(learner: str, rep: str) -> str:
    return f"{learner}_{rep}"


def published_key(run: str) -> str | None:
    """Key of the paper's Table 1 row a run is compared with (``ordinal_every`` -> Ordinal)."""
    if run in SVM_LOSSES.values():
        return "svm/tfidf"
    for learner in LEARNERS:
        if run.startswith(learner + "_"):
            rep = run[len(learner) + 1:]
            return f"{learner}/{'ordinal' if rep.startswith('ordinal') else rep}"
    return None


def svm_losses(cfg: dict) -> list[str]:
    """The SVM losses of the ``esuli`` section (``svm_losses``; default: squared hinge only)."""
    losses = list(cfg.get("svm_losses", DEFAULT_SVM_LOSSES))
    unknown = [x for x in losses if x not in SVM_LOSSES]
    if unknown or not losses:
        raise ConfigError(f"svm_losses {losses!r}: give one or more of {', '.join(SVM_LOSSES)}")
    return losses


def esuli_config(params_path) -> dict:
    from termweight.runner.config import load_params

    params = load_params(params_path)
    if "esuli" not in params:
        raise ConfigError(f"{params_path}: no 'esuli' section")
    return params["esuli"]


# --- protocol pieces (pure functions) ----------------------------------------------------------

def modapte_split(subset) -> tuple[np.ndarray, np.ndarray]:
    """Row indices of the predefined ``train`` and ``test`` subsets."""
    subset = np.asarray(subset)
    train, test = np.flatnonzero(subset == "train"), np.flatnonzero(subset == "test")
    if train.size == 0 or test.size == 0:
        raise DataError("corpus", f"needs train and test documents; found {train.size} and "
                                  f"{test.size}")
    return train, test


def training_terms(X_train) -> np.ndarray:
    """Columns occurring in at least one training row."""
    return np.flatnonzero(np.diff(sp.csc_matrix(X_train).indptr) > 0)


def encode_representation(rep: str, X_train, X_test):
    """``(train, test, info)`` of one representation, fitted on the training rows only."""
    from termweight.encoding import ThresholdEncoder, binary, encode, idf_weights

    info = {"n_terms": int(X_train.shape[1])}
    if rep == "binary":
        return binary(X_train), binary(X_test), {**info, "n_features": int(X_train.shape[1])}
    if rep == "tfidf":
        idf = idf_weights(X_train)
        return (encode(X_train, "tfidf", idf), encode(X_test, "tfidf", idf),
                {**info, "n_features": int(X_train.shape[1])})
    if rep in THRESHOLDS:
        enc = ThresholdEncoder(thresholds=THRESHOLDS[rep]).fit(X_train)
        return enc.transform(X_train), enc.transform(X_test), {
            **info, "n_features": enc.n_features_out_, "thresholds": THRESHOLDS[rep],
            "values_per_term": enc.mean_values_per_term_}
    raise ConfigError(f"unknown representation {rep!r}; known: {', '.join(REPRESENTATIONS)}")


def feature_summary(X_train, X_all) -> dict:
    """Feature counts before and after ordinal encoding under the readings of the paper."""
    from termweight.encoding import ThresholdEncoder

    out = {"terms_before": int(X_train.shape[1])}
    for name, thresholds, X in (("distinct_train", "distinct", X_train),
                                ("every_train", "every", X_train),
                                ("distinct_train_and_test", "distinct", X_all)):
        enc = ThresholdEncoder(thresholds=thresholds).fit(X)
        out[name] = {"features_after": int(enc.n_features_out_),
                     "values_per_term": round(enc.mean_values_per_term_, 6)}
    top = np.asarray(sp.csr_matrix(X_train).max(axis=0).todense()).ravel()
    out["terms_with_one_value"] = int(np.sum(top == 1))
    out["max_training_count"] = int(top.max())
    return out


def confusion_per_round(staged_scores, Y_true) -> dict[str, np.ndarray]:
    """Per-round, per-category ``tp, fp, fn`` (T x k int64) from an iterable of score arrays.

    Vectorised over documents and categories; one pass over the rounds (no retraining).
    """
    Y = np.asarray(sp.csr_matrix(Y_true).toarray(), dtype=bool)
    n_pos = Y.sum(axis=0)
    tps, preds = [], []
    for F in staged_scores:
        P = np.asarray(F) > 0
        preds.append(np.count_nonzero(P, axis=0))
        tps.append(np.count_nonzero(P & Y, axis=0))
    tp = np.asarray(tps, dtype=np.int64).reshape(-1, Y.shape[1])
    pred = np.asarray(preds, dtype=np.int64).reshape(-1, Y.shape[1])
    return {"tp": tp, "fp": pred - tp, "fn": n_pos[None, :] - tp}


def scores_from_counts(tp, fp, fn) -> dict[str, np.ndarray]:
    """Micro/macro precision, recall, F1 from counts (..., k); 0/0 = 0; macro = mean over k."""
    from termweight.evaluation import rates

    tp, fp, fn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn))
    zero = np.zeros_like(tp)
    per = rates(tp, fp, fn, zero)
    micro = rates(tp.sum(-1), fp.sum(-1), fn.sum(-1), zero.sum(-1))
    return {"micro_precision": micro["precision"], "micro_recall": micro["recall"],
            "micro_f1": micro["f1"], "macro_precision": per["precision"].mean(-1),
            "macro_recall": per["recall"].mean(-1), "macro_f1": per["f1"].mean(-1)}


def macro_precision_no_prediction_as_one(tp, fp) -> float:
    """Macro precision where a category with no positive prediction (0/0) counts as 1."""
    tp, fp = np.asarray(tp, float), np.asarray(fp, float)
    return float(np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), 1.0).mean())


def category_frame(classes, Y_train, Y_test, tp, fp, fn) -> pd.DataFrame:
    from termweight.evaluation import rates

    n = Y_test.shape[0]
    tn = n - tp - fp - fn
    r = rates(tp, fp, fn, tn)
    return pd.DataFrame({
        "category": list(classes),
        "train_pos": np.asarray(sp.csr_matrix(Y_train).sum(axis=0)).ravel().astype(np.int64),
        "test_pos": np.asarray(sp.csr_matrix(Y_test).sum(axis=0)).ravel().astype(np.int64),
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": r["precision"], "recall": r["recall"], "f1": r["f1"]})


def run_scores(frame: pd.DataFrame) -> dict[str, float]:
    s = scores_from_counts(frame["tp"].to_numpy(), frame["fp"].to_numpy(), frame["fn"].to_numpy())
    return {k: float(v) for k, v in s.items()}


def booster_class(learner: str):
    """The estimator class of booster ``learner`` (``LEARNERS``; the registry names it)."""
    from termweight.learners import boosting  # a static import: the steps' code dependency

    if learner not in LEARNERS:
        raise ConfigError(f"unknown learner {learner!r}; known: {', '.join(LEARNERS)}")
    return getattr(boosting, LEARNER_REGISTRY[learner].attr)


def booster(learner: str, rounds: int):
    return booster_class(learner)(n_rounds=int(rounds))


# --- CLI steps -----------------------------------------------------------------------------------

def _lists(args, attr: str, key: str) -> list[str]:
    given = getattr(args, attr)
    if given:
        return list(given)
    if not args.params:
        raise ConfigError(f"give --{attr.replace('_', '-')} or --params")
    return list(esuli_config(args.params)[key])


def _config(args) -> dict:
    """The ``esuli:`` section of ``--params``: the one channel of its settings."""
    if not args.params:
        raise ConfigError("give --params (the esuli section of params.yaml)")
    return esuli_config(args.params)


def _classes(corpus_dir) -> list[str]:
    from termweight.intermediates import read_classes

    return read_classes(Path(corpus_dir) / "meta.json")


def cmd_features(args) -> None:
    """Corpus -> one train/test matrix file per representation + feature-count summary."""
    from termweight.corpus import Corpus

    corpus = Corpus.load(args.corpus)
    train, test = modapte_split(corpus.subset)
    cols = training_terms(corpus.X[train])
    X = corpus.X[:, cols]
    Xtr, Xte = X[train], X[test]
    reps = _lists(args, "reps", "representations")
    if "tfidf" not in reps:
        reps = [*reps, "tfidf"]
    summary = {"dataset": corpus.name, "train_docs": int(train.size), "test_docs": int(test.size),
               "categories": len(corpus.classes),
               "train_docs_without_category": int(np.sum(corpus.Y[train].sum(axis=1) == 0)),
               **feature_summary(Xtr, X), "representations": {}}
    for rep in reps:
        t0 = time.perf_counter()
        A, B, info = encode_representation(rep, Xtr, Xte)
        io.save_arrays(args.out.format(rep=rep), X_train=A, X_test=B, Y_train=corpus.Y[train],
                       Y_test=corpus.Y[test])
        summary["representations"][rep] = {**info, "train_nnz": int(A.nnz)}
        log.info("%s: %d terms -> %d features, %d training nonzeros (%.2f s)", rep,
                 info["n_terms"], info["n_features"], A.nnz, time.perf_counter() - t0)
    io.write_json(args.summary, summary)


def cmd_boost(args) -> None:
    """Features -> a fitted booster (plain arrays) per (learner, representation)."""
    rounds = int(_config(args)["rounds"])
    for rep in _lists(args, "reps", "representations"):
        for learner in _lists(args, "learners", "learners"):
            feats, _ = load("encoded", args.features.format(rep=rep))
            Y = feats["Y_train"].toarray().astype(bool)
            est = booster(learner, rounds)
            t0, c0 = time.perf_counter(), time.process_time()
            est.fit(feats["X_train"], Y)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            io.save_arrays(args.out.format(learner=learner, rep=rep), **est.to_arrays())
            log.info("%s on %s: %d rounds, %d docs x %d features x %d labels in %.1f s wall, "
                     "%.1f s CPU (%.1f rounds/s)", learner, rep, rounds, *feats["X_train"].shape,
                     Y.shape[1], wall, cpu, rounds / wall)


def cmd_evaluate(args) -> None:
    """Model + test features -> F1 per round (curve) and final per-category counts."""
    classes = _classes(args.corpus)
    for rep in _lists(args, "reps", "representations"):
        for learner in _lists(args, "learners", "learners"):
            feats, _ = load("encoded", args.features.format(rep=rep))
            arrays = io.load_arrays(args.model.format(learner=learner, rep=rep))
            est = booster_class(learner).from_arrays(arrays)
            t0 = time.perf_counter()
            counts = confusion_per_round(est.staged_decision_function(feats["X_test"]),
                                         feats["Y_test"])
            curve = scores_from_counts(counts["tp"], counts["fp"], counts["fn"])
            frame = pd.DataFrame({"round": np.arange(1, counts["tp"].shape[0] + 1), **curve})
            io.write_table(args.out_curve.format(learner=learner, rep=rep), frame)
            final = category_frame(classes, feats["Y_train"], feats["Y_test"],
                                   counts["tp"][-1], counts["fp"][-1], counts["fn"][-1])
            io.write_table(args.out_categories.format(run=run_name(learner, rep)), final)
            s = run_scores(final)
            log.info("%s on %s: %d rounds evaluated in %.2f s; micro-F1 %.4f, macro-F1 %.4f",
                     learner, rep, len(frame), time.perf_counter() - t0, s["micro_f1"],
                     s["macro_f1"])


def fit_svm(X, Y, C: float = 1.0, loss: str = "squared_hinge"):
    """One-vs-rest linear SVMs (liblinear's dual solver, penalised bias) with ``loss``.

    ``squared_hinge`` is ``termweight.learners.linear.fit_one_vs_rest`` (LinearSVC's default);
    ``hinge`` is the same fit with the hinge loss ``max(0, 1 - y w.x)``, the loss SVM-light
    minimises. Returns ``coef, intercept, fitted`` as ``fit_one_vs_rest`` does."""
    from sklearn.svm import LinearSVC

    from termweight.learners.linear import _fit_tasks, fit_one_vs_rest

    if loss == "squared_hinge":
        return fit_one_vs_rest(X, Y, C=C)
    if loss != "hinge":
        raise ConfigError(f"unknown SVM loss {loss!r}; known: {', '.join(SVM_LOSSES)}")

    def fit_one(Xc, y):
        svm = LinearSVC(C=C, loss="hinge", dual=True, random_state=0, max_iter=10000).fit(Xc, y)
        return svm.coef_[0], svm.intercept_[0]

    return _fit_tasks(X, Y, fit_one)


def cmd_svm(args) -> None:
    """tf-idf features -> one-vs-rest linear SVM per loss -> per-category test counts."""
    from termweight.evaluation import confusion_counts
    from termweight.learners.linear import decision_scores

    cfg = _config(args)
    C, losses = float(cfg["svm_C"]), svm_losses(cfg)
    if "{run}" not in args.out and len(losses) > 1:
        raise ConfigError(f"--out {args.out!r}: give a template with {{run}} for the "
                          f"{len(losses)} SVM losses {losses}")
    feats, _ = load("encoded", args.features)
    for loss in losses:
        t0, c0 = time.perf_counter(), time.process_time()
        coef, intercept, fitted = fit_svm(feats["X_train"], feats["Y_train"], C=C, loss=loss)
        pred = decision_scores(feats["X_test"], coef, intercept) > 0
        counts = confusion_counts(feats["Y_test"], pred.astype(np.uint8))
        frame = category_frame(_classes(args.corpus), feats["Y_train"], feats["Y_test"],
                               counts["tp"].to_numpy(), counts["fp"].to_numpy(),
                               counts["fn"].to_numpy())
        io.write_table(args.out.format(run=SVM_LOSSES[loss]), frame)
        s = run_scores(frame)
        log.info("LinearSVC (C=%g, %s loss) on tf-idf: %d/%d categories fitted in %.1f s wall, "
                 "%.1f s CPU; micro-F1 %.4f, macro-F1 %.4f", C, loss, int(fitted.sum()),
                 fitted.size, time.perf_counter() - t0, time.process_time() - c0,
                 s["micro_f1"], s["macro_f1"])


def common_options(p, learners=True, reps=True) -> None:
    """``--params`` and (optionally) ``--learners`` and ``--reps`` of an ``esuli-*`` step."""
    p.add_argument("--params", help="params.yaml (default lists and settings come from its "
                                    "'esuli' section)")
    if learners:
        p.add_argument("--learners", nargs="+", choices=sorted(LEARNERS))
    if reps:
        p.add_argument("--reps", nargs="+", choices=sorted(REPRESENTATIONS))


def register(sub) -> None:
    """``esuli-features``, ``esuli-boost``, ``esuli-evaluate``, ``esuli-svm`` (``esuli-report`` and
    ``esuli-figure``: ``termweight.experiments.esuli.report.register``)."""
    p = sub.add_parser("esuli-features", help="Esuli: binary / ordinal / tf-idf matrices")
    p.add_argument("--corpus", required=True)
    p.add_argument("--out", required=True, help="template with {rep}")
    p.add_argument("--summary", required=True, help="feature-count summary JSON")
    common_options(p, learners=False)
    p.set_defaults(func=cmd_features)

    p = sub.add_parser("esuli-boost", help="Esuli: AdaBoost.MH / MP-Boost training")
    p.add_argument("--features", required=True, help="template with {rep}")
    p.add_argument("--out", required=True, help="template with {learner} and {rep}")
    common_options(p)
    p.set_defaults(func=cmd_boost)

    p = sub.add_parser("esuli-evaluate", help="Esuli: F1 per boosting round and per category")
    p.add_argument("--corpus", required=True, help="corpus directory (for the category names)")
    p.add_argument("--features", required=True, help="template with {rep}")
    p.add_argument("--model", required=True, help="template with {learner} and {rep}")
    p.add_argument("--out-curve", required=True, help="template with {learner} and {rep}")
    p.add_argument("--out-categories", required=True, help="template with {run}")
    common_options(p)
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("esuli-svm", help="Esuli: linear SVMs (each loss of svm_losses) on cosine "
                                         "tf-idf")
    p.add_argument("--corpus", required=True)
    p.add_argument("--features", required=True)
    p.add_argument("--out", required=True, help="template with {run} (svm_tfidf, "
                                                "svm_tfidf_hinge); a plain path for one loss")
    common_options(p, learners=False, reps=False)
    p.set_defaults(func=cmd_svm)


__all__ = ["register", "published", "modapte_split", "training_terms", "encode_representation",
           "feature_summary", "confusion_per_round", "scores_from_counts"]


# --- the paper's declaration (termweight.experiments.papers) -------------------------------------
