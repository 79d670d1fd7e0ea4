"""The benchmark's pieces: new weightings (hand-computed), bases, learners, expansion, statistics."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from termweight import scoring
from termweight.encoding import bm25_tf, encode
from termweight.learners.linear import (
    fit_learner,
    fit_one_vs_rest,
    rms_row_norms,
    top1_accuracy,
)
from termweight.runner.config import check_benchmark
from termweight.runner.errors import ConfigError
from termweight.settings import benchmark_runs
from termweight.weightings import igm as igm_module


def cells(tp, fp, fn, tn):
    return [np.array([[float(v)]]) for v in (tp, fp, fn, tn)]


# --- weightings ------------------------------------------------------------------------------

def test_delta_idf_hand_computed():
    # |P| = 5, |N| = 15, P_t = 3, N_t = 1: |log2(5 * 1.5 / (3.5 * 15))| = |log2(1/7)| = log2(7)
    assert scoring.score_cells("delta_idf", *cells(3, 1, 2, 14))[0, 0] == pytest.approx(math.log2(7))
    # a term twice as frequent among negatives: same magnitude as the mirrored positive term
    a = scoring.score_cells("delta_idf", *cells(1, 3, 14, 2))[0, 0]
    assert a == pytest.approx(abs(math.log2(15 * 3.5 / (1.5 * 5))))


def test_igm_hand_computed_multiclass_and_binary():
    # three classes (tasks); term 0 has class DFs (4, 1, 0), term 1 (0, 0, 2), term 2 none
    tp = np.array([[4.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    z = np.zeros_like(tp)
    w = igm_module.igm(tp, z, z, z)
    # sorted (4, 1, 0): 4 / (4*1 + 1*2 + 0*3) = 2/3 -> 1 + 7 * 2/3; (2, 0, 0): 2/2 -> 8; none: 1
    np.testing.assert_allclose(w[:, 0], 1 + 7 * 4 / 6)
    np.testing.assert_allclose(w[:, 1], 8.0)
    np.testing.assert_allclose(w[:, 2], 1.0)
    # binary: the two classes are (tp, fp) = (3, 1): 3 / (3 + 2) = 0.6 -> 5.2
    assert igm_module.igm(*cells(3, 1, 2, 14))[0, 0] == pytest.approx(5.2)
    # from training rows (the encode step): classes of docs (0, 0, 1), term 0 in docs 0, 1, 2
    from termweight.weightings.igm import igm_weights

    X = sp.csr_matrix(np.array([[1.0, 0.0], [2.0, 0.0], [1.0, 3.0]]))
    Y = sp.csr_matrix(np.array([[1, 0], [1, 0], [0, 1]]))
    # term 0: class DFs (2, 1) -> 2 / (2 + 2) -> 1 + 3.5; term 1: (0, 1) -> 1 / 1 -> 8
    np.testing.assert_allclose(igm_weights(X, Y), [[4.5, 8.0], [4.5, 8.0]])


def test_bm25_tf_hand_computed():
    X = sp.csr_matrix(np.array([[2.0, 1.0], [0.0, 3.0]]))
    # dl = 3 for both rows, avgdl = 2: norm = 1.2 (0.25 + 0.75 * 1.5) = 1.65
    got = bm25_tf(X, avgdl=2.0).toarray()
    np.testing.assert_allclose(got, [[4.4 / 3.65, 2.2 / 2.65], [0.0, 6.6 / 4.65]])
    # the BM25 weighting scales the saturated TF by the training idf
    np.testing.assert_allclose(encode(X, "bm25tf", [2.0, 1.0], avgdl=2.0).toarray(),
                               got * [2.0, 1.0])


def test_ltc_and_ntf_hand_computed():
    X = sp.csr_matrix(np.array([[1.0, 2.0, 0.0]]))
    v = np.array([1.0, (1 + math.log(2)) * 0.5, 0.0])
    np.testing.assert_allclose(encode(X, "ltc", [1.0, 0.5, 3.0]).toarray()[0], v / np.linalg.norm(v))
    np.testing.assert_allclose(encode(sp.csr_matrix([[3.0, 4.0]]), "ntf").toarray(), [[0.6, 0.8]])
    with pytest.raises(ValueError, match="idf"):
        encode(X, "ltc")


def test_a_registered_weighting_enters_the_benchmark():
    from termweight.weighting import all_encodings, needed_scores

    def gss(tp, fp, fn, tn):
        return (tp * tn - fp * fn) / (tp + fp + fn + tn) ** 2

    try:
        scoring.register_weighting("gss", gss, bases=("binary", "tf"))
        enc = all_encodings()
        assert "binary-gss" in enc and "tf-gss" in enc
        assert "gss" in needed_scores(enc)
        assert scoring.score_cells("gss", *cells(3, 1, 2, 14))[0, 0] == pytest.approx(0.1)
    finally:
        scoring.METRICS.pop("gss", None)
        scoring.WEIGHTINGS.pop("gss", None)
        scoring.METRIC_DESCRIPTIONS.pop("gss", None)
    assert "tf-gss" not in all_encodings()


def test_all_encodings_has_every_family():
    from termweight.weighting import all_encodings

    enc = all_encodings()
    for name in ("binary", "tf", "tfidf", "ltc", "bm25tf-idf", "binary-bns", "tf-bns", "tf-pmi",
                 "ntf-kim_rf", "ntf-kim_or", "tf-delta_idf", "tf-igm", "ntf-mixch"):
        assert name in enc
    assert "binary-none" not in enc and len(enc) == len(set(enc)) >= 41


def test_mixch_weights_are_a_convex_combination_of_rms_scaled_bases():
    from termweight.statistics import term_stats
    from termweight.weightings.kim import mixch_weights

    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.poisson(0.6, size=(60, 25)).astype(float))
    y = (np.asarray(X[:, :5].sum(axis=1)).ravel() > 2).astype(int)
    Y = sp.csr_matrix(np.column_stack([y, 1 - y]))
    st = term_stats(X, Y)
    scores = {b: scoring.score(b, st) for b in scoring.KIM_BASES}
    W = mixch_weights(X, Y, scores, max_iter=5)
    B = np.stack([scoring.as_scaling_weights(scores[b]) for b in scoring.KIM_BASES])
    colsq = np.asarray(X.multiply(X).sum(axis=0)).ravel()
    B = B / np.sqrt((B**2 @ colsq) / X.shape[0])[:, :, None]
    for c in range(2):  # W[c] = alpha @ B[:, c], alpha on the simplex: solve for alpha
        alpha, *_ = np.linalg.lstsq(B[:, c].T, W[c], rcond=None)
        np.testing.assert_allclose(B[:, c].T @ alpha, W[c], atol=1e-8)
        assert alpha.sum() == pytest.approx(1.0, abs=1e-6) and (alpha > -1e-8).all()


# --- learners --------------------------------------------------------------------------------

def _data():
    rng = np.random.default_rng(1)
    X = sp.csr_matrix(rng.poisson(0.5, size=(80, 30)).astype(float))
    y = np.asarray(X[:, :3].sum(axis=1)).ravel() > 1
    Y = sp.csr_matrix(np.column_stack([y, ~y]).astype(float))
    return X, y, Y


def test_linearsvc_learner_is_todays_one_vs_rest():
    X, _, Y = _data()
    w = np.abs(np.random.default_rng(2).normal(size=(2, 30)))
    for a, b in zip(fit_learner("linearsvc", X, Y, C=0.5, col_weights=w),
                    fit_one_vs_rest(X, Y, C=0.5, col_weights=w), strict=True):
        np.testing.assert_array_equal(a, b)


def test_mnb_as_a_linear_model_gives_the_posterior_log_odds():
    from sklearn.naive_bayes import MultinomialNB

    X, y, Y = _data()
    w = np.abs(np.random.default_rng(3).normal(size=(2, 30)))
    coef, intercept, fitted = fit_learner("mnb", X, Y, col_weights=w)
    assert fitted.all()
    nb = MultinomialNB().fit(X.multiply(w[0]).tocsr(), y)
    jll = nb.predict_joint_log_proba(X.multiply(w[0]).tocsr())
    np.testing.assert_allclose(X @ coef[0] + intercept[0], jll[:, 1] - jll[:, 0], rtol=1e-9)


def test_logreg_learner_folds_the_column_scale_into_its_coefficients():
    from sklearn.linear_model import LogisticRegression

    X, y, Y = _data()
    w = np.abs(np.random.default_rng(4).normal(size=(2, 30)))
    coef, intercept, _ = fit_learner("logreg", X, Y, C=2.0, col_weights=w)
    lr = LogisticRegression(C=2.0, solver="liblinear", dual=True, max_iter=1000,
                            random_state=0).fit(X.multiply(w[1]).tocsr(), ~y)
    np.testing.assert_allclose(X @ coef[1] + intercept[1],
                               lr.decision_function(X.multiply(w[1]).tocsr()), rtol=1e-9)
    with pytest.raises(ConfigError, match="unknown learner"):
        fit_learner("svm", X, Y)


def test_rms_row_norms_hand_computed():
    X = sp.csr_matrix(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_array_equal(rms_row_norms(X), [np.sqrt(25 / 2)])
    np.testing.assert_array_equal(rms_row_norms(X, [[1.0, 0.0], [0.0, 2.0]]),
                                  [np.sqrt(9 / 2), np.sqrt(64 / 2)])


def test_relative_C_is_C_over_mean_squared_norm_with_a_scaled_intercept():
    """Fitting X / s with C is fitting X with C / s^2 and intercept_scaling = s (same decisions)."""
    from sklearn.svm import LinearSVC

    X, y, _ = _data()
    X = X * 37.0
    s = float(rms_row_norms(X)[0])
    a = LinearSVC(C=1.0, dual=True, tol=1e-12, max_iter=100000).fit(X / s, y)
    b = LinearSVC(C=1.0 / s**2, intercept_scaling=s, dual=True, tol=1e-12, max_iter=100000).fit(X, y)
    np.testing.assert_allclose(a.decision_function(X / s), b.decision_function(X), rtol=1e-6)


@pytest.mark.parametrize("learner", ["linearsvc", "logreg"])
def test_relative_C_makes_a_weightings_overall_scale_irrelevant(learner):
    """With relative_C, weights k * w_c give the decisions of w_c (bit for bit for k = 2^m);
    without it, the scale changes the model."""
    X, _, Y = _data()
    w = np.abs(np.random.default_rng(5).normal(size=(2, 30)))
    one = fit_learner(learner, X, Y, col_weights=w, relative_C=True)
    big = fit_learner(learner, X, Y, col_weights=64 * w, relative_C=True)
    np.testing.assert_array_equal(X @ one[0].T + one[1], X @ big[0].T + big[1])
    fixed = fit_learner(learner, X, Y, col_weights=64 * w)
    assert not np.allclose(X @ one[0].T + one[1], X @ fixed[0].T + fixed[1])
    # without column weights too, and NB ignores the option (it has no C)
    plain = fit_learner(learner, X * 4.0, Y, relative_C=True)
    np.testing.assert_array_equal((X * 4.0) @ plain[0].T + plain[1],
                                  X @ fit_learner(learner, X, Y, relative_C=True)[0].T
                                  + fit_learner(learner, X, Y, relative_C=True)[1])
    for a, b in zip(fit_learner("mnb", X, Y, col_weights=w, relative_C=True),
                    fit_learner("mnb", X, Y, col_weights=w), strict=True):
        np.testing.assert_array_equal(a, b)


def test_top1_accuracy_hand_computed():
    Y = sp.csr_matrix(np.array([[1, 0], [0, 1], [1, 1], [0, 0]]))
    scores = np.array([[0.9, 0.1], [0.8, 0.2], [0.1, 0.7], [0.5, 0.5]])
    # doc 0 right, doc 1 wrong, doc 2 right (either label), doc 3 has no label: 2 / 3
    assert top1_accuracy(Y, scores) == pytest.approx(2 / 3)


# --- configuration ---------------------------------------------------------------------------

PARAMS = {"seed": 1, "experiments": {}, "benchmark": {
    "datasets": {"tr23": {}, "cachopo_r8": {"protocol": {"type": "fixed"}}},
    "protocol": {"type": "kfold", "folds": 2, "repeats": 5, "stratified": True},
    "weightings": ["binary", "tfidf", "tf-igm", "ntf-mixch"], "learners": ["mnb", "logreg"],
    "C": 0.5}}


def test_benchmark_runs_expand_into_generic_experiments():
    runs = benchmark_runs(PARAMS)
    assert list(runs) == ["bench_tr23", "bench_cachopo_r8"]
    assert runs["bench_tr23"]["protocol"]["folds"] == 2
    assert runs["bench_cachopo_r8"]["protocol"] == {"type": "fixed"}
    r = runs["bench_tr23"]
    assert r["scores"] == ["idf", *scoring.KIM_BASES]
    assert r["learner"] == {"name": "mnb", "C": 0.5} and r["learners"] == ["mnb", "logreg"]
    check_benchmark(PARAMS)


@pytest.mark.parametrize("change, message", [
    ({"datasets": {"nope": {}}}, "unknown dataset 'nope'"),
    ({"weightings": ["tf", "tfidf", "tf-nope"]}, "unknown weighting 'nope'"),
    ({"weightings": ["tf", "tfidf", "xx-bns"]}, "unknown base 'xx'"),
    ({"learners": ["svm"]}, "unknown learner 'svm'"),
])
def test_check_benchmark_names_the_bad_entry(change, message):
    with pytest.raises(ConfigError, match=message):
        check_benchmark({**PARAMS, "benchmark": {**PARAMS["benchmark"], **change}})


def test_the_repository_params_validate_and_name_every_dataset_once(repo):
    from termweight.runner.config import load_params

    params = load_params(repo / "params.yaml")
    runs = benchmark_runs(params)
    assert len(runs) >= 19 and len({r["dataset"] for r in runs.values()}) == len(runs)
    assert runs["bench_reuters21578"]["protocol"] == {"type": "fixed"}


# --- statistics ------------------------------------------------------------------------------

def test_nemenyi_cd_matches_demsars_table():
    from termweight.experiments.benchmark import nemenyi_cd

    # Demsar (2006) Table 5(a): q_0.05 = 2.343 for k = 3; CD = q sqrt(k(k+1)/(6N)), N = 10
    assert nemenyi_cd(3, 10, 0.05) == pytest.approx(2.343 * math.sqrt(12 / 60), abs=2e-3)
    assert nemenyi_cd(10, 30, 0.05) == pytest.approx(3.164 * math.sqrt(110 / 180), abs=2e-3)


def test_rank_tests_on_a_known_matrix():
    from scipy.stats import friedmanchisquare

    from termweight.experiments.benchmark import rank_tests
    from termweight.experiments.comparisons import declared

    rng = np.random.default_rng(5)
    D = pd.DataFrame(rng.random((8, 4)) * 0.1, columns=["a", "tfidf", "c", "d"],
                     index=[f"ds{i}" for i in range(8)])
    D["a"] += 0.5  # always best
    D["d"] -= 0.5  # always worst
    t = rank_tests(D, "tfidf", 0.05)
    assert t["best"] == "a" and t["avg_rank"]["a"] == 1.0 and t["avg_rank"]["d"] == 4.0
    assert t["friedman_p"] == pytest.approx(friedmanchisquare(*D.T.to_numpy()).pvalue)
    vb = t["vs_best"]
    assert list(vb.index) == ["tfidf", "c", "d"] and (vb["p_holm"] >= vb["p"] - 1e-15).all()
    assert vb.loc["d", "p_holm"] < 0.05
    assert t["nemenyi"].loc["a", "d"] < 0.05
    c, = declared(D, _runs(D), "mnb", "macro_f1", [{"a": "a", "b": "tfidf", "source": "s",
                                                    "outside": "x"}],
                  {"x": {"ds6", "ds7"}}, 0.01, 1, 0.05)
    assert (c["n"], c["wins"], c["ties"], c["losses"]) == (6, 6, 0, 0)
    assert c["wilcoxon_p"] == pytest.approx(0.03125)  # exact two-sided, 6 of 6 positive
    assert c["wilcoxon_p_holm"] == c["wilcoxon_p"] and c["hier_n"] == 0  # one split each



def test_the_tests_table_gives_both_controls_ranks_and_moves_constant_sizes_to_the_caption():
    """Table ``benchmark_tests``: the best weighting's rank beside each tf-idf control's; N and k
    in the caption when every row has the same, columns when they differ."""
    from termweight.experiments.benchmark import _tests_summary, rank_tests

    rng = np.random.default_rng(5)
    D = pd.DataFrame(rng.random((8, 4)) * 0.1, index=[f"ds{i}" for i in range(8)],
                     columns=["a", "tfidf", "sklearn_sublinear_tfidf", "d"])
    D["a"] += 0.5
    t = rank_tests(D, "tfidf", 0.05)
    cfg = {"controls": ["tfidf", "sklearn_sublinear_tfidf"], "baseline": "tfidf"}
    table, caption = _tests_summary({("mnb", "macro_f1"): t, ("mnb", "accuracy"): t}, cfg)
    assert caption == " ($N$ = 8 datasets, $k$ = 4 weightings)" and "$N$" not in table
    row = table.iloc[0]
    assert row["its rank"] == "1.00"
    assert row["rank of tfidf"] == f"{t['avg_rank']['tfidf']:.2f}"
    assert row["rank of sublinear"] == f"{t['avg_rank']['sklearn_sublinear_tfidf']:.2f}"
    fewer = rank_tests(D.iloc[:6], "tfidf", 0.05)
    table, caption = _tests_summary({("mnb", "macro_f1"): t, ("mnb", "accuracy"): fewer}, cfg)
    assert caption == "" and table["$N$"].tolist() == ["8", "6"]

def _runs(D: pd.DataFrame, splits: int = 1, noise: float = 0.0, seed: int = 0) -> pd.DataFrame:
    """Per-split runs whose mean over the splits is ``D`` (learner mnb, measure macro_f1)."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in D.index:
        for w in D.columns:
            e = rng.normal(0, noise, splits)
            e -= e.mean()
            rows += [{"dataset": d, "learner": "mnb", "encoding": w, "split": f"s{i}",
                      "macro_f1": D.loc[d, w] + e[i]} for i in range(splits)]
    return pd.DataFrame(rows)


