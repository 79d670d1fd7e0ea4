"""The one command-line interface the workflow calls: ``python -m termweight <step> ...``.

Each sub-command is one arrow of the pipeline (raw files -> documents -> tokens -> corpus ->
splits -> statistics -> scores -> encoded matrices -> models -> predictions -> metrics -> tables and
figures). Per-split steps take path templates containing ``{split}`` and either ``--names`` (one or
more split names: Snakemake runs one job per split) or ``--names-from`` the split index file (DVC
runs one stage over all splits); both produce the same files. Errors are reported as one line
naming the file or key at fault, with exit code 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

from termweight import io
from termweight.errors import TermweightError, one_line

log = logging.getLogger("termweight")


# --- helpers ------------------------------------------------------------------------------------

def _names(args) -> list[str]:
    """Split names: ``--names``, else every split of the experiment (``--params``/``--exp``)."""
    if args.names:
        return list(args.names)
    from termweight.splits import split_names

    return split_names(_experiment(args)[1]["protocol"])


def _encodings(args) -> list[str]:
    """Encodings: ``--encoding``, else every encoding of the experiment."""
    if args.encoding:
        return list(args.encoding)
    return list(_experiment(args)[1]["encodings"])


def _jobs(args) -> list[tuple[str, str]]:
    names = _names(args)
    return [(name, e) for e in _encodings(args) for name in names]


def _workers(args, n_items: int) -> int:
    want = getattr(args, "jobs", None) or len(os.sched_getaffinity(0))
    return max(1, min(want, n_items))


_TASK: tuple | None = None  # (function, items) handed to forked workers


def _run_task(i: int):
    fn, items = _TASK
    try:
        fn(items[i])
    except TermweightError as exc:
        return ("error", str(exc))
    except BaseException:  # noqa: BLE001 - a bug: its traceback goes back to the parent
        import traceback

        return ("crash", traceback.format_exc())
    return None


def _for_each(args, fn, items) -> None:
    """``fn(item)`` for every item, in up to ``--jobs`` forked processes (default: the CPUs this
    process may use). Every item writes its own files (atomically), so the outputs are the same
    bytes whatever the number of processes."""
    global _TASK
    items = list(items)
    n = _workers(args, len(items))
    if n == 1:
        for item in items:
            fn(item)
        return
    import multiprocessing

    _TASK = (fn, items)
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            results = pool.map(_run_task, range(len(items)), chunksize=1)
    finally:
        _TASK = None
    for r in results:
        if r is not None and r[0] == "error":
            raise TermweightError(r[1])
    for r in results:
        if r is not None:
            raise RuntimeError(f"a worker process failed:\n{r[1]}")


def _fmt(template: str, **kw) -> str:
    return template.format(**kw)


def _experiment(args) -> tuple[dict, dict]:
    """``(params, the experiment's entry)``, read and validated once per command (cached on args:
    a job asks for its split names once per encoding, and re-reading cost 0.18 s each time)."""
    cached = getattr(args, "_experiment_cache", None)
    if cached is None:
        cached = args._experiment_cache = _read_experiment(args)
    return cached


def _read_experiment(args) -> tuple[dict, dict]:
    from termweight.config import load_params

    params = load_params(args.params)
    try:
        return params, params["experiments"][args.exp]
    except KeyError:
        from termweight.config import benchmark_runs  # a benchmark run, bench_<dataset key>

        run = benchmark_runs(params).get(args.exp)
        if run is not None:
            return params, run
        raise TermweightError(f"{args.params}: no experiment {args.exp!r}") from None


# --- steps --------------------------------------------------------------------------------------

def cmd_prepare(args) -> None:
    """Raw files -> Documents (text datasets) or Corpus (vector datasets)."""
    from termweight import datasets
    from termweight.corpus import Corpus

    spec = datasets.get_dataset(args.dataset)
    mirror = args.mirror
    params = {}
    if args.params:
        from termweight.config import load_params

        params = load_params(args.params)
        if mirror is None:
            mirror = params.get("mirror")
    raw = None
    if spec.files:
        from termweight.datasets.fetch import (
            ExtractLimits,
            fetch,  # the function (the package re-exports it)
        )

        raw = fetch(spec, Path(args.raw.format(dataset=spec.name)),
                    mirror=Path(mirror) if mirror else None,
                    limits=ExtractLimits.from_params(params.get("archive_limits")))
    from termweight.errors import blame

    with blame(raw if raw is not None else spec.name, spec.name):  # name the raw files
        result = spec.parser(raw, dict(spec.options))
    if isinstance(result, Corpus):
        result.save(args.out)
    else:
        result.save(args.out)
    log.info("prepared %s: %d documents", spec.name, len(result.doc_ids))


def cmd_tokenize(args) -> None:
    import pandas as pd

    from termweight.datasets import Documents
    from termweight.text import tokenize_all

    docs = Documents.load(args.documents)
    tokens = tokenize_all(docs.texts)
    io.write_table(args.out, pd.DataFrame({"doc_id": docs.doc_ids, "tokens": tokens}))
    log.info("tokenised %d documents, %d tokens", len(tokens), sum(t.count(" ") + 1 for t in tokens))


def cmd_count(args) -> None:
    from termweight.corpus import Corpus
    from termweight.datasets import Documents
    from termweight.errors import DataError
    from termweight.text import count_matrix

    docs = Documents.load(args.documents)
    frame = io.read_table(args.tokens, required=("doc_id", "tokens"))
    if frame["doc_id"].astype(str).tolist() != docs.doc_ids:
        raise DataError(args.tokens, "document ids differ from the documents file")
    X, vocab = count_matrix(frame["tokens"].fillna("").tolist())
    index = {c: i for i, c in enumerate(docs.classes)}
    rows = [i for i, labs in enumerate(docs.labels) for _ in labs]
    cols = [index[c] for labs in docs.labels for c in labs]
    import scipy.sparse as sp

    Y = sp.csr_matrix((np.ones(len(rows), np.uint8), (rows, cols)),
                      shape=(len(docs.doc_ids), len(docs.classes)))
    corpus = Corpus(name=docs.name, X=X, Y=Y, classes=docs.classes, terms=vocab,
                    doc_ids=docs.doc_ids, subset=np.asarray(docs.subset), multilabel=docs.multilabel,
                    ordinal=docs.ordinal, info={**docs.info, "tokenizer": "termweight.text"})
    corpus.save(args.out)
    log.info("count matrix %s with %d non-zeros", X.shape, X.nnz)


def cmd_split(args) -> None:
    from termweight.corpus import Corpus
    from termweight.splits import make_splits

    params, exp = _experiment(args)
    corpus = Corpus.load(args.corpus)
    splits = make_splits(exp["protocol"], corpus.Y, corpus.subset, seed=params["seed"],
                         name=str(args.corpus))
    out = Path(args.out_dir)
    for s in splits:
        s.save(out / f"{s.name}.npz")
    io.write_json(out / "index.json", {"splits": [s.name for s in splits],
                                       "protocol": exp["protocol"], "seed": params["seed"],
                                       "sizes": {s.name: [int(s.train.size), int(s.test.size)]
                                                 for s in splits}})
    log.info("%d splits written to %s", len(splits), out)


def cmd_stats(args) -> None:
    """Training-row statistics of each split; the kept columns are the terms present in training."""
    from termweight.corpus import Corpus
    from termweight.splits import Split
    from termweight.statistics import term_stats

    corpus = Corpus.load(args.corpus)
    for name in _names(args):
        split = Split.load(_fmt(args.split, split=name))
        Xtr, Ytr = corpus.X[split.train], corpus.Y[split.train]
        columns = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)
        st = term_stats(Xtr[:, columns], Ytr)
        io.save_arrays(_fmt(args.out, split=name), columns=columns, tp=st.tp, pos=st.pos,
                       df=st.df, n_docs=np.asarray(st.n_docs))
        no_pos = [corpus.classes[c] for c in np.flatnonzero(st.pos == 0)]
        if no_pos:
            log.warning("split %s: classes without training positives: %s", name, no_pos)
        log.info("split %s: %d training docs, %d terms kept", name, st.n_docs, columns.size)


def _load_stats(path):
    from termweight.statistics import TermStats

    a = io.load_arrays(path)
    return a["columns"], TermStats(tp=a["tp"], pos=a["pos"], df=a["df"], n_docs=int(a["n_docs"]))


def cmd_score(args) -> None:
    from termweight import scoring

    metrics = args.metrics or _experiment(args)[1].get("scores", [])
    for name in _names(args):
        _, st = _load_stats(_fmt(args.stats, split=name))
        arrays = {m: scoring.score(m, st) for m in metrics}
        io.save_arrays(_fmt(args.out, split=name), **arrays)
        log.info("split %s: scored %s for %d tasks x %d terms", name, metrics,
                 st.n_classes, st.n_terms)


def cmd_encode(args) -> None:
    from termweight.config import encoding_parts
    from termweight.corpus import Corpus
    from termweight.encoding import IDF_BASES, encode
    from termweight.scoring import as_scaling_weights
    from termweight.splits import Split
    from termweight.weighting import LEARNED, learned_weights

    corpus = Corpus.load(args.corpus)
    encodings = _encodings(args)
    # learned weightings (the benchmark's mix-ch) take their options from the run
    learned_options = (_experiment(args)[1].get("mixch", {}) if args.params and any(
        encoding_parts(e)[1] in LEARNED for e in encodings) else {})

    def one(name):
        split = Split.load(_fmt(args.split, split=name))
        columns, _ = _load_stats(_fmt(args.stats, split=name))
        scores = io.load_arrays(_fmt(args.scores, split=name))
        X = corpus.X[:, columns]
        for encoding in encodings:
            base, metric = encoding_parts(encoding)
            idf = scores["idf"][0] if base in IDF_BASES else None
            # BM25: the mean length of the TRAINING documents (over the kept terms)
            avgdl = float(X[split.train].sum()) / max(split.train.size, 1) if base == "bm25tf" \
                else None
            X_train = encode(X[split.train], base, idf, avgdl=avgdl)
            extra = {}
            if metric in LEARNED:
                extra["col_weights"] = learned_weights(metric, X_train, corpus.Y[split.train],
                                                       scores, learned_options)
            elif metric is not None:
                extra["col_weights"] = as_scaling_weights(scores[metric])
            io.save_arrays(_fmt(args.out, split=name, encoding=encoding),
                           X_train=X_train,
                           X_test=encode(X[split.test], base, idf, avgdl=avgdl),
                           Y_train=corpus.Y[split.train], Y_test=corpus.Y[split.test], **extra)
            log.info("split %s: encoded %s (%d features)", name, encoding, columns.size)

    _for_each(args, one, _names(args))


def cmd_train(args) -> None:
    from termweight.learners.linear import fit_learner, fit_one_vs_rest

    exp = _experiment(args)[1] if args.params else {}
    C = args.C if args.C is not None else exp.get("learner", {}).get("C", 1.0)
    learner = getattr(args, "learner", None)
    # the benchmark's learners (--learner): its C, relative_C and max_iter (config.benchmark_runs)
    fit = {k: v for k, v in exp.get("fit", {}).items() if k != "C"} if learner else {}

    def one(job):
        name, e = job
        enc = io.load_arrays(_fmt(args.encoded, split=name, encoding=e))
        t0 = time.perf_counter()
        if learner is None:  # the generic steps' LinearSVC
            coef, intercept, fitted = fit_one_vs_rest(enc["X_train"], enc["Y_train"], C=C,
                                                      col_weights=enc.get("col_weights"))
        else:
            coef, intercept, fitted = fit_learner(learner, enc["X_train"], enc["Y_train"], C=C,
                                                  col_weights=enc.get("col_weights"), **fit)
        io.save_arrays(_fmt(args.out, split=name, encoding=e), coef=coef, intercept=intercept,
                       fitted=fitted)
        log.info("split %s, %s: %d/%d tasks fitted in %.2f s", name, e, int(fitted.sum()),
                 fitted.size, time.perf_counter() - t0)

    _for_each(args, one, _jobs(args))


def cmd_predict(args) -> None:
    from termweight.learners.linear import decision_scores

    for name, e in _jobs(args):
        enc = io.load_arrays(_fmt(args.encoded, split=name, encoding=e), keys=("X_test",))
        model = io.load_arrays(_fmt(args.model, split=name, encoding=e))
        scores = decision_scores(enc["X_test"], model["coef"], model["intercept"])
        io.save_arrays(_fmt(args.out, split=name, encoding=e), scores=scores,
                       predicted=(scores > 0).astype(np.uint8))
        log.info("split %s: predicted %d documents x %d tasks", name, *scores.shape)


def cmd_evaluate(args) -> None:
    import pandas as pd

    from termweight.evaluation import confusion_counts, per_task_metrics

    classes = io.read_json(args.corpus_meta)["classes"]
    doc_accuracy = getattr(args, "doc_accuracy", False)
    for name, e in _jobs(args):
        enc = io.load_arrays(_fmt(args.encoded, split=name, encoding=e), keys=("Y_test", "Y_train"))
        pred = io.load_arrays(_fmt(args.predictions, split=name, encoding=e),
                              keys=("predicted", "scores") if doc_accuracy else ("predicted",))
        model = io.load_arrays(_fmt(args.model, split=name, encoding=e), keys=("fitted",))
        counts = confusion_counts(enc["Y_test"], pred["predicted"])
        frame = per_task_metrics(counts)
        frame.insert(0, "task", classes)
        frame["train_pos"] = np.asarray(enc["Y_train"].sum(axis=0)).ravel()
        frame["status"] = np.where(model["fitted"], "ok", "skipped: no training positives")
        if doc_accuracy:  # the benchmark's accuracy (argmax of the scores)
            from termweight.learners.linear import top1_accuracy

            frame["doc_accuracy"] = top1_accuracy(enc["Y_test"], pred["scores"])
        io.write_table(_fmt(args.out, split=name, encoding=e), pd.DataFrame(frame))


def cmd_aggregate(args) -> None:
    import pandas as pd

    from termweight.evaluation import averages, mean_se

    _, exp = _experiment(args)
    names = _names(args)
    rows, runs = [], []
    for enc in exp["encodings"]:
        for name in names:
            frame = io.read_table(_fmt(args.metrics, split=name, encoding=enc),
                                  required=("status", "tp", "fp", "fn", "tn"))
            frame.insert(0, "split", name)
            frame.insert(0, "encoding", enc)
            rows.append(frame)
            ok = frame[frame["status"] == "ok"]
            extra = ({"accuracy": float(frame["doc_accuracy"].iloc[0])}
                     if "doc_accuracy" in frame.columns else {})  # the benchmark's runs
            runs.append({"encoding": enc, "split": name, **averages(ok), **extra})
    per_task = pd.concat(rows, ignore_index=True)
    per_run = pd.DataFrame(runs)
    summary = {}
    for enc, grp in per_run.groupby("encoding", sort=False):
        summary[enc] = {}
        for col in ("micro_f1", "macro_f1", "micro_accuracy", "macro_precision", "macro_recall"):
            m, se = mean_se(grp[col])
            summary[enc][col] = round(m, 6)
            summary[enc][f"{col}_se"] = round(se, 6)
    # the JSON first: it refuses NaN (e.g. every task skipped), and then nothing is written
    io.write_json(args.out_json, {"experiment": args.exp, "dataset": exp["dataset"],
                                  "splits": len(names), "encodings": summary,
                                  "skipped_tasks": int((per_task["status"] != "ok").sum())})
    io.write_table(args.out_tasks, per_task)
    io.write_table(args.out_runs, per_run)


def _summary_frame(runs, encodings):
    import pandas as pd

    from termweight.evaluation import mean_se

    out = []
    for enc in encodings:
        grp = runs[runs["encoding"] == enc]
        row = {"encoding": enc}
        for col in ("micro_f1", "macro_f1", "micro_accuracy"):
            row[f"{col}_mean"], row[f"{col}_se"] = mean_se(grp[col])
        out.append(row)
    return pd.DataFrame(out)


def cmd_table(args) -> None:
    import pandas as pd

    from termweight.reporting import latex_escape, write_latex_table

    _, exp = _experiment(args)
    runs = io.read_table(args.runs)
    s = _summary_frame(runs, exp["encodings"])
    frame = pd.DataFrame({
        "Encoding": [latex_escape(e) for e in s["encoding"]],
        "Micro-F1": [f"{m:.4f} $\\pm$ {e:.4f}" for m, e in zip(s["micro_f1_mean"],
                                                               s["micro_f1_se"], strict=True)],
        "Macro-F1": [f"{m:.4f} $\\pm$ {e:.4f}" for m, e in zip(s["macro_f1_mean"],
                                                               s["macro_f1_se"], strict=True)],
        "Accuracy": [f"{m:.4f} $\\pm$ {e:.4f}" for m, e in zip(s["micro_accuracy_mean"],
                                                               s["micro_accuracy_se"], strict=True)],
    })
    n = runs["split"].nunique()
    caption = (f"{latex_escape(exp['dataset'])}: LinearSVC (C={exp['learner'].get('C', 1.0)}) "
               f"one-vs-rest, mean $\\pm$ standard error over {n} splits "
               f"({latex_escape(args.exp)}).")
    write_latex_table(args.out, frame, caption, f"tab:{args.exp}", escape=False)


def cmd_figure(args) -> None:
    from termweight.reporting import bar_chart_with_errors, save_figure

    _, exp = _experiment(args)
    runs = io.read_table(args.runs)
    s = _summary_frame(runs, exp["encodings"])
    fig = bar_chart_with_errors(s, list(s["encoding"]), ["micro_f1", "macro_f1"], "F1",
                                f"{exp['dataset']}: LinearSVC one-vs-rest ({runs['split'].nunique()}"
                                " splits, mean $\\pm$ s.e.)")
    save_figure(fig, Path(args.out).with_suffix(""))


def cmd_headlines(args) -> None:
    """A few headline numbers per paper and experiment -> one small JSON, DVC's metrics.

    (termweight.headlines: the README's results table and each experiment's micro-F1.)
    """
    from termweight.config import load_params
    from termweight.headlines import headlines

    out = headlines(load_params(args.params), Path(args.reports), Path(args.published))
    io.write_json(args.out, out)
    log.info("headlines of %s -> %s", ", ".join(out) or "nothing", args.out)


# --- what there is: `list` -----------------------------------------------------------------------

LIST_KINDS = ("datasets", "metrics", "encodings", "learners", "experiments")

#: learner (as named in params.yaml) -> (where it is used, class or function, module); the
#: descriptions come from the docstrings
LEARNERS = {
    "linearsvc": ("experiments (learner: {name: linearsvc}) and esuli's SVM baseline; forman, "
                  "mukras and ferreira ('svm') fit scikit-learn's LinearSVC directly",
                  "fit_one_vs_rest", "termweight.learners.linear"),
    "adaboost_mh": ("esuli (esuli.learners)", "AdaBoostMH", "termweight.learners.boosting"),
    "mp_boost": ("esuli (esuli.learners)", "MPBoost", "termweight.learners.boosting"),
    "modest": ("ferreira (ferreira.datasets.<name>.classifiers)", "ModestAdaBoost",
               "termweight.learners.modest"),
    "mix-ch": ("kim (kim.methods)", "MixCH", "termweight.learners.kim"),
    "mini-max": ("kim (kim.methods)", "MiniMax", "termweight.learners.kim"),
    "fh": ("mukras (mukras.classifiers)", "FrankHallClassifier",
                   "termweight.learners.ordinal"),
}

#: paper target (a section of params.yaml; `snakemake <name>`) -> what it reproduces
PAPER_TARGETS = {
    "esuli": "Esuli & Sebastiani: ordinal-to-binary features for AdaBoost.MH and MP-Boost, "
             "Reuters-21578",
    "mukras": "Mukras et al. (2007): Information Gain with probability re-distribution, ordinal "
              "classes",
    "forman": "Forman (2008): BNS feature scaling against TF-IDF and 13 other metrics, linear SVM",
    "kim": "Kim (2016): combining supervised term weightings, mix-ch and mini-max",
    "ferreira": "Ferreira & Figueiredo (2012): l0-norm feature selection against Fisher, random "
                "projection, MIM, CMIM",
}

#: every base encoding -> what it is (termweight.encoding.BASE_ENCODINGS; checked by the tests)
BASE_ENCODING_HELP = {
    "binary": "1 where the term occurs, else 0",
    "tf": "the raw term count",
    "logtf": "log(1 + count)",
    "tfidf": "count x training idf, rows scaled to unit L2 norm (cosine); needs 'idf' in scores",
}


def _first_line(text: str | None) -> str:
    lines = [ln.strip().replace("``", "") for ln in (text or "").strip().splitlines()]
    return " ".join(lines[:next((i for i, ln in enumerate(lines) if not ln), len(lines))])


def _metric_table() -> dict[str, str]:
    """name -> formula, from the table in termweight.scoring's module docstring."""
    from termweight import scoring

    out = {}
    for line in (scoring.__doc__ or "").splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0] in scoring.METRICS and "``" in parts[1]:
            formula = parts[1].rsplit(None, 1)[0] if parts[1].split()[-1] in (
                "yes", "no", "--") else parts[1]
            out[parts[0]] = formula.replace("``", "").strip()
    return out


