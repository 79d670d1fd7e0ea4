"""Feature selection / reduction (termweight.selection): Ferreira & Figueiredo, MIM, CMIM, RP."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.feature_selection import chi2
from sklearn.metrics import mutual_info_score
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from sklearn.utils._param_validation import InvalidParameterError

from termweight import scoring, selection
from termweight.selection import (
    CMIM,
    MIM,
    AchlioptasProjection,
    FisherRatio,
    L0Supervised,
    L0Unsupervised,
    SelectByScore,
    cmi_pairs,
    mutual_information,
    top_k,
)
from termweight.statistics import term_stats

# Hand-made TD matrix: 6 documents (rows) x 6 features (columns), classes -1 x3 then +1 x3.
#   f0 never present (l0 = 0), f1 always present (l0 = N = 6): both removed by Methods 1 and 2.
#   f2 docs {0,1,3}: l0 = 3, per class (-1, +1) = (2, 1)
#   f3 doc  {5}:     l0 = 1,                      (0, 1)
#   f4 docs {2,3,4,5}: l0 = 4,                    (1, 3)
#   f5 docs {3,4,5}: l0 = 3,                      (0, 3)
TD = np.array([
    [0, 2, 1, 0, 0, 0],
    [0, 1, 4, 0, 0, 0],
    [0, 3, 0, 0, 2, 0],
    [0, 1, 1, 0, 1, 5],
    [0, 2, 0, 0, 1, 1],
    [0, 1, 0, 7, 3, 2],
])
Y6 = np.array([-1, -1, -1, 1, 1, 1])


@pytest.mark.parametrize("fmt", [np.asarray, sp.csr_array, sp.csc_matrix])
def test_method1_hand(fmt):
    sel = L0Unsupervised(m=2).fit(fmt(TD))
    # eligible l0: f2=3, f3=1, f4=4, f5=3; top 2: f4 (4), then f2/f5 tie at 3 -> lower index f2
    assert sel.selected_.tolist() == [4, 2]
    assert sel.get_support(indices=True).tolist() == [2, 4]
    assert sel.scores_.tolist() == [0, 6, 3, 1, 4, 3]
    out = sel.transform(fmt(TD))
    dense = out.toarray() if sp.issparse(out) else out
    assert np.array_equal(dense, TD[:, [2, 4]])
    # m larger than the 4 eligible features: keep exactly those ("stop" in step 2)
    assert L0Unsupervised(m=10).fit(TD).selected_.tolist() == [4, 2, 5, 3]
    # TDI gives the same l0
    assert L0Unsupervised(m=10).fit(TD > 0).selected_.tolist() == [4, 2, 5, 3]


def test_method2_diff_hand():
    sel = L0Supervised(m=3).fit(sp.csr_array(TD), Y6)
    # r = |l0(-1) - l0(+1)|: f2 |2-1| = 1, f3 |0-1| = 1, f4 |1-3| = 2, f5 |0-3| = 3
    assert sel.scores_[2:].tolist() == [1, 1, 2, 3]
    assert sel.selected_.tolist() == [5, 4, 2]  # f2 and f3 tie at 1: lower index first
    assert L0Supervised(m=99).fit(TD, Y6).selected_.tolist() == [5, 4, 2, 3]
    # always-present f1 has r = |3 - 3| = 0 but must be removed even if nothing else is left
    assert 1 not in L0Supervised(m=6).fit(TD, Y6).selected_
    # labels of any type, any order
    assert L0Supervised(m=3).fit(TD, np.where(Y6 > 0, "b", "a")).selected_.tolist() == [5, 4, 2]


def test_method2_entropy_hand():
    sel = L0Supervised(m=3, variant="entropy").fit(TD, Y6)
    h2 = 2 / 3 * math.log2(2 / 3) + 1 / 3 * math.log2(1 / 3)  # -0.918...
    h4 = 1 / 4 * math.log2(1 / 4) + 3 / 4 * math.log2(3 / 4)  # -0.811...
    assert np.allclose(sel.scores_[[2, 3, 4, 5]], [h2, 0.0, h4, 0.0], atol=1e-10)
    assert sel.selected_.tolist() == [3, 5, 4]  # f3, f5 tie at 0 (pure): lower index first


def test_method2_kclass_hand():
    # 3 classes, 2 docs each; f0 in docs {0,1,2} -> (2,1,0); f1 in {4} -> (0,0,1); f2 in {0,2,4,5}
    # -> (1,1,2); f3 always present (removed)
    X = np.array([[1, 0, 1, 1], [1, 0, 0, 1], [1, 0, 1, 1], [0, 0, 0, 1], [0, 1, 1, 1],
                  [0, 0, 1, 1]])
    y = np.array([0, 0, 1, 1, 2, 2])
    # eq. (6): sum over ordered pairs (l, k) = 2 x sum over l < k of |a_l - a_k|
    r0 = 2 * (abs(2 - 1) + abs(2 - 0) + abs(1 - 0))  # 8
    r1 = 2 * (0 + 1 + 1)  # 4
    r2 = 2 * (0 + 1 + 1)  # 4
    sel = L0Supervised(m=2).fit(X, y)
    assert sel.scores_[:3].tolist() == [r0, r1, r2]
    assert sel.selected_.tolist() == [0, 1]
    # eq. (5) for f0: fractions (2/3, 1/3, 0)
    h0 = 2 / 3 * math.log2(2 / 3) + 1 / 3 * math.log2(1 / 3)
    ent = L0Supervised(m=3, variant="entropy").fit(X, y)
    assert ent.scores_[0] == pytest.approx(h0, abs=1e-10)
    assert ent.scores_[1] == 0.0


def test_fisher_hand():
    y = np.array([0, 0, 1, 1])
    # f0: class 0 {1, 3} mean 2 var 1; class 1 {2, 6} mean 4 var 4 -> |2 - 4| / sqrt(5)
    # f1: both classes constant -> 0 by definition; f2 {0,0 | 0,2}: means 0, 1, vars 0, 1 -> 1
    X = np.array([[1, 2, 0], [3, 2, 0], [2, 5, 0], [6, 5, 2]], dtype=float)
    for fmt in (np.asarray, sp.csr_array, sp.csc_array):
        fir = FisherRatio(m=2).fit(fmt(X), y)
        assert np.allclose(fir.scores_, [2 / math.sqrt(5), 0.0, 1.0])
        assert fir.selected_.tolist() == [2, 0]
    # sample variances (ddof=1): f0 -> 2 / sqrt(2 + 8)
    assert FisherRatio(m=1, ddof=1).fit(X, y).scores_[0] == pytest.approx(2 / math.sqrt(10))


def test_fisher_matches_dense_numpy():
    rng = np.random.default_rng(1)
    X = sp.random_array((60, 40), density=0.1, rng=rng, format="csr") * 5
    y = rng.integers(0, 2, 60)
    D = X.toarray()
    mu = np.array([D[y == c].mean(0) for c in (0, 1)])
    var = np.array([D[y == c].var(0) for c in (0, 1)])
    den = np.sqrt(var.sum(0))
    ref = np.divide(np.abs(mu[0] - mu[1]), den, out=np.zeros(40), where=den > 0)
    assert np.allclose(FisherRatio(m=5).fit(X, y).scores_, ref)


def test_fisher_k_classes_is_the_fisher_score():
    rng = np.random.default_rng(8)
    D = rng.poisson(0.8, size=(45, 30)).astype(float)
    D[:, 3] = 1.0  # constant: both parts of the ratio are 0 -> 0
    y = np.repeat([0, 1, 2], 15)
    rng.shuffle(y)
    n = np.array([np.sum(y == c) for c in range(3)])
    mu = np.array([D[y == c].mean(0) for c in range(3)])
    var = np.array([D[y == c].var(0) for c in range(3)])
    num, den = n @ (mu - D.mean(0)) ** 2, n @ var
    ref = np.divide(num, den, out=np.zeros(30), where=den > 0)
    fr = FisherRatio(m=5).fit(sp.csr_array(D), y)
    np.testing.assert_allclose(fr.scores_, ref, rtol=1e-10)
    assert fr.scores_[3] == 0 and fr.classes_.tolist() == [0, 1, 2]
    np.testing.assert_allclose(FisherRatio(m=5).fit(D, y).scores_, fr.scores_, rtol=1e-12)
    with pytest.raises(ValueError, match="2 classes"):
        FisherRatio(m=1).fit(TD, np.zeros(6))


def test_random_projection_distribution_seed_shape():
    rng = np.random.default_rng(2)
    X = sp.random_array((30, 3000), density=0.02, rng=rng, format="csr")
    rp = AchlioptasProjection(m=200, random_state=7).fit(X)
    R = rp.components_
    assert R.shape == (200, 3000) and sp.issparse(R)
    vals = R.toarray().ravel()
    assert set(np.unique(vals)) <= {-1, 0, 1}
    frac = [np.mean(vals == v) for v in (-1, 0, 1)]
    assert np.allclose(frac, [1 / 6, 2 / 3, 1 / 6], atol=0.004)  # 600k draws, sd ~ 0.0005
    Z = rp.transform(X)
    assert Z.shape == (30, 200) and sp.issparse(Z) and Z.format == "csr"  # sparse in, sparse out
    Z = Z.toarray()
    assert rp.scale_ == pytest.approx(math.sqrt(3) / 200)  # the paper: +-sqrt(3)/m
    assert np.allclose(Z, math.sqrt(3) / 200 * (X.toarray() @ R.toarray().T))
    # seeding: same seed same matrix, different seed different; dense input same result
    again = AchlioptasProjection(m=200, random_state=7).fit(X.toarray())
    assert np.array_equal(again.components_.toarray(), R.toarray())
    assert np.allclose(again.transform(X.toarray()), Z)
    other = AchlioptasProjection(m=200, random_state=8).fit(X)
    assert not np.array_equal(other.components_.toarray(), R.toarray())
    # a smaller m draws the leading rows of a larger one
    small = AchlioptasProjection(m=20, random_state=7).fit(X)
    assert np.array_equal(small.components_.toarray(), R.toarray()[:20])
    # Achlioptas / METHODS.md scaling sqrt(3)/sqrt(m): squared norms preserved on average
    ach = AchlioptasProjection(m=200, random_state=7, scaling="achlioptas").fit(X)
    assert ach.scale_ == pytest.approx(math.sqrt(3 / 200))
    ratio = (ach.transform(X) ** 2).sum() / X.multiply(X).sum()
    assert 0.85 < ratio < 1.15
    assert list(ach.get_feature_names_out())[:2] == ["achlioptasprojection0",
                                                      "achlioptasprojection1"]


def _binary_data(seed, n=40, p=25, n_classes=2, density=0.3):
    rng = np.random.default_rng(seed)
    X = (rng.random((n, p)) < density).astype(int)
    y = rng.integers(0, n_classes, n)
    X[:, 3] = X[:, 5]  # duplicate columns (exact ties)
    X[:, 7] = 0  # never present (MI = 0)
    X[:, 9] = (y == 0)  # a perfect feature
    X[:, 11] = 1  # always present
    return X, y


@pytest.mark.parametrize("n_classes", [2, 3])
def test_mim_matches_sklearn(n_classes):
    X, y = _binary_data(3, n_classes=n_classes)
    ref = np.array([mutual_info_score(y, X[:, i]) for i in range(X.shape[1])])
    mi = mutual_information(sp.csr_array(X * 3), y)  # TD counts: presence is used
    assert np.allclose(mi, ref, atol=1e-9)  # natural log (nats), like mutual_info_score
    sel = MIM(m=5).fit(X, y)
    assert sel.selected_.tolist() == top_k(np.round(ref, 9), 5).tolist()
    assert sel.selected_[0] == 9


def test_mim_symmetric_ties_go_to_lower_index():
    # f0 occurs in one positive doc, f1 in one negative doc: equal MI by symmetry
    X = np.zeros((10, 3), dtype=int)
    X[9, 0] = 1
    X[0, 1] = 1
    X[:4, 2] = 1
    y = np.array([0] * 5 + [1] * 5)
    mi = mutual_information(X, y)
    assert mi[0] == mi[1] > 0
    assert MIM(m=3).fit(X, y).selected_.tolist() == [2, 0, 1]


def _exact_cmi_sklearn(x, z, y):
    """I(Y; X | Z) = sum_b P(Z = b) I(Y; X | Z = b), each term by sklearn's mutual_info_score."""
    total = 0.0
    for b in (0, 1):
        rows = z == b
        if rows.any():
            total += rows.mean() * mutual_info_score(y[rows], x[rows])
    return total


