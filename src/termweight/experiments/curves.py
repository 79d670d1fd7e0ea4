"""Learning curves of the benchmark: where supervised weights pay (``curves-column``, ``curves-report``).

``benchmark.curves`` names datasets, training fractions and repeats, and the weightings to run
(the declared comparisons' and both tf-idf controls at least). A curve subsamples ONE split of
the dataset's run, its base: the standard split (``fixed``) where the dataset has one, else the
protocol's first (``r0f0``). For each dataset and weighting, ``curves-column`` subsamples the
base's training rows (``termweight.subsample``: nested per repeat, stratified on single-label
data, the test rows unchanged), computes each subsample's training statistics and runs the
benchmark's own column (``benchmark-column``: the same settings, tuned protocol and learners) on
them. The whole training set is the base's rows of the benchmark's column, read, not
recomputed.

``curves-report`` takes the benchmark's first measure per (dataset, learner, weighting,
fraction), the mean over the repeats, and the gain of each weighting over the STRONGER control
at that point: ``score(w) - max(score(c) for c in controls)``. A weighting pays where its gain is
above zero (it beats both tf-idf controls there).
"""

from __future__ import annotations

import argparse
import logging
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.runner import io
from termweight.runner.errors import ConfigError
from termweight.weighting import group_of

log = logging.getLogger("termweight")


def curves_config(params: dict, source: str = "params.yaml") -> dict:
    """``benchmark.curves`` checked against the rest of ``benchmark``: its datasets are the
    benchmark's (``base``: each one's base split), the tuned protocol is on, and its weightings
    include the declared comparisons' and the controls."""
    from termweight.settings import benchmark_runs
    from termweight.splits import split_names
    from termweight.weighting import benchmark_encodings

    b = params.get("benchmark") or {}
    c = b.get("curves")
    where = f"{source}: benchmark/curves"
    if not c:
        raise ConfigError(f"{where}: missing (the datasets, fractions and repeats of the curves)")
    if not b.get("tuning"):
        raise ConfigError(f"{where}: needs the tuned protocol (benchmark/tuning)")
    for d in c["datasets"]:
        if d not in b["datasets"]:
            raise ConfigError(f"{where}/datasets: {d!r} is not a benchmark dataset "
                              "(benchmark/datasets)")
    grid = benchmark_encodings(b.get("weightings", "all"))
    needed = [*b.get("controls", []), *(w for cmp in b.get("comparisons", [])
                                        for w in (cmp["a"], cmp["b"]))]
    for w in c["weightings"]:
        if w not in grid:
            raise ConfigError(f"{where}/weightings: {w!r} is not in the grid (benchmark/weightings)")
    missing = [w for w in dict.fromkeys(needed) if w not in c["weightings"]]
    if missing:
        raise ConfigError(f"{where}/weightings: {missing[0]!r} (a control or a declared "
                          "comparison's weighting) is missing")
    if not b.get("controls"):
        raise ConfigError(f"{where}: needs benchmark/controls (the gains are over the stronger)")
    modules = list(dict.fromkeys(group_of(w) for w in c["weightings"]))
    if "modules" in c and sorted(c["modules"]) != sorted(modules):
        raise ConfigError(f"{where}/modules: {c['modules']} are not the modules of the curves' "
                          f"weightings: {modules} (termweight.weighting.group_of)")
    from termweight.subsample import _check_fractions

    try:
        fractions = _check_fractions(c["fractions"])
    except ValueError as exc:
        raise ConfigError(f"{where}/fractions: {exc}") from None
    runs = benchmark_runs(params)
    base = {d: split_names(runs[f"bench_{d}"]["protocol"])[0] for d in c["datasets"]}
    return {"datasets": list(c["datasets"]), "base": base, "fractions": fractions,
            "repeats": int(c["repeats"]), "weightings": list(c["weightings"]),
            "controls": list(b["controls"])}


# --- compute: one column ----------------------------------------------------------------------

def cmd_curves_column(args) -> None:
    """One weighting's column on every subsample of one dataset's standard split."""
    from termweight.corpus import Corpus
    from termweight.runner.config import load_params
    from termweight.splits import Split
    from termweight.subsample import learning_curve_splits

    params = load_params(args.params)
    cfg = curves_config(params, args.params)
    corpus = Corpus.load(args.corpus)
    dataset = args.exp.removeprefix("bench_")
    if dataset not in cfg["base"]:
        raise ConfigError(f"{args.params}: benchmark/curves/datasets has no {dataset!r} "
                          f"(--exp {args.exp})")
    base = Split.load(args.split.format(split=cfg["base"][dataset]), n_docs=corpus.n_docs)
    splits = learning_curve_splits(base, corpus.Y, cfg["fractions"], cfg["repeats"],
                                   int(params.get("seed", 0)))
    column_on_splits(args, splits, "subsamples", only=cfg["weightings"])