def _scores(n=12, k=6, seed=7):
    """n datasets x k weightings: a common per-dataset level, weightings w0..w{k-1} spaced by
    0.02 (w0 best) and noise of sd 0.02, so neighbours overlap and far pairs differ."""
    rng = np.random.default_rng(seed)
    level = rng.uniform(0.5, 0.9, size=(n, 1))
    D = level - 0.02 * np.arange(k) + rng.normal(0, 0.02, size=(n, k))
    return pd.DataFrame(D, index=[f"ds{i}" for i in range(n)], columns=[f"w{j}" for j in range(k)])


def _maximal_cliques(ok: pd.DataFrame) -> set[frozenset]:
    """Every maximal set of labels whose every two members are ``ok`` (brute force)."""
    import itertools

    labels = list(ok.index)
    cliques = [frozenset(c) for r in range(1, len(labels) + 1)
               for c in itertools.combinations(labels, r)
               if all(ok.loc[a, b] for a, b in itertools.combinations(c, 2))]
    return {c for c in cliques if not any(c < o for o in cliques)}


def test_wilcoxon_holm_cliques_match_a_direct_computation():
    """12 datasets (8 could not reach p < 0.05 after Holm over 15 pairs: the exact two-sided
    minimum is 2 / 2^8 = 0.0078, times 15), 6 weightings."""
    import itertools

    from scipy.stats import wilcoxon
    from statsmodels.stats.multitest import multipletests

    from termweight.experiments.benchmark import (
        cd_figure,
        pairwise_wilcoxon,
        rank_tests,
        wilcoxon_cliques,
    )

    D = _scores()
    pairs = list(itertools.combinations(D.columns, 2))
    raw = [wilcoxon(D[a], D[b]).pvalue for a, b in pairs]
    holm = multipletests(raw, method="holm")[1]
    got_raw, got = pairwise_wilcoxon(D)
    for (a, b), r, h in zip(pairs, raw, holm, strict=True):
        assert got_raw.loc[a, b] == got_raw.loc[b, a] == pytest.approx(r, rel=1e-12)
        assert got.loc[a, b] == got.loc[b, a] == pytest.approx(h, rel=1e-12)
    ok = pd.DataFrame(True, index=D.columns, columns=D.columns)
    for (a, b), h in zip(pairs, holm, strict=True):
        ok.loc[a, b] = ok.loc[b, a] = h >= 0.05
    want = _maximal_cliques(ok)
    assert 1 < len(want) < len(D.columns) and not ok.to_numpy().all()  # some pairs differ, some not
    assert {frozenset(c) for c in wilcoxon_cliques(got, 0.05)} == want
    # the diagram draws exactly those bars (the cliques of two or more), at their average ranks
    t = rank_tests(D, "w3", 0.05)
    assert t["wilcoxon_holm"].equals(got)
    fig = cd_figure(t, "cd")
    bars = {tuple(sorted(line.get_xdata())) for line in fig.axes[0].lines
            if len(line.get_xdata()) >= 2 and len(set(line.get_ydata())) == 1
            and line.get_ydata()[0] < 0}
    assert bars == {tuple(sorted(t["avg_rank"][list(c)])) for c in want if len(c) > 1}
    # against the control: the same raw p, Holm over its k - 1 comparisons
    vb = t["vs_best"]
    assert t["best"] == "w0"
    np.testing.assert_allclose(vb["p"], got_raw.loc["w0"].drop("w0"), rtol=1e-12)
    np.testing.assert_allclose(vb["p_holm"], multipletests(vb["p"], method="holm")[1], rtol=1e-12)


