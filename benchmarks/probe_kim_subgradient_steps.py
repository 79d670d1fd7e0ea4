"""Kim (#33): how many steps the paper's subgradient mini-max (``mini-max-sg``) needs.

Runs ``mini-max-sg`` on one split exactly as ``kim-select`` then ``kim-fit`` do (same params,
corpus, split and validation seed; C chosen by this run's own hold-out), for several
``kim.minimax.subgradient_iter`` values, and records the test micro-F, the problems whose
prediction is all-negative (the best iterate is still w = 0), and the CPU time. The exact solver's
micro-F on the same split is read from the project's ``data/kim/<key>/fit/<split>.csv``.

Measured 2026-11-25, R8 split r0 (with the CLI, the same protocol): micro-F 0.218 at 300 steps
(3 of 8 problems at w = 0), 0.565 at 1,000, 0.916 at 3,000; exact solver 0.938.

    .venv/bin/python benchmarks/probe_kim_subgradient_steps.py --root . --key r8 --split r0 \
        --steps 300 1000 3000
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path

OUT = Path(__file__).parent / "results" / "probe_kim_subgradient_steps.json"


def micro_f(frame) -> float:
    tp, fp, fn = (int(frame[c].sum()) for c in ("tp", "fp", "fn"))
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def run(root: Path, key: str, name: str, steps: list[int]) -> dict:
    from termweight.experiments import kim as K
    from termweight.runner import io
    from termweight.splits import Split

    params = K._config(root / "params.yaml")
    kim = params["kim"]
    corpus = K._load_corpus(root / "data" / "corpus" / kim["datasets"][key]["dataset"])
    split = Split.load(root / "data" / "kim" / key / "splits" / f"{name}.npz",
                       n_docs=corpus.n_docs)
    out = {"key": key, "split": name, "rows": []}
    exact = root / "data" / "kim" / key / "fit" / f"{name}.csv"
    if exact.exists():
        f = io.read_table(exact)
        out["exact_micro_f"] = micro_f(f[f["method"] == "mini-max"])
    for n in steps:
        cfg = copy.deepcopy(K.settings_of(kim, key))
        cfg["minimax"]["subgradient_iter"] = int(n)
        t0 = time.process_time()
        with K._one_blas_thread():
            sel = K.select_C(corpus.X, corpus.Y, split.train, ["mini-max-sg"], cfg,
                             K._split_seed(params, name), corpus.classes)
            sel = sel[sel["chosen"].astype(bool)]
            chosen = {(m, str(t)): float(c) for m, t, c in zip(sel["method"], sel["task"],
                                                              sel["C"], strict=True)}
            fit = K.fit_split(corpus.X, corpus.Y, split, ["mini-max-sg"], chosen, cfg,
                              corpus.classes)
        out["rows"].append({"steps": int(n), "micro_f": micro_f(fit),
                            "problems_all_negative": int(((fit["tp"] + fit["fp"]) == 0).sum()),
                            "problems": int(len(fit)), "cpu_s": time.process_time() - t0})
        print(out["rows"][-1], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--key", default="r8")
    ap.add_argument("--split", default="r0")
    ap.add_argument("--steps", type=int, nargs="+", default=[300, 1000, 3000])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    res = run(args.root, args.key, args.split, args.steps)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
