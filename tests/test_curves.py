"""Learning curves' subsamples (termweight.subsample) and their configuration (synthetic labels)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from termweight.experiments.curves import curves_config, fraction_of
from termweight.runner.errors import ConfigError
from termweight.splits import Split
from termweight.subsample import curve_name, learning_curve_splits

PARAMS = {
    "seed": 0,
    "benchmark": {
        "datasets": {"tr23": {}, "r52": {"protocol": {"type": "fixed"}}},
        "protocol": {"type": "kfold", "folds": 2, "repeats": 5, "stratified": True},
        "weightings": ["tfidf", "sklearn_sublinear_tfidf", "tf-delta_idf", "binary-bns"],
        "learners": ["linearsvc"],
        "tuning": {"normalize": "l2", "C": [1.0]},
        "controls": ["tfidf", "sklearn_sublinear_tfidf"],
        "comparisons": [{"a": "tf-delta_idf", "b": "tfidf", "source": "x"}],
        "curves": {"datasets": ["r52", "tr23"], "fractions": [0.5, 0.1], "repeats": 2,
                   "weightings": ["tfidf", "sklearn_sublinear_tfidf", "tf-delta_idf"],
                   "modules": ["unsupervised", "delta_idf"]},
    },
}


def _labels(single: bool, n: int = 600, k: int = 7, seed: int = 0):
    rng = np.random.default_rng(seed)
    if single:
        y = rng.integers(0, k - 1, n)  # the last class: no document
        return sp.csr_matrix((np.ones(n), (np.arange(n), y)), shape=(n, k))
    M = (rng.random((n, k)) < 0.03).astype(float)
    M[7, k - 1], M[:, k - 2] = 1.0, 0.0  # a class with one positive, one with none
    return sp.csr_matrix(M)


@pytest.mark.parametrize("single", [True, False])
def test_subsamples_are_nested_keep_the_test_rows_and_every_class(single):
    Y = _labels(single)
    base = Split("fixed", np.arange(0, 500), np.arange(500, 600))
    splits = learning_curve_splits(base, Y, [0.5, 0.1, 0.25], 3, 11)
    assert [s.name for s in splits] == [curve_name(f, r) for r in range(3)
                                        for f in (0.1, 0.25, 0.5)]
    has = np.asarray(Y[base.train].sum(axis=0)).ravel() > 0
    for r in range(3):
        small, mid, big = splits[3 * r: 3 * r + 3]
        assert set(small.train) < set(mid.train) < set(big.train) < set(base.train)
        for s, f in ((small, 0.1), (mid, 0.25), (big, 0.5)):
            assert np.array_equal(s.test, base.test) and np.all(np.diff(s.train) > 0)
            kept = np.asarray(Y[s.train].sum(axis=0)).ravel() > 0
            assert np.array_equal(kept, has)  # no class loses its training positives
            n_c = np.asarray(Y[base.train].sum(axis=0)).ravel()
            if single:  # stratified: ceil(f * n_c) per class
                assert np.array_equal(np.asarray(Y[s.train].sum(axis=0)).ravel(),
                                      np.ceil(f * n_c - 1e-9))
            else:  # the prefix, and at most one extra document per class
                assert np.ceil(f * 500) <= s.train.size <= np.ceil(f * 500) + has.sum()
    assert not np.array_equal(splits[0].train, splits[3].train)  # repeats differ
    again = learning_curve_splits(base, Y, [0.1, 0.25, 0.5], 3, 11)
    assert all(np.array_equal(a.train, b.train) for a, b in zip(splits, again, strict=True))


@pytest.mark.parametrize("fractions", [[0.0], [1.0], [1.5], [0.1, 0.1]])
def test_a_fraction_outside_the_open_interval_or_repeated_is_refused(fractions):
    base = Split("fixed", np.arange(10), np.arange(10, 12))
    with pytest.raises(ValueError, match="fraction"):
        learning_curve_splits(base, _labels(True, 12, 3), fractions, 1, 0)


def test_names_and_fractions_round_trip():
    assert [curve_name(f, r) for f, r in ((0.1, 0), (0.25, 2), (0.025, 1))] == [
        "p10r0", "p25r2", "p2.5r1"]
    assert [fraction_of(n) for n in ("p10r0", "p2.5r1", "fixed", "r0f0")] == [
        0.1, 0.025, 1.0, 1.0]


def test_the_config_names_each_base_split_and_sorts_the_fractions():
    cfg = curves_config(PARAMS)
    assert cfg["base"] == {"r52": "fixed", "tr23": "r0f0"}
    assert cfg["fractions"] == [0.1, 0.5] and cfg["repeats"] == 2


@pytest.mark.parametrize("edit, message", [
    (lambda b: b["curves"]["weightings"].remove("tf-delta_idf"), "'tf-delta_idf'.*missing"),
    (lambda b: b["curves"]["weightings"].remove("sklearn_sublinear_tfidf"), "control"),
    (lambda b: b["curves"]["weightings"].append("tf-ig"), "not in the grid"),
    (lambda b: b["curves"]["datasets"].append("oh0"), "'oh0' is not a benchmark dataset"),
    (lambda b: b.pop("tuning"), "tuned protocol"),
    (lambda b: b.pop("curves"), "missing"),
    (lambda b: b["curves"]["modules"].append("bns"), "modules.*not the modules"),
    (lambda b: b["curves"]["modules"].remove("delta_idf"), "modules.*not the modules"),
])
def test_a_curve_config_that_cannot_answer_is_refused(edit, message):
    params = copy.deepcopy(PARAMS)
    edit(params["benchmark"])
    with pytest.raises(ConfigError, match=f"benchmark/curves.*{message}"):
        curves_config(params)


def test_the_registered_hypothesis_is_decided_per_learner_on_every_dataset():
    """``learning-curves``: held for a learner when, on every dataset, the declared weightings'
    mean gain over the stronger control is larger at the smallest fraction than at 100%."""
    from termweight.experiments.curves import registered

    rows = []
    for learner, gains in (("linearsvc", {"a": (0.03, 0.01), "b": (0.02, 0.00)}),
                           ("logreg", {"a": (0.03, 0.01), "b": (0.00, 0.01)})):
        for d, (small, whole) in gains.items():
            for w, shift in (("x", 0.0), ("y", 0.01), ("tfidf", None)):
                for f, g in ((0.1, small), (1.0, whole)):
                    rows.append({"dataset": d, "learner": learner, "weighting": w, "fraction": f,
                                 "gain": 0.0 if shift is None else g + shift})
    out = registered(pd.DataFrame(rows), ["tfidf"], ["x", "tfidf", "y"], {})
    assert out["held"] == {"linearsvc": True, "logreg": False}
    assert "it held for linearsvc, not for logreg." in out["text"]
    none = registered(pd.DataFrame(rows), ["tfidf"], ["tfidf"], {})  # nothing declared
    assert none["held"] == {} and "not decided" in none["text"]