def test_identical_weightings_are_joined_and_not_tested_apart():
    from termweight.experiments.benchmark import pairwise_wilcoxon, wilcoxon_cliques

    D = _scores(k=4)
    D["w1"] = D["w0"]
    raw, holm = pairwise_wilcoxon(D)
    assert raw.loc["w0", "w1"] == 1.0 and holm.loc["w0", "w1"] == 1.0
    assert any({"w0", "w1"} <= set(c) for c in wilcoxon_cliques(holm, 0.05))


def test_cd_diagram_of_many_weightings_shows_the_best_and_the_baselines():
    from termweight.experiments.benchmark import CD_TOP, cd_labels

    names = [f"w{j:02d}" for j in range(30)]
    t = {"k": 30, "baseline": "w29", "avg_rank": pd.Series(np.arange(1.0, 31.0), index=names)}
    shown = cd_labels(t, keep=("w20", "nope", "w03"))
    assert shown == names[:CD_TOP] + ["w20", "w29"]
    assert cd_labels({**t, "k": 12, "avg_rank": t["avg_rank"][:12]}) == names[:12]


def test_bayesian_signed_rank_test_with_a_rope():
    from termweight.experiments.benchmark import bayes_signed_rank

    D = _scores(n=8)
    D["better"] = D["w2"] + 0.05  # better by 0.05 on every dataset
    D["same"] = D["w2"]
    D["close"] = D["w2"] + 0.004 * np.sign(np.sin(np.arange(8.0) + 1))  # inside the rope
    c = bayes_signed_rank(D["better"], D["w2"], 0.01)
    assert c[0] > 0.95 and c[2] < 0.01 and sum(c) == pytest.approx(1.0)
    swapped = bayes_signed_rank(D["w2"], D["better"], 0.01)
    assert swapped[2] == c[0] and swapped[0] == c[2]
    # a rope wider than the difference: practically equivalent
    assert bayes_signed_rank(D["better"], D["w2"], 0.06)[1] > 0.95
    assert bayes_signed_rank(D["same"], D["w2"], 0.01)[1] > 0.99
    assert bayes_signed_rank(D["close"], D["w2"], 0.01)[1] > 0.9
    # Monte Carlo, seeded: the same inputs give the same numbers; another seed, other numbers
    x, y = D["w0"].to_numpy(), D["w1"].to_numpy()
    first = bayes_signed_rank(x, y, 0.01)
    assert bayes_signed_rank(x, y, 0.01) == first
    assert bayes_signed_rank(x, y, 0.01, seed=1) != first
    assert 0.05 < first[0] < 0.95  # an undecided pair, so the seed matters


