"""A second fold seed for the benchmark (``seed-column``, ``seed-report``).

``benchmark.second_seed`` names a seed and resampled datasets (5x2 CV; a fixed split has no seed).
For each of those datasets and every weighting of the grid, ``seed-column`` draws the protocol's
splits again with that seed (``termweight.splits.make_splits``: the same protocol and
stratification; the seed replaces a dataset's own protocol seed too), computes each split's
training statistics and runs the benchmark's own column (``benchmark-column``: the same settings,
tuned protocol and learners; only the outer folds change, the inner folds' seed is the settings').

``seed-report`` scores each (dataset, learner, weighting) under both seeds (the benchmark's first
measure, mean over the splits), ranks the weightings per dataset (1 = best, ties averaged) and
compares, per learner: Spearman's rho between the two seeds' mean ranks over the datasets, the
median and lowest per-dataset rho between the scores, both seeds' top weighting and how many of
the top five they share, and each declared comparison's mean difference under both seeds.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from termweight.runner import io
from termweight.runner.errors import ConfigError
from termweight.weighting import group_of

log = logging.getLogger("termweight")


def seed_config(params: dict, source: str = "params.yaml") -> dict:
    """``benchmark.second_seed`` checked: an integer seed other than ``seed``, datasets of the
    benchmark with a resampled protocol; ``splits``: each dataset's split names."""
    from termweight.settings import benchmark_runs
    from termweight.splits import split_names
    from termweight.weighting import benchmark_encodings

    b = params.get("benchmark") or {}
    c = b.get("second_seed")
    where = f"{source}: benchmark/second_seed"
    if not c:
        raise ConfigError(f"{where}: missing (the seed and the datasets to draw again)")
    seed = c.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"{where}/seed: {seed!r} is not an integer")
    runs = benchmark_runs(params)
    for d in c.get("datasets") or []:
        if d not in b["datasets"]:
            raise ConfigError(f"{where}/datasets: {d!r} is not a benchmark dataset "
                              "(benchmark/datasets)")
        protocol = runs[f"bench_{d}"]["protocol"]
        if protocol["type"] == "fixed":
            raise ConfigError(f"{where}/datasets: {d!r} has a fixed split (no seed to change)")
        if seed == int(protocol.get("seed", params.get("seed", 0))):
            raise ConfigError(f"{where}/seed: {seed} is the seed {d!r} is split with already")
    if not c.get("datasets"):
        raise ConfigError(f"{where}/datasets: empty")
    return {"seed": seed, "first_seed": params.get("seed"), "datasets": list(c["datasets"]),
            "splits": {d: split_names(runs[f"bench_{d}"]["protocol"]) for d in c["datasets"]},
            "weightings": benchmark_encodings(b.get("weightings", "all"))}


# --- compute: one column ----------------------------------------------------------------------

def cmd_seed_column(args) -> None:
    """One weighting's column on a dataset's splits drawn with the second seed."""
    from termweight.corpus import Corpus
    from termweight.experiments.curves import column_on_splits
    from termweight.runner.config import load_params
    from termweight.settings import benchmark_runs
    from termweight.splits import make_splits

    params = load_params(args.params)
    cfg = seed_config(params, args.params)
    dataset = args.exp.removeprefix("bench_")
    if dataset not in cfg["datasets"]:
        raise ConfigError(f"{args.params}: benchmark/second_seed/datasets has no {dataset!r} "
                          f"(--exp {args.exp})")
    corpus = Corpus.load(args.corpus)
    protocol = benchmark_runs(params)[args.exp]["protocol"]
    protocol = {k: v for k, v in protocol.items() if k != "seed"}  # a dataset's own seed too
    splits = make_splits(protocol, corpus.Y, corpus.subset, seed=cfg["seed"],
                         name=str(args.corpus))
    column_on_splits(args, splits, "splits")


# --- compute: the agreement -------------------------------------------------------------------

def load_scores(cfg: dict, template: str, measure: str, learners) -> pd.DataFrame:
    """dataset, learner, weighting, score (the mean of ``measure`` over the splits) from the
    columns ``template`` (``{run}``, ``{weighting}``); every split and learner checked present
    once and every value finite."""
    from termweight.experiments.curves import column_runs
    from termweight.intermediates import read_metrics
    from termweight.runner.errors import DataError
    from termweight.settings import BENCHMARK_PREFIX

    rows = []
    for d in cfg["datasets"]:
        want = set(cfg["splits"][d])
        for w in cfg["weightings"]:
            path = template.format(run=f"{BENCHMARK_PREFIX}{d}", weighting=w, group=group_of(w))
            runs = column_runs(path, read_metrics(path))
            for learner in learners:
                got = runs.loc[runs["learner"] == learner]
                if set(got["split"]) != want or got["split"].duplicated().any():
                    raise DataError(path, f"learner {learner!r}: splits "
                                    f"{sorted(set(got['split']) ^ want) or 'repeated'} differ "
                                    "from the protocol's")
                if not np.isfinite(got[measure]).all():
                    raise DataError(path, f"learner {learner!r}: a non-finite {measure}")
                rows.append({"dataset": d, "learner": learner, "weighting": w,
                             "score": float(got[measure].mean())})
    return pd.DataFrame(rows)


