"""Per split and encoding: models, predictions, per-task metrics: ``train``, ``predict``,
``evaluate``."""

from __future__ import annotations

import logging
import time

import numpy as np

from termweight import io
from termweight.intermediates import load
from termweight.steps import common

log = logging.getLogger("termweight")


def cmd_train(args) -> None:
    from termweight.learners.linear import fit_learner, fit_one_vs_rest

    # C (and the benchmark's relative_C, max_iter) reach the learner through params.yaml only;
    # without --params (a step run by hand), the one default
    exp = common.experiment(args)[1] if args.params else {}
    C = common.learner_C(exp)
    learner = getattr(args, "learner", None)
    # the benchmark's learners (--learner): its C, relative_C and max_iter (config.benchmark_runs)
    fit = {k: v for k, v in exp.get("fit", {}).items() if k != "C"} if learner else {}

    def one(job):
        name, e = job
        enc, _ = load("encoded", common.fmt(args.encoded, split=name, encoding=e))
        t0 = time.perf_counter()
        if learner is None:  # the generic steps' LinearSVC
            coef, intercept, fitted = fit_one_vs_rest(enc["X_train"], enc["Y_train"], C=C,
                                                      col_weights=enc.get("col_weights"))
        else:
            coef, intercept, fitted = fit_learner(learner, enc["X_train"], enc["Y_train"], C=C,
                                                  col_weights=enc.get("col_weights"), **fit)
        io.save_arrays(common.fmt(args.out, split=name, encoding=e), coef=coef, intercept=intercept,
                       fitted=fitted)
        log.info("split %s, %s: %d/%d tasks fitted in %.2f s", name, e, int(fitted.sum()),
                 fitted.size, time.perf_counter() - t0)

    common.for_each(args, one, common.jobs(args))
    common.prune(args, args.out)


def cmd_predict(args) -> None:
    from termweight.learners.linear import decision_scores

    for name, e in common.jobs(args):
        enc, dims = load("encoded", common.fmt(args.encoded, split=name, encoding=e),
                         keys=("X_test",))
        model, _ = load("model", common.fmt(args.model, split=name, encoding=e),
                        n_terms=dims["n_terms"])
        scores = decision_scores(enc["X_test"], model["coef"], model["intercept"])
        io.save_arrays(common.fmt(args.out, split=name, encoding=e), scores=scores,
                       predicted=(scores > 0).astype(np.uint8))
        log.info("split %s: predicted %d documents x %d tasks", name, *scores.shape)
    common.prune(args, args.out)


def cmd_evaluate(args) -> None:
    import pandas as pd

    from termweight.evaluation import confusion_counts, per_task_metrics
    from termweight.intermediates import read_classes

    classes = read_classes(args.corpus_meta)
    doc_accuracy = getattr(args, "doc_accuracy", False)
    for name, e in common.jobs(args):
        dims = {"n_classes": len(classes)}
        enc, _ = load("encoded", common.fmt(args.encoded, split=name, encoding=e),
                      keys=("Y_test", "Y_train"), **dims)
        pred, _ = load("predictions", common.fmt(args.predictions, split=name, encoding=e),
                       keys=("predicted", "scores") if doc_accuracy else ("predicted",),
                       n_test=enc["Y_test"].shape[0], **dims)
        model, _ = load("model", common.fmt(args.model, split=name, encoding=e),
                        keys=("fitted",), **dims)
        counts = confusion_counts(enc["Y_test"], pred["predicted"])
        frame = per_task_metrics(counts)
        frame.insert(0, "task", classes)
        frame["train_pos"] = np.asarray(enc["Y_train"].sum(axis=0)).ravel()
        frame["status"] = np.where(model["fitted"], "ok", "skipped: no training positives")
        if doc_accuracy:  # the benchmark's accuracy (argmax of the scores)
            from termweight.learners.linear import top1_accuracy

            frame["doc_accuracy"] = top1_accuracy(enc["Y_test"], pred["scores"])
        io.write_table(common.fmt(args.out, split=name, encoding=e), pd.DataFrame(frame))
    common.prune(args, args.out)


def register(sub) -> None:
    """``train``, ``predict``, ``evaluate``."""
    p = sub.add_parser("train", help="one-vs-rest LinearSVC per split")
    p.add_argument("--encoded", required=True, help=common.ENCODED_HELP)
    p.add_argument("--out", required=True, help="model template with {split} and {encoding} (.npz)")
    p.add_argument("--learner", help="linearsvc (default), logreg or mnb "
                   "(termweight.learners.linear.LEARNERS)")
    common.add_names(p, encodings=True)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("predict", help="decision scores and predictions per split")
    p.add_argument("--encoded", required=True, help=common.ENCODED_HELP)
    p.add_argument("--model", required=True, help=common.MODEL_HELP)
    p.add_argument("--out", required=True,
                   help="predictions template with {split} and {encoding} (.npz)")
    common.add_names(p, encodings=True)
    p.set_defaults(func=cmd_predict)

    p = sub.add_parser("evaluate", help="per-task metrics per split")
    p.add_argument("--corpus-meta", required=True, help="the corpus's meta.json (class names)")
    p.add_argument("--encoded", required=True, help=common.ENCODED_HELP)
    p.add_argument("--model", required=True, help=common.MODEL_HELP)
    p.add_argument("--predictions", required=True,
                   help="predictions template with {split} and {encoding}, written by predict")
    p.add_argument("--out", required=True,
                   help="per-task metrics template with {split} and {encoding} (.csv)")
    p.add_argument("--doc-accuracy", action="store_true",
                   help="add column doc_accuracy: share of documents whose top score is a true class")
    common.add_names(p, encodings=True)
    p.set_defaults(func=cmd_evaluate)