def _rows(rows) -> None:
    """Print rows of cells as aligned columns, one line each."""
    rows = [[" ".join(str(c).split()) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)] if rows else []
    for r in rows:
        print("  ".join([c.ljust(w) for c, w in zip(r, widths, strict=False)] + [r[-1]]).rstrip())


def _list_datasets(args) -> None:
    from termweight.datasets import DATASETS

    _rows([(n, s.kind, s.description or "(no description)") for n, s in sorted(DATASETS.items())])


def _list_metrics(args) -> None:
    from termweight import scoring

    formulas = _metric_table()
    rows = []
    for name, (func, swapped) in scoring.METRICS.items():
        text = _first_line(func.__doc__) or formulas.get(name) or formulas.get(func.__name__, "")
        if swapped:
            text = f"{text} [swap: cells swapped for negatively correlated terms]"
        rows.append((name, text or "(no description)"))
    _rows(rows)


def _list_encodings(args) -> None:
    from termweight.encoding import BASE_ENCODINGS

    rows = [(b, BASE_ENCODING_HELP.get(b, "(no description)")) for b in BASE_ENCODINGS]
    rows.append(("<base>-<metric>", "a base encoding with column j scaled by the training score of "
                 "<metric> (e.g. binary-bns; the metric must be in the experiment's scores; "
                 "python -m termweight list metrics)"))
    _rows(rows)


