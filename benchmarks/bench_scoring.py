"""Benchmark: feature statistics, the 15 Forman scalings, and the ordinal-to-binary encoding.

(a) ``term_stats`` + ``scaling_weights`` of all 15 Forman metrics (``scoring.FORMAN_SCALINGS``) for
    every one-vs-rest task of one stratified split (75% training rows, seed 0) of the largest
    Forman corpus by non-zeros in the mirror (tr31: 927 docs, 248,903 nnz). Target < 1 s.
(b) ``ThresholdEncoder`` fit + transform of the Reuters-21578 ModApte training count matrix
    (``reuters21578`` parser, ``text.tokenize_all`` + ``count_matrix``; columns = terms present in
    the training rows). Target < 2 s. Also the feature count before/after and the mean number of
    distinct values per term, vs Esuli & Sebastiani (2009): 20,123 -> 47,087, 2.34.
(c) Peak traced memory (``tracemalloc``, separate runs from the timings) of (a) and (b) on
    25/50/100% of the rows: bytes per non-zero, vs the size of a dense float64 docs x terms array.

Nothing is cached in the repository; the ARFF file is copied from the mirror into a temp dir.
Writes ``benchmarks/results/scoring.json`` (atomic) and prints a table::

    .venv/bin/python benchmarks/bench_scoring.py [--mirror /work/shared/datasets] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics as stats_mod
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp
from sklearn.model_selection import train_test_split

from termweight import scoring
from termweight.datasets import get_dataset
from termweight.datasets.download import fetch
from termweight.encoding import ThresholdEncoder
from termweight.runner import io
from termweight.statistics import term_stats
from termweight.text import count_matrix, tokenize_all

RESULTS = Path(__file__).resolve().parent / "results" / "scoring.json"
FORMAN_CANDIDATES = ("tr31", "wap")
PAPER = {"features_before": 20123, "features_after": 47087, "mean_values_per_term": 2.34}


def timed(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, {"min_s": min(times), "median_s": stats_mod.median(times), "repeat": repeat}


def traced_peak(fn) -> int:
    """Peak bytes allocated (numpy/scipy buffers included) while ``fn`` runs."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def keep_present(X):
    """Columns present in the rows of ``X`` (as the pipeline keeps per split)."""
    return X[:, np.flatnonzero(np.diff(X.tocsc().indptr))].tocsr()


# ----------------------------------------------------------------------------- (a) Forman

def load_forman(mirror: Path):
    corpora = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in FORMAN_CANDIDATES:
            spec = get_dataset(name)
            raw = fetch(spec, Path(tmp) / name, mirror, allow_download=False, progress=False)
            corpora[name] = spec.parser(raw, {})
    name = max(corpora, key=lambda n: corpora[n].X.nnz)
    return name, corpora[name], {n: int(c.X.nnz) for n, c in corpora.items()}


def forman_split(corpus, seed=0):
    Y = sp.csr_matrix(corpus.Y)
    y = np.asarray(Y.argmax(axis=1)).ravel()
    train, _ = train_test_split(np.arange(Y.shape[0]), train_size=0.75, stratify=y, random_state=seed)
    train = np.sort(train)
    X = keep_present(sp.csr_matrix(corpus.X)[train])
    return X, Y[train]


def all_forman_weights(X, Y):
    st = term_stats(X, Y)
    return {m: scoring.scaling_weights(m, st) for m in scoring.FORMAN_SCALINGS}


