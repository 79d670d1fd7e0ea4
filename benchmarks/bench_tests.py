"""Wall time of the test suite and where it goes: the slowest tests, as `pytest --durations` shows.

    python benchmarks/bench_tests.py [--label NAME] [--out FILE] [-- PYTEST ARGS ...]
    python benchmarks/bench_tests.py --from-junit A.xml [B.xml ...] --wall SECONDS [--out FILE]

The first form runs `python -m pytest PYTEST ARGS` in this checkout (with `--junitxml` added) and
records its wall time, exit code, outcome counts, the 1-minute load average before the run (an idle
machine reads near 0) and the 30 slowest test phases (setup and call added; a shared project's
build counts in the setup of the first test that needs it). The second form summarises JUnit
files of runs made by hand: several files are parts of one suite run one after the other (a test
in more than one counts with its outcome where it ran, its times added); give the measured wall
time. Run it on an idle machine: the figures in README.md, CONTRIBUTING.md and
benchmarks/results/tests_*.json are its output.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def summarise(junit_files: list[Path], top: int = 30) -> dict:
    """Outcome counts, the summed test time and the ``top`` slowest tests of JUnit XML files."""
    cases: dict[str, tuple[str, float]] = {}  # a test in several files: the last file's run
    for path in junit_files:
        for case in ET.parse(path).iter("testcase"):
            name = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
            kind = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
            seconds = float(case.get("time", 0.0))
            if name in cases and kind == "skipped":
                seconds += cases[name][1]
                kind = cases[name][0]
            elif name in cases:
                seconds += cases[name][1]
            cases[name] = ({"failure": "failed"}.get(kind, kind), seconds)
    outcomes = Counter(kind for kind, _ in cases.values())
    times = [(seconds, name) for name, (_, seconds) in cases.items()]
    times.sort(reverse=True)
    return {"outcomes": dict(outcomes), "test_seconds_summed": round(sum(t for t, _ in times), 1),
            "slowest": [{"seconds": round(t, 2), "test": n} for t, n in times[:top]]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="suite")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--from-junit", nargs="+", type=Path)
    ap.add_argument("--wall", type=float, help="with --from-junit: the measured wall time (s)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--note", help="how the run was made (stored with the figures)")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args(argv)

    record = {"label": args.label, "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version()}}
    if args.note:
        record["note"] = args.note
    if args.from_junit:
        record |= {"command": "by hand (JUnit files given)", "wall_seconds": args.wall,
                   **summarise(args.from_junit, args.top)}
    else:
        with tempfile.TemporaryDirectory() as tmp:
            junit = Path(tmp) / "junit.xml"
            cmd = [sys.executable, "-m", "pytest", *args.pytest_args, f"--junitxml={junit}"]
            record["load_1min_before"] = round(os.getloadavg()[0], 2)
            start = time.monotonic()
            rc = subprocess.run(cmd, cwd=REPO, check=False).returncode
            wall = time.monotonic() - start
            record |= {"command": " ".join(["python -m pytest", *args.pytest_args]),
                       "exit_code": rc, "wall_seconds": round(wall, 1),
                       **summarise([junit], args.top)}
    text = json.dumps(record, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
