"""The benchmark's tuned protocol against the fixed one on a few datasets: wall time of
`snakemake --cores 2 benchmark`, the learners' times, and what the protocol changes.

    python benchmarks/bench_protocol.py [--datasets oh0] [--modes fixed,tuned]
                                        [--out benchmarks/results/protocol.json]

For each mode it builds a project (the workflow and sources of this checkout, params.yaml with the
benchmark restricted to the datasets) in a temporary directory and runs the benchmark target:
``fixed`` drops ``benchmark.tuning`` (C = 1 relative to the data scale, NB alpha = 1, raw weights),
``tuned`` keeps it (unit-length documents, C and alpha by inner CV). It records the wall time,
each learner's fit + predict + evaluate seconds summed over the column jobs (from their logs), the
column jobs' summed times, the size of ``data/benchmark``, the chosen values and unconverged counts
(``reports/metrics/benchmark.json``), and per learner the spread (best minus worst weighting) of
the first measure. Run it on an idle machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))


def main() -> None:
    import pandas as pd
    import yaml
    from workflow_utils import make_project, run

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="oh0", help="comma-separated benchmark dataset keys")
    ap.add_argument("--modes", default="fixed,tuned",
                    help="comma-separated: fixed, tuned, tuned_raw (tuned without unit-length "
                         "rows); a mode not run keeps its entry of an existing --out file")
    ap.add_argument("--out", default=str(REPO / "benchmarks/results/protocol.json"))
    args = ap.parse_args()
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    base, mirror = params["benchmark"], str((REPO / params["mirror"]).resolve())
    datasets = args.datasets.split(",")
    out = Path(args.out)
    kept = json.loads(out.read_text()) if out.exists() else {}
    if kept.get("datasets") != datasets:
        kept = {}
    result = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "datasets": datasets,
              "load_before": os.getloadavg()[0], "cores": 2, "modes": kept.get("modes", {})}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            b = copy.deepcopy(base)
            b["datasets"] = {d: base["datasets"][d] for d in datasets}
            b.pop("external", None)
            if mode == "fixed":
                b.pop("tuning")
                b["measures"] = ["macro_f1", "micro_f1", "accuracy"]
            elif mode == "tuned_raw":  # the sensitivity study: tuned, without unit-length rows
                b["tuning"] = {**b["tuning"], "normalize": "none"}
            root = make_project(Path(tmp) / mode, {"benchmark": b, "mirror": mirror})
            t0 = time.perf_counter()
            run(["snakemake", "--cores", "2", "benchmark"], root, timeout=6 * 3600)
            wall = time.perf_counter() - t0
            # per learner: the fit, predict and evaluate seconds summed over every column job
            # (each job logs one line per split and learner); the jobs' own times; the disk
            fit, jobs = {}, 0.0
            for log in sorted((root / "logs/benchmark/column").glob("*.log")):
                text = log.read_text()
                for learner, sec in re.findall(r"split \S+, \S+, (\w+): .* in ([\d.]+) s$",
                                               text, re.M):
                    fit[learner] = round(fit.get(learner, 0.0) + float(sec), 1)
                m = re.search(r"done in ([\d.]+) s", text)
                jobs += float(m.group(1)) if m else 0.0
            disk = sum(f.stat().st_size for f in (root / "data/benchmark").rglob("*")
                       if f.is_file())
            scores = pd.read_csv(root / "data/benchmark/scores.csv")
            first = b["measures"][0]
            s = scores[scores["measure"] == first]
            spread = {lr: round(float(g["score"].max() - g["score"].min()), 4)
                      for lr, g in s.groupby("learner")}
            top = {lr: list(g.sort_values("score", ascending=False)["weighting"][:5])
                   for lr, g in s.groupby("learner")}
            per_dataset = pd.read_csv(root / "reports/tables/benchmark_datasets.csv")
            metrics = json.loads((root / "reports/metrics/benchmark.json").read_text())
            result["modes"][mode] = {"date": result["date"], "load_before": result["load_before"],
                                     "wall_s": round(wall, 1), "fit_s": fit,
                                     "column_jobs_s": round(jobs, 1),
                                     "benchmark_data_mb": round(disk / 1e6, 1),
                                     "measure": first, "spread": spread, "top5": top,
                                     "per_dataset": per_dataset.to_dict(orient="records"),
                                     "tuning": metrics.get("tuning")}
            print(mode, result["modes"][mode]["wall_s"], "s", flush=True)
            out.write_text(json.dumps(result, indent=1) + "\n")  # after each mode


if __name__ == "__main__":
    main()
