"""Splits: stratified, disjoint, covering, seeded."""

import numpy as np
import pytest

from termweight.corpus import indicator
from termweight.runner.errors import DataError
from termweight.splits import make_splits, split_names


@pytest.fixture
def labels():
    rng = np.random.default_rng(0)
    return rng.permutation(np.repeat([0, 1, 2], [40, 25, 15]))


def test_kfold_stratified_disjoint_covering(labels):
    Y = indicator(labels, 3)
    proto = {"type": "kfold", "folds": 4, "repeats": 2}
    splits = make_splits(proto, Y, ["all"] * labels.size, seed=7)
    assert [s.name for s in splits] == split_names(proto) == [
        f"r{r}f{f}" for r in range(2) for f in range(4)]
    for r in range(2):
        tests = np.concatenate([s.test for s in splits[4 * r: 4 * r + 4]])
        assert np.array_equal(np.sort(tests), np.arange(labels.size))  # every doc tested once
    for s in splits:
        assert np.intersect1d(s.train, s.test).size == 0
        assert np.union1d(s.train, s.test).size == labels.size
        # stratified: each class's test share within one document of a quarter
        for c, n in zip(*np.unique(labels, return_counts=True), strict=True):
            assert abs((labels[s.test] == c).sum() - n / 4) <= 1
    assert not np.array_equal(splits[0].test, splits[4].test)  # repeats reshuffle


def test_splits_are_seeded(labels):
    Y = indicator(labels, 3)
    a = make_splits({"type": "kfold", "folds": 4}, Y, ["all"] * 80, seed=1)
    b = make_splits({"type": "kfold", "folds": 4}, Y, ["all"] * 80, seed=1)
    c = make_splits({"type": "kfold", "folds": 4}, Y, ["all"] * 80, seed=2)
    assert all(np.array_equal(x.test, y.test) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x.test, y.test) for x, y in zip(a, c, strict=True))


def test_fixed_random_balanced(labels):
    Y = indicator(labels, 3)
    subset = np.where(np.arange(80) < 60, "train", "test")
    (fixed,) = make_splits({"type": "fixed"}, Y, subset, seed=0)
    assert fixed.train.size == 60 and fixed.test.size == 20
    rnd = make_splits({"type": "random", "repeats": 3}, Y, subset, seed=0)
    assert [s.train.size for s in rnd] == [40, 40, 40]
    bal = make_splits({"type": "balanced", "train_per_class": 5, "test_per_class": 5,
                       "repeats": 2}, Y, subset, seed=0)
    for s in bal:
        assert np.bincount(labels[s.train]).tolist() == [5, 5, 5]
        assert np.bincount(labels[s.test]).tolist() == [5, 5, 5]
        assert np.intersect1d(s.train, s.test).size == 0


def test_class_smaller_than_folds_is_a_clear_error():
    labels = np.array([0] * 10 + [1] * 2)
    with pytest.raises(DataError, match="fewer than the 4 folds"):
        make_splits({"type": "kfold", "folds": 4}, indicator(labels, 2), ["all"] * 12, seed=0)
