"""Kim (2016) mini-max: the paper's subgradient method (step 1/k) vs the exact bundle solver.

On a seeded synthetic sparse binary problem (and optionally one task of a saved corpus, --real DIR:
class 0 vs rest on its first --max-docs training documents, bases idf, chi2, rf computed here on
those documents, L2-normalised tf rows), for several C: objective reached (Kim's scale,
``sum_i max_j hinge + ||w||^2 / (2C)``), the exact solver's certified lower bound, wall time, and
mix-ch's objective and alpha for reference. Writes benchmarks/results/kim.json (atomic).

    .venv/bin/python benchmarks/bench_kim.py [--real DIR] [--max-docs 3000]
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import normalize

from termweight.learners.kim import MiniMax, MixCH
from termweight.runner import io

OUT = Path(__file__).parent / "results" / "kim.json"


def synthetic(n=2000, d=2000, J=5, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.01, random_state=seed, format="csr",
                  data_rvs=lambda k: rng.integers(1, 4, k).astype(float))
    w = rng.normal(size=d) * (rng.random(d) < 0.1)
    y = (X @ w + 0.3 * rng.normal(size=n) > 0).astype(int)
    flip = rng.random(n) < 0.1
    y[flip] = 1 - y[flip]
    B = rng.gamma(2.0, 0.5, size=(J, d))
    return normalize(X), y, B


def real(directory, max_docs):
    from termweight.corpus import Corpus

    c = Corpus.load(directory)
    rows = np.nonzero(np.isin(c.subset, ["train", "all"]))[0][:max_docs]
    X = c.X[rows].astype(np.float64)
    y = np.asarray(c.Y[rows, 0].todense()).ravel().astype(int)
    X = X[:, np.asarray((X > 0).sum(axis=0)).ravel() > 0]
    P = (X > 0).astype(np.float64)
    tp = np.asarray(P[y == 1].sum(axis=0)).ravel()
    fp = np.asarray(P[y == 0].sum(axis=0)).ravel()
    pos, neg = (y == 1).sum(), (y == 0).sum()
    fn, tn, n = pos - tp, neg - fp, pos + neg
    idf = np.log(n / (tp + fp))
    den = (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn)
    chi2 = np.divide(n * (tp * tn - fp * fn) ** 2, den, out=np.zeros_like(den), where=den > 0)
    rf = np.log(2.0 + tp / np.maximum(1.0, fp))
    return normalize(X), y, np.vstack([idf, chi2, rf])


def run(name, X, y, B, Cs, sg_iter):
    rows = []
    for C in Cs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            t = time.perf_counter()
            sg = MiniMax(B, C=C, solver="subgradient", max_iter=sg_iter, normalize=None).fit(X, y)
            t_sg = time.perf_counter() - t
            t = time.perf_counter()
            ex = MiniMax(B, C=C, solver="exact", max_iter=3000, tol=1e-4, normalize=None).fit(X, y)
            t_ex = time.perf_counter() - t
            t = time.perf_counter()
            mx = MixCH(B, C=C).fit(X, y)
            t_mx = time.perf_counter() - t
        h, he = sg.history_, ex.history_
        rows.append({
            "data": name, "n_docs": X.shape[0], "n_features": X.shape[1], "n_bases": B.shape[0],
            "C": C,
            "subgradient": {"iterations": sg.n_iter_, "objective": h["best_objective"][-1],
                            "last_objective": h["objective"][-1], "time_s": t_sg,
                            "mean_iter_time_s": float(np.mean(h["iter_time"])),
                            "train_acc": float((sg.predict(X) == y).mean())},
            "exact": {"iterations": ex.n_iter_, "objective": he["best_objective"][-1],
                      "lower_bound": he["lower_bound"][-1], "converged": ex.converged_,
                      "time_s": t_ex, "train_acc": float((ex.predict(X) == y).mean())},
            "subgradient_excess_rel": (h["best_objective"][-1] - he["lower_bound"][-1])
            / he["lower_bound"][-1],
            "mixch": {"iterations": mx.n_iter_, "objective": mx.history_["objective"][-1],
                      "alpha": mx.alpha_.tolist(), "time_s": t_mx},
        })
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path)
    ap.add_argument("--max-docs", type=int, default=3000)
    ap.add_argument("--sg-iter", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    Cs = [0.1, 1.0, 10.0]
    rows = run("synthetic(n=2000,d=2000,J=5,seed=0)", *synthetic(), Cs, a.sg_iter)
    if a.real:
        rows += run(f"real:{a.real.name}", *real(a.real, a.max_docs), Cs, a.sg_iter)
    io.write_json(a.out, {"benchmark": "kim mini-max subgradient vs exact (OCAS cutting planes)",
                          "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                          "loadavg": Path("/proc/loadavg").read_text().split()[:3],
                          "rows": rows})
    print(f"{'data':38s} {'C':>5s} {'F_subgrad':>11s} {'t_sg':>6s} {'F_exact':>11s} "
          f"{'lower_bd':>11s} {'it_ex':>5s} {'t_ex':>6s} {'excess':>8s} {'F_mixch':>10s}")
    for r in rows:
        s, e = r["subgradient"], r["exact"]
        print(f"{r['data']:38s} {r['C']:5g} {s['objective']:11.4f} {s['time_s']:6.2f} "
              f"{e['objective']:11.4f} {e['lower_bound']:11.4f} {e['iterations']:5d} "
              f"{e['time_s']:6.2f} {r['subgradient_excess_rel']:8.2%} "
              f"{r['mixch']['objective']:10.4f}")


if __name__ == "__main__":
    main()
