"""Where the benchmark grid's time and disk go, from a project's column logs.

    python benchmarks/summarise_grid.py PROJECT [--time FILE ...]
                                        [--out benchmarks/results/benchmark_tuned_grid.json]

Each ``benchmark-column`` job logs one line per split and learner (the seconds of the tuned fit,
the decisions and the metrics) and its own time (``done in``). This sums them per dataset and per
learner, lists the slowest columns, counts the columns done, and measures ``data/benchmark`` on
disk. ``--time``: the reports of GNU ``/usr/bin/time -v`` around each ``snakemake`` segment of
the run (wall clock, CPU seconds and the largest process's peak resident memory), summed (wall,
CPU) or maximised (memory) over the segments.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_FIT = re.compile(r"split \S+, \S+, (\w+): .* in ([\d.]+) s$", re.M)
_DONE = re.compile(r"done in ([\d.]+) s")


def job_seconds(log_text: str) -> float | None:
    """A finished ``benchmark-column`` job's own seconds (its log's ``done in`` line); None for a
    job still running, or stopped."""
    done = _DONE.search(log_text)
    return None if done is None else float(done.group(1))


def _clock(text: str) -> float:
    """``h:mm:ss`` or ``m:ss.ss`` -> seconds."""
    parts = [float(x) for x in text.split(":")]
    return sum(v * 60 ** i for i, v in enumerate(reversed(parts)))


def time_report(path: Path) -> dict:
    """Wall seconds, CPU seconds and peak RSS (MB) of one ``/usr/bin/time -v`` report."""
    text = path.read_text()

    def field(name):
        return re.search(rf"{re.escape(name)}: (.+)", text).group(1).strip()

    return {"wall_s": round(_clock(field("Elapsed (wall clock) time (h:mm:ss or m:ss)")), 1),
            "cpu_s": round(float(field("User time (seconds)"))
                           + float(field("System time (seconds)")), 1),
            "peak_rss_mb": round(int(field("Maximum resident set size (kbytes)")) / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", type=Path)
    ap.add_argument("--time", nargs="*", type=Path, default=[])
    ap.add_argument("--out", default=str(REPO / "benchmarks/results/benchmark_tuned_grid.json"))
    args = ap.parse_args()
    datasets: dict[str, dict] = {}
    learners: dict[str, float] = {}
    columns = []
    for log in sorted((args.project / "logs/benchmark/column").glob("bench_*.log")):
        text = log.read_text()
        seconds = job_seconds(text)
        if seconds is None:  # a job still running, or stopped
            continue
        name = log.stem.removeprefix("bench_")
        dataset = next(d for d in sorted(_datasets(args.project), key=len, reverse=True)
                       if name.startswith(f"{d}_"))
        d = datasets.setdefault(dataset, {"columns": 0, "job_s": 0.0})
        d["columns"] += 1
        d["job_s"] = round(d["job_s"] + seconds, 1)
        for learner, sec in _FIT.findall(text):
            learners[learner] = round(learners.get(learner, 0.0) + float(sec), 1)
        columns.append((seconds, dataset, name[len(dataset) + 1:]))
    disk = sum(f.stat().st_size for f in (args.project / "data/benchmark").rglob("*")
               if f.is_file())
    segments = [time_report(p) for p in args.time]
    result = {
        "columns_done": len(columns), "job_s": round(sum(c[0] for c in columns), 1),
        "datasets": datasets, "learner_fit_s": learners,
        "slowest": [{"dataset": d, "weighting": w, "s": s}
                    for s, d, w in sorted(columns, reverse=True)[:10]],
        "data_benchmark_mb": round(disk / 1e6, 1), "segments": segments,
        "wall_s": round(sum(s["wall_s"] for s in segments), 1),
        "cpu_s": round(sum(s["cpu_s"] for s in segments), 1),
        "peak_rss_mb": max((s["peak_rss_mb"] for s in segments), default=None)}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("datasets", "slowest")}))


def _datasets(project: Path) -> list[str]:
    import yaml

    return list(yaml.safe_load((project / "params.yaml").read_text())["benchmark"]["datasets"])


if __name__ == "__main__":
    main()
