"""Benchmark AdaBoost.MH and MP-Boost: 1,000 rounds on a Reuters-ModApte-shaped problem.

Synthetic data (seeded): 9,603 training documents, 20,000 Zipf-distributed terms, ~70 distinct
terms per document, 90 labels with Zipf-like frequencies (~1.2 labels per document) and
label-topical terms so that the pivots are informative. The "ordinal" variant draws a term
frequency per (document, term) and applies the Esuli & Sebastiani binary encoding of ordinal
features (one feature ``#(t, d) >= v`` per distinct training value ``v`` of term ``t``), which
gives ~2.3x as many features and nonzeros, like the paper's 20,123 -> 47,087.

``--real DIR`` instead reads a corpus directory written by ``termweight.corpus.Corpus.save``
(``counts.npz`` with ``X``, ``Y``, ``subset``) and trains on its ``train`` subset (all documents
when there is none), binary (``X > 0``) and ordinal-encoded.

Writes benchmarks/results/boosting.json (atomically) and prints a table. Run::

    .venv/bin/python benchmarks/bench_boosting.py [--rounds 1000] [--real DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp

from termweight import io
from termweight.learners.boosting import AdaBoostMH, MPBoost

RESULTS = Path(__file__).resolve().parent / "results" / "boosting.json"


def _zipf(n: int, s: float = 1.0) -> np.ndarray:
    p = 1.0 / np.arange(1, n + 1) ** s
    return p / p.sum()


def synthetic(seed: int = 0, m: int = 9603, n: int = 20000, k: int = 90,
              draws: int = 92, topical: float = 0.25, tf_p: float = 0.35, tail_p: float = 0.95,
              head: int = 2000):
    """(counts CSR m x n, Y bool m x k), Reuters-ModApte-shaped, seeded."""
    rng = np.random.default_rng(seed)
    # labels: label l has prior ~ Zipf; every document gets one label, ~20% a second one
    lab_p = _zipf(k, 1.1)
    first = rng.choice(k, size=m, p=lab_p)
    second = rng.choice(k, size=m, p=lab_p)
    has2 = rng.random(m) < 0.2
    Y = np.zeros((m, k), dtype=bool)
    Y[np.arange(m), first] = True
    Y[np.arange(m)[has2], second[has2]] = True
    # terms: global Zipf background + per-label topical vocabularies of 60 terms
    perm = rng.permutation(n)
    glob_p = _zipf(n, 1.0)
    topics = rng.choice(n, size=(k, 60), replace=True)
    topic_p = _zipf(60, 1.0)
    n_top = rng.binomial(draws, topical, size=m)
    rows, cols = [], []
    bg = perm[rng.choice(n, size=int((draws - n_top).sum()), p=glob_p)]
    rows.append(np.repeat(np.arange(m), draws - n_top))
    cols.append(bg)
    top_lab = first  # topical words come from the first label
    tw = topics[np.repeat(top_lab, n_top), rng.choice(60, size=int(n_top.sum()), p=topic_p)]
    rows.append(np.repeat(np.arange(m), n_top))
    cols.append(tw)
    rows = np.concatenate(rows)
    cols = np.concatenate(cols)
    X = sp.csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(m, n))
    X.sum_duplicates()
    # term frequency: repeated draws plus geometric burstiness, heavier for frequent terms
    rank = np.empty(n, dtype=np.int64)
    rank[perm] = np.arange(n)
    p_tf = np.where(rank[X.indices] < head, tf_p, tail_p)
    X.data = X.data + rng.geometric(p_tf).astype(np.int32) - 1
    return X, Y


def ordinal_encode(X: sp.csr_matrix) -> sp.csr_matrix:
    """Esuli & Sebastiani encoding: feature (t, v) present iff ``#(t,d) >= v``, v ranging over
    the distinct nonzero values of term t in ``X``; columns ordered by (t, v)."""
    X = sp.csr_matrix(X)
    X.sum_duplicates()
    coo = X.tocoo()
    t, v = coo.col.astype(np.int64), coo.data.astype(np.int64)
    key = np.unique(t * (v.max() + 1) + v)  # distinct (term, value), sorted by term then value
    kt = key // (v.max() + 1)
    first_of_term = np.searchsorted(kt, np.arange(X.shape[1]))
    # rank of each entry's value among its term's values = number of features it switches on
    pos = np.searchsorted(key, t * (v.max() + 1) + v)
    nfeat = pos - first_of_term[t] + 1
    starts = first_of_term[t]
    total = int(nfeat.sum())
    ends = np.cumsum(nfeat)
    new_cols = np.arange(total) + np.repeat(starts - (ends - nfeat), nfeat)
    new_rows = np.repeat(coo.row.astype(np.int64), nfeat)
    return sp.csr_matrix((np.ones(total), (new_rows, new_cols)), shape=(X.shape[0], len(key)))


def peak_rss_mb() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / 1024.0 if sys.platform != "darwin" else r / 2**20


def run(name: str, X, Y, rounds: int) -> list[dict]:
    rows = []
    for cls in (AdaBoostMH, MPBoost):
        est = cls(n_rounds=rounds)
        t0, c0 = time.perf_counter(), time.process_time()
        est.fit(X, Y)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        F = est.decision_function(X)
        train_f1 = _micro_f1(Y, F > 0)
        rows.append({
            "data": name, "algorithm": cls.__name__, "rounds": rounds,
            "n_docs": X.shape[0], "n_features": X.shape[1], "n_labels": Y.shape[1],
            "nnz": int(X.nnz), "seconds": round(secs, 3), "cpu_seconds": round(cpu, 3),
            "load_average_1min": round(os.getloadavg()[0], 2),
            "rounds_per_second": round(rounds / secs, 2),
            "peak_rss_mb_so_far": round(peak_rss_mb(), 1),
            "train_micro_f1": round(train_f1, 4),
        })
        print(f"{name:>8} {cls.__name__:>10} {X.shape[1]:>7} {X.nnz:>9} {secs:>8.2f} "
              f"{cpu:>8.2f} {rounds / secs:>9.1f} {peak_rss_mb():>9.1f} {train_f1:>7.4f} "
              f"{os.getloadavg()[0]:>6.2f}",
              flush=True)
    return rows


def _micro_f1(Y, P) -> float:
    Y = np.asarray(Y, dtype=bool)
    tp = np.sum(Y & P)
    return float(2 * tp / max(1, Y.sum() + P.sum()))


def load_real(path: Path):
    arrays = io.load_arrays(Path(path) / "counts.npz")
    X, Y, subset = arrays["X"], arrays["Y"], arrays["subset"]
    train = subset == "train"
    if not train.any():
        train = np.ones(X.shape[0], dtype=bool)
    Y = Y[train].toarray().astype(bool)
    keep = Y.any(axis=0)  # labels without a training positive are dropped
    return sp.csr_matrix(X[train]), Y[:, keep]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--real", type=Path, help="corpus directory saved by Corpus.save")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.real:
        counts, Y = load_real(args.real)
        source = f"real:{args.real}"
    else:
        counts, Y = synthetic(args.seed)
        source = f"synthetic(seed={args.seed})"
    binary = sp.csr_matrix(((counts > 0)).astype(np.float64))
    ordinal = ordinal_encode(counts)
    print(f"data built in {time.perf_counter() - t0:.1f}s: {source}; {binary.shape[0]} docs, "
          f"{Y.shape[1]} labels, {Y.sum(axis=1).mean():.2f} labels/doc; binary "
          f"{binary.shape[1]} features {binary.nnz / binary.shape[0]:.1f} nnz/doc; ordinal "
          f"{ordinal.shape[1]} features {ordinal.nnz / ordinal.shape[0]:.1f} nnz/doc")
    print(f"{'data':>8} {'algorithm':>10} {'feats':>7} {'nnz':>9} {'seconds':>8} {'cpu_s':>8} "
          f"{'rounds/s':>9} {'peakMB':>9} {'trainF1':>7} {'load':>6}")
    rows = run("binary", binary, Y, args.rounds) + run("ordinal", ordinal, Y, args.rounds)
    io.write_json(args.out, {
        "source": source, "rounds": args.rounds, "results": rows,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "scipy": scipy.__version__,
                    "processor": platform.processor() or platform.machine()},
        "note": "peak_rss_mb_so_far is the process high-water mark after each run "
                "(getrusage ru_maxrss), so it includes the data and earlier runs. seconds is "
                "wall time, cpu_seconds process CPU time; the 1-min load average shows how "
                "busy the shared machine was (wall time is inflated when load > cores).",
        "n_cpus": os.cpu_count(),
    })
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
