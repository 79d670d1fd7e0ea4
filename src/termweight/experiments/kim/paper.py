"""Kim (2016): the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the module that computes (``termweight.experiments.kim``), so that the compute
stages do not depend on the report's code (``termweight.pipeline.codedeps``).
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
    headlines=_published_headlines, reproduced=_reproduced))
