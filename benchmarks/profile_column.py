"""Where a benchmark column's time goes under the tuned protocol: per learner, the inner fits of
each grid value, the refit, and scoring + encoding, on one split of a prepared dataset.

    python benchmarks/profile_column.py --dataset 20news --weightings tfidf,tf-rf [--split fixed]
        [--out benchmarks/results/profile_column.json]

It reads what `snakemake data/benchmark/stats/bench_<dataset>` builds (the corpus, the split and
its training statistics) and times, in one process on one core, what `benchmark-column` does for
each weighting: scoring and encoding, then for every learner the inner cross-validation's binary
fits (timed per grid value, with liblinear's iteration count where it reports one) and the refit
at the chosen value. Run it on an idle machine; it appends one record per (dataset, weighting) to
``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def profile(dataset: str, weighting: str, split_name: str | None) -> dict:
    import yaml

    from termweight import scoring
    from termweight.corpus import Corpus
    from termweight.learners import protocol as P
    from termweight.splits import Split
    from termweight.steps.features import _load_stats, encode_split
    from termweight.weighting import needed_scores

    params = yaml.safe_load((REPO / "params.yaml").read_text())
    bench = params["benchmark"]
    proto = P.Protocol.from_params(bench["tuning"], seed=params.get("seed", 0))
    root = REPO / "data/benchmark"
    name = split_name or sorted(p.stem for p in (root / f"splits/bench_{dataset}").glob("*.npz"))[0]
    t0 = time.perf_counter()
    corpus = Corpus.load(REPO / f"data/corpus/{dataset}")
    split = Split.load(root / f"splits/bench_{dataset}/{name}.npz", n_docs=corpus.n_docs)
    columns, st = _load_stats(root / f"stats/bench_{dataset}/{name}.npz", corpus, split)
    scores = {m: scoring.score(m, st) for m in needed_scores([weighting])}
    enc = encode_split(corpus.X[:, columns], corpus.Y, split, scores, weighting,
                       bench.get("mixch", {}))
    prepare_s = time.perf_counter() - t0

    timing: dict = defaultdict(lambda: defaultdict(float))
    fits: dict = defaultdict(lambda: defaultdict(int))
    phase = {"now": "inner"}
    real_fit = P._fit_binary

    def timed_fit(learner, value, X, y, max_iter, tol=P.DEFAULT_TOL):
        t = time.perf_counter()
        out = real_fit(learner, value, X, y, max_iter, tol)
        key = f"{phase['now']} {value:g}"
        timing[learner][key] += time.perf_counter() - t
        fits[learner][key] += 1
        return out

    P._fit_binary = timed_fit
    learners = {}
    try:
        for learner in bench["learners"]:
            phase["now"] = "inner"
            t = time.perf_counter()
            grid, sc, _ = P.cv_scores(learner, enc["X_train"], enc["Y_train"],
                                      enc.get("col_weights"), proto)
            inner_s = time.perf_counter() - t
            value = float(grid[int((sc == sc.max()).argmax())])
            phase["now"] = "refit"
            t = time.perf_counter()
            P.fit(learner, enc["X_train"], enc["Y_train"], value, enc.get("col_weights"), proto)
            refit_s = time.perf_counter() - t
            learners[learner] = {
                "chosen": value, "inner_s": round(inner_s, 2), "refit_s": round(refit_s, 2),
                "inner_scores": [round(float(s), 4) for s in sc],
                "seconds_by_value": {k: round(v, 2) for k, v in timing[learner].items()},
                "fits_by_value": dict(fits[learner])}
    finally:
        P._fit_binary = real_fit
    X = enc["X_train"]
    return {"dataset": dataset, "weighting": weighting, "split": name,
            "train_docs": int(X.shape[0]), "terms": int(X.shape[1]), "nnz": int(X.nnz),
            "tasks": int(enc["Y_train"].shape[1]), "prepare_s": round(prepare_s, 2),
            "learners": learners}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--weightings", default="tfidf")
    ap.add_argument("--split", default=None, help="split name (default: the first)")
    ap.add_argument("--out", default=str(REPO / "benchmarks/results/profile_column.json"))
    args = ap.parse_args()
    out = Path(args.out)
    kept = json.loads(out.read_text()) if out.exists() else {}
    kept.setdefault("records", [])
    for w in args.weightings.split(","):
        rec = profile(args.dataset, w, args.split)
        rec["date"] = datetime.now(UTC).isoformat(timespec="seconds")
        rec["load_before"] = round(os.getloadavg()[0], 2)
        kept["records"] = [r for r in kept["records"]
                           if (r["dataset"], r["weighting"]) != (args.dataset, w)] + [rec]
        json.dump(rec, sys.stdout, indent=1)
        print()
    out.write_text(json.dumps(kept, indent=1) + "\n")


if __name__ == "__main__":
    main()
