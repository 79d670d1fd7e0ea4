"""Every scoring metric against hand-computed 2x2 tables, the edge rules, and properties.

METHODS.md section 2; Forman (2008) section 2.3; Kim (2016) section 2. Cells are ``tp`` (positive
docs containing the term), ``fp`` (negative docs containing it), ``fn = pos - tp``, ``tn = neg - fp``.
The arithmetic of each expected value is written out next to it; the literal numbers were checked
with a calculator and are there to catch a formula that is wrong in the same way in test and code.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtri
from scipy.stats import chi2_contingency, norm
from sklearn.metrics import mutual_info_score

from termweight import scoring
from termweight.runner.errors import ConfigError
from termweight.statistics import TermStats, presence, term_stats
from termweight.weightings import bns as bns_module

ASYMMETRIC = {"odds", "logodds", "probratio", "oddsnum", "acc", "f1", "power", "pmi"}
CLASS_SYMMETRIC = ("bns", "ig", "chi2", "pearson", "acc2", "kim_chi2", "kim_ig")
LN2 = math.log(2.0)


def sc(name, tp, fp, fn, tn) -> float:
    """Score one table (as a 1 task x 1 term array)."""
    cells = [np.array([[c]], dtype=np.float64) for c in (tp, fp, fn, tn)]
    out = scoring.score_cells(name, *cells)
    assert out.shape == (1, 1)
    return float(out[0, 0])


def H(x, y):
    """Forman's entropy H(x, y) in bits, nln(0) = 0."""
    return -sum(p * math.log2(p) for p in (x / (x + y), y / (x + y)) if p > 0)


def presence_vectors(tp, fp, fn, tn):
    """Label and presence vectors of N documents realising the table."""
    y = np.array([1] * (tp + fn) + [0] * (fp + tn))
    x = np.array([1] * tp + [0] * fn + [1] * fp + [0] * tn)
    return y, x


# --------------------------------------------------------------------------------------------
# Table A: pos = 50, neg = 150, N = 200; tp = 10, fp = 2, fn = 40, tn = 148.
# tpr = 10/50 = 0.2, fpr = 2/150 = 0.013333 (positively correlated: no swap).
A = (10, 2, 40, 148)

