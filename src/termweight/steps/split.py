"""Corpus -> split index files: ``split``."""

from __future__ import annotations

import logging
from pathlib import Path

from termweight import io
from termweight.steps import common

log = logging.getLogger("termweight")


def cmd_split(args) -> None:
    from termweight.corpus import Corpus
    from termweight.splits import make_splits

    params, exp = common.experiment(args)
    corpus = Corpus.load(args.corpus)
    splits = make_splits(exp["protocol"], corpus.Y, corpus.subset, seed=params["seed"],
                         name=str(args.corpus))
    out = Path(args.out_dir)
    for s in splits:
        s.save(out / f"{s.name}.npz")
    # a split of an earlier configuration (4 folds, now 3) must not stay in the directory
    for stale in sorted(set(out.glob("*.npz")) - {out / f"{s.name}.npz" for s in splits}):
        stale.unlink()
        log.info("removed %s (not a split of this protocol)", stale)
    io.write_json(out / "index.json", {"splits": [s.name for s in splits],
                                       "protocol": exp["protocol"], "seed": params["seed"],
                                       "sizes": {s.name: [int(s.train.size), int(s.test.size)]
                                                 for s in splits}})
    log.info("%d splits written to %s", len(splits), out)


def register(sub) -> None:
    """``split``."""
    p = sub.add_parser("split", help="corpus -> split index files")
    p.add_argument("--params", required=True, help="params.yaml (the protocol and the seed)")
    p.add_argument("--exp", required=True, help=common.EXP_HELP)
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--out-dir", required=True,
                   help="directory to write: one <split>.npz per split and index.json")
    p.set_defaults(func=cmd_split)
