"""Kim (#52, probe a): are the paper's single-weighting numbers those of an under-trained SVM?

The paper's single weightings score far below ours on R8 (idf micro-F 0.794 published, about
0.97 ours) while its combinations score near ours, a pattern an SVM stopped early would give.
Each single-base SVM (``idf``, ``chi2``, ``ig``, ``rf``, ``or``) is trained on one split by the
paper's own subgradient method (step ``eta0/k``: ``MiniMax`` with one base is the hinge-loss SVM
of that base) for a few step budgets, with the C the project's run chose for it
(``data/kim/<key>/select/<split>.csv``), and its test micro-F is set beside the exactly trained
SVM's (``data/kim/<key>/fit/<split>.csv``) and the paper's.

    python benchmarks/probe_kim_single_sg.py --keys r8 webkb --split r0 --steps 300 1000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "results" / "probe_kim_single_sg.json"


def micro_f(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def run(root: Path, key: str, name: str, steps: list[int]) -> dict:
    from termweight.experiments import kim as K
    from termweight.learners.kim import MiniMax
    from termweight.runner import io
    from termweight.splits import Split

    params = K._config(root / "params.yaml")
    kim = params["kim"]
    cfg = K.settings_of(kim, key)
    corpus = K._load_corpus(root / "data" / "corpus" / kim["datasets"][key]["dataset"])
    split = Split.load(root / "data" / "kim" / key / "splits" / f"{name}.npz",
                       n_docs=corpus.n_docs)
    sel = io.read_table(root / "data" / "kim" / key / "select" / f"{name}.csv")
    sel = sel[sel["chosen"].astype(bool)]
    chosen = {(m, str(t)): float(c) for m, t, c in zip(sel["method"], sel["task"], sel["C"],
                                                      strict=True)}
    exact = io.read_table(root / "data" / "kim" / key / "fit" / f"{name}.csv")
    published = json.loads((Path(K.__file__).parent / "published.json").read_text())
    pub = published["tables"].get(key, {}).get("methods", {})
    d = K.task_data(corpus.X, corpus.Y, split.train, split.test,
                    scale=cfg.get("base_scale", "rms"), tf_norm=cfg.get("tf_norm", "l2"))
    eta0 = float(cfg.get("minimax", {}).get("eta0", 1.0))
    out = {"key": key, "split": name, "eta0": eta0, "rows": []}
    for j, method in enumerate(K.BASE_METHODS):
        ex = exact[exact["method"] == method]
        row = {"method": method,
               "published_micro_f": pub.get(method, {}).get("micro_f", [None])[0],
               "exact_micro_f": micro_f(*(int(ex[c].sum()) for c in ("tp", "fp", "fn")))}
        for n in steps:
            t0 = time.process_time()
            tp = fp = fn = 0
            constant = 0
            with K._one_blas_thread():
                for k, cls in enumerate(corpus.classes):
                    y, ytr = d.Y_eval[:, k], d.Y_train[:, k]
                    if ytr.min() == ytr.max():
                        pred = np.full(y.size, int(ytr[0]))
                    else:
                        est = MiniMax(d.bases[k][j:j + 1], C=chosen[(method, str(cls))],
                                      solver="subgradient", max_iter=int(n), eta0=eta0,
                                      normalize=K.minimax_normalize(cfg.get("minimax", {})))
                        pred = est.fit(d.X_train, ytr).predict(d.X_eval)
                    constant += int(pred.min() == pred.max())
                    tp += int(np.sum((y == 1) & (pred == 1)))
                    fp += int(np.sum((y == 0) & (pred == 1)))
                    fn += int(np.sum((y == 1) & (pred == 0)))
            row[f"sg{n}_micro_f"] = micro_f(tp, fp, fn)
            row[f"sg{n}_constant_tasks"] = constant
            row[f"sg{n}_cpu_s"] = round(time.process_time() - t0, 2)
        out["rows"].append(row)
        print(row, flush=True)
    out["tasks"] = len(corpus.classes)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--keys", nargs="+", default=["r8", "webkb"])
    ap.add_argument("--split", default="r0")
    ap.add_argument("--steps", type=int, nargs="+", default=[300, 1000])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    res = {"steps": args.steps, "runs": [run(args.root, k, args.split, args.steps)
                                         for k in args.keys]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
