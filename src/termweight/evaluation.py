"""Evaluation measures ([methods: evaluation][methods-evaluation]).

Per task (category) from the confusion counts ``TP, FP, FN, TN`` of its binary decisions:
accuracy ``(TP+TN)/n``, precision ``TP/(TP+FP)``, recall ``TP/(TP+FN)``,
F1 ``2TP/(2TP+FP+FN)``; a zero denominator gives 0 (scikit-learn's ``zero_division=0``).

Averages over the tasks of one run:

- micro: the same formulas on the pooled counts ``sum TP, sum FP, ...`` (Esuli & Sebastiani);
- macro-F1: the MEAN of the per-category F1 (Esuli & Sebastiani; Forman);
- Kim's macro-F: ``2 P' R' / (P' + R')`` with ``P'``, ``R'`` the mean per-category precision
  and recall (Kim 2016, section 4) -- a different number; both are reported under their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:  # pandas is imported where a frame is made (the workflow extra)
    import pandas as pd

COUNT_COLUMNS = ("tp", "fp", "fn", "tn")


def _div(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return np.divide(a, b, out=np.zeros(np.broadcast(a, b).shape), where=b != 0)


def confusion_counts(Y_true, Y_pred) -> pd.DataFrame:
    """Per-task ``tp, fp, fn, tn`` from (n_docs x n_tasks) 0/1 indicators (dense or sparse)."""
    import pandas as pd

    T = sp.csr_matrix(Y_true, dtype=np.int64)
    P = sp.csr_matrix(Y_pred, dtype=np.int64)
    n = T.shape[0]
    tp = np.asarray(T.multiply(P).sum(axis=0)).ravel()
    t = np.asarray(T.sum(axis=0)).ravel()
    p = np.asarray(P.sum(axis=0)).ravel()
    return pd.DataFrame({"tp": tp, "fp": p - tp, "fn": t - tp, "tn": n - t - p + tp})


def rates(tp, fp, fn, tn) -> dict[str, np.ndarray]:
    """Accuracy, precision, recall and F1 from confusion counts (arrays or scalars)."""
    tp, fp, fn, tn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, tn))
    return {
        "accuracy": _div(tp + tn, tp + fp + fn + tn),
        "precision": _div(tp, tp + fp),
        "recall": _div(tp, tp + fn),
        "f1": _div(2 * tp, 2 * tp + fp + fn),
    }


def per_task_metrics(counts: pd.DataFrame) -> pd.DataFrame:
    """Add accuracy, precision, recall and F1 columns to a frame of confusion counts."""
    out = counts.copy()
    for k, v in rates(*(counts[c].to_numpy() for c in COUNT_COLUMNS)).items():
        out[k] = v
    return out


def averages(counts: pd.DataFrame) -> dict[str, float]:
    """Micro and macro averages of one run's per-task confusion counts."""
    per = per_task_metrics(counts)
    micro = rates(*(counts[c].sum() for c in COUNT_COLUMNS))
    mp, mr = per["precision"].mean(), per["recall"].mean()
    return {
        **{f"micro_{k}": float(v) for k, v in micro.items()},
        "macro_accuracy": float(per["accuracy"].mean()),
        "macro_precision": float(mp),
        "macro_recall": float(mr),
        "macro_f1": float(per["f1"].mean()),
        "kim_macro_f": float(_div(2 * mp * mr, mp + mr)),
    }


def ordinal_mse(y_true, y_pred) -> float:
    """Mean squared difference of ordinal class indices (Mukras et al. 2007, section 5)."""
    d = np.asarray(y_true, dtype=np.float64) - np.asarray(y_pred, dtype=np.float64)
    return float(np.mean(d * d))


def error_rate(y_true, y_pred) -> float:
    """Test error rate (Ferreira & Figueiredo)."""
    return float(np.mean(np.asarray(y_true) != np.asarray(y_pred)))


def mean_se(values) -> tuple[float, float]:
    """Mean and standard error (sample sd / sqrt(n); 0 for one value)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size <= 1:
        return (float(v.mean()) if v.size else float("nan"), 0.0)
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size))
