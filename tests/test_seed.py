"""The second fold seed (termweight.experiments.seed): its config checks and the rank agreement."""

import numpy as np
import pandas as pd
import pytest

from termweight.experiments.seed import agreement, ranks, seed_config
from termweight.runner.errors import ConfigError


def params(**second):
    return {"seed": 7, "benchmark": {
        "datasets": {"tr23": {}, "tr11": {"protocol": {"type": "kfold", "folds": 2, "repeats": 1,
                                                         "stratified": True, "seed": 3}},
                     "cachopo_r8": {"protocol": {"type": "fixed"}}},
        "protocol": {"type": "kfold", "folds": 2, "repeats": 5, "stratified": True},
        "weightings": ["tfidf", "binary-bns"], "learners": ["linearsvc"],
        "second_seed": second}}


def test_the_config_names_each_datasets_splits():
    cfg = seed_config(params(seed=8, datasets=["tr23", "tr11"]))
    assert cfg["seed"] == 8 and cfg["first_seed"] == 7
    assert cfg["splits"]["tr23"] == [f"r{r}f{f}" for r in range(5) for f in range(2)]
    assert cfg["splits"]["tr11"] == ["r0f0", "r0f1"]
    assert cfg["weightings"] == ["tfidf", "binary-bns"]


@pytest.mark.parametrize("second, words", [
    ({"seed": 8, "datasets": ["cachopo_r8"]}, "fixed split"),
    ({"seed": 7, "datasets": ["tr23"]}, "split with already"),
    ({"seed": 3, "datasets": ["tr11"]}, "split with already"),  # tr11's own protocol seed
    ({"seed": 8, "datasets": ["oh0"]}, "not a benchmark dataset"),
    ({"seed": "8", "datasets": ["tr23"]}, "not an integer"),
    ({"seed": 8, "datasets": []}, "empty"),
    ({}, "missing"),
])
def test_a_config_that_cannot_give_a_second_draw_is_refused(second, words):
    with pytest.raises(ConfigError, match=words):
        seed_config(params(**second))


def scores(values: dict) -> pd.DataFrame:
    """{(dataset, weighting): score} for one learner."""
    return pd.DataFrame([{"dataset": d, "learner": "linearsvc", "weighting": w, "score": s}
                         for (d, w), s in values.items()])


def test_ranks_are_per_dataset_with_ties_averaged():
    r = ranks(scores({("a", "x"): 0.9, ("a", "y"): 0.9, ("a", "z"): 0.1, ("b", "x"): 0.2,
                      ("b", "y"): 0.5, ("b", "z"): 0.3}))
    assert list(r["rank"]) == [1.5, 1.5, 3.0, 3.0, 1.0, 2.0]


def test_the_same_order_agrees_fully_and_a_reversed_one_not_at_all():
    ws = ["u", "v", "w", "x", "y", "z"]
    first = scores({(d, w): 0.1 * i + (0.01 if d == "b" else 0) for d in "ab"
                    for i, w in enumerate(ws)})
    same = first.assign(score=first["score"] + 0.05)
    per, _ = agreement(first, same)
    assert per["linearsvc"]["rho_mean_ranks"] == pytest.approx(1.0)
    assert per["linearsvc"]["top_first"] == per["linearsvc"]["top_second"] == "z"
    assert per["linearsvc"]["top5_shared"] == 5
    reverse = first.assign(score=-first["score"])
    per, _ = agreement(first, reverse)
    assert per["linearsvc"]["rho_mean_ranks"] == pytest.approx(-1.0)
    assert per["linearsvc"]["rho_per_dataset_min"] == pytest.approx(-1.0)
    assert per["linearsvc"]["top_second"] == "u" and per["linearsvc"]["top5_shared"] == 4


def test_a_comparison_reports_both_seeds_mean_difference():
    first = scores({("a", "x"): 0.6, ("a", "y"): 0.5, ("b", "x"): 0.7, ("b", "y"): 0.5})
    second = scores({("a", "x"): 0.4, ("a", "y"): 0.5, ("b", "x"): 0.5, ("b", "y"): 0.5})
    per, rows = agreement(first, second, [{"a": "x", "b": "y"}, {"a": "x", "b": "absent"}])
    assert per["linearsvc"]["datasets_without_order"] == 1  # b: every score 0.5 under seed 2
    assert rows == [{"learner": "linearsvc", "a": "x", "b": "y", "diff_first": 0.15,
                     "diff_second": -0.05}]
    assert np.sign(rows[0]["diff_first"]) != np.sign(rows[0]["diff_second"])
