"""How the benchmark's ranking changed between two runs: per learner, the average ranks of one
measure read from the leaderboards (``reports/tables/benchmark_<learner>.tex``) of a git
revision and of the working tree.

    python benchmarks/compare_rankings.py --old-rev 4df2b87 [--measure macro-F1]
                                          [--out benchmarks/results/ranking_change.json]

For each learner it writes the Spearman correlation of the two rank vectors (scipy), both top
fives, and the weightings that moved most. The leaderboards are the report's own tables, so the
comparison needs no intermediate file of either run.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ranks(tex: str, measure: str) -> dict[str, float]:
    """Weighting -> average rank of ``measure`` in a leaderboard table's LaTeX."""
    header = next(ln for ln in tex.splitlines() if "& Weighting &" in ln)
    cols = [c.strip() for c in header.rstrip("\\ ").split("&")]
    at = cols.index(f"rank {measure}")
    out = {}
    for ln in tex.splitlines():
        m = re.match(r"\d+ & \\texttt\{(.+?)\} &", ln)
        if m:
            cells = [c.strip() for c in ln.rstrip("\\ ").split("&")]
            out[m.group(1).replace("\\_", "_")] = float(cells[at])
    return out


def main() -> None:
    from scipy.stats import spearmanr

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-rev", required=True, help="git revision of the earlier run's tables")
    ap.add_argument("--measure", default="macro-F1", help="the leaderboards' column 'rank <m>'")
    ap.add_argument("--learners", default="linearsvc,logreg,mnb")
    ap.add_argument("--out", default=str(REPO / "benchmarks/results/ranking_change.json"))
    args = ap.parse_args()
    result = {"old_rev": args.old_rev, "measure": args.measure, "learners": {}}
    for learner in args.learners.split(","):
        rel = f"reports/tables/benchmark_{learner}.tex"
        old = ranks(subprocess.run(["git", "show", f"{args.old_rev}:{rel}"], cwd=REPO, check=True,
                                   capture_output=True, text=True).stdout, args.measure)
        new = ranks((REPO / rel).read_text(), args.measure)
        common = sorted(set(old) & set(new))
        rho = spearmanr([old[w] for w in common], [new[w] for w in common]).statistic
        moves = sorted(common, key=lambda w: new[w] - old[w])
        result["learners"][learner] = {
            "weightings": len(common), "spearman": round(float(rho), 3),
            "top5_old": sorted(old, key=old.get)[:5], "top5_new": sorted(new, key=new.get)[:5],
            "up": [(w, old[w], new[w]) for w in moves[:5]],
            "down": [(w, old[w], new[w]) for w in moves[::-1][:5]]}
        print(learner, result["learners"][learner]["spearman"], flush=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