def ranks(scores: pd.DataFrame) -> pd.DataFrame:
    """``scores`` with ``rank``: per (dataset, learner), 1 = the best score, ties averaged."""
    out = scores.copy()
    out["rank"] = out.groupby(["dataset", "learner"])["score"].rank(ascending=False,
                                                                    method="average")
    return out


def agreement(first: pd.DataFrame, second: pd.DataFrame, comparisons=()) -> tuple[dict, list]:
    """Per learner, the two seeds compared (``first``/``second``: ``load_scores`` frames):
    Spearman's rho of the mean ranks, per-dataset rho of the scores (median, lowest), each
    seed's top weighting, the top fives' overlap; and each comparison's mean difference (a - b
    over the datasets) under both seeds."""
    key = ["dataset", "learner", "weighting"]
    both = ranks(first).merge(ranks(second), on=key, suffixes=("_1", "_2"), validate="1:1")
    per_learner, rows = {}, []
    for learner, g in both.groupby("learner", sort=False):
        mean = g.groupby("weighting")[["rank_1", "rank_2"]].mean()
        rho = float(stats.spearmanr(mean["rank_1"], mean["rank_2"]).statistic)
        # a dataset where every weighting scores the same under a seed has no order to compare
        per_ds = [float(stats.spearmanr(h["score_1"], h["score_2"]).statistic)
                  for _, h in g.groupby("dataset", sort=False)
                  if h["score_1"].nunique() > 1 and h["score_2"].nunique() > 1] or [np.nan]
        top1, top2 = mean["rank_1"].nsmallest(5), mean["rank_2"].nsmallest(5)
        per_learner[learner] = {
            "weightings": len(mean), "datasets": int(g["dataset"].nunique()),
            "rho_mean_ranks": round(rho, 6),
            "rho_per_dataset_median": round(float(np.median(per_ds)), 6),
            "rho_per_dataset_min": round(float(np.min(per_ds)), 6),
            "datasets_without_order": int(g["dataset"].nunique()) - len(per_ds)
            + int(np.isnan(per_ds[0])),
            "top_first": top1.index[0], "top_second": top2.index[0],
            "top_second_rank_first": round(float(mean.loc[top2.index[0], "rank_1"]), 6),
            "top5_shared": len(set(top1.index) & set(top2.index))}
        for cmp in comparisons:
            a = g[g["weighting"] == cmp["a"]].set_index("dataset")
            b = g[g["weighting"] == cmp["b"]].set_index("dataset")
            if a.empty or b.empty:
                continue
            rows.append({"learner": learner, "a": cmp["a"], "b": cmp["b"],
                         "diff_first": round(float((a["score_1"] - b["score_1"]).mean()), 6),
                         "diff_second": round(float((a["score_2"] - b["score_2"]).mean()), 6)})
    return per_learner, rows


def registered(per_learner: dict, names: dict) -> dict:
    """The hypothesis registered before the run (``registrations.yaml``, ``second-seed``) and,
    per learner, whether it held: rho of the mean ranks at least the registered bound."""
    from termweight.experiments import registrations

    rule = registrations.load()["second-seed"]["rule"]
    held = {k: bool(v["rho_mean_ranks"] >= rule["at_least"]) for k, v in per_learner.items()}
    return registrations.outcome("second-seed", held, names)


# --- tables, text ------------------------------------------------------------------------------

def latex(per_learner: dict, cfg: dict, learner_names: dict) -> str:
    """One row per learner: rho of the mean ranks, per-dataset rho, the two tops, top-5 overlap."""
    from termweight.experiments.benchmark import _w
    from termweight.reporting import latex_table

    rows = [{"Learner": learner_names.get(k, k), r"$\rho$ mean ranks": f"{v['rho_mean_ranks']:.3f}",
             r"$\rho$ per dataset (median / min)":
                 f"{v['rho_per_dataset_median']:.3f} / {v['rho_per_dataset_min']:.3f}",
             "Top, seed 1": _w(v["top_first"]), "Top, seed 2": _w(v["top_second"]),
             "Top 5 shared": f"{v['top5_shared']}/5"} for k, v in per_learner.items()]
    n = len(cfg["datasets"])
    caption = (f"A second fold seed: the {n} resampled datasets' splits drawn again (seed "
               f"{cfg['seed']} against {cfg['first_seed']}) and every weighting's column rerun. "
               "Spearman's $\\rho$ between the two seeds' mean ranks over the datasets, and "
               "between the weightings' scores within each dataset; each seed's top weighting "
               "by mean rank and the weightings both seeds' top five share.")
    return latex_table(pd.DataFrame(rows), caption, "tab:benchmark_seed", escape=False,
                       column_format="lrrlll")


