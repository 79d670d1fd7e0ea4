"""What unit-length rows change: the benchmark's sensitivity study (``sensitivity-compare``).

The headline grid scales every weighted document to unit length (``benchmark.tuning.normalize:
l2``), as the papers that define the weightings do (Debole & Sebastiani 2003; Lan et al. 2009;
Chen et al. 2016). ``benchmark.sensitivity`` runs every weighting's column again on a few of the
benchmark's datasets with the other rows (``normalize: none``: the raw weighted rows; C and alpha
are still tuned on the training rows), and this module compares the two runs per dataset and
learner on the first measure of ``benchmark.measures``:

- ``change = score(headline rows) - score(other rows)`` per weighting (each score the mean over the
  dataset's splits); its mean over the weightings, how many weightings gain (change > 0), the
  largest gain and the largest loss;
- Spearman's rank correlation of the two orders of the weightings (``scipy.stats.spearmanr``);
- the fits stopped at the iteration cap under each: final fits (one per task and split) and the
  inner cross-validation's fits.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.runner import io
from termweight.runner.errors import ConfigError

log = logging.getLogger("termweight")

#: what the report calls the rows of each ``normalize`` value
ROWS = {"l2": "unit-length", "none": "raw"}


def sensitivity_config(params: dict, source: str = "params.yaml") -> dict:
    """``benchmark.sensitivity`` checked against the rest of ``benchmark``: its datasets are
    benchmark datasets, the tuned protocol is on and ``normalize`` is not the headline's."""
    b = params.get("benchmark") or {}
    s = b.get("sensitivity")
    where = f"{source}: benchmark/sensitivity"
    if not s:
        raise ConfigError(f"{where}: missing (the datasets to run again with other rows)")
    if not b.get("tuning"):
        raise ConfigError(f"{where}: needs the tuned protocol (benchmark/tuning)")
    headline = b["tuning"].get("normalize", "l2")
    if s["normalize"] == headline:
        raise ConfigError(f"{where}/normalize: {s['normalize']!r} is the headline grid's "
                          "(benchmark/tuning/normalize); the study runs the other one")
    unknown = [d for d in s["datasets"] if d not in b["datasets"]]
    if unknown:
        raise ConfigError(f"{where}/datasets: {unknown[0]!r} is not a benchmark dataset "
                          "(benchmark/datasets)")
    return {"datasets": list(s["datasets"]), "normalize": s["normalize"], "headline": headline}


def _runs(params: dict, template: str, datasets, measure: str) -> pd.DataFrame:
    """The runs.csv of ``datasets`` (``template``), checked as the report checks them
    (``load_runs``: every declared weighting and split once, the scores in range), each with
    a column ``measure``."""
    from termweight.experiments.benchmark import load_runs

    b = params["benchmark"]
    only = {**params, "benchmark": {**b, "datasets": {d: b["datasets"][d] for d in datasets}}}
    return load_runs(only, template, require=(measure,))