def bench_forman(mirror, repeat):
    name, corpus, nnz = load_forman(mirror)
    X, Y = forman_split(corpus)
    all_forman_weights(X, Y)  # warm-up
    weights, t_all = timed(lambda: all_forman_weights(X, Y), repeat)
    _, t_stats = timed(lambda: term_stats(X, Y), repeat)
    st = term_stats(X, Y)
    per_metric = {m: timed(lambda m=m: scoring.scaling_weights(m, st), repeat)[1]["min_s"]
                  for m in scoring.FORMAN_SCALINGS}
    finite = all(np.all(np.isfinite(w)) and np.all(w >= 0) for w in weights.values())
    mem = []
    for frac in (0.25, 0.5, 1.0):
        rows = np.arange(int(round(frac * X.shape[0])))
        Xs, Ys = X[rows], Y[rows]
        peak = traced_peak(lambda Xs=Xs, Ys=Ys: all_forman_weights(Xs, Ys))
        peak_stats = traced_peak(lambda Xs=Xs, Ys=Ys: term_stats(Xs, Ys))
        mem.append({"rows": int(rows.size), "nnz": int(Xs.nnz), "peak_bytes": peak,
                    "peak_bytes_per_nnz": peak / Xs.nnz, "term_stats_peak_bytes": peak_stats,
                    "term_stats_peak_bytes_per_nnz": peak_stats / Xs.nnz,
                    "output_bytes": 15 * Y.shape[1] * X.shape[1] * 8,
                    "dense_docs_x_terms_bytes": int(rows.size) * X.shape[1] * 8})
    return {
        "corpus": name, "candidates_nnz": nnz, "train_docs": int(X.shape[0]),
        "terms": int(X.shape[1]), "tasks": int(Y.shape[1]), "train_nnz": int(X.nnz),
        "metrics": list(scoring.FORMAN_SCALINGS), "all_finite_nonnegative": bool(finite),
        "time_all_15_metrics_incl_term_stats": t_all, "time_term_stats": t_stats,
        "time_per_metric_min_s": per_metric, "target_s": 1.0,
        "meets_target": t_all["median_s"] < 1.0, "memory": mem,
    }


# ----------------------------------------------------------------------------- (b) Reuters

def load_reuters(mirror: Path):
    docs = get_dataset("reuters21578").parser(mirror / "reuters21578", {})
    t0 = time.perf_counter()
    X, _ = count_matrix(tokenize_all(docs.texts))
    t_tok = time.perf_counter() - t0
    subset = np.asarray(docs.subset)
    return X.tocsr(), subset, t_tok


def encode_train(X):
    enc = ThresholdEncoder().fit(X)
    return enc, enc.transform(X)


def bench_reuters(mirror, repeat):
    X_all, subset, t_tok = load_reuters(mirror)
    X = keep_present(X_all[subset == "train"])
    encode_train(X)  # warm-up
    (enc, Z), t = timed(lambda: encode_train(X), repeat)
    _, t_fit = timed(lambda: ThresholdEncoder().fit(X), repeat)
    test_cols = np.flatnonzero(np.diff(X_all[subset == "train"].tocsc().indptr))
    X_test = X_all[subset == "test"][:, test_cols].tocsr()
    _, t_test = timed(lambda: enc.transform(X_test), repeat)
    # the same counts under other readings, to compare with the paper's numbers
    every_integer = int(np.asarray(X.max(axis=0).todense()).sum())
    X_both = keep_present(X_all)
    enc_both = ThresholdEncoder().fit(X_both)
    mem = []
    for frac in (0.25, 0.5, 1.0):
        rows = np.arange(int(round(frac * X.shape[0])))
        Xs = X[rows]
        peak = traced_peak(lambda Xs=Xs: encode_train(Xs))
        mem.append({"rows": int(rows.size), "nnz": int(Xs.nnz), "peak_bytes": peak,
                    "peak_bytes_per_nnz": peak / Xs.nnz,
                    "dense_docs_x_terms_bytes": int(rows.size) * X.shape[1] * 8})
    return {
        "train_docs": int(X.shape[0]), "train_nnz": int(X.nnz), "tokenize_count_s": t_tok,
        "features_before": int(X.shape[1]), "features_after": int(enc.n_features_out_),
        "mean_values_per_term": float(enc.mean_values_per_term_), "output_nnz": int(Z.nnz),
        "paper": PAPER,
        "variants": {
            "thresholds_at_every_integer_1_to_max_train": {
                "features_after": every_integer,
                "mean_values_per_term": every_integer / X.shape[1]},
            "distinct_values_train_and_test_docs": {
                "docs": int(X_both.shape[0]), "features_before": int(X_both.shape[1]),
                "features_after": int(enc_both.n_features_out_),
                "mean_values_per_term": float(enc_both.mean_values_per_term_)},
        },
        "time_fit_transform_train": t, "time_fit": t_fit, "time_transform_test": t_test,
        "test_docs": int(X_test.shape[0]), "target_s": 2.0, "meets_target": t["median_s"] < 2.0,
        "memory": mem,
    }


