"""The measurement scripts of benchmarks/ that docs quote: their figures computed by hand on two
tiny runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fit(root, learner, split, value, accuracy, scores, seconds=None):
    column = root / "data/benchmark/columns/bench_x/tf-bns.csv"
    column.parent.mkdir(parents=True, exist_ok=True)
    rows = pd.DataFrame({"learner": [learner] * 2, "split": [split] * 2, "task": ["a", "b"],
                         "value": [value] * 2, "doc_accuracy": [accuracy] * 2})
    if column.exists():
        rows = pd.concat([pd.read_csv(column), rows], ignore_index=True)
    rows.to_csv(column, index=False)
    d = root / "data/benchmark/decisions/bench_x/tf-bns" / learner
    d.mkdir(parents=True, exist_ok=True)
    np.savez(d / f"{split}.npz", scores=np.asarray(scores, dtype=np.float32))
    if seconds is not None:
        log = root / "logs/benchmark/column/bench_x_tf-bns.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(f"... INFO benchmark-column done in {seconds} s\n")


def test_compare_tolerance_by_hand(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))  # as when run from there
    ct = _load("compare_tolerance")
    old, new = tmp_path / "old", tmp_path / "new"
    # linearsvc r0: same C, one of two top-1 predictions flips, decisions move by 0.5
    _fit(old, "linearsvc", "r0", 1.0, 0.50, [[1.0, 0.0], [0.0, 1.0]], seconds=30)
    _fit(new, "linearsvc", "r0", 1.0, 1.00, [[1.0, 0.0], [0.5, 0.0]], seconds=10)
    # logreg r0: another C, nothing else moves
    _fit(old, "logreg", "r0", 10.0, 0.75, [[1.0, 0.0], [0.0, 1.0]])
    _fit(new, "logreg", "r0", 100.0, 0.70, [[1.0, 0.0], [0.0, 1.0]])
    # finished in the old run only: not compared
    _fit(old, "mnb", "r0", 1.0, 0.6, [[1.0, 0.0], [0.0, 1.0]])
    s = ct.summary(ct.fits(old, new), ct.times(old, new))
    assert (s["fits"], s["columns"], s["value_same"]) == (2, 1, 1)
    assert s["mean_abs_acc_change"] == pytest.approx((0.5 + 0.05) / 2)
    assert s["mean_acc_change"] == pytest.approx((0.5 - 0.05) / 2)
    same = s["same_value"]
    assert same["max_decision_change"] == 1.0 and same["top1_agree_min"] == 0.5
    assert same["max_abs_acc_change_by_learner"] == {"linearsvc": 0.5}
    other = s["other_value"]
    assert other["fits"] == 1 and other["by_learner"] == {"logreg": 1}
    assert other["max_abs_acc_change"] == pytest.approx(0.05)
    assert s["time"] == {"columns": 1, "old_s": 30.0, "new_s": 10.0,
                         "ratio_total": 3.0, "ratio_median": 3.0}
