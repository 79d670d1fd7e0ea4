"""The benchmark against a learner outside term weighting: fastText's row (``reference-report``).

Every benchmark dataset gets a fastText column
(``benchmark-reference``: fastText's supervised classifier trained from scratch on the same
splits, epochs by the same inner folds). This module sets it beside the grid, per dataset, in the
benchmark's first measure (each score the mean over the dataset's splits): per learner the
weighting that ranks best over the datasets and the stronger tf-idf control (both read from the
benchmark's conclusions, ``reports/metrics/benchmark.json``), and fastText's difference from
each: ``d = fastText - weighting``. Over the datasets and over the corpus families (a family's
difference: the mean of its datasets'), the wins and Wilcoxon's signed-rank test (two-sided,
``scipy.stats.wilcoxon``): a statement about direction, with the mean difference as its size.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.runner import io
from termweight.runner.errors import DataError

log = logging.getLogger("termweight")

LEARNER = "fasttext"


def reference_scores(params: dict, template: str, measure: str,
                     epochs: list | None = None) -> pd.Series:
    """fastText's score per dataset (the mean of ``measure`` over the splits) from its columns
    (``template`` with ``{run}``); every split of the run present once. ``epochs``, if given, is
    extended with each split's chosen epochs (the column's ``value``)."""
    from termweight.experiments.curves import column_runs
    from termweight.intermediates import read_metrics
    from termweight.settings import benchmark_runs
    from termweight.splits import split_names

    out = {}
    for run, e in benchmark_runs(params).items():
        path = template.format(run=run)
        frame = read_metrics(path)
        runs = column_runs(path, frame)
        want = split_names(e["protocol"])
        if set(runs["learner"]) != {LEARNER} or sorted(runs["split"]) != sorted(want):
            raise DataError(path, f"want one {LEARNER} row per split of {run} ({len(want)}), "
                            f"found {len(runs)}")
        if not np.isfinite(runs[measure]).all():
            raise DataError(path, f"a non-finite {measure}")
        out[e["dataset"]] = float(runs[measure].mean())
        if epochs is not None:  # (dataset, epochs) per split
            epochs.extend((e["dataset"], int(v))
                          for v in frame.groupby("split")["value"].first())
    return pd.Series(out, name=LEARNER)


def compare(ref: pd.Series, scores: pd.DataFrame, conclusions: dict, measure: str) -> pd.DataFrame:
    """Long table: dataset, family, learner, against (``best``/``control``), weighting, score,
    fasttext, diff."""
    rows = []
    for learner, c in conclusions.items():
        picks = {"best": c["datasets"]["best"], "control": c.get("control")}
        picks = {k: w for k, w in picks.items() if w}  # a grid without the controls: its best
        s = scores[(scores["learner"] == learner) & (scores["measure"] == measure)]
        for against, w in picks.items():
            mine = s[s["weighting"] == w].set_index("dataset")["score"]
            missing = sorted(set(ref.index) - set(mine.index))
            if missing:
                raise DataError("benchmark runs", f"no {learner} score of {w} on {missing[0]}")
            for d, f in ref.items():
                rows.append({"dataset": d, "family": c["family_of"].get(d, d), "learner": learner,
                             "against": against, "weighting": w, "score": float(mine[d]),
                             LEARNER: f, "diff": f - float(mine[d])})
    return pd.DataFrame(rows)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per learner and ``against``: wins, mean difference and Wilcoxon's p over the datasets and
    over the families."""
    from scipy.stats import wilcoxon

    def test(d):
        d = np.asarray(d, dtype=float)
        return float(wilcoxon(d).pvalue) if np.count_nonzero(d) else 1.0

    rows = []
    for (learner, against), g in table.groupby(["learner", "against"], sort=False):
        fam = g.groupby("family", sort=False)["diff"].mean()
        rows.append({"learner": learner, "against": against, "weighting": g["weighting"].iloc[0],
                     "datasets": len(g), "wins": int((g["diff"] > 0).sum()),
                     "mean_diff": float(g["diff"].mean()), "p": test(g["diff"]),
                     "families": len(fam), "family_wins": int((fam > 0).sum()),
                     "family_mean_diff": float(fam.mean()), "family_p": test(fam)})
    return pd.DataFrame(rows)


