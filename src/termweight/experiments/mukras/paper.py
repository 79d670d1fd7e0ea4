"""Mukras et al. (2007): the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the modules that compute (``termweight.experiments.mukras``) and report
(``.report``), so that the compute
stages do not list the report's code among their dependencies.
"""

from __future__ import annotations

import numpy as np

from termweight.experiments.mukras.claims import _published_prp_change
from termweight.experiments.papers import Paper
from termweight.experiments.papers import declare as declare_paper


def _published_headlines(pub: dict) -> list:
    """Table 1's relative MSE change of IG+PRP against IG (%), mean over the paper's three
    datasets, per classifier and range: the one statistic comparable across corpora (ours: the
    mean over the substitute corpora, ``assess_claims``)."""
    from termweight.experiments.papers import Headline, get

    out = []
    vals = get(pub, "table1", "values") or {}
    for clf in ("nb", "svm"):
        for rng in (get(pub, "table1", "ranges") or {}):
            if get(vals, clf, "ig", rng) is None:
                continue
            change = float(np.mean(list(_published_prp_change(pub, clf, rng).values())))
            out.append(Headline("mukras", f"{clf}/prp_change_pct/{rng}",
                                f"{clf.upper()}: MSE change IG+PRP vs IG, {rng.replace('-', '--')} "
                                "features (\\%, mean over datasets)", "Table 1", round(change, 1),
                                digits=1))
    return out


PAPER = declare_paper(Paper(
    name="mukras", title="Mukras et al.\\ (2007)", order=20,
    description="Mukras et al. (2007): Information Gain with probability re-distribution, ordinal "
                "classes",
    readme_rows=("nb/prp_change_pct/350-3000",), headlines=_published_headlines,
    claim_rules=(
        "Each substitute dataset is tested on its own (their MSE scales differ): the paired "
        "t-test over the cross-validation folds of the mean MSE over a range of k, Holm-adjusted "
        "within a claim, alpha 0.05. A claimed improvement is reproduced if significant on every "
        "dataset, partly if on at least one and significantly reversed on none, else not "
        "reproduced. A claim of no difference or no response is tested for equivalence (TOST, "
        "paired) within the smallest NB change the paper itself calls significant: reproduced "
        "if every dataset is shown equivalent, not reproduced if any differs significantly, "
        "inconclusive otherwise (not significant is not the same as equivalent). A claim that "
        "cannot be built on these substitutes (the data fix the result) is not testable.")))
