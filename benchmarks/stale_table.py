"""How many expanded DVC stages an edit to each module of src/termweight would stale.

With code digests (termweight.pipeline.codedigest) a stage is counted when its digest lists the
module: a code edit reruns it (a comment or docstring edit reruns only the digest stages, which are
not counted). ``code_entries`` counts every dependency on code, digests included.

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
    }


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
