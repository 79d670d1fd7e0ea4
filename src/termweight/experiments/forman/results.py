"""Forman (2008)'s runs read back and checked (``read_results``: every cell present, counts in
range), pooled into one measurement per (task, seed) and summarised (macro-average, s.e.), with the
paired t-tests over the same measurements."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from termweight.experiments.forman import COUNT_COLUMNS, SELECT_KEYS, UNIT, label, learners_of
from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError

log = logging.getLogger("termweight.experiments.forman")


def measurements(frame: pd.DataFrame, keys) -> pd.DataFrame:
    """Pool the folds: one row per (keys, task, repeat) with accuracy, precision, recall, F."""
    from termweight.evaluation import rates

    keys = list(keys) + ["dataset", "task", "repeat"]
    g = frame.groupby(keys, sort=False)
    out = g[list(COUNT_COLUMNS)].sum()
    out["converged"] = g["converged"].min()
    out = out.reset_index()
    for k, v in rates(*(out[c].to_numpy() for c in COUNT_COLUMNS)).items():
        out[k] = v
    out["positives"] = out["tp"] + out["fn"]
    out["n"] = out[list(COUNT_COLUMNS)].sum(axis=1)
    out["pct_pos"] = 100.0 * out["positives"] / out["n"]
    return out


def selection_measurements(frame: pd.DataFrame) -> pd.DataFrame:
    """``measurements`` of the Fig. 6 grid; "all" (k = that fold's vocabulary) pools as k = 0.

    A level ``k`` at or above a fold's vocabulary selects every term: that fold's "all" result
    stands in for it, so that every level averages over the same tasks (the oh* datasets have
    about 3,000 terms, the tr* sets 5,800-10,100).
    """
    frame = frame.copy()
    frame.loc[frame["selector"] == "all", "k"] = 0
    alls = frame[frame["selector"] == "all"]
    unit = ["task", "repeat", "fold", "scaling"]
    pieces = [frame]
    grid = frame.loc[frame["selector"] != "all", ["selector", "k"]].drop_duplicates()
    for selector, k in grid.itertuples(index=False):
        have = frame.loc[(frame["selector"] == selector) & (frame["k"] == k), unit]
        merged = alls.merge(have, on=unit, how="left", indicator=True)
        fill = merged[merged["_merge"] == "left_only"].drop(columns="_merge")
        pieces.append(fill.assign(selector=selector, k=k))
    return measurements(pd.concat(pieces, ignore_index=True), ["selector", "k", "scaling"])


def summarise(meas: pd.DataFrame, keys, metrics=("accuracy", "f1", "precision", "recall")):
    """Mean and standard error of each metric per ``keys`` group (keys in first-seen order)."""
    from termweight.evaluation import mean_se

    rows = []
    for key, grp in meas.groupby(list(keys), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(keys, key, strict=True))
        row["n"] = len(grp)
        for m in metrics:
            row[m], row[f"{m}_se"] = mean_se(grp[m])
        row["not_converged"] = int((grp["converged"] == 0).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def per_task(frame: pd.DataFrame, metric: str) -> pd.Series:
    """``metric`` of each task (``UNIT``), averaged over its seeds."""
    return frame.groupby(UNIT, sort=True)[metric].mean()


def paired(meas: pd.DataFrame, a: str, b: str, metric: str) -> dict:
    """Paired two-tailed t-test (and Wilcoxon) of representations ``a`` vs ``b`` on ``metric``
    over the tasks, each task's seeds averaged first (n = the tasks)."""
    from termweight.inference import paired_tests

    wide = meas.groupby([*UNIT, "rep"], sort=True)[metric].mean().unstack("rep")
    return {"a": a, "b": b, "metric": metric, **paired_tests(wide[a], wide[b])}


def ascii_label(rep: str) -> str:
    """``label`` in plain ASCII (the claims' texts): TF-IDF, TF-BNS, BNS."""
    return label(rep).replace("·", "-")


def _learner_name(learner: str) -> str:
    return {"linearsvc": "LinearSVC", "smo": "SMO (libsvm, WEKA's problem)"}.get(learner, learner)


def _count_ranges() -> dict:
    """The columns the report reads of a per-fold row: counts >= 0, ``converged`` 0 or 1 (a
    function, not a module constant: import-time code is part of every Forman stage's digest)."""
    from termweight.results_check import NONNEGATIVE, UNIT

    return {**dict.fromkeys(COUNT_COLUMNS, NONNEGATIVE), "converged": UNIT}


def _cell_text(frame, keys, i: int) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, frame[list(keys)].iloc[i], strict=True))


def _check_tested(path, frame, keys) -> None:
    """Every row counts a test fold's documents (tp + fp + fn + tn > 0): its rates are not 0/0."""
    total = frame[list(COUNT_COLUMNS)].to_numpy(dtype=np.float64).sum(axis=1)
    empty = np.flatnonzero(total <= 0)
    if empty.size:
        i = int(empty[0])
        raise DataError(path, f"cell ({_cell_text(frame, keys, i)}) counts no test document "
                              "(tp + fp + fn + tn = 0)", line=i + 2)