def _exact_cmi(x, z, y):
    """I(Y; X | Z) from the definition sum p(x,z,y) ln[p(x,z,y) p(z) / (p(x,z) p(z,y))]."""
    total = 0.0
    for a in (0, 1):
        for b in (0, 1):
            for c in np.unique(y):
                pxzy = np.mean((x == a) & (z == b) & (y == c))
                if pxzy > 0:
                    pz, pxz = np.mean(z == b), np.mean((x == a) & (z == b))
                    pzy = np.mean((z == b) & (y == c))
                    total += pxzy * math.log(pxzy * pz / (pxz * pzy))
    return total


def _brute_cmim(X, y, k, tol=1e-9):
    """Greedy CMIM from exact scores, no laziness; ties (within tol) to the lower index."""
    p = X.shape[1]
    score = np.array([mutual_info_score(y, X[:, i]) for i in range(p)])
    picked = []
    for _ in range(k):
        cand = [i for i in range(p) if i not in picked]
        best = max(score[i] for i in cand)
        j = min(i for i in cand if score[i] >= best - tol)
        picked.append(j)
        for i in cand:
            if i != j:
                score[i] = min(score[i], _exact_cmi(X[:, i], X[:, j], y))
    return picked


@pytest.mark.parametrize("seed,n_classes,n,p", [
    (0, 2, 40, 25), (1, 2, 40, 25), (2, 3, 40, 25), (4, 2, 40, 25), (5, 4, 40, 25),
    (6, 2, 12, 30), (7, 3, 12, 30), (8, 2, 60, 60),  # few rows: many exact ties
])
def test_cmim_matches_brute_force(seed, n_classes, n, p):
    X, y = _binary_data(seed, n=n, p=p, n_classes=n_classes)
    ref = _brute_cmim(X, y, X.shape[1])
    for lazy in (True, False):
        sel = CMIM(m=X.shape[1], lazy=lazy).fit(sp.csc_array(X), y)
        assert sel.selected_.tolist() == ref
    assert CMIM(m=6).fit(X, y).selected_.tolist() == ref[:6]


