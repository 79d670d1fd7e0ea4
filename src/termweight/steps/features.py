"""Per split: training statistics, metric scores, encoded matrices: ``stats``, ``score``,
``encode``."""

from __future__ import annotations

import logging

import numpy as np

from termweight.runner import common, io

log = logging.getLogger("termweight")


def cmd_stats(args) -> None:
    """Training-row statistics of each split; the kept columns are the terms present in training."""
    from termweight.corpus import Corpus
    from termweight.splits import Split
    from termweight.statistics import term_stats

    corpus = Corpus.load(args.corpus)
    for name in common.names(args):
        split = Split.load(common.fmt(args.split, split=name), n_docs=corpus.n_docs)
        Xtr, Ytr = corpus.X[split.train], corpus.Y[split.train]
        columns = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)
        st = term_stats(Xtr[:, columns], Ytr)
        io.save_arrays(common.fmt(args.out, split=name), columns=columns, tp=st.tp, pos=st.pos,
                       df=st.df, n_docs=np.asarray(st.n_docs))
        no_pos = [corpus.classes[c] for c in np.flatnonzero(st.pos == 0)]
        if no_pos:
            log.warning("split %s: classes without training positives: %s", name, no_pos)
        log.info("split %s: %d training docs, %d terms kept", name, st.n_docs, columns.size)
    common.prune(args, args.out)


def _load_stats(path, corpus=None, split=None):
    """``(columns, TermStats)`` of a stats file, checked against itself and, when given, the
    corpus (term indices, classes) and the split (training rows)."""
    from termweight.intermediates import load
    from termweight.statistics import TermStats

    dims = {} if corpus is None else {"n_corpus_terms": corpus.X.shape[1],
                                      "n_classes": corpus.Y.shape[1]}
    if split is not None:
        dims["n_train"] = split.train.size
    a, _ = load("stats", path, **dims)
    return a["columns"], TermStats(tp=a["tp"], pos=a["pos"], df=a["df"], n_docs=int(a["n_docs"]))


def cmd_score(args) -> None:
    from termweight import scoring

    metrics = args.metrics or common.experiment(args)[1].get("scores", [])
    for name in common.names(args):
        _, st = _load_stats(common.fmt(args.stats, split=name))
        arrays = {m: scoring.score(m, st) for m in metrics}
        io.save_arrays(common.fmt(args.out, split=name), **arrays)
        log.info("split %s: scored %s for %d tasks x %d terms", name, metrics,
                 st.n_classes, st.n_terms)
    common.prune(args, args.out)


def encode_split(X, Y, split, scores, encoding: str, learned_options=None) -> dict:
    """One split's encoded arrays: ``X_train``, ``X_test``, ``Y_train``, ``Y_test`` and, for a
    supervised weighting, ``col_weights`` (one row per task), all from the training rows only.

    ``X``: the corpus counts over the split's kept terms; ``scores``: the metrics of the split's
    training statistics (idf for the idf bases; the weighting's own metric, or what a learned
    weighting needs); ``learned_options``: the options of a learned weighting (mix-ch)."""
    from termweight.encoding import IDF_BASES, SKLEARN_BASES, encode, sklearn_tfidf
    from termweight.scoring import as_scaling_weights
    from termweight.weighting import LEARNED, encoding_parts, learned_weights

    base, metric = encoding_parts(encoding)
    if base in SKLEARN_BASES:  # scikit-learn's TfidfTransformer, fitted on the training rows
        X_train, X_test = sklearn_tfidf(X[split.train], X[split.test], base)
        return {"X_train": X_train, "X_test": X_test, "Y_train": Y[split.train],
                "Y_test": Y[split.test]}
    idf = scores["idf"][0] if base in IDF_BASES else None
    # BM25: the mean length of the TRAINING documents (over the kept terms)
    avgdl = float(X[split.train].sum()) / max(split.train.size, 1) if base == "bm25tf" else None
    X_train = encode(X[split.train], base, idf, avgdl=avgdl)
    extra = {}
    if metric in LEARNED:
        extra["col_weights"] = learned_weights(metric, X_train, Y[split.train], scores,
                                               learned_options)
    elif metric is not None:
        extra["col_weights"] = as_scaling_weights(scores[metric])
    return {"X_train": X_train, "X_test": encode(X[split.test], base, idf, avgdl=avgdl),
            "Y_train": Y[split.train], "Y_test": Y[split.test], **extra}


