"""The one registry of learners (termweight.learners.registry) and the tables read from it."""

from __future__ import annotations

from pathlib import Path

import yaml

from termweight.learners import linear, registry

SCHEMA = yaml.safe_load((Path(__file__).resolve().parents[1] / "workflow/schemas/"
                         "params.schema.yaml").read_text(encoding="utf-8"))


def test_every_entry_names_an_existing_implementation():
    for name, spec in registry.LEARNERS.items():
        assert spec.name == name
        assert callable(spec.load()), name
        if spec.factory:
            assert callable(getattr(__import__(spec.module, fromlist=["_"]), spec.factory)), name


def test_linear_learners_are_the_registry_entries_with_a_factory():
    assert list(linear.LEARNERS) == ["linearsvc", "logreg", "mnb"]
    assert [s.name for s in registry.one_vs_rest()] == list(linear.LEARNERS)
    assert linear.RELATIVE_C_LEARNERS == ("linearsvc", "logreg")
    assert linear.LEARNERS["logreg"] is linear._make_logreg


def test_display_names_of_the_reports_are_unchanged():
    from termweight.experiments import benchmark, esuli

    assert esuli.LEARNERS == {"adaboost_mh": "AdaBoost.MH", "mp_boost": "MP-Boost"}
    assert benchmark.LEARNER_NAMES == {"linearsvc": "LinearSVC", "logreg": "logistic regression",
                                       "mnb": "multinomial naive Bayes"}
    assert esuli.booster("mp_boost", 3).n_rounds == 3
    assert esuli.booster_class("adaboost_mh") is registry.LEARNERS["adaboost_mh"].load()


def test_the_params_schema_accepts_the_registered_names():
    defs = SCHEMA["$defs"]
    found = {}

    def walk(node, path):
        if isinstance(node, dict):
            if "learners" in node.get("properties", {}):
                found[path] = node["properties"]["learners"]["items"]["enum"]
            for k, v in node.items():
                walk(v, f"{path}/{k}")

    walk(defs, "")
    enums = sorted(found.values())
    assert [s.name for s in registry.one_vs_rest()] in enums
    assert ["adaboost_mh", "mp_boost"] in enums
    assert all(set(e) <= set(registry.LEARNERS) for e in enums), found
