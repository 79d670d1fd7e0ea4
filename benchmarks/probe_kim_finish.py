"""Kim (#33): liblinear stopped at its pass cap against the same SVM finished to a certified gap.

For one split of one Kim dataset (the refit of ``kim-fit``: the training half, the test half),
every single weighting in ``--methods`` and every C in ``--C``, and every one-vs-rest task:

- liblinear (hinge loss, no bias, ``kim.svm`` tol) with ``--cap`` passes (the params' cap by
  default): passes, CPU seconds, objective ``sum hinge + ||w||^2 / (2C)``;
- where it stopped at the cap: the same point finished by ``finish_hinge_svm`` (the exact
  cutting-plane solver of MiniMax, one base) to a certified relative gap ``--gap-tol``: CPU
  seconds, objective, the certified gap, and how many test predictions changed.

One process, one BLAS thread; CPU = process time. Appends one JSON record per (method, C) to
benchmarks/results/kim_finish.json. Needs the Kim corpus and splits (``dvc repro kim_split``).

    .venv/bin/python benchmarks/probe_kim_finish.py --root . --key news20 --split r0 \
        --methods chi2 ig or --C 10 100
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import warnings
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "results" / "kim_finish.json"


def hinge_objective(X, y, w, C) -> float:
    return float(np.maximum(0.0, 1.0 - y * (X @ w)).sum() + w @ w / (2.0 * C))


def probe(root: Path, key: str, name: str, methods, Cs, cap: int | None, gap_tol: float,
          tasks: int | None) -> list[dict]:
    import scipy.sparse as sp
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    from termweight.experiments import kim as K
    from termweight.learners.kim import finish_hinge_svm
    from termweight.splits import Split

    params = K._config(root / "params.yaml")
    kim = params["kim"]
    cfg = K.settings_of(kim, key)
    svm_cfg = cfg.get("svm", {})
    tol = float(svm_cfg.get("tol", 1e-4))
    cap = int(cap or svm_cfg.get("max_iter", 10000))
    corpus = K._load_corpus(root / "data" / "corpus" / K._dataset_cfg(params, key)["dataset"])
    split = Split.load(root / "data" / "kim" / key / "splits" / f"{name}.npz")
    d = K.task_data(corpus.X, corpus.Y, split.train, split.test,
                    scale=cfg.get("base_scale", "rms"), tf_norm=cfg.get("tf_norm", "l2"))
    classes = list(corpus.classes)[: tasks or None]
    records = []
    with K._one_blas_thread():
        for method in methods:
            j = list(K.BASE_METHODS).index(method)
            for C in Cs:
                rows = []
                for k, cls in enumerate(classes):
                    y01 = d.Y_train[:, k]
                    if y01.min() == y01.max():
                        continue
                    y = np.where(y01 == 1, 1.0, -1.0)
                    Xb = d.X_train @ sp.diags_array(d.bases[k][j])
                    Xe = d.X_eval @ sp.diags_array(d.bases[k][j])
                    t = time.process_time()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", ConvergenceWarning)
                        svm = LinearSVC(C=C, loss="hinge", fit_intercept=False, tol=tol,
                                        max_iter=cap, random_state=0).fit(Xb, y)
                    t_lib = time.process_time() - t
                    w = svm.coef_.ravel()
                    row = {"task": str(cls), "passes": int(np.max(svm.n_iter_)),
                           "liblinear_s": t_lib, "objective": hinge_objective(Xb, y, w, C)}
                    if row["passes"] >= cap:
                        t = time.process_time()
                        w2, _, gap, ok = finish_hinge_svm(Xb, y, C, w, tol=gap_tol)
                        row.update(finish_s=time.process_time() - t, certified=ok, gap=gap,
                                   finished_objective=hinge_objective(Xb, y, w2, C),
                                   changed_test=int(np.sum((Xe @ w > 0) != (Xe @ w2 > 0))))
                    rows.append(row)
                capped = [r for r in rows if "finish_s" in r]
                rec = {"dataset": key, "split": name, "method": method, "C": C, "cap": cap,
                       "gap_tol": gap_tol, "tasks": len(rows), "capped": len(capped),
                       "liblinear_s": sum(r["liblinear_s"] for r in rows),
                       "finish_s": sum(r["finish_s"] for r in capped),
                       "certified": sum(bool(r["certified"]) for r in capped),
                       "objective_drop_max": max(
                           (1 - r["finished_objective"] / r["objective"] for r in capped),
                           default=0.0),
                       "changed_test": sum(r["changed_test"] for r in capped),
                       "n_test": int(d.X_eval.shape[0]), "rows": rows,
                       "machine": platform.node(), "date": time.strftime("%Y-%m-%d")}
                print(json.dumps({k: v for k, v in rec.items() if k != "rows"}), flush=True)
                records.append(rec)
    return records


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--key", default="news20")
    ap.add_argument("--split", default="r0")
    ap.add_argument("--methods", nargs="+", default=["chi2", "ig", "or"])
    ap.add_argument("--C", nargs="+", type=float, default=[10.0, 100.0])
    ap.add_argument("--cap", type=int, default=None)
    ap.add_argument("--gap-tol", type=float, default=1e-3)
    ap.add_argument("--tasks", type=int, default=None, help="only the first N classes")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    recs = probe(args.root, args.key, args.split, args.methods, args.C, args.cap, args.gap_tol,
                 args.tasks)
    old = json.loads(args.out.read_text()) if args.out.exists() else []
    args.out.write_text(json.dumps(old + recs, indent=1) + "\n")


if __name__ == "__main__":
    main()
