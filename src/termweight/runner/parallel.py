"""The worker pool of the CLI's per-split steps: ``fn(item)`` for every item, in forked processes.

Every item writes its own files (atomically), so the outputs are the same bytes whatever the number
of processes. Bad input in a worker (a ``TermweightError``) and an OS error
(a full disk, a read-only or missing directory, an output path that is a file) come back as the
same one-line error, naming the file, that one process gives; any other exception (a bug) as a
``RuntimeError`` carrying the worker's traceback.
"""

from __future__ import annotations

import logging
import os
import sys
import time

from termweight.runner.errors import TermweightError, os_error_line

_TASK: tuple | None = None  # (function, items) handed to forked workers

#: the step's name in progress lines (set by the CLI)
LABEL = "termweight"
#: a step still running after this many seconds reports progress, then at most every EVERY
PROGRESS_AFTER = 60.0
PROGRESS_EVERY = 30.0


class Progress:
    """Items done of the total and the time elapsed, on stderr (the terminal, under Snakemake or
    DVC) and in the step's log, once the step has run ``PROGRESS_AFTER`` seconds."""

    def __init__(self, total: int):
        self.total, self.done, self.t0, self.last = total, 0, time.monotonic(), None

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        elapsed = now - self.t0
        if elapsed < PROGRESS_AFTER or (self.last is not None and now - self.last < PROGRESS_EVERY
                                        and self.done < self.total):
            return
        self.last = now
        minutes, seconds = divmod(int(elapsed), 60)
        line = (f"{LABEL}: {self.done} of {self.total} done, "
                f"{f'{minutes} min ' if minutes else ''}{seconds} s elapsed")
        print(line, file=sys.stderr, flush=True)
        if any(isinstance(h, logging.FileHandler) for h in logging.getLogger().handlers):
            logging.getLogger("termweight.progress").info(line)


def workers(jobs: int | None, n_items: int) -> int:
    """Processes to use: ``jobs`` (default: the CPUs this process may use), at most ``n_items``."""
    want = jobs or len(os.sched_getaffinity(0))
    return max(1, min(want, n_items))


def _run_task(i: int):
    fn, items = _TASK
    try:
        fn(items[i])
    except TermweightError as exc:
        return ("error", str(exc))
    except OSError as exc:  # what the CLI reports for one process: "<file>: <reason>"
        return ("error", os_error_line(exc))
    except BaseException:  # noqa: BLE001 - a bug: its traceback goes back to the parent
        import traceback

        return ("crash", traceback.format_exc())
    return None


def _indexed(i: int):
    return i, _run_task(i)


def for_each(jobs: int | None, fn, items) -> None:
    """``fn(item)`` for every item, in up to ``jobs`` forked processes (default: the CPUs this
    process may use); one process runs them in this process, in order."""
    global _TASK
    items = list(items)
    n = workers(jobs, len(items))
    progress = Progress(len(items))
    if n == 1:
        for item in items:
            fn(item)
            progress.step()
        return
    import multiprocessing

    _TASK = (fn, items)
    results = [None] * len(items)
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            for i, r in pool.imap_unordered(_indexed, range(len(items)), chunksize=1):
                results[i] = r
                progress.step()
    finally:
        _TASK = None
    for r in results:
        if r is not None and r[0] == "error":
            raise TermweightError(r[1])
    for r in results:
        if r is not None:
            raise RuntimeError(f"a worker process failed:\n{r[1]}")
