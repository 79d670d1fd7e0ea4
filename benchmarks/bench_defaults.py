"""Which ``SupervisedScaler`` defaults to ship: a measured grid on four real text datasets.

    python benchmarks/bench_defaults.py [--datasets webkb r8 r52 20news] \
        [--out benchmarks/results/defaults.csv]

For every dataset, on its official train/test split: ``CountVectorizer()`` (scikit-learn's
defaults) fitted on the training texts -> ``SupervisedScaler(metric, base, norm)`` ->
``LinearSVC(C=1)`` (one-vs-rest, single-label argmax prediction), for

- metric in {bns, idf, chi2, ig, rf} (combine="max" over the one-vs-rest tasks),
- base in {binary, tf, logtf}, norm in {None, "l2"};
- the reference ``TfidfVectorizer(sublinear_tf=True)`` (scikit-learn's sublinear tf-idf, l2);
- textvec 3.0's ``TfrfVectorizer`` / ``TfbnsVectorizer`` (sublinear_tf=True, norm="l2"), which
  support binary targets only: one vectorizer and one binary LinearSVC per class, prediction by
  the argmax of the decision values.

Each row records macro-F1 (mean per-class F1, scikit-learn ``f1_score(average="macro")``),
accuracy, the number of ConvergenceWarnings raised while fitting, and the wall time of fit +
predict. Rows are appended to the CSV as they finish (a re-run skips rows already present).

Datasets (local files under ../shared/datasets, parsed by termweight's own parsers, nothing
downloaded): ``20news`` (20news-bydate, 11,314 / 7,532, 20 classes, headers="subject"); ``r52``
(Reuters-21578 ModApte single-topic stories, 52 classes, 6,532 / 2,568, from the SGML);
``r8`` (Cardoso-Cachopo's R8 all-terms file, 5,485 / 2,189, 8 classes); ``webkb``
(Cardoso-Cachopo's WebKB stemmed file, 2,803 / 1,396, 4 classes).
"""

from __future__ import annotations

import argparse
import csv
import platform
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.svm import LinearSVC

from termweight import SupervisedScaler

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "datasets"
METRICS = ("bns", "idf", "chi2", "ig", "rf")
BASES = ("binary", "tf", "logtf")
NORMS = (None, "l2")
FIELDS = ("dataset", "method", "metric", "base", "norm", "macro_f1", "accuracy",
          "convergence_warnings", "seconds", "n_train", "n_test", "n_terms", "n_classes")


def load(name: str):
    """(train texts, train labels, test texts, test labels) of dataset ``name``."""
    if name == "20news":
        from termweight.datasets.newsgroups import parse_20news
        docs = parse_20news(SHARED / "20news-bydate")
    elif name == "r52":
        from termweight.datasets.reuters import parse_r52
        docs = parse_r52(SHARED / "reuters21578")
    elif name == "r8":
        from termweight.datasets.cachopo import parse_cachopo_r8
        docs = parse_cachopo_r8(SHARED / "cachopo")
    elif name == "webkb":
        from termweight.datasets.cachopo import parse_cachopo_webkb
        docs = parse_cachopo_webkb(SHARED / "cachopo")
    else:
        raise SystemExit(f"unknown dataset {name!r}")
    tr = [i for i, s in enumerate(docs.subset) if s == "train"]
    te = [i for i, s in enumerate(docs.subset) if s == "test"]
    y = np.array([labs[0] for labs in docs.labels])
    return [docs.texts[i] for i in tr], y[tr], [docs.texts[i] for i in te], y[te]