def _list_learners(args) -> None:
    import importlib

    rows = []
    for name, (where, attr, module) in LEARNERS.items():
        obj = getattr(importlib.import_module(module), attr)
        doc = _first_line(obj.__doc__) or _first_line(importlib.import_module(module).__doc__)
        rows.append((name, f"{module}.{attr}", f"{doc} Used by: {where}."))
    _rows(rows)


def _list_experiments(args) -> None:
    from termweight.config import load_params

    params = load_params(args.params)
    rows = []
    for name, exp in params.get("experiments", {}).items():
        proto = exp["protocol"]
        how = ", ".join(f"{k} {v}" for k, v in proto.items() if k != "type")
        rows.append((name, "experiment",
                     f"{exp['dataset']}, {proto['type']} ({how}), encodings "
                     f"{' '.join(exp['encodings'])}, {exp['learner']['name']} "
                     f"(snakemake experiments; dvc repro table@{name} figure@{name})"))
    for name, text in PAPER_TARGETS.items():
        where = "in" if name in params else f"NOT in {args.params}: no target"
        rows.append((name, "paper", f"{text} (snakemake {name}; {where} {args.params})"
                     if name in params else f"{text} ({where})"))
    rows.append(("papers", "target", "all five papers (snakemake papers)"))
    _rows(rows)


