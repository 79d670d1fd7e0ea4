"""termweight: term weighting, ordinal encoding and feature selection for text classification.

The library is pure Python over NumPy/SciPy sparse matrices and knows nothing of Snakemake or DVC;
the workflow calls it through one CLI (``python -m termweight``).

Every scikit-learn estimator is importable from the top level (``from termweight import
SupervisedScaler``) or from its module: [`termweight.encoding`][termweight.encoding] (encoders and
scalers), [`termweight.selection`][termweight.selection] and
[`termweight.multiclass`][termweight.multiclass] (feature selectors), ``termweight.learners``
(classifiers: [`boosting`][termweight.learners.boosting], [`modest`][termweight.learners.modest],
[`kim`][termweight.learners.kim], [`ordinal`][termweight.learners.ordinal]); metric names are the
keys of ``METRICS`` in [`termweight.scoring`][termweight.scoring]. The formulas and protocols are on
the [methods page][methods-scoring].
The estimators are imported on first use, so ``import termweight`` stays cheap for the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from termweight.runner.lazy import lazy_exports

__version__ = "0.1.0"

#: public name -> module that defines it
_ESTIMATORS = {
    "TermEncoder": "termweight.encoding",
    "SupervisedScaler": "termweight.encoding",
    "ThresholdEncoder": "termweight.encoding",
    "L0Unsupervised": "termweight.selection",
    "L0Supervised": "termweight.selection",
    "FisherRatio": "termweight.selection",
    "MIM": "termweight.selection",
    "CMIM": "termweight.selection",
    "AchlioptasProjection": "termweight.selection",
    "SelectByScore": "termweight.selection",
    "SelectKBestJoint": "termweight.multiclass",
    "AdaBoostMH": "termweight.learners",
    "MPBoost": "termweight.learners",
    "ModestAdaBoost": "termweight.learners",
    "MixCH": "termweight.learners",
    "MiniMax": "termweight.learners",
    "FrankHallClassifier": "termweight.learners",
    "METRICS": "termweight.scoring",
}

__all__ = [
    "CMIM", "METRICS", "MIM", "AchlioptasProjection", "AdaBoostMH", "FisherRatio",
    "FrankHallClassifier", "L0Supervised", "L0Unsupervised", "MPBoost", "MiniMax", "MixCH",
    "ModestAdaBoost", "SelectByScore", "SelectKBestJoint", "SupervisedScaler", "TermEncoder",
    "ThresholdEncoder", "__version__",
]

if TYPE_CHECKING:  # static analysers and documentation tools see the real objects
    from termweight.encoding import SupervisedScaler, TermEncoder, ThresholdEncoder
    from termweight.learners import (
        AdaBoostMH,
        FrankHallClassifier,
        MiniMax,
        MixCH,
        ModestAdaBoost,
        MPBoost,
    )
    from termweight.multiclass import SelectKBestJoint
    from termweight.scoring import METRICS
    from termweight.selection import (
        CMIM,
        MIM,
        AchlioptasProjection,
        FisherRatio,
        L0Supervised,
        L0Unsupervised,
        SelectByScore,
    )


__getattr__, __dir__ = lazy_exports(globals(), _ESTIMATORS)
