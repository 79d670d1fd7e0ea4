"""Kim (#65): is the validation score flat beyond the top of Kim's C grid?

``kim.validation.C_grid`` stops at 100, and mini-max and chi2 choose the top in most fits. For one
split of each dataset key, this reruns ``kim-select``'s hold-out validation (``select_C``: the
same inner/validation rows, the same bases) for ``--methods`` on the grid extended by
``--extra`` values, and reports, for the (method, task) pairs whose choice on the committed grid
was its top: the validation F1 at the top and at each extra C, the share of those pairs whose
best extended C would change, the mean validation-F1 gain of that change, and the CPU seconds
(one process, one BLAS thread). Writes benchmarks/results/probe_kim_grid_top.json.

    .venv/bin/python benchmarks/probe_kim_grid_top.py --root . --keys r8 webkb news20 \
        --split r0 --methods chi2 mini-max --extra 1000
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

OUT = Path(__file__).parent / "results" / "probe_kim_grid_top.json"


def probe(root: Path, key: str, name: str, methods, extra) -> dict:
    from termweight.experiments import kim as K
    from termweight.splits import Split

    params = K._config(root / "params.yaml")
    kim = params["kim"]
    cfg = K.settings_of(kim, key)
    grid = sorted(float(c) for c in cfg["validation"]["C_grid"])
    wide = {**cfg, "validation": {**cfg["validation"], "C_grid": grid + [float(c) for c in extra]}}
    corpus = K._load_corpus(root / "data" / "corpus" / K._dataset_cfg(params, key)["dataset"])
    split = Split.load(root / "data" / "kim" / key / "splits" / f"{name}.npz", n_docs=corpus.n_docs)
    t0 = time.process_time()
    with K._one_blas_thread():
        frame = K.select_C(corpus.X, corpus.Y, split.train, methods, wide,
                           K._split_seed(params, name), corpus.classes)
    cpu = time.process_time() - t0
    out = {"key": key, "split": name, "grid": grid, "extra": [float(c) for c in extra],
           "cpu_seconds": round(cpu, 1), "methods": {}}
    for method, g in frame.groupby("method", sort=False):
        table = g.pivot(index="task", columns="C", values="val_f1")
        on_grid = table[grid]
        at_top = on_grid.idxmax(axis=1) == grid[-1]  # ties -> the smaller C, as select_C
        top = table.loc[at_top]
        best_wide = top.max(axis=1)
        moved = best_wide > top[grid[-1]]
        out["methods"][method] = {
            "tasks": int(len(table)), "chose_top": int(at_top.sum()),
            "would_move": int(moved.sum()),
            "mean_gain_if_moved": round(float((best_wide - top[grid[-1]])[moved].mean()), 4)
            if moved.any() else 0.0,
            "mean_val_f1": {f"{c:g}": round(float(top[c].mean()), 4) for c in table.columns}
            if len(top) else {},
            "max_gain": round(float((best_wide - top[grid[-1]]).max()), 4) if len(top) else 0.0}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--keys", nargs="+", default=["r8", "webkb", "news20"])
    ap.add_argument("--split", default="r0")
    ap.add_argument("--methods", nargs="+", default=["chi2", "mini-max"])
    ap.add_argument("--extra", nargs="+", type=float, default=[1000.0])
    args = ap.parse_args()
    runs = [probe(args.root, k, args.split, args.methods, args.extra) for k in args.keys]
    record = {"what": __doc__.splitlines()[0], "date": time.strftime("%Y-%m-%d"),
              "machine": f"{platform.machine()}, {platform.python_version()}", "runs": runs}
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
