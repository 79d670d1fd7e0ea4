"""The README's run command on a fresh clone: jobs, wall time and CPU time of `snakemake --cores 2`.

    python benchmarks/bench_quickstart.py [--rev REV ...] [--out benchmarks/results/quickstart.json]

For each revision (default: HEAD) it makes a fresh `git clone` of this repository into a temporary
directory with ../shared beside it, runs the README's run command after the install step (the
environment running this script must have the project installed, as the README's install does)
and records the number of jobs Snakemake ran, the wall time, the CPU time of all child processes
(user + sys, from getrusage), the 1-minute load average before the run (an idle machine reads
near 0) and the committed files the run rewrote (`git status`). Run it on an idle machine: the
figures in the README are its output.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def measure(rev: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if (REPO.parent / "shared").is_dir():
            (base / "shared").symlink_to(REPO.parent / "shared")
        clone = base / "main"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", rev], check=True)
        # the revision's own code (not the installed checkout's): its src/ first on the path
        env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                   PYTHONPATH=str(clone / "src"))
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = subprocess.run(["snakemake", "--cores", "2"], cwd=clone, env=env,
                             capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        log = res.stdout + res.stderr
        again = subprocess.run(["snakemake", "-n", "--cores", "2"], cwd=clone, env=env,
                               capture_output=True, text=True)
        jobs = re.search(r"^(\d+) of \1 steps \(100%\) done", log, re.M)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=clone, capture_output=True, text=True).stdout.split("\n")
        return {
            "rev": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", rev],
                                  capture_output=True, text=True).stdout.strip(),
            "exit_code": res.returncode,
            "jobs": int(jobs.group(1)) if jobs else None,
            "wall_s": round(wall, 1),
            "cpu_s": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 1),
            "load_1min_before": round(load, 2),
            "second_run_nothing_to_do": "Nothing to be done" in again.stdout + again.stderr,
            "files_changed": sorted(line[3:] for line in dirty if line.strip()),
        }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", nargs="+", default=["HEAD"], help="revisions to measure (default: HEAD)")
    ap.add_argument("--out", help="write the results as JSON here")
    args = ap.parse_args(argv)
    runs = []
    for rev in args.rev:
        runs.append(measure(rev))
        print(json.dumps(runs[-1]), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": datetime.now(UTC).strftime("%Y-%m-%d"), "machine": f"{os.cpu_count()} cores, "
            f"{platform.machine()}, Python {platform.python_version()}",
            "command": "snakemake --cores 2 (fresh clone, after install)", "runs": runs},
            indent=2) + "\n")
    return 0 if all(r["exit_code"] == 0 for r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