def test_cmi_pairs_exact():
    X, y = _binary_data(6, n_classes=3)
    i, j = (a.ravel() for a in np.meshgrid(np.arange(X.shape[1]), np.arange(X.shape[1])))
    got = cmi_pairs(X, y, i, j)
    ref = [_exact_cmi(X[:, a], X[:, b], y) for a, b in zip(i, j, strict=True)]
    assert np.allclose(got, ref, atol=1e-9)
    some = slice(0, None, 7)  # the two exact references agree
    ref2 = [_exact_cmi_sklearn(X[:, a], X[:, b], y) for a, b in zip(i[some], j[some], strict=True)]
    assert np.allclose(np.asarray(ref)[some], ref2, atol=1e-12)


def test_cmim_lazy_equals_eager_sparse_text_like():
    rng = np.random.default_rng(9)
    n, p = 120, 1500
    rate = rng.lognormal(0, 1.5, p)
    rate *= 0.01 / rate.mean()
    y = np.repeat([0, 1], n // 2)
    shift = rng.normal(0, 0.8, p)
    prob = np.clip(rate * np.exp(np.outer(2 * y - 1, shift)), 0, 0.9)
    X = sp.csr_array((rng.random((n, p)) < prob).astype(np.int32))
    lazy = CMIM(m=400).fit(X, y)  # more than the features with MI > 0: zero tail by index
    eager = CMIM(m=400, lazy=False).fit(X, y)
    assert np.array_equal(lazy.selected_, eager.selected_)
    assert np.array_equal(lazy.scores_[lazy.selected_], eager.scores_[eager.selected_])
    assert np.all(np.diff(lazy.scores_[lazy.selected_]) <= 0)  # CMIM scores never increase


def test_select_by_score():
    X = np.arange(20.0).reshape(4, 5)
    scores = [0.5, 2.0, np.nan, 2.0, 1.0]
    sel = SelectByScore(scores, k=3).fit(X)
    assert sel.selected_.tolist() == [1, 3, 4]  # tie 2.0: lower index first; NaN last
    assert np.array_equal(sel.transform(X), X[:, [1, 3, 4]])
    assert SelectByScore(scores, k="all").fit(X).selected_.tolist() == [1, 3, 4, 0, 2]
    # callable, incl. sklearn's (scores, pvalues) tuples
    y = np.array([0, 0, 1, 1])
    ref = chi2(X, y)[0]
    assert SelectByScore(chi2, k=2).fit(X, y).selected_.tolist() == top_k(ref, 2).tolist()
    # metric names resolve through the one registry, scoring.METRICS (cells -> scores)
    assert selection.METRICS is scoring.METRICS
    scoring.METRICS["test-df"] = (lambda tp, fp, fn, tn: tp + fp, False)
    try:
        assert SelectByScore("test-df", k=1).fit(TD, Y6).selected_.tolist() == [1]
    finally:
        del scoring.METRICS["test-df"]
    with pytest.raises(ValueError, match="unknown metric 'nope'; known metrics: .*bns"):
        SelectByScore("nope", k=1).fit(X, y)
    with pytest.raises(ValueError, match="requires y"):
        SelectByScore("bns", k=1).fit(X)
    with pytest.raises(ValueError, match="scores for"):
        SelectByScore([1.0, 2.0], k=1).fit(X)


ALL = [L0Unsupervised(m=3), L0Supervised(m=3), FisherRatio(m=3), MIM(m=3), CMIM(m=3),
       AchlioptasProjection(m=3, random_state=0), SelectByScore(np.arange(6.0), k=3)]


@pytest.mark.parametrize("est", ALL, ids=lambda e: type(e).__name__)
def test_sklearn_conventions(est):
    c = clone(est)
    params = est.get_params()
    assert sorted(c.get_params()) == sorted(params)
    for key, value in c.get_params().items():
        assert np.array_equal(value, params[key]) if key == "metric" else value == params[key]
    Xtr, Xte = sp.csr_array(TD), sp.csr_array(TD[::-1] + 1)
    out = c.fit(Xtr, Y6).transform(Xte)
    assert out.shape == (6, 3)
    assert c.n_features_in_ == 6
    pipe = make_pipeline(clone(est), LinearSVC()).fit(Xtr, Y6)
    assert pipe.predict(Xte).shape == (6,)
    if hasattr(c, "get_support"):
        assert c.get_support().sum() == 3
    with pytest.raises(ValueError):
        c.transform(np.ones((2, 5)))  # wrong number of features


def test_parameter_validation():
    with pytest.raises(InvalidParameterError):
        L0Unsupervised(m=0).fit(TD)
    with pytest.raises(InvalidParameterError):
        L0Supervised(m=2, variant="gini").fit(TD, Y6)
    with pytest.raises(InvalidParameterError):
        AchlioptasProjection(m=2, scaling="other").fit(TD)
    with pytest.raises(InvalidParameterError):
        CMIM(m=2, lazy="yes").fit(TD, Y6)


def test_select_by_score_metric_names_binary_multiclass_multilabel():
    rng = np.random.default_rng(12)
    X = sp.random_array((80, 25), density=0.25, rng=rng, format="csr")
    y2 = rng.integers(0, 2, 80)
    y4 = rng.integers(0, 4, 80)
    # binary: the task y == 1, exactly the scores of scoring.score
    s2 = scoring.score("bns", term_stats(X, sp.csr_matrix(y2[:, None] == 1)))[0]
    sel = SelectByScore("bns", k=5).fit(X, y2)
    np.testing.assert_array_equal(sel.scores_, s2)
    assert sel.selected_.tolist() == top_k(s2, 5).tolist()
    # K classes: one-vs-rest scores combined by max or the class-prior-weighted average
    Y = (y4[:, None] == np.arange(4)).astype(float)
    S = scoring.score("ig", term_stats(X, sp.csr_matrix(Y)))
    np.testing.assert_array_equal(SelectByScore("ig", k=5).fit(X, y4).scores_, S.max(axis=0))
    prior = Y.sum(0) / Y.sum()
    np.testing.assert_allclose(SelectByScore("ig", k=5, combine="avg").fit(X, y4).scores_,
                               prior @ S, rtol=1e-12)
    np.testing.assert_array_equal(SelectByScore("ig", k=5).fit(X, Y.astype(int)).scores_,
                                  S.max(axis=0))
