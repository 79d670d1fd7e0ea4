"""The benchmark's pieces: new weightings (hand-computed), bases, learners, expansion, statistics."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from termweight import scoring
from termweight.config import benchmark_runs, check_benchmark
from termweight.encoding import bm25_tf, encode
from termweight.errors import ConfigError
from termweight.learners.linear import (
    fit_learner,
    fit_one_vs_rest,
    rms_row_norms,
    top1_accuracy,
)


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
    w = scoring.igm(tp, z, z, z)
    # sorted (4, 1, 0): 4 / (4*1 + 1*2 + 0*3) = 2/3 -> 1 + 7 * 2/3; (2, 0, 0): 2/2 -> 8; none: 1
    np.testing.assert_allclose(w[:, 0], 1 + 7 * 4 / 6)
    np.testing.assert_allclose(w[:, 1], 8.0)
    np.testing.assert_allclose(w[:, 2], 1.0)
    # binary: the two classes are (tp, fp) = (3, 1): 3 / (3 + 2) = 0.6 -> 5.2
    assert scoring.igm(*cells(3, 1, 2, 14))[0, 0] == pytest.approx(5.2)
    # from training rows (the encode step): classes of docs (0, 0, 1), term 0 in docs 0, 1, 2
    from termweight.weighting import igm_weights

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
    from termweight.weighting import mixch_weights

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
    from termweight.config import load_params

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

    from termweight.experiments.benchmark import paired_claim, rank_tests

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
    c = paired_claim(D, "a", "tfidf", ["ds0", "ds1", "ds2", "ds3", "ds4", "ds5"])
    assert (c["n"], c["wins"], c["ties"], c["losses"]) == (6, 6, 0, 0)
    assert c["wilcoxon_p"] == pytest.approx(0.03125)  # exact two-sided, 6 of 6 positive


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
    """weighting.LEARNED (names, read by the params checks) and the functions that compute them
    name the same weightings."""
    from termweight import weighting

    assert set(weighting.LEARNED) == set(weighting._LEARNED_FUNCTIONS)
