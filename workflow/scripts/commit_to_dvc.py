"""Record a finished Snakemake run's outputs in DVC's cache when they are exactly dvc.lock's.

Snakemake writes the same bytes as `dvc repro` (see README), so after a Snakemake run `dvc status`
typically differs from dvc.lock only by outputs being "not in cache". This script checks that this
is the ONLY difference (every dependency, parameter and output hash matches the lock) and then runs
`dvc commit`, which copies the outputs into the cache without recomputing anything; afterwards
`dvc repro` has nothing to do and `dvc push` can share the intermediates. Anything else (changed
params, stale outputs) is left alone with a note: then `dvc repro` decides what to rerun.

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
    if not status:
        return 0
    for stage, entries in status.items():
        for entry in entries:
            if not isinstance(entry, dict) or set(entry) != {"changed outs"} or any(
                    v != "not in cache" for v in entry["changed outs"].values()):
                print(f"commit_to_dvc: stage {stage} differs from dvc.lock ({entry}); not "
                      "committing. Run `dvc repro` to bring DVC up to date.", file=sys.stderr)
                return 0
    subprocess.run(["dvc", "commit", "--force", "--quiet"], check=True)
    print(f"commit_to_dvc: outputs of {len(status)} stages match dvc.lock; stored in the DVC cache.",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