HAND_A = {
    "none": (1.0, 1.0),
    # log(N / df) = log(200 / 12) = log(16.6667)
    "idf": (math.log(200 / 12), 2.813411),
    "kim_idf": (math.log(200 / 12), 2.813411),
    # |F^-1(0.2) - F^-1(0.013333)| = |-0.841621 - (-2.216363)|
    "bns": (abs(norm.ppf(0.2) - norm.ppf(2 / 150)), 1.374742),
    # H(50,150) - [12/200 H(10,2) + 188/200 H(40,148)] = 0.811278 - [0.06*0.650022 + 0.94*0.746737]
    "ig": (H(50, 150) - (12 / 200 * H(10, 2) + 188 / 200 * H(40, 148)), 0.070344),
    # the same mutual information in nats: 0.070344 * ln 2
    "kim_ig": ((H(50, 150) - (12 / 200 * H(10, 2) + 188 / 200 * H(40, 148))) * LN2, 0.048759),
    # N (tp tn - fp fn)^2 / ((tp+fp)(fn+tn)(tp+fn)(fp+tn)) = 200 * (1480 - 80)^2 / (12*188*50*150)
    "chi2": (200 * (10 * 148 - 2 * 40) ** 2 / (12 * 188 * 50 * 150), 23.167849),
    "kim_chi2": (200 * (10 * 148 - 2 * 40) ** 2 / (12 * 188 * 50 * 150), 23.167849),
    # tp - fp = 10 - 2
    "acc": (10 - 2, 8.0),
    # |tpr - fpr| = |0.2 - 0.013333|
    "acc2": (abs(0.2 - 2 / 150), 0.186667),
    # 2 tp / (pos + tp + fp) = 20 / (50 + 10 + 2)
    "f1": (2 * 10 / (50 + 10 + 2), 0.322581),
    # tpr (1 - fpr) = 0.2 * 148/150
    "oddsnum": (0.2 * (1 - 2 / 150), 0.197333),
    # tpr (1 - fpr) / ((1 - tpr) fpr) = (0.2 * 148/150) / (0.8 * 2/150) = (10*148) / (40*2)
    "odds": (0.2 * (1 - 2 / 150) / ((1 - 0.2) * (2 / 150)), 18.5),
    # log(tp tn / (fp fn)) = log(1480 / 80) = log 18.5
    "logodds": (math.log(10 * 148 / (2 * 40)), 2.917771),
    # (1 - fpr)^5 - (1 - tpr)^5 = (148/150)^5 - 0.8^5 = 0.935088 - 0.32768
    "power": ((1 - 2 / 150) ** 5 - (1 - 0.2) ** 5, 0.607408),
    # tpr / fpr = 0.2 / (2/150)
    "probratio": (0.2 / (2 / 150), 15.0),
    # |tp tn - fp fn| / sqrt(prod of margins) = 1400 / sqrt(12*188*50*150) = 1400 / 4113.39
    "pearson": (1400 / math.sqrt(12 * 188 * 50 * 150), 0.340352),
    # log(tp N / ((tp + fp) pos)) = log(10*200 / (12*50)) = log(3.3333)
    "pmi": (math.log(10 * 200 / (12 * 50)), 1.203973),
    # tp + fp
    "dfreq": (12, 12.0),
    # Lan et al. (2009) rf: log2(2 + a / max(1, c)), a = tp = 10, c = fp = 2: log2 7
    "rf": (math.log2(2 + 10 / max(1, 2)), 2.807355),
    # Kim rf: log(2 + tp / max(1, fp)) = log(2 + 10/2) = log 7
    "kim_rf": (math.log(2 + 10 / max(1, 2)), 1.945910),
    # Kim or: tp tn / (fn fp) = 10*148 / (40*2)
    "kim_or": (10 * 148 / (40 * 2), 18.5),
    # delta idf: |log2(pos (fp + 0.5) / ((tp + 0.5) neg))| = |log2(50*2.5 / (10.5*150))| = log2(12.6)
    "delta_idf": (math.log2(12.6), 3.655352),
}


def test_every_metric_has_a_hand_value():
    assert set(HAND_A) == set(scoring.METRICS)
    assert set(scoring.FORMAN_SCALINGS) <= set(scoring.METRICS) and len(scoring.FORMAN_SCALINGS) == 15
    assert {n for n, (_, asym) in scoring.METRICS.items() if asym} == ASYMMETRIC


@pytest.mark.parametrize("name", sorted(HAND_A))
def test_metric_by_hand_table_a(name):
    expr, literal = HAND_A[name]
    assert expr == pytest.approx(literal, abs=1e-6)
    assert sc(name, *A) == pytest.approx(expr, rel=1e-12)


# ---------------------------------------------------------------- negatively correlated term
# Table B: pos = 50, neg = 150; tp = 2, fp = 60, fn = 48, tn = 90: tpr = 0.04 < fpr = 0.4.
# Forman's swap tp<->fn, fp<->tn gives the table B' = (48, 90, 2, 60): tpr' = 0.96, fpr' = 0.6.
B = (2, 60, 48, 90)
B_SWAPPED = (48, 90, 2, 60)

HAND_B = {
    # log(tp' tn' / (fp' fn')) = log(48*60 / (90*2)) = log 16   (unswapped: log(2*90/(60*48)) = -log 16)
    "logodds": (math.log(48 * 60 / (90 * 2)), 2.772589),
    # tpr'(1-fpr') / ((1-tpr') fpr') = 0.96*0.4 / (0.04*0.6) = 16
    "odds": (0.96 * 0.4 / (0.04 * 0.6), 16.0),
    # tpr' / fpr' = 0.96 / 0.6
    "probratio": (0.96 / 0.6, 1.6),
    # tpr' (1 - fpr') = 0.96 * 0.4
    "oddsnum": (0.96 * (1 - 0.6), 0.384),
    # tp' - fp' = 48 - 90 (negative; as_scaling_weights clips it to 0)
    "acc": (48 - 90, -42.0),
    # 2 tp' / (pos + tp' + fp') = 96 / (50 + 48 + 90)
    "f1": (2 * 48 / (50 + 48 + 90), 0.510638),
    # (1 - fpr')^5 - (1 - tpr')^5 = 0.4^5 - 0.04^5 = 0.01024 - 1.024e-7
    "power": (0.4**5 - 0.04**5, 0.010240),
    # log(tp' N / ((tp' + fp') pos)) = log(48*200 / (138*50)) = log(1.391304)
    "pmi": (math.log(48 * 200 / (138 * 50)), 0.330242),
}


