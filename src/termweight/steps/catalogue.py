"""What there is: ``python -m termweight list datasets|metrics|encodings|learners|experiments``
and ``python -m termweight version``.

One line per item, described from the code itself (docstrings, the metric table of
``termweight.scoring``, ``termweight.learners.registry``, the params file) or from the table
here, ``BASE_ENCODING_HELP``; the papers from their declarations
(``termweight.experiments.papers``). ``list datasets`` also says whether each dataset's files
are here, by the lookup ``prepare`` makes (the raw directory, then the mirror), from file
existence alone. Only ``list experiments`` reads a params file, and without one (outside the
repository) it lists the papers and says so on stderr.
"""

from __future__ import annotations

from termweight.runner.common import first_line

LIST_KINDS = ("datasets", "metrics", "encodings", "learners", "experiments")

#: every base encoding -> what it is (termweight.encoding.BASE_ENCODINGS; checked by the tests)
BASE_ENCODING_HELP = {
    "binary": "1 where the term occurs, else 0",
    "tf": "the raw term count",
    "logtf": "log(1 + count)",
    "tfidf": "count x training idf, rows scaled to unit L2 norm (cosine); needs 'idf' in scores",
}


def _rows(rows) -> None:
    """Print rows of cells as aligned columns, one line each."""
    rows = [[" ".join(str(c).split()) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)] if rows else []
    for r in rows:
        print("  ".join([c.ljust(w) for c, w in zip(r, widths, strict=False)] + [r[-1]]).rstrip())


def _params_file(args):
    """The params file to read: ``--params``, else ``params.yaml`` in the current directory if
    there is one (None: outside the repository, which is not an error for ``list``)."""
    from pathlib import Path

    if args.params:
        return Path(args.params)
    return Path("params.yaml") if Path("params.yaml").is_file() else None


def _mirror(args):
    """The mirror the pipeline's ``prepare`` reads: ``--mirror``, else the params file's."""
    if args.mirror is not None:
        return args.mirror or None
    path = _params_file(args)
    if path is None:
        return None
    from termweight.runner.config import read_yaml  # the one key: no schema validation (1 s)

    params = read_yaml(path)
    mirror = params.get("mirror") if isinstance(params, dict) else None
    return mirror if isinstance(mirror, str) else None


def dataset_status(spec, raw: str = "data/raw/{dataset}", mirror=None) -> tuple[str, str]:
    """``(status, note)`` of one dataset here, from file existence alone (nothing is read).

    ``status`` is ``"bundled"`` (data inside a Python package), ``"available"`` (every raw
    file is in its raw directory or the mirror, or in an archive at hand there: ``prepare``
    needs no network) or ``"missing"``; ``note`` says where the files are, or which file is
    missing, where it is looked for and where it can be obtained.
    """
    from pathlib import Path

    from termweight.datasets.download import locate, mirror_dir_of

    if not spec.files:
        return "bundled", ""
    dest = Path(raw.format(dataset=spec.name))
    mirror_dir = mirror_dir_of(spec, Path(mirror) if mirror else None)
    found = locate(spec, dest, Path(mirror) if mirror else None)
    missing = [f for f in spec.files if found[f.name] is None]
    if not missing:
        dirs = sorted({str(dest) if p.is_relative_to(dest) else str(mirror_dir)
                       for p in found.values()})
        return "available", f"(files in {' and '.join(dirs)})"
    f = missing[0]
    more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
    where = f"{dest} or {mirror_dir}" if mirror_dir is not None else \
        f"{dest} with no mirror given (--mirror DIR, or a params.yaml naming one)"
    if f.urls:
        source = f"prepare downloads it from {f.urls[0]}"
    elif f.archive is not None and f.archive.urls:
        source = f"prepare takes it out of {f.archive.name}, downloaded from {f.archive.urls[0]}"
    else:
        source = "no download is known"
    readme = mirror_dir / "SOURCE.md" if mirror_dir is not None else None
    see = f"; see {readme}" if readme is not None and readme.is_file() else ""
    return "missing", f"(needs {f.name}{more} under {where}; {source}{see})"


def _list_datasets(args) -> None:
    from termweight.datasets import DATASETS

    mirror = _mirror(args)
    rows = []
    for name, spec in sorted(DATASETS.items()):
        status, note = dataset_status(spec, args.raw, mirror)
        rows.append((name, spec.kind, status,
                     f"{spec.description or '(no description)'} {note}".rstrip()))
    _rows(rows)


