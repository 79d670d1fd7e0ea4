"""Probe (#52, Kim's 20 Newsgroups gap, (b)): how many distinct stemmed terms does each text
version of 20 Newsgroups give, against Kim (2016)'s "about 70,000 unique terms after term
stemming" and "about 18,000 documents"?

Our corpus keeps each posting's body with its Subject line (``headers: subject``); scikit-learn's
``remove=("headers", "footers", "quotes")`` (the version many papers use) drops the headers,
the quoted lines and the signature. Each version is parsed from the same raw archive with the
pipeline's parser and tokenised with the pipeline's tokenizer (stop words removed, Porter stems).
``--fit SPLIT`` also runs Kim's idf SVM (``kim-select`` then ``kim-fit``: the same settings, C
chosen on the same hold-out) on each version for that split of ``news20`` and records its test
micro-F (the paper's idf: 0.5575):

    PYTHONPATH=src python benchmarks/probe_kim_20news_text.py data/raw/20news [--fit r0] \\
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


def kim_idf(X, docs, split_name: str) -> float:
    """Test micro-F of Kim's idf SVM on ``news20``'s split ``split_name`` with these counts."""
    import scipy.sparse as sp

    from termweight.experiments import kim as K
    from termweight.splits import Split

    params = K._config(Path("params.yaml"))
    kim = params["kim"]
    classes = list(docs.classes)
    Y = sp.csr_matrix((np.ones(len(docs.labels)),
                       (np.arange(len(docs.labels)), [classes.index(lab[0])
                                                      for lab in docs.labels])),
                      shape=(len(docs.labels), len(classes)))
    split = Split.load(Path("data/kim/news20/splits") / f"{split_name}.npz", n_docs=X.shape[0])
    cfg = K.settings_of(kim, "news20")
    with K._one_blas_thread():
        sel = K.select_C(X, Y, split.train, ["idf"], cfg, K._split_seed(params, split_name),
                         classes)
        sel = sel[sel["chosen"].astype(bool)]
        chosen = {(m, str(t)): float(c) for m, t, c in zip(sel["method"], sel["task"], sel["C"],
                                                          strict=True)}
        fit = K.fit_split(X, Y, split, ["idf"], chosen, cfg, classes)
    tp, fp, fn = (int(fit[c].sum()) for c in ("tp", "fp", "fn"))
    return round(2 * tp / (2 * tp + fp + fn), 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", help="the raw 20 Newsgroups directory (data/raw/20news)")
    ap.add_argument("--out", default="benchmarks/results/probe_kim_20news_text.json")
    ap.add_argument("--fit", metavar="SPLIT", help="also Kim's idf SVM on this news20 split")
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
        if args.fit:
            rows[-1]["idf_micro_f"] = kim_idf(X, docs, args.fit)
        print(json.dumps(rows[-1]), flush=True)
    out = {"what": __doc__.splitlines()[0], "date": datetime.now(UTC).date().isoformat(),
           "paper": {"terms": "about 70,000 after stemming", "documents": "about 18,000"},
           "versions": rows}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
