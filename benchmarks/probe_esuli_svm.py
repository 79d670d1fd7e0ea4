"""Probe: how much of the SVM's macro-F1 gap to Esuli & Sebastiani's SVM-light row do the loss and
the bias penalty explain? (Reuters-21578 ModApte, 90 categories, cosine tf-idf, C = 1.)

The paper's SVM-light minimises the hinge loss with an unpenalised bias; LinearSVC (liblinear)
minimises the squared hinge by default and penalises the bias (an extra feature of value
``intercept_scaling``). Three fits of the same one-vs-rest protocol as ``esuli-svm``:

- squared hinge, intercept_scaling 1 (the pipeline's ``svm_tfidf`` run);
- hinge, intercept_scaling 1 (the pipeline's ``svm_tfidf_hinge`` run);
- hinge, intercept_scaling 10 (the bias penalised 100x less: close to SVM-light's free bias).

Usage (reads the pipeline's tf-idf features; about 35 s on one loaded core, the last fit
dominating; writes benchmarks/results/probe_esuli_svm.json)::

    PYTHONPATH=src python benchmarks/probe_esuli_svm.py [data/esuli/features/tfidf.npz]

Measured 2026-11-25 on /work/main's features: macro-F1 0.473 (squared hinge), 0.446 (hinge), 0.445
(hinge, intercept_scaling 10; 47 of 90 tasks stopped at max_iter); the paper prints 0.415.
So the loss explains 0.027 of the 0.058 gap; the bias penalty none of the rest.

``--libsvm CORPUS`` (#52) adds SVM-light's own problem solved exactly: scikit-learn's
``SVC(kernel="linear", C=1)`` (libsvm: hinge loss, unpenalised bias, tolerance 1e-3) on the same
features, and on tf-idf with tf = 1 + ln(count) rebuilt from the corpus (``esuli-features``'s
terms and split)::

    PYTHONPATH=src python benchmarks/probe_esuli_svm.py data/esuli/features/tfidf.npz \
        --libsvm data/corpus/reuters21578
"""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.svm import LinearSVC

from termweight.evaluation import confusion_counts
from termweight.experiments.esuli import scores_from_counts
from termweight.intermediates import load
from termweight.learners.linear import _fit_tasks, decision_scores


def _score(feats, coef, b) -> dict:
    pred = decision_scores(feats["X_test"], coef, b) > 0
    c = confusion_counts(feats["Y_test"], pred.astype(np.uint8))
    s = scores_from_counts(c["tp"].to_numpy(), c["fp"].to_numpy(), c["fn"].to_numpy())
    return {k: round(float(v), 4) for k, v in s.items()}


def log_tf_features(corpus_dir) -> dict:
    """tf-idf with tf = 1 + ln(count), rows L2-normalised, on ``esuli-features``'s terms and
    ModApte split (idf = ln(N / df) from the training rows, as its ``tfidf``)."""
    import scipy.sparse as sp
    from sklearn.preprocessing import normalize

    from termweight.corpus import Corpus
    from termweight.encoding import encode, idf_weights
    from termweight.experiments.esuli import modapte_split, training_terms

    corpus = Corpus.load(corpus_dir)
    train, test = modapte_split(corpus.subset)
    X = sp.csr_matrix(corpus.X[:, training_terms(corpus.X[train])], dtype=np.float64)
    idf = idf_weights(X[train])
    X.data = 1.0 + np.log(X.data)  # SMART's "l" (encoding.log_tf is ln(1 + count))
    return {"X_train": normalize(encode(X[train], "tf", idf)), "Y_train": corpus.Y[train],
            "X_test": normalize(encode(X[test], "tf", idf)), "Y_test": corpus.Y[test]}


def libsvm_runs(feats, corpus_dir) -> list[dict]:
    """SVM-light's problem (hinge loss, free bias) solved by libsvm, C = 1, on the pipeline's
    tf-idf and on the log-tf variant."""
    from sklearn.svm import SVC

    def fit_one(Xc, y):
        svm = SVC(kernel="linear", C=1.0, tol=1e-3, cache_size=1000).fit(Xc, y)
        return np.asarray(svm.coef_.todense() if hasattr(svm.coef_, "todense")
                          else svm.coef_).ravel(), float(svm.intercept_[0])

    rows = []
    for label, f in (("tf-idf (the pipeline's)", feats), ("tf-idf, tf = 1 + ln(count)",
                                                          log_tf_features(corpus_dir))):
        t0 = time.process_time()
        coef, b, _ = _fit_tasks(f["X_train"], f["Y_train"], fit_one)
        row = {"learner": "libsvm SVC(kernel='linear', C=1)", "features": label,
               "cpu_s": round(time.process_time() - t0, 2), **_score(f, coef, b)}
        print(json.dumps(row))
        rows.append(row)
    return rows


def main(path="data/esuli/features/tfidf.npz", libsvm: str | None = None) -> dict:
    feats, _ = load("encoded", path)
    out = []
    for loss, scaling in (("squared_hinge", 1.0), ("hinge", 1.0), ("hinge", 10.0)):
        def fit_one(Xc, y, loss=loss, scaling=scaling):
            svm = LinearSVC(C=1.0, loss=loss, dual=True, random_state=0, max_iter=10000,
                            intercept_scaling=scaling).fit(Xc, y)
            return svm.coef_[0], svm.intercept_[0]

        t0 = time.process_time()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            coef, b, _ = _fit_tasks(feats["X_train"], feats["Y_train"], fit_one)
        row = {"loss": loss, "intercept_scaling": scaling, "cpu_s": round(time.process_time() - t0, 2),
               "warnings": [str(w.message) for w in caught], **_score(feats, coef, b)}
        print(json.dumps(row))
        out.append(row)
    result = {"features": str(path), "published_macro_f1": 0.415, "runs": out}
    if libsvm:
        result["libsvm"] = libsvm_runs(feats, libsvm)
    Path("benchmarks/results").mkdir(parents=True, exist_ok=True)
    Path("benchmarks/results/probe_esuli_svm.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("features", nargs="?", default="data/esuli/features/tfidf.npz")
    ap.add_argument("--libsvm", metavar="CORPUS", help="also libsvm's exact SVM on the features "
                    "and on log-tf features rebuilt from this corpus directory")
    a = ap.parse_args()
    main(a.features, a.libsvm)
