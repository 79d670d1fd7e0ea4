"""Land a part of the benchmark's grid computed in a fresh clone (``grid_part.py`` there) in
this checkout: its finished columns, their lock entries and their measured seconds.

    python benchmarks/land_part.py /path/to/clone
    git add data/benchmark dvc.lock benchmarks/results && git commit -m "benchmark: part N"

For every column stage the clone's ``dvc.lock`` records whose table is in the clone:

- the entry must be this checkout's command (not an older run's entry the clone kept), and the
  stage must compute with the same code here (the clone's ``data/code/<stage>.json`` equal to
  this checkout's) and read the same settings (``data/benchmark/settings.json``), else it is
  refused: a column is landed only where it would be up to date;
- the table is copied, and the lock entry too, keeping only the outputs this checkout's
  ``dvc.yaml`` declares for the stage (the column's measured seconds were an output in the
  clone's commit and are a side file here);
- the stages it read (the settings, the dataset's splits and statistics) are landed with it.

Then the columns' ``--out-seconds`` side files are copied and gathered into
``benchmarks/results/benchmark_columns_seconds.csv`` (``grid_part.gather_seconds``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import grid_part  # noqa: E402


def land(clone: Path) -> dict[str, int]:
    from dvc.repo import Repo
    from dvc.utils.serialize import dump_yaml, load_yaml

    from termweight.io import atomic_path
    from termweight.pipeline.codedigest import digest_path

    theirs = load_yaml(clone / "dvc.lock")["stages"]
    lock = load_yaml(REPO / "dvc.lock")
    stages = {s.addressing: s for s in Repo(str(REPO)).index.stages}
    declared = {n: {str(o.def_path) for o in s.outs} for n, s in stages.items()}
    if (clone / "data/benchmark/settings.json").read_bytes() != \
            (REPO / "data/benchmark/settings.json").read_bytes():
        raise SystemExit("the clone's data/benchmark/settings.json differs from this checkout's")
    counts = {"columns": 0, "upstream": 0, "seconds": 0}
    datasets = set()
    for name, entry in theirs.items():
        if "@" not in name or not grid_part.kind_of(name) or name not in declared:
            continue
        table = grid_part.column_file(name)
        if not (clone / table).exists() or entry.get("cmd") != stages[name].cmd:
            continue  # not computed there, or recorded by another command (an older run)
        digest = digest_path(name)
        if (clone / digest).read_bytes() != (REPO / digest).read_bytes():
            raise SystemExit(f"{name}: its code differs here ({digest}); not landed")
        (REPO / table).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(clone / table, REPO / table)
        entry = dict(entry)
        entry["outs"] = [o for o in entry.get("outs", []) if o["path"] in declared[name]]
        lock["stages"][name] = entry
        counts["columns"] += 1
        datasets.add(name.split("@", 1)[1].split("-", 1)[0])
        seconds = grid_part.seconds_file(name)
        if (clone / seconds).exists():
            (REPO / seconds).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(clone / seconds, REPO / seconds)
            counts["seconds"] += 1
    for name in ["benchmark_settings", *(f"benchmark_{k}@{d}" for d in sorted(datasets)
                                         for k in ("split", "stats"))]:
        if name in theirs:
            lock["stages"][name] = theirs[name]
            counts["upstream"] += 1
    with atomic_path(REPO / "dvc.lock") as tmp:
        dump_yaml(tmp, lock)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("clone", type=Path, help="the clone that ran grid_part.py")
    c = land(ap.parse_args().clone.resolve())
    print(f"landed {c['columns']} columns ({c['seconds']} with their seconds) and "
          f"{c['upstream']} upstream stages; {grid_part.gather_seconds()} columns' seconds in "
          f"{grid_part.SECONDS_CSV}")


if __name__ == "__main__":
    main()
