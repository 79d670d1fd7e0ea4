"""Per split and encoding: models, predictions, per-task metrics: ``train``, ``predict``,
``evaluate``."""

from __future__ import annotations

import logging
import time

import numpy as np

from termweight.intermediates import load
from termweight.runner import common, io
from termweight.settings import learner_C

log = logging.getLogger("termweight")


def cmd_train(args) -> None:
    # C (and the benchmark's relative_C, max_iter) reach the learner through params.yaml only;
    # without --params (a step run by hand), the one default
    exp = common.experiment(args)[1] if args.params else {}
    C = learner_C(exp)
    learner = getattr(args, "learner", None)
    # the benchmark's learners (--learner): its C, relative_C and max_iter (settings.benchmark_runs)
    fit = {k: v for k, v in exp.get("fit", {}).items() if k != "C"} if learner else {}

    protocol = _protocol(args) if learner else None
    if protocol is not None:  # its inner folds are encoded from counts, which train has not
        from termweight.runner.errors import TermweightError

        raise TermweightError(f"{args.params}: train --learner under the tuned protocol "
                              "(benchmark: tuning) would score its inner folds with weights of "
                              "their own validation rows: run benchmark-column")

    def one(job):
        name, e = job
        enc, _ = load("encoded", common.fmt(args.encoded, split=name, encoding=e))
        t0 = time.perf_counter()
        model = fit_model(learner, enc, protocol, C, fit)
        io.save_arrays(common.fmt(args.out, split=name, encoding=e), **model)
        _log_fit(name, e, learner, protocol, model, time.perf_counter() - t0)

    common.for_each(args, one, common.jobs(args))
    common.prune(args, args.out)


def _protocol(args):
    """``benchmark.tuning`` of the params file as a ``Protocol`` (None: fixed C, no
    normalisation)."""
    from termweight.learners.protocol import Protocol

    params = common.experiment(args)[0] if args.params else {}
    return Protocol.from_params(params.get("benchmark", {}).get("tuning"),
                                seed=int(params.get("seed", 0)))


def fit_model(learner, enc: dict, protocol=None, C: float | None = None,
              fit: dict | None = None, fold_encoder=None) -> dict:
    """The model arrays of one split's encoded arrays (``encode``): ``coef``, ``intercept``,
    ``fitted``; under the tuned ``protocol`` (``benchmark.tuning``) C (alpha) by inner
    cross-validation on the training rows, then the refit, and also ``converged`` (per task),
    ``value`` (the chosen C or alpha), ``normalize`` (1: unit-length rows) and
    ``inner_unconverged`` (inner fits stopped at the cap); ``fold_encoder``: the inner folds' own
    encodings (``termweight.steps.features.fold_encoder``). ``learner`` None: the generic steps'
    LinearSVC at ``C``; ``fit``: the benchmark learners' ``relative_C`` and ``max_iter``."""
    from termweight.learners.linear import DEFAULT_C, fit_learner, fit_one_vs_rest
    from termweight.learners.protocol import fit_tuned

    weights = enc.get("col_weights")
    if protocol is not None:
        coef, intercept, fitted, converged, value, inner = fit_tuned(
            learner, enc["X_train"], enc["Y_train"], weights, protocol, fold_encoder)
        return {"coef": coef, "intercept": intercept, "fitted": fitted, "converged": converged,
                "value": np.asarray([value]),
                "normalize": np.asarray([protocol.normalize == "l2"], dtype=np.uint8),
                "inner_unconverged": np.asarray([inner])}
    C = DEFAULT_C if C is None else C
    if learner is None:
        coef, intercept, fitted = fit_one_vs_rest(enc["X_train"], enc["Y_train"], C=C,
                                                  col_weights=weights)
    else:
        coef, intercept, fitted = fit_learner(learner, enc["X_train"], enc["Y_train"], C=C,
                                              col_weights=weights, **(fit or {}))
    return {"coef": coef, "intercept": intercept, "fitted": fitted}


def _log_fit(name, e, learner, protocol, model, seconds) -> None:
    fitted = model["fitted"]
    who = f"{e}, {learner}" if learner else e
    if protocol is None:
        log.info("split %s, %s: %d/%d tasks fitted in %.2f s", name, who, int(fitted.sum()),
                 fitted.size, seconds)
        return
    log.info("split %s, %s: %s = %g by %d-fold inner CV; %d/%d tasks fitted, %d unconverged "
             "(inner fits: %d) in %.2f s", name, who,
             "alpha" if learner == "mnb" else "C", model["value"][0], protocol.inner_folds,
             int(fitted.sum()), fitted.size, int((~model["converged"].astype(bool)).sum()),
             int(model["inner_unconverged"][0]), seconds)


#: the tuned protocol's arrays of a model file (``_train_tuned``)
PROTOCOL_KEYS = ("converged", "value", "normalize", "inner_unconverged")


