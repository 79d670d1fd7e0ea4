"""The one command-line interface the workflow calls: ``python -m termweight <sub-command> ...``.

A thin dispatcher: it builds the parser from the modules that define ``register(subparsers)`` --
the generic pipeline steps of :mod:`termweight.steps` (``list``, ``prepare`` ... ``headlines``,
in the order of :data:`termweight.steps.MODULES`) and the papers' steps of
:mod:`termweight.experiments` (``<paper>-<step>``) -- sets up logging and runs the step. Errors
are reported as one line naming the file or key at fault, with exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import textwrap
import time
from pathlib import Path

from termweight.errors import TermweightError, one_line, os_error_line

log = logging.getLogger("termweight")

DESCRIPTION = ("termweight's command-line interface. Each sub-command is one step of the pipeline "
               "(raw files -> documents -> tokens -> corpus -> splits -> statistics -> scores -> "
               "encoded matrices -> models -> predictions -> metrics -> tables and figures); "
               "Snakemake and DVC call them from workflow/rules and dvc.yaml. 'list' shows the "
               "datasets, metrics, encodings, learners and experiments. Bad input is one line "
               "naming the file or key, exit status 2.")
EPILOG = """examples:
  python -m termweight list datasets             the datasets and what they are
  python -m termweight list experiments          the experiments of params.yaml, the papers
  python -m termweight prepare --dataset bbc --out data/documents/bbc
  python -m termweight report-summary --readme README.md
  python -m termweight <sub-command> --help      the options of one step

The whole pipeline: snakemake --cores 2 (or dvc repro). More: docs/cli.md, docs/workflow.md."""


def _command_of(argv) -> str | None:
    """The sub-command named in ``argv`` (the first token that is not a global option)."""
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--log":
            i += 2
        elif tok.startswith("-"):
            i += 1
        else:
            return tok
    return None


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The CLI; for a paper's step only that paper's modules are imported (faster start-up)."""
    from termweight import __version__, steps

    ap = argparse.ArgumentParser(prog="termweight", description=textwrap.fill(DESCRIPTION, 79),
                                 epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="version", version=f"termweight {__version__}",
                    help="print the version and exit")
    ap.add_argument("--log", help="write progress and timings to this file instead of stderr "
                    "(errors still go to stderr)")
    ap.add_argument("-v", "--verbose", action="store_true", help="log debug messages too")
    sub = ap.add_subparsers(dest="command", required=True, metavar="<sub-command>",
                            help="one step (or 'list'); '<sub-command> --help' shows its options")
    for name in steps.MODULES:
        importlib.import_module(f"termweight.steps.{name}").register(sub)
    argv = sys.argv[1:] if argv is None else argv
    command = _command_of(argv)
    if command is None and ("--version" in argv):
        return ap  # nothing else to show: skip importing every paper's module
    if command not in sub.choices:
        _register_experiments(sub, command)
    return ap


def _register_experiments(sub, command: str | None = None) -> None:
    """Add the sub-commands of the ``termweight.experiments`` modules that define ``register``.

    ``command`` ``<paper>-<step>`` imports only ``<paper>`` and ``<paper>_report`` (``report*``:
    the report module); anything else (``--help``, a typo) imports them all, to list them.
    """
    import pkgutil

    from termweight import experiments

    names = sorted(info.name for info in pkgutil.iter_modules(experiments.__path__))
    if command:
        paper = "report" if command.startswith("report") else command.split("-")[0]
        wanted = [n for n in names if n in (paper, f"{paper}_report")]
        names = wanted or names
    for name in names:
        module = importlib.import_module(f"termweight.experiments.{name}")
        if hasattr(module, "register"):
            module.register(sub)


def _fail(args, message: str) -> int:
    """Report bad input as one line on stderr (and in the --log file); exit status 2."""
    message = one_line(message, 2000)
    if args.log:  # without --log the log handler IS stderr: print the line once
        log.error("%s", message)
    print(f"termweight {args.command}: error: {message}", file=sys.stderr)
    return 2


#: import names of the packages of the ``workflow`` extra (pyproject.toml), which the steps need
WORKFLOW_MODULES = frozenset({"pandas", "pyarrow", "matplotlib", "Stemmer", "jsonschema", "yaml",
                              "snakemake", "dvc", "scikit_posthocs", "statsmodels"})


def _missing_extra(exc: ModuleNotFoundError) -> int:
    """One line for a core-only install running a pipeline step; other missing modules raise."""
    if (exc.name or "").split(".")[0] not in WORKFLOW_MODULES:
        raise exc
    print(f"termweight: error: the command line needs {exc.name.split('.')[0]}, one of the "
          "pipeline's packages: pip install 'termweight[workflow]'", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    """Run one step. Bad input (a :class:`TermweightError`, or a file the OS refuses to open,
    read or write) is ONE line on stderr naming the file, exit status 2; never a traceback.
    A core-only install (no ``workflow`` extra) gets one line saying what to install."""
    try:
        return _main(argv)
    except ModuleNotFoundError as exc:
        return _missing_extra(exc)


def _main(argv=None) -> int:
    args = build_parser(argv).parse_args(argv)
    t0 = time.perf_counter()
    try:
        # With --log, progress goes to that file only (a workflow's per-rule log); errors are
        # also printed to stderr.
        if args.log:
            Path(args.log).parent.mkdir(parents=True, exist_ok=True)
            handlers: list[logging.Handler] = [logging.FileHandler(args.log, mode="w",
                                                                   encoding="utf-8")]
        else:
            handlers = [logging.StreamHandler(sys.stderr)]
        logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                            handlers=handlers, force=True,
                            format="%(asctime)s %(name)s %(levelname)s %(message)s")
        args.func(args)
    except TermweightError as exc:
        return _fail(args, str(exc))
    except BrokenPipeError:  # the reader went away (`termweight list metrics | head -1`): no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush
        return 0
    except OSError as exc:  # e.g. an input that is missing or a directory, a full disk
        return _fail(args, os_error_line(exc))
    if args.command != "list":  # its output is the list, nothing else
        log.info("%s done in %.2f s", args.command, time.perf_counter() - t0)
    return 0
