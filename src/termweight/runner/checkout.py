"""Run the checkout's own code: a step started in a termweight checkout imports its ``src/``.

Both tools hash the files of the checkout they run in (``src/termweight/...`` in dvc.yaml and the
Snakemake rules). With one virtual environment and two clones, Python would import termweight
from wherever ``pip install -e`` pointed (the first clone) while the tools track the second's
files. ``python -m termweight`` started in a checkout whose ``src/termweight`` is not the package
Python imported runs itself again with that ``src/`` first on the path; if that still imports
another copy, it refuses in one line naming both paths (exit status 2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: set in the environment of the re-run, so that it never loops
REEXEC_ENV = "TERMWEIGHT_OWN_SRC"

#: OpenBLAS's kernel for every step on an x86-64 CPU with AVX2 and FMA: the same BLAS arithmetic on
#: every such machine. Liblinear's primal solver (logistic regression above C = 100) calls BLAS,
#: and under OpenBLAS's AVX-512 kernel (SkylakeX, which it picks by itself on AVX-512 CPUs) its
#: fits on R52 (binary-bns, the fixed split) gave another document accuracy (0.92640 against
#: 0.92601) than under the Haswell, Zen, Sandybridge and Prescott kernels, which agreed with the
#: committed column (measured 2026-12-03).
BLAS_KERNEL = "Haswell"


def pin_blas(environ=os.environ) -> None:
    """Pin OpenBLAS's kernel (``BLAS_KERNEL``, on x86-64 CPUs with AVX2 and FMA) and its threads
    (1: the steps run in parallel as processes) before numpy loads it, so that a result does not
    depend on the machine or ``--cores``. A value already in the environment is kept (and the
    build's provenance records the BLAS that ran); elsewhere nothing is set."""
    environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if "OPENBLAS_CORETYPE" in environ or "numpy" in sys.modules:
        return
    try:
        flags = next((line.split(":", 1)[1].split() for line in
                      Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("flags")), [])
    except OSError:
        return
    if {"avx2", "fma"} <= set(flags):
        environ["OPENBLAS_CORETYPE"] = BLAS_KERNEL


def checkout_source(cwd: Path | None = None) -> Path | None:
    """``<cwd>/src/termweight`` when the working directory is a termweight checkout (it has
    ``dvc.yaml`` or ``Snakefile`` and that package), else None."""
    cwd = Path.cwd() if cwd is None else cwd
    pkg = cwd / "src" / "termweight"
    if (pkg / "__init__.py").is_file() and ((cwd / "dvc.yaml").is_file()
                                           or (cwd / "Snakefile").is_file()):
        return pkg.resolve()
    return None


def run_own_source(argv: list[str]) -> None:
    """Re-execute ``python -m termweight argv`` under the checkout's own ``src/`` when the
    imported package is another copy; refuse (exit 2) when a re-run still imports another."""
    own = checkout_source()
    imported = Path(__file__).resolve().parent.parent  # termweight/
    if own is None or own == imported:
        return
    if os.environ.get(REEXEC_ENV):
        print(f"termweight: error: this checkout's code is {own}, but Python imports termweight "
              f"from {imported}: run `pip install -e .` here, or start Python without -I/-E",
              file=sys.stderr)
        raise SystemExit(2)
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, REEXEC_ENV: "1",
           "PYTHONPATH": os.pathsep.join([str(own.parent), *([path] if path else [])])}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "termweight", *argv], env)


#: the DVC run that holds this checkout (written under DVC's ``.dvc/tmp``, never committed)
DVC_RUN_FILE = ".dvc/tmp/termweight-dvc-run.json"


def _short(cmd: str) -> str:
    """``dvc repro x`` for ``/path/to/bin/dvc repro x``."""
    first, _, rest = str(cmd).partition(" ")
    return f"{Path(first).name} {rest}".strip()


def rwlock_entries(root: Path) -> list[dict]:
    """The processes DVC's ``.dvc/tmp/rwlock`` names (``{"pid": int, "cmd": str}`` each, writers
    and readers); none when the file is absent or unreadable."""
    import json

    try:
        info = json.loads((Path(root) / ".dvc/tmp/rwlock").read_text() or "{}")
    except (OSError, ValueError):
        return []
    entries = list(info.get("write", {}).values())
    for readers in info.get("read", {}).values():
        entries.extend(readers)
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("pid"), int)]


def _dvc_parent(root: Path):
    """The ``dvc`` process running this step and its command: the nearest ancestor that holds an
    entry in DVC's ``.dvc/tmp/rwlock`` (DVC records its PID and command there for every stage it
    runs, and releases its repository lock while the stage's command runs)."""
    import psutil

    cmds = {e["pid"]: _short(e.get("cmd", "dvc")) for e in rwlock_entries(root)}
    for proc in psutil.Process().parents():
        if proc.pid in cmds:
            return proc, cmds[proc.pid]
    return None, None


def claim_dvc_run(environ=os.environ) -> None:
    """Under DVC (``DVC_ROOT`` and ``DVC_STAGE`` set), make this step's ``dvc`` process the one DVC
    run of the checkout; refuse (one line, exit 2) when another live ``dvc`` process holds it.

    DVC unlocks the repository while a stage's command runs, so a second ``dvc repro`` (or
    ``dvc exp run``) on other targets can start meanwhile and the two runs interleave their
    ``dvc.lock`` updates. The first DVC process whose step gets here holds the checkout until it
    exits (its PID and start time are recorded in ``.dvc/tmp``); a step of any other ``dvc``
    process refuses before it reads or writes anything. Snakemake runs are refused by
    ``workflow/scripts/dvc_sync.py``.
    """
    root = environ.get("DVC_ROOT")
    if not root or not environ.get("DVC_STAGE"):
        return
    try:
        import fcntl
        import json

        import psutil
    except ImportError:  # not a POSIX system, or DVC without psutil: DVC's own locks only
        return
    root = Path(root)
    me, cmd = _dvc_parent(root)
    if me is None:
        return
    path = root / DVC_RUN_FILE
    with open(path.with_suffix(".lock"), "a") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)  # one claim at a time
        try:
            held = json.loads(path.read_text())
        except (OSError, ValueError):
            held = {}
        pid = held.get("pid") if isinstance(held, dict) else None
        if isinstance(pid, int) and pid != me.pid:
            try:
                alive = psutil.Process(pid).create_time() == held.get("started")
            except psutil.Error:
                alive = False
            if alive:
                print(f"termweight: error: `{held.get('cmd', 'dvc')}` (PID {pid}) is already "
                      f"running in this checkout ({root}); two DVC runs at once lose each other's "
                      "dvc.lock entries: wait for it to finish, then run this again",
                      file=sys.stderr)
                raise SystemExit(2)
        if pid != me.pid:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"pid": me.pid, "started": me.create_time(), "cmd": cmd}))
            os.replace(tmp, path)
