"""Paper experiments: one package per reproduced paper, each adding its CLI steps.

Every module or package here that defines ``register(subparsers)`` is discovered by
``termweight.runner.cli`` and adds its sub-commands (e.g. ``python -m termweight esuli-boost ...``); a
paper package's ``report`` module is discovered with it. A paper package holds the protocol
(``__init__.py``), its report, its published numbers, its section of the PDF and its steps
(``termweight.experiments.papers``). Experiment modules compose the library (datasets, scoring,
encoding, selection, learners, evaluation, reporting); they hold the protocol of one paper, not
new methods.
"""
