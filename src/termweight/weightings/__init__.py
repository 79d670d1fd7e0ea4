"""Weightings added as modules of their own: every module here is imported with
``termweight.scoring`` and registers its weighting(s) with
[`register_weighting`][termweight.scoring.register_weighting].

A weighting written here costs what it computes: only its own benchmark columns (and the score
stage of an experiment that names it) depend on its module, so adding one reruns its columns,
the aggregates and the report, and nothing else (docs/benchmark.md, "Adding a weighting").
"""

#: runner code (termweight.pipeline.codedeps): the package holds plugins; its own file computes
#: nothing
RUNNER = True
