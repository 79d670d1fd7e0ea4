"""The headline numbers of every paper and experiment -> one small JSON, DVC's metrics:
``headlines`` (apart from ``termweight.steps.results``: it reads every paper's declaration, which
the per-experiment steps do not)."""

from __future__ import annotations

import logging
from pathlib import Path

from termweight.runner import common, io

log = logging.getLogger("termweight")


def cmd_headlines(args) -> None:
    """A few headline numbers per paper and experiment -> one small JSON, DVC's metrics.

    (termweight.headlines: the README's results table and each experiment's micro-F1.)
    """
    from termweight.headlines import headlines
    from termweight.runner.config import load_params

    out = headlines(load_params(args.params), Path(args.reports), Path(args.published))
    io.write_json(args.out, out)
    log.info("headlines of %s -> %s", ", ".join(out) or "nothing", args.out)


def register(sub) -> None:
    """``headlines``."""
    p = sub.add_parser("headlines", help="a few headline numbers per paper and experiment -> "
                       "one small JSON (DVC's metrics)",
                       description=common.first_line(cmd_headlines.__doc__))
    p.add_argument("--params", default="params.yaml",
                   help="params file: its experiments are reported (default: %(default)s)")
    p.add_argument("--reports", default="reports",
                   help="directory holding metrics/<paper or experiment>.json (default: %(default)s)")
    p.add_argument("--published", default="src/termweight/experiments/published",
                   help="published numbers, one JSON per paper (default: %(default)s)")
    p.add_argument("--out", required=True, help="JSON to write (reports/headlines.json)")
    p.set_defaults(func=cmd_headlines)