def cmd_list(args) -> None:
    """One line per dataset, metric, encoding, learner or experiment."""
    {"datasets": _list_datasets, "metrics": _list_metrics, "encodings": _list_encodings,
     "learners": _list_learners, "experiments": _list_experiments}[args.kind](args)


# --- parser -------------------------------------------------------------------------------------

DESCRIPTION = ("termweight's command-line interface. Each sub-command is one step of the pipeline "
               "(raw files -> documents -> tokens -> corpus -> splits -> statistics -> scores -> "
               "encoded matrices -> models -> predictions -> metrics -> tables and figures); "
               "Snakemake and DVC call them from workflow/rules and dvc.yaml. 'list' shows the "
               "datasets, metrics, encodings, learners and experiments. Bad input is one line "
               "naming the file or key, exit status 2.")
EPILOG = """examples:
  python -m termweight list datasets             the datasets and what they are
  python -m termweight list experiments          the experiments of params.yaml, the papers
  python -m termweight prepare --dataset bbc --out data/documents/bbc
  python -m termweight report-summary --readme README.md
  python -m termweight <sub-command> --help      the options of one step

The whole pipeline: snakemake --cores 2 (or dvc repro). More: docs/cli.md, docs/workflow.md."""
DOCUMENTS_HELP = "documents directory written by prepare (documents.parquet, documents.json)"
CORPUS_HELP = "corpus directory (counts.npz, meta.json, terms.txt)"
EXP_HELP = "experiment name under 'experiments:' in the params file"
SPLIT_HELP = "split file template with {split} (.npz, written by split)"
STATS_HELP = "statistics file template with {split}, written by stats"
ENCODED_HELP = "encoded-matrix template with {split} and {encoding}, written by encode"
MODEL_HELP = "model template with {split} and {encoding}, written by train"


