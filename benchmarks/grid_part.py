"""Compute the benchmark's grid in parts: the columns still missing or out of date, for at most
``--minutes``, then record what finished with DVC, ready to commit.

    python benchmarks/grid_part.py [--minutes 90] [--cores 2] [--dry-run]
    git add data/benchmark dvc.lock benchmarks/results && git commit -m "benchmark: N more columns"

A column is a small table kept in git (``cache: false`` in dvc.yaml), so a part computed in one
sitting is reused by the next: this script

1. builds the resolved settings and every benchmark dataset's splits and statistics (Snakemake;
   the splits and statistics are not in git);
2. asks ``dvc status`` which column stages (``benchmark_column@...``,
   ``benchmark_sensitivity_column@...``) are not up to date against ``dvc.lock``: a committed
   column whose inputs, code and parameters are unchanged is done, every other one is to do;
3. runs Snakemake on the columns to do, side by side on ``--cores``, and stops it (SIGTERM: a
   column is written whole or not at all) when ``--minutes`` have passed (an out-of-date table
   is deleted first, so only what this run wrote counts as finished);
4. records the finished columns, and the settings, splits and statistics they read, in
   ``dvc.lock``, and adds what each column cost (its ``--out-seconds`` side file) to
   ``benchmarks/results/benchmark_columns_seconds.csv``
   (``record``: what ``dvc commit --force`` does, with one collection of DVC's graph and one
   write of the lock file instead of one per stage), and prints how many columns are done and
   how many remain.

When none remain, ``dvc repro benchmark_report`` (or ``snakemake benchmark``) aggregates.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KINDS = {"benchmark_column": "data/benchmark/columns",
         "benchmark_sensitivity_column": "data/benchmark/sensitivity/columns"}


def sh(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv), cwd=REPO, check=True, text=True, **kw)


def kind_of(stage: str) -> str | None:
    """The column kind of a stage name: ``benchmark_column`` also for the stages generated per
    weighting's own code (``benchmark_column_mixch@...``), else None."""
    name = stage.split("@", 1)[0]
    return next((k for k in sorted(KINDS, key=len, reverse=True)
                 if name == k or name.startswith(k + "_")), None)


def column_file(stage: str) -> str:
    """``benchmark_column@tr11-tf-bns`` -> ``data/benchmark/columns/bench_tr11/tf-bns.csv``
    (dataset keys have no hyphen; weighting names may)."""
    item = stage.split("@", 1)[1]
    dataset, weighting = item.split("-", 1)
    return f"{KINDS[kind_of(stage)]}/bench_{dataset}/{weighting}.csv"


def seconds_file(stage: str) -> str:
    """The column's measured seconds (``--out-seconds``), written after its table."""
    return column_file(stage).replace("/columns/", "/seconds/").removesuffix(".csv") + ".json"


def column_stages() -> list[str]:
    names = sh("dvc", "stage", "list", "--name-only", capture_output=True).stdout.split()
    return sorted(n for n in names if "@" in n and kind_of(n))


def datasets() -> list[str]:
    import yaml

    params = yaml.safe_load((REPO / "params.yaml").read_text())
    return list(params["benchmark"]["datasets"])


def stale(stages: list[str]) -> set[str]:
    """Those of ``stages`` that ``dvc status`` reports as not up to date (a missing table
    included). One status of the whole project: naming 900 stages makes DVC collect its graph
    once per stage."""
    out = sh("dvc", "status", "--json", capture_output=True).stdout
    return set(json.loads(out or "{}")) & set(stages)


def record(names: list[str]) -> int:
    """Record the stages ``names`` in ``dvc.lock`` as ``dvc commit --force`` does (hash each
    stage's dependencies and outputs, store cached outputs, write its lock entry), with DVC's
    own functions, collecting the graph and rewriting the lock file once: ``dvc commit`` given
    250 stages rewrote the file once per stage (69 stages in 10 minutes). The number recorded."""
    from dvc.repo import Repo
    from dvc.stage.serialize import to_lockfile
    from dvc.utils.serialize import dump_yaml, load_yaml

    from termweight.runner.io import atomic_path

    wanted = set(names)
    with Repo(str(REPO)) as repo, repo.lock:
        stages = [s for s in repo.index.stages if s.addressing in wanted]
        missing = wanted - {s.addressing for s in stages}
        if missing:
            raise SystemExit(f"dvc.yaml: no stage {sorted(missing)[0]!r}")
        lock = load_yaml(REPO / "dvc.lock")
        for stage in stages:
            stage.save(allow_missing=False)
            stage.commit()
            lock["stages"].update(to_lockfile(stage))
        with atomic_path(REPO / "dvc.lock") as tmp:
            dump_yaml(tmp, lock)
    return len(stages)