def test_swap_negative_cells():
    cells = [np.array([[c, a]], dtype=float) for c, a in zip(B, A, strict=True)]
    tp, fp, fn, tn = scoring.swap_negative(*cells)
    # column 0 (table B, tpr 0.04 < fpr 0.4) swapped; column 1 (table A) untouched
    np.testing.assert_array_equal(np.stack([tp, fp, fn, tn])[:, 0, 0], B_SWAPPED)
    np.testing.assert_array_equal(np.stack([tp, fp, fn, tn])[:, 0, 1], A)
    # tpr == fpr (5/50 = 15/150): not negatively correlated, not swapped
    eq = scoring.swap_negative(*[np.array([c], float) for c in (5, 15, 45, 135)])
    np.testing.assert_array_equal(np.concatenate(eq), [5, 15, 45, 135])


@pytest.mark.parametrize("name", sorted(HAND_B))
def test_negative_feature_swap_by_hand(name):
    expr, literal = HAND_B[name]
    assert expr == pytest.approx(literal, abs=1e-6)
    assert sc(name, *B) == pytest.approx(expr, rel=1e-9)
    # ... which is exactly the score of the swapped (positively correlated) table
    assert sc(name, *B) == pytest.approx(sc(name, *B_SWAPPED), rel=1e-12)


def test_negative_feature_scores_high_after_swap():
    # a strong negative indicator: in none of the 50 positives, in 140 of the 150 negatives
    strong_neg = (0, 140, 50, 10)
    # log odds with 0.5 for tp: swapped table (50, 10, 0->0.5, 140): log(50*140 / (10*0.5)) = log 1400
    assert sc("logodds", *strong_neg) == pytest.approx(math.log(50 * 140 / (10 * 0.5)))
    # unswapped it would be log(0.5*10 / (140*50)) = -log 1400: the swap makes it the top score
    assert sc("logodds", *strong_neg) > sc("logodds", *A) > 0


@pytest.mark.parametrize("name", ["bns", "ig", "chi2", "acc2", "pearson"])
def test_symmetric_metrics_do_not_need_the_swap(name):
    # symmetric in presence/absence: B and B' score the same without any swap
    assert sc(name, *B) == pytest.approx(sc(name, *B_SWAPPED), rel=1e-12)


def test_symmetric_metrics_table_b_by_hand():
    # bns: |F^-1(0.04) - F^-1(0.4)| = |-1.750686 - (-0.253347)|
    assert sc("bns", *B) == pytest.approx(abs(ndtri(0.04) - ndtri(0.4)))
    assert abs(ndtri(0.04) - ndtri(0.4)) == pytest.approx(1.497339, abs=1e-6)
    # acc2: |0.04 - 0.4|
    assert sc("acc2", *B) == pytest.approx(0.36)
    # chi2: 200 * (2*90 - 60*48)^2 / (62*138*50*150) = 200 * 2700^2 / 64170000
    assert sc("chi2", *B) == pytest.approx(200 * 2700**2 / (62 * 138 * 50 * 150))
    assert 200 * 2700**2 / (62 * 138 * 50 * 150) == pytest.approx(22.720898, abs=1e-6)


# ---------------------------------------------------------------- edge rules

