"""Learners ([methods: learners][methods-learners]): scikit-learn compatible estimators.

Every learner warns when its fit fails: scikit-learn's ``ConvergenceWarning`` when a solver stops
before its convergence criterion, [`TrivialModelWarning`][termweight.learners.TrivialModelWarning]
when the fitted model is trivial (all weights zero, or one prediction for every training row).

The estimators are imported on first use (``from termweight.learners import MixCH`` imports
[`kim`][termweight.learners.kim] only), so a step that needs one learner does not import, and so
does not depend on, the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from termweight.learners._checks import TrivialModelWarning
from termweight.runner.lazy import lazy_exports

#: public name -> module that defines it
_ESTIMATORS = {
    "AdaBoostMH": "termweight.learners.boosting",
    "MPBoost": "termweight.learners.boosting",
    "MiniMax": "termweight.learners.kim",
    "MixCH": "termweight.learners.kim",
    "ModestAdaBoost": "termweight.learners.modest",
    "FrankHallClassifier": "termweight.learners.ordinal",
}

__all__ = ["AdaBoostMH", "FrankHallClassifier", "MPBoost", "MiniMax", "MixCH", "ModestAdaBoost",
           "TrivialModelWarning"]

if TYPE_CHECKING:  # static analysers and documentation tools see the real objects
    from termweight.learners.boosting import AdaBoostMH, MPBoost
    from termweight.learners.kim import MiniMax, MixCH
    from termweight.learners.modest import ModestAdaBoost
    from termweight.learners.ordinal import FrankHallClassifier


__getattr__, __dir__ = lazy_exports(globals(), _ESTIMATORS)
