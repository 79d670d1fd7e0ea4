"""Ferreira & Figueiredo (PRIS 2010), "Feature transformation and reduction for text classification":
l0-norm feature selection (Methods 1 and 2) against the Fisher ratio, Achlioptas random
projections, MIM and CMIM, with a linear SVM and Modest AdaBoost (paper section 4;
[methods: selection][methods-selection]).

Protocol (paper 4.1, 4.3), one "replication" = one seeded balanced draw (``termweight.splits``
protocol ``balanced``):

- Spambase: the first 54 columns (the bag of words); 500 + 500 training and 500 + 500 disjoint test
  documents drawn from the 4,601;
- SVM-light example1: 500 + 500 training documents drawn from ``train.dat``; tested on all 600 of
  ``test.dat``;
- Dexter: 100 + 100 drawn from the 300 training rows; evaluated on the 300 validation rows.

Representations: TD = the feature values as distributed (Spambase percentages, example1's SVM-light
weights, Dexter counts); TDI = their presence (eq. 2). Every selector is fitted on the TRAINING draw
only; a ranking selector is fitted once and its top-m prefixes give every m of the grid (Methods
1/2, Fisher, MIM rank by a score, CMIM's greedy picks are nested), the random projection is
drawn once per replication with rows nested in m (``AchlioptasProjection``). Classifiers: LinearSVC
(C=1, liblinear, squared hinge; ENTOOL's SVM in the paper) and Modest AdaBoost with M=15 decision
stumps (``termweight.learners.modest``; the paper's pseudo-code, not GML's code). The measure is
the test error rate; the all-features TD and TDI errors are the baselines.

Random projection scale: the paper prints the PMF over ``{-sqrt(3)/m, 0, +sqrt(3)/m}``; Achlioptas
(and the [methods page][methods-selection]) scale by ``sqrt(3)/sqrt(m)``. The paper's text wins for the
reproduction (``rp_paper``); the Achlioptas scale is run beside it (``rp_achlioptas``): for stumps the two are
identical, for a C=1 SVM the paper's much smaller values mean much stronger regularisation.

Beyond the paper (its "future work"): the K-class criteria of Method 2 -- eq. (6), the sum of
pairwise l0 differences, and eq. (5), the negative entropy -- and Method 1 on a multi-class text
corpus (R8), against multi-class information gain (``termweight.multiclass``) and chi-square (the
maximum over classes of the one-vs-rest ``termweight.scoring`` chi2), with a one-vs-rest LinearSVC.

Sub-commands (each one arrow of the pipeline): ``ferreira-split``, ``ferreira-run`` (one job per
dataset x replication), ``ferreira-multiclass``, ``ferreira-collect``, ``ferreira-figures``,
``ferreira-tables``.
"""

from __future__ import annotations

import hashlib
import logging
import time
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError

log = logging.getLogger("termweight.ferreira")

PUBLISHED = Path(__file__).with_name("published.json")

TD_METHODS = ("method1", "method2", "method2_entropy", "fisher", "rp_paper", "rp_achlioptas")
TDI_METHODS = ("method1", "method2", "mim", "cmim")
MULTICLASS_METHODS = ("method1", "method2", "method2_entropy", "ig", "chi2")
CLASSIFIERS = ("svm", "modest")

LABELS = {
    "method1": "Method 1", "method2": "Method 2", "fisher": "Fisher ratio",
    "rp_paper": "RP (paper scale)", "rp_achlioptas": "RP (Achlioptas scale)",
    "mim": "MIM", "cmim": "CMIM", "method2_entropy": "Method 2 (entropy, eq. 4/5)",
    "ig": "IG", "chi2": "Chi2 (max)", "all": "all features",
    "svm": "linear SVM", "modest": "Modest AdaBoost",
    "spambase": "Spam", "svmlight_example1": "Example1", "dexter": "Dexter",
}
FIGURE_NUMBER = {"spambase": 2, "svmlight_example1": 3, "dexter": 4}


# --------------------------------------------------------------------------------------------
# configuration and data


def load_config(params_path) -> tuple[dict, dict]:
    """(params, the ``ferreira`` section) of a validated params file."""
    from termweight.runner.config import load_params

    params = load_params(params_path)
    if "ferreira" not in params:
        raise ConfigError(f"{params_path}: no 'ferreira' section")
    return params, params["ferreira"]


def dataset_config(cfg: dict, dataset: str, where: str = "params.yaml") -> dict:
    try:
        return cfg["datasets"][dataset]
    except KeyError:
        raise ConfigError(f"{where}: ferreira/datasets has no dataset {dataset!r}") from None


