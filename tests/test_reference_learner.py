"""fastText's supervised classifier as a scikit-learn estimator (termweight.learners.reference):
the benchmark's reference learner outside term weighting (issue #64)."""

from __future__ import annotations

import doctest
import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import accuracy_score
from sklearn.svm import LinearSVC

from termweight.datasets.cachopo import read_label_tab_text
from termweight.learners import reference
from termweight.learners.reference import FastTextClassifier

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def r8(mirror):
    """Cardoso-Cachopo's R8 (all terms) as distributed: its train and test files."""
    return [read_label_tab_text(mirror / "cachopo" / f"r8-{part}-all-terms.txt")
            for part in ("train", "test")]


def test_the_docstring_example_runs():
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(FastTextClassifier, "FastTextClassifier",
                            globs={"FastTextClassifier": FastTextClassifier}):
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_r8_from_scratch_is_a_strong_reference_and_the_same_on_every_run(r8):
    """R8's standard split: fastText with its defaults (10 dimensions, bigrams, 25 epochs)
    trained from scratch is within two points of LinearSVC on sublinear tf-idf in accuracy
    (measured 2026-12-02: 0.969 against 0.974), and a second fit with the seed gives the same
    probabilities, bit for bit (one thread)."""
    (ytr, Xtr), (yte, Xte) = r8
    clf = FastTextClassifier().fit(Xtr, ytr)
    P = clf.predict_proba(Xte)
    np.testing.assert_allclose(P.sum(axis=1), 1, atol=1e-5)
    acc = accuracy_score(yte, clf.predict(Xte))
    vec = TfidfVectorizer(sublinear_tf=True)
    svm = LinearSVC().fit(vec.fit_transform(Xtr), ytr)
    base = accuracy_score(yte, svm.predict(vec.transform(Xte)))
    assert acc > base - 0.02 and acc > 0.94, (acc, base)
    np.testing.assert_array_equal(clone(clf).fit(Xtr, ytr).predict_proba(Xte), P)
    # a pickled model predicts the same
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(clf)).predict_proba(Xte[:50]),
                                  P[:50])


def test_multilabel_indicator_trains_one_sigmoid_per_class(r8):
    (ytr, Xtr), (yte, Xte) = r8
    classes = sorted(set(ytr))
    Y = np.array([[c == y for c in classes] for y in ytr], dtype=np.uint8)
    clf = FastTextClassifier(epoch=10).fit(Xtr, Y)
    assert clf.multilabel_ and list(clf.classes_) == list(range(len(classes)))
    pred = clf.predict(Xte)
    assert pred.shape == (len(Xte), len(classes)) and set(np.unique(pred)) <= {0, 1}
    D = clf.decision_function(Xte)
    np.testing.assert_array_equal(D > 0, pred.astype(bool))
    truth = np.array([[c == y for c in classes] for y in yte])
    assert (pred.astype(bool) == truth).all(axis=1).mean() > 0.85


def test_tokens_and_labels_cannot_break_fasttexts_format():
    """Token lists are joined with spaces; a token that looks like a label, or holds a newline,
    cannot become one."""
    assert reference._line(["__label__x", "a\nb", "c"]) == "_label_x a b c"
    assert reference._line("one\ttwo\n three") == "one two three"


def test_a_trivial_fit_warns():
    from termweight.learners import TrivialModelWarning

    with pytest.warns(TrivialModelWarning, match="FastTextClassifier fitted a trivial model"):
        FastTextClassifier(epoch=1, lr=0.001).fit(["a b", "c d", "a c"] * 3, [0, 1, 1] * 3)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="2 documents but 3 labels"):
        FastTextClassifier().fit(["a", "b"], [0, 1, 1])
    with pytest.raises(ValueError, match="at least two classes"):
        FastTextClassifier().fit(["a", "b"], [0, 0])
    with pytest.raises(ValueError, match="loss must be"):
        FastTextClassifier(loss="hinge").fit(["a", "b"], [0, 1])


def test_the_epoch_grid_doubles_its_top_while_the_top_wins():
    """The reference row's epochs (``steps.reference.grow``): the grid, then its top doubled
    while the top scores best by more than the margin, up to the cap; ties go to the fewer
    epochs."""
    from termweight.steps.reference import grow

    tried = []

    def rising(e):  # more is always better, by more than the margin: grows to the cap, an edge
        tried.append(e)
        return e / 1000

    assert grow(rising, (25, 50, 100), 400, 0.01) == (
        400, {25: .025, 50: .05, 100: .1, 200: .2, 400: .4})
    assert tried == [25, 50, 100, 200, 400]
    assert grow(rising, (25, 50, 100), 300, 0.01)[0] == 300  # the cap itself, not its double
    peak = {25: .5, 50: .7, 100: .8, 200: .85, 400: .85}  # a tie at the top: the fewer epochs
    assert grow(peak.get, (25, 50, 100), 800, 0.01) == (200, {**peak})
    slight = {25: .5, 50: .7, 100: .705}  # the top wins by less than the margin: kept, no more
    assert grow(slight.get, (25, 50, 100), 400, 0.01) == (100, slight)
    inner = {25: .6, 50: .7, 100: .65}  # an interior choice tries nothing more
    assert grow(inner.get, (25, 50, 100), 400, 0.01) == (50, inner)


def test_the_reference_sentence_counts_epochs_and_the_gain_the_capped_datasets_would_need():
    """``experiments.reference``: the chosen epochs counted per split, the datasets at the cap,
    and the gain fastText would need on each of them to close its mean gap (-mean x N / n)."""
    import pandas as pd

    from termweight.experiments.reference import at_cap, epoch_counts, text

    chosen = [("a", 100), ("a", 400), ("b", 50), ("c", 400)]
    assert epoch_counts(chosen) == {50: 1, 100: 1, 400: 2}
    assert at_cap(chosen, 400) == ["a", "c"]
    summ = pd.DataFrame([{"learner": "linearsvc", "against": "best", "weighting": "x",
                          "datasets": 4, "wins": 1, "mean_diff": -0.05, "p": 0.2,
                          "families": 3, "family_wins": 1, "family_p": 0.5}])
    s = text(summ, {"linearsvc": "LinearSVC"}, epoch_counts(chosen), at_cap(chosen, 400))
    assert "Chosen per split: 50 in 1, 100 in 1, 400 in 2 of 4; at the cap" in s
    assert "on 2 datasets" in s and "LinearSVC 0.100." in s  # 0.05 x 4 / 2
