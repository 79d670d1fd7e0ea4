"""What a concluding step (a table, a figure, a paper's collector and claims, the benchmark's
aggregates, headlines, report macros) checks in the results it reads, before it writes anything:
every cell the params declare present exactly once, and every score finite and in its range.

One checker for every such step, under Snakemake and DVC alike: ``check_cells`` for a table of
results (one row per cell), ``check_mapping`` for a JSON of results (one key per cell),
``check_count`` for a number a caption states. Each raises a ``DataError`` naming the file and the
first missing, duplicated, undeclared or bad cell (the CLI prints it as one line, exit 2).

A result that is legitimately undefined (0/0) is never a bare NaN: the producing step writes the
value of its stated rule (F1 = 0 when a class has no true and no predicted positive, as
scikit-learn's ``zero_division=0``), so a NaN here is always a defect.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from itertools import product

import numpy as np

from termweight.runner.errors import DataError

#: ranges of the measures the pipeline reports: F1, accuracy, precision, recall, AUC in [0, 1];
#: errors (MSE, MAE) and costs >= 0
UNIT = (0.0, 1.0)
NONNEGATIVE = (0.0, math.inf)
REAL = (-math.inf, math.inf)


def _cell(keys: Sequence[str], values: Iterable) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, values, strict=True))


def check_range(path, name: str, value, bounds: tuple[float, float], where: str = "",
                line=None) -> float:
    """One score: a finite number within ``bounds`` (inclusive)."""
    at = f" at {where}" if where else ""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise DataError(path, f"{name}{at} is not a number: {value!r}", line=line) from None
    if isinstance(value, bool) or not math.isfinite(x):
        raise DataError(path, f"{name}{at} is not a finite number: {value}", line=line)
    lo, hi = bounds
    if not lo <= x <= hi:
        raise DataError(path, f"{name}{at} = {x:g} lies outside [{lo:g}, {hi:g}]", line=line)
    return x


def check_cells(path, frame, cells: Mapping[str, Sequence], measures: Mapping[str, tuple] = (),
                *, complete: bool = True, extra_ok: bool = False):
    """A results table with one row per cell, checked against the declared cells.

    ``cells`` maps each key column to its declared values (the cells are their product);
    ``measures`` maps each score column to its ``(low, high)`` range. Every declared cell must
    appear exactly once (``complete=False``: at most once, for a table that holds only the cells
    that exist, e.g. a fixed split's one repetition); a row outside the declared cells is refused
    unless ``extra_ok``. Every measure must be a finite number in its range. Returns ``frame``
    with the measure columns as floats. Lines are CSV lines (header = 1).
    """
    keys = list(cells)
    missing = [c for c in [*keys, *dict(measures)] if c not in frame.columns]
    if missing:
        raise DataError(path, f"missing column(s) {', '.join(map(repr, missing))}")
    declared = {k: [str(v) for v in vals] for k, vals in cells.items()}
    rows = frame[keys].astype(str).itertuples(index=False, name=None) if keys else []
    seen: dict[tuple, int] = {}
    allowed = [set(declared[k]) for k in keys]
    for i, row in enumerate(rows):
        if not extra_ok and any(v not in a for v, a in zip(row, allowed, strict=True)):
            raise DataError(path, f"cell ({_cell(keys, row)}) is not declared by the params",
                            line=i + 2)
        if row in seen:
            raise DataError(path, f"cell ({_cell(keys, row)}) appears twice (lines "
                            f"{seen[row] + 2} and {i + 2})", line=i + 2)
        seen[row] = i
    if complete and keys:
        for want in product(*(declared[k] for k in keys)):
            if want not in seen:
                raise DataError(path, f"cell ({_cell(keys, want)}) is missing: the params declare "
                                f"{math.prod(len(v) for v in declared.values())} cells, the file "
                                f"holds {len(seen)}")
    import pandas as pd

    for col, bounds in dict(measures).items():
        raw = frame[col]
        values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
        lo, hi = bounds
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values) | (values < lo) | (values > hi)
        if raw.dtype == bool:
            bad[:] = True
        if bad.any():  # the first bad row, named by its cell
            i = int(np.flatnonzero(bad)[0])
            where = _cell(keys, frame[keys].iloc[i].astype(str)) if keys else f"row {i + 1}"
            check_range(path, repr(col), raw.iloc[i], bounds, where=f"({where})", line=i + 2)
        frame[col] = values
    return frame


def check_mapping(path, mapping, declared: Iterable[str], what: str, *,
                  extra_ok: bool = True) -> Mapping:
    """A JSON object of results keyed by cell: every declared key present (and, unless
    ``extra_ok``, no other)."""
    if not isinstance(mapping, Mapping):
        raise DataError(path, f"{what}: expected an object, found {type(mapping).__name__}")
    declared = list(declared)
    for key in declared:
        if key not in mapping:
            raise DataError(path, f"{what}: {key!r} is missing (declared: {', '.join(declared)})")
    if not extra_ok:
        extra = sorted(set(mapping) - set(declared))
        if extra:
            raise DataError(path, f"{what}: {extra[0]!r} is not declared by the params")
    return mapping


def check_measures(path, mapping: Mapping, measures: Mapping[str, tuple], where: str) -> None:
    """The named scores of one JSON cell: present, finite and in range."""
    for name, bounds in measures.items():
        if name not in mapping:
            raise DataError(path, f"{where}: measure {name!r} is missing")
        check_range(path, name, mapping[name], bounds, where=where)


def check_count(path, what: str, stated: int, read: int) -> None:
    """A count the output states (a caption's number of splits) equals the number read."""
    if int(stated) != int(read):
        raise DataError(path, f"{what}: the params declare {stated}, the file holds {read}")
