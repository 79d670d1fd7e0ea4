"""Probe: the cost of Forman's second learner (``smo``: libsvm's SVC, linear kernel, the problem
WEKA 3.4's SMO solves) beside LinearSVC, on one dataset x CV seed of ``forman-evaluate``.

Usage (from the repository root; corpora as built by the pipeline)::

    PYTHONPATH=src python benchmarks/probe_forman_smo.py --corpus data/corpus/oh0 [--repeat 0]

Prints, per learner, the wall and CPU time of the 30 representations x tasks x 4 folds, the fits
that hit the iteration cap, and the macro F-measure / accuracy of binary-BNS and TF-IDF with their
difference (one seed: indicative only; the report pools 8 seeds and all datasets).
"""

from __future__ import annotations

import argparse
import time

from termweight.experiments import forman
from termweight.experiments.forman import results as forman_results
from termweight.runner.config import load_params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", default="params.yaml")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--repeat", type=int, default=0)
    ap.add_argument("--learners", nargs="+", default=list(forman.LEARNERS))
    args = ap.parse_args()
    params = load_params(args.params)
    for learner in args.learners:
        cfg = dict(params["forman"], learners=[learner])
        t0, c0 = time.perf_counter(), time.process_time()
        frame = forman.evaluate_repeat(args.corpus, cfg, int(params["seed"]), args.repeat)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        meas = forman_results.measurements(frame, ["rep"])
        s = forman_results.summarise(meas, ["rep"]).set_index("rep")
        nc = int((frame["converged"] == 0).sum())
        f_b, f_t = s.loc["binary-bns", "f1"], s.loc["tf-idf", "f1"]
        a_b, a_t = s.loc["binary-bns", "accuracy"], s.loc["tf-idf", "accuracy"]
        best = s["f1"].idxmax()
        print(f"{learner}: {len(frame)} fits, {wall:.1f} s wall, {cpu:.1f} s CPU, {nc} not "
              f"converged; F binary-BNS {f_b:.4f} TF-IDF {f_t:.4f} (diff {100 * (f_b - f_t):+.2f}"
              f" points); accuracy diff {100 * (a_b - a_t):+.2f} points; best by F {best} "
              f"({s.loc[best, 'f1']:.4f})", flush=True)


if __name__ == "__main__":
    main()