def latex(table: pd.DataFrame, measure_name: str, learner_names: dict) -> str:
    """Datasets x (fastText, and per learner its best weighting and stronger control)."""
    from termweight.experiments.benchmark import _w
    from termweight.reporting import latex_table

    wide = table.pivot_table(index="dataset", columns=["learner", "against"], values="score",
                             sort=False)
    cols = {("", "Dataset"): [_w(d) for d in wide.index],
            ("", "fastText"): table.groupby("dataset", sort=False)[LEARNER].first()
            .loc[wide.index].to_numpy()}
    for learner, against in wide.columns:  # two header rows: the learner over best, control
        cols[(learner_names.get(learner, learner), against)] = wide[(learner, against)].to_numpy()
    frame = pd.DataFrame(cols)
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    picks = table.drop_duplicates(["learner", "against"])
    named = "; ".join(f"{learner_names.get(r.learner, r.learner)}: best {_w(r.weighting)}"
                      if r.against == "best" else f"control {_w(r.weighting)}"
                      for r in picks.itertuples(index=False))
    caption = (f"fastText (trained from scratch on the same splits, unigrams, epochs by the same "
               f"inner folds) beside the grid: {measure_name} per dataset, the mean over its "
               f"splits, and per learner the weighting that ranks best over the datasets and "
               f"the stronger tf-idf control ({named}).")
    return latex_table(frame, caption, "tab:benchmark_reference", float_format="%.3f",
                       escape=False, column_format="l" + "r" * (frame.shape[1] - 1))


