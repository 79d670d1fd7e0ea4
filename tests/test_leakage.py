"""Scoring uses training rows only: permuting the TEST labels of a split changes no score."""

import numpy as np

from termweight import scoring
from termweight.splits import make_splits
from termweight.statistics import term_stats


def _scores(corpus, Y, split):
    Xtr = corpus.X[split.train]
    cols = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)
    st = term_stats(Xtr[:, cols], Y[split.train])
    return {m: scoring.score(m, st) for m in scoring.FORMAN_SCALINGS}


def test_permuting_test_labels_leaves_scores_unchanged(bbc_corpus):
    Y = bbc_corpus.Y.tocsr()
    split = make_splits({"type": "kfold", "folds": 4}, Y, bbc_corpus.subset, seed=3)[0]
    rng = np.random.default_rng(0)
    perm = np.arange(Y.shape[0])
    perm[split.test] = rng.permutation(split.test)
    Y_perm = Y[perm]
    assert (Y_perm[split.test] != Y[split.test]).nnz > 0  # the test labels really changed
    before, after = _scores(bbc_corpus, Y, split), _scores(bbc_corpus, Y_perm, split)
    for m in before:
        np.testing.assert_array_equal(before[m], after[m], err_msg=m)
    # ... while permuting TRAINING labels does change them (the test can fail)
    perm2 = np.arange(Y.shape[0])
    perm2[split.train] = rng.permutation(split.train)
    changed = _scores(bbc_corpus, Y[perm2], split)
    assert not np.array_equal(changed["bns"], before["bns"])
