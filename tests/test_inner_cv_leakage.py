"""The tuned protocol's inner folds see no statistic of their own validation rows (issue #51):
each fold is encoded from its inner-training rows (termweight.steps.features.fold_encoder)."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

from termweight import scoring
from termweight.learners.protocol import FoldLeakageWarning, Protocol, cv_scores, fit_tuned, inner_folds
from termweight.statistics import term_stats
from termweight.steps.features import encode_split, fold_encoder
from termweight.weighting import needed_scores


def _random_labels(seed=0, n=90, d=30, k=3):
    """Labels with no signal; besides 30 noise terms, one term per document: weights computed
    with a document's label reveal it through that document's own term."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    noise = sp.csr_matrix(rng.poisson(0.3, (n, d)).astype(float))
    X = sp.hstack([noise, sp.identity(n, format="csr") * 2]).tocsr()
    return X, sp.csr_matrix((np.ones(n), (np.arange(n), y)), shape=(n, k))


def _whole(X, Y, encoding):
    """The encoding of all the rows, weights from all of them (what the outer fit uses)."""
    st = term_stats(X, Y)
    scores = {m: scoring.score(m, st) for m in needed_scores([encoding])}
    return encode_split(X, Y, SimpleNamespace(train=np.arange(X.shape[0]), test=np.arange(0)),
                        scores, encoding)


def test_leaked_weights_would_choose_another_C_and_ours_stay_at_chance():
    X, Y = _random_labels(0)
    enc = _whole(X, Y, "tf-chi2")
    p = Protocol(C_grid=(0.01, 0.1, 1.0, 10.0, 100.0))
    with pytest.warns(FoldLeakageWarning):
        grid, leaky, _ = cv_scores("linearsvc", enc["X_train"], Y, enc["col_weights"], p)
    grid, clean, _ = cv_scores("linearsvc", enc["X_train"], Y, enc["col_weights"], p,
                               fold_encoder(X, Y, "tf-chi2"))
    # three classes without signal: chance macro-F1 is about 1/3; the leaked weights look far
    # better than chance and pick another C
    assert leaky.max() > 0.5 and clean.max() < 0.4
    assert grid[int(np.argmax(leaky))] != grid[int(np.argmax(clean))]
    with warnings.catch_warnings():
        warnings.simplefilter("error", FoldLeakageWarning)
        *_, value, _ = fit_tuned("linearsvc", enc["X_train"], Y, enc["col_weights"], p,
                                 fold_encoder(X, Y, "tf-chi2"))
    assert value == grid[int(np.flatnonzero(clean == clean.max())[0])]


@pytest.mark.parametrize("encoding", ["tfidf", "bm25tf-idf", "tf-rf", "binary-bns", "tf-igm",
                                      "ntf-mixch"])
def test_a_fold_encoding_ignores_its_validation_rows(encoding):
    """Changing the validation rows' labels and counts changes nothing the fold's model is
    trained with: its training rows, its column weights, and how its validation rows are
    encoded from those (idf, BM25's mean length)."""
    X, Y = _random_labels(1)
    (tr, va), *_ = inner_folds(Y, 3, 0)
    rng = np.random.default_rng(5)
    X2, Y2 = X.tolil(), Y.tolil()
    for i in va:
        X2[i, : 30] = rng.poisson(2.0, 30)
        Y2[i, :] = np.roll(Y[i].toarray(), 1)
    a = fold_encoder(X, Y, encoding)(tr, va)
    b = fold_encoder(sp.csr_matrix(X2), sp.csr_matrix(Y2), encoding)(tr, va)
    assert abs(a[0] - b[0]).max() == 0
    if a[2] is not None:
        np.testing.assert_array_equal(a[2], b[2])
    # the fold's statistics are those of its training rows: with the validation rows' counts
    # held, their encoding is the same
    c = fold_encoder(X, sp.csr_matrix(Y2), encoding)(tr, va)
    assert abs(a[1] - c[1]).max() == 0
