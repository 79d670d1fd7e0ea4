"""Kim (2016): convex-hull mixture (mix-ch) and mini-max classifier over five term weightings.

Paper: M. Kim, "Robust Algorithms for Combining Multiple Term Weighting Vectors for Document
Classification", IJFIS 16(2):81-86, 2016 (../shared/papers/kim-combining-term-weighting-vectors.txt;
[methods: scoring][methods-scoring], [experiments][methods-experiments]). Steps (CLI sub-commands,
one arrow each):

- ``kim-split``: random train/test partitions of a corpus (``termweight.splits`` protocol
  ``random``, 50/50 x ``repeats``).
- ``kim-select``: per split, C for every (method, one-vs-others task) by hold-out validation INSIDE
  the training half: a stratified part (``validation.fraction``) of the training rows is held out,
  bases are recomputed on the rest, every C of ``validation.C_grid`` is fitted, then each value of
  ``validation.extend`` above the grid while the last value tried is the strict best, and the C with
  the best validation F1 wins (ties: the smaller C). Test rows are never read. The exact mini-max
  solver goes up the C grid keeping its cutting planes (valid for every C: same data).
- ``kim-fit``: per split, every method refitted on the whole training half with its chosen C,
  bases computed on the training rows only; per-task confusion counts on the test half.
- ``kim-convergence``: one task, fixed C: mix-ch's alternation (objective, alpha per round) and the
  mini-max objective by iteration and by wall time, the paper's subgradient method vs the exact
  cutting-plane solver. (Its time axis is measured, so that figure is not byte-reproducible.)
- ``kim-report`` (``termweight.experiments.kim.report``): Tables 1-3 (mean +- sd over the
  runs) with the published numbers beside ours,
  the per-problem F figure, the convergence figure, ``reports/metrics/kim.json`` and the macros;
  the claims and their verdicts are ``termweight.experiments.kim.claims``.

Representation (documented choices; the paper gives no detail): ``x = tf / ||tf||_2`` (cosine
length normalisation of the term counts, over the terms present in the split's training rows;
eq. (1) prints the raw counts ``tf``: a dataset key with ``tf_norm: none`` runs those, e.g.
``r8_rawtf``);
base ``j`` of task ``k`` is ``b_jk`` = Kim's section-2 weight (``termweight.scoring.KIM_BASES``:
idf, chi2, ig, rf, or) from the training rows' contingency tables, times one positive constant
``s_jk`` that makes the weighted training documents ``b_jk * x_i`` have unit root-mean-square L2
norm. The constant changes a single-base SVM only as a rescaling of C would (C is tuned anyway),
but it puts the five bases on one scale, without which a convex mixture or a worst-case over bases
is dominated by whichever weighting has the largest numbers (odds ratios reach 1e4, chi2 1e3,
ig 1e-2). Base-only methods are a linear SVM (hinge loss, no intercept: the paper's model) on
``b_j * x``; mix-ch and mini-max are ``termweight.learners.kim.MixCH`` and
``MiniMax`` (``C`` on scikit-learn's scale, ``C_Kim = 1/(2C)``).
The main mini-max results use the exact solver (certified relative duality gap ``minimax.tol``);
the paper's subgradient method (step ``1/k``, ``minimax.subgradient_iter`` steps) is the method
``mini-max-sg`` where configured (the main tables of R8 and WebKB), and is compared with the exact
one in ``kim-convergence``. ``minimax.normalize: l2`` (beyond the
paper, default ``none``) puts every weighted document ``b_j * x_i`` on the unit sphere.

Evaluation (section 4.2): micro-F from the pooled counts of the one-vs-others problems, Kim's
macro-F ``2P'R'/(P'+R')`` (``P'``, ``R'`` mean per-problem precision and recall) and, for
comparison, the mean of the per-problem F1 (``termweight.evaluation.averages``).

Where the paper and the [methods page][methods-scoring] differ: rf is ``log(2 + tp/max(1, fp))``
(methods page; the paper prints ``tp/fp``, undefined at fp = 0); or uses 0.5 for zero cells (methods
page; the paper is silent).
"""

