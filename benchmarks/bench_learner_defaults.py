"""The learners' and selectors' defaults on 20 Newsgroups bydate (issue #31).

20 Newsgroups bydate (11,314 training / 7,532 test postings, subject header kept), raw counts of
scikit-learn's ``CountVectorizer()`` fitted on the training postings. Measured, each with the
warnings its fit raised:

- ``minimax_default``: ``MiniMax()`` (exact solver, ``normalize='l2'``, ``max_iter=1000``),
  one-vs-rest over the 20 groups: converged tasks, macro-F1 on the test postings, fit time;
- ``minimax_paper``: the former default ``MiniMax(solver='subgradient', normalize=None)``,
  one-vs-rest over the 20 groups: the tasks whose ``w`` stayed 0, macro-F1, the warnings;
- ``l0supervised``: ``L0Supervised(m, variant)`` + LinearSVC (liblinear dual, C = 1) for
  ``variant`` in diff, entropy: macro-F1 and the warnings (the entropy tie guard);
- ``achlioptas``: ``AchlioptasProjection(m=1000)`` of the training counts: output type, stored
  values and bytes (sparse in, sparse out).

Run::

    .venv/bin/python benchmarks/bench_learner_defaults.py [--dataset DIR] [--only minimax_default ...]

Results: ``benchmarks/results/learner_defaults.json`` (machine, load averages, numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results" / "learner_defaults.json"
DATASET = Path("/work/shared/datasets/20news-bydate")


def load(dataset: Path):
    from sklearn.feature_extraction.text import CountVectorizer

    from termweight.datasets.newsgroups import parse_20news

    docs = parse_20news(dataset)
    train = np.array([s == "train" for s in docs.subset])
    y = np.array([labs[0] for labs in docs.labels])
    texts = np.array(docs.texts, dtype=object)
    vec = CountVectorizer().fit(texts[train])
    return vec.transform(texts[train]), vec.transform(texts[~train]), y[train], y[~train]


def fit_recorded(est, X, y):
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y)
    return time.perf_counter() - t0, [f"{w.category.__name__}: {w.message}" for w in caught]


def macro_f1(y, p) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(y, p, average="macro"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    from sklearn.svm import LinearSVC

    from termweight.learners import MiniMax
    from termweight.selection import AchlioptasProjection, L0Supervised

    Xtr, Xte, ytr, yte = load(args.dataset)
    out = json.loads(args.out.read_text()) if args.out.exists() else {}
    out["data"] = {"dataset": "20news-bydate", "n_train": int(Xtr.shape[0]),
                   "n_test": int(Xte.shape[0]), "n_terms": int(Xtr.shape[1]),
                   "n_classes": int(np.unique(ytr).size)}
    out["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count(),
                      "loadavg_start": os.getloadavg(),
                      "date": time.strftime("%Y-%m-%d %H:%M")}

    def want(key: str) -> bool:
        return args.only is None or key in args.only

    if want("minimax_default"):
        est = MiniMax()
        t, warns = fit_recorded(est, Xtr, ytr)
        out["minimax_default"] = {
            "params": {k: v for k, v in est.get_params().items() if k != "base_weights"},
            "converged": int(est.converged_.sum()), "tasks": int(est.converged_.size),
            "n_iter": est.n_iter_.tolist(), "macro_f1_test": macro_f1(yte, est.predict(Xte)),
            "fit_time_s": round(t, 1), "warnings": warns}
        print("minimax_default", {k: v for k, v in out["minimax_default"].items()
                                  if k != "n_iter"}, flush=True)
    if want("minimax_paper"):
        est = MiniMax(solver="subgradient", normalize=None)
        t, warns = fit_recorded(est, Xtr, ytr)
        zero = [str(c) for c, e in zip(est.classes_, est.estimators_, strict=True)
                if not np.any(e.coef_)]
        out["minimax_paper"] = {
            "params": {"solver": "subgradient", "normalize": None, "max_iter": est.max_iter},
            "tasks_with_w_zero": zero,
            "objective_start_max": [[e.history_["objective"][0], max(e.history_["objective"]),
                                     e.history_["best_objective"][-1]] for e in est.estimators_],
            "macro_f1_test": macro_f1(yte, est.predict(Xte)),
            "fit_time_s": round(t, 1), "warnings": warns}
        print("minimax_paper", {k: v for k, v in out["minimax_paper"].items()
                                if k != "objective_start_max"}, flush=True)
    if want("l0supervised"):
        rows = []
        for variant in ("diff", "entropy"):
            for m in (1000, 10000):
                sel = L0Supervised(m=m, variant=variant)
                t, warns = fit_recorded(sel, Xtr, ytr)
                svm = LinearSVC(dual=True, random_state=0, max_iter=10000)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    svm.fit(sel.transform(Xtr), ytr)
                rows.append({"variant": variant, "m": m,
                             "macro_f1_test": macro_f1(yte, svm.predict(sel.transform(Xte))),
                             "select_time_s": round(t, 2), "warnings": warns})
                print("l0supervised", rows[-1], flush=True)
        out["l0supervised"] = rows
    if want("achlioptas"):
        rp = AchlioptasProjection(m=1000, random_state=0).fit(Xtr)
        t0 = time.perf_counter()
        Z = rp.transform(Xtr)
        t = time.perf_counter() - t0
        stored = Z.data.nbytes + Z.indices.nbytes + Z.indptr.nbytes if hasattr(Z, "nnz") \
            else Z.nbytes
        out["achlioptas"] = {"m": 1000, "output": type(Z).__name__,
                             "stored_values": int(getattr(Z, "nnz", Z.size)),
                             "density": float(getattr(Z, "nnz", Z.size) / np.prod(Z.shape)),
                             "output_mb": round(stored / 2**20, 1),
                             "dense_mb": round(Z.shape[0] * Z.shape[1] * 8 / 2**20, 1),
                             "transform_time_s": round(t, 2)}
        print("achlioptas", out["achlioptas"], flush=True)
    out["machine"]["loadavg_end"] = os.getloadavg()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