def test_declared_comparisons_and_the_hierarchical_test():
    """Each declared row: counts, a bootstrap interval around the mean difference, Holm over
    the rows, and the hierarchical test on the split scores, which sees the split noise: a
    0.005 gain is practically equivalent under a 0.01 ROPE, a 0.05 gain is better."""
    from termweight.experiments.comparisons import bootstrap_mean_ci, declared, rank_intervals

    D = _scores(n=10, k=3)
    spread = np.random.default_rng(3).normal(0, 0.003, 10)  # gains differ a little by dataset
    D["small"], D["big"] = D["w1"] + 0.005 + spread, D["w1"] + 0.05 + spread
    runs = _runs(D, splits=10, noise=0.02)
    rows = declared(D, runs, "mnb", "macro_f1",
                    [{"a": "big", "b": "w1", "source": "x"}, {"a": "small", "b": "w1",
                                                              "source": "y"}],
                    {}, 0.01, 5, 0.05)
    big, small = rows
    assert big["ci_lo"] <= big["mean_diff"] <= big["ci_hi"]
    assert big["mean_diff"] == pytest.approx(0.05 + spread.mean())
    assert (big["wins"], big["hier_n"]) == (10, 10) and big["significant"]
    assert big["h_a_better"] > 0.95 and small["h_rope"] > 0.5
    # each fit's diagnostics are recorded, and met the bounds (declared() raises otherwise)
    for r in rows:
        assert r["h_rhat"] <= 1.01 and min(r["h_ess_bulk"], r["h_ess_tail"]) >= 400
        assert r["h_divergent"] == 0
    assert small["wilcoxon_p_holm"] >= small["wilcoxon_p"]
    assert (bootstrap_mean_ci([0.01, 0.02, 0.03]) == bootstrap_mean_ci([0.01, 0.02, 0.03]))
    ci = rank_intervals(D)
    ranks = D.rank(axis=1, ascending=False).mean()
    assert ((ci["lo"] <= ranks) & (ranks <= ci["hi"])).all()
    # a fixed-split dataset (one split, "test") among them: the hierarchical test keeps the
    # cross-validated datasets and their own splits, the same answer as without it
    fixed = D.iloc[:1].rename(index={D.index[0]: "fixed"})
    more = pd.concat([runs, _runs(fixed).assign(split="test")], ignore_index=True)
    again = declared(pd.concat([D, fixed]), more, "mnb", "macro_f1",
                     [{"a": "big", "b": "w1", "source": "x"}], {}, 0.01, 5, 0.05)[0]
    assert again["hier_n"] == 10 and again["h_a_better"] == big["h_a_better"]
    # the same numbers whatever the arrays' memory order (the sampler amplifies last bits)
    from termweight.experiments.comparisons import hierarchical_test

    x = np.random.default_rng(0).normal(0.7, 0.02, (6, 10))
    y = x + 0.012 + np.random.default_rng(1).normal(0, 0.02, x.shape)
    assert hierarchical_test(x, y, 0.01, 5) == hierarchical_test(
        np.asfortranarray(x), np.asfortranarray(y), 0.01, 5)


