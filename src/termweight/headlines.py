"""A few headline numbers per paper and experiment: ``reports/headlines.json``, DVC's metrics.

``dvc metrics show`` prints one table row per metrics file with one column per number, so the full
``reports/metrics/*.json`` (over a thousand numbers) are plain outputs and this small file is the
one DVC metrics file (stage and rule ``headlines``; ``python -m termweight headlines``):

- per configured experiment (``experiments:`` of the params file): the micro-F1 of each encoding;
- per paper whose ``reports/metrics/<paper>.json`` exists: our value of each quantity of the
  README's results table (each paper's ``readme_rows``, termweight.experiments.papers), ``null`` where the
  paper's run does not report it (DVC leaves nulls out of its table).
"""

from __future__ import annotations

import logging
from pathlib import Path

from termweight import io
from termweight.errors import DataError

log = logging.getLogger("termweight.headlines")


def headlines(params: dict, reports: Path, published: Path) -> dict:
    """The headline numbers of the experiments in ``params`` and of the papers run."""
    from termweight.experiments.report import published_headlines, readme_rows, reproduced_value

    out: dict = {}
    for exp, spec in params.get("experiments", {}).items():
        path = Path(reports) / "metrics" / f"{exp}.json"
        if not path.exists():
            log.info("%s: not there (experiment %s not run): skipped", path, exp)
            continue
        encodings = io.read_json_object(path).get("encodings")
        try:
            out[exp] = {"micro_f1": {e: encodings[e]["micro_f1"] for e in spec["encodings"]}}
        except (KeyError, TypeError):
            raise DataError(path, "no encodings/<encoding>/micro_f1 for every encoding of "
                                  f"experiment {exp!r}: rerun its aggregate step") from None
    from termweight.experiments.papers import papers

    declared = papers()
    for paper, keys in readme_rows().items():
        path = Path(reports) / "metrics" / f"{paper}.json"
        if not path.exists():
            continue
        metrics = io.read_json_object(path)
        pub_path = declared[paper].published_path(Path(published))
        heads = {h.key: h for h in published_headlines(
            paper, io.read_json(pub_path) if pub_path.exists() else None)}
        out[paper] = {k: reproduced_value(heads[k], metrics) for k in keys if k in heads}
    return out