def _add_names(p, encodings: bool = False):
    p.add_argument("--params", help="params.yaml (default split/encoding lists come from it)")
    p.add_argument("--exp", help=EXP_HELP)
    p.add_argument("--names", nargs="+", help="split names (default: all of the experiment)")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="worker processes (default: the CPUs available; outputs do not depend on it)")
    if encodings:
        p.add_argument("--encoding", nargs="+",
                       help="encodings (default: all of the experiment)")


def _command_of(argv) -> str | None:
    """The sub-command named in ``argv`` (the first token that is not a global option)."""
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--log":
            i += 2
        elif tok.startswith("-"):
            i += 1
        else:
            return tok
    return None


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The CLI; for a paper's step only that paper's modules are imported (faster start-up)."""
    from termweight import __version__

    ap = argparse.ArgumentParser(prog="termweight", description=textwrap.fill(DESCRIPTION, 79),
                                 epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="version", version=f"termweight {__version__}",
                    help="print the version and exit")
    ap.add_argument("--log", help="write progress and timings to this file instead of stderr "
                    "(errors still go to stderr)")
    ap.add_argument("-v", "--verbose", action="store_true", help="log debug messages too")
    sub = ap.add_subparsers(dest="command", required=True, metavar="<sub-command>",
                            help="one step (or 'list'); '<sub-command> --help' shows its options")

    p = sub.add_parser("list", help="the datasets, metrics, encodings, learners or experiments, "
                       "one line each",
                       description="Print one line per dataset, metric, encoding, learner or "
                       "experiment (with the paper targets).")
    p.add_argument("kind", choices=LIST_KINDS, help="what to list: %(choices)s")
    p.add_argument("--params", default="params.yaml",
                   help="params file whose experiments to list (default: %(default)s)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("prepare", help="raw files -> documents (text) or corpus (vectors)")
    p.add_argument("--dataset", required=True,
                   help="dataset name (python -m termweight list datasets)")
    p.add_argument("--out", required=True,
                   help="output directory: documents.parquet and documents.json for a text "
                   "dataset; counts.npz, meta.json and terms.txt for a vector dataset")
    p.add_argument("--raw", default="data/raw/{dataset}",
                   help="directory for the raw files, {dataset} is replaced by the name "
                   "(default: %(default)s)")
    p.add_argument("--mirror", help="directory with the raw files (overrides params.yaml)")
    p.add_argument("--params", help="params.yaml, for its 'mirror' setting")
    p.set_defaults(func=cmd_prepare)

    p = sub.add_parser("tokenize", help="documents -> tokens (Porter stems)")
    p.add_argument("--documents", required=True, help=DOCUMENTS_HELP)
    p.add_argument("--out", required=True, help="tokens file (.parquet, one row per document)")
    p.set_defaults(func=cmd_tokenize)

    p = sub.add_parser("count", help="tokens -> corpus (count matrix + labels)")
    p.add_argument("--documents", required=True, help=DOCUMENTS_HELP)
    p.add_argument("--tokens", required=True, help="tokens file written by tokenize")
    p.add_argument("--out", required=True,
                   help="corpus directory to write: counts.npz, meta.json, terms.txt")
    p.set_defaults(func=cmd_count)

    p = sub.add_parser("split", help="corpus -> split index files")
    p.add_argument("--params", required=True, help="params.yaml (the protocol and the seed)")
    p.add_argument("--exp", required=True, help=EXP_HELP)
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--out-dir", required=True,
                   help="directory to write: one <split>.npz per split and index.json")
    p.set_defaults(func=cmd_split)

    p = sub.add_parser("stats", help="training statistics per split")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--split", required=True, help=SPLIT_HELP)
    p.add_argument("--out", required=True,
                   help="statistics file template with {split} (.npz, training rows only)")
    _add_names(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("score", help="metric scores per split")
    p.add_argument("--stats", required=True, help=STATS_HELP)
    p.add_argument("--metrics", nargs="+", metavar="METRIC",
                   help="metric names (python -m termweight list metrics; default: the "
                   "experiment's scores)")
    p.add_argument("--out", required=True,
                   help="scores file template with {split} (.npz, one array per metric)")
    _add_names(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("encode", help="encoded train/test matrices per split")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--split", required=True, help=SPLIT_HELP)
    p.add_argument("--stats", required=True, help=STATS_HELP)
    p.add_argument("--scores", required=True,
                   help="scores file template with {split}, written by score")
    p.add_argument("--out", required=True,
                   help="encoded-matrix template with {split} and {encoding} (.npz)")
    _add_names(p, encodings=True)
    p.set_defaults(func=cmd_encode)

    p = sub.add_parser("train", help="one-vs-rest LinearSVC per split")
    p.add_argument("--encoded", required=True, help=ENCODED_HELP)
    p.add_argument("--C", type=float, help="LinearSVC's C (default: the experiment's learner C, "
                   "else 1)")
    p.add_argument("--out", required=True, help="model template with {split} and {encoding} (.npz)")
    p.add_argument("--learner", help="linearsvc (default), logreg or mnb "
                   "(termweight.learners.linear.LEARNERS)")
    _add_names(p, encodings=True)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("predict", help="decision scores and predictions per split")
    p.add_argument("--encoded", required=True, help=ENCODED_HELP)
    p.add_argument("--model", required=True, help=MODEL_HELP)
    p.add_argument("--out", required=True,
                   help="predictions template with {split} and {encoding} (.npz)")
    _add_names(p, encodings=True)
    p.set_defaults(func=cmd_predict)

    p = sub.add_parser("evaluate", help="per-task metrics per split")
    p.add_argument("--corpus-meta", required=True, help="the corpus's meta.json (class names)")
    p.add_argument("--encoded", required=True, help=ENCODED_HELP)
    p.add_argument("--model", required=True, help=MODEL_HELP)
    p.add_argument("--predictions", required=True,
                   help="predictions template with {split} and {encoding}, written by predict")
    p.add_argument("--out", required=True,
                   help="per-task metrics template with {split} and {encoding} (.csv)")
    p.add_argument("--doc-accuracy", action="store_true",
                   help="add column doc_accuracy: share of documents whose top score is a true class")
    _add_names(p, encodings=True)
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("aggregate", help="per-run averages and the metrics JSON")
    p.add_argument("--metrics", required=True,
                   help="per-task metrics template with {encoding} and {split}, written by evaluate")
    p.add_argument("--out-tasks", required=True,
                   help="CSV to write: every task of every run")
    p.add_argument("--out-runs", required=True,
                   help="CSV to write: micro and macro averages, one row per encoding and split")
    p.add_argument("--out-json", required=True,
                   help="JSON to write: mean and standard error per encoding "
                   "(reports/metrics/<exp>.json)")
    _add_names(p)
    p.set_defaults(func=cmd_aggregate)

    for name, func in (("table", cmd_table), ("figure", cmd_figure)):
        p = sub.add_parser(name, help=f"the experiment's {name}")
        p.add_argument("--params", required=True, help="params.yaml (the experiment's encodings)")
        p.add_argument("--exp", required=True, help=EXP_HELP)
        p.add_argument("--runs", required=True, help="runs CSV written by aggregate")
        p.add_argument("--out", required=True,
                       help="LaTeX table to write (.tex)" if name == "table" else
                       "figure to write (.pdf; a .png of the same name is written beside it)")
        p.set_defaults(func=func)
    argv = sys.argv[1:] if argv is None else argv
    p = sub.add_parser("headlines", help="a few headline numbers per paper and experiment -> "
                       "one small JSON (DVC's metrics)",
                       description=_first_line(cmd_headlines.__doc__))
    p.add_argument("--params", default="params.yaml",
                   help="params file: its experiments are reported (default: %(default)s)")
    p.add_argument("--reports", default="reports",
                   help="directory holding metrics/<paper or experiment>.json (default: %(default)s)")
    p.add_argument("--published", default="src/termweight/experiments/published",
                   help="published numbers, one JSON per paper (default: %(default)s)")
    p.add_argument("--out", required=True, help="JSON to write (reports/headlines.json)")
    p.set_defaults(func=cmd_headlines)
    command = _command_of(argv)
    if command is None and ("--version" in argv):
        return ap  # nothing else to show: skip importing every paper's module
    if command not in sub.choices:
        _register_experiments(sub, command)
    return ap


def _register_experiments(sub, command: str | None = None) -> None:
    """Add the sub-commands of the ``termweight.experiments`` modules that define ``register``.

    ``command`` ``<paper>-<step>`` imports only ``<paper>`` and ``<paper>_report`` (``report*``:
    the report module); anything else (``--help``, a typo) imports them all, to list them.
    """
    import importlib
    import pkgutil

    from termweight import experiments

    names = sorted(info.name for info in pkgutil.iter_modules(experiments.__path__))
    if command:
        paper = "report" if command.startswith("report") else command.split("-")[0]
        wanted = [n for n in names if n in (paper, f"{paper}_report")]
        names = wanted or names
    for name in names:
        module = importlib.import_module(f"termweight.experiments.{name}")
        if hasattr(module, "register"):
            module.register(sub)


def _fail(args, message: str) -> int:
    """Report bad input as one line on stderr (and in the --log file); exit status 2."""
    message = one_line(message, 2000)
    if args.log:  # without --log the log handler IS stderr: print the line once
        log.error("%s", message)
    print(f"termweight {args.command}: error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    """Run one step. Bad input (a :class:`TermweightError`, or a file the OS refuses to open,
    read or write) is ONE line on stderr naming the file, exit status 2; never a traceback."""
    args = build_parser(argv).parse_args(argv)
    t0 = time.perf_counter()
    try:
        # With --log, progress goes to that file only (a workflow's per-rule log); errors are
        # also printed to stderr.
        if args.log:
            Path(args.log).parent.mkdir(parents=True, exist_ok=True)
            handlers: list[logging.Handler] = [logging.FileHandler(args.log, mode="w",
                                                                   encoding="utf-8")]
        else:
            handlers = [logging.StreamHandler(sys.stderr)]
        logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                            handlers=handlers, force=True,
                            format="%(asctime)s %(name)s %(levelname)s %(message)s")
        args.func(args)
    except TermweightError as exc:
        return _fail(args, str(exc))
    except BrokenPipeError:  # the reader went away (`termweight list metrics | head -1`): no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush
        return 0
    except OSError as exc:  # e.g. an input that is missing or a directory, a full disk
        where = exc.filename if exc.filename is not None else "(file)"
        return _fail(args, f"{where}: {exc.strerror or exc}")
    if args.command != "list":  # its output is the list, nothing else
        log.info("%s done in %.2f s", args.command, time.perf_counter() - t0)
    return 0