def _check_evaluated(path, frame, unit, tasks, cfg) -> None:
    """One ``forman-evaluate`` table: every task x fold x learner x representation of its
    dataset and seed once, counts >= 0, ``converged`` in [0, 1]."""
    reps = [f"{b}-{m}" for b in cfg["bases"] for m in cfg["scalings"]]
    cells = {"dataset": [unit[0]], "task": tasks, "repeat": [unit[1]],
             "fold": range(int(cfg["folds"])), "learner": learners_of(cfg), "rep": reps}
    from termweight.results_check import check_cells

    check_cells(path, frame.copy(), cells, _count_ranges())
    _check_tested(path, frame, list(cells))


def _selection_grid(path, frame, unit, tasks, cfg) -> pd.DataFrame:
    """The cells a ``forman-select`` table must hold (``select_repeat``'s grid): per fold, the
    counts below that fold's vocabulary (the k of its "all" rows) x the selectors, and "all",
    x the scalings x the tasks."""
    sel, keys = cfg["selection"], list(SELECT_KEYS)
    alls = frame[frame["selector"].astype(str) == "all"]
    vocab = alls.groupby("fold")["k"].agg(["min", "max"])
    pieces = []
    for fold in range(int(cfg["folds"])):
        if fold not in vocab.index:
            raise DataError(path, f"cell (dataset={unit[0]}, task={tasks[0]}, repeat={unit[1]}, "
                                  f"fold={fold}, selector=all, scaling={sel['scalings'][0]}) is "
                                  "missing: no \"all\" row in this fold")
        n, other = vocab.loc[fold, "min"], vocab.loc[fold, "max"]
        if n != other:
            i = int(np.flatnonzero((alls["fold"] == fold) & (alls["k"] == other))[0])
            raise DataError(path, f"fold {fold}: \"all\" rows with k = {n} and k = {other} (one "
                                  "vocabulary per fold)", line=int(alls.index[i]) + 2)
        levels = [(s, k) for k in sel["counts"] if k < n for s in sel["selectors"]]
        levels.append(("all", n))
        grid = pd.DataFrame(levels, columns=["selector", "k"]).merge(
            pd.DataFrame({"scaling": sel["scalings"]}), how="cross").merge(
            pd.DataFrame({"task": tasks}), how="cross")
        pieces.append(grid.assign(dataset=unit[0], repeat=unit[1], fold=fold)[keys])
    return pd.concat(pieces, ignore_index=True)


def _check_selected(path, frame, unit, tasks, cfg) -> None:
    """One ``forman-select`` table: every cell of its grid (``_selection_grid``) once and no
    other, counts >= 0, ``converged`` in [0, 1]."""
    sel, keys = cfg["selection"], list(SELECT_KEYS)
    vocab = frame.loc[frame["selector"].astype(str) == "all", "k"].astype(str).unique()
    cells = {"dataset": [unit[0]], "task": tasks, "repeat": [unit[1]],
             "fold": range(int(cfg["folds"])), "selector": [*sel["selectors"], "all"],
             "k": [*map(str, sel["counts"]), *vocab], "scaling": sel["scalings"]}
    from termweight.results_check import check_cells

    check_cells(path, frame.copy(), cells, _count_ranges(), complete=False)
    _check_tested(path, frame, keys)
    want = _selection_grid(path, frame, unit, tasks, cfg).astype(str)
    have = frame[keys].astype(str)
    extra = np.flatnonzero(have.merge(want, on=keys, how="left", indicator=True)["_merge"]
                           == "left_only")
    if extra.size:
        i = int(extra[0])
        raise DataError(path, f"cell ({_cell_text(frame, keys, i)}) is not declared by the "
                              "params: not a selection level below this fold's vocabulary",
                        line=i + 2)
    both = want.merge(have, on=keys, how="left", indicator=True)
    lost = both[both["_merge"] == "left_only"]
    if len(lost):
        cell = ", ".join(f"{k}={lost.iloc[0][k]}" for k in keys)
        raise DataError(path, f"cell ({cell}) is missing: the params declare {len(want)} cells "
                              f"of the selection grid, the file holds {len(frame)}")


def read_results(eval_paths, select_paths, units, cfg) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``forman-evaluate`` and ``forman-select`` tables of every (dataset, seed) of
    ``units``, checked against the params (``_check_evaluated``, ``_check_selected``); a
    dataset's tasks are those any of its tables names, so each of its tables must hold them
    all. Returns both concatenated, as read."""
    if not len(eval_paths) == len(select_paths) == len(units):
        raise ConfigError(f"forman-report: {len(units)} (dataset, seed) units, "
                          f"{len(eval_paths)} evaluate and {len(select_paths)} select tables")
    evaluated = [io.read_table(p, required=("task",)) for p in eval_paths]
    for frame in evaluated:
        if "learner" not in frame:  # results from before the learners option: LinearSVC
            frame.insert(2, "learner", "linearsvc")
    selected = [io.read_table(p, required=("task", "selector", "fold", "k"))
                for p in select_paths]
    tasks: dict[str, list] = {}
    for (dataset, _), frame in zip(units * 2, evaluated + selected, strict=True):
        tasks[dataset] = list(pd.unique(pd.Series([*tasks.get(dataset, []),
                                                   *frame["task"].astype(str)])))
    for path, frame, unit in zip(eval_paths, evaluated, units, strict=True):
        _check_evaluated(path, frame, unit, tasks[unit[0]], cfg)
    for path, frame, unit in zip(select_paths, selected, units, strict=True):
        _check_selected(path, frame, unit, tasks[unit[0]], cfg)
    return (pd.concat(evaluated, ignore_index=True), pd.concat(selected, ignore_index=True))
