"""Probe (#52, Kim's 20 Newsgroups gap, (b)): how many distinct stemmed terms does each text
version of 20 Newsgroups give, against Kim (2016)'s "about 70,000 unique terms after term
stemming" and "about 18,000 documents"?

Our corpus keeps each posting's body with its Subject line (``headers: subject``); scikit-learn's
``remove=("headers", "footers", "quotes")`` (the version many papers use) drops the headers,
the quoted lines and the signature. Each version is parsed from the same raw archive with the
pipeline's parser and tokenised with the pipeline's tokenizer (stop words removed, Porter stems):

    PYTHONPATH=src python benchmarks/probe_kim_20news_text.py data/raw/20news \\
        [--out benchmarks/results/probe_kim_20news_text.json]
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

VERSIONS = {
    "pipeline (subject + body, quotes and signatures kept)": {},
    "whole posting (all headers)": {"headers": "all"},
    "stripped (no headers, quotes, signatures: scikit-learn's remove=)": {
        "headers": "none", "strip_quotes": True, "strip_footer": True},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", help="the raw 20 Newsgroups directory (data/raw/20news)")
    ap.add_argument("--out", default="benchmarks/results/probe_kim_20news_text.json")
    args = ap.parse_args()
    from termweight.datasets.newsgroups import parse_20news
    from termweight.text import count_matrix, tokenize_all

    rows = []
    for label, options in VERSIONS.items():
        t0 = time.perf_counter()
        docs = parse_20news(Path(args.raw), options)
        X, terms = count_matrix(tokenize_all(docs.texts))
        n = X.shape[0]
        df = np.diff(X.tocsc().indptr)
        empty = int((np.diff(X.indptr) == 0).sum())
        rows.append({"version": label, "options": options, "documents": n,
                     "empty_documents": empty, "terms": len(terms),
                     "terms_in_2_or_more_documents": int((df >= 2).sum()),
                     "mean_tokens_per_document": round(float(X.sum()) / n, 1),
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(json.dumps(rows[-1]), flush=True)
    out = {"what": __doc__.splitlines()[0], "date": datetime.now(UTC).date().isoformat(),
           "paper": {"terms": "about 70,000 after stemming", "documents": "about 18,000"},
           "versions": rows}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
