"""Forman (2008): the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the module that computes (``termweight.experiments.forman``), so that the compute
stages do not list the report's code among their dependencies.
"""

from __future__ import annotations

from termweight.experiments.papers import Paper
from termweight.experiments.papers import declare as declare_paper


def _published_headlines(pub: dict) -> list:
    """The BNS against TF-IDF gains (Sec. 4.1) and the best representation (Sec. 4.5)."""
    from termweight.experiments.forman import PAPER_LEARNER
    from termweight.experiments.forman.results import _learner_name
    from termweight.experiments.papers import Headline

    out = []
    c = pub.get("claims", {})
    learner = _learner_name(PAPER_LEARNER).split(" ")[0]  # ours: the verdicts' learner
    for k, lab in (("bns_vs_tfidf_accuracy_gain_pct", "BNS$-$TF-IDF accuracy gain (\\%)"),
                   ("bns_vs_tfidf_f1_gain_pct", "BNS$-$TF-IDF F-measure gain (\\%)"),
                   ("best_representation", "best of 30 representations")):
        if k in c:
            out.append(Headline("forman", k, f"{lab}, ours by {learner}",
                                "Sec. 4.1" if "gain" in k else "Sec. 4.5", c[k], 1))
    return out


PAPER = declare_paper(Paper(
    name="forman", title="Forman (2008)", order=30,
    description="Forman (2008): BNS feature scaling against TF-IDF and 13 other metrics, linear SVM",
    readme_rows=("bns_vs_tfidf_accuracy_gain_pct", "bns_vs_tfidf_f1_gain_pct",
                 "best_representation"),
    headlines=_published_headlines,
    claim_rules=(
        "The unit of analysis is the task (one class of one dataset): the 8 seeds of a task are "
        "averaged first, then representations are compared by the paired two-tailed t-test over "
        "the tasks (alpha 0.05), on the learner closest to the paper's (SMO: libsvm, linear "
        "kernel, C = 1). A claimed gain of a given size is reproduced if ours is positive, "
        "significant and its 95% interval holds the published gain, partly if significant but "
        "the interval excludes it, inconclusive if not significant with an interval holding both "
        "0 and the published gain, else not reproduced. A claimed sign is reproduced if ours has "
        "it significantly, partly if it has it without significance, else not reproduced. A "
        "claim over several cells is reproduced if it holds significantly in all, not reproduced "
        "if any cell is significantly reversed or none holds, else partly. 'Best' claims: "
        "reproduced if first and better than the runner-up at the paper's p < 0.01, partly if "
        "first without that, or second and not significantly worse.")))
