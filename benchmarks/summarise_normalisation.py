"""What unit-length rows change under the tuned protocol: reads the output of
``bench_protocol.py --modes tuned_raw,tuned`` and prints, per learner, the mean change of the first
measure over the weightings (unit-length minus raw), how many weightings gain, the largest changes,
Spearman's correlation of the two orders and the fits that stopped at the cap.

    python benchmarks/summarise_normalisation.py [benchmarks/results/normalisation.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    import pandas as pd
    from scipy.stats import spearmanr

    path = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "benchmarks/results/normalisation.json"
    modes = json.loads(path.read_text())["modes"]
    col = f"{modes['tuned']['measure']}_mean"
    frames = {m: pd.DataFrame(modes[m]["per_dataset"]).set_index(["dataset", "learner", "weighting"])[col]
              for m in ("tuned_raw", "tuned")}
    both = pd.DataFrame({"raw": frames["tuned_raw"], "l2": frames["tuned"]}).dropna()
    both["change"] = both["l2"] - both["raw"]
    for (dataset, learner), g in both.groupby(level=["dataset", "learner"]):
        g = g.droplevel(["dataset", "learner"]).sort_values("change")
        rho = spearmanr(g["raw"], g["l2"]).statistic
        raw, l2 = (modes[m]["tuning"][learner] for m in ("tuned_raw", "tuned"))
        print(f"{dataset} {learner}: mean change {g['change'].mean():+.4f}, "
              f"{int((g['change'] > 0).sum())} of {len(g)} weightings gain; "
              f"largest loss {g.index[0]} {g['change'].iloc[0]:+.4f}, "
              f"largest gains {', '.join(f'{w} {c:+.4f}' for w, c in g['change'].iloc[::-1][:3].items())}; "
              f"Spearman {rho:.3f}; best raw {g['raw'].idxmax()} {g['raw'].max():.4f}, "
              f"best l2 {g['l2'].idxmax()} {g['l2'].max():.4f}; unconverged (final / inner) raw "
              f"{raw['unconverged_tasks']} / {raw['inner_unconverged_tasks']}, "
              f"l2 {l2['unconverged_tasks']} / {l2['inner_unconverged_tasks']}")
    for m, v in modes.items():
        print(f"{m}: wall {v['wall_s']} s, train {v['train_s']}")


if __name__ == "__main__":
    main()