def _list_metrics(args) -> None:
    from termweight import scoring

    rows = []
    for name, (_, swapped) in scoring.METRICS.items():
        text = scoring.METRIC_DESCRIPTIONS.get(name, "")
        if swapped:
            text = f"{text} [swap: cells swapped for negatively correlated terms]"
        rows.append((name, text or "(no description)"))
    _rows(rows)


def _list_encodings(args) -> None:
    from termweight.encoding import BASE_ENCODINGS

    rows = [(b, BASE_ENCODING_HELP.get(b, "(no description)")) for b in BASE_ENCODINGS]
    rows.append(("<base>-<metric>", "a base encoding with column j scaled by the training score of "
                 "<metric> (e.g. binary-bns; the metric must be in the experiment's scores; "
                 "python -m termweight list metrics)"))
    _rows(rows)


def _list_learners(args) -> None:
    import importlib

    from termweight.learners.registry import LEARNERS

    rows = []
    for name, spec in LEARNERS.items():
        if not spec.listed:
            continue
        module, attr = spec.module, spec.attr
        obj = spec.load()
        doc = first_line(obj.__doc__) or first_line(importlib.import_module(module).__doc__)
        rows.append((name, f"{module}.{attr}", f"{doc} Used by: {spec.used_by}."))
    _rows(rows)


def _list_experiments(args) -> None:
    import sys

    path = _params_file(args)
    params: dict = {}
    rows = []
    if path is None:
        print("termweight list: no params.yaml in this directory: the papers are listed from "
              "their declarations; run it in the repository, or give --params FILE, for the "
              "experiments", file=sys.stderr)
    else:
        from termweight.runner.config import load_params

        params = load_params(path)
    for name, exp in params.get("experiments", {}).items():
        proto = exp["protocol"]
        how = ", ".join(f"{k} {v}" for k, v in proto.items() if k != "type")
        rows.append((name, "experiment",
                     f"{exp['dataset']}, {proto['type']} ({how}), encodings "
                     f"{' '.join(exp['encodings'])}, {exp['learner']['name']} "
                     f"(snakemake experiments; dvc repro table@{name} figure@{name})"))
    from termweight.experiments.papers import papers

    declared = papers()
    for name, text in ((n, p.description) for n, p in declared.items()):
        if path is None:
            how = f"snakemake {name} in the repository"
        elif name in params:
            how = f"snakemake {name}; in {path}"
        else:
            how = f"NOT in {path}: no target"
        rows.append((name, "paper", f"{text} ({how})"))
    count = {5: "five", 6: "six"}.get(len(declared), str(len(declared)))
    rows.append(("papers", "target", f"all {count} papers (snakemake papers)"))
    _rows(rows)


def cmd_list(args) -> None:
    """One line per dataset, metric, encoding, learner or experiment."""
    {"datasets": _list_datasets, "metrics": _list_metrics, "encodings": _list_encodings,
     "learners": _list_learners, "experiments": _list_experiments}[args.kind](args)


def cmd_version(args) -> None:
    """Print ``termweight <version>``, as ``--version`` does."""
    from termweight import __version__

    print(f"termweight {__version__}")


def register(sub) -> None:
    """``list`` and ``version``."""
    p = sub.add_parser("list", help="datasets (and whether their files are here), metrics, "
                       "encodings, learners or experiments",
                       description="Print one line per dataset, metric, encoding, learner or "
                       "experiment (with the paper targets). Only 'experiments' reads a params "
                       "file, and lists the papers without one.")
    p.add_argument("kind", choices=LIST_KINDS, help="what to list: %(choices)s")
    p.add_argument("--params", help="params file whose experiments (and mirror) to use "
                   "(default: params.yaml in the current directory, if there is one)")
    p.add_argument("--mirror", help="datasets: the mirror directory to look in (default: the "
                   "params file's 'mirror', as prepare; '' for none)")
    p.add_argument("--raw", default="data/raw/{dataset}",
                   help="datasets: the raw directory template, as prepare's (default: "
                   "%(default)s)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("version", help="print the version (as --version)",
                       description=cmd_version.__doc__.replace("``", ""))
    p.set_defaults(func=cmd_version)
