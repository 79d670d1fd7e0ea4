"""Paper experiments: one module per reproduced paper, each adding its CLI steps.

Every module here that defines ``register(subparsers)`` is discovered by ``termweight.cli``
and adds its sub-commands (e.g. ``python -m termweight esuli-boost ...``). Experiment modules
compose the library (datasets, scoring, encoding, selection, learners, evaluation, reporting);
they hold the protocol of one paper, not new methods.
"""
