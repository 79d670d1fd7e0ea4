"""Per-split training statistics: per-class document frequencies of every term.

Everything the scoring metrics need is the 2x2 contingency table of each (task, term) pair, and
every cell of it follows from four numbers computed on the TRAINING rows only::

    tp[c, t] = #training docs of class c containing t     (Y^T B, B = [X > 0])
    pos[c]   = #training docs of class c
    df[t]    = #training docs containing t
    N        = #training docs

with ``fp = df - tp``, ``fn = pos - tp``, ``tn = N - pos - fp`` for the one-vs-rest task of class c.
"Containing" means count > 0 ([methods: scoring][methods-scoring]), also when the features are
TF counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from termweight.runner import io


@dataclass(frozen=True)
class TermStats:
    """Class-by-term document frequencies of a training set (see module docstring)."""

    tp: np.ndarray  # (n_classes, n_terms) int64
    pos: np.ndarray  # (n_classes,) int64
    df: np.ndarray  # (n_terms,) int64
    n_docs: int

    @property
    def n_classes(self) -> int:
        return self.tp.shape[0]

    @property
    def n_terms(self) -> int:
        return self.tp.shape[1]

    def cells(self):
        """The one-vs-rest contingency cells ``(tp, fp, fn, tn)``, each (n_classes, n_terms) float."""
        tp = self.tp.astype(np.float64)
        pos = self.pos.astype(np.float64)[:, None]
        fp = self.df.astype(np.float64)[None, :] - tp
        fn = pos - tp
        tn = (self.n_docs - pos) - fp
        return tp, fp, fn, tn

    def subset_classes(self, idx) -> TermStats:
        idx = np.asarray(idx)
        return TermStats(self.tp[idx], self.pos[idx], self.df, self.n_docs)

    def save(self, path) -> None:
        io.save_arrays(path, tp=self.tp, pos=self.pos, df=self.df,
                       n_docs=np.asarray(self.n_docs, dtype=np.int64))

    @classmethod
    def load(cls, path) -> TermStats:
        """Read statistics written by ``save``, checked (``termweight.intermediates``)."""
        from termweight.intermediates import load

        a, _ = load("stats", path, keys=("tp", "pos", "df", "n_docs"))
        return cls(tp=a["tp"], pos=a["pos"], df=a["df"], n_docs=int(a["n_docs"]))


def presence(X) -> sp.csr_matrix:
    """Binary presence matrix ``[X > 0]`` as CSR float64 (explicit zeros dropped).

    Never modifies ``X`` (the result owns fresh index arrays) and sums duplicate entries first,
    so a document counts at most once per term.
    """
    X = sp.csr_matrix(X)
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    keep = X.data > 0
    indptr = np.concatenate([[0], np.cumsum(keep)])[X.indptr].astype(X.indptr.dtype)
    return sp.csr_matrix((np.ones(int(indptr[-1]), dtype=np.float64), X.indices[keep], indptr),
                         shape=X.shape)


def term_stats(X, Y) -> TermStats:
    """Compute [`TermStats`][termweight.statistics.TermStats] from rows ``X`` and indicator ``Y``.

    ``X``: training rows (docs x terms); ``Y``: (docs x tasks) 0/1 indicator.

    One sparse product ``Y^T B``: cost O(nnz(X) * labels per doc), no dense docs x terms array.
    """
    B = presence(X)
    Y = sp.csr_matrix(Y, dtype=np.float64)
    if B.shape[0] != Y.shape[0]:
        raise ValueError(f"X has {B.shape[0]} rows but Y has {Y.shape[0]}")
    tp = np.asarray((Y.T @ B).toarray(), dtype=np.int64)
    pos = np.asarray(Y.sum(axis=0), dtype=np.int64).ravel()
    df = np.asarray(B.sum(axis=0), dtype=np.int64).ravel()
    return TermStats(tp=tp, pos=pos, df=df, n_docs=int(B.shape[0]))
