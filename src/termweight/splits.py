"""Train/test splits for every protocol of the five papers, seeded and stored as index files.

A protocol is a mapping (``params.yaml``); ``split_names`` lists the split names it produces
without touching data (Snakemake needs them to build its DAG) and ``make_splits`` builds them:

- ``fixed``: the dataset's predefined subsets (ModApte, 20NG bydate; ``test_subset`` may be
  ``valid`` for Dexter). One split named ``fixed``.
- ``kfold``: k-fold cross-validation x repeats (Forman 4 x 8 stratified; Mukras 10-fold), names
  ``r{repeat}f{fold}``; stratified by class (single-label data) with scikit-learn's
  StratifiedKFold, each repeat reshuffled with seed ``seed + repeat``.
- ``random``: random train/test partitions x repeats (Kim: 50/50 x 10), names ``r{repeat}``,
  optionally stratified.
- ``balanced``: per repeat, draw ``train_per_class`` training and ``test_per_class`` test
  documents from each class without replacement (Ferreira & Figueiredo 4.1; Mukras's equal class
  sizes), from the ``train_subset``/``test_subset`` pools (default: all documents).

Indices are row numbers of the corpus, sorted ascending inside each split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termweight.runner import io
from termweight.runner.errors import ConfigError, DataError


@dataclass(frozen=True)
class Split:
    name: str
    train: np.ndarray
    test: np.ndarray

    def save(self, path) -> None:
        io.save_arrays(path, train=self.train.astype(np.int64), test=self.test.astype(np.int64))

    @classmethod
    def load(cls, path, name: str | None = None, n_docs: int | None = None) -> Split:
        """Read a split and check it (``termweight.intermediates``): integer row indices,
        sorted, non-empty, disjoint, and below ``n_docs`` (the corpus's rows) when given."""
        from pathlib import Path

        from termweight.intermediates import load

        a, _ = load("split", path, n_docs=n_docs)
        return cls(name or Path(path).stem, a["train"], a["test"])


def split_names(protocol: dict) -> list[str]:
    """The protocol's split names; more than 1,000 splits (folds x repeats) is a ConfigError
    raised before any list is built (the papers use at most 32; each split is a set of jobs)."""
    max_splits = 1000
    kind = protocol["type"]
    if kind == "fixed":
        return ["fixed"]
    if kind not in ("kfold", "random", "balanced"):
        raise ConfigError(f"unknown split protocol type {kind!r}")
    repeats = int(protocol.get("repeats", 1))
    folds = int(protocol["folds"]) if kind == "kfold" else 1
    if folds * repeats > max_splits:
        keys = f"folds x repeats = {folds} x {repeats} =" if kind == "kfold" else "repeats ="
        raise ConfigError(f"{keys} {folds * repeats} splits, more than {max_splits}")
    if kind == "kfold":
        return [f"r{r}f{f}" for r in range(repeats) for f in range(folds)]
    return [f"r{r}" for r in range(repeats)]


def _single_labels(Y, name):
    counts = np.asarray(Y.sum(axis=1)).ravel()
    if np.any(counts != 1):
        raise DataError(name, "this protocol stratifies by class and needs single-label data")
    return np.asarray(Y.argmax(axis=1)).ravel()


def make_splits(protocol: dict, Y, subset, seed: int, name: str = "corpus") -> list[Split]:
    """Build the splits of ``protocol`` for a corpus with label indicator ``Y`` and ``subset``."""
    # imported here: a step that only reads splits does not pay for scikit-learn
    from sklearn.model_selection import KFold, StratifiedKFold, train_test_split

    kind = protocol["type"]
    n = Y.shape[0]
    subset = np.asarray(subset)
    seed = int(protocol.get("seed", seed))
    if kind == "fixed":
        test_name = protocol.get("test_subset", "test")
        train = np.flatnonzero(subset == protocol.get("train_subset", "train"))
        test = np.flatnonzero(subset == test_name)
        if train.size == 0 or test.size == 0:
            raise DataError(name, f"fixed split needs 'train' and '{test_name}' documents; "
                                  f"found {train.size} and {test.size}")
        return [Split("fixed", train, test)]
    names = split_names(protocol)
    stratified = bool(protocol.get("stratified", True))
    out: list[Split] = []
    if kind == "kfold":
        k = int(protocol["folds"])
        labels = _single_labels(Y, name) if stratified else None
        if labels is not None:
            smallest = np.bincount(labels).min()
            if smallest < k:
                raise DataError(name, f"a class has {smallest} documents, fewer than the {k} "
                                      "folds: every fold needs training and test positives")
        for r in range(int(protocol.get("repeats", 1))):
            cv = (StratifiedKFold if stratified else KFold)(k, shuffle=True, random_state=seed + r)
            for f, (tr, te) in enumerate(cv.split(np.zeros(n), labels)):
                out.append(Split(f"r{r}f{f}", np.sort(tr), np.sort(te)))
    elif kind == "random":
        frac = float(protocol.get("train_fraction", 0.5))
        labels = _single_labels(Y, name) if stratified else None
        for r in range(int(protocol.get("repeats", 1))):
            tr, te = train_test_split(np.arange(n), train_size=frac, random_state=seed + r,
                                      stratify=labels)
            out.append(Split(f"r{r}", np.sort(tr), np.sort(te)))
    elif kind == "balanced":
        labels = _single_labels(Y, name)
        pool_tr = subset == protocol.get("train_subset", subset[0]) if "train_subset" in protocol \
            else np.ones(n, bool)
        pool_te = subset == protocol["test_subset"] if "test_subset" in protocol else None
        ntr, nte = int(protocol["train_per_class"]), int(protocol.get("test_per_class", 0))
        for r in range(int(protocol.get("repeats", 1))):
            rng = np.random.default_rng(seed + r)
            tr_idx, te_idx = [], []
            for c in np.unique(labels):
                cand = np.flatnonzero(pool_tr & (labels == c))
                need = ntr + (nte if pool_te is None else 0)
                if cand.size < need:
                    raise DataError(name, f"class {c} has {cand.size} documents, {need} needed")
                pick = rng.permutation(cand)
                tr_idx.append(pick[:ntr])
                if pool_te is None:
                    te_idx.append(pick[ntr:ntr + nte])
            test = (np.concatenate(te_idx) if pool_te is None else np.flatnonzero(pool_te))
            out.append(Split(f"r{r}", np.sort(np.concatenate(tr_idx)), np.sort(test)))
    else:
        raise ConfigError(f"unknown split protocol type {kind!r}")
    assert [s.name for s in out] == names
    for s in out:
        if np.intersect1d(s.train, s.test).size:
            raise AssertionError(f"split {s.name}: train and test overlap")
    return out


def save_splits(out_dir, splits: list[Split], index: dict) -> None:
    """Write one ``<name>.npz`` per split and ``index.json`` (``index`` plus the split names and
    sizes) into ``out_dir``, all or nothing, then remove split files of an earlier
    configuration (4 folds, now 3) so that the directory is what a clean run writes."""
    import logging
    from pathlib import Path

    out = Path(out_dir)
    with io.all_or_nothing():
        for s in splits:
            s.save(out / f"{s.name}.npz")
        io.write_json(out / "index.json", {
            **index, "splits": [s.name for s in splits],
            "sizes": {s.name: [int(s.train.size), int(s.test.size)] for s in splits}})
    for stale in sorted(set(out.glob("*.npz")) - {out / f"{s.name}.npz" for s in splits}):
        stale.unlink()
        logging.getLogger("termweight").info("removed %s (not a split of this protocol)", stale)
