"""Benchmark: CMIM (Fleuret 2004) picking 2,200 of 20,000 features, Dexter-shaped.

Synthetic (default): seeded 300 x 20,000 binary-class count matrix, ~0.5% density, heavy-tailed
document frequencies, 9,947 features with class-dependent rates and 10,053 distractors (as Dexter).
``--real DIR``: a corpus directory saved by ``termweight.corpus.Corpus.save`` (``counts.npz`` with
X, Y); its ``train`` rows when the corpus has a predefined split, else all rows.

Writes wall times to ``benchmarks/results/selection.json`` (atomic) and prints a table::

    .venv/bin/python benchmarks/bench_selection.py [--real DIR] [--m 2200] [--repeat 3] [--eager]

``--ferreira`` adds Fisher's ratio and the random projection (fit + transform) and takes several
``--real`` corpora: Ferreira & Figueiredo's claim that Methods 1 and 2 have cheaper
implementations than Fisher's ratio, random projections and mutual information (Sec. 5), read by
``ferreira-collect --timings`` (its claims)::

    .venv/bin/python benchmarks/bench_selection.py --ferreira --repeat 30 \
        --real data/corpus/spambase data/corpus/svmlight_example1 data/corpus/dexter \
        --out benchmarks/results/selection_ferreira.json
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from termweight.runner import io
from termweight.selection import (
    CMIM,
    MIM,
    AchlioptasProjection,
    FisherRatio,
    L0Supervised,
    L0Unsupervised,
)

RESULTS = Path(__file__).resolve().parent / "results" / "selection.json"


def dexter_like(n_docs=300, n_features=20000, density=0.005, n_informative=9947, seed=0):
    """Seeded synthetic stand-in for Dexter's training set: (X CSR int32 counts, y in {-1, +1})."""
    rng = np.random.default_rng(seed)
    y = np.repeat([-1, 1], n_docs // 2)
    y = np.concatenate([y, np.ones(n_docs - y.size, dtype=int)])
    rate = rng.lognormal(0.0, 1.5, size=n_features)
    rate *= density / rate.mean()
    shift = np.zeros(n_features)
    shift[rng.permutation(n_features)[:n_informative]] = rng.normal(0.0, 0.8, n_informative)
    prob = np.clip(rate[None, :] * np.exp(np.outer(y, shift)), 0, 0.95)
    present = rng.random((n_docs, n_features)) < prob
    counts = present * (1 + rng.poisson(0.7, size=present.shape))
    return sp.csr_array(counts.astype(np.int32)), y


def load_real(directory):
    from termweight.corpus import Corpus

    corpus = Corpus.load(directory)
    rows = np.flatnonzero(corpus.subset == "train")
    if rows.size == 0:
        rows = np.arange(corpus.n_docs)
    return sp.csr_array(corpus.X)[rows], corpus.labels[rows], corpus.name


def timed(make, X, y, repeat, transform=False):
    """Best-of-``repeat`` wall and CPU (process) seconds of ``make().fit(X, y)`` (and of
    ``.transform(X)`` with ``transform``: a projection's cost is its product)."""
    wall, cpu, est = np.inf, np.inf, None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        est = make().fit(X, y)
        if transform:
            est.transform(X)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu, est


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", nargs="+",
                    help="corpus directories (Corpus.save) instead of synthetic data (several "
                         "with --ferreira)")
    ap.add_argument("--m", type=int, default=2200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--eager", action="store_true", help="also time the non-lazy CMIM")
    ap.add_argument("--ferreira", action="store_true",
                    help="also Fisher's ratio and the random projection (fit + transform): "
                         "Ferreira & Figueiredo's claim that Methods 1 and 2 are cheaper")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args(argv)
    if args.ferreira:
        return ferreira(args)
    if args.real and len(args.real) > 1:
        ap.error("several --real corpora need --ferreira")
    if args.real:
        X, y, name = load_real(args.real[0])
    else:
        X, y = dexter_like()
        name = "synthetic-dexter(seed=0)"
    n, p = X.shape
    rows, picks = time_methods(X, y, args.m, args.repeat, ferreira=args.ferreira,
                               eager=args.eager)
    if "CMIM eager" in picks:
        assert np.array_equal(picks["CMIM lazy"], picks["CMIM eager"]), "lazy != eager picks"

    result = {
        "data": name, "n_docs": n, "n_features": p, "nnz": int(X.nnz),
        "density": round(X.nnz / (n * p), 6), "classes": int(np.unique(y).size),
        "repeat": args.repeat,
        "timing": "best of repeat, fit only; seconds = wall, cpu_seconds = process time",
        "load_average_1min": round(os.getloadavg()[0], 2), "cpu_count": os.cpu_count(),
        "machine": {"python": platform.python_version(), "processor": platform.machine(),
                    "numpy": np.__version__},
        "results": rows,
    }
    io.write_json(args.out, result)
    print(f"{name}: {n} docs x {p} features, nnz {X.nnz} ({result['density']:.4%})")
    print(f"{'method':<12} {'m':>6} {'selected':>9} {'wall s':>9} {'cpu s':>9}")
    for r in rows:
        print(f"{r['method']:<12} {r['m']:>6} {r['selected']:>9} {r['seconds']:>9.3f}"
              f" {r['cpu_seconds']:>9.3f}")
    print(f"(load average {result['load_average_1min']} on {os.cpu_count()} CPUs)")
    return result


def time_methods(X, y, m: int, repeat: int, ferreira: bool = False,
                 eager: bool = False) -> tuple[list[dict], dict]:
    """One row per method (best-of-``repeat`` wall and CPU seconds selecting ``m`` features),
    and each selector's picks by label (RP selects none)."""
    methods = [("CMIM lazy", lambda: CMIM(m, lazy=True))]
    if eager:
        methods.append(("CMIM eager", lambda: CMIM(m, lazy=False)))
    methods += [("MIM", lambda: MIM(m)), ("Method 1", lambda: L0Unsupervised(m)),
                ("Method 2", lambda: L0Supervised(m))]
    if ferreira:
        methods += [("Fisher", lambda: FisherRatio(m)),
                    ("RP", lambda: AchlioptasProjection(m=m, random_state=0))]
    rows, picks = [], {}
    for label, make in methods:
        seconds, cpu, est = timed(make, X, y, repeat, transform=label == "RP")
        selected = getattr(est, "selected_", None)
        if selected is not None:
            picks[label] = selected
        rows.append({"method": label, "m": m,
                     "selected": int(selected.size if selected is not None else m),
                     "seconds": round(seconds, 6), "cpu_seconds": round(cpu, 6)})
    return rows, picks


def ferreira(args) -> dict:
    """``--ferreira``: every method on each ``--real`` corpus at m = min(``--m``, half its
    features), in one file."""
    import subprocess

    if not args.real:
        raise SystemExit("--ferreira needs --real corpus directories")
    out = {"what": "CPU and wall seconds (best of repeat, one process) of each selection "
                   "method's fit (RP: fit + transform) on the training rows: Ferreira & "
                   "Figueiredo's claim that Methods 1 and 2 are cheaper (Sec. 5)",
           "date": time.strftime("%Y-%m-%d"), "repeat": args.repeat,
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], text=True,
                                    capture_output=True, cwd=Path(__file__).parent).stdout.strip(),
           "cpu_count": os.cpu_count(),
           "machine": {"python": platform.python_version(), "processor": platform.machine(),
                       "numpy": np.__version__},
           "datasets": {}}
    for directory in args.real:
        X, y, name = load_real(directory)
        m = max(1, min(args.m, X.shape[1] // 2))
        out["datasets"][name] = {"n_docs": int(X.shape[0]), "n_features": int(X.shape[1]),
                                 "nnz": int(X.nnz), "m": m,
                                 "load_average_1min": round(os.getloadavg()[0], 2),
                                 "results": time_methods(X, y, m, args.repeat, ferreira=True)[0]}
        for r in out["datasets"][name]["results"]:
            print(f"{name:<18} {r['method']:<10} m={m:<6} cpu {r['cpu_seconds']:.6f} s")
    io.write_json(args.out, out)
    return out


if __name__ == "__main__":
    main()
