"""Learners (METHODS.md section 6): scikit-learn compatible estimators."""

from termweight.learners.boosting import AdaBoostMH, MPBoost
from termweight.learners.kim import MiniMax, MixCH
from termweight.learners.modest import ModestAdaBoost
from termweight.learners.ordinal import FrankHallClassifier

__all__ = ["AdaBoostMH", "FrankHallClassifier", "MPBoost", "MiniMax", "MixCH", "ModestAdaBoost"]
