"""The parts of ``--help`` that list every command: the two sections and the papers' steps.

Runner code: it only registers and describes sub-commands. On a
core install (no ``workflow`` extra) a paper whose module needs a pipeline package is listed as
such instead of failing ``--help``.
"""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

#: the sub-commands for people, in the order ``--help`` lists them; every other sub-command is a
#: pipeline step (called by Snakemake and DVC, and runnable by hand)
USER_COMMANDS = ("run", "list", "report-summary", "version")
WIDTH = 79
STEPS_TITLE = "pipeline steps (called by Snakemake and DVC)"
#: import names of the packages of the ``workflow`` extra (pyproject.toml), which the steps need
WORKFLOW_MODULES = frozenset({"pandas", "pyarrow", "matplotlib", "Stemmer", "jsonschema", "yaml",
                              "snakemake", "dvc", "scikit_posthocs", "statsmodels",
                              "baycomp"})


def _section(title: str, rows) -> str:
    """``title:`` and one entry per ``(names, text)`` row, argparse's layout (long names on a
    line of their own)."""
    lines = [f"{title}:"]
    for names, text in rows:
        if len(names) <= 20:
            lines += textwrap.wrap(text, WIDTH, initial_indent=f"  {names:<20}  ",
                                   subsequent_indent=" " * 24, break_on_hyphens=False) \
                or [f"  {names}"]
        else:
            lines.append(f"  {names}")
            lines += textwrap.wrap(text, WIDTH, initial_indent=" " * 24,
                                   subsequent_indent=" " * 24, break_on_hyphens=False)
    return "\n".join(lines)


def _module_summary(module: str) -> str:
    """The part of a step module's first docstring line before its list of sub-commands."""
    doc = importlib.import_module(module).__doc__ or ""
    text = " ".join(doc.split("\n\n")[0].split()).split(": ``")[0].rstrip(".")
    return text[:1].lower() + text[1:]


def help_sections(sub, unavailable: dict[str, str] | None = None) -> list[str]:
    """The two sections of ``--help``: the commands (one line each) and the pipeline steps
    (the generic ones grouped by module, each paper's on one line as ``<paper>-{a,b,...}``);
    ``unavailable`` (paper -> missing package): listed as needing the ``workflow`` extra."""

    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    commands = [(n, helps[n]) for n in USER_COMMANDS if n in helps]
    groups: dict[str, list[str]] = {}
    for name in helps:
        if name in USER_COMMANDS:
            continue
        module = sub.choices[name].get_default("func").__module__
        key = module if module.startswith("termweight.steps.") else name.split("-")[0]
        groups.setdefault(key, []).append(name)
    try:
        from termweight.experiments.papers import papers

        declared = papers()
    except ModuleNotFoundError:  # a core install
        declared = {}
    rows = []
    for key, names in groups.items():
        if len(names) == 1:
            rows.append((names[0], helps[names[0]]))
        elif key.startswith("termweight.steps."):
            rows.append((", ".join(names), _module_summary(key)))
        else:
            tails = [n[len(key) + 1:] if n.startswith(key + "-") else n for n in names]
            label = f"{key}-{{{','.join(tails)}}}" if all(n.startswith(key + "-") for n in names) \
                else ", ".join(names)
            text = declared[key].description if key in declared else \
                "; ".join(f"{n}: {helps[n]}" for n in names)
            rows.append((label, text))
    rows += [(f"{name} steps", f"need {package}, one of the pipeline's packages: "
                              "pip install 'termweight[workflow]'")
             for name, package in sorted((unavailable or {}).items())]
    return [_section("commands", commands),
            _section(STEPS_TITLE, rows)]


def register_experiments(sub, command: str | None = None) -> dict[str, str]:
    """Add the sub-commands of the ``termweight.experiments`` modules (and of a paper package's
    ``report``) that define ``register``. ``command`` ``<paper>-<step>`` imports only ``<paper>``
    (``report*``: the report module); anything else (``--help``, a typo) all, to list them."""
    import pkgutil

    from termweight import experiments

    names = sorted(info.name for info in pkgutil.iter_modules(experiments.__path__))
    wanted: list[str] = []
    if command:
        paper = "report" if command.startswith("report") else command.split("-")[0]
        wanted = [n for n in names if n == paper]
        names = wanted or names
    unavailable: dict[str, str] = {}
    for name in names:
        try:
            module = importlib.import_module(f"termweight.experiments.{name}")
        except ModuleNotFoundError as exc:  # a core install: the paper's steps need the extra
            # the step asked for is this module's: say what to install (cli._missing_extra)
            if (exc.name or "").split(".")[0] not in WORKFLOW_MODULES or wanted:
                raise
            unavailable[name] = exc.name.split(".")[0]
            continue
        if hasattr(module, "register"):
            module.register(sub)
        if hasattr(module, "__path__") and (Path(module.__file__).parent / "report.py").exists():
            report = importlib.import_module(f"{module.__name__}.report")  # a paper package's
            report.register(sub)
    return unavailable
