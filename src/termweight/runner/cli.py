"""The one command-line interface: ``python -m termweight <command> ...`` (or ``termweight``).

A thin dispatcher for two audiences. A researcher runs the few commands of
``USER_COMMANDS`` (``run``, ``list``, ``report-summary``,
``version``); Snakemake and DVC call the pipeline
steps -- the generic ones of ``termweight.steps`` (``prepare`` ... ``headlines``, in the order of
``termweight.steps.MODULES``) and the papers' ones of ``termweight.experiments``
(``<paper>-<step>``). ``--help`` shows the two in separate sections, each paper's steps on one
line. The parser is built from the modules that define ``register(subparsers)``; a paper's step
imports only that paper's modules (fast start-up), ``--help`` imports them all. Errors are
reported as one line naming the file or key at fault, with exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import textwrap
import time
import warnings
from pathlib import Path

from termweight.runner.clihelp import STEPS_TITLE, USER_COMMANDS, WIDTH, WORKFLOW_MODULES  # noqa: F401
from termweight.runner.errors import TermweightError, one_line, os_error_line

log = logging.getLogger("termweight")
#: the start of FoldLeakageWarning's message (termweight.learners.protocol.cv_scores)
LEAKAGE_MESSAGE = "inner folds reuse col_weights"


USAGE = "termweight [-h] [--version] [--log LOG] [-v] <command> ..."
DESCRIPTION = ("termweight's command line. A researcher needs the commands below; the pipeline "
               "steps are what Snakemake (workflow/rules) and DVC (dvc.yaml) call, one per arrow "
               "of raw files -> documents -> tokens -> corpus -> splits -> statistics -> scores "
               "-> encoded matrices -> models -> predictions -> metrics -> tables and figures, "
               "and each can be run by hand. Bad input is one line naming the file or key, exit "
               "status 2.")
EPILOG = """examples:
  python -m termweight run --cores 2             the whole pipeline (snakemake --cores 2 all)
  python -m termweight run -n kim                what the paper target kim would run
  python -m termweight list datasets             the datasets, and whether their files are here
  python -m termweight list experiments          the experiments of params.yaml, the papers
  python -m termweight report-summary            the results table from reports/metrics
  python -m termweight <command> --help          the options of one command or step

More: docs/cli.md, docs/workflow.md, docs/datasets.md."""


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

    ap = argparse.ArgumentParser(prog="termweight", usage=USAGE,
                                 description=textwrap.fill(DESCRIPTION, WIDTH), epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="version", version=f"termweight {__version__}",
                    help="print the version and exit")
    ap.add_argument("--log", help="write progress and timings to this file instead of stderr "
                    "(errors still go to stderr)")
    ap.add_argument("-v", "--verbose", action="store_true", help="log debug messages too")
    # its choices are listed by the description (two sections), not as one long block
    sub = ap.add_subparsers(dest="command", required=True, metavar="<command>",
                            help=argparse.SUPPRESS, prog="termweight")  # `usage: termweight list`
    for name in steps.MODULES:
        importlib.import_module(f"termweight.steps.{name}").register(sub)
    argv = sys.argv[1:] if argv is None else argv
    command = _command_of(argv)
    if command is None and ("--version" in argv):
        return ap  # nothing else to show: skip importing every paper's module
    if command not in sub.choices:
        from termweight.runner.clihelp import help_sections, register_experiments

        unavailable = register_experiments(sub, command)
        ap.description = "\n\n".join([ap.description, *help_sections(sub, unavailable)])
    return ap


def _fail(args, message: str, status: int = 2) -> int:
    """Report bad input as one line on stderr (and in the --log file); exit status 2."""
    message = one_line(message, 2000)
    if args.log:  # without --log the log handler IS stderr: print the line once
        log.error("%s", message)
    print(f"termweight {args.command}: error: {message}", file=sys.stderr)
    return status




def _missing_extra(exc: ModuleNotFoundError) -> int:
    """One line for a core-only install running a pipeline step; other missing modules raise."""
    if (exc.name or "").split(".")[0] not in WORKFLOW_MODULES:
        raise exc
    print(f"termweight: error: the command line needs {exc.name.split('.')[0]}, one of the "
          "pipeline's packages: pip install 'termweight[workflow]'", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    """Run one command or step and return its exit status.

    Bad input (a ``TermweightError``, or a file the OS
    refuses to open, read or write) is ONE line on stderr naming the file, exit status 2; never
    a traceback. A core-only install (no ``workflow`` extra) gets one line saying what to
    install. ``run`` returns Snakemake's exit status.

    Parameters
    ----------
    argv : list of str or None, default=None
        The arguments (None: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on bad input, else the status of the command (``run``).
    """
    from termweight.runner.checkout import pin_blas

    pin_blas()  # the `termweight` script: as `python -m termweight` (no effect once numpy loaded)
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
        from termweight.runner import parallel

        parallel.LABEL = f"termweight {args.command}"  # progress lines of long steps
        # a tuned fit whose inner folds would reuse statistics of all the training rows (their
        # validation rows included) raises in every step and its forked workers; the library
        # itself warns (learners.protocol.FoldLeakageWarning, matched by its message so that
        # start-up does not import scikit-learn)
        warnings.filterwarnings("error", message=LEAKAGE_MESSAGE)
        status = args.func(args)
    except TermweightError as exc:
        return _fail(args, str(exc))
    except BrokenPipeError:  # the reader went away (`termweight list metrics | head -1`): no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush
        return 0
    except OSError as exc:  # e.g. an input that is missing or a directory, a full disk
        return _fail(args, os_error_line(exc))
    status = status if isinstance(status, int) else 0
    if status:  # run: Snakemake failed, and said why
        what = "snakemake" if args.command == "run" else args.command
        return _fail(args, f"{what} exited with status {status} (its messages are above)", status)
    if args.command not in ("list", "version"):  # their output is all there is
        log.info("%s done in %.2f s", args.command, time.perf_counter() - t0)
    return 0
