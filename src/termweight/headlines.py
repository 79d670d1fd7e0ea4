"""A few headline numbers per paper and experiment: ``reports/headlines.json``, DVC's metrics.

``dvc metrics show`` prints one table row per metrics file with one column per number, so the full
``reports/metrics/*.json`` (over a thousand numbers) are plain outputs and this small file is the
one DVC metrics file (stage and rule ``headlines``; ``python -m termweight headlines``):

- per configured experiment (``experiments:`` of the params file): the micro- and macro-F1 of
  each encoding;
- per paper whose ``reports/metrics/<paper>.json`` exists: our value of each quantity of the
  README's results table (each paper's ``readme_rows``, termweight.experiments.papers), ``null`` where the
  paper's run does not report it (DVC leaves nulls out of its table), and ``claims``: how many of
  its claims have each verdict (termweight.experiments.claims.VERDICTS, zeros included);
- for the benchmark, when ``reports/metrics/benchmark.json`` exists: per learner, on the first
  measure (the leaderboards' order), the best weighting, its average rank and the baseline's.

So ``dvc metrics diff`` and ``dvc exp show`` show what a change moved in a few readable columns.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path

from termweight.results_check import UNIT, check_mapping, check_measures
from termweight.runner import io
from termweight.runner.errors import DataError

log = logging.getLogger("termweight.headlines")


def headlines(params: dict, reports: Path, published: Path) -> dict:
    """The headline numbers of the experiments in ``params`` and of the papers run."""
    from termweight.experiments.report import published_headlines, readme_rows, reproduced_value

    out: dict = {}
    for exp, spec in params.get("experiments", {}).items():
        path = Path(reports) / "metrics" / f"{exp}.json"
        if not path.exists():
            log.info("%s: not there (experiment %s not run): skipped", path, exp)
            continue
        encodings = io.read_json_object(path).get("encodings")
        check_mapping(path, encodings, spec["encodings"], "encodings")
        try:
            out[exp] = {m: {e: encodings[e][m] for e in spec["encodings"]}
                        for m in ("micro_f1", "macro_f1")}
        except (KeyError, TypeError):
            raise DataError(path, "no encodings/<encoding>/micro_f1 and macro_f1 for every "
                                  f"encoding of experiment {exp!r}: rerun its aggregate step") from None
        for e in spec["encodings"]:
            check_measures(path, encodings[e], dict.fromkeys(("micro_f1", "macro_f1"), UNIT),
                           f"encodings/{e}")
    from termweight.experiments.papers import papers

    declared = papers()
    for paper, keys in readme_rows().items():
        path = Path(reports) / "metrics" / f"{paper}.json"
        if not path.exists():
            continue
        metrics = io.read_json_object(path)
        pub_path = declared[paper].published_path(Path(published))
        heads = {h.key: h for h in published_headlines(
            paper, io.read_json(pub_path) if pub_path.exists() else None)}
        out[paper] = {k: reproduced_value(heads[k], metrics) for k in keys if k in heads}
        if "claims" in metrics:
            out[paper]["claims"] = verdict_counts(metrics["claims"], path)
    path = Path(reports) / "metrics" / "benchmark.json"
    if path.exists():
        out["benchmark"] = benchmark_headlines(io.read_json_object(path), path)
    return out


def verdict_counts(claims, path: Path) -> dict:
    """How many claims have each verdict, in ``VERDICTS`` order (zeros included)."""
    from termweight.experiments.claims import VERDICTS

    try:
        verdicts = [c["verdict"] for c in claims]
    except (KeyError, TypeError):
        raise DataError(path, "claims: not a list of rows with a verdict") from None
    return {v: verdicts.count(v) for v in VERDICTS}


def benchmark_headlines(metrics: dict, path: Path) -> dict:
    """Per learner, on the first measure: the best weighting, its average rank, the baseline's."""
    try:
        measure, baseline = metrics["measures"][0], metrics["baseline"]
        out = {learner: {"measure": measure, "best": best[measure]["weighting"],
                         "best_avg_rank": best[measure]["avg_rank"],
                         f"{baseline}_avg_rank": metrics["baseline_rank"][learner][measure]}
               for learner, best in metrics["best"].items()}
    except (KeyError, TypeError, IndexError):
        raise DataError(path, "no measures, baseline, best/<learner>/<measure> and baseline_rank: "
                              "rerun the benchmark's report step") from None
    for learner, row in out.items():  # an average rank is a finite number >= 1
        check_measures(path, row, {"best_avg_rank": (1.0, math.inf),
                                   f"{baseline}_avg_rank": (1.0, math.inf)}, f"best/{learner}")
    return out
