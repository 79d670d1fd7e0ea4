"""Nested subsamples of a split's training rows, for learning curves.

``learning_curve_splits(split, Y, fractions, repeats, seed)`` keeps the split's test rows and,
per repeat ``r``, draws one random order of its training rows (``numpy.random.default_rng(seed
+ r)``); a fraction ``f`` keeps a prefix of that order, so the subsets of one repeat are nested
(the 10% subset inside the 25% one). Single-label data is stratified: each class keeps
``ceil(f * n_c)`` of its ``n_c`` training documents, its first in the order. Multi-label data
keeps the first ``ceil(f * n)`` documents, and each class's first positive besides, so that no
class loses its training positives (at most one extra document per class). Names:
``p<percent>r<repeat>`` (``p10r0``).
"""

from __future__ import annotations

import numpy as np

from termweight.splits import Split


def curve_name(fraction: float, repeat: int) -> str:
    """``p<percent>r<repeat>``: ``p10r0`` for 10% of the training rows, repeat 0."""
    pct = 100 * fraction
    return f"p{round(pct) if abs(pct - round(pct)) < 1e-9 else f'{pct:g}'}r{repeat}"


def _check_fractions(fractions) -> list[float]:
    out = [float(f) for f in fractions]
    bad = [f for f in out if not 0 < f < 1]
    if bad:
        raise ValueError(f"a training fraction must lie in (0, 1): {bad[0]!r} (the whole "
                         "training set is the split itself)")
    if len({curve_name(f, 0) for f in out}) != len(out):
        raise ValueError(f"training fractions repeat: {out}")
    return sorted(out)


def subsample_rows(train, Y, fraction: float, order) -> np.ndarray:
    """The rows of ``train`` a fraction keeps, sorted; ``order`` ranks the training rows
    (``order[i]``: the rank of ``train[i]``; lower is kept first)."""
    import scipy.sparse as sp

    L = sp.csr_matrix(Y[train])
    counts = np.diff(L.indptr)
    order = np.asarray(order)
    if np.all(counts == 1):  # single-label: ceil(f * n_c) per class, by rank within the class
        labels = L.indices
        by = np.lexsort((order, labels))  # class, then rank
        n_c = np.bincount(labels, minlength=L.shape[1])
        start = np.concatenate(([0], np.cumsum(n_c)[:-1]))
        within = np.empty(train.size, np.int64)
        within[by] = np.arange(train.size) - np.repeat(start, n_c)
        keep = within < np.ceil(fraction * n_c[labels] - 1e-9)
    else:  # a prefix, and each class's first-ranked positive
        keep = order < np.ceil(fraction * train.size - 1e-9)
        C = L.tocsc()
        starts = C.indptr[:-1][np.diff(C.indptr) > 0]
        if starts.size:  # the lowest rank among each class's positives, and its row
            first = np.minimum.reduceat(order[C.indices], starts)
            keep[np.argsort(order)[first]] = True
    return np.sort(np.asarray(train)[keep])


def learning_curve_splits(split: Split, Y, fractions, repeats: int, seed: int) -> list[Split]:
    """Per repeat and fraction (ascending), ``split`` with its training rows subsampled (see the
    module docstring); the test rows unchanged."""
    fractions = _check_fractions(fractions)
    if int(repeats) < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats!r}")
    train = np.asarray(split.train)
    out = []
    for r in range(int(repeats)):
        order = np.empty(train.size, np.int64)
        order[np.random.default_rng(int(seed) + r).permutation(train.size)] = np.arange(train.size)
        for f in fractions:
            out.append(Split(curve_name(f, r), subsample_rows(train, Y, f, order), split.test))
    return out
