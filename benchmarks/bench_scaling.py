"""Scaling benchmark: time and peak memory of every pipeline step on 10k, 100k and 1M documents.

Synthetic Zipfian corpora (seeded, generated directly as token ids with numpy, vectorised):
document lengths ~ 1 + Poisson(59) tokens; 85% of a document's tokens are drawn from a Zipf
(s = 1.1) law over a 2,000,000-id vocabulary (so the vocabulary grows with the corpus, as
Heaps' law says real vocabularies do), 15% from the 40 topical terms of one of the
document's labels; 20 labels with Zipf-like priors, ~1.2 labels per document. Token ids become strings
``"w<id>"`` so that the count-matrix step runs the library's real :func:`termweight.text.count_matrix`.

Steps, each a library call (training rows = the first 80% of the documents, test = the rest):

=============  ============================================================================
count          ``text.count_matrix`` on the space-joined token strings
statistics     ``statistics.term_stats`` of the training rows (presence, ``Y^T B``)
scoring        ``scoring.score`` of idf, bns, ig and chi2 for every label
ordinal        ``encoding.ThresholdEncoder`` fit on training rows + transform of all rows
linearsvc      ``learners.linear.fit_one_vs_rest`` of ONE task (the most frequent label), binary
boosting       ``learners.boosting.AdaBoostMH(n_rounds=100)`` on the binary training rows
=============  ============================================================================

Measured per step: wall time (``time.perf_counter``), CPU time of the process
(``time.process_time``: the machine is shared, so CPU time is the better size-to-size
comparison) and peak resident memory during the step (a thread samples ``/proc/self/statm``
every 5 ms; ``ru_maxrss`` of the whole process is reported too). Each size runs in its own
subprocess, so sizes do not share memory. The growth exponent of a step is the least-squares
slope of log(CPU time) against log(non-zeros of the count matrix) over the three sizes.

Run (the 1M size needs ~15 minutes and a few GB; be frugal on a shared machine)::

    nice -n 10 .venv/bin/python benchmarks/bench_scaling.py            # 10k, 100k, 1M
    .venv/bin/python benchmarks/bench_scaling.py --sizes 10000 100000  # quick look
    .venv/bin/python benchmarks/bench_scaling.py --plot-only           # redraw from the JSON

Writes benchmarks/results/scaling.json (merged by size, atomically) and
benchmarks/results/scaling.{pdf,png}.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

RESULTS = Path(__file__).resolve().parent / "results"
JSON = RESULTS / "scaling.json"
STEPS = ("count", "statistics", "scoring", "ordinal", "linearsvc", "boosting")
PAGE = os.sysconf("SC_PAGE_SIZE")


# --- corpus -------------------------------------------------------------------------------------

def synthetic(n_docs: int, seed: int = 0, vocab: int = 2_000_000, labels: int = 20,
              mean_len: int = 60, topical: float = 0.15, zipf_s: float = 1.1):
    """(token ids, document lengths, Y) of a Zipfian corpus; vectorised, seeded."""
    rng = np.random.default_rng([seed, n_docs])
    lengths = 1 + rng.poisson(mean_len - 1, size=n_docs)
    total = int(lengths.sum())
    doc_of = np.repeat(np.arange(n_docs), lengths)
    # labels: first label ~ Zipf prior, a second one for ~20% of the documents
    lab_p = 1.0 / np.arange(1, labels + 1) ** 1.1
    lab_p /= lab_p.sum()
    first = rng.choice(labels, size=n_docs, p=lab_p)
    second = rng.choice(labels, size=n_docs, p=lab_p)
    has2 = rng.random(n_docs) < 0.2
    rows = np.concatenate([np.arange(n_docs), np.flatnonzero(has2)])
    cols = np.concatenate([first, second[has2]])
    Y = sp.csr_matrix((np.ones(rows.size, np.uint8), (rows, cols)), shape=(n_docs, labels))
    Y.data[:] = 1  # a repeated label counts once
    # background tokens: inverse-CDF sampling of a truncated Zipf law
    cdf = np.cumsum(1.0 / np.arange(1, vocab + 1) ** zipf_s)
    cdf /= cdf[-1]
    ids = np.searchsorted(cdf, rng.random(total), side="right").astype(np.int64)
    # topical tokens: 40 label-specific ids from the mid-frequency range
    topics = rng.integers(1000, 50_000, size=(labels, 40))
    is_top = rng.random(total) < topical
    # a topical token belongs to one of its document's labels (the first or, if any, the second)
    d = doc_of[is_top]
    lab = np.where(has2[d] & (rng.random(d.size) < 0.5), second[d], first[d])
    ids[is_top] = topics[lab, rng.integers(0, 40, size=d.size)]
    return ids, lengths, Y


def token_strings(ids: np.ndarray, lengths: np.ndarray) -> list[str]:
    """Space-joined ``w<id>`` strings per document (the input format of ``count_matrix``)."""
    uniq, inv = np.unique(ids, return_inverse=True)
    words = np.array([f"w{u}" for u in uniq], dtype=object)[inv]
    ends = np.cumsum(lengths)
    return [" ".join(words[e - n:e]) for e, n in zip(ends.tolist(), lengths.tolist(), strict=True)]


# --- measurement --------------------------------------------------------------------------------

def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * PAGE


class Measure:
    """Context manager: wall, CPU seconds and peak RSS (sampled every 5 ms) of a block."""

    def __enter__(self):
        self.start_rss = self.peak = _rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        self.t0, self.c0 = time.perf_counter(), time.process_time()
        return self

    def _sample(self):
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, _rss())

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.t0
        self.cpu = time.process_time() - self.c0
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss())
        return False

    def record(self) -> dict:
        return {"wall_s": round(self.wall, 3), "cpu_s": round(self.cpu, 3),
                "peak_rss_mb": round(self.peak / 2**20, 1),
                "start_rss_mb": round(self.start_rss / 2**20, 1)}


# --- one size -----------------------------------------------------------------------------------

def run_size(n_docs: int, rounds: int, seed: int) -> dict:
    from termweight import scoring
    from termweight.encoding import ThresholdEncoder, binary
    from termweight.learners.boosting import AdaBoostMH
    from termweight.learners.linear import fit_one_vs_rest
    from termweight.statistics import term_stats
    from termweight.text import count_matrix

    t0 = time.perf_counter()
    ids, lengths, Y = synthetic(n_docs, seed=seed)
    texts = token_strings(ids, lengths)
    n_tokens = int(ids.size)
    del ids, lengths
    gen_s = time.perf_counter() - t0
    out: dict = {"docs": n_docs, "tokens": n_tokens, "generate_wall_s": round(gen_s, 3), "steps": {}}
    steps = out["steps"]

    with Measure() as m:
        X, vocab = count_matrix(texts)
    steps["count"] = m.record()
    del texts, vocab
    out.update(nnz=int(X.nnz), terms=int(X.shape[1]), labels=int(Y.shape[1]))

    n_train = int(0.8 * n_docs)
    Xtr, Ytr = X[:n_train], Y[:n_train]
    with Measure() as m:
        st = term_stats(Xtr, Ytr)
    steps["statistics"] = m.record()

    with Measure() as m:
        scores = {name: scoring.score(name, st) for name in ("idf", "bns", "ig", "chi2")}
    steps["scoring"] = m.record()
    del scores

    with Measure() as m:
        enc = ThresholdEncoder().fit(Xtr)
        encoded = enc.transform(X)
    steps["ordinal"] = m.record()
    out["ordinal_features"] = int(enc.n_features_out_)
    out["ordinal_nnz"] = int(encoded.nnz)
    del encoded, enc

    B = binary(Xtr)
    task = int(np.argmax(np.asarray(Ytr.sum(axis=0)).ravel()))
    with Measure() as m:
        fit_one_vs_rest(B, Ytr[:, [task]])
    steps["linearsvc"] = m.record()

    with Measure() as m:
        AdaBoostMH(n_rounds=rounds).fit(B, Ytr.toarray())
    steps["boosting"] = m.record()
    out["boosting_rounds"] = rounds
    out["process_maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


# --- driver -------------------------------------------------------------------------------------

def exponents(records: list[dict], key: str = "cpu_s") -> dict[str, float]:
    """Least-squares slope of log(``key``) against log(nnz), per step."""
    recs = sorted(records, key=lambda r: r["nnz"])
    x = np.log([r["nnz"] for r in recs])
    return {s: round(float(np.polyfit(x, np.log([max(r["steps"][s][key], 1e-4) for r in recs]),
                                      1)[0]), 3)
            for s in STEPS}


def plot(data: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from termweight.reporting import save_figure

    recs = sorted(data["sizes"].values(), key=lambda r: r["nnz"])
    nnz = np.array([r["nnz"] for r in recs], dtype=float)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for s in STEPS:
        slope = data.get("exponent_cpu", {}).get(s)
        lab = f"{s} (slope {slope:.2f})" if slope is not None else s
        axes[0].loglog(nnz, [r["steps"][s]["cpu_s"] for r in recs], "o-", label=lab)
        axes[1].loglog(nnz, [r["steps"][s]["peak_rss_mb"] for r in recs], "o-", label=s)
    ref = nnz / nnz[0]
    axes[0].loglog(nnz, ref * 0.5 * min(r["steps"]["count"]["cpu_s"] for r in recs[:1]), "k:",
                   label="linear reference")
    for ax, ylab in zip(axes, ("CPU time (s)", "peak RSS during step (MB)"), strict=True):
        ax.set_xlabel("non-zeros of the count matrix")
        ax.set_ylabel(ylab)
        ax.grid(True, which="both", alpha=0.3)
    for r in recs:
        axes[0].annotate(f"{r['docs']:,} docs", (r["nnz"], r["steps"]["count"]["cpu_s"]),
                         textcoords="offset points", xytext=(-10, 8), fontsize=7)
    axes[0].legend(fontsize=7)
    axes[1].legend(fontsize=7)
    fig.suptitle("termweight pipeline steps on synthetic Zipfian corpora (log-log)")
    fig.tight_layout()
    save_figure(fig, RESULTS / "scaling")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # child: run one size, print JSON
    ap.add_argument("--plot-only", action="store_true")
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_size(args.one, args.rounds, args.seed)))
        return 0
    from termweight.runner import io

    data = json.loads(JSON.read_text()) if JSON.exists() else {"sizes": {}}
    if not args.plot_only:
        for n in args.sizes:
            print(f"--- {n:,} documents", flush=True)
            res = subprocess.run([sys.executable, __file__, "--one", str(n), "--rounds",
                                  str(args.rounds), "--seed", str(args.seed)],
                                 capture_output=True, text=True, check=False)
            if res.returncode != 0:
                sys.stderr.write(res.stderr)
                return 1
            rec = json.loads(res.stdout.strip().splitlines()[-1])
            data["sizes"][str(n)] = rec
            for s in STEPS:
                print(f"{s:<11} wall {rec['steps'][s]['wall_s']:9.2f} s  cpu "
                      f"{rec['steps'][s]['cpu_s']:9.2f} s  peak {rec['steps'][s]['peak_rss_mb']:9.1f} MB")
            print(f"nnz {rec['nnz']:,}  terms {rec['terms']:,}  process maxrss "
                  f"{rec['process_maxrss_mb']:,.0f} MB", flush=True)
            io.write_json(JSON, data)  # keep what is measured even if a later size fails
        data["machine"] = {"python": platform.python_version(), "numpy": np.__version__,
                           "cpus": os.cpu_count(), "platform": platform.platform()}
    if len(data["sizes"]) >= 2:
        recs = list(data["sizes"].values())
        data["exponent_cpu"] = exponents(recs, "cpu_s")
        data["exponent_wall"] = exponents(recs, "wall_s")
        print("growth exponents in nnz (CPU):", data["exponent_cpu"])
        print("growth exponents in nnz (wall):", data["exponent_wall"])
    io.write_json(JSON, data)
    if len(data["sizes"]) >= 2:
        plot(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