from __future__ import annotations

import logging
import time
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError

log = logging.getLogger("termweight.kim")

#: method name -> Kim base metric (``termweight.scoring.KIM_BASES``) for the single-base SVMs.
BASE_METHODS = {"idf": "kim_idf", "chi2": "kim_chi2", "ig": "kim_ig", "rf": "kim_rf",
                "or": "kim_or"}
BASE_NAMES = tuple(BASE_METHODS.values())
COMBINED = ("mix-ch", "mini-max", "mini-max-sg")
ALL_METHODS = (*BASE_METHODS, *COMBINED)
LABELS = {"mini-max-sg": "mini-max (subgradient)"}


# --- protocol pieces (pure functions) -----------------------------------------------------------

@dataclass(frozen=True)
class TaskData:
    """Row-normalised train/eval matrices over the training-present terms, and the bases."""

    X_train: sp.csr_matrix
    X_eval: sp.csr_matrix
    Y_train: np.ndarray  # (n_train, K) 0/1
    Y_eval: np.ndarray  # (n_eval, K) 0/1
    bases: np.ndarray  # (K, J, V): base weights per task
    columns: np.ndarray  # corpus columns kept (present in the training rows)


def kim_bases(X_train, Y_train, base_names=BASE_NAMES,
              scale: str = "rms") -> np.ndarray:
    """Kim's base weights of every one-vs-others task from TRAINING rows only: (K, J, V).

    ``X_train`` are the (row-normalised) training documents, ``Y_train`` their label indicator.
    ``scale='rms'``: each ``b_jk`` times ``1 / sqrt(mean_i ||b_jk * x_i||^2)`` (module docstring);
    ``'none'``: the weights as printed.
    """
    from termweight.learners.kim import _dot
    from termweight.scoring import as_scaling_weights, score
    from termweight.statistics import term_stats

    st = term_stats(X_train, sp.csr_matrix(Y_train))
    B = np.stack([as_scaling_weights(score(m, st)) for m in base_names], axis=1)  # (K, J, V)
    if scale == "rms":
        X = sp.csr_matrix(X_train, dtype=np.float64)
        q = np.asarray(X.multiply(X).mean(axis=0)).ravel()  # mean_i x_it^2
        # (K, J) mean squared norm of the weighted documents, summed in index order (no BLAS:
        # the same bits on every CPU, termweight.learners.kim._combine)
        ms = np.array([[_dot(r, q) for r in Bk] for Bk in B * B]).reshape(B.shape[:2])
        s = np.divide(1.0, np.sqrt(ms), out=np.ones_like(ms), where=ms > 0)
        B = B * s[:, :, None]
    elif scale != "none":
        raise ConfigError(f"kim: unknown base scaling {scale!r} (rms, none)")
    return B


def task_data(X, Y, train, evaluate, base_names=BASE_NAMES,
              scale: str = "rms", tf_norm: str = "l2") -> TaskData:
    """Restrict to the terms present in ``train`` rows, L2-normalise rows (``tf_norm='l2'``;
    ``'none'``: the raw counts of eq. (1)), compute the bases."""
    from termweight.encoding import l2_normalize

    if tf_norm not in ("l2", "none"):
        raise ConfigError(f"kim: unknown tf_norm {tf_norm!r} (l2, none)")
    norm = l2_normalize if tf_norm == "l2" else (lambda M: sp.csr_matrix(M, dtype=np.float64))
    X = sp.csr_matrix(X)
    Y = sp.csr_matrix(Y)
    Xtr = X[train]
    columns = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)
    Xtr = norm(Xtr[:, columns])
    Xev = norm(X[evaluate][:, columns])
    Ytr = Y[train].toarray().astype(np.int64)
    return TaskData(Xtr, Xev, Ytr, Y[evaluate].toarray().astype(np.int64),
                    kim_bases(Xtr, Ytr, base_names, scale), columns)