def test_an_unconverged_hierarchical_fit_is_withheld():
    """R-hat, ESS and divergences against their bounds: mixed chains pass; chains stuck at
    different values, too few effective draws or a divergent transition are named, and a
    declared comparison prints no probability from such a fit."""
    from termweight.experiments import comparisons as C

    rng = np.random.default_rng(0)
    mixed = C.sampler_diagnostics({"delta0": rng.normal(size=(4, 2500))}, np.zeros(10000))
    assert mixed["rhat"] < 1.01 and mixed["ess_bulk"] > 5000 and mixed["divergent"] == 0
    stuck = C.sampler_diagnostics({"delta0": rng.normal(size=(4, 2500)) + np.arange(4)[:, None],
                                   "nu": rng.normal(size=(4, 2500))}, np.r_[1, np.zeros(9999)])
    assert stuck["rhat"] > 1.5 and stuck["divergent"] == 1
    assert C.sampler_problems(C.Hierarchical(0.9, 0.1, 0.0, draws=10000, **mixed)) == []
    assert C.sampler_problems(C.Hierarchical(1.0, 0.0, 0.0)) == []  # no fit: no split noise
    bad = C.sampler_problems(C.Hierarchical(0.9, 0.1, 0.0, draws=10000, **stuck))
    assert bad[0].startswith("R-hat") and bad[-1] == "1 divergent transitions"
    slow = C.Hierarchical(0.9, 0.1, 0.0, draws=10000, **{**mixed, "ess_tail": 120.0})
    assert C.sampler_problems(slow) == [f"ESS bulk {mixed['ess_bulk']:.0f}, tail 120 < 400"]

    row = C.hierarchical_fields(C.Hierarchical(0.99, 0.01, 0.0, draws=10000,
                                               **{**mixed, "divergent": 3}))
    assert row["h_problems"] == "3 divergent transitions" and row["h_divergent"] == 3
    assert np.isnan([row["h_a_better"], row["h_rope"], row["h_b_better"]]).all()
    ok = C.hierarchical_fields(C.Hierarchical(0.99, 0.01, 0.0, draws=10000, **mixed))
    assert (ok["h_a_better"], ok["h_problems"]) == (0.99, "")