def column_on_splits(args, splits, kind: str, only=None) -> None:
    """``benchmark-column`` (``args``: its params, run, encoding or weighting module, corpus,
    settings, outputs) on ``splits`` made in the job: each written with its training statistics
    (``stats``) into a work directory beside ``args.out`` (``.<weighting>.<kind>``), removed
    afterwards; ``only``: the module's weightings to run (default: all the run has)."""
    from termweight.steps.column import cmd_column
    from termweight.steps.features import cmd_stats

    names = [s.name for s in splits]
    out = Path(args.out)
    work = out.parent / f".{(args.encoding or args.weighting)}.{kind}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        for s in splits:
            s.save(work / f"{s.name}.split.npz")
        split, stats = str(work / "{split}.split.npz"), str(work / "{split}.stats.npz")
        cmd_stats(argparse.Namespace(corpus=args.corpus, split=split, out=stats, names=names,
                                     params=None, exp=None))
        cmd_column(argparse.Namespace(
            params=args.params, exp=args.exp, encoding=args.encoding, weighting=args.weighting,
            only=only, corpus=args.corpus, split=split, stats=stats, settings=args.settings,
            learner=None, normalize=None, decisions_dir=None, out=args.out,
            out_seconds=args.out_seconds, names=names, jobs=args.jobs))
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- compute: the curves ------------------------------------------------------------------------

def column_runs(path, frame: pd.DataFrame) -> pd.DataFrame:
    """A column's per-task rows -> one row per (learner, split) with the run measures
    ``aggregate`` computes (``macro_f1``, ``micro_f1``, ``accuracy``, ``top1_*``) and
    ``headline_macro_f1`` (top-1 macro-F1 on single-label data, else macro-F1)."""
    from termweight.evaluation import averages
    from termweight.steps.results import _benchmark_columns

    rows = []
    for (learner, split), g in frame.groupby(["learner", "split"], sort=False):
        g = g.reset_index(drop=True)
        r = {"learner": learner, "split": split, **averages(g[g["status"] == "ok"]),
             **_benchmark_columns(path, g)}
        r["headline_macro_f1"] = r["top1_macro_f1"] if r.get("single_label") else r["macro_f1"]
        rows.append(r)
    return pd.DataFrame(rows)


def fraction_of(split: str) -> float:
    """``p10r0`` -> 0.1; any other name (the base split: ``fixed``, ``r0f0``) -> 1.0."""
    if split.startswith("p") and "r" in split:
        return float(split[1:split.rindex("r")]) / 100
    return 1.0


def load_curves(cfg: dict, columns: str, full: str, measure: str,
                learners=None) -> pd.DataFrame:
    """Long table: dataset, learner, weighting, fraction, repeats, score (the mean of ``measure``
    over the repeats). ``columns``/``full``: the curves' and the benchmark's column templates
    with ``{run}`` and ``{weighting}``; every subsample and learner checked present once."""
    from termweight.intermediates import read_metrics
    from termweight.runner.errors import DataError
    from termweight.settings import BENCHMARK_PREFIX
    from termweight.subsample import curve_name

    expected = {curve_name(f, r) for f in cfg["fractions"] for r in range(cfg["repeats"])}
    frames = []
    for d in cfg["datasets"]:
        for w in cfg["weightings"]:
            for template, want in ((columns, expected), (full, {cfg["base"][d]})):
                path = template.format(run=f"{BENCHMARK_PREFIX}{d}", weighting=w, group=group_of(w))
                runs = column_runs(path, read_metrics(path))
                if template == full:  # the base split's rows: the whole training set
                    runs = runs[runs["split"] == cfg["base"][d]]
                for learner in learners or runs["learner"].unique():
                    got = runs.loc[runs["learner"] == learner, "split"]
                    if set(got) != want or got.duplicated().any():
                        raise DataError(path, f"learner {learner!r}: splits "
                                        f"{sorted(set(got) ^ want) or 'repeated'} differ from "
                                        "benchmark/curves")
                if not np.isfinite(runs[measure]).all():
                    raise DataError(path, f"a non-finite {measure}")
                runs = runs[runs["learner"].isin(learners)] if learners else runs
                runs.insert(0, "weighting", w)
                runs.insert(0, "dataset", d)
                frames.append(runs)
    runs = pd.concat(frames, ignore_index=True)
    runs["fraction"] = runs["split"].map(fraction_of)
    g = runs.groupby(["dataset", "learner", "weighting", "fraction"], sort=False)[measure]
    return g.agg(score="mean", repeats="size").reset_index()