def compare(headline: pd.DataFrame, other: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Per dataset, learner and weighting: the mean over the splits of ``measure`` under the
    headline rows and the other rows, their difference, and the fits stopped at the cap
    (``unconverged``, ``inner_unconverged`` summed over the splits) under each."""
    keys = ["dataset", "learner", "encoding"]

    def per(runs, tag):
        g = runs.groupby(keys, sort=False)
        out = g[[measure]].mean().rename(columns={measure: tag})
        out[f"splits_{tag}"] = g.size()
        for col in ("unconverged", "inner_unconverged"):
            out[f"{col}_{tag}"] = g[col].sum() if col in runs.columns else 0
        return out

    both = per(headline, "headline").join(per(other, "other"), how="inner")
    both["change"] = both["headline"] - both["other"]
    return both.reset_index().rename(columns={"encoding": "weighting"})


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per dataset and learner: the mean change, the weightings that gain, the largest gain and
    loss, Spearman's rho of the two orders, the fits at the cap under each rows."""
    from scipy.stats import spearmanr

    rows = []
    for (dataset, learner), g in table.groupby(["dataset", "learner"], sort=False):
        up, down = g.loc[g["change"].idxmax()], g.loc[g["change"].idxmin()]
        rho = spearmanr(g["headline"], g["other"]).statistic if len(g) > 2 else np.nan
        rows.append({"dataset": dataset, "learner": learner, "weightings": len(g),
                     "mean_change": float(g["change"].mean()),
                     "gain": int((g["change"] > 0).sum()), "loss": int((g["change"] < 0).sum()),
                     "largest_gain": up["weighting"], "largest_gain_change": float(up["change"]),
                     "largest_loss": down["weighting"],
                     "largest_loss_change": float(down["change"]),
                     "spearman": float(rho),
                     "unconverged_headline": int(g["unconverged_headline"].sum()),
                     "unconverged_other": int(g["unconverged_other"].sum()),
                     "inner_unconverged_headline": int(g["inner_unconverged_headline"].sum()),
                     "inner_unconverged_other": int(g["inner_unconverged_other"].sum())})
    return pd.DataFrame(rows)


def latex(summ: pd.DataFrame, cfg: dict, measure_name: str) -> str:
    """The summary as one booktabs table for the report."""
    from termweight.experiments.benchmark import LEARNER_NAMES, _w
    from termweight.reporting import latex_table

    def signed(x):
        return f"{x:+.4f}" if np.isfinite(x) else "--"

    frame = pd.DataFrame([{
        "Dataset": _w(r.dataset), "Learner": LEARNER_NAMES.get(r.learner, r.learner),
        "mean change": signed(r.mean_change), "gain / loss": f"{r.gain} / {r.loss}",
        "largest gain": f"{_w(r.largest_gain)} {signed(r.largest_gain_change)}",
        "largest loss": f"{_w(r.largest_loss)} {signed(r.largest_loss_change)}",
        "Spearman": f"{r.spearman:.3f}" if np.isfinite(r.spearman) else "--",
        "at cap": (f"{r.unconverged_headline} / {r.unconverged_other}; "
                   f"{r.inner_unconverged_headline} / {r.inner_unconverged_other}"),
    } for r in summ.itertuples(index=False)])
    head, other = ROWS[cfg["headline"]], ROWS[cfg["normalize"]]
    caption = (f"What unit-length rows change: {measure_name} with {head} rows (the headline "
               f"grid) minus {measure_name} with {other} rows, C and alpha tuned under both, each "
               "the mean over the dataset's splits; weightings that gain / lose; Spearman's "
               "$\\rho$ of the two orders of the weightings; fits stopped at the iteration cap, "
               f"final fits and inner fits, {head} / {other}.")
    return latex_table(frame, caption, "tab:benchmark_sensitivity", escape=False,
                       column_format="llrrllrl")


def text(summ: pd.DataFrame, cfg: dict, measure_name: str) -> str:
    """The report's sentence per learner: mean change and gains over the study's datasets."""
    from termweight.experiments.benchmark import LEARNER_NAMES, _w

    parts = []
    for learner, g in summ.groupby("learner", sort=False):
        gain, total = int(g["gain"].sum()), int(g["weightings"].sum())
        parts.append(f"{LEARNER_NAMES.get(learner, learner)} {g['mean_change'].mean():+.4f} "
                     f"({gain} of {total} dataset--weighting pairs gain)")
    datasets = ", ".join(_w(d) for d in summ["dataset"].unique())
    at_cap = int(summ["unconverged_other"].sum()), int(summ["unconverged_headline"].sum())
    head, other = ROWS[cfg["headline"]], ROWS[cfg["normalize"]]
    return (f"On {datasets}, {head} rows minus {other} rows, mean {measure_name} change over "
            "the weightings: " + "; ".join(parts)
            + f". Final fits stopped at the cap: {at_cap[0]} with {other} rows, "
            f"{at_cap[1]} with {head} rows.")


def cmd_benchmark_sensitivity(args) -> None:
    """runs.csv of the headline grid and of the sensitivity runs -> table, CSV, JSON, macros."""
    from termweight.experiments.benchmark import MEASURE_NAMES, MEASURES
    from termweight.runner.config import load_params

    params = load_params(args.params)
    cfg = sensitivity_config(params, args.params)
    measure = list(params["benchmark"].get("measures", MEASURES))[0]
    table = compare(_runs(params, args.runs, cfg["datasets"], measure),
                    _runs(params, args.other_runs, cfg["datasets"], measure), measure)
    summ = summary(table)
    reports = Path(args.reports)
    name = MEASURE_NAMES[measure]
    metrics = {"experiment": "benchmark_sensitivity", "measure": measure, **cfg,
               "summary": [{k: (round(v, 6) if isinstance(v, float) else v) for k, v in r.items()}
                           for r in summ.to_dict(orient="records")]}
    macro = text(summ, cfg, name).replace("%", "\\%")
    with io.all_or_nothing():
        io.write_table(reports / "tables" / "benchmark_sensitivity.csv", table.round(6))
        io.write_text(reports / "tables" / "benchmark_sensitivity.tex", latex(summ, cfg, name))
        io.write_json(reports / "metrics" / "benchmark_sensitivity.json", metrics)
        io.write_text(reports / "macros" / "benchmark_sensitivity.tex",
                      "% The benchmark's sensitivity study (generated; do not edit).\n"
                      f"\\newcommand{{\\BenchSensitivity}}{{{macro}}}\n")
    log.info("benchmark sensitivity: %d datasets x %d weightings x %d learners",
             len(cfg["datasets"]), table["weighting"].nunique(), table["learner"].nunique())


def register(sub) -> None:
    p = sub.add_parser("sensitivity-compare",
                       help="what unit-length rows change (the sensitivity study)",
                       description=__doc__.splitlines()[0],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--params", required=True,
                   help="params.yaml (its benchmark: section, with sensitivity:)")
    p.add_argument("--runs", required=True,
                   help="the headline grid's runs.csv template with {run} and {learner}")
    p.add_argument("--other-runs", required=True,
                   help="the sensitivity runs' runs.csv template with {run} and {learner}")
    p.add_argument("--reports", default="reports", help="reports directory (default: %(default)s)")
    p.set_defaults(func=cmd_benchmark_sensitivity)
