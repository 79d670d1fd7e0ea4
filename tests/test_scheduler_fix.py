"""workflow/scripts/scheduler_fix.py, on a real Snakemake run: one re-evaluation timer, not one per
finished job. With 40 one-core jobs queued behind each other, the unpatched scheduler leaves a
timer thread per finished job (it fails here once Snakemake fixes that: then the glue can go)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from workflow_utils import REPO, env

N_JOBS = 40

pytestmark = pytest.mark.slow


def peak_threads(root: Path, fix: str) -> int:
    proc = subprocess.Popen(["snakemake", "--cores", "1", "--quiet"], cwd=root,
                            env={**env(), "TERMWEIGHT_SCHEDULER_FIX": fix},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak, status = 0, Path(f"/proc/{proc.pid}/status")
    while proc.poll() is None:
        try:
            line = next(ln for ln in status.read_text().splitlines() if ln.startswith("Threads:"))
            peak = max(peak, int(line.split()[1]))
        except (FileNotFoundError, ProcessLookupError, StopIteration):
            pass
        time.sleep(0.05)
    assert proc.returncode == 0, proc.stderr.read()
    assert len(list((root / "o").iterdir())) == N_JOBS
    return peak


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_one_reevaluation_timer_instead_of_one_per_finished_job(tmp_path):
    (tmp_path / "Snakefile").write_text(f"""
import sys
sys.path.insert(0, {str(REPO / "workflow/scripts")!r})
import scheduler_fix
scheduler_fix.apply()

rule all:
    input: expand("o/{{i}}", i=range({N_JOBS}))

rule one:
    output: "o/{{i}}"
    shell: "sleep 0.1; touch {{output}}"
""")
    fixed = peak_threads(tmp_path, "1")
    for p in (tmp_path / "o").iterdir():
        p.unlink()
    unfixed = peak_threads(tmp_path, "0")
    assert fixed <= 10, fixed
    assert unfixed >= N_JOBS // 2, (
        f"unpatched Snakemake peaked at {unfixed} threads: it no longer keeps a timer per "
        "finished job, so workflow/scripts/scheduler_fix.py can be removed")
