"""What there is: ``python -m termweight list datasets|metrics|encodings|learners|experiments``.

One line per item, described from the code itself (docstrings, the metric table of
:mod:`termweight.scoring`, :mod:`termweight.learners.registry`, the params file) or from the
table here, :data:`BASE_ENCODING_HELP`; the papers from their declarations
(:mod:`termweight.experiments.papers`).
"""

from __future__ import annotations

from termweight.steps.common import first_line

LIST_KINDS = ("datasets", "metrics", "encodings", "learners", "experiments")

#: every base encoding -> what it is (termweight.encoding.BASE_ENCODINGS; checked by the tests)
BASE_ENCODING_HELP = {
    "binary": "1 where the term occurs, else 0",
    "tf": "the raw term count",
    "logtf": "log(1 + count)",
    "tfidf": "count x training idf, rows scaled to unit L2 norm (cosine); needs 'idf' in scores",
}


def _metric_table() -> dict[str, str]:
    """name -> formula, from the table in termweight.scoring's module docstring."""
    from termweight import scoring

    out = {}
    for line in (scoring.__doc__ or "").splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0] in scoring.METRICS and "``" in parts[1]:
            formula = parts[1].rsplit(None, 1)[0] if parts[1].split()[-1] in (
                "yes", "no", "--") else parts[1]
            out[parts[0]] = formula.replace("``", "").strip()
    return out


def _rows(rows) -> None:
    """Print rows of cells as aligned columns, one line each."""
    rows = [[" ".join(str(c).split()) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)] if rows else []
    for r in rows:
        print("  ".join([c.ljust(w) for c, w in zip(r, widths, strict=False)] + [r[-1]]).rstrip())


def _list_datasets(args) -> None:
    from termweight.datasets import DATASETS

    _rows([(n, s.kind, s.description or "(no description)") for n, s in sorted(DATASETS.items())])


def _list_metrics(args) -> None:
    from termweight import scoring

    formulas = _metric_table()
    rows = []
    for name, (func, swapped) in scoring.METRICS.items():
        text = first_line(func.__doc__) or formulas.get(name) or formulas.get(func.__name__, "")
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
    from termweight.config import load_params

    params = load_params(args.params)
    rows = []
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
        where = "in" if name in params else f"NOT in {args.params}: no target"
        rows.append((name, "paper", f"{text} (snakemake {name}; {where} {args.params})"
                     if name in params else f"{text} ({where})"))
    count = {5: "five", 6: "six"}.get(len(declared), str(len(declared)))
    rows.append(("papers", "target", f"all {count} papers (snakemake papers)"))
    _rows(rows)


def cmd_list(args) -> None:
    """One line per dataset, metric, encoding, learner or experiment."""
    {"datasets": _list_datasets, "metrics": _list_metrics, "encodings": _list_encodings,
     "learners": _list_learners, "experiments": _list_experiments}[args.kind](args)


def register(sub) -> None:
    """``list``."""
    p = sub.add_parser("list", help="the datasets, metrics, encodings, learners or experiments, "
                       "one line each",
                       description="Print one line per dataset, metric, encoding, learner or "
                       "experiment (with the paper targets).")
    p.add_argument("kind", choices=LIST_KINDS, help="what to list: %(choices)s")
    p.add_argument("--params", default="params.yaml",
                   help="params file whose experiments to list (default: %(default)s)")
    p.set_defaults(func=cmd_list)
