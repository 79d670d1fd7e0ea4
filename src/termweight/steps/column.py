"""One weighting's column of the benchmark: ``benchmark-column``.

For one dataset's run (``bench_<dataset>``) and ONE weighting, each split's training statistics
are scored (only the metrics this weighting needs), the split is encoded, and every learner is
fitted (the tuned protocol when ``benchmark.tuning`` is set), predicts and is evaluated, in one
process per split: the encoded matrices and models stay in memory. What is written is ONE
small table, ``--out`` (CSV): the per-task metrics of every learner and split, a row per
(learner, split, task), what ``aggregate --learner`` reads. It is small enough to keep in git
(DVC ``cache: false``), so a computed column is reused, checked against ``dvc.lock``, by every
later ``dvc repro``. ``--decisions-dir`` also keeps each learner's decision scores in float32
with the 0/1 predictions (``<learner>/<split>.npz``), for comparing two runs fit by fit; the
pipeline does not ask for them. A weighting's column depends on the dataset's splits and
statistics only, so adding a weighting adds its columns and leaves every other weighting's files
and jobs as they are.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import time
from pathlib import Path

import numpy as np

from termweight import io
from termweight.settings import learner_C
from termweight.steps import common

log = logging.getLogger("termweight")


def cmd_column(args) -> None:
    from termweight import scoring
    from termweight.corpus import Corpus
    from termweight.splits import Split
    from termweight.steps.features import _load_stats, encode_split
    from termweight.steps.learn import (
        _log_fit,
        _protocol,
        fit_model,
        metrics_frame,
        model_decisions,
    )
    from termweight.weighting import needed_scores

    _, run = common.experiment(args)
    encoding = args.encoding
    if encoding not in run["encodings"]:
        from termweight.errors import TermweightError

        raise TermweightError(f"{args.params}: run {args.exp} has no weighting {encoding!r} "
                              f"(benchmark: weightings)")
    learners = list(args.learner or run["learners"])
    protocol = _protocol(args)
    if args.normalize is not None:  # the sensitivity study: the tuned protocol, other rows
        if protocol is None:
            from termweight.errors import TermweightError

            raise TermweightError(f"{args.params}: --normalize needs the tuned protocol "
                                  "(benchmark: tuning)")
        protocol = dataclasses.replace(protocol, normalize=args.normalize)
    C = learner_C(run)
    fit = {k: v for k, v in run.get("fit", {}).items() if k != "C"}
    metrics = needed_scores([encoding])
    corpus = Corpus.load(args.corpus)
    names = common.names(args)
    out = Path(args.out)
    parts = out.parent / f".{out.name}.parts"  # one table per (learner, split), from the workers
    shutil.rmtree(parts, ignore_errors=True)
    parts.mkdir(parents=True)

    def one(name):
        split = Split.load(common.fmt(args.split, split=name), n_docs=corpus.n_docs)
        columns, st = _load_stats(common.fmt(args.stats, split=name), corpus, split)
        scores = {m: scoring.score(m, st) for m in metrics}
        enc = encode_split(corpus.X[:, columns], corpus.Y, split, scores, encoding,
                           run.get("mixch", {}))
        for learner in learners:
            t0 = time.perf_counter()
            model = fit_model(learner, enc, protocol, C, fit)
            decisions = model_decisions(enc["X_test"], model, enc.get("col_weights"))
            predicted = (decisions > 0).astype(np.uint8)
            frame = metrics_frame(corpus.classes, enc["Y_test"], enc["Y_train"], predicted,
                                  model["fitted"], decisions,
                                  model if protocol is not None else None)
            frame.insert(0, "split", name)
            frame.insert(0, "learner", learner)
            if args.decisions_dir:
                io.save_arrays(f"{args.decisions_dir}/{learner}/{name}.npz",
                               scores=decisions.astype(np.float32), predicted=predicted)
            io.write_table(parts / f"{learner}.{name}.csv", frame)
            _log_fit(name, encoding, learner, protocol, model, time.perf_counter() - t0)

    try:
        common.for_each(args, one, names)
        import pandas as pd

        from termweight.intermediates import read_metrics

        io.write_table(out, pd.concat([read_metrics(parts / f"{learner}.{name}.csv")
                                       for learner in learners for name in names],
                                      ignore_index=True))
    finally:
        shutil.rmtree(parts, ignore_errors=True)


def register(sub) -> None:
    """``benchmark-column`` (registered with the benchmark's commands,
    ``termweight.experiments.benchmark``)."""
    p = sub.add_parser("benchmark-column", help="the benchmark: one weighting's runs (score, encode, fit, "
                       "predict, evaluate) for every learner and split",
                       description=common.first_line(__doc__))
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--split", required=True, help=common.SPLIT_HELP)
    p.add_argument("--stats", required=True, help=common.STATS_HELP)
    p.add_argument("--encoding", required=True,
                   help="the weighting (python -m termweight list encodings)")
    p.add_argument("--learner", nargs="+",
                   help="learners (default: the run's, params.yaml's benchmark: learners)")
    p.add_argument("--out", required=True,
                   help="the column's per-task metrics, CSV: a row per learner, split and task")
    p.add_argument("--decisions-dir",
                   help="also keep <learner>/<split>.npz here (float32 decision scores, 0/1 "
                   "predictions), e.g. to compare two runs fit by fit")
    p.add_argument("--normalize", choices=("l2", "none"),
                   help="the weighted rows: l2 (unit length) or none (raw); default: "
                   "benchmark.tuning.normalize (the sensitivity study runs the other one)")
    common.add_names(p)
    p.set_defaults(func=cmd_column)
