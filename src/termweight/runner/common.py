"""What the generic steps share: split and encoding lists, the experiment, option helpers."""

from __future__ import annotations

import logging

from termweight.runner.errors import TermweightError

log = logging.getLogger("termweight")

DOCUMENTS_HELP = "documents directory written by prepare (documents.parquet, documents.json)"
CORPUS_HELP = "corpus directory (counts.npz, meta.json, terms.txt)"
EXP_HELP = "experiment name under 'experiments:' in the params file"
SPLIT_HELP = "split file template with {split} (.npz, written by split)"
STATS_HELP = "statistics file template with {split}, written by stats"
ENCODED_HELP = "encoded-matrix template with {split} and {encoding}, written by encode"
MODEL_HELP = "model template with {split} and {encoding}, written by train"


def add_names(p, encodings: bool = False) -> None:
    """The options of a per-split step: ``--params``, ``--exp``, ``--names``, ``--jobs`` (and
    ``--encoding``)."""
    p.add_argument("--params", help="params.yaml (default split/encoding lists come from it)")
    p.add_argument("--exp", help=EXP_HELP)
    p.add_argument("--names", nargs="+", help="split names (default: all of the experiment)")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="worker processes (default: the CPUs available; outputs do not depend on it)")
    if encodings:
        p.add_argument("--encoding", nargs="+",
                       help="encodings (default: all of the experiment)")


def names(args) -> list[str]:
    """Split names: ``--names``, else every split of the experiment (``--params``/``--exp``)."""
    if args.names:
        return list(args.names)
    from termweight.splits import split_names

    return split_names(experiment(args)[1]["protocol"])


def encodings(args) -> list[str]:
    """Encodings: ``--encoding``, else every encoding of the experiment."""
    if args.encoding:
        return list(args.encoding)
    return list(experiment(args)[1]["encodings"])


def jobs(args) -> list[tuple[str, str]]:
    """Every ``(split name, encoding)`` pair, encoding by encoding."""
    split_names = names(args)
    return [(name, e) for e in encodings(args) for name in split_names]


def for_each(args, fn, items) -> None:
    """``termweight.runner.parallel.for_each`` with ``--jobs`` processes."""
    from termweight.runner.parallel import for_each as run

    run(getattr(args, "jobs", None), fn, items)


def first_line(text: str | None) -> str:
    """The first paragraph of a docstring as one line, without ``literal`` markup."""
    lines = [ln.strip().replace("``", "") for ln in (text or "").strip().splitlines()]
    return " ".join(lines[:next((i for i, ln in enumerate(lines) if not ln), len(lines))])


def fmt(template: str, **kw) -> str:
    """``template`` with ``kw`` filled in; ``{group}``: the column group of ``encoding``
    (``termweight.weighting.group_of``: a benchmark column lives in its weighting module's folder)."""
    if "{group}" in template and "encoding" in kw:
        from termweight.weighting import group_of

        kw = {**kw, "group": group_of(kw["encoding"])}
    return template.format(**kw)


def prune(args, template: str) -> None:
    """After a step wrote every split (and encoding) of the experiment: remove the files of
    ``template`` that belong to none of them, left by an earlier configuration (4 folds, now 3;
    an encoding taken out), so that the output directory is what a clean run writes. A step
    given ``--names`` or ``--encoding`` writes a part only, and removes nothing."""
    import glob
    from pathlib import Path

    if args.names or getattr(args, "encoding", None):
        return
    if "{encoding}" in template:
        keep = {fmt(template, split=n, encoding=e) for n, e in jobs(args)}
    else:
        keep = {fmt(template, split=n) for n in names(args)}
    pattern = template.replace("{split}", "*").replace("{encoding}", "*")
    for path in sorted(set(glob.glob(pattern)) - keep):
        if Path(path).is_file() and ".tmp-" not in Path(path).name:
            Path(path).unlink()
            log.info("removed %s (not a split or encoding of this configuration)", path)


def experiment(args) -> tuple[dict, dict]:
    """``(params, the experiment's entry)``, read and validated once per command (cached on args:
    a job asks for its split names once per encoding, and re-reading cost 0.18 s each time)."""
    cached = getattr(args, "_experiment_cache", None)
    if cached is None:
        cached = args._experiment_cache = _read_experiment(args)
    return cached


def _read_experiment(args) -> tuple[dict, dict]:
    from termweight.runner.config import load_params

    if not args.params or not args.exp:
        raise TermweightError("give --params and --exp (or the lists this step needs)")
    params = load_params(args.params)
    try:
        return params, params["experiments"][args.exp]
    except KeyError:
        from termweight.settings import benchmark_runs  # a benchmark run, bench_<dataset key>

        run = benchmark_runs(params).get(args.exp)
        if run is not None:
            return params, run
        raise TermweightError(f"{args.params}: no experiment {args.exp!r}") from None