def epoch_counts(epochs) -> dict[int, int]:
    """How many splits chose each number of epochs (``(dataset, epochs)`` pairs), in increasing
    epochs."""
    values, counts = np.unique(np.asarray([e for _, e in epochs], dtype=int),
                               return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


def at_cap(epochs, cap: int) -> list[str]:
    """The datasets with a split whose epochs reached ``cap`` (an edge), sorted."""
    return sorted({d for d, e in epochs if e >= cap})


def text(summ: pd.DataFrame, learner_names: dict, epochs: dict[int, int] | None = None,
         capped: list[str] | None = None) -> str:
    """The report's sentence: the epochs chosen, then per learner fastText minus its best
    weighting (and minus the stronger control when that is another weighting). With ``capped``
    (the datasets with a split at the epoch cap), the gain fastText would need on each of them
    for its mean difference from a linear learner's best to reach 0: ``-mean_diff x N / n``."""
    from termweight.experiments.benchmark import _w
    from termweight.steps.reference import EPOCHS, MARGIN, MAX_EPOCHS

    def one(r):
        return (f"{_w(r.weighting)} {r.mean_diff:+.4f} ({r.wins} of {r.datasets} datasets, "
                f"p = {r.p:.2g}; {r.family_wins} of {r.families} families, p = {r.family_p:.2g})")

    parts = []
    for learner, g in summ.groupby("learner", sort=False):
        best = g[g["against"] == "best"].iloc[0]
        part = f"{learner_names.get(learner, learner)}: {one(best)}"
        ctrl = g[(g["against"] == "control") & (g["weighting"] != best["weighting"])]
        if len(ctrl):
            part += f", stronger control {one(ctrl.iloc[0])}"
        parts.append(part)
    chosen = ""
    if epochs:
        n, edge = sum(epochs.values()), epochs.get(MAX_EPOCHS, 0)
        chosen = (" Chosen per split: " + ", ".join(f"{e} in {c}" for e, c in epochs.items())
                  + f" of {n}; at the cap, an edge of the grid, in {edge}.")
        if capped:
            need = [f"{learner_names.get(r.learner, r.learner)} {-r.mean_diff * r.datasets / len(capped):.3f}"
                    for r in summ[(summ["against"] == "best")
                                  & summ["learner"].isin(["linearsvc", "logreg"])].itertuples()]
            chosen += (f" Those splits are on {len(capped)} datasets ({', '.join(map(_w, capped))}),"
                       " where more epochs might still pay; for fastText's mean difference from "
                       "a linear learner's best weighting to reach 0, it would have to gain, on "
                       "each of them: " + ", ".join(need) + ".")
    return (f"Epochs by the inner folds from {', '.join(map(str, EPOCHS))}, the top doubled "
            f"while it won by more than {MARGIN:g}, up to {MAX_EPOCHS}.{chosen} fastText minus "
            "each learner's best "
            "weighting (and minus its stronger tf-idf control), the mean difference over the "
            "datasets, with fastText's wins and Wilcoxon's two-sided p over the datasets and "
            "over the corpus families: " + "; ".join(parts) + ".")


def registered(summ: pd.DataFrame, names: dict) -> dict:
    """The hypothesis registered before the run (``registrations.yaml``, ``reference-row``) and,
    per linear learner, whether it held: fastText's mean difference from its best weighting
    below 0."""
    from termweight.experiments import registrations

    best = summ[(summ["against"] == "best") & summ["learner"].isin(["linearsvc", "logreg"])]
    held = {r.learner: bool(r.mean_diff < 0) for r in best.itertuples(index=False)}
    return registrations.outcome("reference-row", held, names)


def cmd_reference_report(args) -> None:
    """fastText's columns, the grid's runs and conclusions -> CSV, table, JSON, macros."""
    from termweight.experiments.benchmark import (
        LEARNER_NAMES,
        MEASURE_NAMES,
        MEASURES,
        dataset_scores,
        load_runs,
    )
    from termweight.runner.config import load_params
    from termweight.steps.reference import MAX_EPOCHS

    params = load_params(args.params)
    measure = list(params["benchmark"].get("measures", MEASURES))[0]
    scores = dataset_scores(load_runs(params, args.runs, require=[measure]), [measure])
    conclusions = io.read_json(args.conclusions).get("conclusions")
    if not conclusions:
        raise DataError(args.conclusions, "no 'conclusions' (run benchmark-report first)")
    chosen: list = []
    table = compare(reference_scores(params, args.reference, measure, chosen), scores,
                    conclusions, measure)
    epochs = epoch_counts(chosen)
    capped = at_cap(chosen, MAX_EPOCHS)
    summ = summary(table)
    reg = registered(summ, LEARNER_NAMES)
    reports = Path(args.reports)
    metrics = {"experiment": "benchmark_reference", "measure": measure,
               "summary": [{k: (round(v, 6) if isinstance(v, float) else v) for k, v in r.items()}
                           for r in summ.to_dict(orient="records")],
               "epochs": {str(e): c for e, c in epochs.items()}, "at_cap": capped,
               "registered": {k: v for k, v in reg.items() if k != "text"}}
    with io.all_or_nothing():
        io.write_table(reports / "tables" / "benchmark_reference.csv", table.round(6))
        io.write_text(reports / "tables" / "benchmark_reference.tex",
                      latex(table, MEASURE_NAMES[measure], LEARNER_NAMES))
        io.write_json(reports / "metrics" / "benchmark_reference.json", metrics)
        io.write_text(reports / "macros" / "benchmark_reference.tex",
                      "% fastText beside the benchmark (generated; do not edit).\n"
                      f"\\newcommand{{\\BenchReference}}{{{text(summ, LEARNER_NAMES, epochs, capped)} "
                      f"{reg['text']}}}\n")
    log.info("benchmark reference: fastText on %d datasets", table["dataset"].nunique())


def register(sub) -> None:
    p = sub.add_parser("reference-report", help="fastText beside the benchmark",
                       description=__doc__.splitlines()[0],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--params", required=True, help="params.yaml (its benchmark: section)")
    p.add_argument("--reference", required=True,
                   help="fastText's columns, a template with {run}")
    p.add_argument("--runs", required=True,
                   help="the grid's runs.csv template with {run} and {learner}")
    p.add_argument("--conclusions", required=True,
                   help="the benchmark's metrics (reports/metrics/benchmark.json)")
    p.add_argument("--reports", default="reports", help="reports directory (default: %(default)s)")
    p.set_defaults(func=cmd_reference_report)
