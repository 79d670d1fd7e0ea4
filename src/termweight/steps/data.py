"""Raw files -> documents -> tokens -> corpus: ``prepare``, ``tokenize``, ``count``."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from termweight.runner import common, io

log = logging.getLogger("termweight")


def cmd_prepare(args) -> None:
    """Raw files -> Documents (text datasets) or Corpus (vector datasets)."""
    from termweight import datasets

    spec = datasets.get_dataset(args.dataset)
    mirror = args.mirror
    params = {}
    if args.params:
        from termweight.runner.config import load_params

        params = load_params(args.params)
        if mirror is None:
            mirror = params.get("mirror")
    raw = None
    if spec.files:
        from termweight.datasets.download import (
            ExtractLimits,
            fetch,  # the function (the package re-exports it)
        )

        raw = fetch(spec, Path(args.raw.format(dataset=spec.name)),
                    mirror=Path(mirror) if mirror else None,
                    limits=ExtractLimits.from_params(params.get("archive_limits")))
    from termweight.runner.errors import blame

    with blame(raw if raw is not None else spec.name, spec.name):  # name the raw files
        result = spec.parser(raw, dict(spec.options))
    with io.all_or_nothing():  # documents.parquet and documents.json (or a corpus): all or none
        result.save(args.out)
    log.info("prepared %s: %d documents", spec.name, len(result.doc_ids))


def cmd_tokenize(args) -> None:
    import pandas as pd

    from termweight.datasets import Documents
    from termweight.text import tokenize_all

    docs = Documents.load(args.documents)
    tokens = tokenize_all(docs.texts)
    io.write_table(args.out, pd.DataFrame({"doc_id": docs.doc_ids, "tokens": tokens}))
    log.info("tokenised %d documents, %d tokens", len(tokens), sum(t.count(" ") + 1 for t in tokens))


def cmd_count(args) -> None:
    from termweight.corpus import Corpus
    from termweight.datasets import Documents
    from termweight.runner.errors import DataError
    from termweight.text import count_matrix

    docs = Documents.load(args.documents)
    frame = io.read_table(args.tokens, required=("doc_id", "tokens"))
    if frame["doc_id"].astype(str).tolist() != docs.doc_ids:
        raise DataError(args.tokens, "document ids differ from the documents file")
    X, vocab = count_matrix(frame["tokens"].fillna("").tolist())
    index = {c: i for i, c in enumerate(docs.classes)}
    rows = [i for i, labs in enumerate(docs.labels) for _ in labs]
    cols = [index[c] for labs in docs.labels for c in labs]
    import scipy.sparse as sp

    Y = sp.csr_matrix((np.ones(len(rows), np.uint8), (rows, cols)),
                      shape=(len(docs.doc_ids), len(docs.classes)))
    corpus = Corpus(name=docs.name, X=X, Y=Y, classes=docs.classes, terms=vocab,
                    doc_ids=docs.doc_ids, subset=np.asarray(docs.subset), multilabel=docs.multilabel,
                    ordinal=docs.ordinal, info={**docs.info, "tokenizer": "termweight.text"})
    corpus.save(args.out)
    log.info("count matrix %s with %d non-zeros", X.shape, X.nnz)


def register(sub) -> None:
    """``prepare``, ``tokenize``, ``count``."""
    p = sub.add_parser("prepare", help="raw files -> documents (text) or corpus (vectors)")
    p.add_argument("--dataset", required=True,
                   help="dataset name (python -m termweight list datasets)")
    p.add_argument("--out", required=True,
                   help="output directory: documents.parquet and documents.json for a text "
                   "dataset; counts.npz, meta.json and terms.txt for a vector dataset")
    p.add_argument("--raw", default="data/raw/{dataset}",
                   help="directory for the raw files, {dataset} is replaced by the name "
                   "(default: %(default)s)")
    p.add_argument("--mirror", help="directory with the raw files (overrides params.yaml)")
    p.add_argument("--params", help="params.yaml, for its 'mirror' setting")
    p.set_defaults(func=cmd_prepare)

    p = sub.add_parser("tokenize", help="documents -> tokens (Porter stems)")
    p.add_argument("--documents", required=True, help=common.DOCUMENTS_HELP)
    p.add_argument("--out", required=True, help="tokens file (.parquet, one row per document)")
    p.set_defaults(func=cmd_tokenize)

    p = sub.add_parser("count", help="tokens -> corpus (count matrix + labels)")
    p.add_argument("--documents", required=True, help=common.DOCUMENTS_HELP)
    p.add_argument("--tokens", required=True, help="tokens file written by tokenize")
    p.add_argument("--out", required=True,
                   help="corpus directory to write: counts.npz, meta.json, terms.txt")
    p.set_defaults(func=cmd_count)
