"""Kim (#18): where one split's CPU goes, and how much of it is liblinear.

Runs one split of one Kim dataset exactly as ``kim-select`` then ``kim-fit`` do (same params,
corpus, split and validation seed; the chosen C comes from this run's own selection), in this
process, one BLAS thread, and sums process CPU time:

- per stage (select, fit) and method, the whole fit-and-predict;
- inside it, the SVM steps: :meth:`termweight.learners.kim.MixCH._svm` (scaling ``X * b`` and
  one scikit-learn LinearSVC / liblinear fit). The single weightings are MixCH with one base, so
  this is every liblinear fit of the protocol; for mix-ch it is its SVM steps, the rest being its
  alpha LPs and scores.

Also records each method's micro-F on the split's test half. ``--svm-max-iter`` overrides
``kim.svm.max_iter`` (a what-if: liblinear stopped earlier; write it to another ``--out``).

The SVM steps are the part that must stay as it is for the results to stay identical. Their CPU
over the 10 splits of every dataset is a floor for ``snakemake --cores 2 kim``.
Needs a project whose Kim corpus and splits are built (``snakemake --cores 2 kim`` or
``dvc repro kim_split``). Appends (per dataset and split) to benchmarks/results/kim_split.json.

    .venv/bin/python benchmarks/bench_kim_split.py --root . --key news20 [--split r0 ...]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import time
from pathlib import Path

from termweight.runner import io

OUT = Path(__file__).parent / "results" / "kim_split.json"


def measure(root: Path, key: str, name: str, svm_max_iter: int | None = None) -> dict:
    from termweight.evaluation import averages
    from termweight.experiments import kim as K
    from termweight.learners.kim import MixCH
    from termweight.splits import Split

    params = K._config(root / "params.yaml")
    kim = params["kim"]
    cfg, methods = K.settings_of(kim, key), K.methods_of(kim, key)
    if svm_max_iter is not None:
        cfg = {**cfg, "svm": {**cfg.get("svm", {}), "max_iter": svm_max_iter}}
    corpus = K._load_corpus(root / "data" / "corpus" / K._dataset_cfg(params, key)["dataset"])
    split = Split.load(root / "data" / "kim" / key / "splits" / f"{name}.npz")

    state = {"stage": None, "method": None}
    svm = collections.defaultdict(float)
    whole = collections.defaultdict(float)
    real_svm, real_fp, real_grid = MixCH._svm, K.fit_predict, K.fit_predict_grid

    def timed_svm(self, *a, **kw):
        t = time.process_time()
        try:
            return real_svm(self, *a, **kw)
        finally:
            svm[(state["stage"], state["method"])] += time.process_time() - t

    def timed(fn):
        def wrapper(method, *a, **kw):
            outer = state["method"] is None  # fit_predict_grid calls fit_predict
            state["method"] = method
            t = time.process_time()
            try:
                return fn(method, *a, **kw)
            finally:
                if outer:
                    whole[(state["stage"], method)] += time.process_time() - t
                    state["method"] = None
        return wrapper

    MixCH._svm, K.fit_predict, K.fit_predict_grid = timed_svm, timed(real_fp), timed(real_grid)
    try:
        with K._one_blas_thread():
            t0, w0 = time.process_time(), time.perf_counter()
            state["stage"] = "select"
            sel = K.select_C(corpus.X, corpus.Y, split.train, methods, cfg,
                             K._split_seed(params, name), corpus.classes)
            sel = sel[sel["chosen"].astype(bool)]
            chosen = {(m, str(t)): float(c)
                      for m, t, c in zip(sel["method"], sel["task"].astype(str), sel["C"],
                                         strict=True)}
            state["stage"] = "fit"
            fits = K.fit_split(corpus.X, corpus.Y, split, methods, chosen, cfg, corpus.classes)
            cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    finally:
        MixCH._svm, K.fit_predict, K.fit_predict_grid = real_svm, real_fp, real_grid

    def table(d):
        return {stage: {m: round(v, 2) for (s, m), v in d.items() if s == stage}
                for stage in ("select", "fit")}

    svm_total = sum(svm.values())
    micro = {m: averages(grp[["tp", "fp", "fn", "tn"]])["micro_f1"]
             for m, grp in fits.groupby("method", sort=False)}
    return {"svm_max_iter": cfg.get("svm", {}).get("max_iter"),
            "test_micro_f": {m: round(f, 4) for m, f in micro.items()},
            "cpu_s": round(cpu, 2), "wall_s": round(wall, 2), "svm_steps_s": round(svm_total, 2),
            "svm_share": round(svm_total / cpu, 3), "rest_s": round(cpu - svm_total, 2),
            "fit_predict_s": table(whole), "svm_steps_by_method_s": table(svm)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."), help="project with Kim data built")
    ap.add_argument("--key", action="append", required=True, help="kim dataset key (repeatable)")
    ap.add_argument("--split", action="append", help="split name (repeatable; default r0)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--note", default="", help="e.g. the machine's load while measuring")
    ap.add_argument("--svm-max-iter", type=int, help="override kim.svm.max_iter (what-if)")
    a = ap.parse_args(argv)
    doc = json.loads(a.out.read_text()) if a.out.exists() else {
        "benchmark": "Kim: one split's CPU per stage and method; the SVM (liblinear) steps apart",
        "runs": {}}
    for key in a.key:
        for name in a.split or ["r0"]:
            r = measure(a.root.resolve(), key, name, a.svm_max_iter)
            r.update({"date": time.strftime("%Y-%m-%d %H:%M"), "cores": os.cpu_count(),
                      "machine": platform.machine(), "note": a.note})
            doc["runs"][f"{key}/{name}"] = r
            print(key, name, json.dumps({k: r[k] for k in ("cpu_s", "svm_steps_s", "svm_share")}),
                  flush=True)
            io.write_json(a.out, doc)


if __name__ == "__main__":
    main()
