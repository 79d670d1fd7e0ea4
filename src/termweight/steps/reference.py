"""The benchmark's reference learner outside term weighting: ``benchmark-reference``.

For one dataset's run (``bench_<dataset>``), fastText's supervised classifier
(``termweight.learners.reference.FastTextClassifier``) is trained from scratch on each split's
training documents and evaluated on its test documents, in the benchmark's column format (a row
per split and task, ``learner`` = ``fasttext``), so ``aggregate`` and the report read it as they
read a weighting's column. Its input is the corpus's count matrix, the bag of words every
weighting sees (term ``j`` written ``t<j>``, repeated its count times; a count matrix keeps no
word order, so fastText runs on unigrams). The number of epochs is chosen by the tuned
protocol's inner folds and criterion (macro-F1 of the top-1 prediction, or of the per-class
decisions for multi-label data) from ``--epochs``; ties go to the fewer epochs. Where the most
epochs win by more than the benchmark's ROPE (0.01) over the best of the others, the grid is
doubled at its top (200, 400, ...), until that stops or ``--max-epochs`` is reached; a choice at
that cap is logged as an edge. The column's ``value`` is the epochs chosen.
"""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from termweight.runner import common, io
from termweight.settings import benchmark_settings, protocol_of

log = logging.getLogger("termweight")

#: the epochs the inner folds choose from: the estimator's default and more (5, the paper's, fit
#: a trivial model on tr23's ~100 training documents per split)
EPOCHS = (25, 50, 100)
#: the grid grows by doubling its top while the top wins by more than MARGIN, up to MAX_EPOCHS.
#: 20news's first run (2026-12-04, bigrams) chose 100 with its inner macro-F1 still rising (0.819,
#: 0.836, 0.842); grown while the top won at all (unigrams), it went on to 400 (0.817, 0.834,
#: 0.840, 0.845, 0.846) in 421 s instead of 153 s, test macro-F1 0.7485 against 0.7495 at 100
MAX_EPOCHS = 400
#: the gain that pays for a doubling: the benchmark's ROPE, the edge probe's rule for C
MARGIN = 0.01
#: a count matrix keeps no word order: fastText sees unigrams only (its bigrams would pair terms
#: adjacent in the vocabulary's column order, which no document has)
WORD_NGRAMS = 1


def register(sub) -> None:
    """``benchmark-reference`` (registered with the benchmark's commands)."""
    p = sub.add_parser("benchmark-reference", help="the benchmark: fastText, the reference row",
                       description=common.first_line(__doc__))
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--split", required=True, help=common.SPLIT_HELP)
    p.add_argument("--settings",
                   help="the resolved protocol (data/benchmark/settings.json); default: resolved "
                   "from --params")
    p.add_argument("--epochs", type=int, nargs="+", default=list(EPOCHS),
                   help="epochs the inner folds choose from (default: %(default)s)")
    p.add_argument("--max-epochs", type=int, default=MAX_EPOCHS,
                   help="while the most epochs win by more than 0.01, double them up to this "
                   "(default: %(default)s)")
    p.add_argument("--out", required=True,
                   help="per-task metrics, CSV: a row per split and task (learner fasttext)")
    common.add_names(p)
    p.set_defaults(func=cmd_reference)


def documents(X) -> list[str]:
    """Each row of a count matrix as the text fastText reads: column ``j`` written ``t<j>``,
    repeated its (rounded) count times, in column order."""
    X = sp.csr_matrix(X)
    counts = np.rint(X.data).astype(np.int64)
    if (counts < 0).any():
        raise ValueError("negative counts")
    words = np.char.add("t", X.indices.astype(str))
    out = []
    for i in range(X.shape[0]):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        out.append(" ".join(np.repeat(words[lo:hi], counts[lo:hi])))
    return out


def _labels_for_fit(Y):
    """Single-label ``Y``: the class index per row (softmax); else the indicator (one sigmoid
    per class)."""
    from termweight.learners.protocol import is_single_label

    Y = sp.csr_matrix(Y)
    return np.asarray(Y.argmax(axis=1)).ravel() if is_single_label(Y) else Y.toarray()


def _decisions(model, docs, n_classes: int) -> np.ndarray:
    """``(n_docs, n_classes)`` log-odds in the corpus's class order (a class absent from the
    training rows: -inf, never predicted)."""
    D = np.full((len(docs), n_classes), -np.inf)
    D[:, np.asarray(model.classes_, dtype=int)] = model.decision_function(docs)
    return D


