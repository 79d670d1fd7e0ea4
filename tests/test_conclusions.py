"""What the benchmark may conclude (termweight.experiments.conclusions): the stronger tf-idf
control, corpus families as the unit, the tie set of a "best", the leave-one-family-out check."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from termweight.experiments import conclusions as cc
from termweight.experiments.benchmark import rank_tests
from termweight.runner.errors import ConfigError


def _matrix(n=12, k=6, seed=0) -> pd.DataFrame:
    rng = np.random.RandomState(seed)
    base = rng.uniform(0.5, 0.9, size=(n, 1))
    D = base + rng.normal(0, 0.01, size=(n, k)) + np.linspace(0.03, 0, k)
    return pd.DataFrame(D, index=[f"d{i:02d}" for i in range(n)],
                        columns=["top", "w1", "w2", "w3", "tfidf", "sub"])


def test_a_family_counts_once_with_the_mean_of_its_datasets():
    D = _matrix(n=4)
    fam = cc.families_of(D.index, {"news": ["d00", "d01", "d02"]})
    assert fam == {"d00": "news", "d01": "news", "d02": "news", "d03": "d03"}
    F = cc.family_matrix(D, fam)
    assert list(F.index) == ["d03", "news"]
    np.testing.assert_allclose(F.loc["news"], D.loc[["d00", "d01", "d02"]].mean())


@pytest.mark.parametrize("families, match", [
    ({"a": ["d00"], "b": ["d00"]}, "'d00' is in both 'a' and 'b'"),
    ({"a": ["d99"]}, "'d99' is not a configured dataset"),
])
def test_a_bad_family_is_refused_naming_it(families, match):
    with pytest.raises(ConfigError, match=match):
        cc.families_of(["d00", "d01"], families)


def test_a_member_the_grid_does_not_hold_is_left_out():
    fam = cc.families_of(["d00"], {"a": ["d00", "d01"]}, known=["d00", "d01"])
    assert fam == {"d00": "a"}


def test_the_answers_name_the_stronger_control():
    avg = pd.Series({"tfidf": 9.0, "sub": 4.5, "top": 1.0})
    assert cc.stronger_control(avg, ["tfidf", "sub"]) == "sub"
    assert cc.stronger_control(pd.Series({"tfidf": 2.0, "sub": 2.0}), ["tfidf", "sub"]) == "tfidf"
    with pytest.raises(ConfigError, match="benchmark.controls"):
        cc.stronger_control(avg, ["bm25"])


def test_the_tie_set_is_the_top_and_what_holm_cannot_tell_from_it():
    D = _matrix(n=12)
    t = rank_tests(D, "tfidf", 0.05)
    ties = cc.tie_set(t, 0.05)
    assert ties[0] == t["best"]
    for w in D.columns:
        if w != t["best"]:
            assert (w in ties) == (t["vs_best"].loc[w, "p_holm"] >= 0.05)
    # flip the rule: at alpha = 1 nothing ties but the top
    assert cc.tie_set(t, 1.0 + 1e-9) == [t["best"]]


def test_holm_over_few_families_cannot_reach_alpha():
    """9 families, 38 comparisons: the smallest Holm-adjusted Wilcoxon p is 38 x 2/2^9 = 0.148;
    20 datasets could reach 38 x 2/2^20."""
    assert cc.smallest_holm_p(9, 38) == pytest.approx(38 * 2 / 512)
    assert cc.smallest_holm_p(9, 38) > 0.05 > cc.smallest_holm_p(20, 38)
    D = _matrix(n=9)
    D["top"] = D.max(axis=1) + 0.05  # better on every family
    t = rank_tests(D, "tfidf", 0.05)
    assert t["vs_best"]["p_holm"].min() >= cc.smallest_holm_p(9, D.shape[1] - 1) - 1e-12


def test_leave_one_family_out_counts_the_top_five_that_stay():
    D = _matrix(n=10, k=6)
    fam = cc.families_of(D.index, {"a": ["d00", "d01", "d02"], "b": ["d03", "d04"]})
    lofo = cc.leave_one_family_out(D, fam, top=2)
    assert len(lofo) == 2 and (lofo["of"] == 7).all()  # a, b and 5 single datasets
    assert lofo["weighting"].iloc[0] == D.rank(axis=1, ascending=False).mean().idxmin()
    assert (lofo["stays"] <= lofo["of"]).all() and (lofo["best_rank"] >= 1).all()


def test_better_than_a_control_needs_holm_and_a_positive_median():
    D = _matrix(n=20)
    t = rank_tests(D, "tfidf", 0.05)
    better = cc.better_than(t, "tfidf", 0.05)
    vc = cc.against(t, "tfidf")
    for w in better:
        assert vc.loc[w, "p_holm"] < 0.05 and (D[w] - D["tfidf"]).median() > 0
    assert "top" in better


def test_conclude_reports_both_units():
    D = _matrix(n=12)
    fam = cc.families_of(D.index, {"a": ["d00", "d01", "d02"]})
    t = rank_tests(D, "tfidf", 0.05)
    tf = rank_tests(cc.family_matrix(D, fam), "tfidf", 0.05)
    c = cc.conclude(t, tf, fam, ["tfidf", "sub"], 0.05)
    assert c["datasets"]["n"] == 12 and c["families"]["n"] == 10
    assert c["control"] in ("tfidf", "sub") and c["datasets"]["tie_set"][0] == t["best"]
    assert set(c["datasets"]["controls"]) == {"tfidf", "sub"}
    assert len(c["leave_one_family_out"]) == 5


def test_the_majority_sentence_counts_configurations_per_learner():
    """amazon_beauty's case: the best of many configurations beats the majority class only by
    one learner's maximum; the sentence counts, per learner, the datasets where some and where
    every weighting beats it."""
    from termweight.experiments.benchmark import _majority_text, majority_table

    rows, score_rows = [], []
    for d, (maj_acc, maj_f1) in {"easy": (0.5, 0.3), "skewed": (0.8, 0.44)}.items():
        rows.append({"dataset": d, "split": "s0", "encoding": "tfidf",
                     "majority_accuracy": maj_acc, "majority_macro_f1": maj_f1})
        for lr, accs in {"svm": (0.79, 0.78), "nb": (0.81, 0.70)}.items():
            for w, acc in zip(("tfidf", "bns"), accs, strict=True):
                acc = acc if d == "skewed" else 0.9
                score_rows += [{"dataset": d, "learner": lr, "weighting": w,
                                "measure": "accuracy", "score": acc},
                               {"dataset": d, "learner": lr, "weighting": w,
                                "measure": "macro_f1", "score": 0.6}]
    t = majority_table(pd.DataFrame(rows), pd.DataFrame(score_rows), ["macro_f1", "accuracy"],
                       "tfidf")
    skewed = t.set_index("dataset").loc["skewed"]
    assert bool(skewed["beaten"])  # nb/tfidf's 0.81 > 0.80: the best of all configurations
    assert (skewed["beating_svm"], skewed["beating_nb"], skewed["of_nb"]) == (0, 1, 2)
    text = _majority_text(t)
    assert "svm on 1 (with some of its 2 weightings; with every one on 1)" in text
    assert "nb on 2 (with some of its 2 weightings; with every one on 1)" in text