SECONDS_CSV = "benchmarks/results/benchmark_columns_seconds.csv"


def gather_seconds() -> int:
    """Add what each column of this checkout cost (its ``--out-seconds`` file, a side file next
    to the column, not a result) to ``SECONDS_CSV``, a row per (kind, dataset, weighting),
    replacing that column's earlier row: the committed, dated measurement the report's cost
    table reads. The number of columns gathered."""
    import datetime

    import pandas as pd

    today = datetime.date.today().isoformat()
    rows = []
    for stage in column_stages():
        path = REPO / seconds_file(stage)
        if not path.exists():
            continue
        s = json.loads(path.read_text())
        dataset, weighting = stage.split("@", 1)[1].split("-", 1)
        rows.append({"kind": "sensitivity" if "sensitivity" in kind_of(stage) else "grid",
                     "dataset": dataset, "weighting": weighting, "splits": s["splits"],
                     "command_wall_s": s["command_wall_s"], "command_cpu_s": s["command_cpu_s"],
                     **{f"{k}_wall_s": v for k, v in s["wall_s"].items()},
                     **{f"{k}_cpu_s": v for k, v in s["cpu_s"].items()}, "measured": today})
    if not rows:
        return 0
    new = pd.DataFrame(rows)
    out = REPO / SECONDS_CSV
    if out.exists():
        old = pd.read_csv(out)
        key = ["kind", "dataset", "weighting"]
        old = old[~old.set_index(key).index.isin(new.set_index(key).index)]
        new = pd.concat([old, new], ignore_index=True)
    new = new.sort_values(["kind", "dataset", "weighting"], kind="stable")
    new.to_csv(out, index=False, float_format="%.3f")
    return len(rows)


def run_for(argv: list[str], seconds: float) -> int | None:
    """Run ``argv``; SIGTERM it after ``seconds``. Its exit code, None when stopped."""
    proc = subprocess.Popen(argv, cwd=REPO)
    try:
        return proc.wait(timeout=max(seconds, 1))
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=90.0)
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--dry-run", action="store_true", help="say what is to do, run nothing")
    ap.add_argument("--gather", action="store_true",
                    help="only add the columns' measured seconds to " + SECONDS_CSV)
    args = ap.parse_args()
    if args.gather:
        print(f"{gather_seconds()} columns' seconds in {SECONDS_CSV}")
        return
    t0 = time.monotonic()
    prep = ["data/benchmark/settings.json", *(f"data/benchmark/stats/bench_{d}"
                                              for d in datasets())]
    if not args.dry_run:
        sh("snakemake", "--cores", str(args.cores), *prep)
    stages = column_stages()
    todo = sorted(stale(stages))
    print(f"{len(stages) - len(todo)} of {len(stages)} columns up to date; {len(todo)} to do",
          flush=True)
    if args.dry_run or not todo:
        return
    for s in todo:  # an out-of-date table is no result: never recorded as one
        (REPO / column_file(s)).unlink(missing_ok=True)
        (REPO / seconds_file(s)).unlink(missing_ok=True)
    budget = args.minutes * 60 - (time.monotonic() - t0)
    rc = run_for(["snakemake", "--cores", str(args.cores), "--keep-going",
                  *[column_file(s) for s in todo]], budget)
    for parts in REPO.glob("data/benchmark/**/.*.csv.parts"):  # a stopped job's
        shutil.rmtree(parts)
    finished = [s for s in todo if (REPO / column_file(s)).exists()
                and (REPO / seconds_file(s)).exists()]
    for s in todo:  # stopped between its table and its seconds: not finished
        if s not in finished:
            (REPO / column_file(s)).unlink(missing_ok=True)
    if finished:
        upstream = ["benchmark_settings", *(f"benchmark_{k}@{d}" for d in datasets()
                                            for k in ("split", "stats"))]
        record(upstream + finished)
    print(f"{gather_seconds()} columns' seconds in {SECONDS_CSV}", flush=True)
    left = stale(stages)
    print(f"{'stopped after the time budget' if rc is None else f'snakemake exit {rc}'}: "
          f"{len(finished)} columns finished now, {len(stages) - len(left)} of {len(stages)} "
          f"up to date, {len(left)} to do", flush=True)
    if rc not in (None, 0):
        sys.exit(rc)


if __name__ == "__main__":
    main()
