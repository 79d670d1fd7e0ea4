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

#: runner code (termweight.pipeline.codedeps): it chooses which copy runs, not what it computes
RUNNER = True

#: set in the environment of the re-run, so that it never loops
REEXEC_ENV = "TERMWEIGHT_OWN_SRC"


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
    imported = Path(__file__).resolve().parent
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
