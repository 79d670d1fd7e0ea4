"""The workflow as a whole: ``run`` (Snakemake on targets)."""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from termweight.runner.errors import TermweightError

log = logging.getLogger("termweight")


def find_root(start: Path) -> Path | None:
    """The checkout that holds ``start``: the nearest of ``start`` and its parents with a
    ``Snakefile`` and a ``params.yaml``; None outside one.

    Examples
    --------
    >>> find_root(Path("/")) is None
    True
    """
    start = Path(start).resolve()
    for d in (start, *start.parents):
        if (d / "Snakefile").is_file() and (d / "params.yaml").is_file():
            return d
    return None


def snakemake_command() -> list[str]:
    """How to start Snakemake: the ``snakemake`` beside this Python (its virtual environment),
    else the one on ``PATH``; a ModuleNotFoundError naming it when there is none."""
    here = Path(sys.executable).parent / "snakemake"
    if here.is_file():
        return [str(here)]
    found = shutil.which("snakemake")
    if found:
        return [found]
    raise ModuleNotFoundError("snakemake is not installed", name="snakemake")


def available_cores() -> int:
    """The CPUs this process may use (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def cmd_run(args) -> int:
    """Run Snakemake on targets in the checkout: ``snakemake --cores N [-n] [target ...]``.

    The targets are Snakefile rules or files: none is the default, ``all`` (every experiment of
    params.yaml, the headlines and the PDF report), ``papers`` every paper, ``esuli``, ``mukras``, ``forman``,
    ``kim``, ``ferreira`` one paper, ``experiments`` every experiment of params.yaml. The exit
    status is Snakemake's.
    """
    root = Path(args.root) if args.root else find_root(Path.cwd())
    if root is None or not (root / "Snakefile").is_file():
        where = args.root or f"{Path.cwd()} or a folder above it"
        raise TermweightError(f"no Snakefile in {where}: run inside the repository "
                              "(or give --root DIR)")
    cmd = [*snakemake_command(), "--cores", str(args.cores or available_cores())]
    if args.dry_run:
        cmd.append("-n")
    cmd += args.targets
    log.info("in %s: %s", root, shlex.join(cmd))
    sys.stdout.flush()
    return subprocess.run(cmd, cwd=root, check=False).returncode


def register(sub) -> None:
    """``run``."""
    p = sub.add_parser("run", help="run the pipeline: snakemake --cores N [target ...] in the "
                       "repository (default target: all)",
                       description=" ".join(cmd_run.__doc__.split()))
    p.add_argument("targets", nargs="*", metavar="target",
                   help="Snakemake targets: papers, esuli, mukras, forman, kim, ferreira, "
                   "experiments, all, or a file (default: all)")
    p.add_argument("--cores", type=int, metavar="N",
                   help="CPU cores Snakemake may use (default: the CPUs available)")
    p.add_argument("-n", "--dry-run", action="store_true",
                   help="only show what would run (snakemake -n)")
    p.add_argument("--root", help="the checkout (default: the current directory or the nearest "
                   "folder above it with a Snakefile and a params.yaml)")
    p.set_defaults(func=cmd_run)
