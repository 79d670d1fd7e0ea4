"""The shared paired tests (termweight.inference) against scipy, statsmodels and their formulas."""

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.weightstats import ttost_paired

from termweight import inference

RNG = np.random.default_rng(7)
A = 0.8 + 0.02 * RNG.standard_normal(10)
B = A - 0.01 + 0.01 * RNG.standard_normal(10)


def test_paired_t_is_scipys():
    r = inference.paired_t(A, B)
    ref = stats.ttest_rel(A, B)
    assert r["t"] == pytest.approx(ref.statistic) and r["p"] == pytest.approx(ref.pvalue)
    assert r["n"] == 10 and r["df"] == 9 and r["wins"] == int((A > B).sum())


def test_corrected_resampled_t_formula():
    """Nadeau & Bengio (2003): var = (1/k + n2/n1) s^2, k - 1 degrees of freedom."""
    d = A - B
    k, ratio = d.size, 0.5 / 0.5
    t = d.mean() / np.sqrt((1 / k + ratio) * d.var(ddof=1))
    r = inference.corrected_resampled_t(A, B, ratio)
    assert r["t"] == pytest.approx(t)
    assert r["p"] == pytest.approx(2 * stats.t.sf(abs(t), k - 1))
    # the correction only widens: t_c^2 = t^2 / (1 + k n2/n1)
    assert r["t"] ** 2 == pytest.approx(inference.paired_t(A, B)["t"] ** 2 / (1 + k * ratio))
    # n_test/n_train = 0: the plain paired t
    assert inference.corrected_resampled_t(A, B, 0.0)["p"] == pytest.approx(
        stats.ttest_rel(A, B).pvalue)


def test_corrected_t_turns_a_plain_significance_insignificant():
    """The rule that flips Kim's verdicts: a plain p < 0.05 over 10 overlapping 50/50 splits can
    be p > 0.05 corrected."""
    d = np.array([0.004, 0.006, 0.003, 0.005, 0.007, 0.002, 0.006, 0.004, 0.005, 0.003])
    assert inference.paired_t(d, 0 * d)["p"] < 0.001
    assert inference.corrected_resampled_t(d, 0 * d, 1.0)["p"] > 0.01


def test_constant_and_short_inputs():
    assert inference.paired_t([1.0], [0.5])["t"] is None
    r = inference.paired_t([1.0, 1.0], [0.5, 0.5])
    assert r["t"] is None and r["se"] == 0.0 and r["diff"] == 0.5
    with pytest.raises(ValueError):
        inference.paired_t([1.0, 2.0], [1.0])
    with pytest.raises(ValueError):
        inference.corrected_resampled_t(A, B, -1.0)


def test_wilcoxon_is_scipys():
    assert inference.wilcoxon_p(A, B) == pytest.approx(stats.wilcoxon(A, B).pvalue)
    assert inference.wilcoxon_p([1.0, 2.0], [1.0, 2.0]) is None


@pytest.mark.parametrize("margin", [0.005, 0.01, 0.03])
def test_tost_is_statsmodels(margin):
    p, _, _ = ttost_paired(A, B, -margin, margin)
    assert inference.tost_p(A - B, margin) == pytest.approx(p)


def test_holm_by_hand():
    assert list(inference.holm([0.01, 0.04, 0.03])) == pytest.approx([0.03, 0.06, 0.06])
    assert inference.holm([]).size == 0


def test_bounds():
    assert inference.detectable_effect(0.01) == pytest.approx(0.028016)
    assert inference.one_sided_bound(-0.02, 0.01, expected=-1) == pytest.approx(0.036449)
    assert inference.one_sided_bound(0.0, None) is None
