"""Workflow glue: keep Snakemake's scheduler from re-evaluating once per finished job per second.

Snakemake 9 (``snakemake/scheduling/job_scheduler.py``) ends every scheduling round by arming a
new ``threading.Timer(timespan)`` that releases the scheduler for another round (the
``--max-jobs-per-timespan`` rate limiter, default ``100/1s``). The rounds those timers start arm
timers of their own, so every finished job leaves one more chain behind. After N finished jobs
there are N timer threads, and N scheduling rounds run every second, each re-checking the size of
every ready job's inputs. Measured on the full benchmark (snakemake 9.27.1, 2 cores, 2026-11-22):
the Snakemake process itself used 33% of a core after 170 jobs (172 threads). Upstream reports the
same growth of threads and CPU in issue snakemake/snakemake#2967.

:func:`apply` keeps ONE pending re-evaluation per scheduler. A round that finds one pending adds
none: the pending timer starts a round within ``timespan`` anyway. The flag is cleared before the
timer releases the scheduler, so the round it starts can arm the next one. Job selection, the
rate limit and the outputs are unchanged, only the redundant rounds go. Without the private method
(another Snakemake) it does nothing. ``TERMWEIGHT_SCHEDULER_FIX=0`` turns it off
(``tests/test_scheduler_fix.py`` runs both ways).
"""

from __future__ import annotations

import os
import threading


def apply() -> bool:
    """Patch ``JobScheduler._schedule_reevalutation`` (sic) once; True if the patch is active."""
    if os.environ.get("TERMWEIGHT_SCHEDULER_FIX", "1") == "0":
        return False
    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:
        return False
    current = getattr(JobScheduler, "_schedule_reevalutation", None)
    if current is None:
        return False
    if getattr(current, "termweight_fix", False):
        return True
    lock = threading.Lock()

    def schedule_reevaluation(self, delay) -> None:
        with lock:
            if getattr(self, "_termweight_pending", False):
                return
            self._termweight_pending = True

        def fire():
            with lock:
                self._termweight_pending = False
            self._open_jobs.release()

        timer = threading.Timer(delay, fire)
        timer.daemon = True
        timer.start()

    schedule_reevaluation.termweight_fix = True
    JobScheduler._schedule_reevalutation = schedule_reevaluation
    return True
