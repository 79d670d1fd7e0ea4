"""The one registry of learners: name (as in params.yaml) -> where it is used, what implements it.

Everything else reads it:

- ``python -m termweight list learners`` (``termweight.steps.catalogue``) prints the entries
  with ``listed`` set, describing each by the docstring of ``module.attr``;
- ``termweight.learners.linear.LEARNERS`` (the benchmark's one-vs-rest learners and the
  generic ``train --learner``) maps the names with a ``factory`` to that function of
  ``termweight.learners.linear``; ``relative_C`` says which take a data-relative C;
- the benchmark and the Esuli experiment name their learners by ``display`` in their tables and
  figures (``termweight.experiments.benchmark.LEARNER_NAMES``,
  ``termweight.experiments.esuli.LEARNERS``); Esuli builds its boosters from ``module.attr``.

This module imports nothing of termweight (the modules above import it); ``Learner.load``
imports the implementation on demand.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module


@dataclass(frozen=True)
class Learner:
    #: name as in params.yaml
    name: str
    #: module and attribute (class or function) that implement it
    module: str
    attr: str
    #: who uses it (``list learners``)
    used_by: str
    #: name in reports (tables, figure legends)
    display: str
    #: function of ``module`` ``(C, random_state, max_iter=None) -> binary classifier`` whose
    #: decision is linear (the one-vs-rest learners of termweight.learners.linear), else None
    factory: str | None = None
    #: its C may be made relative to each task's data scale (``relative_C``)
    relative_C: bool = False
    #: shown by ``python -m termweight list learners``
    listed: bool = True

    def load(self):
        """The class or function ``module.attr``."""
        return getattr(import_module(self.module), self.attr)


_LINEAR = "termweight.learners.linear"

#: name -> ``Learner``, in the order of ``list learners`` and of the error messages
LEARNERS: dict[str, Learner] = {spec.name: spec for spec in (
    Learner("linearsvc", _LINEAR, "fit_one_vs_rest",
            "experiments (learner: {name: linearsvc}) and esuli's SVM baseline; forman, mukras "
            "and ferreira ('svm') fit scikit-learn's LinearSVC directly",
            "LinearSVC", factory="_make_linearsvc", relative_C=True),
    Learner("logreg", _LINEAR, "logistic_regression", "the benchmark (benchmark.learners)",
            "logistic regression", factory="_make_logreg", relative_C=True, listed=False),
    Learner("mnb", _LINEAR, "_make_mnb", "the benchmark (benchmark.learners)",
            "multinomial naive Bayes", factory="_make_mnb", listed=False),
    Learner("adaboost_mh", "termweight.learners.boosting", "AdaBoostMH",
            "esuli (esuli.learners)", "AdaBoost.MH"),
    Learner("mp_boost", "termweight.learners.boosting", "MPBoost", "esuli (esuli.learners)",
            "MP-Boost"),
    Learner("modest", "termweight.learners.modest", "ModestAdaBoost",
            "ferreira (ferreira.datasets.<name>.classifiers)", "Modest AdaBoost"),
    Learner("mix-ch", "termweight.learners.kim", "MixCH", "kim (kim.methods)", "mix-ch"),
    Learner("mini-max", "termweight.learners.kim", "MiniMax", "kim (kim.methods)", "mini-max"),
    Learner("fh", "termweight.learners.ordinal", "FrankHallClassifier",
            "mukras (mukras.classifiers)", "Frank & Hall"),
    Learner("smo", "termweight.experiments.forman", "make_learner",
            "forman (forman.learners): libsvm's exact solver of the problem WEKA's SMO solves "
            "(hinge loss, unregularised bias)", "SMO (libsvm, WEKA's problem)"),
)}


def one_vs_rest() -> list[Learner]:
    """The learners with a ``factory`` (``termweight.learners.linear.LEARNERS``), in order."""
    return [spec for spec in LEARNERS.values() if spec.factory is not None]
