"""How many expanded DVC stages an edit to each module of src/termweight would stale.

With code digests (termweight.pipeline.codedigest) a stage is counted when its digest lists the
module: an edit to the module's import-time code reruns it (a comment or docstring edit reruns
only the digest stages, which are not counted). The digests are per definition, so an edit to one
function reruns only the stages whose walk reaches it: ``by_definition`` gives, per module, the
most and the median stages that an edit to one of its top-level functions, classes or constants
stales, and ``definition_stales`` a few named ones. ``code_entries`` counts every dependency on
code, digests included.

Reads the stages as DVC expands them (``Repo(".").index.stages``: every ``foreach`` and
``matrix`` item of dvc.yaml) and counts, per file of ``src/termweight``, the stages that list
it as a dependency. Also prints the code entries per stage and the size of dvc.lock.

    python benchmarks/stale_table.py                      # the table
    python benchmarks/stale_table.py --json out.json --label after

The JSON file keeps one entry per ``--label`` (``before``, ``after``), so both sit side by side.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import time
from collections import Counter
from pathlib import Path


def measure() -> dict:
    from dvc.repo import Repo

    from termweight.pipeline.codedigest import STAGE_PREFIX
    from termweight.pipeline.dvcyaml import digested_code

    t0 = time.perf_counter()
    stages = list(Repo(".").index.stages)
    collect_s = time.perf_counter() - t0
    per_file: Counter[str] = Counter()
    code_entries = 0
    cmds = {s.name: {"cmd": s.cmd} for s in stages if s.name.startswith(STAGE_PREFIX)}
    for stage in stages:
        code_entries += sum(str(d.def_path).startswith(("src/", "data/code/"))
                            for d in stage.deps)
        if stage.name.startswith(STAGE_PREFIX):
            continue
        # an edit to a module reruns the stages whose code digest lists it (and its digest
        # stages, which are not counted); before the digests, the stages that listed it
        code = {str(d.def_path) for d in stage.deps if str(d.def_path).startswith("src/")}
        per_file.update(code | set(digested_code(cmds, stage.name)))
    modules = sorted(str(p) for p in Path("src/termweight").rglob("*.py"))
    by_def = _by_definition(stages, cmds)
    lock = Path("dvc.lock")
    return {
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip(),
        "date": datetime.date.today().isoformat(),
        "stages": len([s for s in stages if not s.name.startswith(STAGE_PREFIX)]),
        "digest_stages": len([s for s in stages if s.name.startswith(STAGE_PREFIX)]),
        "code_entries": code_entries,
        "code_entries_per_stage": round(code_entries / len(stages), 1),
        "dvc_lock_bytes": lock.stat().st_size if lock.exists() else None,
        "index_collect_seconds": round(collect_s, 1),
        "stales": {m: per_file.get(m, 0) for m in modules},
        "by_definition": {m: by_def.get(m, {"max": 0, "median": 0}) for m in modules},
        "definition_stales": {k: by_def["_named"].get(k, 0) for k in NAMED},
    }


#: definitions whose count the docs quote: a weighting's metric, the metric table (whole: the
#: papers' scoring steps), the column, the encoder
NAMED = ("src/termweight/scoring.py:bns", "src/termweight/scoring.py:METRICS",
         "src/termweight/steps/column.py:cmd_column", "src/termweight/steps/features.py:encode_split",
         "src/termweight/settings.py:learner_C")


def _by_definition(stages, cmds) -> dict:
    """Per module: the most and the median expanded stages an edit to one of its top-level
    definitions stales (a stage counts when its digest's walk reaches the definition)."""
    import statistics

    from termweight.pipeline.codedeps import _modules, _parse, parse_specs, reached
    from termweight.pipeline.codedigest import STAGE_PREFIX

    per_base = Counter(s.name.split("@", 1)[0] for s in stages
                       if not s.name.startswith(STAGE_PREFIX))
    counts: Counter[tuple[str, str]] = Counter()
    for name, c in cmds.items():
        words = c["cmd"].split()
        entries = [words[i + 1] for i, w in enumerate(words) if w == "--entry"]
        n = per_base.get(name[len(STAGE_PREFIX):], 0)
        for path, names in reached(*parse_specs(entries)).items():
            mod = _parse(_module_of(path, _modules()))
            for d in (set(mod.defs) | set(mod.constants)) if names is None else names:
                counts[(path, d)] += n
    out: dict = {"_named": {f"{p}:{d}": n for (p, d), n in counts.items()}}
    for path in {p for p, _ in counts}:
        mod = _parse(_module_of(path, _modules()))
        values = [counts.get((path, d), 0) for d in set(mod.defs) | set(mod.constants)]
        out[path] = {"max": max(values, default=0),
                     "median": int(statistics.median(values)) if values else 0}
    return out


def _module_of(path: str, modules: dict) -> str:
    return next(m for m, p in modules.items() if str(p).endswith(path.removeprefix("src/")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="add the measurement to this file under --label")
    ap.add_argument("--label", default="now")
    args = ap.parse_args()
    m = measure()
    width = max(len(k) for k in m["stales"])
    for module, n in sorted(m["stales"].items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{module:<{width}}  {n:5d}")
    print(f"{m['stages']} stages, {m['code_entries']} code entries "
          f"({m['code_entries_per_stage']} per stage), dvc.lock {m['dvc_lock_bytes']:,} bytes")
    if args.json:
        path = Path(args.json)
        data = json.loads(path.read_text()) if path.exists() else {}
        data[args.label] = m
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