def test_bns_clips_both_rates():
    # tpr = 50/50 = 1 -> 0.9995, fpr = 0/150 = 0 -> 0.0005: |3.290527 - (-3.290527)|
    assert sc("bns", 50, 0, 0, 150) == pytest.approx(ndtri(0.9995) - ndtri(0.0005))
    assert ndtri(0.9995) - ndtri(0.0005) == pytest.approx(6.581054, abs=1e-6)
    # tpr = 0 -> 0.0005, fpr = 30/150 = 0.2: |-3.290527 - (-0.841621)| = 2.448906
    assert sc("bns", 0, 30, 50, 120) == pytest.approx(abs(ndtri(0.0005) - ndtri(0.2)))
    assert abs(ndtri(0.0005) - ndtri(0.2)) == pytest.approx(2.448906, abs=1e-6)
    # tpr = 1/2500 = 0.0004 < 0.0005 clips to the same value as tpr = 0
    assert sc("bns", 1, 30, 2499, 120) == pytest.approx(sc("bns", 0, 30, 2500, 120), rel=1e-12)
    # tpr = 2/2500 = 0.0008 is inside the range: not clipped
    assert sc("bns", 2, 30, 2498, 120) == pytest.approx(abs(ndtri(0.0008) - ndtri(0.2)))
    assert bns_module.CLIP == (0.0005, 0.9995)


def test_half_for_zero_counts():
    # fp = 0 -> 0.5 in (10, 0, 40, 150):
    # logodds = log(10*150 / (0.5*40)) = log 75;  odds = 75
    assert sc("logodds", 10, 0, 40, 150) == pytest.approx(math.log(10 * 150 / (0.5 * 40)))
    assert sc("odds", 10, 0, 40, 150) == pytest.approx(10 * 150 / (0.5 * 40))
    # probratio: rates from the replaced cells: (10/50) / (0.5/150.5) = 60.2
    assert sc("probratio", 10, 0, 40, 150) == pytest.approx((10 / 50) / (0.5 / 150.5))
    # pmi with tp = 0 (absent term, tpr = fpr = 0, no swap): tp = fp = 0.5, N = 201, pos = 50.5:
    # log(0.5 * 201 / (1.0 * 50.5)) = log(1.990099)
    assert sc("pmi", 0, 0, 50, 150) == pytest.approx(math.log(0.5 * 201 / (1.0 * 50.5)))
    # absent term, odds: (0.5*150) / (50*0.5) = 3
    assert sc("odds", 0, 0, 50, 150) == pytest.approx(3.0)
    # every cell zero except one is still finite
    for name in ("odds", "logodds", "probratio", "pmi", "kim_or"):
        assert np.isfinite(sc(name, 0, 0, 0, 7)) and np.isfinite(sc(name, 7, 0, 0, 0))


@pytest.mark.parametrize("name", ["chi2", "pearson", "kim_chi2"])
def test_chi2_pearson_zero_where_a_margin_is_zero(name):
    assert sc(name, 0, 0, 50, 150) == 0.0  # tp + fp = 0 (term absent)
    assert sc(name, 50, 150, 0, 0) == 0.0  # fn + tn = 0 (term in every document)
    assert sc(name, 3, 0, 2, 0) == 0.0  # fp + tn = 0 (no negatives)
    assert sc(name, 0, 3, 0, 2) == 0.0  # tp + fn = 0 (no positives)


def test_idf_absent_term_is_zero():
    assert sc("idf", 0, 0, 50, 150) == 0.0
    assert sc("idf", 50, 150, 0, 0) == 0.0  # log(200/200)


# ---------------------------------------------------------------- rf (Lan, Tan, Su & Lu 2009)

def test_rf_is_lan_et_al_log2_by_hand():
    # a = 45 positive docs with the term, c = 5 negative docs with it: log2(2 + 9) = log2 11
    assert sc("rf", 45, 5, 5, 145) == pytest.approx(3.459432, abs=1e-6)
    # c = 0: max(1, c) = 1 -> log2(2 + 10) = log2 12
    assert sc("rf", 10, 0, 40, 150) == pytest.approx(3.584963, abs=1e-6)
    # a = 0: exactly log2 2 = 1, the smallest rf; no swap for negative indicators
    assert sc("rf", 0, 30, 50, 120) == 1.0
    # depends on a and c only; Kim's rf is the same ratio in nats: rf = kim_rf / ln 2
    assert sc("rf", 10, 2, 1, 1) == sc("rf", 10, 2, 400, 900)
    assert sc("rf", 7, 3, 4, 9) == pytest.approx(sc("kim_rf", 7, 3, 4, 9) / math.log(2))