def load_vectors(corpus_dir, n_features: int | None = None):
    """(X CSR float64 restricted to the first ``n_features`` columns, y in {0, 1}, corpus)."""
    from termweight.corpus import Corpus

    corpus = Corpus.load(corpus_dir)
    if corpus.multilabel or len(corpus.classes) != 2:
        raise DataError(corpus_dir, f"needs a single-label binary corpus; {corpus.name} has "
                                    f"{len(corpus.classes)} classes")
    X = sp.csr_matrix(corpus.X, dtype=np.float64)
    if n_features is not None:
        if n_features > X.shape[1]:
            raise DataError(corpus_dir, f"n_features={n_features} > {X.shape[1]} columns")
        X = X[:, :n_features]
    return X, corpus.labels, corpus


def presence(X) -> sp.csr_matrix:
    """TDI (eq. 2): 1 where ``X != 0``, as CSR float64."""
    B = sp.csr_matrix(X, dtype=np.float64, copy=True)
    B.data = (B.data != 0).astype(np.float64)
    B.eliminate_zeros()
    return B


def characteristics(X, y, subset) -> list[dict]:
    """Paper Table 1 per subset: p, patterns, +1, -1 and the mean l0, l0(-1), l0(+1) over features.

    For a dataset without predefined subsets (``all``) one row for the whole set.
    """
    B = presence(X).tocsc()
    rows = []
    for name in dict.fromkeys(np.asarray(subset).tolist()):
        idx = np.flatnonzero(np.asarray(subset) == name)
        Bs, ys = B[idx], y[idx]
        l0 = np.asarray(Bs.sum(axis=0)).ravel()
        neg = np.asarray(Bs[ys == 0].sum(axis=0)).ravel()
        pos = np.asarray(Bs[ys == 1].sum(axis=0)).ravel()
        rows.append({"subset": name, "p": int(X.shape[1]), "patterns": int(idx.size),
                     "pos": int((ys == 1).sum()), "neg": int((ys == 0).sum()),
                     "l0": float(l0.mean()), "l0_neg": float(neg.mean()),
                     "l0_pos": float(pos.mean())})
    return rows


def first_features(X, y, subset, terms, n: int = 20) -> dict:
    """l0(i,-1), l0(i,+1) and r_i (eq. 3) of the first ``n`` features on the ``train`` subset (all
    rows if there is none): the paper's Fig. 1 shows 20 Example1 features with 2000 training rows."""
    subset = np.asarray(subset)
    rows = subset == "train" if (subset == "train").any() else np.ones(subset.size, bool)
    B = presence(X[rows][:, :n])
    neg = np.asarray(B[y[rows] == 0].sum(axis=0)).ravel().astype(int)
    pos = np.asarray(B[y[rows] == 1].sum(axis=0)).ravel().astype(int)
    return {"feature": list(range(1, neg.size + 1)), "term": list(terms[:n]),
            "l0_neg": neg.tolist(), "l0_pos": pos.tolist(), "r": np.abs(neg - pos).tolist()}