def gains(curves: pd.DataFrame, controls) -> pd.DataFrame:
    """``curves`` with ``control`` (the stronger control's score at that point) and ``gain``."""
    key = ["dataset", "learner", "fraction"]
    ctrl = (curves[curves["weighting"].isin(controls)].groupby(key)["score"].max()
            .rename("control").reset_index())
    out = curves.merge(ctrl, on=key, how="left", validate="many_to_one")
    out["gain"] = out["score"] - out["control"]
    return out


def summary(table: pd.DataFrame, controls) -> pd.DataFrame:
    """Per dataset, learner and fraction: the weightings (controls aside) above the stronger
    control, and the best one's gain."""
    rows = []
    other = table[~table["weighting"].isin(controls)]
    for (d, learner, f), g in other.groupby(["dataset", "learner", "fraction"], sort=False):
        best = g.loc[g["gain"].idxmax()]
        rows.append({"dataset": d, "learner": learner, "fraction": f,
                     "above": int((g["gain"] > 0).sum()), "weightings": len(g),
                     "best": best["weighting"], "best_gain": float(best["gain"])})
    return pd.DataFrame(rows)


def registered(table: pd.DataFrame, controls, declared, names: dict) -> dict:
    """The hypothesis registered before the run (``registrations.yaml``, ``learning-curves``)
    and, per learner, whether it held: on every dataset the mean gain over the stronger control
    of the declared comparisons' weightings (``declared``, the controls aside) is larger at the
    smallest fraction than on the whole training set."""
    from termweight.experiments import registrations

    d = table[table["weighting"].isin(set(declared) - set(controls))]
    held = {}  # nothing declared among the curves' weightings: nothing to decide
    if not d.empty:
        g = d.groupby(["learner", "dataset", "fraction"], sort=False)["gain"].mean().unstack()
        lo, hi = min(g.columns), max(g.columns)
        held = {learner: bool((x[lo] > x[hi]).all())
                for learner, x in g.groupby(level="learner", sort=False)}
    return registrations.outcome("learning-curves", held, names)


# --- figures, tables, text -----------------------------------------------------------------------

def curves_figure(table: pd.DataFrame, controls, measure_name: str, learner_names: dict):
    """A panel per (dataset, learner): each weighting's gain over the stronger control against
    the training fraction (log scale); controls dashed."""
    from termweight.reporting import figure

    datasets, learners = list(dict.fromkeys(table["dataset"])), list(dict.fromkeys(table["learner"]))
    fig, axes = figure(len(datasets), len(learners), height=1.6 * len(datasets) + 0.9,
                       squeeze=False, sharex=True)
    weightings = list(dict.fromkeys(table["weighting"]))
    colors = {w: f"C{i % 10}" for i, w in enumerate(weightings)}
    for i, d in enumerate(datasets):
        for j, learner in enumerate(learners):
            ax = axes[i][j]
            ax.axhline(0, color="0.5", lw=0.6)
            for w in weightings:
                g = table[(table["dataset"] == d) & (table["learner"] == learner)
                          & (table["weighting"] == w)].sort_values("fraction")
                ax.plot(g["fraction"], g["gain"], marker="o", ms=2.5, lw=0.9, color=colors[w],
                        ls="--" if w in controls else "-", label=w)
            ax.set_xscale("log")
            ax.set_xticks([0.1, 0.25, 0.5, 1.0], ["10%", "25%", "50%", "100%"])
            ax.minorticks_off()
            ax.set_title(f"{d}\n{learner_names.get(learner, learner)}")
    # one label for the rows (a label per row ran into its neighbours)
    fig.supylabel(f"{measure_name}: gain over the stronger control")
    for ax in axes[-1]:
        ax.set_xlabel("training documents used")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False,
               bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout(rect=(0.02, 0.1, 1, 1))
    return fig


def latex(summ: pd.DataFrame, measure_name: str, learner_names: dict) -> str:
    """Per dataset and learner, at each fraction: weightings above the stronger control and the
    best one's gain."""
    from termweight.experiments.benchmark import _w
    from termweight.reporting import latex_table

    fracs = sorted(summ["fraction"].unique())
    rows = []
    for (d, learner), g in summ.groupby(["dataset", "learner"], sort=False):
        row = {"Dataset": _w(d), "Learner": learner_names.get(learner, learner)}
        for f in fracs:
            r = g[g["fraction"] == f].iloc[0]
            row[f"{f:.0%}".replace("%", "\\%")] = f"{r.above}/{r.weightings} ({r.best_gain:+.3f})"
        rows.append(row)
    caption = (f"Learning curves: at each share of the standard split's training documents, the "
               f"weightings (the controls aside) whose {measure_name} beats BOTH tf-idf controls "
               "(each score the mean over the subsamples' repeats), and in brackets the best "
               "one's gain over the stronger control; 100\\% is the benchmark's own column.")
    return latex_table(pd.DataFrame(rows), caption, "tab:benchmark_curves", escape=False,
                       column_format="ll" + "r" * len(fracs))


