"""BNS and IDF on hand-computed contingency tables (METHODS.md section 2)."""

import numpy as np
import pytest
from scipy.stats import norm

from termweight import scoring
from termweight.statistics import TermStats, term_stats


def table(tp, fp, pos, neg):
    """One task, one column per term."""
    tp, fp = np.atleast_1d(tp), np.atleast_1d(fp)
    return TermStats(tp=tp[None, :], pos=np.array([pos]), df=tp + fp, n_docs=pos + neg)


def test_bns_by_hand():
    # tp=10 of pos=50 -> tpr=0.2; fp=2 of neg=150 -> fpr=0.01333
    st = table(10, 2, 50, 150)
    expected = abs(norm.ppf(0.2) - norm.ppf(2 / 150))  # |-0.841621 - (-2.216363)| = 1.374742
    assert scoring.score("bns", st)[0, 0] == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(1.374742, abs=1e-6)


def test_bns_clips_rates_to_half_permille():
    # tpr = 1 and fpr = 0 would be infinite; clipping to [0.0005, 0.9995] gives 2*3.290527
    st = table(50, 0, 50, 150)
    assert scoring.score("bns", st)[0, 0] == pytest.approx(2 * norm.ppf(0.9995), rel=1e-12)
    assert 2 * norm.ppf(0.9995) == pytest.approx(6.581054, abs=1e-6)


def test_idf_by_hand():
    # N = 200 documents, df = 12 -> log(200/12) = log(16.6667) = 2.813411
    st = table(10, 2, 50, 150)
    assert scoring.score("idf", st)[0, 0] == pytest.approx(np.log(200 / 12))
    assert np.log(200 / 12) == pytest.approx(2.813411, abs=1e-6)


def test_term_stats_cells_from_matrix():
    import scipy.sparse as sp

    X = sp.csr_matrix(np.array([[2, 0, 1], [0, 3, 1], [1, 1, 0], [0, 0, 4]]))
    Y = sp.csr_matrix(np.array([[1, 0], [1, 0], [0, 1], [0, 1]]))
    st = term_stats(X, Y)
    np.testing.assert_array_equal(st.tp, [[1, 1, 2], [1, 1, 1]])
    np.testing.assert_array_equal(st.df, [2, 2, 3])
    tp, fp, fn, tn = st.cells()
    np.testing.assert_array_equal(fp[0], [1, 1, 1])   # class-0 task: class-1 docs containing t
    np.testing.assert_array_equal(fn[0], [1, 1, 0])
    np.testing.assert_array_equal(tn[0], [1, 1, 1])