def fold_encoder(X, Y, encoding: str, learned_options=None):
    """The encoder of the inner folds of one training part (``X``, ``Y``: its counts and labels):
    ``(tr, va) -> (X_tr, X_va, col_weights)``, ``encode_split`` of the rows ``tr`` against
    ``va`` with every statistic (training statistics, the weighting's scores, idf, BM25's mean
    length, mix-ch's weights) from the rows ``tr`` only
    (``termweight.learners.protocol.cv_scores``)."""
    from types import SimpleNamespace

    from termweight import scoring
    from termweight.statistics import term_stats
    from termweight.weighting import needed_scores

    metrics = needed_scores([encoding])

    def encode_fold(tr, va):
        st = term_stats(X[tr], Y[tr])
        scores = {m: scoring.score(m, st) for m in metrics}
        enc = encode_split(X, Y, SimpleNamespace(train=tr, test=va), scores, encoding,
                           learned_options)
        return enc["X_train"], enc["X_test"], enc.get("col_weights")

    return encode_fold


def cmd_encode(args) -> None:
    from termweight.corpus import Corpus
    from termweight.intermediates import load
    from termweight.splits import Split
    from termweight.weighting import LEARNED, encoding_parts

    corpus = Corpus.load(args.corpus)
    encodings = common.encodings(args)
    # learned weightings (the benchmark's mix-ch) take their options from the run
    learned_options = (common.experiment(args)[1].get("mixch", {}) if args.params and any(
        encoding_parts(e)[1] in LEARNED for e in encodings) else {})

    def one(name):
        split = Split.load(common.fmt(args.split, split=name), n_docs=corpus.n_docs)
        columns, _ = _load_stats(common.fmt(args.stats, split=name), corpus, split)
        scores, _ = load("scores", common.fmt(args.scores, split=name),
                         n_classes=corpus.Y.shape[1], n_terms=columns.size)
        X = corpus.X[:, columns]
        for encoding in encodings:
            io.save_arrays(common.fmt(args.out, split=name, encoding=encoding),
                           **encode_split(X, corpus.Y, split, scores, encoding, learned_options))
            log.info("split %s: encoded %s (%d features)", name, encoding, columns.size)

    common.for_each(args, one, common.names(args))
    common.prune(args, args.out)


def register(sub) -> None:
    """``stats``, ``score``, ``encode``."""
    p = sub.add_parser("stats", help="training statistics per split")
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--split", required=True, help=common.SPLIT_HELP)
    p.add_argument("--out", required=True,
                   help="statistics file template with {split} (.npz, training rows only)")
    common.add_names(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("score", help="metric scores per split")
    p.add_argument("--stats", required=True, help=common.STATS_HELP)
    p.add_argument("--metrics", nargs="+", metavar="METRIC",
                   help="metric names (python -m termweight list metrics; default: the "
                   "experiment's scores)")
    p.add_argument("--out", required=True,
                   help="scores file template with {split} (.npz, one array per metric)")
    common.add_names(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("encode", help="encoded train/test matrices per split")
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--split", required=True, help=common.SPLIT_HELP)
    p.add_argument("--stats", required=True, help=common.STATS_HELP)
    p.add_argument("--scores", required=True,
                   help="scores file template with {split}, written by score")
    p.add_argument("--out", required=True,
                   help="encoded-matrix template with {split} and {encoding} (.npz)")
    common.add_names(p, encodings=True)
    p.set_defaults(func=cmd_encode)
