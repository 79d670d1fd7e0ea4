"""Kim (2016): the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the module that computes (``termweight.experiments.kim``), so that the compute
stages do not list the report's code among their dependencies.
"""

from __future__ import annotations

from termweight.experiments.papers import Paper
from termweight.experiments.papers import declare as declare_paper


def _published_headlines(pub: dict) -> list:
    """Tables 1-3: micro-F of rf, mix-ch and mini-max per dataset."""
    from termweight.experiments.papers import Headline, get, tex_escape

    out = []
    for ds, tab in pub["tables"].items():
        for method in ("rf", "mix-ch", "mini-max"):
            v = get(tab, "methods", method, "micro_f")
            if v is not None:
                out.append(Headline("kim", f"{ds}/{method}/micro_f", f"{tex_escape(ds)}: "
                                    f"{tex_escape(method)}, micro-F", tab["source"].split(" (")[0],
                                    v[0], 4))
    return out


def _reproduced(h, metrics: dict):
    from termweight.experiments.papers import get

    ds, method, m = h.key.split("/")
    return get(metrics, "tables", ds, "methods", method, m) or get(metrics, ds, method, m)


PAPER = declare_paper(Paper(
    name="kim", title="Kim (2016)", order=40,
    description="Kim (2016): combining supervised term weightings, mix-ch and mini-max",
    readme_rows=("r8/mix-ch/micro_f", "webkb/mix-ch/micro_f", "news20/mix-ch/micro_f"),
    headlines=_published_headlines, reproduced=_reproduced,
    claim_rules=(
        "Methods are compared by micro-F (and by Kim's macro-F where the paper's table prints "
        "it) over the 10 random stratified 50/50 splits. The splits resample one pool, so the "
        "test is the corrected resampled t of Nadeau & Bengio (2003; variance (1/k + "
        "n_test/n_train) s^2, k - 1 degrees of freedom, alpha 0.05), not the plain paired t. "
        "The paper reports no test, so 'A outperforms B' is a claim about a direction judged "
        "against the paper's own margin: reproduced if our A - B is positive with p < 0.05, not "
        "reproduced if negative with p < 0.05 or if, with p >= 0.05, the one-sided 95% bound "
        "excludes a difference as large as the paper's; inconclusive when 2.80 standard errors "
        "(the difference detectable with 80% power) exceed the paper's margin; else partly. A "
        "claim made of several such parts is reproduced if every part is, partly if some is. A "
        "combination is compared with OUR best single weighting, as the paper compares with "
        "its. 'rf is best' is reproduced if rf has the highest mean, partly if not but not "
        "significantly below the best. 'No single best' is reproduced if every weighting is "
        "significantly below the best on some dataset, not reproduced if one is best "
        "everywhere, else inconclusive. 20 Newsgroups is read as distributed (subject and body); "
        "its stripped text is a sensitivity row, named in a claim's result where it changes the "
        "verdict.")))
