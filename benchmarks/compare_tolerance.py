"""What liblinear's stopping tolerance changes in the tuned grid: two runs of the same benchmark
columns, one per ``benchmark.tuning.tol``, compared fit by fit.

    python benchmarks/compare_tolerance.py OLD NEW [--out benchmarks/results/tolerance_grid.json]

``OLD`` and ``NEW`` are project directories (or copies of them) holding the columns
``data/benchmark/columns/<dataset>/<weighting>.csv``, each column's decisions
``data/benchmark/decisions/<dataset>/<weighting>/<learner>/<split>.npz`` (``benchmark-column
--decisions-dir``: the pipeline does not keep them) and the column logs
``logs/benchmark/column/<dataset>_<weighting>.log``. Every (column, learner, split) that both
finished is compared:

- the chosen hyperparameter (``value``), the same or not;
- top-1 accuracy (``doc_accuracy``), its change;
- the top-1 predictions (argmax of the stored decisions), the share that agree;
- the decisions, the largest absolute change.

(``benchmarks/results/tolerance_grid.json`` was measured when a column was a directory of one CSV
and one ``.npz`` per learner and split.)

Times are the ``benchmark-column done in ... s`` lines of the logs of the columns both finished.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
from summarise_grid import job_seconds  # benchmarks/: a column log's own seconds

REPO = Path(__file__).resolve().parents[1]
COLUMNS = Path("data/benchmark/columns")
DECISIONS = Path("data/benchmark/decisions")
LOGS = Path("logs/benchmark/column")


def fits(old: Path, new: Path) -> pd.DataFrame:
    """One row per (dataset, weighting, learner, split) finished in both runs."""
    rows = []
    for a_csv in sorted((old / COLUMNS).glob("*/*.csv")):
        rel = a_csv.relative_to(old / COLUMNS)
        b_csv = new / COLUMNS / rel
        if not b_csv.exists():
            continue
        dataset, weighting = rel.parent.name, rel.stem
        a = pd.read_csv(a_csv).groupby(["learner", "split"], sort=True).first()
        b = pd.read_csv(b_csv).groupby(["learner", "split"], sort=True).first()
        for learner, split in a.index.intersection(b.index):
            npz = DECISIONS / dataset / weighting / learner / f"{split}.npz"
            da = np.load(old / npz)["scores"].astype(float)
            db = np.load(new / npz)["scores"].astype(float)
            ra, rb = a.loc[(learner, split)], b.loc[(learner, split)]
            rows.append({
                "dataset": dataset, "weighting": weighting, "learner": learner, "split": split,
                "value_old": ra["value"], "value_new": rb["value"],
                "acc_change": float(rb["doc_accuracy"] - ra["doc_accuracy"]),
                "top1_agree": float((da.argmax(1) == db.argmax(1)).mean()),
                "max_decision_change": float(np.abs(da - db).max()),
            })
    out = pd.DataFrame(rows)
    if len(out):
        out["value_same"] = out.value_old == out.value_new
    return out


def times(old: Path, new: Path) -> pd.DataFrame:
    rows = []
    for log in sorted((old / LOGS).glob("*.log")):
        other = new / LOGS / log.name
        a = job_seconds(log.read_text())
        b = job_seconds(other.read_text()) if other.exists() else None
        if a is not None and b is not None:
            rows.append({"column": log.stem, "old_s": a, "new_s": b})
    return pd.DataFrame(rows)


def summary(f: pd.DataFrame, t: pd.DataFrame) -> dict:
    """The figures docs/benchmark.md quotes."""
    same, moved = f[f.value_same], f[~f.value_same]
    out = {
        "fits": len(f), "columns": int(f.groupby(["dataset", "weighting"]).ngroups),
        "value_same": int(len(same)), "value_same_share": round(len(same) / len(f), 4),
        "mean_abs_acc_change": round(float(f.acc_change.abs().mean()), 5),
        "mean_acc_change": round(float(f.acc_change.mean()), 5),
        "same_value": {
            "max_decision_change": round(float(same.max_decision_change.max()), 4),
            "median_decision_change": round(float(same.max_decision_change.median()), 4),
            "top1_agree_mean": round(float(same.top1_agree.mean()), 5),
            "top1_agree_min": round(float(same.top1_agree.min()), 4),
            "max_abs_acc_change_by_learner": {
                k: round(float(g.acc_change.abs().max()), 4)
                for k, g in same.groupby("learner")},
        },
        "other_value": {
            "fits": int(len(moved)),
            "mean_abs_acc_change": round(float(moved.acc_change.abs().mean()), 4) if len(moved) else 0.0,
            "max_abs_acc_change": round(float(moved.acc_change.abs().max()), 4) if len(moved) else 0.0,
            "by_learner": {k: int(len(g)) for k, g in moved.groupby("learner")},
        },
    }
    if len(t):
        ratio = t.old_s / t.new_s
        out["time"] = {"columns": len(t), "old_s": round(float(t.old_s.sum()), 1),
                       "new_s": round(float(t.new_s.sum()), 1),
                       "ratio_total": round(float(t.old_s.sum() / t.new_s.sum()), 2),
                       "ratio_median": round(float(ratio.median()), 2)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks/results/tolerance_grid.json")
    args = ap.parse_args()
    f = fits(args.old, args.new)
    if f.empty:
        raise SystemExit(f"{args.old} and {args.new}: no column finished in both")
    result = summary(f, times(args.old, args.new))
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
