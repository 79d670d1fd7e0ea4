"""The corpus format every dataset is turned into: document-term counts + label indicator + metadata.

On disk a corpus is a directory holding

- ``counts.npz``: ``X``, CSR (documents x terms), int32 counts for text (float64 for vector data);
  ``Y``, CSR (documents x classes) uint8 indicator (one 1 per row for single-label data);
  ``subset``, str array per document (``train``/``test``/``valid``/``all``) for predefined splits;
- ``terms.txt``: one term per line (UTF-8), in column order;
- ``meta.json``: name, classes (in class order; ordinal order for ordinal data), flags, sizes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from termweight.runner import io
from termweight.runner.errors import DataError, blame

SUBSETS = ("train", "test", "valid", "all")


@dataclass
class Corpus:
    """A document-term matrix with labels.

    Attributes
    ----------
    name : dataset name.
    X : CSR (n_docs, n_terms) counts or feature values.
    Y : CSR (n_docs, n_classes) uint8 label indicator.
    classes : class names, in class (or ordinal) order.
    terms : feature names, one per column of ``X``.
    doc_ids : stable document identifiers.
    subset : per-document predefined split membership (``"all"`` when the dataset has none).
    multilabel, ordinal : label-structure flags.
    info : free-form provenance (source checksums, preprocessing, notes).
    """

    name: str
    X: sp.csr_matrix
    Y: sp.csr_matrix
    classes: list[str]
    terms: list[str]
    doc_ids: list[str]
    subset: np.ndarray
    multilabel: bool = False
    ordinal: bool = False
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        self.X = sp.csr_matrix(self.X)
        self.Y = sp.csr_matrix(self.Y, dtype=np.uint8)
        self.subset = np.asarray(self.subset, dtype=str)
        n = self.X.shape[0]
        if n == 0:
            raise DataError(self.name, "corpus has no documents")
        if self.X.shape[1] == 0:
            raise DataError(self.name, "corpus has no terms (every document empty after preprocessing?)")
        checks = {
            "Y rows": self.Y.shape[0], "doc_ids": len(self.doc_ids), "subset": len(self.subset),
        }
        for what, m in checks.items():
            if m != n:
                raise DataError(self.name, f"{what} has {m} entries for {n} documents")
        if self.Y.shape[1] != len(self.classes):
            raise DataError(self.name, f"Y has {self.Y.shape[1]} columns for {len(self.classes)} classes")
        if self.X.shape[1] != len(self.terms):
            raise DataError(self.name, f"X has {self.X.shape[1]} columns for {len(self.terms)} terms")
        bad = set(np.unique(self.subset)) - set(SUBSETS)
        if bad:
            raise DataError(self.name, f"unknown subset names {sorted(bad)}; use {SUBSETS}")
        if self.X.dtype.kind not in "biuf" or (self.X.dtype.kind == "f"
                                               and not np.isfinite(self.X.data).all()):
            raise DataError(self.name, f"X must hold finite numbers (dtype {self.X.dtype})")
        check_two_classes(self.name, self.Y, self.classes, self.info)

    @property
    def n_docs(self) -> int:
        return self.X.shape[0]

    @property
    def labels(self) -> np.ndarray:
        """Single-label class index per document (argmax of Y); only for single-label data."""
        if self.multilabel:
            raise ValueError(f"{self.name} is multi-label; use Y")
        return np.asarray(self.Y.argmax(axis=1)).ravel()

    def save(self, directory) -> None:
        """Write ``counts.npz``, ``terms.txt`` and ``meta.json``, all three or none."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        with io.all_or_nothing():
            self._save(directory)

    def _save(self, directory: Path) -> None:
        io.save_arrays(directory / "counts.npz", X=self.X, Y=self.Y, subset=self.subset,
                       doc_ids=np.asarray(self.doc_ids, dtype=str))
        io.write_text(directory / "terms.txt", "".join(f"{t}\n" for t in self.terms))
        io.write_json(directory / "meta.json", {
            "name": self.name, "classes": list(self.classes), "multilabel": self.multilabel,
            "ordinal": self.ordinal, "n_docs": int(self.n_docs), "n_terms": int(self.X.shape[1]),
            "nnz": int(self.X.nnz),
            "class_sizes": np.asarray(self.Y.sum(axis=0)).ravel().astype(int).tolist(),
            "subset_sizes": {s: int((self.subset == s).sum()) for s in np.unique(self.subset)},
            "info": self.info,
        })

    @classmethod
    def load(cls, directory) -> Corpus:
        """Read a corpus directory; a missing, corrupt or inconsistent part is a
        ``DataError`` naming the file."""
        directory = Path(directory)
        meta_path = directory / "meta.json"
        meta = io.read_json(meta_path)
        arrays = io.load_arrays(directory / "counts.npz")
        terms = io.read_lines(directory / "terms.txt")[:-1]
        fields = require_keys(meta_path, meta, {"name": str, "classes": list,
                                                "multilabel": bool, "ordinal": bool,
                                                "info": dict})
        if not all(isinstance(c, str) for c in fields["classes"]):
            raise DataError(meta_path, "'classes' must be a list of strings")
        try:
            with blame(directory, fields["name"]):  # inconsistent parts: name the directory
                return cls(name=fields["name"], X=arrays["X"], Y=arrays["Y"],
                           classes=fields["classes"], terms=terms,
                           doc_ids=arrays["doc_ids"].tolist(), subset=arrays["subset"],
                           multilabel=fields["multilabel"], ordinal=fields["ordinal"],
                           info=fields["info"])
        except (ValueError, TypeError, IndexError, OverflowError) as exc:
            raise DataError(directory / "counts.npz", f"arrays do not form a corpus: "
                                                      f"{type(exc).__name__}: {exc}") from None


def require_keys(path, obj, types: dict) -> dict:
    """``obj[k]`` for every key of ``types``, checked to be of that type (else DataError)."""
    if not isinstance(obj, dict):
        raise DataError(path, f"expected a JSON object, found {type(obj).__name__}")
    for key, kind in types.items():
        if key not in obj:
            raise DataError(path, f"missing key {key!r}")
        if not isinstance(obj[key], kind):
            raise DataError(path, f"key {key!r}: expected {kind.__name__}, found "
                                  f"{type(obj[key]).__name__}")
    return {k: obj[k] for k in types}


def check_two_classes(name: str, Y, classes, info: dict | None = None) -> None:
    """Refuse a label set with nothing to learn: no class has both positives and negatives.

    That is a corpus whose documents all carry the same labels (e.g. one class only): every
    one-vs-rest task would be skipped and every average undefined. A single class without
    documents (or on every document) in an otherwise usable corpus is not an error here: the
    learner records that task as skipped.
    """
    Y = sp.csc_matrix(Y)
    n = Y.shape[0]
    pos = np.diff(Y.indptr)
    if not np.any((pos > 0) & (pos < n)):
        present = [classes[k] for k in np.flatnonzero(pos)] if len(classes) == Y.shape[1] else []
        source = f" (source: {info['source']})" if info and info.get("source") else ""
        raise DataError(name, f"all {n} documents have the same labels {present}{source}: "
                              "one class only, nothing to classify")


def indicator(labels, n_classes: int) -> sp.csr_matrix:
    """CSR indicator from a single-label index vector."""
    labels = np.asarray(labels, dtype=np.int64)
    n = labels.shape[0]
    return sp.csr_matrix((np.ones(n, dtype=np.uint8), (np.arange(n), labels)),
                         shape=(n, n_classes))
