"""termweight as a scikit-learn user meets it: check_estimator, the public API, feature names,
pandas output, metric names, and a multi-class text pipeline (issue #17)."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

import termweight
from termweight import (
    CMIM,
    MIM,
    AchlioptasProjection,
    AdaBoostMH,
    FisherRatio,
    FrankHallClassifier,
    L0Supervised,
    L0Unsupervised,
    MiniMax,
    MixCH,
    ModestAdaBoost,
    MPBoost,
    SelectByScore,
    SelectKBestJoint,
    SupervisedScaler,
    TermEncoder,
    ThresholdEncoder,
    scoring,
)
from termweight.runner.errors import ConfigError

# Every public estimator class with its defaults (meta-estimators with a plain inner estimator,
# as scikit-learn tests OneVsRestClassifier(LogisticRegression())). The only checks reported as
# skipped are
# scikit-learn's own array-API checks (check_array_api_input: "SCIPY_ARRAY_API is not set",
# skipped for LogisticRegression too) and, for the boosting classifiers, which have no
# predict_proba, check_classifiers_multilabel_output_format_predict_proba (as for LinearSVC).
ESTIMATORS = [
    TermEncoder(), SupervisedScaler(), ThresholdEncoder(), L0Unsupervised(), L0Supervised(),
    FisherRatio(), MIM(), CMIM(), AchlioptasProjection(), SelectByScore(), SelectKBestJoint(),
    AdaBoostMH(), MPBoost(), ModestAdaBoost(), MixCH(), MiniMax(),
    FrankHallClassifier(LogisticRegression()),
]
NOT_CHECKED: set[str] = set()


@parametrize_with_checks(ESTIMATORS)
def test_check_estimator(estimator, check):
    check(estimator)


def test_every_public_estimator_is_checked():
    public = {n for n in termweight.__all__
              if inspect.isclass(getattr(termweight, n)) and issubclass(getattr(termweight, n),
                                                                        BaseEstimator)}
    assert len(public) == 17
    assert public - NOT_CHECKED == {type(e).__name__ for e in ESTIMATORS}


def test_public_api_names_the_module_objects():
    from termweight import encoding, learners, multiclass, selection

    for name in termweight.__all__:
        obj = getattr(termweight, name)
        homes = [m for m in (encoding, selection, multiclass, learners, scoring)
                 if getattr(m, name, None) is obj]
        assert homes or name == "__version__", name
    assert termweight.METRICS is scoring.METRICS
    with pytest.raises(AttributeError):
        termweight.NoSuchEstimator  # noqa: B018


# ------------------------------------------------------------------ metric names

@pytest.mark.parametrize("make", [lambda m: SupervisedScaler(metric=m),
                                  lambda m: SelectByScore(metric=m, k=2)])
def test_metric_names_come_from_scoring_metrics(make):
    X = sp.csr_matrix(np.array([[1, 0, 2], [0, 1, 1], [3, 0, 0], [0, 2, 0]]))
    y = np.array([1, 0, 1, 0])
    for name in scoring.METRICS:  # every registered name works, e.g. "bns"
        make(name).fit(X, y)
    with pytest.raises(ValueError, match="unknown metric 'bsn'; known metrics: acc, acc2, bns") as e:
        make("bsn").fit(X, y)
    assert isinstance(e.value, ConfigError)  # the CLI still reports it as a configuration error


# ------------------------------------------------------------------ feature names and pandas

def _frame(seed=0, n=40, names=("apple", "banana", "cherry", "date")):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.poisson(0.2, size=(n, len(names))).astype(float), columns=list(names))
    y = np.arange(n) % 3
    for c in range(3):  # column c marks class c; "date" is noise
        X.iloc[:, c] += 3 * (y == c)
    return X, y


def test_feature_names_pass_through_a_pipeline():
    X, y = _frame()
    pipe = make_pipeline(TermEncoder("tf"), SupervisedScaler("bns"), SelectByScore("chi2", k=2),
                         LinearSVC()).fit(X, y)
    kept = pipe[:-1].get_feature_names_out().tolist()
    assert kept == X.columns[pipe[2].get_support()].tolist() and "date" not in kept
    assert pipe[:2].get_feature_names_out().tolist() == list(X.columns)
    sel = SelectKBestJoint(k=1).fit(X, y)
    assert sel.get_feature_names_out().tolist()[0] in {"apple", "banana", "cherry"}
    enc = ThresholdEncoder().fit(pd.DataFrame({"t": [0, 1, 3], "u": [2, 0, 2]}))
    assert enc.get_feature_names_out().tolist() == ["t>=1", "t>=3", "u>=2"]
    enc = ThresholdEncoder("every").fit(np.array([[0, 2], [1, 0], [3, 2]]))
    assert enc.get_feature_names_out().tolist() == ["x0>=1", "x0>=2", "x0>=3", "x1>=1", "x1>=2"]
    assert enc.get_feature_names_out(["a", "b"]).tolist() == ["a>=1", "a>=2", "a>=3", "b>=1",
                                                               "b>=2"]


@pytest.mark.parametrize("est", [TermEncoder("logtf", sparse_output=False),
                                 SupervisedScaler("ig", sparse_output=False),
                                 ThresholdEncoder(sparse_output=False),
                                 SelectByScore("bns", k=2), FisherRatio(m=2)],
                         ids=lambda e: type(e).__name__)
def test_pandas_output(est):
    X, y = _frame()
    default = clone(est).fit(X, y).transform(X)
    out = clone(est).set_output(transform="pandas").fit(X, y).transform(X)
    assert isinstance(out, pd.DataFrame)
    assert out.columns.tolist() == est.fit(X, y).get_feature_names_out().tolist()
    np.testing.assert_array_equal(out.to_numpy(), default)


def test_sparse_output_refuses_pandas_with_a_clear_message():
    X, y = _frame()
    with pytest.raises(ValueError, match="sparse"):
        SupervisedScaler().set_output(transform="pandas").fit(X, y).transform(X)
    dense = SupervisedScaler(sparse_output=False).fit(X, y).transform(X)
    np.testing.assert_array_equal(dense, SupervisedScaler().fit(X, y).transform(X).toarray())


# ------------------------------------------------------------------ a user's multi-class pipeline

def test_grid_search_over_combination_rules_on_multiclass_data():
    X, y = _frame(n=90)
    pipe = make_pipeline(SelectByScore("ig", k=3), SupervisedScaler("bns"), LinearSVC())
    grid = GridSearchCV(pipe, {"selectbyscore__combine": ["max", "avg"],
                               "supervisedscaler__combine": ["max", "avg"]}, cv=3).fit(X, y)
    assert len(grid.cv_results_["params"]) == 4 and grid.best_score_ > 0.6  # chance: 1/3


@pytest.fixture(scope="module")
def bbc_split():
    from termweight.datasets import get_dataset

    docs = get_dataset("bbc").parser(None, {})
    labels = [labs[0] for labs in docs.labels]
    return train_test_split(docs.texts, labels, test_size=0.3, random_state=0, stratify=labels)


def test_readme_pipeline_on_bbc_five_classes(bbc_split):
    train_texts, test_texts, train_labels, test_labels = bbc_split
    # the README's example, verbatim
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    from termweight import SelectByScore, SupervisedScaler

    clf = make_pipeline(
        CountVectorizer(),
        SelectByScore(metric="ig", k=5000),                      # Forman's hybrid: IG selection
        SupervisedScaler(metric="bns", base="logtf", norm="l2"),  # ... and BNS scaling
        LinearSVC(),
    )
    clf.fit(train_texts, train_labels)
    assert len(clf.classes_) == 5
    assert clf.score(test_texts, test_labels) > 0.95
    assert clf[:-1].get_feature_names_out().size == 5000
    assert set(clf[:-1].get_feature_names_out()) <= set(clf[0].get_feature_names_out())


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_kim_learners_on_bbc_five_classes(bbc_split):
    train_texts, test_texts, train_labels, test_labels = bbc_split
    vec = CountVectorizer(min_df=3).fit(train_texts)
    Xtr, Xte = vec.transform(train_texts), vec.transform(test_texts)
    for clf in (MixCH(max_iter=3), MiniMax(solver="exact", max_iter=50)):
        pipe = make_pipeline(TermEncoder("binary"), SelectByScore("chi2", k=2000), clf)
        pipe.fit(Xtr, train_labels)
        assert pipe.score(Xte, test_labels) > 0.9
        assert pipe[-1].decision_function(pipe[:-1].transform(Xte)).shape == (len(test_labels), 5)
