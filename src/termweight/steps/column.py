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

from termweight.runner import common, io
from termweight.settings import benchmark_settings, protocol_of

log = logging.getLogger("termweight")


def cmd_column(args) -> None:
    """One weighting's column (``--encoding``), or each of a group's (``--weighting``: the
    encodings of that weighting module that the run has, ``--out`` with ``{encoding}``)."""
    from termweight.runner.errors import TermweightError
    from termweight.weighting import group_of, groups

    _, run = common.experiment(args)
    if args.weighting is not None:
        if args.weighting not in groups():
            raise TermweightError(f"--weighting {args.weighting!r}: not a weighting module; "
                                  f"known: {', '.join(groups())}")
        encodings = [e for e in run["encodings"] if group_of(e) == args.weighting]
        if not encodings:
            raise TermweightError(f"{args.params}: run {args.exp} has no weighting of "
                                  f"{args.weighting!r} (benchmark: weightings)")
        for template in (args.out, args.out_seconds):
            if template is not None and "{encoding}" not in template:
                raise TermweightError(f"--weighting needs {{encoding}} in {template!r}")
    else:
        encodings = [args.encoding]
    only = getattr(args, "only", None)  # learning curves: the listed weightings of the module
    for encoding in [e for e in encodings if only is None or e in only]:
        out_seconds = None if args.out_seconds is None else args.out_seconds.format(encoding=encoding)
        _column(args, encoding, Path(args.out.format(encoding=encoding)), out_seconds)


def _column(args, encoding: str, out: Path, out_seconds: str | None) -> None:
    """One weighting's column: every split and learner (module docstring), into ``out``."""
    from termweight import scoring
    from termweight.corpus import Corpus
    from termweight.splits import Split
    from termweight.steps.features import _load_stats, encode_split, fold_encoder
    from termweight.steps.learn import _log_fit, fit_model, metrics_frame, model_decisions
    from termweight.weighting import needed_scores

    started = time.perf_counter(), time.process_time()
    params, run = common.experiment(args)
    if encoding not in run["encodings"]:
        from termweight.runner.errors import TermweightError

        raise TermweightError(f"{args.params}: run {args.exp} has no weighting {encoding!r} "
                              f"(benchmark: weightings)")
    # the learners and the protocol: the resolved settings file (the pipeline's), else resolved
    # here from params.yaml by the same function (a column run by hand)
    settings = (read_settings(args.settings) if args.settings
                else benchmark_settings(params))
    learners = list(args.learner or settings["learners"])
    protocol = protocol_of(settings)
    if args.normalize is not None:  # the sensitivity study: the tuned protocol, other rows
        if protocol is None:
            from termweight.runner.errors import TermweightError

            raise TermweightError(f"{args.params}: --normalize needs the tuned protocol "
                                  "(benchmark: tuning)")
        protocol = dataclasses.replace(protocol, normalize=args.normalize)
    fit = dict(settings.get("fit", {}))
    C = fit.pop("C", None)
    metrics = needed_scores([encoding])
    corpus = Corpus.load(args.corpus)
    names = common.names(args)
    parts = out.parent / f".{out.name}.parts"  # one table per (learner, split), from the workers
    shutil.rmtree(parts, ignore_errors=True)
    parts.mkdir(parents=True)

    def one(name):
        seconds = {}  # (wall, CPU) of this split's encoding and of each learner, in this process
        t0, c0 = time.perf_counter(), time.process_time()
        split = Split.load(common.fmt(args.split, split=name), n_docs=corpus.n_docs)
        columns, st = _load_stats(common.fmt(args.stats, split=name), corpus, split)
        scores = {m: scoring.score(m, st) for m in metrics}
        X = corpus.X[:, columns]
        enc = encode_split(X, corpus.Y, split, scores, encoding, run.get("mixch", {}))
        # the inner folds: each encoded from its own inner-training rows
        inner = fold_encoder(X[split.train], corpus.Y[split.train], encoding,
                             run.get("mixch", {})) if protocol is not None else None
        seconds["encode"] = (time.perf_counter() - t0, time.process_time() - c0)
        for learner in learners:
            t0, c0 = time.perf_counter(), time.process_time()
            model = fit_model(learner, enc, protocol, C, fit, inner)
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
            seconds[learner] = (time.perf_counter() - t0, time.process_time() - c0)
        io.write_json(parts / f"{name}.seconds.json", seconds)

    try:
        common.for_each(args, one, names)
        import pandas as pd

        from termweight.intermediates import read_metrics

        io.write_table(out, pd.concat([read_metrics(parts / f"{learner}.{name}.csv")
                                       for learner in learners for name in names],
                                      ignore_index=True))
        if out_seconds:
            io.write_json(out_seconds, column_seconds(
                [io.read_json(parts / f"{name}.seconds.json") for name in names], started))
    finally:
        shutil.rmtree(parts, ignore_errors=True)