def test_answers_quote_the_computed_numbers():
    from termweight.experiments.benchmark import _fmt_p, answers, rank_tests
    from termweight.experiments.comparisons import declared

    D = _scores(n=12, k=5).rename(columns={"w0": "tf-bns", "w4": "tfidf"})
    D["ntf-mixch"], D["ntf-kim_rf"] = D["w1"] + 0.001, D["w1"]
    cfg = {"alpha": 0.05, "baseline": "tfidf", "rope": 0.01}
    tests = {("mnb", "macro_f1"): rank_tests(D, "tfidf", 0.05)}
    rows = declared(D, _runs(D), "mnb", "macro_f1",
                    [{"a": "tf-bns", "b": "tfidf", "source": "Forman 2008", "outside": "forman"},
                     {"a": "ntf-mixch", "b": "ntf-kim_rf", "source": "Kim 2016",
                      "outside": "kim"}],
                    {"forman": set(D.index[9:]), "kim": set(D.index[:3])}, 0.01, 1, 0.05)
    ans = answers(tests, rows, cfg, ["mnb"], ["macro_f1"])
    bns, mix = rows
    assert (f"{bns['wins']}/{bns['ties']}/{bns['losses']}, mean {bns['mean_diff']:+.4f} "
            f"[{bns['ci_lo']:+.4f}, {bns['ci_hi']:+.4f}], Holm p = "
            f"{_fmt_p(bns['wilcoxon_p_holm'])}, signed-rank {bns['p_a_better']:.3f}/"
            f"{bns['p_rope']:.3f}/{bns['p_b_better']:.3f}") in ans["BenchAnswerBns"]
    assert "on the 9 datasets outside Forman's" in ans["BenchAnswerBns"]
    assert "ROPE $\\pm$0.01" in ans["BenchAnswerMixch"]
    assert "on the 9 datasets outside Kim's: " in ans["BenchAnswerMixch"]
    assert f"{mix['wins']}/{mix['ties']}/{mix['losses']}" in ans["BenchAnswerMixch"]
    assert "\\texttt{tf-bns}" in ans["BenchAnswerTfidf"].split("macro-F1: ")[1].split(".")[0]


def test_per_dataset_table_means_and_standard_deviations():
    from termweight.experiments.benchmark import per_dataset_latex, per_dataset_table

    rng = np.random.default_rng(3)
    rows = []
    for learner in ("mnb", "logreg"):
        for dataset, splits in (("tr23", 3), ("bbc", 2), ("r52", 1)):
            for w in ("tfidf", "binary"):
                for s in range(splits):
                    v = rng.random(3)
                    rows.append({"learner": learner, "dataset": dataset, "encoding": w,
                                 "split": f"r0f{s}", "micro_f1": v[0], "macro_f1": v[1],
                                 "accuracy": v[2]})
    runs = pd.DataFrame(rows)
    table = per_dataset_table(runs, ["macro_f1", "accuracy"], ["logreg", "mnb"], ["tfidf", "binary"])
    assert list(table.columns) == ["learner", "dataset", "weighting", "splits", "macro_f1_mean",
                                   "macro_f1_std", "accuracy_mean", "accuracy_std"]
    assert len(table) == 2 * 3 * 2
    assert list(table["learner"]) == ["logreg"] * 6 + ["mnb"] * 6
    assert list(table["dataset"][:6]) == ["bbc", "bbc", "r52", "r52", "tr23", "tr23"]
    assert list(table["weighting"][:2]) == ["tfidf", "binary"]
    for r in table.itertuples():
        sel = runs[(runs["learner"] == r.learner) & (runs["dataset"] == r.dataset)
                   & (runs["encoding"] == r.weighting)]
        assert r.splits == len(sel)
        for m in ("macro_f1", "accuracy"):
            assert getattr(r, f"{m}_mean") == pytest.approx(np.mean(sel[m]))
            if len(sel) > 1:
                assert getattr(r, f"{m}_std") == pytest.approx(np.std(sel[m], ddof=1))
            else:
                assert np.isnan(getattr(r, f"{m}_std"))
    tex = per_dataset_latex(table, ["macro_f1", "accuracy"], ["logreg", "mnb"])
    assert tex.count("\\begin{longtable}") == 2 and "tab:benchmark_datasets_mnb" in tex
    first = table.iloc[0]
    assert (f"\\texttt{{bbc}} & \\texttt{{tfidf}} & 2 & {first['macro_f1_mean']:.4f} "
            f"({first['macro_f1_std']:.4f})") in tex
    assert "\\texttt{r52} & \\texttt{tfidf} & 1 & " in tex and "(--)" in tex


