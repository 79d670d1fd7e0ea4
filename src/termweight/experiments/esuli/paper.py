"""Esuli & Sebastiani: the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the module that computes (``termweight.experiments.esuli``), so that the compute
stages do not list the report's code among their dependencies.
"""

from __future__ import annotations

from termweight.experiments.papers import Paper
from termweight.experiments.papers import declare as declare_paper


def _published_headlines(pub: dict) -> list:
    """Table 1's micro- and macro-F1 of every learner and representation."""
    from termweight.experiments.papers import Headline, get, tex_escape

    out = []
    for row, vals in get(pub, "table1", "rows").items():
        learner, enc = row.split("/")
        for k, lab in (("micro_f1", "micro-F1"), ("macro_f1", "macro-F1")):
            if vals.get(k) is not None:
                out.append(Headline("esuli", f"{row}/{k}", f"{tex_escape(learner)} "
                                    f"{tex_escape(enc)}, {lab}", "Table 1", vals[k]))
    return out


def _reproduced(h, metrics: dict):
    from termweight.experiments.papers import get

    learner, enc, m = h.key.split("/")
    return get(metrics, "runs", f"{learner}_{enc}", m)


PAPER = declare_paper(Paper(
    name="esuli", title="Esuli \\& Sebastiani (2009)", order=10,
    description="Esuli & Sebastiani: ordinal-to-binary features for AdaBoost.MH and MP-Boost, "
                "Reuters-21578",
    readme_rows=("adaboost_mh/ordinal/micro_f1", "mp_boost/ordinal/micro_f1",
                 "mp_boost/ordinal/macro_f1", "svm/tfidf/micro_f1"),
    headlines=_published_headlines, reproduced=_reproduced,
    claim_rules=(
        "Micro-F1 differences are tested by approximate randomisation (9,999 random swaps of the "
        "two runs' test decisions, two-sided), macro-F1 differences by the Wilcoxon signed-rank "
        "test over the 90 categories' F1 pairs. The paper reports no test, so a claim that A "
        "beats B is read as a claim about a direction: reproduced if our A - B has the claimed "
        "sign with p < 0.05, not reproduced if it has the other sign with p < 0.05; with "
        "p >= 0.05, inconclusive when the smallest difference the test detects with 80% power "
        "(2.80 standard errors under the null) exceeds the paper's own difference, else partly "
        "for the claimed sign and not reproduced for the other. A claim made against several "
        "runs gets the weakest of its comparisons' verdicts. Count and reading claims (values "
        "per term, monotone tf) state their tolerance in their test.")))