def read_settings(path) -> dict:
    """``data/benchmark/settings.json`` (``termweight.settings.benchmark_settings``), checked: a
    ``DataError`` naming the file and the key."""
    from termweight.runner.errors import DataError

    s = io.read_json_object(path)
    if not (isinstance(s.get("learners"), list) and s["learners"]
            and all(isinstance(x, str) for x in s["learners"])):
        raise DataError(path, "key 'learners': must be a non-empty list of learner names")
    if ("protocol" in s) == ("fit" in s):
        raise DataError(path, "needs exactly one of the keys 'protocol' and 'fit'")
    p = s.get("protocol")
    if p is not None:
        kinds = {"normalize": str, "grids": dict, "inner_folds": int, "max_iter": int,
                 "tol": (int, float), "seed": int}
        for key, kind in kinds.items():
            if not isinstance(p.get(key), kind) or isinstance(p.get(key), bool):
                raise DataError(path, f"key 'protocol.{key}': missing or not a {kind}")
        for lr in s["learners"]:
            g = p["grids"].get(lr)
            if not (isinstance(g, list) and g and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in g)):
                raise DataError(path, f"key 'protocol.grids.{lr}': must be positive numbers")
        ext = p.get("extend", {})
        if not isinstance(ext, dict):
            raise DataError(path, "key 'protocol.extend': must map learners to values")
        for lr, g in ext.items():
            if lr not in s["learners"] or not (isinstance(g, list) and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in g)):
                raise DataError(path, f"key 'protocol.extend.{lr}': must be positive numbers "
                                      "of one of the learners")
    elif not (isinstance(s["fit"], dict) and isinstance(s["fit"].get("C"), (int, float))):
        raise DataError(path, "key 'fit.C': must be a number")
    return s


def column_seconds(per_split: list[dict], started: tuple[float, float]) -> dict:
    """What a column cost (``--out-seconds``): wall and CPU seconds of the encoding (scoring and
    encoding, the inner folds' included in the learners') and of each learner, summed over the
    splits, and of the whole command from ``started`` (``(perf_counter, process_time)``
    after the imports), the workers' CPU included. A measurement: it differs run to run."""
    import os

    parts = list(dict.fromkeys(k for d in per_split for k in d))
    cpu = os.times()
    return {"splits": len(per_split),
            "wall_s": {k: round(sum(d[k][0] for d in per_split), 3) for k in parts},
            "cpu_s": {k: round(sum(d[k][1] for d in per_split), 3) for k in parts},
            "command_wall_s": round(time.perf_counter() - started[0], 3),
            "command_cpu_s": round(cpu.user + cpu.system + cpu.children_user
                                   + cpu.children_system - started[1], 3)}


#: largest difference between two unit-length rows that still counts as the same vectors (the
#: two computations round differently: tf * idf against cosine TF * idf)
ALIAS_TOLERANCE = 1e-9