# ----------------------------------------------------------------------------- main

def mib(b):
    return b / 2**20


def print_table(res):
    a, b = res["forman"], res["reuters"]
    print(f"\n(a) {a['corpus']}: {a['train_docs']} training docs x {a['terms']} terms, "
          f"{a['tasks']} tasks, nnz {a['train_nnz']:,}")
    print(f"  {'step':44s} {'min s':>8s} {'median s':>9s}")
    for label, key in (("term_stats", "time_term_stats"),
                       ("term_stats + 15 Forman scalings (all tasks)",
                        "time_all_15_metrics_incl_term_stats")):
        print(f"  {label:44s} {a[key]['min_s']:8.4f} {a[key]['median_s']:9.4f}")
    print("  per metric (min s): " + ", ".join(f"{m} {t * 1e3:.1f}ms"
                                               for m, t in a["time_per_metric_min_s"].items()))
    print(f"  target < 1 s: {'met' if a['meets_target'] else 'MISSED'}")
    print(f"\n(b) Reuters-21578 ModApte train: {b['train_docs']} docs, nnz {b['train_nnz']:,}")
    for label, key in (("ThresholdEncoder fit + transform(train)", "time_fit_transform_train"),
                       ("ThresholdEncoder fit", "time_fit"),
                       (f"transform(test, {b['test_docs']} docs)", "time_transform_test")):
        print(f"  {label:44s} {b[key]['min_s']:8.4f} {b[key]['median_s']:9.4f}")
    print(f"  target < 2 s: {'met' if b['meets_target'] else 'MISSED'}")
    p = b["paper"]
    print(f"  features {b['features_before']:,} -> {b['features_after']:,}, "
          f"{b['mean_values_per_term']:.2f} values/term  (paper {p['features_before']:,} -> "
          f"{p['features_after']:,}, {p['mean_values_per_term']})")
    for k, v in b["variants"].items():
        print(f"    variant {k}: -> {v['features_after']:,}, {v['mean_values_per_term']:.2f}/term")
    print("\n(c) peak traced memory (tracemalloc; (a) = term_stats + 15 scalings, whose output alone "
          f"is 15 x tasks x terms x 8 B = {mib(a['memory'][0]['output_bytes']):.1f} MiB)")
    print(f"  {'run':10s} {'rows':>6s} {'nnz':>9s} {'peak MiB':>9s} {'B/nnz':>7s} {'dense MiB':>10s}")
    for tag, part in (("(a)", a), ("(b)", b)):
        for m in part["memory"]:
            print(f"  {tag:10s} {m['rows']:6d} {m['nnz']:9,d} {mib(m['peak_bytes']):9.2f} "
                  f"{m['peak_bytes_per_nnz']:7.1f} {mib(m['dense_docs_x_terms_bytes']):10.1f}")
    print("  (a) term_stats alone: " + ", ".join(
        f"{m['nnz']:,} nnz -> {mib(m['term_stats_peak_bytes']):.2f} MiB "
        f"({m['term_stats_peak_bytes_per_nnz']:.1f} B/nnz)" for m in a["memory"]))
    print(f"  process max RSS (includes parsing and tokenising): {res['max_rss_mib']:.0f} MiB")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", type=Path, default=Path("/work/shared/datasets"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    res = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "numpy": np.__version__, "scipy": scipy.__version__},
        "forman": bench_forman(args.mirror, args.repeat),
        "reuters": bench_reuters(args.mirror, args.repeat),
    }
    res["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    io.write_json(args.out, res)
    print_table(res)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
