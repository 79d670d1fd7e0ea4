"""Strict parsing of the numbers in text data files (ARFF, SVM-light, Spambase, Dexter).

NumPy's and Python's own conversions are lenient in ways a data file must not be: they accept
``nan``, ``inf``, ``1e500`` (infinity), ``1_000``, surrounding spaces and non-ASCII digits
(``"١"`` is 1), and fail on others (``"²"``, ``10**23``) with errors that name no line. Here a
token is accepted only in plain ASCII decimal notation and only if its value is finite;
``parse_tokens`` returns the values, or the position of the first refused token so the
caller can raise a ``DataError`` with the file and line.
"""

from __future__ import annotations

import re

import numpy as np

INT = re.compile(r"[+-]?[0-9]{1,18}")  # 18 digits always fit in int64
FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")


def parse_tokens(tokens, kind: str) -> tuple[np.ndarray | None, int | None]:
    """``(values, None)`` (int64 or float64), or ``(None, k)`` with ``k`` the first bad token.

    ``kind`` is ``"int"`` or ``"float"``; a float must also be finite.
    """
    arr = np.asarray(tokens, dtype=str)
    if arr.size == 0:
        return np.zeros(0, np.int64 if kind == "int" else np.float64), None
    pattern = INT if kind == "int" else FLOAT
    uniq, inverse = np.unique(arr, return_inverse=True)
    ok = np.fromiter((pattern.fullmatch(u) is not None for u in uniq.tolist()), bool, uniq.size)
    values = np.zeros(uniq.size, np.int64 if kind == "int" else np.float64)
    values[ok] = uniq[ok].astype(values.dtype)
    if kind == "float":
        ok &= np.isfinite(values)
    bad = ~ok[inverse.ravel()]
    if bad.any():
        return None, int(np.flatnonzero(bad)[0])
    return values[inverse.ravel()], None