def choose_epochs(docs, Y, epochs, protocol, seed: int,
                  max_epochs: int = MAX_EPOCHS) -> tuple[int, dict[int, float]]:
    """The epochs with the best mean inner macro-F1 (ties: the fewer), and every tried value's
    score. ``epochs`` first; while its largest value wins and is below ``max_epochs``, the
    double of it (capped there) is tried too. Each inner fold trains on its inner-training rows
    only, the same folds for every value."""
    from termweight.learners.protocol import inner_folds, is_single_label, macro_f1, top1
    from termweight.learners.reference import FastTextClassifier

    single = is_single_label(Y)
    L = sp.csr_matrix(Y)
    folds = inner_folds(L, protocol.inner_folds, protocol.seed)

    def score(e: int) -> float:
        total = 0.0
        for tr, va in folds:
            model = FastTextClassifier(epoch=e, word_ngrams=WORD_NGRAMS, seed=seed).fit(
                [docs[i] for i in tr], _labels_for_fit(L[tr]))
            D = _decisions(model, [docs[i] for i in va], L.shape[1])
            pred = top1(D) if single else (D > 0).astype(np.uint8)
            total += macro_f1(L[va], pred) / protocol.inner_folds
        return total

    return grow(score, epochs, max_epochs)


def grow(score, epochs, max_epochs: int = MAX_EPOCHS,
         margin: float = MARGIN) -> tuple[int, dict[int, float]]:
    """The rule of ``choose_epochs`` for any ``score(epochs) -> float``: every value of
    ``epochs``, then, while the largest tried value scores best, by more than ``margin`` over
    the best of the others, and is below ``max_epochs``, its double (capped at ``max_epochs``).
    Returns the best (ties: the fewer) and the scores."""
    scores = {int(e): float(score(int(e))) for e in sorted(set(epochs))}
    while True:
        best = max(scores, key=lambda e: (scores[e], -e))
        top = max(scores)
        rest = max((v for e, v in scores.items() if e != top), default=-np.inf)
        if best != top or top >= max_epochs or scores[top] - rest <= margin:
            return best, scores
        nxt = min(2 * top, max_epochs)
        scores[nxt] = float(score(nxt))


def cmd_reference(args) -> None:
    import pandas as pd

    from termweight.corpus import Corpus
    from termweight.learners.reference import FastTextClassifier
    from termweight.runner.errors import TermweightError
    from termweight.splits import Split
    from termweight.steps.column import read_settings
    from termweight.steps.learn import metrics_frame

    params, _ = common.experiment(args)
    settings = read_settings(args.settings) if args.settings else benchmark_settings(params)
    protocol = protocol_of(settings)
    if protocol is None:
        raise TermweightError(f"{args.params}: benchmark-reference needs the tuned protocol "
                              "(benchmark: tuning): its inner folds choose the epochs")
    seed = int(params.get("seed", 0))
    epochs = sorted(set(args.epochs))
    corpus = Corpus.load(args.corpus)
    docs = documents(corpus.X)
    names = common.names(args)
    out = Path(args.out)
    parts = out.parent / f".{out.name}.parts"  # one table per split, from the workers
    shutil.rmtree(parts, ignore_errors=True)
    parts.mkdir(parents=True)

    def one(name):
        t0 = time.perf_counter()
        split = Split.load(common.fmt(args.split, split=name), n_docs=corpus.n_docs)
        Ytr, Yte = corpus.Y[split.train], corpus.Y[split.test]
        train = [docs[i] for i in split.train]
        epoch, scores = choose_epochs(train, Ytr, epochs, protocol, seed, args.max_epochs)
        edge = epoch >= args.max_epochs and epoch == max(scores)
        model = FastTextClassifier(epoch=epoch, word_ngrams=WORD_NGRAMS, seed=seed).fit(
            train, _labels_for_fit(Ytr))
        D = _decisions(model, [docs[i] for i in split.test], corpus.Y.shape[1])
        fitted = np.asarray(Ytr.sum(axis=0)).ravel() > 0
        frame = metrics_frame(corpus.classes, Yte, Ytr, (D > 0).astype(np.uint8), fitted, D)
        frame["value"] = epoch
        frame.insert(0, "split", name)
        frame.insert(0, "learner", "fasttext")
        io.write_table(parts / f"{name}.csv", frame)
        log.info("split %s: fastText, %d epochs%s by %d-fold inner CV (macro-F1 %s) in %.1f s",
                 name, epoch, " (the cap: an edge)" if edge else "", protocol.inner_folds,
                 ", ".join(f"{e}: {v:.3f}" for e, v in scores.items()),
                 time.perf_counter() - t0)

    try:
        common.for_each(args, one, names)
        from termweight.intermediates import read_metrics

        io.write_table(out, pd.concat([read_metrics(parts / f"{name}.csv") for name in names],
                                      ignore_index=True))
    finally:
        shutil.rmtree(parts, ignore_errors=True)