def _fit_predict(fit_transform, Xtr, ytr, Xte):
    """Fit LinearSVC(C=1) on fit_transform's output; return predictions and warning count."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        Ztr, Zte = fit_transform(Xtr, ytr, Xte)
        pred = LinearSVC(C=1.0).fit(Ztr, ytr).predict(Zte)
    return pred, sum(issubclass(w.category, ConvergenceWarning) for w in caught)


def _textvec_ovr(cls, Ctr, ytr, Cte):
    """textvec's binary-only vectorizer, one per class; argmax of the binary SVMs' decisions."""
    classes = np.unique(ytr)
    scores = np.zeros((Cte.shape[0], classes.size))
    n_warn = 0
    for k, c in enumerate(classes):
        yb = (ytr == c).astype(np.int64)
        vec = cls(norm="l2", sublinear_tf=True).fit(Ctr.astype(np.float64), yb)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            svm = LinearSVC(C=1.0).fit(vec.transform(Ctr.astype(np.float64)), yb)
        n_warn += sum(issubclass(w.category, ConvergenceWarning) for w in caught)
        scores[:, k] = svm.decision_function(vec.transform(Cte.astype(np.float64)))
    return classes[scores.argmax(axis=1)], n_warn


def _import_textvec():
    """textvec.vectorizers, or None if textvec is not installed.

    textvec 3.0 imports ``gensim.models.keyedvectors.BaseKeyedVectors``, a name gensim 4 dropped
    (ImportError), for its SifVectorizer only; the supervised vectorizers used here do not touch
    it, so the missing name is set to gensim 4's ``KeyedVectors`` before the import.
    """
    try:
        import gensim.models.keyedvectors as kv
    except ModuleNotFoundError:
        kv = None
    if kv is not None and not hasattr(kv, "BaseKeyedVectors"):
        kv.BaseKeyedVectors = kv.KeyedVectors
    try:
        import textvec.vectorizers as tv
    except ModuleNotFoundError:
        return None
    return tv


def run(name: str, out: Path, done: set) -> None:
    ttr, ytr, tte, yte = load(name)
    cv = CountVectorizer()
    Ctr, Cte = cv.fit_transform(ttr), cv.transform(tte)
    info = {"n_train": len(ttr), "n_test": len(tte), "n_terms": Ctr.shape[1],
            "n_classes": np.unique(ytr).size}
    print(f"{name}: {info}", flush=True)

    def emit(method, metric, base, norm, job):
        key = (name, method, metric, base, str(norm))
        if key in done:
            return
        t0 = time.perf_counter()
        pred, n_warn = job()
        row = {"dataset": name, "method": method, "metric": metric, "base": base,
               "norm": str(norm), "macro_f1": round(f1_score(yte, pred, average="macro"), 4),
               "accuracy": round(accuracy_score(yte, pred), 4), "convergence_warnings": n_warn,
               "seconds": round(time.perf_counter() - t0, 1), **info}
        with out.open("a", newline="") as fh:
            csv.DictWriter(fh, FIELDS).writerow(row)
        print(row, flush=True)

    def tfidf(_Xtr, _ytr, _Xte):
        vec = TfidfVectorizer(sublinear_tf=True)
        return vec.fit_transform(ttr), vec.transform(tte)

    emit("sklearn_tfidf_sublinear", "idf", "sublinear", "l2",
         lambda: _fit_predict(tfidf, None, ytr, None))
    for metric in METRICS:
        for base in BASES:
            for norm in NORMS:
                def scaled(Xtr, y, Xte, metric=metric, base=base, norm=norm):
                    sc = SupervisedScaler(metric=metric, base=base, norm=norm).fit(Xtr, y)
                    return sc.transform(Xtr), sc.transform(Xte)
                emit("termweight", metric, base, norm,
                     lambda f=scaled: _fit_predict(f, Ctr, ytr, Cte))
    tv = _import_textvec()
    if tv is None:
        return
    for metric, cls in (("rf", tv.TfrfVectorizer), ("bns", tv.TfbnsVectorizer)):
        emit("textvec_ovr", metric, "sublinear", "l2",
             lambda cls=cls: _textvec_ovr(cls, Ctr, ytr, Cte))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["webkb", "r8", "r52", "20news"])
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "defaults.csv")
    args = ap.parse_args()
    done = set()
    if args.out.exists():
        with args.out.open() as fh:
            done = {(r["dataset"], r["method"], r["metric"], r["base"], r["norm"])
                    for r in csv.DictReader(fh)}
    else:
        with args.out.open("w", newline="") as fh:
            csv.DictWriter(fh, FIELDS).writeheader()
    print(f"{platform.node()} {platform.processor() or platform.machine()} "
          f"python {platform.python_version()}", flush=True)
    for name in args.datasets:
        run(name, args.out, done)


if __name__ == "__main__":
    main()