def derived_seed(*parts) -> int:
    """A 31-bit seed from the base seed and names (stable across runs, platforms, run order)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


# --------------------------------------------------------------------------------------------
# the protocol of one replication


def make_classifier(name: str, cfg: dict):
    if name == "svm":
        from termweight.learners.linear import linear_svc

        return linear_svc(float(cfg.get("svm_C", 1.0)), random_state=0, max_iter=20000)
    if name == "modest":
        from termweight.learners.modest import ModestAdaBoost

        return ModestAdaBoost(n_estimators=int(cfg.get("modest_rounds", 15)))
    raise ConfigError(f"unknown classifier {name!r}; known: {', '.join(CLASSIFIERS)}")


def rank_features(method: str, X, y, m_max: int) -> np.ndarray:
    """Indices of the (up to) ``m_max`` best features of the TRAINING matrix ``X``, best first.

    Methods 1 and 2 may return fewer (their step 2 stops when at most m features remain).
    """
    from termweight.multiclass import joint_table
    from termweight.multiclass import mutual_information as joint_mi
    from termweight.selection import CMIM, MIM, FisherRatio, L0Supervised, L0Unsupervised, SelectByScore
    from termweight.statistics import term_stats

    m_max = max(1, min(int(m_max), X.shape[1]))
    if method == "method1":
        sel = L0Unsupervised(m=m_max)
    elif method == "method2":
        sel = L0Supervised(m=m_max, variant="diff")
    elif method == "method2_entropy":
        sel = L0Supervised(m=m_max, variant="entropy")
    elif method == "fisher":
        sel = FisherRatio(m=m_max)
    elif method == "mim":
        sel = MIM(m=m_max)
    elif method == "cmim":
        sel = CMIM(m=m_max)
    elif method in ("ig", "chi2"):
        from termweight import scoring
        from termweight.corpus import indicator

        classes, yi = np.unique(y, return_inverse=True)
        st = term_stats(X, indicator(yi, classes.size))
        score = (joint_mi(joint_table(st)) if method == "ig"
                 else scoring.score("chi2", st).max(axis=0))
        sel = SelectByScore(metric=score, k=m_max)
    else:
        raise ConfigError(f"unknown selection method {method!r}")
    sel.fit(X, y)
    return np.asarray(sel.selected_, dtype=np.int64)


def run_replication(X, y, train, test, dcfg: dict, cfg: dict, seed: int) -> tuple[pd.DataFrame, dict]:
    """Test error of every (representation, method, m, classifier) on one train/test draw.

    Returns the rows (``representation, method, m, n_features, classifier, error``; ``method`` =
    ``all`` and ``m`` = p for the all-features baselines) and the rankings (``<rep>_<method>``,
    indices into the columns of ``X``, best first) for inspection.
    """
    from termweight.evaluation import error_rate
    from termweight.selection import AchlioptasProjection

    m_grid = sorted(int(m) for m in dcfg["m"])
    classifiers = list(dcfg.get("classifiers", CLASSIFIERS))
    reps = {"td": list(dcfg.get("td_methods", [])), "tdi": list(dcfg.get("tdi_methods", []))}
    Xtr, Xte, ytr, yte = X[train], X[test], y[train], y[test]
    data = {"td": (Xtr, Xte), "tdi": (presence(Xtr), presence(Xte))}
    rows, rankings = [], {}

    only = {k: list(v) for k, v in dcfg.get("method_classifiers", {}).items()}

    def evaluate(rep, method, m, A, B):
        for c in classifiers:
            if method in only and c not in only[method]:
                continue
            t0 = time.perf_counter()
            clf = make_classifier(c, cfg).fit(A, ytr)
            err = error_rate(yte, clf.predict(B))
            rows.append({"representation": rep, "method": method, "m": int(m),
                         "n_features": int(A.shape[1]), "classifier": c, "error": err})
            log.debug("%s %s m=%d %s: error %.4f (%.2f s)", rep, method, m, c, err,
                      time.perf_counter() - t0)

    for rep, methods in reps.items():
        A, B = data[rep]
        evaluate(rep, "all", X.shape[1], A, B)
        for method in methods:
            t0 = time.perf_counter()
            if method.startswith("rp_"):
                if rep != "td":
                    raise ConfigError("random projection is applied to the TD matrix only")
                for m in m_grid:
                    rp = AchlioptasProjection(m=m, random_state=seed, scaling=method[3:],
                                              dense_output=True).fit(A)
                    evaluate(rep, method, m, rp.transform(A), rp.transform(B))
            else:
                order = rank_features(method, A, ytr, m_grid[-1])
                rankings[f"{rep}_{method}"] = order
                for m in m_grid:
                    cols = np.sort(order[:m])
                    evaluate(rep, method, m, A[:, cols], B[:, cols])
            log.info("%s %s: %d values of m in %.2f s", rep, method, len(m_grid),
                     time.perf_counter() - t0)
    return pd.DataFrame(rows), rankings


# --------------------------------------------------------------------------------------------
# commands


def cmd_split(args) -> None:
    from termweight.splits import make_splits, save_splits

    params, cfg = load_config(args.params)
    dcfg = dataset_config(cfg, args.dataset, args.params)
    X, y, corpus = load_vectors(args.corpus, dcfg.get("n_features"))
    splits = make_splits(dcfg["protocol"], corpus.Y, corpus.subset, seed=params["seed"],
                         name=str(args.corpus))
    for s in splits:
        log.info("split %s: train per class %s, test per class %s", s.name,
                 np.bincount(y[s.train], minlength=2).tolist(),
                 np.bincount(y[s.test], minlength=2).tolist())
    save_splits(args.out_dir, splits, {
        "dataset": args.dataset, "protocol": dcfg["protocol"], "seed": params["seed"],
        "characteristics": characteristics(X, y, corpus.subset),
        "first_features": first_features(X, y, corpus.subset, corpus.terms)})


def _split_names(args, dcfg):
    from termweight.splits import split_names

    return list(args.names) if args.names else split_names(dcfg["protocol"])


def cmd_run(args) -> None:
    from termweight.splits import Split

    params, cfg = load_config(args.params)
    dcfg = dataset_config(cfg, args.dataset, args.params)
    X, y, _ = load_vectors(args.corpus, dcfg.get("n_features"))
    for name in _split_names(args, dcfg):
        split = Split.load(args.split.format(split=name), n_docs=X.shape[0])
        t0 = time.perf_counter()
        seed = derived_seed(params["seed"], args.dataset, name, "rp")
        frame, rankings = run_replication(X, y, split.train, split.test, dcfg, cfg, seed)
        frame.insert(0, "replication", name)
        frame.insert(0, "dataset", args.dataset)
        io.write_table(args.out.format(split=name), frame)
        if args.rankings:
            io.save_arrays(args.rankings.format(split=name), **rankings)
        log.info("%s %s: %d errors in %.1f s", args.dataset, name, len(frame),
                 time.perf_counter() - t0)


def cmd_multiclass(args) -> None:
    """K-class criteria (eqs. 5, 6) vs IG and Chi2 on a multi-class corpus, one-vs-rest SVM."""
    from termweight.corpus import Corpus
    from termweight.evaluation import averages, confusion_counts, error_rate
    from termweight.learners.linear import linear_svc
    from termweight.splits import make_splits

    params, cfg = load_config(args.params)
    mcfg = cfg["multiclass"]
    corpus = Corpus.load(args.corpus)
    if corpus.multilabel:
        raise DataError(args.corpus, "the multi-class experiment needs single-label data")
    y = corpus.labels
    K = len(corpus.classes)
    m_grid = sorted(int(m) for m in mcfg["m"])
    rows = []
    for split in make_splits(mcfg["protocol"], corpus.Y, corpus.subset, seed=params["seed"],
                             name=str(args.corpus)):
        Xtr_all = corpus.X[split.train]
        keep = np.flatnonzero(np.diff(Xtr_all.tocsc().indptr) > 0)  # terms seen in training
        X = sp.csr_matrix(corpus.X[:, keep], dtype=np.float64)
        views = {"td": X, "tdi": presence(X)}
        ytr, yte = y[split.train], y[split.test]
        for rep in mcfg.get("representations", ["tdi"]):
            A, B = views[rep][split.train], views[rep][split.test]

            def evaluate(method, m, A, B, rep=rep, split=split, ytr=ytr, yte=yte):
                clf = linear_svc(float(cfg.get("svm_C", 1.0)), random_state=0, max_iter=20000)
                pred = clf.fit(A, ytr).predict(B)
                onehot = np.eye(K, dtype=np.uint8)
                counts = confusion_counts(onehot[yte], onehot[pred])
                av = averages(counts)
                rows.append({"dataset": corpus.name, "replication": split.name,
                             "representation": rep, "method": method, "m": int(m),
                             "n_features": int(A.shape[1]), "classifier": "svm",
                             "error": error_rate(yte, pred), "micro_f1": av["micro_f1"],
                             "macro_f1": av["macro_f1"]})

            evaluate("all", A.shape[1], A, B)
            for method in mcfg["methods"]:
                t0 = time.perf_counter()
                order = rank_features(method, A, ytr, m_grid[-1])
                for m in m_grid:
                    cols = np.sort(order[:m])
                    evaluate(method, m, A[:, cols], B[:, cols])
                log.info("%s %s %s: %d values of m in %.2f s", split.name, rep, method,
                         len(m_grid), time.perf_counter() - t0)
    io.write_table(args.out, pd.DataFrame(rows))


# --------------------------------------------------------------------------------------------
# CLI


def register(sub) -> None:
    p = sub.add_parser("ferreira-split", help="Ferreira: balanced draws of one dataset")
    p.add_argument("--params", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--out-dir", required=True)
    p.set_defaults(func=cmd_split)

    p = sub.add_parser("ferreira-run", help="Ferreira: errors of every method/m/classifier")
    p.add_argument("--params", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--split", required=True, help="split file template with {split}")
    p.add_argument("--names", nargs="+", help="replications (default: all of the protocol)")
    p.add_argument("--out", required=True, help="errors CSV template with {split}")
    p.add_argument("--rankings", help="rankings .npz template with {split}")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("ferreira-multiclass", help="Ferreira: K-class criteria vs IG/Chi2")
    p.add_argument("--params", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_multiclass)


# --- the paper's declaration (termweight.experiments.papers) -------------------------------------

# its published JSON's "headline" mapping is read by the generic convention
