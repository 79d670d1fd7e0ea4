"""Is the inner score flat beyond the grid's edge? For runs whose chosen value is an end of its
learner's grid, the inner cross-validated score there and one and two (``--decades``) decades beyond.

    python benchmarks/probe_grid_edges.py [--per-learner 40] [--out benchmarks/results/grid_edges.json]
    python benchmarks/probe_grid_edges.py --per-dataset 8 --datasets reuters21578 r52 amazon_beauty
    python benchmarks/probe_grid_edges.py --per-dataset 8 --share 0.3 \
        --out benchmarks/results/grid_edges_stratified.json


Reads the committed columns (``data/benchmark/columns``: each run's chosen ``value``) and, for a
seeded sample of the runs that chose an end of the grid (per learner), rebuilds that split's
training part as ``benchmark-column`` does (the corpus, the split, the statistics, the fold
encoder: each inner fold encoded from its own rows) and scores the edge value and the two
values beyond it by the same inner cross-validation (``termweight.learners.protocol.cv_scores``).
Run ``snakemake data/benchmark/stats/bench_<dataset>`` first for the datasets sampled (the
script builds what is missing). It writes, per learner: the runs at each end, the sample, and
the gain of the best value beyond the edge over the edge's inner score (mean, quantiles, the
share above 0.001 and above the ROPE), with the seconds the extra fits took.

``--per-dataset N`` stratifies the sample instead: N runs at each end per dataset (all of them
where fewer), so that the datasets where many runs sit at an edge (Reuters-21578, R52,
amazon_beauty) are probed by name, and the summary is also given per dataset. With ``--share S``
only the datasets where at least S of the learner's runs chose that end are probed (the rule
registered for the stratified probe: 0.3), and each gets the registered verdict: ``extend`` when
the median gain beyond the edge exceeds the ROPE (0.01) or more than a quarter of the probes gain
more than it, else ``flat``. A probe whose fits
stop at the iteration cap is fitted again with ten times the cap (``refit``: its scores, gain and
the fits still unconverged), so an unconverged fit is either converged or reported.

``--refit-primal FILE`` takes a finished probe file and fits again, for every probe still
unconverged after that refit, the values beyond the edge by liblinear's primal Newton solver
(``dual=False``, as the protocol fits logistic regression above C = 100; the edge's own value
keeps the dual solver the grid used), then recomputes the summaries and verdicts with those
gains (``refit_primal``: its scores, gain and fits still unconverged).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]


def chosen_runs() -> pd.DataFrame:
    """One row per (dataset, weighting, learner, split) of the committed grid columns."""
    frames = []
    for path in sorted((REPO / "data/benchmark/columns").glob("bench_*/*.csv")):
        f = pd.read_csv(path, usecols=["learner", "split", "value"]).drop_duplicates()
        f["dataset"], f["weighting"] = path.parent.name.removeprefix("bench_"), path.stem
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def probe(row, protocol, beyond, refit: bool = True) -> dict:
    from termweight import scoring
    from termweight.corpus import Corpus
    from termweight.learners import protocol as P
    from termweight.splits import Split
    from termweight.steps.features import _load_stats, encode_split, fold_encoder
    from termweight.weighting import needed_scores

    root = REPO / "data/benchmark"
    corpus = Corpus.load(REPO / f"data/corpus/{row.dataset}")
    split = Split.load(root / f"splits/bench_{row.dataset}/{row.split}.npz", n_docs=corpus.n_docs)
    columns, st = _load_stats(root / f"stats/bench_{row.dataset}/{row.split}.npz", corpus, split)
    scores = {m: scoring.score(m, st) for m in needed_scores([row.weighting])}
    import yaml

    mixch = yaml.safe_load((REPO / "params.yaml").read_text())["benchmark"].get("mixch", {})
    X = corpus.X[:, columns]
    enc = encode_split(X, corpus.Y, split, scores, row.weighting, mixch)
    inner = fold_encoder(X[split.train], corpus.Y[split.train], row.weighting, mixch)
    grid = tuple(sorted({row.value, *beyond}))
    p = P.Protocol(normalize=protocol.normalize, inner_folds=protocol.inner_folds,
                   max_iter=protocol.max_iter, tol=protocol.tol, seed=protocol.seed,
                   learner_grids=((row.learner, grid),))
    t0 = time.perf_counter()
    values, s, unconverged = P.cv_scores(row.learner, enc["X_train"], enc["Y_train"],
                                         enc.get("col_weights"), p, inner)
    out = {"dataset": row.dataset, "weighting": row.weighting, "split": row.split,
           "edge": row.value, **_gain(values, s, row.value), "unconverged": int(unconverged)}
    if unconverged and refit:  # fitted again with ten times the cap: converged, or reported
        p10 = P.Protocol(normalize=p.normalize, inner_folds=p.inner_folds,
                         max_iter=10 * p.max_iter, tol=p.tol, seed=p.seed,
                         learner_grids=p.learner_grids)
        values, s, still = P.cv_scores(row.learner, enc["X_train"], enc["Y_train"],
                                       enc.get("col_weights"), p10, inner)
        out["refit"] = {"max_iter": 10 * p.max_iter, **_gain(values, s, row.value),
                        "unconverged": int(still)}
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def refit_primal(row: dict, learner: str, protocol) -> dict:
    """One probe (a record of ``probe``) fitted again with liblinear's primal solver above the
    edge: the protocol's ``_fit_binary`` itself, its learner factory (``LEARNERS``) wrapped for
    this probe only."""
    from contextlib import contextmanager

    from termweight.learners import protocol as P

    @contextmanager
    def primal_beyond(edge):  # the protocol's own fit, its model built with dual=False above
        make = P.LEARNERS[learner]
        P.LEARNERS[learner] = lambda value, *a: (make(value, *a).set_params(dual=False)
                                                 if value > edge else make(value, *a))
        try:
            yield
        finally:
            P.LEARNERS[learner] = make

    r = pd.Series({"dataset": row["dataset"], "weighting": row["weighting"],
                   "split": row["split"], "value": row["edge"], "learner": learner})
    beyond = tuple(float(v) for v in row["beyond"])
    with primal_beyond(row["edge"]):
        t0 = time.perf_counter()
        out = probe(r, protocol, beyond, refit=False)
    return {**{k: out[k] for k in ("edge_score", "beyond", "gain", "unconverged")},
            "seconds": round(time.perf_counter() - t0, 2)}


def _gain(values, s, edge_value) -> dict:
    """The edge's inner score, each value beyond it, and the best one's gain over the edge."""
    edge = float(s[list(values).index(edge_value)])
    beyond = {f"{v:g}": float(x) for v, x in zip(values, s, strict=True) if v != edge_value}
    return {"edge_score": edge, "beyond": beyond, "gain": max(beyond.values()) - edge}


def summary(probes: list[dict]) -> dict:
    """Gains of a set of probes (the refit's where a probe was fitted again)."""
    gains = np.array([p.get("refit_primal", p.get("refit", p))["gain"] for p in probes])
    return {"sampled": len(probes), "mean_gain": float(gains.mean()),
            "quantiles": {q: float(np.quantile(gains, float(q))) for q in ("0.1", "0.5", "0.9")},
            "max_gain": float(gains.max()),
            "share_gain_above_0.001": float((gains > 0.001).mean()),
            "share_gain_above_rope_0.01": float((gains > 0.01).mean()),
            "unconverged": sum(p["unconverged"] > 0 for p in probes),
            "unconverged_after_refit": sum(p.get("refit", {}).get("unconverged", 0) > 0
                                           for p in probes),
            "unconverged_after_primal_refit": sum(
                p.get("refit_primal", p.get("refit", p))["unconverged"] > 0 for p in probes),
            "seconds": round(sum(p["seconds"] for p in probes), 1)}


#: the registered rule's margin (registrations.yaml, edge-probe): the benchmark's ROPE
ROPE = 0.01


def verdict(summ: dict) -> dict:
    """The registered rule for one (learner, dataset): ``extend`` its grid when the median gain
    beyond the edge exceeds the ROPE or more than a quarter of the probes gain more than it."""
    extend = summ["quantiles"]["0.5"] > ROPE or summ["share_gain_above_rope_0.01"] > 0.25
    return {**summ, "verdict": "extend" if extend else "flat"}


def main() -> None:
    from termweight.settings import protocol_of

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-learner", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decades", type=int, default=2, help="how many decades beyond the edge")
    ap.add_argument("--learners", nargs="*", help="only these learners (default: all)")
    ap.add_argument("--per-dataset", type=int,
                    help="stratified: this many runs at each end per dataset (not --per-learner)")
    ap.add_argument("--datasets", nargs="*", help="only these datasets (default: all)")
    ap.add_argument("--share", type=float, default=0.0,
                    help="stratified: only the datasets where at least this share of the "
                    "learner's runs chose the end (default: every dataset with one)")
    ap.add_argument("--out", default="benchmarks/results/grid_edges.json")
    ap.add_argument("--refit-primal", metavar="FILE",
                    help="refit a finished probe file's still-unconverged probes (see above)")
    args = ap.parse_args()
    settings = json.loads((REPO / "data/benchmark/settings.json").read_text())
    protocol = protocol_of(settings)
    if args.refit_primal:
        return refit_file(REPO / args.refit_primal, protocol)
    runs = chosen_runs()
    if args.datasets:
        runs = runs[runs["dataset"].isin(args.datasets)]
    out = {"what": __doc__.splitlines()[0], "date": datetime.now(UTC).date().isoformat(),
           "per_dataset": args.per_dataset, "datasets": args.datasets, "share": args.share,
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, text=True,
                                    capture_output=True).stdout.strip(), "learners": {}}
    for learner, g in runs.groupby("learner"):
        if args.learners and learner not in args.learners:
            continue
        grid = protocol.values(learner)  # the grid and its extension: its ends
        top, bottom = grid[-1], grid[0]
        at = {"top": g[np.isclose(g["value"], top)], "bottom": g[np.isclose(g["value"], bottom)]}
        rec = {"grid": list(grid), "runs": len(g),
               **{f"at_{k}": len(v) for k, v in at.items()}}
        for end, sub in at.items():
            if args.per_dataset and args.share:  # the datasets where the end is frequent
                share = sub.groupby("dataset").size() / g.groupby("dataset").size()
                sub = sub[sub["dataset"].isin(share.index[share.fillna(0) >= args.share])]
            if sub.empty:
                continue
            if args.per_dataset:  # stratified: every dataset at that end, by name
                sample = pd.concat([d.sample(n=min(args.per_dataset, len(d)),
                                             random_state=args.seed)
                                    for _, d in sub.groupby("dataset", sort=True)])
            else:
                sample = sub.sample(n=min(args.per_learner, len(sub)), random_state=args.seed)
            edge = top if end == "top" else bottom
            beyond = tuple(edge * 10.0**(k if end == "top" else -k)
                           for k in range(1, args.decades + 1))
            needed = sorted({f"data/benchmark/stats/bench_{d}" for d in sample["dataset"]})
            subprocess.run(["snakemake", *needed, "--cores", "2", "--quiet", "all"], cwd=REPO,
                           check=True)
            probes = [probe(r, protocol, beyond) for r in sample.itertuples()]
            rec[end] = {**summary(probes), "probes": probes}
            if args.per_dataset:
                rec[end]["datasets"] = {
                    d: {"runs_at_end": int((sub["dataset"] == d).sum()),
                        "runs": int((g["dataset"] == d).sum()),
                        **verdict(summary([p for p in probes if p["dataset"] == d]))}
                    for d in sorted(sample["dataset"].unique())}
        out["learners"][learner] = rec
        print(learner, {k: v for k, v in rec.items() if k in ("runs", "at_top", "at_bottom")},
              {e: {k: rec[e][k] for k in ("sampled", "mean_gain", "max_gain")}
               for e in ("top", "bottom") if e in rec}, flush=True)
    Path(REPO / args.out).write_text(json.dumps(out, indent=1) + "\n")


def refit_file(path: Path, protocol) -> None:
    """``--refit-primal``: the file's still-unconverged probes refitted, its summaries redone."""
    out = json.loads(path.read_text())
    for learner, rec in out["learners"].items():
        for end in ("top", "bottom"):
            if end not in rec:
                continue
            probes, old = rec[end]["probes"], rec[end].get("datasets")
            for p in probes:
                if p.get("refit", {}).get("unconverged", 0) > 0:
                    p["refit_primal"] = refit_primal(p, learner, protocol)
                    print(learner, p["dataset"], p["weighting"], p["split"],
                          {k: p["refit_primal"][k] for k in ("gain", "unconverged", "seconds")},
                          flush=True)
            keep = {k: v for k, v in rec[end].items() if k not in ("probes", "datasets")}
            rec[end] = {**keep, **summary(probes), "probes": probes}
            if old:
                rec[end]["datasets"] = {
                    d: {**{k: old_d[k] for k in ("runs_at_end", "runs")},
                        **verdict(summary([p for p in probes if p["dataset"] == d]))}
                    for d, old_d in old.items()}
    out["refit_primal_date"] = datetime.now(UTC).date().isoformat()
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
