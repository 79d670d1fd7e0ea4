"""The benchmark's methods (issue #51): scikit-learn's own tf-idf as two rows, aliases at unit
length run once and checked on every split, the resolved settings file checked when read."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfTransformer
from workflow_utils import REPO

from termweight import scoring
from termweight.runner.errors import DataError
from termweight.statistics import term_stats
from termweight.steps.column import same_unit_rows
from termweight.steps.features import encode_split
from termweight.weighting import (
    UNIT_LENGTH_ALIASES,
    aliases_of,
    all_encodings,
    benchmark_encodings,
    needed_scores,
)


def _data(seed=0, n=60, d=25, k=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.poisson(0.5, (n, d)).astype(float)
    X[np.arange(n), y] += 3
    X[:, 0] = 1 + rng.poisson(1.0, n)  # a term in every document: idf ln(N/df) = 0
    return sp.csr_matrix(X), sp.csr_matrix((np.ones(n), (np.arange(n), y)), shape=(n, k))


def _encode(X, Y, encoding, train, test):
    st = term_stats(X[train], Y[train])
    scores = {m: scoring.score(m, st) for m in needed_scores([encoding])}
    return encode_split(X, Y, SimpleNamespace(train=train, test=test), scores, encoding)


@pytest.mark.parametrize(("encoding", "options"), [("sklearn_tfidf", {}),
                                                   ("sklearn_sublinear_tfidf",
                                                    {"sublinear_tf": True})])
def test_scikit_learns_tfidf_is_computed_by_scikit_learn_on_the_training_rows(encoding, options):
    X, Y = _data()
    train, test = np.arange(40), np.arange(40, 60)
    enc = _encode(X, Y, encoding, train, test)
    ref = TfidfTransformer(**options).fit(X[train])
    np.testing.assert_allclose(enc["X_train"].toarray(), ref.transform(X[train]).toarray())
    np.testing.assert_allclose(enc["X_test"].toarray(), ref.transform(X[test]).toarray())
    assert "col_weights" not in enc
    # unlike ln(N/df), the smoothed idf keeps a term found in every training document
    assert (enc["X_train"][:, 0].toarray() > 0).all()
    assert not (_encode(X, Y, "tfidf", train, test)["X_train"][:, 0].toarray() > 0).any()


def test_every_alias_is_its_method_at_unit_length_and_is_run_once():
    X, Y = _data(1)
    train, test = np.arange(45), np.arange(45, 60)
    for alias, method in UNIT_LENGTH_ALIASES.items():
        gap = same_unit_rows(_encode(X, Y, method, train, test),
                             _encode(X, Y, alias, train, test), f"{alias} as {method}")
        assert gap < 1e-12
    runs = benchmark_encodings("all")
    assert not set(UNIT_LENGTH_ALIASES) & set(runs)
    assert set(runs) | set(UNIT_LENGTH_ALIASES) == set(all_encodings())
    assert aliases_of("tfidf", runs) == ["tf-idf", "ntf-kim_idf"]
    # a list names its weightings: an alias listed is run under its own name, not checked
    assert aliases_of("tfidf", ["tfidf", "tf-idf"]) == ["ntf-kim_idf"]


def test_a_false_alias_is_refused_naming_the_split_and_task():
    X, Y = _data(2)
    train, test = np.arange(45), np.arange(45, 60)
    with pytest.raises(DataError, match=r"split r0f1: tf-chi2 as tf-ig: .*task 0: unit-length "
                                        r"rows differ"):
        same_unit_rows(_encode(X, Y, "tf-ig", train, test), _encode(X, Y, "tf-chi2", train, test),
                       "split r0f1: tf-chi2 as tf-ig")


GOOD = {"learners": ["linearsvc", "mnb"],
        "protocol": {"normalize": "l2", "grids": {"linearsvc": [0.1, 1.0], "mnb": [0.01, 1]},
                     "inner_folds": 3, "max_iter": 100, "tol": 0.01, "seed": 1}}


@pytest.mark.parametrize("tuning", [
    None, {}, {"C": [0.5, 5.0], "alpha": [0.1], "folds": 4, "max_iter": 50, "tol": 0.1},
    {"C": {"linearsvc": [1.0], "logreg": [10.0, 1000.0]}, "normalize": "none"},
    {"C": [0.1, 1.0], "extend": {"logreg": [10.0, 100.0]}}])
def test_the_settings_file_carries_the_whole_protocol(tuning):
    """A column rebuilds its protocol from data/benchmark/settings.json (``protocol_of``): the
    same protocol as params.yaml's ``benchmark.tuning`` gives (``Protocol.from_params``), field
    by field, so a field added to ``Protocol`` and not written to the file fails here."""
    import dataclasses

    from termweight.learners.protocol import Protocol
    from termweight.runner.config import load_params
    from termweight.settings import benchmark_settings, protocol_of

    params = load_params(REPO / "params.yaml")
    params["benchmark"] = {**params["benchmark"], "learners": ["linearsvc", "logreg", "mnb"]}
    if tuning is None:
        params["benchmark"].pop("tuning", None)
    else:
        params["benchmark"]["tuning"] = tuning
    direct = Protocol.from_params(params["benchmark"].get("tuning"), seed=int(params["seed"]))
    settings = json.loads(json.dumps(benchmark_settings(params)))  # as the file holds it
    again = protocol_of(settings)
    if direct is None:
        assert again is None and "fit" in settings
        return
    # written as each learner's grid and extension
    grids = {"C_grid", "alpha_grid", "learner_grids", "learner_extend"}
    assert {f.name for f in dataclasses.fields(Protocol)} - grids == {
        "normalize", "inner_folds", "max_iter", "seed", "tol"}, "write the new field to the file"
    for f in {f.name for f in dataclasses.fields(Protocol)} - grids:
        assert getattr(again, f) == getattr(direct, f), f
    for learner in params["benchmark"]["learners"]:
        assert again.grid(learner) == direct.grid(learner), learner
        assert again.extension(learner) == direct.extension(learner), learner


@pytest.mark.parametrize(("change", "message"), [
    ({"learners": []}, "key 'learners'"),
    ({"fit": {"C": 1.0}}, "exactly one of the keys 'protocol' and 'fit'"),
    ({"protocol": {**GOOD["protocol"], "inner_folds": "3"}}, "key 'protocol.inner_folds'"),
    ({"protocol": {**GOOD["protocol"], "grids": {"linearsvc": [0.1]}}}, "protocol.grids.mnb"),
    ({"protocol": {**GOOD["protocol"], "grids": {"linearsvc": [0.1], "mnb": [-1]}}},
     "protocol.grids.mnb"),
    ({"protocol": {**GOOD["protocol"], "extend": {"linearsvc": [0]}}}, "protocol.extend.linearsvc"),
    ({"protocol": {**GOOD["protocol"], "extend": [10.0]}}, "protocol.extend"),
])
def test_the_settings_file_is_checked_when_read(tmp_path, change, message):
    from termweight.settings import protocol_of
    from termweight.steps.column import read_settings

    path = tmp_path / "settings.json"
    path.write_text(json.dumps(GOOD))
    p = protocol_of(read_settings(path))
    assert p.grid("mnb") == (0.01, 1.0) and p.grid("linearsvc") == (0.1, 1.0)
    path.write_text(json.dumps({**GOOD, **change}))
    with pytest.raises(DataError, match=message) as err:
        read_settings(path)
    assert str(path) in str(err.value)
