"""Per-task metrics -> averages, table, figure: ``aggregate``, ``table``, ``figure`` (the
headline numbers of every paper: ``termweight.steps.headlines``)."""

from __future__ import annotations

import logging
from pathlib import Path

from termweight.intermediates import read_runs
from termweight.runner import common, io
from termweight.settings import learner_C

log = logging.getLogger("termweight")


def cmd_aggregate(args) -> None:
    import pandas as pd

    from termweight.evaluation import averages, mean_se
    from termweight.intermediates import read_metrics
    from termweight.results_check import check_cells

    _, exp = common.experiment(args)
    names = common.names(args)
    rows, runs = [], []
    for enc in exp["encodings"]:
        column = None if "{split}" in args.metrics else _column_table(args, enc, names)
        for name in names:
            if column is None:
                where = common.fmt(args.metrics, split=name, encoding=enc)
                frame = read_metrics(where)
                if "task" in frame.columns:  # each task (class) once
                    check_cells(where, frame, {"task": frame["task"].unique()})
            else:
                frame = column[column["split"] == name].drop(columns=["learner", "split"])
                frame = frame.reset_index(drop=True)
            frame.insert(0, "split", name)
            frame.insert(0, "encoding", enc)
            rows.append(frame)
            ok = frame[frame["status"] == "ok"]
            where = (common.fmt(args.metrics, split=name, encoding=enc) if column is None
                     else common.fmt(args.metrics, encoding=enc))
            extra = (_benchmark_columns(where, frame)
                     if "doc_accuracy" in frame.columns else {})
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
    # all three or none (the JSON refuses NaN, e.g. every task skipped; a disk may fill)
    with io.all_or_nothing():
        io.write_json(args.out_json, {"experiment": args.exp, "dataset": exp["dataset"],
                                      "splits": len(names), "encodings": summary,
                                      "skipped_tasks": int((per_task["status"] != "ok").sum())})
        io.write_table(args.out_tasks, per_task)
        io.write_table(args.out_runs, per_run)


def _column_table(args, encoding: str, names):
    """A benchmark column's table (``benchmark-column --out``), the rows of ``--learner``:
    checked as every metrics table (``read_metrics``), and to hold every split of the run, each
    task once."""
    from termweight.intermediates import read_metrics
    from termweight.runner.errors import DataError, TermweightError

    if not args.learner:
        raise TermweightError(f"aggregate: --metrics {args.metrics} has no {{split}}: it is a "
                              "benchmark column's table, and --learner says whose rows to read")
    path = common.fmt(args.metrics, encoding=encoding)
    frame = read_metrics(path)
    missing = [c for c in ("learner", "split", "task") if c not in frame.columns]
    if missing:
        raise DataError(path, f"missing column(s) {', '.join(map(repr, missing))}")
    mine = frame[frame["learner"] == args.learner]
    absent = sorted(set(names) - set(mine["split"]))
    if absent:
        raise DataError(path, f"no rows of learner {args.learner!r} for split(s) "
                        f"{', '.join(absent)}")
    if mine.duplicated(["split", "task"]).any():
        raise DataError(path, f"learner {args.learner!r}: a (split, task) appears twice")
    return mine


def _benchmark_columns(path, frame) -> dict:
    """A benchmark run's document measures: ``accuracy`` (top-1 hits), ``top1_macro_f1`` and
    ``top1_micro_f1`` (F1 of the top-1 prediction: macro over the classes with a true or predicted
    test document, as scikit-learn's ``f1_score``), ``single_label``; under the tuned protocol
    ``value`` (the chosen C or alpha), ``unconverged`` (fitted tasks stopped at the cap) and
    ``inner_unconverged``; and the majority-class baseline's (``majority``)."""
    from termweight.intermediates import check_table
    from termweight.learners.protocol import f1_from_counts

    out = {"accuracy": float(frame["doc_accuracy"].iloc[0])}
    if "top1_tp" in frame.columns:
        check_table(path, frame, counts=("top1_tp", "top1_fp", "top1_fn"))
        out["top1_macro_f1"], out["top1_micro_f1"] = f1_from_counts(
            *(frame[f"top1_{c}"].to_numpy() for c in ("tp", "fp", "fn")))
        out["single_label"] = bool(frame["single_label"].iloc[0])
        out.update(majority(frame))
    if "converged" in frame.columns:
        ok = frame["status"] == "ok"
        out["value"] = float(frame["value"].iloc[0])
        out["unconverged"] = int((ok & ~frame["converged"].astype(bool)).sum())
        out["inner_unconverged"] = int(frame["inner_unconverged"].iloc[0])
    return out


