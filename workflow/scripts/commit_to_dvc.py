"""Record a finished Snakemake run's outputs in DVC's cache when they are exactly dvc.lock's.

Snakemake writes the same bytes as `dvc repro` (see README), so after a Snakemake run `dvc status`
typically differs from dvc.lock only by outputs being "not in cache". This script checks that this
is the ONLY difference (every dependency, parameter and output hash matches the lock) and then runs
`dvc commit` on those stages, which copies their outputs into the cache without recomputing
anything; afterwards `dvc repro` has nothing to do for them and `dvc push` can share the
intermediates. Stages with any other difference (changed params, stale outputs, never locked) are
left alone with a note: there `dvc repro` decides what to rerun.

Run by the Snakefile's `onsuccess` handler; a no-op outside a DVC project or without dvc.lock.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path


def main() -> int:
    if not Path(".dvc").is_dir() or not Path("dvc.lock").exists() or not shutil.which("dvc"):
        return 0
    res = subprocess.run(["dvc", "status", "--json"], capture_output=True, text=True)
    if res.returncode != 0:
        print(f"commit_to_dvc: dvc status failed: {res.stderr.strip()}", file=sys.stderr)
        return 0
    status = json.loads(res.stdout or "{}")
    cacheable, other = [], []
    for stage, entries in status.items():
        only_cache = all(
            isinstance(e, dict) and set(e) == {"changed outs"}
            and all(v == "not in cache" for v in e["changed outs"].values()) for e in entries)
        (cacheable if only_cache else other).append(stage)
    if cacheable:
        subprocess.run(["dvc", "commit", "--force", "--quiet", *cacheable], check=True)
        print(f"commit_to_dvc: {len(cacheable)} stages match dvc.lock; their outputs are now in "
              "the DVC cache.", file=sys.stderr)
    if other:
        print(f"commit_to_dvc: {len(other)} stages differ from dvc.lock or were never locked "
              f"({', '.join(sorted(other)[:5])}{', ...' if len(other) > 5 else ''}); left to "
              "`dvc repro`.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