def test_every_metric_has_a_description():
    assert set(scoring.METRIC_DESCRIPTIONS) == set(scoring.METRICS)
    assert all(d and d != "(no description)" for d in scoring.METRIC_DESCRIPTIONS.values())
    assert "log2" in scoring.METRIC_DESCRIPTIONS["rf"] and "Lan" in scoring.METRIC_DESCRIPTIONS["rf"]
    assert "ln" in scoring.METRIC_DESCRIPTIONS["kim_rf"]


def test_list_metrics_describes_every_metric():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "termweight", "list", "metrics"], check=True,
                         capture_output=True, text=True).stdout
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert set(scoring.METRICS) <= set(lines)
    assert not [n for n, line in lines.items() if "(no description)" in line]


# ---------------------------------------------------------------- Kim: cells as printed, no swap

def test_kim_rf_uses_tp_and_fp_unswapped():
    # tp >> fp: log(2 + 45 / max(1, 5)) = log 11: large
    assert sc("kim_rf", 45, 5, 5, 145) == pytest.approx(math.log(2 + 45 / 5))
    assert math.log(11) == pytest.approx(2.397895, abs=1e-6)
    # tp << fp: log(2 + 1 / 100) = 0.698135 ~ log 2 = 0.693147 (NOT swapped to a big value)
    assert sc("kim_rf", 1, 100, 49, 50) == pytest.approx(math.log(2 + 1 / 100))
    assert sc("kim_rf", 1, 100, 49, 50) == pytest.approx(math.log(2), abs=0.01)
    # a buggy cell swap (fp <- fn or tp <- fn) would give log(2 + 49/100) or log(2 + 49/50)
    assert sc("kim_rf", 1, 100, 49, 50) < math.log(2 + 49 / 100)
    # fp = 0: max(1, fp) = 1 -> log(2 + 10)
    assert sc("kim_rf", 10, 0, 40, 150) == pytest.approx(math.log(12))
    # tp = 0: exactly log 2
    assert sc("kim_rf", 0, 30, 50, 120) == pytest.approx(math.log(2))
    # rf depends on tp and fp only, not on fn, tn
    assert sc("kim_rf", 10, 2, 1, 1) == sc("kim_rf", 10, 2, 400, 900)


def test_kim_or_unswapped():
    # negatively correlated table B: tp tn / (fn fp) = 2*90 / (48*60) = 0.0625, NOT 16
    assert sc("kim_or", *B) == pytest.approx(2 * 90 / (48 * 60))
    assert sc("kim_or", *B) < 1 < sc("odds", *B)
    # zero fp -> 0.5: 10*150 / (40*0.5) = 75
    assert sc("kim_or", 10, 0, 40, 150) == pytest.approx(75.0)
    # tp = 0 -> 0.5: 0.5*120 / (50*30) = 0.04
    assert sc("kim_or", 0, 30, 50, 120) == pytest.approx(0.5 * 120 / (50 * 30))


def test_bns_and_odds_use_the_right_cells():
    # a table where tp/pos, tp/(tp+fp), fp/neg and fn/pos all differ: (tp, fp, fn, tn) = (30, 5, 20, 145)
    # BNS must use tpr = 30/50 = 0.6 and fpr = 5/150: |0.253347 - (-1.833915)| = 2.087262
    assert sc("bns", 30, 5, 20, 145) == pytest.approx(abs(ndtri(30 / 50) - ndtri(5 / 150)))
    assert abs(ndtri(0.6) - ndtri(5 / 150)) == pytest.approx(2.087262, abs=1e-6)
    # odds ratio = tp tn / (fp fn) = 30*145 / (5*20) = 43.5 (a swapped-cell bug gives 1/43.5 or other)
    assert sc("odds", 30, 5, 20, 145) == pytest.approx(30 * 145 / (5 * 20))
    assert sc("kim_or", 30, 5, 20, 145) == pytest.approx(43.5)


# ---------------------------------------------------------------- reference implementations

TABLES = [(10, 2, 40, 148), (2, 60, 48, 90), (30, 5, 20, 145), (1, 1, 1, 1), (7, 0, 0, 13),
          (0, 9, 4, 0), (3, 3, 3, 3), (25, 40, 5, 130)]


