"""The generic pipeline steps, one sub-command of ``python -m termweight`` each.

Each sub-command is one arrow of the pipeline (raw files -> documents -> tokens -> corpus ->
splits -> statistics -> scores -> encoded matrices -> models -> predictions -> metrics -> tables and
figures). Per-split steps take path templates containing ``{split}`` and either ``--names`` (one or
more split names: Snakemake runs one job per split) or ``--params`` and ``--exp`` (every split of
the experiment: DVC runs one stage over all splits); both produce the same files.

Every module of ``MODULES`` defines ``register(subparsers)``, which adds its sub-commands;
``termweight.runner.cli`` calls them in this order (the order of ``python -m termweight --help``):

- ``catalogue``: ``list`` (datasets, metrics, encodings, learners, experiments);
- ``data``: ``prepare``, ``tokenize``, ``count``;
- ``split``: ``split``;
- ``features``: ``stats``, ``score``, ``encode``;
- ``learn``: ``train``, ``predict``, ``evaluate``;
- ``results``: ``aggregate``, ``table``, ``figure``, ``headlines``.

``common`` holds what they share (split and encoding lists, the experiment
read once per command, option helpers). The papers' steps live in ``termweight.experiments``.
"""

#: the step modules, in the order their sub-commands are listed
MODULES = ("catalogue", "data", "split", "features", "learn", "results", "headlines", "workflow")

