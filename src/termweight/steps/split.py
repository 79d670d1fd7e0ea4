"""Corpus -> split index files: ``split``."""

from __future__ import annotations

import logging

from termweight.runner import common

log = logging.getLogger("termweight")


def cmd_split(args) -> None:
    from termweight.corpus import Corpus
    from termweight.splits import make_splits, save_splits

    params, exp = common.experiment(args)
    corpus = Corpus.load(args.corpus)
    splits = make_splits(exp["protocol"], corpus.Y, corpus.subset, seed=params["seed"],
                         name=str(args.corpus))
    save_splits(args.out_dir, splits, {"protocol": exp["protocol"], "seed": params["seed"]})
    log.info("%d splits written to %s", len(splits), args.out_dir)


def register(sub) -> None:
    """``split``."""
    p = sub.add_parser("split", help="corpus -> split index files")
    p.add_argument("--params", required=True, help="params.yaml (the protocol and the seed)")
    p.add_argument("--exp", required=True, help=common.EXP_HELP)
    p.add_argument("--corpus", required=True, help=common.CORPUS_HELP)
    p.add_argument("--out-dir", required=True,
                   help="directory to write: one <split>.npz per split and index.json")
    p.set_defaults(func=cmd_split)
