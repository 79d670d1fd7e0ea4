"""What each intermediate must be when a step reads it: one schema per kind, checked always.

A schema lists the arrays of a kind (split, stats, scores, encoded, model, predictions) with
their dtype, their shape in named dimensions and their value range. Dimensions bind where first
seen (``n_terms`` from ``columns``) and must agree afterwards, with the other arrays of the file
and with the dimensions the reader passes in (``n_docs`` of the corpus, ``n_train`` of the split).
Per-kind relations follow (train and test disjoint; ``tp <= pos`` and ``tp <= df``). Anything
else is a ``DataError`` (``termweight.runner.errors``) naming the file and the array: a tampered split
or statistics file is refused before it changes a number.

Tables (per-task metrics, runs) and ``meta.json`` have their own small checks below. Every check
is vectorised over the array (one pass each); the cost on the quick start is measured in
``docs/robustness.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from termweight.runner import io
from termweight.runner.errors import DataError


@dataclass(frozen=True)
class Field:
    """One array of a schema.

    ``kind``: ``int`` (integer dtype), ``real`` (integer or float), ``01`` (bool or 0/1 values),
    ``csr`` (a real CSR matrix; ``real`` and ``01`` fields may be CSR too). ``shape``: dimension
    names (or ints). ``low`` / ``high``: value bounds (inclusive); ``below``: values must be
    smaller than that dimension (indices).
    Values of ``real`` and ``csr`` fields must be finite.
    """

    kind: str
    shape: tuple
    low: float | None = None
    high: float | None = None
    below: str | None = None
    optional: bool = False


SCHEMAS: dict[str, dict[str, Field]] = {
    "split": {
        "train": Field("int", ("n_train",), low=0, below="n_docs"),
        "test": Field("int", ("n_test",), low=0, below="n_docs"),
    },
    "stats": {
        "columns": Field("int", ("n_terms",), low=0, below="n_corpus_terms"),
        "tp": Field("int", ("n_classes", "n_terms"), low=0),
        "pos": Field("int", ("n_classes",), low=0),
        "df": Field("int", ("n_terms",), low=0),
        "n_docs": Field("int", (), low=1),
    },
    # scores: one (n_classes, n_terms) array per metric, names not fixed (see check())
    "scores": {},
    "encoded": {
        "X_train": Field("csr", ("n_train", "n_terms")),
        "X_test": Field("csr", ("n_test", "n_terms")),
        "Y_train": Field("01", ("n_train", "n_classes")),
        "Y_test": Field("01", ("n_test", "n_classes")),
        "col_weights": Field("real", ("n_classes", "n_terms"), low=0, optional=True),
    },
    "model": {
        "coef": Field("real", ("n_classes", "n_terms")),
        "intercept": Field("real", ("n_classes",)),
        "fitted": Field("01", ("n_classes",)),
    },
    # a term ranking (Mukras's selectors): a permutation of the term columns, best first
    "ranking": {"order": Field("int", ("n_terms",), low=0, below="n_terms")},
    "predictions": {
        "scores": Field("real", ("n_test", "n_classes")),
        "predicted": Field("01", ("n_test", "n_classes")),
    },
}


def _fail(path, name, what):
    raise DataError(path, f"array {name!r}: {what}")


def _check_field(path, name: str, value, field: Field, dims: dict, origin: dict) -> None:
    if field.kind == "csr" and not sp.issparse(value):
        _fail(path, name, "expected a sparse matrix")
    if sp.issparse(value):  # a CSR matrix stands for a dense array of any kind but "int"
        if field.kind == "int":
            _fail(path, name, "expected a dense array, found a sparse matrix")
        values, shape = value.data, value.shape
    else:
        values, shape = np.asarray(value), np.shape(value)
    kind = values.dtype.kind
    if field.kind == "int" and kind not in "iu":
        _fail(path, name, f"expected integers, found dtype {values.dtype}")
    if field.kind in ("real", "csr", "01") and kind not in "biuf":
        _fail(path, name, f"expected numbers, found dtype {values.dtype}")
    if len(shape) != len(field.shape):
        _fail(path, name, f"has {len(shape)} dimension(s) {tuple(shape)}, expected "
                          f"{len(field.shape)} ({', '.join(map(str, field.shape)) or 'a scalar'})")
    for size, dim in zip(shape, field.shape, strict=True):
        if isinstance(dim, str) and dim not in dims:
            dims[dim], origin[dim] = size, f"array {name!r}"
        want = dims[dim] if isinstance(dim, str) else dim
        if size != want:
            _fail(path, name, f"shape {tuple(shape)}: {dim} is {want} ({origin.get(dim, 'fixed')})"
                              f", here {size}")
    if values.size == 0:
        return
    if kind == "f" and not np.isfinite(values).all():
        _fail(path, name, f"{int(np.size(values) - np.isfinite(values).sum())} value(s) are NaN "
                          "or infinite")
    if field.kind == "01" and kind != "b" and not np.isin(values, (0, 1)).all():
        _fail(path, name, "values must be 0 or 1")
    lo = values.min() if (field.low is not None or field.below) else None
    if field.low is not None and lo < field.low:
        _fail(path, name, f"has a value {lo}, below the minimum {field.low}")
    if field.high is not None and values.max() > field.high:
        _fail(path, name, f"has a value {values.max()}, above the maximum {field.high}")
    if field.below is not None and field.below in dims and values.max() >= dims[field.below]:
        _fail(path, name, f"has index {values.max()}, past the end ({field.below} = "
                          f"{dims[field.below]})")


def check(kind: str, path, arrays: Mapping, **dims) -> dict:
    """Check ``arrays`` (read from ``path``) against schema ``kind``; return the bound dimensions.

    ``dims`` are what the reader knows (``n_docs=corpus.n_docs``); an array missing from
    ``arrays`` is skipped (readers that load some keys only check those), except that a kind's
    required arrays are all needed when ``arrays`` holds every key of the file.
    """
    dims = {k: int(v) for k, v in dims.items() if v is not None}
    origin = dict.fromkeys(dims, "from what the step read before")
    schema = SCHEMAS[kind]
    if kind == "scores":
        if not arrays:
            raise DataError(path, "no score arrays in this file")
        schema = {name: Field("real", ("n_classes", "n_terms")) for name in arrays}
    for name, field in schema.items():
        if name in arrays:
            _check_field(path, name, arrays[name], field, dims, origin)
    _RELATIONS.get(kind, lambda *a: None)(path, arrays, dims)
    return dims


def _strictly_increasing(path, name, a) -> None:
    if a.size > 1 and not (np.diff(a) > 0).all():
        _fail(path, name, "indices must be strictly increasing (sorted, no repeats)")


def _split_relations(path, a, dims) -> None:
    for name in ("train", "test"):
        if name in a:
            if a[name].size == 0:
                _fail(path, name, "is empty")
            _strictly_increasing(path, name, a[name])
    if "train" in a and "test" in a:
        both = np.intersect1d(a["train"], a["test"], assume_unique=True)
        if both.size:
            raise DataError(path, f"train and test share {both.size} document(s) (first: row "
                                  f"{both[0]}): a split's parts must be disjoint")


def _stats_relations(path, a, dims) -> None:
    if "columns" in a:
        _strictly_increasing(path, "columns", a["columns"])
    if "n_docs" not in a:
        return
    n = int(a["n_docs"])
    if "n_train" in dims and n != dims["n_train"]:
        _fail(path, "n_docs", f"is {n}, but the split has {dims['n_train']} training rows")
    for name, bound, what in (("df", n, "n_docs"), ("pos", n, "n_docs")):
        if name in a and a[name].size and a[name].max() > bound:
            _fail(path, name, f"has {a[name].max()}, more than {what} = {bound}")
    if "tp" in a and a["tp"].size:
        if "pos" in a and (a["tp"] > a["pos"][:, None]).any():
            _fail(path, "tp", "exceeds its class's pos (more positives containing a term than "
                              "positives)")
        if "df" in a and (a["tp"] > a["df"][None, :]).any():
            _fail(path, "tp", "exceeds the term's df")


def _ranking_relations(path, a, dims) -> None:
    if "order" in a and np.unique(a["order"]).size != a["order"].size:
        _fail(path, "order", "repeats a term (a ranking is a permutation of the terms)")


def _scores_relations(path, a, dims) -> None:
    if "idf" in a and a["idf"].size and a["idf"].min() < 0:
        _fail(path, "idf", f"has a negative value {a['idf'].min()}")


def _encoded_relations(path, a, dims) -> None:
    for name in ("X_train", "X_test"):
        if name in a and a[name].nnz and a[name].data.min() < 0:
            _fail(path, name, "has a negative weight")


_RELATIONS = {"split": _split_relations, "stats": _stats_relations, "ranking": _ranking_relations,
              "scores": _scores_relations, "encoded": _encoded_relations}


def load(kind: str, path, keys=None, **dims) -> tuple[io.Arrays, dict]:
    """``termweight.runner.io.load_arrays`` then [`check`][termweight.intermediates.check]:
    ``(arrays, bound dimensions)``."""
    arrays = io.load_arrays(path, keys=keys)
    if keys is None:
        missing = [k for k, f in SCHEMAS[kind].items() if not f.optional and k not in arrays]
        if missing:
            raise DataError(path, f"no array {missing[0]!r} in this file (a {kind} file has: "
                                  f"{', '.join(SCHEMAS[kind])})")
    return arrays, check(kind, path, arrays, **dims)


# --- tables and JSON ------------------------------------------------------------------------------

#: per-task metrics (evaluate): the count columns; every rate column must lie in [0, 1]
COUNT_COLUMNS = ("tp", "fp", "fn", "tn")
#: per-run averages (aggregate): the columns a table, figure or report reads
RUN_COLUMNS = ("encoding", "split", "micro_f1", "macro_f1", "micro_accuracy")


def check_table(path, frame, numeric=(), counts=(), unit=(), nonempty: bool = True):
    """A table read back: required numeric columns finite numbers, ``counts`` non-negative
    integers, ``unit`` within [0, 1]; returns ``frame``."""
    import pandas as pd

    if nonempty and frame.empty:
        raise DataError(path, "the table has no rows")
    for col in dict.fromkeys((*numeric, *counts, *unit)):
        if col not in frame.columns:
            raise DataError(path, f"missing column {col!r}")
        values = pd.to_numeric(frame[col], errors="coerce")
        bad = values.isna() & frame[col].notna() | ~np.isfinite(values.fillna(0))
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise DataError(path, f"column {col!r} has a non-number {frame[col].iloc[row]!r}",
                            line=row + 2)
        frame[col] = values
        if col in counts and ((values < 0) | (values != values.round())).any():
            row = int(np.flatnonzero(((values < 0) | (values != values.round())).to_numpy())[0])
            raise DataError(path, f"column {col!r} must hold counts (integers >= 0), found "
                                  f"{values.iloc[row]}", line=row + 2)
        if col in unit and ((values < 0) | (values > 1)).any():
            row = int(np.flatnonzero(((values < 0) | (values > 1)).to_numpy())[0])
            raise DataError(path, f"column {col!r} must lie in [0, 1], found {values.iloc[row]}",
                            line=row + 2)
    return frame


def read_metrics(path):
    """A per-task metrics CSV (evaluate): counts non-negative integers, rates in [0, 1]."""
    frame = io.read_table(path, required=("status", *COUNT_COLUMNS))
    rates = [c for c in ("precision", "recall", "f1", "accuracy", "doc_accuracy")
             if c in frame.columns]
    return check_table(path, frame, counts=COUNT_COLUMNS, unit=rates)


def read_runs(path):
    """A runs CSV (aggregate): one row per encoding and split, measures in [0, 1]."""
    frame = io.read_table(path, required=RUN_COLUMNS)
    return check_table(path, frame, unit=RUN_COLUMNS[2:])


def read_classes(meta_path) -> list[str]:
    """The class names of a corpus's ``meta.json``: a non-empty list of distinct strings."""
    meta = io.read_json(meta_path)
    classes = meta.get("classes") if isinstance(meta, dict) else None
    if not isinstance(classes, list) or not classes or not all(
            isinstance(c, str) for c in classes) or len(set(classes)) != len(classes):
        raise DataError(meta_path, "'classes' must be a non-empty list of distinct strings")
    return classes


