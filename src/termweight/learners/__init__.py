"""Learners (METHODS.md section 6): scikit-learn compatible estimators.

The estimators are imported on first use (``from termweight.learners import MixCH`` imports
:mod:`termweight.learners.kim` only), so a step that needs one learner does not import, and so
does not depend on, the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from termweight._lazy import lazy_exports

#: public name -> module that defines it
_ESTIMATORS = {
    "AdaBoostMH": "termweight.learners.boosting",
    "MPBoost": "termweight.learners.boosting",
    "MiniMax": "termweight.learners.kim",
    "MixCH": "termweight.learners.kim",
    "ModestAdaBoost": "termweight.learners.modest",
    "FrankHallClassifier": "termweight.learners.ordinal",
}

__all__ = ["AdaBoostMH", "FrankHallClassifier", "MPBoost", "MiniMax", "MixCH", "ModestAdaBoost"]

if TYPE_CHECKING:  # static analysers and documentation tools see the real objects
    from termweight.learners.boosting import AdaBoostMH, MPBoost
    from termweight.learners.kim import MiniMax, MixCH
    from termweight.learners.modest import ModestAdaBoost
    from termweight.learners.ordinal import FrankHallClassifier


__getattr__, __dir__ = lazy_exports(globals(), _ESTIMATORS)
