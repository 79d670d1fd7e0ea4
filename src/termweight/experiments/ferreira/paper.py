"""Ferreira & Figueiredo (2010): the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the module that computes (``termweight.experiments.ferreira``), so that the compute
stages do not list the report's code among their dependencies.
"""

from __future__ import annotations

from termweight.experiments.papers import Paper
from termweight.experiments.papers import declare as declare_paper

_CLASS = {"": "", "(-1)": " in class $-$1", "(+1)": " in class +1"}


def _published_headlines(pub: dict) -> list:
    """Table 1's mean l0 norms (one decimal, as printed) and Fig. 1's two features' l0 norms per
    class (counts), labelled in words: l0 of a feature is the number of patterns where it is
    non-zero (Sec. 3)."""
    import re

    from termweight.experiments.papers import Headline
    from termweight.experiments.report import number

    out = []
    for key, v in sorted(pub.get("headline", {}).items()):
        t = re.fullmatch(r"Table 1 (\w+) (\w+) mean l0(\(.1\))?", key)
        f = re.fullmatch(r"Fig\. 1 Example1 feature (\d+) l0(\(.1\))", key)
        if t:
            label = (f"{t[1]} ({t[2]} patterns): mean over the features of l0, the patterns "
                     f"where a feature is non-zero{_CLASS[t[3] or '']}")
            out.append(Headline("ferreira", key, label, "Table 1", number(v), digits=1))
        elif f:
            label = (f"Example1 (2,000 training patterns), feature {f[1]}: l0, the patterns "
                     f"where it is non-zero{_CLASS[f[2]]}")
            out.append(Headline("ferreira", key, label, "Fig. 1, Sec. 3.2", number(v), digits=0))
    return out


PAPER = declare_paper(Paper(
    name="ferreira", title="Ferreira \\& Figueiredo (2010)", order=50,
    description="Ferreira & Figueiredo (2010): l0-norm feature selection against Fisher, random "
                "projection, MIM, CMIM",
    readme_rows=("Table 1 Spam all mean l0", "Fig. 1 Example1 feature 6 l0(+1)"),
    headlines=_published_headlines,
    claim_rules=(
        "A curve is summarised per replication by its mean test error over the grid of m; two "
        "methods are compared over the 10 replications, which draw their training rows from one"
        " pool, by the two-tailed corrected resampled t-test of Nadeau & Bengio (2003; variance"
        " (1/k + n_test/n_train) s^2), Holm-adjusted within a claim (alpha 0.05); the "
        "equivalence and one-sided tests use the same variance. 'About the same', 'competitive'"
        " and 'similar' are equivalence claims, tested by TOST within 1 point of error; "
        "'adequate' and 'as good as' are non-inferiority claims, tested one-sided with the same"
        " margin. A claim over several cells (datasets, learners) is reproduced if it holds "
        "(significant, equivalent or non-inferior as it asserts) in every cell, not reproduced "
        "if a cell is significantly against it, partly if it holds in at least one, else "
        "inconclusive (no cell decides, with the difference detectable stated). A count claim "
        "is reproduced if every published number equals ours at its printed precision, partly "
        "if some do. The cost claim compares measured CPU seconds "
        "(benchmarks/bench_selection.py --ferreira): cheaper below 0.8 times the other "
        "method's, dearer above 1.25 times, about the same between.")))
