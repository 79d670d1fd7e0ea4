"""Every benchmark weighting against its defining paper's formula, on small hand-computed tables.

Companion of docs/weightings.md: each test pins one formula (log base, smoothing constant, edge
rule, lambda, normalisation) to a value computed by hand with ``math`` from the paper's formula, so
that a change of formula fails here. Where our code deviates from a paper on purpose or by
accident, the test pins OUR value and says which paper value it differs from (the page gives the
numbers). Cells: ``tp`` positive documents with the term, ``fp`` negative documents with it,
``fn = pos - tp``, ``tn = neg - fp``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from termweight import scoring
from termweight.encoding import bm25_tf, encode, scale_columns, sublinear_tf
from termweight.weighting import all_encodings, encoding_parts
from termweight.weightings import igm as igm_module
from termweight.weightings.igm import igm_weights


def cells(tp, fp, fn, tn):
    """One task, one term: the four cells as (1, 1) float arrays."""
    return tuple(np.array([[float(v)]]) for v in (tp, fp, fn, tn))


def one(name, tp, fp, fn, tn) -> float:
    return float(scoring.score_cells(name, *cells(tp, fp, fn, tn))[0, 0])


# --- relevance frequency (Lan, Tan, Su & Lu 2009) and Kim (2016)'s rf -------------------------

def test_rf_is_log2_of_two_plus_a_over_max_one_c():
    assert one("rf", 0, 5, 10, 85) == pytest.approx(1.0)            # a = 0: log2(2)
    assert one("rf", 6, 0, 4, 90) == pytest.approx(3.0)             # c = 0 -> max(1, c) = 1: log2(8)
    assert one("rf", 6, 1, 4, 89) == pytest.approx(3.0)             # c = 1: the same value
    assert one("rf", 6, 3, 4, 87) == pytest.approx(2.0)             # log2(2 + 2) = 2: base 2
    assert one("rf", 5, 2, 5, 88) == pytest.approx(math.log2(4.5))


def test_rf_is_not_swapped_for_negative_terms():
    # a term in 1 of 10 positives and 50 of 90 negatives: rf = log2(2 + 1/50), no swap
    assert one("rf", 1, 50, 9, 40) == pytest.approx(math.log2(2.02))


def test_kim_rf_is_the_natural_log_of_the_same_ratio():
    assert one("kim_rf", 6, 3, 4, 87) == pytest.approx(math.log(4.0))
    assert one("rf", 6, 3, 4, 87) / one("kim_rf", 6, 3, 4, 87) == pytest.approx(1 / math.log(2))
    # Kim prints log(2 + p/n) without max(1, n): at n = 0 his formula is infinite, ours is finite
    assert one("kim_rf", 6, 0, 4, 90) == pytest.approx(math.log(8.0))


# --- delta idf (Martineau & Finin 2009; smoothed: Paltoglou & Thelwall 2010) ---------------------

def test_delta_idf_adds_half_to_each_class_document_frequency():
    # pos = 100, neg = 900, P_t = 10, N_t = 0: |log2(100 (0 + 0.5) / ((10 + 0.5) 900))|
    ours = one("delta_idf", 10, 0, 90, 900)
    assert ours == pytest.approx(abs(math.log2(100 * 0.5 / (10.5 * 900))))
    assert ours == pytest.approx(7.562242424, abs=1e-8)
    # Paltoglou & Thelwall's smoothed delta idf as public implementations of it compute it
    # (0.5 added to the PRODUCTS |P| N_t and |N| P_t): a different number on this table
    products = abs(math.log2((100 * 0 + 0.5) / (900 * 10 + 0.5)))
    assert products == pytest.approx(14.135789434, abs=1e-8)
    assert abs(ours - products) > 6


def test_delta_idf_without_zero_cells_is_near_martineau_finin_log2():
    # |P| = 100, |N| = 900, P_t = 20, N_t = 10: log2(|P|/P_t) - log2(|N|/N_t)
    unsmoothed = math.log2(100 / 20) - math.log2(900 / 10)
    ours = one("delta_idf", 20, 10, 80, 890)
    assert ours == pytest.approx(abs(math.log2(100 * 10.5 / (20.5 * 900))))
    assert ours == pytest.approx(abs(unsmoothed), abs=0.04)


def test_delta_idf_is_sign_blind():
    # the same term with the classes exchanged: same value (the paper's value changes sign)
    assert one("delta_idf", 10, 40, 90, 860) == pytest.approx(one("delta_idf", 40, 10, 860, 90))


# --- tf-igm (Chen, Zhang, Long & Zhang 2016) ---------------------------------------------------

def test_igm_lambda_7_on_a_three_class_table():
    assert igm_module.LAMBDA == 7.0
    tp = np.array([[8.0], [2.0], [0.0]])                 # class document frequencies of one term
    w = igm_module.igm(tp, np.zeros_like(tp), np.zeros_like(tp), np.zeros_like(tp))
    hand = 1 + 7 * 8 / (8 * 1 + 2 * 2 + 0 * 3)           # 1 + lambda f_1 / sum_r f_r r
    assert w[:, 0] == pytest.approx([hand] * 3)           # the same weight for every class
    assert hand == pytest.approx(17 / 3)
    # the ranking, not the class order, counts
    w2 = igm_module.igm(tp[::-1].copy(), *(np.zeros_like(tp),) * 3)
    assert w2[:, 0] == pytest.approx(w[:, 0])


def test_igm_lambda_is_a_parameter_and_its_extremes():
    tp = np.array([[8.0], [2.0], [0.0]])
    z = np.zeros_like(tp)
    assert igm_module.igm(tp, z, z, z, lam=5.0)[0, 0] == pytest.approx(1 + 5 * 8 / 12)
    # a term in one class only: igm = 1 (weight 1 + lambda); evenly spread over m = 3 classes:
    # igm = 1 / (1 + 2 + 3) = 2 / (m (m + 1))
    only = np.array([[5.0], [0.0], [0.0]])
    even = np.array([[4.0], [4.0], [4.0]])
    assert igm_module.igm(only, z, z, z)[0, 0] == pytest.approx(8.0)
    assert igm_module.igm(even, z, z, z)[0, 0] == pytest.approx(1 + 7 / 6)
    assert igm_module.igm(z, z, z, z)[0, 0] == 1.0           # absent from training: 1


def test_igm_binary_target_uses_the_two_classes_tp_and_fp():
    w = igm_module.igm(*cells(6, 2, 4, 8))
    assert w[0, 0] == pytest.approx(1 + 7 * 6 / (6 * 1 + 2 * 2))   # 5.2


def test_igm_weights_count_documents_not_occurrences():
    # term 0 occurs 9 times in one class-0 document and once in a class-1 document:
    # document frequencies (1, 1, 0), not term counts (9, 1, 0)
    X = sp.csr_matrix(np.array([[9, 1], [0, 1], [1, 0], [0, 1]], dtype=float))
    Y = np.array([[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    w = igm_weights(X, Y)
    assert w[:, 0] == pytest.approx([1 + 7 * 1 / (1 + 2)] * 3)
    assert w[:, 1] == pytest.approx([1 + 7 * 2 / (2 + 2 + 0)] * 3)


# --- BNS, IDF, IG, log odds (Forman 2008, section 2.3) ----------------------------------------

def test_bns_clips_rates_at_0_0005_and_0_9995():
    from scipy.special import ndtri

    z = -3.2905267314918945  # ndtri(0.0005), the normal quantile of the clipped rate
    assert ndtri(0.0005) == pytest.approx(z)
    # tpr = 1, fpr = 0 -> |ndtri(0.9995) - ndtri(0.0005)| = 2 * 3.2905...
    assert one("bns", 10, 0, 0, 90) == pytest.approx(-2 * z)
    # tpr = 0 clipped to 0.0005; fpr = 5/90
    assert one("bns", 0, 5, 10, 85) == pytest.approx(abs(z - ndtri(5 / 90)))
    # rates beyond the clip give the clip's score: 1/4000 and 3999/4000 as 0.0005 and 0.9995
    assert one("bns", 1, 1, 3999, 3) == pytest.approx(abs(z - ndtri(0.25)))
    assert one("bns", 3999, 1, 1, 3) == pytest.approx(abs(-z - ndtri(0.25)))


def test_idf_is_natural_log_of_n_over_df():
    assert one("idf", 3, 1, 7, 89) == pytest.approx(math.log(100 / 4))
    assert one("kim_idf", 3, 1, 7, 89) == pytest.approx(math.log(100 / 4))


def _h(x, y):
    n = x + y
    return -sum(v / n * math.log2(v / n) for v in (x, y) if v)


def test_ig_is_forman_entropy_difference_in_bits():
    tp, fp, fn, tn = 3, 1, 7, 89
    pt = (tp + fp) / 100
    hand = _h(10, 90) - (pt * _h(tp, fp) + (1 - pt) * _h(fn, tn))
    assert one("ig", tp, fp, fn, tn) == pytest.approx(hand)
    # Kim's ig as printed (natural logs) is the same mutual information in nats
    assert one("kim_ig", tp, fp, fn, tn) == pytest.approx(hand * math.log(2))


def test_log_odds_replaces_zero_counts_by_half_and_swaps_negative_terms():
    assert one("logodds", 3, 0, 7, 90) == pytest.approx(math.log(3 * 90 / (0.5 * 7)))
    # negatively correlated (tpr 1/10 < fpr 50/90): tp<->fn, fp<->tn before scoring
    assert one("logodds", 1, 50, 9, 40) == pytest.approx(math.log(9 * 50 / (40 * 1)))


def test_kim_chi2_and_kim_or_as_printed():
    tp, fp, fn, tn = 6, 3, 4, 87
    n, npos, nneg = 100, 10, 90
    assert one("kim_chi2", tp, fp, fn, tn) == pytest.approx(
        n * (tp * tn - fn * fp) ** 2 / (npos * nneg * (tp + fp) * (fn + tn)))
    assert one("kim_or", tp, fp, fn, tn) == pytest.approx(tp * tn / (fn * fp))
    # no swap: a negative indicator keeps an odds ratio below 1
    assert one("kim_or", 1, 50, 9, 40) == pytest.approx(1 * 40 / (9 * 50))


# --- the unsupervised bases: SMART ltc, BM25's TF, and what is normalised -------------------------

def test_ltc_sublinear_tf_and_bm25_tf_by_hand():
    X = sp.csr_matrix(np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 6.0]]))
    assert sublinear_tf(X).toarray() == pytest.approx(
        np.array([[1.0, 1 + math.log(3), 0.0], [0.0, 1 + math.log(2), 1 + math.log(6)]]))
    avgdl, k1, b = 6.0, 1.2, 0.75
    got = bm25_tf(X, avgdl).toarray()
    for i, dl in enumerate((4.0, 8.0)):
        for j in range(3):
            tf = X[i, j]
            want = tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)) if tf else 0.0
            assert got[i, j] == pytest.approx(want)
    # bm25tf-idf's column scale is the plain idf ln(N/df), not BM25's RSJ weight
    assert encoding_parts("bm25tf-idf") == ("bm25tf", "idf")


def _row_norms(Z):
    return np.sqrt(np.asarray(Z.multiply(Z).sum(axis=1)).ravel())


def test_only_tfidf_ltc_and_ntf_rows_are_unit_length():
    X = sp.csr_matrix(np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 6.0]]))
    idf = np.array([0.7, 0.1, 0.7])
    w = np.array([5.2, 1.0, 8.0])
    assert _row_norms(encode(X, "tfidf", idf)) == pytest.approx([1.0, 1.0])
    assert _row_norms(encode(X, "ltc", idf)) == pytest.approx([1.0, 1.0])
    assert _row_norms(encode(X, "ntf")) == pytest.approx([1.0, 1.0])
    # tf-<w>, binary-<w>, ntf-<w>: the weights multiply the columns after any normalisation
    assert _row_norms(scale_columns(encode(X, "tf"), w)) == pytest.approx(
        [math.hypot(5.2, 3.0), math.hypot(2.0, 48.0)])
    assert not np.allclose(_row_norms(scale_columns(encode(X, "ntf"), w)), 1.0)


def test_the_benchmark_has_no_log2_rf_and_no_sqrt_tf_igm():
    encodings = all_encodings()
    assert len(encodings) == 43  # 41 and scikit-learn's two tf-idf
    assert [e for e in encodings if encoding_parts(e)[1] in ("rf", "kim_rf")] == ["ntf-kim_rf"]
    assert [e for e in encodings if encoding_parts(e)[1] == "igm"] == ["tf-igm"]


def test_kim_idf_and_chi2_are_idf_and_chi2_on_real_cells(bbc_corpus):
    """Kim's idf and chi2 bases are the same formulas as idf and chi2 (two modules, one formula:
    checked equal bit for bit on the BBC corpus' one-vs-rest cells)."""
    from termweight.statistics import term_stats

    cells = term_stats(bbc_corpus.X, bbc_corpus.Y).cells()
    for kim, plain in (("kim_idf", "idf"), ("kim_chi2", "chi2")):
        np.testing.assert_array_equal(scoring.score_cells(kim, *cells),
                                      scoring.score_cells(plain, *cells))


