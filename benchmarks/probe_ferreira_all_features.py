"""Ferreira (#52, probe): is the all-features baseline an artefact of raw counts at C = 1?

The paper's bag of words is a relative frequency; our TD matrix holds Dexter's raw counts, where
LinearSVC at C = 1 is close to a hard margin. On the project's own replications
(``data/ferreira/splits/<dataset>``) the all-features linear SVM is refitted on the raw counts
and on row-normalised counts (each document divided by its total count, the paper's relative
frequency) over a C sweep, and its mean test error set beside the best selected subset of the
run (``data/ferreira/all_errors.csv``: Method 1 / 2, TD, linear SVM, the best m). The sweep reads
the test error at every C: a sensitivity probe, not a tuned result. The run's own Method 1 / 2
subsets (``data/ferreira/rankings``: l0 counts do not change when a row is rescaled) are refitted
on the relative frequencies at the run's C, to see whether the paper's claim that selection
beats all features holds under its representation.

    python benchmarks/probe_ferreira_all_features.py --datasets dexter spambase svmlight_example1
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import scipy.sparse as sp

OUT = Path(__file__).parent / "results" / "probe_ferreira_all_features.json"
C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)


def row_normalised(X) -> sp.csr_matrix:
    """x_ij / sum_j x_ij (relative frequency); empty rows stay zero."""
    s = np.asarray(X.sum(axis=1)).ravel()
    s[s == 0] = 1.0
    return sp.csr_matrix(sp.diags(1.0 / s) @ X)


def run(root: Path, dataset: str) -> dict:
    from termweight.evaluation import error_rate
    from termweight.experiments import ferreira as F
    from termweight.learners.linear import linear_svc
    from termweight.runner import io
    from termweight.splits import Split

    params, cfg = F.load_config(root / "params.yaml")
    dcfg = F.dataset_config(cfg, dataset)
    X, y, _ = F.load_vectors(root / "data" / "corpus" / dataset, dcfg.get("n_features"))
    names = sorted(p.stem for p in (root / "data" / "ferreira" / "splits" / dataset).glob("r*.npz"))
    scalings = {"raw counts": X, "relative frequency": row_normalised(X)}
    errors = {s: {c: [] for c in C_GRID} for s in scalings}
    run_c = float(cfg.get("svm_C", 1.0))
    m_grid = sorted(int(m) for m in dcfg["m"] if int(m) < X.shape[1])
    subset = {meth: {m: [] for m in m_grid} for meth in ("method1", "method2")}
    for name in names:
        split = Split.load(root / "data" / "ferreira" / "splits" / dataset / f"{name}.npz",
                           n_docs=X.shape[0])
        for s, A in scalings.items():
            for c in C_GRID:
                clf = linear_svc(c, random_state=0, max_iter=20000).fit(A[split.train],
                                                                        y[split.train])
                errors[s][c].append(error_rate(y[split.test], clf.predict(A[split.test])))
        ranks = io.load_arrays(root / "data" / "ferreira" / "rankings" / dataset / f"{name}.npz")
        A = scalings["relative frequency"]
        for meth in subset:
            for m in m_grid:
                cols = np.sort(ranks[f"td_{meth}"][:m])
                clf = linear_svc(run_c, random_state=0, max_iter=20000).fit(
                    A[split.train][:, cols], y[split.train])
                subset[meth][m].append(error_rate(y[split.test],
                                                  clf.predict(A[split.test][:, cols])))
    out = {"dataset": dataset, "replications": len(names), "svm_C_in_run": cfg.get("svm_C", 1.0),
           "all_features_error": {s: {f"{c:g}": round(float(np.mean(v)), 4)
                                      for c, v in errs.items()} for s, errs in errors.items()},
           "relative_frequency_subsets_at_run_C": {
               meth: {str(m): round(float(np.mean(v)), 4) for m, v in by_m.items()}
               for meth, by_m in subset.items()}}
    path = root / "data" / "ferreira" / "all_errors.csv"
    if path.exists():
        e = io.read_table(path)
        e = e[(e["dataset"] == dataset) & (e["representation"] == "td")
              & (e["classifier"] == "svm")]
        best = {}
        for method in ("method1", "method2", "all"):
            means = e[e["method"] == method].groupby("m")["error"].mean()
            if len(means):
                best[method] = {"m": int(means.idxmin()), "error": round(float(means.min()), 4)}
        out["run_td_svm_best_m"] = best
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--datasets", nargs="+", default=["dexter", "spambase", "svmlight_example1"])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    res = {"C_grid": list(C_GRID), "runs": [run(args.root, d) for d in args.datasets]}
    for r in res["runs"]:
        print(json.dumps(r))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