def text(summ: pd.DataFrame, measure_name: str) -> str:
    """The report's sentence: how many weightings pay at the smallest and the whole training
    set, and the best gains there."""
    lo, hi = summ["fraction"].min(), summ["fraction"].max()
    parts = []
    for f in (lo, hi):
        s = summ[summ["fraction"] == f]
        parts.append(f"with {f:.0%} of the training documents {int(s['above'].sum())} of "
                     f"{int(s['weightings'].sum())} (dataset, learner, weighting) triples beat "
                     f"both controls, the best gain per dataset and learner "
                     f"{s['best_gain'].mean():+.4f} on average")
    lead = measure_name[:1].upper() + measure_name[1:]  # "Macro-F1", not str.capitalize's "Macro-f1"
    return (f"{lead}: " + "; ".join(parts) + ".").replace("%", "\\%")


def cmd_curves_report(args) -> None:
    """The curve columns and the benchmark's -> CSV, table, figure, JSON, macros."""
    from termweight.experiments.benchmark import LEARNER_NAMES, MEASURE_NAMES, MEASURES
    from termweight.reporting import save_figure
    from termweight.runner.config import load_params

    params = load_params(args.params)
    cfg = curves_config(params, args.params)
    measure = list(params["benchmark"].get("measures", MEASURES))[0]
    learners = list(params["benchmark"]["learners"])
    table = gains(load_curves(cfg, args.columns, args.full, measure, learners), cfg["controls"])
    summ = summary(table, cfg["controls"])
    declared = [w for c in params["benchmark"].get("comparisons", []) for w in (c["a"], c["b"])]
    reg = registered(table, cfg["controls"], declared, LEARNER_NAMES)
    name = MEASURE_NAMES[measure]
    reports = Path(args.reports)
    metrics = {"experiment": "benchmark_curves", "measure": measure, **cfg,
               "summary": [{k: (round(v, 6) if isinstance(v, float) else v) for k, v in r.items()}
                           for r in summ.to_dict(orient="records")],
               "registered": {k: v for k, v in reg.items() if k != "text"}}
    with io.all_or_nothing():
        io.write_table(reports / "tables" / "benchmark_curves.csv", table.round(6))
        io.write_text(reports / "tables" / "benchmark_curves.tex", latex(summ, name, LEARNER_NAMES))
        io.write_json(reports / "metrics" / "benchmark_curves.json", metrics)
        io.write_text(reports / "macros" / "benchmark_curves.tex",
                      "% The benchmark's learning curves (generated; do not edit).\n"
                      f"\\newcommand{{\\BenchCurves}}{{{text(summ, name)} {reg['text']}}}\n")
        save_figure(curves_figure(table, cfg["controls"], name, LEARNER_NAMES),
                    reports / "figures" / "benchmark_curves")
    log.info("benchmark curves: %d datasets x %d weightings x %d learners x %d fractions",
             len(cfg["datasets"]), len(cfg["weightings"]), len(learners),
             len(cfg["fractions"]) + 1)


def add_weighting_options(p) -> None:
    """``--encoding`` (one weighting) or ``--weighting`` (a module's; ``--out`` with {encoding})."""
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--encoding", help="the weighting")
    which.add_argument("--weighting", metavar="MODULE",
                       help="the weightings of this module of termweight.weightings (--out and "
                       "--out-seconds with {encoding})")


def register(sub) -> None:
    p = sub.add_parser("curves-column", help="a column on subsamples",
                       description=__doc__.splitlines()[0])
    p.add_argument("--params", required=True, help="params.yaml (benchmark: with curves:)")
    p.add_argument("--exp", required=True, help="the benchmark run, bench_<dataset>")
    add_weighting_options(p)
    p.add_argument("--corpus", required=True, help="the corpus directory")
    p.add_argument("--split", required=True,
                   help="the run's splits, a template with {split} (the base split is read)")
    p.add_argument("--settings", help="the resolved protocol (data/benchmark/settings.json)")
    p.add_argument("--out", required=True, help="per-task metrics, CSV (benchmark-column's)")
    p.add_argument("--out-seconds", help="measured seconds, JSON")
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes")
    p.set_defaults(func=cmd_curves_column)
    p = sub.add_parser("curves-report", help="the learning curves",
                       description=__doc__.splitlines()[0])
    p.add_argument("--params", required=True, help="params.yaml (benchmark: with curves:)")
    p.add_argument("--columns", required=True,
                   help="the curves' columns, a template with {run} and {weighting}")
    p.add_argument("--full", required=True,
                   help="the benchmark's columns, a template with {run} and {weighting}")
    p.add_argument("--reports", default="reports", help="reports directory (default: %(default)s)")
    p.set_defaults(func=cmd_curves_report)