def _protocol_arrays(path, model) -> dict:
    """The tuned protocol's extra arrays of a model file, checked (empty for a fixed-C model)."""
    from termweight.runner.errors import DataError

    if "normalize" not in model:
        return {}
    n = model["fitted"].shape[0]
    extra = {k: np.asarray(model[k]) for k in PROTOCOL_KEYS if k in model}
    if len(extra) != 4:
        raise DataError(path, "a tuned model needs arrays converged, value, normalize and "
                              "inner_unconverged")
    if extra["converged"].shape != (n,) or not np.isin(extra["converged"], (0, 1)).all():
        raise DataError(path, f"array 'converged': must be {n} values in {{0, 1}}")
    if extra["value"].shape != (1,) or not (np.isfinite(extra["value"]).all()
                                           and extra["value"][0] > 0):
        raise DataError(path, "array 'value': must be one finite positive number")
    if extra["normalize"].shape != (1,) or extra["normalize"][0] not in (0, 1):
        raise DataError(path, "array 'normalize': must be 0 or 1")
    if extra["inner_unconverged"].shape != (1,) or extra["inner_unconverged"][0] < 0:
        raise DataError(path, "array 'inner_unconverged': must be one count >= 0")
    return extra


def _flag_keys(path) -> tuple[str, ...]:
    """What evaluate reads of a model file: ``fitted`` and the tuned protocol's arrays that it
    holds, not the coefficients (an unreadable file is reported by ``load``)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            names = {n.removesuffix(".npy") for n in z.namelist()}
    except (OSError, zipfile.BadZipFile):
        names = set()
    return ("fitted", *(k for k in PROTOCOL_KEYS if k in names))


def model_decisions(X_test, model: dict, col_weights=None) -> np.ndarray:
    """Decision scores (n_test, n_tasks) of a model (``fit_model``): under the tuned protocol's
    unit-length rows, each task's weighted rows divided by their length (``col_weights``: a
    supervised weighting's per-task column scales, which the stored coefficients already hold)."""
    from termweight.learners.protocol import decisions

    normalize = "l2" if "normalize" in model and model["normalize"][0] else "none"
    return decisions(X_test, model["coef"], model["intercept"],
                     col_weights if normalize == "l2" else None, normalize)


def cmd_predict(args) -> None:
    from termweight.weighting import encoding_parts

    for name, e in common.jobs(args):
        path = common.fmt(args.encoded, split=name, encoding=e)
        model_path = common.fmt(args.model, split=name, encoding=e)
        enc, dims = load("encoded", path, keys=("X_test",))
        model, dims = load("model", model_path, n_terms=dims["n_terms"])
        _protocol_arrays(model_path, model)  # checked
        weights = None
        if "normalize" in model and model["normalize"][0] and encoding_parts(e)[1] is not None:
            # a supervised weighting's file holds its per-task column weights (``encode``)
            weights = load("encoded", path, keys=("col_weights",), **dims)[0]["col_weights"]
        scores = model_decisions(enc["X_test"], model, weights)
        io.save_arrays(common.fmt(args.out, split=name, encoding=e), scores=scores,
                       predicted=(scores > 0).astype(np.uint8))
        log.info("split %s: predicted %d documents x %d tasks", name, *scores.shape)
    common.prune(args, args.out)


def metrics_frame(classes, Y_test, Y_train, predicted, fitted, scores=None, extra=None):
    """Per-task metrics of one run (``termweight.evaluation.per_task_metrics``) with the task
    names, training positives and status; with the decision ``scores`` (the benchmark), also the
    document accuracy, the top-1 prediction's counts and whether the test rows are single-label;
    ``extra``: the tuned protocol's arrays (convergence per task, the chosen C or alpha)."""
    import pandas as pd

    from termweight.evaluation import confusion_counts, per_task_metrics

    frame = per_task_metrics(confusion_counts(Y_test, predicted))
    frame.insert(0, "task", classes)
    frame["train_pos"] = np.asarray(Y_train.sum(axis=0)).ravel()
    frame["status"] = np.where(fitted, "ok", "skipped: no training positives")
    if scores is not None:  # the benchmark's accuracy and top-1 counts (argmax of the scores)
        from termweight.learners.linear import top1_accuracy
        from termweight.learners.protocol import is_single_label, top1

        frame["doc_accuracy"] = top1_accuracy(Y_test, scores)
        one = confusion_counts(Y_test, top1(scores))
        for col in ("tp", "fp", "fn"):
            frame[f"top1_{col}"] = one[col].to_numpy()
        frame["single_label"] = is_single_label(Y_test)
        if extra:  # the tuned protocol: convergence per task, the chosen C (alpha)
            frame["converged"] = extra["converged"].astype(bool)
            frame["value"] = float(extra["value"][0])
            frame["inner_unconverged"] = int(extra["inner_unconverged"][0])
    return pd.DataFrame(frame)


def cmd_evaluate(args) -> None:
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
        model_path = common.fmt(args.model, split=name, encoding=e)
        model, _ = load("model", model_path, keys=_flag_keys(model_path), **dims)
        frame = metrics_frame(classes, enc["Y_test"], enc["Y_train"], pred["predicted"],
                              model["fitted"], pred["scores"] if doc_accuracy else None,
                              _protocol_arrays(model_path, model) if doc_accuracy else None)
        io.write_table(common.fmt(args.out, split=name, encoding=e), frame)
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
