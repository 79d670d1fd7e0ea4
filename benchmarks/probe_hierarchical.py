"""The benchmark's hierarchical test (#64): does the sampler converge on the declared comparisons?

For every declared comparison and learner, fits the hierarchical test on the benchmark's split
scores (``comparisons.hierarchical_row``: the cross-validated datasets, the comparison's own
paper left out) with the model and target acceptance rate given, and records the answer, the
sampler's diagnostics (rank R-hat, bulk and tail ESS over delta0, std0 and nu; divergent
transitions) and the seconds. Reads the aggregated runs (data/benchmark/results, rebuilt from
the committed columns by the aggregate stages). Adds one variant's rows to
benchmarks/results/hierarchical_diagnostics.json.

    .venv/bin/python benchmarks/probe_hierarchical.py --model centred --adapt-delta 0.8
    .venv/bin/python benchmarks/probe_hierarchical.py --model noncentred --adapt-delta 0.99
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from datetime import date
from pathlib import Path

OUT = Path(__file__).parent / "results" / "hierarchical_diagnostics.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=["centred", "noncentred"], required=True,
                    help="baycomp's model as shipped, or termweight's non-centred one")
    ap.add_argument("--adapt-delta", type=float, required=True)
    ap.add_argument("--root", default=".")
    args = ap.parse_args()

    from termweight.experiments import comparisons as C
    from termweight.experiments.benchmark import (
        KIM_DATASETS,
        _is_forman,
        dataset_scores,
        load_runs,
        score_matrix,
    )
    from termweight.runner.config import load_params

    root = Path(args.root)
    if args.model == "centred":
        from baycomp import multiple

        C.HIER_MODEL = Path(multiple.__file__).parent / "hierarchical-t-test.stan"
    C.HIER_ADAPT_DELTA = args.adapt_delta
    params = load_params(root / "params.yaml")
    b = params["benchmark"]
    measures = list(b["measures"])
    runs = load_runs(params, str(root / "data/benchmark/results/{run}/{learner}/runs.csv"),
                     require=measures)
    scores = dataset_scores(runs, measures)
    forman = set(params.get("forman", {}).get("datasets", [])) | {
        d for d in scores["dataset"].unique() if _is_forman(d)}
    own = {"forman": forman, "kim": set(KIM_DATASETS)}
    rows = []
    for learner in b["learners"]:
        D0 = score_matrix(scores, learner, measures[0], list(scores["weighting"].unique()))
        for c in b["comparisons"]:
            keep = [d for d in D0.index if d not in own.get(c.get("outside"), set())]
            t = time.perf_counter()
            n, h = C.hierarchical_row(runs, learner, measures[0], c["a"], c["b"], keep,
                                      b.get("rope", 0.01), int(b["protocol"].get("repeats", 1)))
            rows.append({"learner": learner, "a": c["a"], "b": c["b"], "datasets": n,
                         "seconds": round(time.perf_counter() - t, 1),
                         **(h._asdict() if h else {}),
                         "problems": C.sampler_problems(h) if h else []})
            print(json.dumps(rows[-1]), flush=True)
    old = json.loads(OUT.read_text()) if OUT.exists() else {"variants": []}
    old["variants"] = [v for v in old["variants"]
                       if (v["model"], v["adapt_delta"]) != (args.model, args.adapt_delta)]
    old["variants"].append({
        "model": args.model, "adapt_delta": args.adapt_delta, "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, 2 cores shared with another run",
        "chains": C.HIER_CHAINS, "draws_per_chain": C.HIER_SAMPLES, "bounds": C.HIER_BOUNDS,
        "fits_out_of_bounds": sum(bool(r["problems"]) for r in rows), "rows": rows})
    OUT.write_text(json.dumps(old, indent=1) + "\n")


if __name__ == "__main__":
    main()