def test_cd_diagram_bytes_do_not_depend_on_the_hash_seed(tmp_path):
    """scikit-posthocs returns the diagram's cliques as sets; drawn as they come, the figure's
    bytes changed with PYTHONHASHSEED (so from one process to the next)."""
    import os
    import subprocess
    import sys

    script = tmp_path / "cd.py"
    script.write_text(
        "import sys\n"
        "import numpy as np, pandas as pd\n"
        "from termweight.experiments.benchmark import cd_figure, rank_tests\n"
        "from termweight.reporting import save_figure\n"
        "rng = np.random.default_rng(0)\n"
        "D = pd.DataFrame(rng.random((12, 9)) + np.linspace(0, 0.6, 9),\n"
        "                 columns=[f'w{i}' for i in range(9)])\n"
        "t = rank_tests(D, 'w0', 0.05)\n"
        "save_figure(cd_figure(t, 'cd'), sys.argv[1])\n")
    outs = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"cd{seed}"
        subprocess.run([sys.executable, str(script), str(out)], check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed})
        outs.append((out.with_suffix(".png").read_bytes(), out.with_suffix(".pdf").read_bytes()))
    assert outs[0] == outs[1] == outs[2]


def test_the_pdf_sections_learners_follow_the_configuration():
    from termweight.experiments.benchmark import floats, learner_text

    assert learner_text(["mnb"], 1.0) == "multinomial naive Bayes"
    assert learner_text(["logreg"], 1.0, relative=True) == (
        "logistic regression ($C=1$ relative to the data scale)")
    assert learner_text(["linearsvc", "logreg", "mnb"], 0.5) == (
        "LinearSVC ($C=0.5$ fixed), logistic regression ($C=0.5$ fixed) and multinomial naive Bayes")
    one = floats(["logreg"], "micro_f1", "tfidf")
    assert "\\twtable{benchmark_logreg}" in one and "{benchmark_cd_logreg_micro_f1}" in one
    assert "linearsvc" not in one and "mnb" not in one


def test_every_learned_weighting_has_its_function():
    """weighting.LEARNED (names, read by the params checks) is the learned rows of the weighting
    modules, each with a callable of (X, Y, scores)."""
    from termweight import weighting

    assert set(weighting.LEARNED) == {n for n, (_, w) in scoring.ROWS.items() if w.learned}
    assert all(callable(scoring.ROWS[n][1].func) for n in weighting.LEARNED)


@pytest.mark.parametrize("n_datasets", [2, 3])
def test_pairwise_wilcoxon_takes_few_datasets(n_datasets):
    # scikit-posthocs reads a 2-D array of two columns as (values, groups): the matrix of a
    # two-dataset benchmark (tests/test_benchmark_tools.py's tiny one) must still be k samples
    rng = np.random.default_rng(0)
    D = pd.DataFrame(rng.random((n_datasets, 4)), columns=list("abcd"))
    from termweight.experiments.benchmark import pairwise_wilcoxon

    raw, holm = pairwise_wilcoxon(D)
    assert raw.shape == holm.shape == (4, 4)
    from scipy.stats import wilcoxon

    assert raw.loc["a", "b"] == pytest.approx(wilcoxon(D["a"], D["b"]).pvalue)


def test_the_protocol_paragraph_reports_the_run():
    """The report's protocol paragraph: the modal chosen value and the grid's ends as shares of
    the runs, the fits at the cap, and the unit-length aliases run once, all from the inputs."""
    from termweight.experiments.benchmark import protocol_text

    tuning_cfg = {"normalize": "l2", "C": [0.1, 1.0, 10.0], "alpha": [0.01, 1.0], "folds": 3,
                  "max_iter": 10000}
    tuning = {"linearsvc": {"parameter": "C", "chosen": {"1": 6, "10": 2}, "fits": 8,
                            "unconverged_tasks": 0, "inner_unconverged_tasks": 1234},
              "mnb": {"parameter": "alpha", "chosen": {"0.01": 4, "1": 4}, "fits": 8,
                      "unconverged_tasks": 0, "inner_unconverged_tasks": 0}}
    scores = pd.DataFrame({"dataset": ["a", "a", "b", "b", "a"], "learner": ["linearsvc"] * 5,
                           "weighting": ["tfidf", "tf-ig", "tfidf", "tf-ig", "tf"],
                           "measure": ["macro_f1"] * 5, "score": [0.5, 0.5, 0.7, 0.6875, 0.1]})
    text = protocol_text(tuning_cfg, tuning, scores, "macro_f1")
    assert "3-fold inner cross-validation" in text and "10{,}000 iterations" in text
    assert r"$C$ = 1 in 75\% of 8 runs (0\% at 0.1, 25\% at 10)" in text
    assert r"$\alpha$ = 0.01 in 50\%" in text  # a tie goes to the smaller value
    assert "1{,}234 of the inner fits" in text
    assert (r"\texttt{tf-idf} is \texttt{tfidf}, \texttt{ntf-kim\_idf} is \texttt{tfidf}, "
            r"\texttt{ntf-kim\_ig} is \texttt{tf-ig}") in text  # tf-chi2 was not run
    raw = protocol_text({**tuning_cfg, "normalize": "none"}, tuning, scores, "macro_f1")
    assert "not normalised" in raw and "is \\texttt{tfidf}" not in raw
    assert "fixed, not tuned" in protocol_text(None, {}, scores, "macro_f1")