@pytest.mark.parametrize("table", TABLES)
def test_chi2_against_scipy_contingency(table):
    tp, fp, fn, tn = table
    if min(tp + fp, fn + tn, tp + fn, fp + tn) == 0:
        assert sc("chi2", *table) == 0.0
        return
    stat = chi2_contingency(np.array([[tp, fp], [fn, tn]]), correction=False)[0]
    assert sc("chi2", *table) == pytest.approx(stat, rel=1e-10)
    # phi coefficient: sqrt(chi2 / N)
    assert sc("pearson", *table) == pytest.approx(math.sqrt(stat / sum(table)), rel=1e-10)


@pytest.mark.parametrize("table", TABLES)
def test_ig_against_sklearn_mutual_info(table):
    y, x = presence_vectors(*table)
    mi_nats = mutual_info_score(y, x)
    assert sc("kim_ig", *table) == pytest.approx(mi_nats, rel=1e-9, abs=1e-12)
    assert sc("ig", *table) == pytest.approx(mi_nats / LN2, rel=1e-9, abs=1e-12)  # bits


@pytest.mark.parametrize("table", TABLES)
def test_pearson_against_corrcoef(table):
    y, x = presence_vectors(*table)
    if x.std() == 0 or y.std() == 0:
        assert sc("pearson", *table) == 0.0
    else:
        assert sc("pearson", *table) == pytest.approx(abs(np.corrcoef(x, y)[0, 1]), rel=1e-10)


# ---------------------------------------------------------------- statistics and vectorisation

def test_score_from_term_stats_matrix():
    # 6 docs, classes: docs 0-2 class 0, docs 3-5 class 1; doc 2 also class 1 (multi-label)
    X = sp.csr_matrix(np.array([[1, 0, 3], [2, 0, 0], [0, 1, 1], [0, 4, 1], [0, 1, 0], [1, 0, 0]]))
    Y = sp.csr_matrix(np.array([[1, 0], [1, 0], [1, 1], [0, 1], [0, 1], [0, 1]]))
    stats = term_stats(X, Y)
    # term 0 in docs 0, 1, 5; term 1 in 2, 3, 4; term 2 in 0, 2, 3
    np.testing.assert_array_equal(stats.df, [3, 3, 3])
    np.testing.assert_array_equal(stats.pos, [3, 4])
    np.testing.assert_array_equal(stats.tp, [[2, 1, 2], [1, 3, 2]])
    tp, fp, fn, tn = stats.cells()
    # class 1, term 1: tp = 3 (docs 2,3,4), fp = 0, fn = 1 (doc 5), tn = 2 (docs 0,1)
    assert (tp[1, 1], fp[1, 1], fn[1, 1], tn[1, 1]) == (3, 0, 1, 2)
    for name in scoring.METRICS:
        s = scoring.score(name, stats)
        assert s.shape == (2, 3)
        for c in range(2):
            for t in range(3):
                assert s[c, t] == pytest.approx(sc(name, tp[c, t], fp[c, t], fn[c, t], tn[c, t]),
                                                rel=1e-12, abs=1e-15)


def test_term_stats_counts_presence_not_counts_and_leaves_x_alone():
    # explicit zero (row 0, col 1), negative value (row 1, col 0) and a duplicate (row 1, col 2 twice)
    data = np.array([2.0, 0.0, -1.0, 1.0, 1.0])
    indices = np.array([0, 1, 0, 2, 2])
    indptr = np.array([0, 2, 5])
    X = sp.csr_matrix((data, indices, indptr), shape=(2, 3))
    dense_before = X.toarray()
    Y = sp.csr_matrix(np.array([[1], [1]]))
    stats = term_stats(X, Y)
    np.testing.assert_array_equal(stats.tp, [[1, 0, 1]])  # the duplicate counts once
    np.testing.assert_array_equal(stats.df, [1, 0, 1])
    np.testing.assert_array_equal(X.toarray(), dense_before)  # X not corrupted
    np.testing.assert_array_equal(X.indices, indices)
    np.testing.assert_array_equal(X.indptr, indptr)
    np.testing.assert_array_equal(presence(X).toarray(), [[1, 0, 0], [0, 0, 1]])