def same_unit_rows(a: dict, b: dict, where: str) -> float:
    """The largest difference between the unit-length rows, task by task, of two encodings of
    one split (``encode_split``), training and test rows; a ``DataError`` naming ``where``
    above ``ALIAS_TOLERANCE``."""
    from termweight.learners.protocol import task_rows
    from termweight.runner.errors import DataError

    def weights(e, c):
        if e.get("col_weights") is None:
            return None
        W = np.atleast_2d(e["col_weights"])
        return W[c if W.shape[0] > 1 else 0]

    gap = 0.0
    for part in ("X_train", "X_test"):
        for c in range(a["Y_train"].shape[1]):
            ra, rb = (task_rows(e[part], weights(e, c)) for e in (a, b))
            d = abs(ra - rb)
            gap = max(gap, float(d.max()) if d.nnz else 0.0)
            if gap > ALIAS_TOLERANCE:
                raise DataError(where, f"task {c}: unit-length rows differ by {gap:.3g} "
                                       f"(above {ALIAS_TOLERANCE:g}): not the same method; drop "
                                       "it from termweight.weighting.UNIT_LENGTH_ALIASES")
    log.info("%s: the same unit-length rows (largest difference %.2g)", where, gap)
    return gap


def register(sub) -> None:
    """``benchmark-column`` (registered with the benchmark's commands,
    ``termweight.experiments.benchmark``)."""
    p = sub.add_parser("benchmark-column", help="the benchmark: one weighting's runs (score, encode, fit, "
                       "predict, evaluate) for every learner and split",
                       description=common.first_line(__doc__))
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--split", required=True, help=common.SPLIT_HELP)
    p.add_argument("--stats", required=True, help=common.STATS_HELP)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--encoding", help="the weighting (python -m termweight list encodings)")
    which.add_argument("--weighting", metavar="MODULE",
                       help="every weighting of the run that this module of termweight.weightings "
                       "computes (unsupervised: the unsupervised ones); --out with {encoding}")
    p.add_argument("--learner", nargs="+",
                   help="learners (default: the run's, params.yaml's benchmark: learners)")
    p.add_argument("--out", required=True,
                   help="the column's per-task metrics, CSV: a row per learner, split and task "
                   "({encoding}: the weighting's name)")
    p.add_argument("--settings",
                   help="the resolved learners and protocol (data/benchmark/settings.json, written "
                   "by benchmark-settings); default: resolved from --params")
    p.add_argument("--out-seconds",
                   help="also write what the column cost here, JSON: wall and CPU seconds of the "
                   "encoding and of each learner (a measurement: not the same bytes twice)")
    p.add_argument("--decisions-dir",
                   help="also keep <learner>/<split>.npz here (float32 decision scores, 0/1 "
                   "predictions), e.g. to compare two runs fit by fit")
    p.add_argument("--normalize", choices=("l2", "none"),
                   help="the weighted rows: l2 (unit length) or none (raw); default: "
                   "benchmark.tuning.normalize (the sensitivity study runs the other one)")
    common.add_names(p)
    p.set_defaults(func=cmd_column)

    p = sub.add_parser("benchmark-settings", help="the benchmark: the learners and protocol every "
                       "column computes with, resolved from params.yaml (JSON)",
                       description=common.first_line(cmd_settings.__doc__))
    p.add_argument("--params", required=True, help="params.yaml (its benchmark: section)")
    p.add_argument("--out", required=True, help="the settings file (data/benchmark/settings.json)")
    p.set_defaults(func=cmd_settings)


def cmd_settings(args) -> None:
    """Write the benchmark's resolved settings (``termweight.settings.benchmark_settings``),
    rewriting the file only when they changed."""
    from termweight import formats
    from termweight.runner.config import load_params

    out = Path(args.out)
    text = formats.json_text(benchmark_settings(load_params(args.params)))
    if out.is_file() and out.read_text() == text:
        log.info("%s: unchanged", out)
        return
    io.write_text(out, text)
