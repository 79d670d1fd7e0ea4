"""Benchmark AdaBoost.MH and MP-Boost: CPU time and peak memory of ``fit`` (1,000 rounds).

Data, one of:

- ``--features FILE [FILE ...]``: feature files written by ``termweight esuli-features``
  (``X_train``, ``Y_train`` and, when present, ``X_test``, ``Y_test``), e.g. Reuters-21578
  ModApte-90 binary; the test F1 is reported too (micro-F1 from pooled counts, macro-F1 = mean of
  per-category F1 with 0/0 = 0, as in the Esuli experiment);
- default: synthetic, seeded, Reuters-ModApte-shaped (9,603 documents, 20,000 Zipf terms, 90
  labels), ``binary`` and ``ordinal`` (the Esuli & Sebastiani threshold encoding, ~2.3x the
  features and nonzeros).

Every (data, learner) pair runs in a FRESH subprocess, which records its resident set size
(``VmRSS`` of /proc/self/status) after the imports (numpy, scipy, scikit-learn, termweight),
then after loading the data (the BASELINE), then resets the high-water mark
(``/proc/self/clear_refs`` = 5) and reads ``VmHWM`` after ``fit``: the peak during ``fit``.
``fit_peak_above_baseline_mb`` is their difference: what the booster itself costs. CPU time is
``time.process_time`` over ``fit`` (single-threaded code, so comparable under load); the load
averages before and after are recorded because the machine is shared.

``--impl PATH`` benchmarks another copy of ``boosting.py`` (e.g. an earlier commit's, for
before/after figures); ``model_sha256`` (over pivots, c0, c1 and z) shows whether two
implementations produced bit-identical models. Results are merged into ``--out`` under
``--tag``. Run::

    .venv/bin/python benchmarks/bench_boosting.py --features DIR/binary.npz --tag after
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.util
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "boosting.json"
LEARNERS = {"adaboost_mh": "AdaBoostMH", "mp_boost": "MPBoost"}


# --- memory ------------------------------------------------------------------------------------
def _status_mb(key: str) -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def rss_mb() -> float:
    """Current resident set size (MB); the high-water mark where /proc is unavailable."""
    now = _status_mb("VmRSS")
    return now if now is not None else peak_mb()


def peak_mb() -> float:
    """High-water mark of the resident set size (MB) since start or the last reset."""
    hwm = _status_mb("VmHWM")
    if hwm is not None:
        return hwm
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / 1024.0 if sys.platform != "darwin" else r / 2**20


def reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False if not possible."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
        return True
    except OSError:
        return False


# --- synthetic data ----------------------------------------------------------------------------
def _zipf(n: int, s: float = 1.0):
    import numpy as np

    p = 1.0 / np.arange(1, n + 1) ** s
    return p / p.sum()


def synthetic(seed: int = 0, m: int = 9603, n: int = 20000, k: int = 90,
              draws: int = 92, topical: float = 0.25, tf_p: float = 0.35, tail_p: float = 0.95,
              head: int = 2000):
    """(counts CSR m x n, Y bool m x k), Reuters-ModApte-shaped, seeded."""
    import numpy as np
    import scipy.sparse as sp

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
    bg = perm[rng.choice(n, size=int((draws - n_top).sum()), p=glob_p)]
    tw = topics[np.repeat(first, n_top), rng.choice(60, size=int(n_top.sum()), p=topic_p)]
    rows = np.concatenate([np.repeat(np.arange(m), draws - n_top), np.repeat(np.arange(m), n_top)])
    cols = np.concatenate([bg, tw])
    X = sp.csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(m, n))
    X.sum_duplicates()
    # term frequency: repeated draws plus geometric burstiness, heavier for frequent terms
    rank = np.empty(n, dtype=np.int64)
    rank[perm] = np.arange(n)
    p_tf = np.where(rank[X.indices] < head, tf_p, tail_p)
    X.data = X.data + rng.geometric(p_tf).astype(np.int32) - 1
    return X, Y


def ordinal_encode(X):
    """Esuli & Sebastiani encoding: feature (t, v) present iff ``#(t,d) >= v``, v ranging over
    the distinct nonzero values of term t in ``X``; columns ordered by (t, v)."""
    import numpy as np
    import scipy.sparse as sp

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


# --- one measurement (runs in a child process) -------------------------------------------------
def load_data(source: str, seed: int):
    """``(X_train, Y_train, X_test, Y_test)``; the test pair is None for synthetic data."""
    import numpy as np
    import scipy.sparse as sp

    if source.startswith("synthetic:"):
        counts, Y = synthetic(seed)
        X = ordinal_encode(counts) if source.endswith("ordinal") else \
            sp.csr_matrix((counts > 0).astype(np.float64))
        return X, Y, None, None
    from termweight.runner import io

    a = io.load_arrays(source)
    Ytr = np.asarray(sp.csr_matrix(a["Y_train"]).toarray(), dtype=bool)  # as esuli-boost does
    Xte = a.get("X_test")
    Yte = a.get("Y_test")
    return a["X_train"], Ytr, Xte, Yte


def f1_scores(Y_true, P) -> dict:
    """Micro-F1 (pooled counts) and macro-F1 (mean of per-category F1, 0/0 = 0)."""
    import numpy as np
    import scipy.sparse as sp

    Y = np.asarray(sp.csr_matrix(Y_true).toarray(), dtype=bool)
    P = np.asarray(P, dtype=bool)
    tp = np.sum(Y & P, axis=0)
    den = Y.sum(axis=0) + P.sum(axis=0)
    per = np.where(den > 0, 2.0 * tp / np.maximum(den, 1), 0.0)
    return {"micro_f1": float(2.0 * tp.sum() / max(1, den.sum())), "macro_f1": float(per.mean())}


def model_digest(est) -> str:
    import numpy as np

    h = hashlib.sha256()
    for a in (est.pivots_, est.c0_, est.c1_, est.z_):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def measure(spec: dict) -> dict:
    """Import, load, fit once; memory and CPU figures of ``fit`` (see the module docstring)."""
    import numpy as np
    import scipy
    import sklearn  # noqa: F401  (part of the import baseline)

    from termweight.learners import boosting as mod  # the same imports for every --impl

    if spec.get("impl"):
        mod_spec = importlib.util.spec_from_file_location("boosting_impl", spec["impl"])
        mod = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(mod)
    for name, value in (spec.get("constants") or {}).items():
        if not hasattr(mod, name):
            raise SystemExit(f"the boosting module has no constant {name}")
        setattr(mod, name, type(getattr(mod, name))(value))
    rss_import = rss_mb()
    X, Y, Xte, Yte = load_data(spec["source"], spec.get("seed", 0))
    params = {"n_rounds": spec["rounds"]}
    if spec.get("normalize"):
        params["normalize"] = spec["normalize"]
    est = getattr(mod, LEARNERS[spec["learner"]])(**params)
    baseline = rss_mb()
    was_reset = reset_peak()
    load0 = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    est.fit(X, Y)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = peak_mb()
    row = {
        "data": spec["name"], "algorithm": LEARNERS[spec["learner"]],
        "params": dict(params), "constants": spec.get("constants") or {},
        "rounds": spec["rounds"],
        "n_docs": int(X.shape[0]), "n_features": int(X.shape[1]), "n_labels": int(Y.shape[1]),
        "nnz": int(X.nnz), "cpu_seconds": round(cpu, 2), "seconds": round(wall, 2),
        "load_average_1min_before": round(load0, 2),
        "load_average_1min_after": round(os.getloadavg()[0], 2),
        "rss_after_imports_mb": round(rss_import, 1), "baseline_rss_mb": round(baseline, 1),
        "fit_peak_rss_mb": round(peak, 1),
        "fit_peak_above_baseline_mb": round(peak - baseline, 1) if was_reset else None,
        "model_sha256": model_digest(est),
        "train_micro_f1": round(f1_scores(Y, est.predict(X) > 0)["micro_f1"], 4),
    }
    if not was_reset:
        row["note"] = "VmHWM could not be reset: fit_peak_rss_mb includes loading the data"
    if Xte is not None and Yte is not None:
        row.update({f"test_{k}": round(v, 4) for k, v in f1_scores(Yte, est.predict(Xte)).items()})
    row["numpy"], row["scipy"] = np.__version__, scipy.__version__
    return row


# --- driver ------------------------------------------------------------------------------------
def _merge(out: Path, tag: str, payload: dict) -> None:
    from termweight.runner import io

    data = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    data.setdefault("runs", {})[tag] = payload
    io.write_json(out, data)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--features", type=Path, nargs="+",
                    help="esuli-features files (X_train, Y_train[, X_test, Y_test])")
    ap.add_argument("--learners", nargs="+", choices=sorted(LEARNERS), default=sorted(LEARNERS))
    ap.add_argument("--normalize", choices=["label", "global"],
                    help="MPBoost's normalize parameter (default: the estimator's default)")
    ap.add_argument("--impl", type=Path, help="benchmark this boosting.py instead of termweight's")
    ap.add_argument("--constant", action="append", default=[], metavar="NAME=VALUE",
                    help="set a module constant first, e.g. MAX_CANCEL=inf (repeatable)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--tag", default="current", help="key of this run in --out")
    ap.add_argument("--note", default="", help="free text stored with the run")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(measure(json.loads(args.child))), flush=True)
        return
    if args.features:
        sources = [(str(p.resolve()), p.stem) for p in args.features]
    else:
        sources = [("synthetic:binary", "synthetic-binary"),
                   ("synthetic:ordinal", "synthetic-ordinal")]
    started = datetime.datetime.now().astimezone()
    rows = []
    print(f"{'data':>18} {'algorithm':>10} {'feats':>6} {'cpu_s':>7} {'wall_s':>7} "
          f"{'base':>6} {'peak':>6} {'fit+':>6} {'load':>5} {'micro':>6} {'macro':>6}")
    for source, name in sources:
        for learner in args.learners:
            spec = {"source": source, "name": name, "learner": learner, "rounds": args.rounds,
                    "seed": args.seed,
                    "impl": str(args.impl.resolve()) if args.impl else None,
                    "normalize": args.normalize if learner == "mp_boost" else None,
                    "constants": dict(c.split("=", 1) for c in args.constant)}
            out = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)],
                                 check=True, capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            rows.append(r)
            print(f"{name:>18} {r['algorithm']:>10} {r['n_features']:>6} {r['cpu_seconds']:>7.1f}"
                  f" {r['seconds']:>7.1f} {r['baseline_rss_mb']:>6.0f} {r['fit_peak_rss_mb']:>6.0f}"
                  f" {r['fit_peak_above_baseline_mb'] or float('nan'):>6.1f}"
                  f" {r['load_average_1min_after']:>5.2f} {r.get('test_micro_f1', float('nan')):>6.4f}"
                  f" {r.get('test_macro_f1', float('nan')):>6.4f}", flush=True)
    with open("/proc/loadavg", encoding="ascii") as f:
        loadavg_end = f.read().strip()
    _merge(args.out, args.tag, {
        "date": started.isoformat(timespec="seconds"),
        "finished": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "implementation": str(args.impl) if args.impl else "termweight.learners.boosting",
        "note": args.note, "rounds": args.rounds, "results": rows,
        "machine": {"python": platform.python_version(),
                    "processor": platform.processor() or platform.machine(),
                    "n_cpus": os.cpu_count(), "proc_loadavg_at_end": loadavg_end},
        "how": "one fresh process per row; baseline_rss_mb = VmRSS after importing numpy, "
               "scipy, scikit-learn, termweight and loading the data; fit_peak_rss_mb = VmHWM "
               "during fit (reset via /proc/self/clear_refs just before fit); "
               "fit_peak_above_baseline_mb = their difference. cpu_seconds = process CPU time "
               "of fit; seconds = wall time (inflated when the 1-min load exceeds n_cpus).",
    })
    print(f"wrote {args.out} [{args.tag}]")


if __name__ == "__main__":
    main()