def test_term_stats_against_brute_force():
    rng = np.random.default_rng(0)
    D = rng.integers(0, 3, size=(40, 15)) * (rng.random((40, 15)) < 0.4)
    Yd = (rng.random((40, 4)) < 0.3).astype(int)
    stats = term_stats(sp.csr_matrix(D), sp.csr_matrix(Yd))
    for c in range(4):
        for t in range(15):
            assert stats.tp[c, t] == sum(1 for i in range(40) if Yd[i, c] and D[i, t] > 0)
    np.testing.assert_array_equal(stats.df, (D > 0).sum(axis=0))
    np.testing.assert_array_equal(stats.pos, Yd.sum(axis=0))
    assert stats.n_docs == 40


def test_unknown_metric():
    with pytest.raises(ConfigError):
        scoring.score_cells("bsn", 1, 1, 1, 1)


def test_as_scaling_weights_guards():
    s = np.array([[np.nan, np.inf, -3.0, 2.0, 5.0]])
    # NaN -> 0, +inf -> largest finite of the task (5), negative -> 0
    np.testing.assert_array_equal(scoring.as_scaling_weights(s), [[0.0, 5.0, 0.0, 2.0, 5.0]])


# ---------------------------------------------------------------- properties (hypothesis)

@st.composite
def tables(draw, max_n=300):
    pos = draw(st.integers(1, max_n))
    neg = draw(st.integers(1, max_n))
    tp = draw(st.one_of(st.just(0), st.just(pos), st.integers(0, pos)))
    fp = draw(st.one_of(st.just(0), st.just(neg), st.integers(0, neg)))
    return tp, fp, pos - tp, neg - fp


big_tables = tables(max_n=2_000_000)
PROP = settings(max_examples=120, deadline=None, derandomize=True)
PROP_FEW = settings(max_examples=40, deadline=None, derandomize=True)


@PROP
@given(tables())
def test_class_swap_invariance(table):
    tp, fp, fn, tn = table
    for name in CLASS_SYMMETRIC:
        # positive <-> negative class: tp <-> fp, fn <-> tn
        assert sc(name, fp, tp, tn, fn) == pytest.approx(sc(name, tp, fp, fn, tn), rel=1e-9,
                                                           abs=1e-12), name


@PROP
@given(tables())
def test_asymmetric_metrics_value_negative_features(table):
    tp, fp, fn, tn = table
    if tp * (fp + tn) == fp * (tp + fn):  # tpr == fpr: no swap either way
        return
    for name in ASYMMETRIC:
        # a table and its presence/absence mirror (tp <-> fn, fp <-> tn) score the same
        assert sc(name, tp, fp, fn, tn) == pytest.approx(sc(name, fn, tn, tp, fp), rel=1e-9,
                                                         abs=1e-12), name


@PROP
@given(st.one_of(tables(), big_tables))
def test_no_nan_or_inf(table):
    for name in scoring.METRICS:
        v = sc(name, *table)
        assert np.isfinite(v), (name, table, v)


@PROP_FEW
@given(st.lists(st.one_of(tables(), big_tables), min_size=1, max_size=8))
def test_scaling_weights_finite_nonnegative(tabs):
    # one task per table (so each task has its own pos/neg); terms = the table and its edge cases
    stats_list = []
    for tp, fp, fn, tn in tabs:
        pos, neg = tp + fn, fp + tn
        tps = np.array([tp, 0, pos, 0, pos])
        fps = np.array([fp, 0, neg, neg, 0])
        stats_list.append(TermStats(tp=tps[None, :], pos=np.array([pos]), df=tps + fps,
                                    n_docs=pos + neg))
    for stats in stats_list:
        for name in scoring.METRICS:
            w = scoring.scaling_weights(name, stats)
            assert w.shape == (1, 5)
            assert np.all(np.isfinite(w)) and np.all(w >= 0), (name, w)


@PROP_FEW
@given(st.lists(tables(), min_size=2, max_size=6))
def test_vectorised_equals_elementwise(tabs):
    cells = [np.array([[t[i] for t in tabs]], dtype=float) for i in range(4)]
    for name in scoring.METRICS:
        vec = scoring.score_cells(name, *cells)[0]
        for j, t in enumerate(tabs):
            assert vec[j] == pytest.approx(sc(name, *t), rel=1e-12, abs=1e-15)