#: the measures of an experiment's metrics JSON (aggregate), each with its standard error
MEASURES = ("micro_f1", "macro_f1", "micro_accuracy", "macro_precision", "macro_recall")


def read_experiment_metrics(path) -> dict:
    """An experiment's metrics JSON (aggregate): ``dataset`` (text), ``splits`` and
    ``skipped_tasks`` (counts), ``encodings`` mapping each encoding to its measures in [0, 1]
    and their standard errors (>= 0)."""
    m = io.read_json_object(path)
    for key, kind in (("dataset", str), ("splits", int), ("skipped_tasks", int),
                      ("encodings", dict)):
        if not isinstance(m.get(key), kind) or isinstance(m.get(key), bool):
            raise DataError(path, f"key {key!r}: expected {kind.__name__}, found "
                                  f"{type(m.get(key)).__name__ if key in m else 'nothing'}")
    if not m["encodings"]:
        raise DataError(path, "key 'encodings' is empty")
    for enc, vals in m["encodings"].items():
        for k in MEASURES:
            v, se = (vals.get(k), vals.get(f"{k}_se")) if isinstance(vals, dict) else (None, None)
            if not _number(v) or not 0 <= v <= 1 or not _number(se) or se < 0:
                raise DataError(path, f"encodings/{enc}/{k}: expected a number in [0, 1] and its "
                                      f"standard error >= 0, found {v!r} and {se!r}")
    return m


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)