def text(per_learner: dict, cmp_rows: list, cfg: dict, learner_names: dict) -> str:
    """The report's sentence."""
    parts = [f"{learner_names.get(k, k)} $\\rho = {v['rho_mean_ranks']:.3f}$ (top "
             f"{'unchanged' if v['top_first'] == v['top_second'] else 'changed'}, "
             f"{v['top5_shared']} of the top five shared)" for k, v in per_learner.items()]
    flips = [r for r in cmp_rows if np.sign(r["diff_first"]) != np.sign(r["diff_second"])]
    return (f"With a second fold seed on the {len(cfg['datasets'])} resampled datasets, the "
            "weightings' mean ranks agree between seeds: " + "; ".join(parts) + ". "
            f"{len(flips)} of {len(cmp_rows)} declared (comparison, learner) rows change the "
            "sign of their mean difference over these datasets.")


def cmd_seed_report(args) -> None:
    """Both seeds' columns -> CSV, table, JSON, macros."""
    from termweight.experiments.benchmark import LEARNER_NAMES, MEASURES
    from termweight.runner.config import load_params

    params = load_params(args.params)
    cfg = seed_config(params, args.params)
    b = params["benchmark"]
    measure = list(b.get("measures", MEASURES))[0]
    learners = list(b["learners"])
    first = load_scores(cfg, args.first, measure, learners)
    second = load_scores(cfg, args.columns, measure, learners)
    per_learner, cmp_rows = agreement(first, second, b.get("comparisons", []))
    reg = registered(per_learner, LEARNER_NAMES)
    reports = Path(args.reports)
    table = first.merge(second, on=["dataset", "learner", "weighting"],
                        suffixes=("_first", "_second"))
    metrics = {"experiment": "benchmark_seed", "measure": measure, "seed": cfg["seed"],
               "first_seed": cfg["first_seed"], "datasets": cfg["datasets"],
               "learners": per_learner, "comparisons": cmp_rows,
               "registered": {k: v for k, v in reg.items() if k != "text"}}
    with io.all_or_nothing():
        io.write_table(reports / "tables" / "benchmark_seed.csv", table.round(6))
        io.write_text(reports / "tables" / "benchmark_seed.tex",
                      latex(per_learner, cfg, LEARNER_NAMES))
        io.write_json(reports / "metrics" / "benchmark_seed.json", metrics)
        io.write_text(reports / "macros" / "benchmark_seed.tex",
                      "% The benchmark under a second fold seed (generated; do not edit).\n"
                      "\\newcommand{\\BenchSeed}{"
                      f"{text(per_learner, cmp_rows, cfg, LEARNER_NAMES)} {reg['text']}}}\n")
    log.info("benchmark second seed: %d datasets x %d weightings x %d learners",
             len(cfg["datasets"]), len(cfg["weightings"]), len(learners))


def register(sub) -> None:
    from termweight.experiments.curves import add_weighting_options

    p = sub.add_parser("seed-column", help="a column, second fold seed",
                       description=__doc__.splitlines()[0])
    p.add_argument("--params", required=True, help="params.yaml (benchmark: with second_seed:)")
    p.add_argument("--exp", required=True, help="the benchmark run, bench_<dataset>")
    add_weighting_options(p)
    p.add_argument("--corpus", required=True, help="the corpus directory")
    p.add_argument("--settings", help="the resolved protocol (data/benchmark/settings.json)")
    p.add_argument("--out", required=True, help="per-task metrics, CSV (benchmark-column's)")
    p.add_argument("--out-seconds", help="measured seconds, JSON")
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes")
    p.set_defaults(func=cmd_seed_column)
    p = sub.add_parser("seed-report", help="rank agreement of the seeds",
                       description=__doc__.splitlines()[0])
    p.add_argument("--params", required=True, help="params.yaml (benchmark: with second_seed:)")
    p.add_argument("--columns", required=True,
                   help="the second seed's columns, a template with {run} and {weighting}")
    p.add_argument("--first", required=True,
                   help="the benchmark's columns, a template with {run} and {weighting}")
    p.add_argument("--reports", default="reports", help="reports directory (default: %(default)s)")
    p.set_defaults(func=cmd_seed_report)