# --- the sensitivity study (termweight.experiments.sensitivity) ------------------------------

def _sens_params(**sens):
    return {"benchmark": {"datasets": {"tr11": {}, "tr12": {}}, "tuning": {"normalize": "l2"},
                          "sensitivity": {"datasets": ["tr11"], "normalize": "none", **sens}}}


@pytest.mark.parametrize("change, message", [
    ({"normalize": "l2"}, "benchmark/sensitivity/normalize: 'l2' is the headline grid's"),
    ({"datasets": ["oh0"]}, "benchmark/sensitivity/datasets: 'oh0' is not a benchmark dataset"),
])
def test_sensitivity_config_names_the_bad_key(change, message):
    from termweight.experiments.sensitivity import sensitivity_config

    with pytest.raises(ConfigError, match=message):
        sensitivity_config(_sens_params(**change))
    params = _sens_params()
    del params["benchmark"]["tuning"]
    with pytest.raises(ConfigError, match="needs the tuned protocol"):
        sensitivity_config(params)
    assert sensitivity_config(_sens_params()) == {"datasets": ["tr11"], "normalize": "none",
                                                  "headline": "l2"}


def test_sensitivity_summary_by_hand():
    """Two splits, three weightings: the change is the difference of split means; gains, the
    largest gain and loss and Spearman's rho of the two orders follow from it."""
    from termweight.experiments.sensitivity import compare, summary

    def runs(values, unconverged):
        return pd.DataFrame([{"dataset": "d", "learner": "linearsvc", "encoding": w, "split": s,
                              "m": v, "unconverged": unconverged, "inner_unconverged": 1}
                             for w, pair in values.items() for s, v in zip(("a", "b"), pair, strict=True)])

    head = runs({"x": (0.8, 0.9), "y": (0.7, 0.7), "z": (0.5, 0.6)}, 0)
    other = runs({"x": (0.6, 0.7), "y": (0.7, 0.7), "z": (0.75, 0.85)}, 2)
    table = compare(head, other, "m")
    assert table["change"].round(10).tolist() == [0.2, 0.0, -0.25]
    assert table["unconverged_other"].tolist() == [4, 4, 4]
    s = summary(table).iloc[0]
    assert (s["gain"], s["loss"], s["largest_gain"], s["largest_loss"]) == (1, 1, "x", "z")
    assert s["mean_change"] == pytest.approx(-0.05 / 3)
    # orders: headline x > y > z, other z > y > x: rho = -1
    assert s["spearman"] == pytest.approx(-1.0)
    assert (s["unconverged_other"], s["inner_unconverged_headline"]) == (12, 6)


def test_gain_against_training_size(tmp_path):
    """Training documents per split from the control's columns (each document once on a
    single-label corpus), Spearman's rho of the gain against them, and a bad count refused
    with the file named."""
    from scipy.stats import spearmanr

    from termweight.experiments.benchmark import training_sizes
    from termweight.experiments.comparisons import size_correlations, size_gains
    from termweight.runner.errors import DataError

    D = _scores(n=6, k=2)
    sizes = pd.DataFrame({"train_docs": [100.0, 200, 400, 800, 1600, 3200],
                          "single_label": [True] * 5 + [False]}, index=D.index)
    D["a"] = D["w1"] + np.array([0.05, 0.04, 0.02, 0.03, 0.0, -0.01])
    g = size_gains(D, "mnb", [{"a": "a", "b": "w1"}, {"a": "w0", "b": "w1", "outside": "p"}],
                   {"p": {"ds0"}}, sizes)
    assert len(g) == 6 + 5 and not g.loc[g["dataset"] == "ds5", "single_label"].any()
    c = size_correlations(g).set_index("a")
    assert c.loc["a", "size_rho"] == pytest.approx(spearmanr(sizes["train_docs"],
                                                             D["a"] - D["w1"])[0])
    assert c.loc["a", "size_rho"] < -0.8 and c.loc["w0", "n"] == 5

    # the columns: two splits of three tasks, a second learner ignored
    rows = [{"learner": lr, "split": s, "task": t, "train_pos": n, "single_label": True}
            for lr in ("linearsvc", "mnb") for s, ns in (("r0f0", (5, 3, 2)), ("r0f1", (4, 4, 3)))
            for t, n in zip("xyz", ns, strict=True)]
    path = tmp_path / "bench_x" / "tfidf.csv"
    path.parent.mkdir()
    pd.DataFrame(rows).to_csv(path, index=False)
    params = {"benchmark": {"datasets": {"x": {}}, "weightings": ["tfidf"], "learners": ["mnb"],
                            "protocol": {"folds": 2, "repeats": 1}}}
    template = str(tmp_path / "{run}" / "{weighting}.csv")
    got = training_sizes(params, template, "tfidf")
    assert got.loc["x", "train_docs"] == 10.5 and got.loc["x", "single_label"]
    pd.DataFrame(rows).assign(train_pos=-1).to_csv(path, index=False)
    with pytest.raises(DataError, match=r"tfidf\.csv.*train_pos"):
        training_sizes(params, template, "tfidf")