def majority(frame) -> dict:
    """The majority-class baseline of one split from its per-task rows: every test document
    given the class with the most training documents (``train_pos``; ties: the first).
    ``majority_accuracy`` = share of test documents of that class; ``majority_macro_f1`` =
    macro-F1 over the classes with a test document (that class ``2 n / (N + n)``, the others
    0), the same for top-1 and per-category decisions; ``majority_micro_f1`` likewise."""
    import numpy as np

    from termweight.learners.protocol import f1_from_counts

    pos = (frame["tp"] + frame["fn"]).to_numpy(dtype=np.int64)  # test documents of each class
    n_test = int((frame["tp"] + frame["fp"] + frame["fn"] + frame["tn"]).iloc[0])
    m = int(np.argmax(frame["train_pos"].to_numpy()))
    tp = np.zeros_like(pos)
    tp[m] = pos[m]
    fp = np.zeros_like(pos)
    fp[m] = n_test - pos[m]
    macro, micro = f1_from_counts(tp, fp, pos - tp)
    return {"majority_accuracy": pos[m] / n_test if n_test else 0.0,
            "majority_macro_f1": macro, "majority_micro_f1": micro}


def _declared_runs(args):
    """The experiment and its runs CSV, checked against the params: every declared encoding x
    split exactly once, nothing else, every measure finite and in [0, 1]; returns
    ``(exp, runs, number of splits)``."""
    from termweight.intermediates import RUN_COLUMNS
    from termweight.results_check import UNIT, check_cells
    from termweight.splits import split_names

    _, exp = common.experiment(args)
    runs = read_runs(args.runs)
    splits = split_names(exp["protocol"])
    check_cells(args.runs, runs, {"encoding": exp["encodings"], "split": splits},
                dict.fromkeys(RUN_COLUMNS[2:], UNIT))
    return exp, runs, len(splits)


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

    exp, runs, n = _declared_runs(args)
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
    caption = (f"{latex_escape(exp['dataset'])}: LinearSVC (C={learner_C(exp)}) "
               f"one-vs-rest, mean $\\pm$ standard error over {n} splits "
               f"({latex_escape(args.exp)}).")
    write_latex_table(args.out, frame, caption, f"tab:{args.exp}", escape=False)


def cmd_figure(args) -> None:
    from termweight.reporting import bar_chart_with_errors, save_figure

    exp, runs, n = _declared_runs(args)
    s = _summary_frame(runs, exp["encodings"])
    fig = bar_chart_with_errors(s, list(s["encoding"]), ["micro_f1", "macro_f1"], "F1",
                                f"{exp['dataset']}: LinearSVC one-vs-rest ({n}"
                                " splits, mean $\\pm$ s.e.)")
    save_figure(fig, Path(args.out).with_suffix(""))


def register(sub) -> None:
    """``aggregate``, ``table``, ``figure``."""
    p = sub.add_parser("aggregate", help="per-run averages and the metrics JSON")
    p.add_argument("--metrics", required=True,
                   help="per-task metrics template with {encoding} and {split}, written by "
                   "evaluate; without {split}: a benchmark column's table per encoding "
                   "(benchmark-column --out), read for --learner")
    p.add_argument("--learner", help="the learner whose rows of a column's table to read")
    p.add_argument("--out-tasks", required=True,
                   help="CSV to write: every task of every run")
    p.add_argument("--out-runs", required=True,
                   help="CSV to write: micro and macro averages, one row per encoding and split")
    p.add_argument("--out-json", required=True,
                   help="JSON to write: mean and standard error per encoding "
                   "(reports/metrics/<exp>.json)")
    common.add_names(p)
    p.set_defaults(func=cmd_aggregate)

    for name, func in (("table", cmd_table), ("figure", cmd_figure)):
        p = sub.add_parser(name, help=f"the experiment's {name}")
        p.add_argument("--params", required=True, help="params.yaml (the experiment's encodings)")
        p.add_argument("--exp", required=True, help=common.EXP_HELP)
        p.add_argument("--runs", required=True, help="runs CSV written by aggregate")
        p.add_argument("--out", required=True,
                       help="LaTeX table to write (.tex)" if name == "table" else
                       "figure to write (.pdf; a .png of the same name is written beside it)")
        p.set_defaults(func=func)