def validation_rows(train, labels, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Stratified hold-out of the TRAINING rows ``train``: (inner-train, validation) row indices."""
    from sklearn.model_selection import train_test_split

    train = np.asarray(train)
    strat = labels[train] if labels is not None else None
    inner, val = train_test_split(train, test_size=fraction, random_state=seed, stratify=strat)
    return np.sort(inner), np.sort(val)


def minimax_normalize(mm: dict) -> str | None:
    """``minimax.normalize`` as ``MiniMax`` takes it."""
    return None if mm.get("normalize", "none") == "none" else mm["normalize"]


def make_estimator(method: str, B: np.ndarray, C: float, cfg: dict):
    """The estimator of ``method`` for one task with bases ``B`` (J, V)."""
    from termweight.learners.kim import MiniMax, MixCH

    svm = cfg.get("svm", {})
    svm_kw = {"svm_tol": svm.get("tol", 1e-4), "svm_max_iter": svm.get("max_iter", 10000),
              "svm_gap_tol": svm.get("gap_tol")}
    if method in BASE_METHODS:
        j = list(BASE_METHODS).index(method)
        return MixCH(B[j:j + 1], C=C, **svm_kw)  # one base: a plain hinge-loss LinearSVC
    if method == "mix-ch":
        mc = cfg.get("mixch", {})
        return MixCH(B, C=C, max_iter=mc.get("max_iter", 20), tol=mc.get("tol", 1e-4), **svm_kw)
    mm = cfg.get("minimax", {})
    norm = minimax_normalize(mm)
    if method == "mini-max":
        return MiniMax(B, C=C, solver="exact", tol=mm.get("tol", 1e-3),
                       max_iter=mm.get("max_iter", 500), max_cuts=mm.get("max_cuts", 100),
                       normalize=norm)
    if method == "mini-max-sg":
        return MiniMax(B, C=C, solver="subgradient", max_iter=mm.get("subgradient_iter", 300),
                       eta0=mm.get("eta0", 1.0), normalize=norm)
    raise ConfigError(f"kim: unknown method {method!r}; known: {', '.join(ALL_METHODS)}")


def fit_predict(method, Xtr, ytr, Xev, B, C, cfg) -> tuple[np.ndarray, dict]:
    """Fit one binary task, predict ``Xev``; returns predictions (0/1) and fit information."""
    from sklearn.exceptions import ConvergenceWarning

    if ytr.min() == ytr.max():  # no positives (or no negatives) in training: constant prediction
        return np.full(Xev.shape[0], int(ytr[0]), dtype=np.int64), {"status": "constant"}
    est = make_estimator(method, B, C, cfg)
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        est.fit(Xtr, ytr)
    info = {"status": "ok", "fit_time": time.perf_counter() - t0,
            "n_iter": int(getattr(est, "n_iter_", 1)),
            "converged": bool(getattr(est, "converged_", True)),
            "warnings": sum(issubclass(w.category, ConvergenceWarning) for w in caught)}
    if hasattr(est, "svm_n_iter_"):  # liblinear passes (the SVMs and mix-ch's SVM steps)
        info["svm_iter"] = int(est.svm_n_iter_)
        # liblinear's own test met, or the capped steps finished to a certified gap
        info["svm_converged"] = bool(est.svm_converged_)
        info["svm_finished"] = int(est.svm_finished_)
        info["svm_gap"] = float(est.svm_gap_)
    if method == "mix-ch":
        info["alpha"] = ";".join(f"{a:.4f}" for a in est.alpha_)
    if method.startswith("mini-max"):
        info["objective"] = float(est.history_["best_objective"][-1])
    return est.predict(Xev).astype(np.int64), info


def fit_predict_grid(method, Xtr, ytr, Xev, B, grid, cfg) -> list[tuple[np.ndarray, dict]]:
    """``fit_predict`` at every C of ``grid`` (ascending). The exact mini-max solver goes
    along the grid reusing its cutting planes (``termweight.learners.kim.minimax_path``)."""
    from sklearn.exceptions import ConvergenceWarning

    if method != "mini-max" or ytr.min() == ytr.max():
        return [fit_predict(method, Xtr, ytr, Xev, B, C, cfg) for C in grid]
    from termweight.learners.kim import minimax_path

    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        ests = minimax_path(make_estimator(method, B, grid[0], cfg), Xtr, ytr, grid)
    t = (time.perf_counter() - t0) / len(grid)  # the path's time, shared evenly
    del caught  # the exact solver warns exactly when it did not converge
    return [(est.predict(Xev).astype(np.int64),
             {"status": "ok", "fit_time": t, "n_iter": int(est.n_iter_),
              "converged": bool(est.converged_), "warnings": int(not est.converged_),
              "objective": float(est.history_["best_objective"][-1])}) for est in ests]


def f1_score01(y, p) -> float:
    tp = int(np.sum((y == 1) & (p == 1)))
    d = int(np.sum(y == 1)) + int(np.sum(p == 1))
    return 2.0 * tp / d if d else 0.0


def c_values(cfg: dict) -> tuple[list[float], list[float]]:
    """(``validation.C_grid`` ascending, the ``validation.extend`` values above its top,
    ascending): every C the grid tries, and those tried only while the top wins."""
    grid = sorted(float(c) for c in cfg["validation"]["C_grid"])
    return grid, sorted(float(c) for c in cfg["validation"].get("extend", ()) if c > grid[-1])


def select_C(X, Y, train, methods, cfg, seed: int, classes) -> pd.DataFrame:
    """Hold-out validation inside ``train`` for every method x task x C (module docstring)."""
    val_cfg = cfg["validation"]
    labels = None
    counts = np.asarray(sp.csr_matrix(Y)[train].sum(axis=1)).ravel()
    if np.all(counts == 1):
        labels = np.asarray(sp.csr_matrix(Y).argmax(axis=1)).ravel()
    inner, val = validation_rows(train, labels, float(val_cfg["fraction"]), seed)
    d = task_data(X, Y, inner, val, scale=cfg.get("base_scale", "rms"),
                  tf_norm=cfg.get("tf_norm", "l2"))
    grid, extension = c_values(cfg)
    if len(grid) == 1:  # nothing to choose: no validation fits
        return pd.DataFrame({"n_inner": len(inner), "n_val": len(val),
                             "method": [m for _ in classes for m in methods],
                             "task": [c for c in classes for _ in methods], "C": grid[0],
                             "val_f1": np.nan, "fit_time": 0.0, "warnings": 0, "chosen": True})
    rows = []
    for k, cls in enumerate(classes):
        for method in methods:
            args = (d.X_train, d.Y_train[:, k], d.X_eval, d.bases[k])
            fits = fit_predict_grid(method, *args, grid, cfg)
            tried = list(grid)
            f1 = [f1_score01(d.Y_eval[:, k], pred) for pred, _ in fits]
            for C in extension:  # up while the top is the strict best (as learners.protocol)
                if f1[-1] <= max(f1[:-1]):
                    break
                pred, info = fit_predict(method, *args, C, cfg)
                tried.append(C)
                fits.append((pred, info))
                f1.append(f1_score01(d.Y_eval[:, k], pred))
            for C, score, (_, info) in zip(tried, f1, fits, strict=True):
                rows.append({"method": method, "task": cls, "C": C, "val_f1": score,
                             "fit_time": info.get("fit_time", 0.0),
                             "warnings": info.get("warnings", 0)})
    frame = pd.DataFrame(rows)
    # the best validation F1 per (method, task); ties -> the smaller C (grid is ascending)
    best = frame.loc[frame.groupby(["method", "task"], sort=False)["val_f1"].idxmax()]
    frame["chosen"] = frame.index.isin(best.index)
    frame.insert(0, "n_inner", len(inner))
    frame.insert(1, "n_val", len(val))
    return frame


def fit_split(X, Y, split, methods, chosen: dict, cfg, classes) -> pd.DataFrame:
    """Refit every method on the training half with its chosen C; per-task test counts."""
    d = task_data(X, Y, split.train, split.test, scale=cfg.get("base_scale", "rms"),
                  tf_norm=cfg.get("tf_norm", "l2"))
    rows = []
    for k, cls in enumerate(classes):
        y = d.Y_eval[:, k]
        for method in methods:
            C = chosen[(method, cls)]
            pred, info = fit_predict(method, d.X_train, d.Y_train[:, k], d.X_eval, d.bases[k],
                                     C, cfg)
            tp = int(np.sum((y == 1) & (pred == 1)))
            fp = int(np.sum((y == 0) & (pred == 1)))
            fn = int(np.sum((y == 1) & (pred == 0)))
            rows.append({"method": method, "task": cls, "C": C, "tp": tp, "fp": fp, "fn": fn,
                         "tn": int(y.size - tp - fp - fn), "train_pos": int(d.Y_train[:, k].sum()),
                         "n_terms": int(d.columns.size), **info})
    frame = pd.DataFrame(rows)
    for col in ("fit_time", "n_iter", "converged", "warnings", "svm_iter", "svm_converged",
                "svm_finished", "svm_gap", "alpha", "objective"):
        if col not in frame:
            frame[col] = np.nan
    return frame


def unconverged(fits: pd.DataFrame) -> pd.Series:
    """Per task fit: True where a solver stopped at its cap without meeting its tolerance.

    liblinear's pass cap (``svm_iter`` at ``svm.max_iter``; in fits without that column, a
    ConvergenceWarning), mix-ch's round cap, the exact mini-max solver's iteration cap
    (``converged`` False). The subgradient method (``mini-max-sg``) has no stopping test: its fits
    count as unconverged (it always runs ``subgradient_iter`` steps). Constant predictions (a task
    without positives in training) count as converged.
    """
    def col(name, default):
        return fits[name] if name in fits else pd.Series(default, index=fits.index)

    ok = col("status", "ok").astype(str) == "ok"
    conv = col("converged", True).map(lambda v: str(v) in ("True", "true", "1", "1.0"))
    warn = pd.to_numeric(col("warnings", 0), errors="coerce").fillna(0) > 0
    if "svm_converged" in fits:  # rows with the column: liblinear's own count, per row
        known = fits["svm_converged"].notna() & (fits["svm_converged"].astype(str) != "")
        svm_bad = fits["svm_converged"].map(lambda v: str(v) in ("False", "false", "0", "0.0"))
        warn = warn.where(~known, svm_bad | (warn & ~fits["method"].isin(BASE_METHODS)))
    return ok & (~conv | warn)


def run_summary(fits: pd.DataFrame) -> pd.DataFrame:
    """One row per (dataset, split, method): micro-F, Kim's macro-F, mean-F1 macro, P', R',
    and convergence: ``fits`` (task fits), ``unconverged`` (of them, ``unconverged``),
    ``finished`` (of them, fits with an SVM step that stopped at liblinear's cap and was
    finished to a certified gap, ``svm.gap_tol``) and the most / mean liblinear passes per fit
    (``svm_iter_max``, ``svm_iter_mean``; NaN where no liblinear step ran or the fits predate
    the column)."""
    from termweight.evaluation import averages

    fits = fits.assign(_bad=unconverged(fits))
    iters = pd.to_numeric(fits["svm_iter"], errors="coerce") if "svm_iter" in fits else \
        pd.Series(np.nan, index=fits.index)
    finished = (pd.to_numeric(fits["svm_finished"], errors="coerce").fillna(0) > 0
                if "svm_finished" in fits else pd.Series(False, index=fits.index))
    fits = fits.assign(_iter=iters, _finished=finished)
    out = []
    for (key, split, method), grp in fits.groupby(["dataset", "split", "method"], sort=False):
        a = averages(grp[["tp", "fp", "fn", "tn"]])
        out.append({"dataset": key, "split": split, "method": method,
                    "micro_f": a["micro_f1"], "kim_macro_f": a["kim_macro_f"],
                    "macro_f1": a["macro_f1"], "macro_precision": a["macro_precision"],
                    "macro_recall": a["macro_recall"], "fits": len(grp),
                    "unconverged": int(grp["_bad"].sum()),
                    "finished": int(grp["_finished"].sum()),
                    "svm_iter_max": grp["_iter"].max(), "svm_iter_mean": grp["_iter"].mean()})
    return pd.DataFrame(out)


def mean_sd(values) -> tuple[float, float]:
    """Mean and sample standard deviation (the paper's '+-'; 0 for one run)."""
    v = np.asarray(values, dtype=np.float64)
    return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else 0.0


# --- configuration ------------------------------------------------------------------------------

def _config(path) -> dict:
    from termweight.runner.config import load_params

    params = load_params(path)
    if "kim" not in params:
        raise ConfigError(f"{path}: no 'kim' section")
    return params


def _dataset_cfg(params, key) -> dict:
    try:
        return params["kim"]["datasets"][key]
    except KeyError:
        raise ConfigError(f"kim/datasets: no dataset key {key!r}") from None


def settings_of(kim: dict, key: str) -> dict:
    """The ``kim`` settings for dataset ``key``: its optional ``C_grid`` and ``minimax`` entries
    override ``validation.C_grid`` and ``minimax`` (a documented reduction for a large corpus);
    its ``tf_norm`` (``l2``, the default: ``tf/||tf||``; ``none``: eq. (1)'s raw counts) sets the
    document vectors."""
    d = kim["datasets"][key]
    cfg = {**kim, "validation": dict(kim["validation"]), "minimax": dict(kim.get("minimax", {})),
           "tf_norm": d.get("tf_norm", "l2")}
    if "C_grid" in d:
        cfg["validation"]["C_grid"] = list(d["C_grid"])
    cfg["minimax"].update(d.get("minimax", {}))
    return cfg


def methods_of(kim: dict, key: str) -> list[str]:
    methods = kim["datasets"][key].get("methods", kim["methods"])
    for m in methods:
        if m not in ALL_METHODS:
            raise ConfigError(f"kim: unknown method {m!r}; known: {', '.join(ALL_METHODS)}")
    return list(methods)


def protocol_of(kim: dict, key: str) -> dict:
    d = kim["datasets"][key]
    return {"type": "random", "repeats": int(d["repeats"]),
            "train_fraction": float(kim.get("train_fraction", 0.5)),
            "stratified": bool(kim.get("stratified", True))}


def split_names_of(kim: dict, key: str) -> list[str]:
    from termweight.splits import split_names

    return split_names(protocol_of(kim, key))


def _names(args, kim) -> list[str]:
    return list(args.names) if args.names else split_names_of(kim, args.key)


def _load_corpus(path):
    from termweight.corpus import Corpus

    corpus = Corpus.load(path)
    if corpus.multilabel:
        raise DataError(path, "Kim's protocol needs a single-label corpus")
    return corpus


def _split_seed(params, name: str) -> int:
    """Seed of the validation hold-out of split ``r{k}``: base seed + 1000 + k."""
    return int(params["seed"]) + 1000 + int(name.lstrip("r"))


# --- CLI steps ----------------------------------------------------------------------------------

def cmd_split(args) -> None:
    from termweight.splits import make_splits, save_splits

    params = _config(args.params)
    kim = params["kim"]
    _dataset_cfg(params, args.key)
    corpus = _load_corpus(args.corpus)
    splits = make_splits(protocol_of(kim, args.key), corpus.Y, corpus.subset,
                         seed=params["seed"], name=str(args.corpus))
    save_splits(args.out_dir, splits, {"protocol": protocol_of(kim, args.key),
                                       "seed": params["seed"], "corpus": corpus.name})
    log.info("%s: %d splits of %d documents", args.key, len(splits), corpus.n_docs)


def _one_blas_thread():
    """The steps run one per core (Snakemake ``--cores``, DVC): BLAS threads of their own only
    oversubscribe the cores and spin (the dense work here is small: cuts, a 100 x 100 master)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def cmd_select(args) -> None:
    with _one_blas_thread():
        _cmd_select(args)


def cmd_fit(args) -> None:
    with _one_blas_thread():
        _cmd_fit(args)


def cmd_convergence(args) -> None:
    """mix-ch alternation and mini-max subgradient vs exact on one task (kim.convergence)."""
    with _one_blas_thread():
        _cmd_convergence(args)


def _cmd_select(args) -> None:
    from termweight.runner.parallel import for_each
    from termweight.splits import Split

    params = _config(args.params)
    kim = params["kim"]
    corpus = _load_corpus(args.corpus)
    methods = methods_of(kim, args.key)

    def one(name):
        split = Split.load(args.split.format(split=name), n_docs=corpus.n_docs)
        t0 = time.perf_counter()
        frame = select_C(corpus.X, corpus.Y, split.train, methods, settings_of(kim, args.key),
                         _split_seed(params, name), corpus.classes)
        frame.insert(0, "split", name)
        io.write_table(args.out.format(split=name), frame)
        log.info("%s %s: C selected for %d methods x %d tasks x %d values in %.1f s (fits %.1f s)",
                 args.key, name, len(methods), len(corpus.classes),
                 len(settings_of(kim, args.key)["validation"]["C_grid"]), time.perf_counter() - t0,
                 frame["fit_time"].sum())
        for m, t in frame.groupby("method", sort=False)["fit_time"].sum().items():
            log.info("  %s: %.1f s", m, t)

    for_each(getattr(args, "jobs", None), one, _names(args, kim))


def _cmd_fit(args) -> None:
    from termweight.runner.parallel import for_each
    from termweight.splits import Split

    params = _config(args.params)
    kim = params["kim"]
    corpus = _load_corpus(args.corpus)
    methods = methods_of(kim, args.key)

    def one(name):
        split = Split.load(args.split.format(split=name), n_docs=corpus.n_docs)
        sel = io.read_table(args.select.format(split=name))
        sel = sel[sel["chosen"].astype(bool)]
        chosen = {(m, str(t)): float(c) for m, t, c in zip(sel["method"], sel["task"].astype(str),
                                                          sel["C"], strict=True)}
        missing = [(m, c) for m in methods for c in corpus.classes if (m, c) not in chosen]
        if missing:
            raise DataError(args.select.format(split=name), f"no chosen C for {missing[:3]}")
        t0 = time.perf_counter()
        frame = fit_split(corpus.X, corpus.Y, split, methods, chosen, settings_of(kim, args.key),
                          corpus.classes)
        frame.insert(0, "split", name)
        io.write_table(args.out.format(split=name), frame)
        log.info("%s %s: %d methods x %d tasks fitted and tested in %.1f s", args.key, name,
                 len(methods), len(corpus.classes), time.perf_counter() - t0)
        for m, t in frame.groupby("method", sort=False)["fit_time"].sum().items():
            log.info("  %s: %.1f s", m, t)

    for_each(getattr(args, "jobs", None), one, _names(args, kim))


def _cmd_convergence(args) -> None:
    from sklearn.exceptions import ConvergenceWarning

    from termweight.learners.kim import MiniMax, MixCH
    from termweight.splits import Split

    params = _config(args.params)
    kim = params["kim"]
    cv = kim["convergence"]
    corpus = _load_corpus(args.corpus)
    split = Split.load(args.split, n_docs=corpus.n_docs)
    d = task_data(corpus.X, corpus.Y, split.train, split.test, scale=kim.get("base_scale", "rms"))
    # (the convergence figure uses the l2-normalised documents of the main tables)
    if cv["task"] not in corpus.classes:
        raise ConfigError(f"kim/convergence/task: {cv['task']!r} is not a class of {args.corpus} "
                          f"({', '.join(corpus.classes)})")
    k = corpus.classes.index(cv["task"])
    y, B = d.Y_train[:, k], d.bases[k]
    out = {"dataset": cv["dataset"], "split": split.name, "task": cv["task"],
           "n_docs": int(d.X_train.shape[0]), "n_terms": int(d.X_train.shape[1]),
           "bases": list(BASE_METHODS), "runs": []}
    mm = kim.get("minimax", {})
    for C in cv["C"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            t0 = time.perf_counter()
            mx = MixCH(B, C=C, max_iter=kim.get("mixch", {}).get("max_iter", 20),
                       tol=kim.get("mixch", {}).get("tol", 1e-4)).fit(d.X_train, y)
            t_mx = time.perf_counter() - t0
            t0 = time.perf_counter()
            sg = MiniMax(B, C=C, solver="subgradient", max_iter=int(cv["subgradient_iter"]),
                         eta0=mm.get("eta0", 1.0),
                         normalize=minimax_normalize(mm)).fit(d.X_train, y)
            t_sg = time.perf_counter() - t0
            t0 = time.perf_counter()
            ex = MiniMax(B, C=C, solver="exact", tol=float(cv["exact_tol"]),
                         max_iter=int(cv["exact_iter"]),
                         max_cuts=mm.get("max_cuts", 100),
                         normalize=minimax_normalize(mm)).fit(d.X_train, y)
            t_ex = time.perf_counter() - t0
        yt = d.Y_eval[:, k]
        out["runs"].append({
            "C": C,
            # (rel_change of round 1 is infinite: JSON null)
            "mixch": {**{k2: [float(x) if np.isfinite(x) else None for x in v]
                         if k2 != "alpha" else v for k2, v in mx.history_.items()},
                      "n_iter": mx.n_iter_, "converged": bool(mx.converged_), "time_s": t_mx,
                      "test_f1": f1_score01(yt, mx.predict(d.X_eval))},
            "subgradient": {**{k2: list(map(float, v)) for k2, v in sg.history_.items()},
                            "time_s": t_sg, "test_f1": f1_score01(yt, sg.predict(d.X_eval))},
            "exact": {**{k2: list(map(float, v)) for k2, v in ex.history_.items()},
                      "n_iter": ex.n_iter_, "converged": bool(ex.converged_), "time_s": t_ex,
                      "test_f1": f1_score01(yt, ex.predict(d.X_eval))},
        })
        log.info("C=%g: mix-ch %d rounds (%.2f s, alpha %s); subgradient %d it best F %.4f "
                 "(%.2f s); exact %d it F %.4f >= LB %.4f (%.2f s)", C, mx.n_iter_, t_mx,
                 np.round(mx.alpha_, 3).tolist(), sg.n_iter_, sg.history_["best_objective"][-1],
                 t_sg, ex.n_iter_, ex.history_["best_objective"][-1],
                 ex.history_["lower_bound"][-1], t_ex)
    io.write_json(args.out, out)


# --- parser -------------------------------------------------------------------------------------

def register(sub) -> None:
    p = sub.add_parser("kim-split", help="Kim: random 50/50 train/test splits of a corpus")
    p.add_argument("--params", required=True)
    p.add_argument("--key", required=True, help="dataset key under kim/datasets")
    p.add_argument("--corpus", required=True)
    p.add_argument("--out-dir", required=True)
    p.set_defaults(func=cmd_split)

    for name, func, help_ in (("kim-select", cmd_select, "Kim: C by hold-out in the training half"),
                              ("kim-fit", cmd_fit, "Kim: refit with the chosen C, test counts")):
        p = sub.add_parser(name, help=help_)
        p.add_argument("--params", required=True)
        p.add_argument("--key", required=True)
        p.add_argument("--corpus", required=True)
        p.add_argument("--split", required=True, help="split file template with {split}")
        if func is cmd_fit:
            p.add_argument("--select", required=True, help="kim-select output with {split}")
        p.add_argument("--out", required=True, help="CSV template with {split}")
        p.add_argument("--names", nargs="+", help="split names (default: all of the dataset key)")
        p.add_argument("--jobs", type=int, metavar="N", help="worker processes, one split each "
                       "(default: the CPUs available; outputs do not depend on it)")
        p.set_defaults(func=func)

    p = sub.add_parser("kim-convergence", help="Kim: mix-ch rounds; mini-max subgradient vs exact")
    p.add_argument("--params", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--split", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_convergence)


# --- the paper's declaration (termweight.experiments.papers) -------------------------------------
