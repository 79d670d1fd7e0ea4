"""Ferreira & Figueiredo (2010): the paper's declaration (``termweight.experiments.papers``).

Its name, title, place in the report, README rows and how its headline numbers are read, kept
apart from the module that computes (``termweight.experiments.ferreira``), so that the compute
stages do not depend on the report's code (``termweight.pipeline.codedeps``).
"""

from __future__ import annotations

from termweight.experiments.papers import Paper
from termweight.experiments.papers import declare as declare_paper

PAPER = declare_paper(Paper(
    name="ferreira", title="Ferreira \\& Figueiredo (2010)", order=50,
    description="Ferreira & Figueiredo (2010): l0-norm feature selection against Fisher, random "
                "projection, MIM, CMIM",
    readme_rows=("Table 1 Spam all mean l0", "Fig. 1 Example1 feature 6 l0(+1)")))