def test_each_weighting_module_imports_no_other_weighting():
    """A weighting module imports nothing of termweight.weightings but the package's own file (the
    row type): what a stage computes with a weighting is that one file, the file dvc.yaml and the
    Snakemake rules list for its columns."""
    import ast

    from termweight import weightings

    pkg = Path(weightings.__file__).parent
    for module in weightings.modules():
        tree = ast.parse((pkg / f"{module}.py").read_text())
        names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        inner = {n for n in names if n.startswith("termweight.weightings")}
        assert inner <= {"termweight.weightings"}, (module, inner)


def test_every_row_of_the_table_comes_from_one_module():
    """METRICS' rows: the unsupervised three in termweight.scoring, every other in exactly one
    module of termweight.weightings (``module_of`` names it for the benchmark's encodings)."""
    from termweight.weighting import benchmark_encodings, module_of

    assert {n for n, (m, _) in scoring.ROWS.items() if m is None} == {"none", "idf", "dfreq"}
    assert {module_of(e) for e in benchmark_encodings("all")} - {None} == {
        "acc", "acc2", "bns", "chi2", "delta_idf", "f1", "ig", "igm", "kim", "logodds", "odds",
        "oddsnum", "pearson", "pmi", "power", "probratio"}


@pytest.mark.parametrize("alias", ["ntf-kim_idf", "ntf-kim_ig", "ntf-kim_chi2", "tf-idf"])
def test_unit_length_aliases_give_the_same_rows_on_real_data(bbc_corpus, alias):
    """Each alias of UNIT_LENGTH_ALIASES gives the unit-length rows of the weighting it maps to,
    task by task, on a real split of BBC (the benchmark runs the method once, under that name):
    the identity the benchmark's columns relied on, checked here instead of on every split."""
    from termweight.splits import Split
    from termweight.statistics import term_stats
    from termweight.steps.column import same_unit_rows
    from termweight.steps.features import encode_split
    from termweight.weighting import UNIT_LENGTH_ALIASES, needed_scores

    target = UNIT_LENGTH_ALIASES[alias]
    rng = np.random.default_rng(0)
    order = rng.permutation(bbc_corpus.n_docs)
    split = Split("s", np.sort(order[: bbc_corpus.n_docs // 2]), np.sort(order[bbc_corpus.n_docs // 2:]))
    X, Y = bbc_corpus.X, bbc_corpus.Y
    st = term_stats(X[split.train], Y[split.train])
    scores = {m: scoring.score(m, st) for m in needed_scores([alias, target])}
    gap = same_unit_rows(encode_split(X, Y, split, scores, alias),
                         encode_split(X, Y, split, scores, target), alias)
    assert gap <= 1e-9
