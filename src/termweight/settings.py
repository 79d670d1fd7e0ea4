"""Settings derived from params.yaml: the values a step computes with that no key spells out.

Reading and validating params.yaml is runner code (``termweight.runner.config``: it passes or raises);
what fills a default or expands a section is here, a file every stage that computes with it
lists in dvc.yaml.
"""

from __future__ import annotations

BENCHMARK_PREFIX = "bench_"


def learner_C(exp: dict) -> float:
    """The experiment's learner C: ``learner: {C: ...}`` in params.yaml, else the one default
    (``termweight.learners.linear.DEFAULT_C``)."""
    from termweight.learners.linear import DEFAULT_C

    return float(exp.get("learner", {}).get("C", DEFAULT_C))


def benchmark_runs(params: dict) -> dict[str, dict]:
    """The ``benchmark:`` section expanded into one generic experiment per dataset.

    ``datasets`` maps a registered dataset name to ``{protocol: ...}`` (or ``{}``). Run
    ``bench_<dataset>`` is ``{dataset, protocol, scores, encodings, learner, learners, ...}`` as an
    ``experiments:`` entry: the dataset's own ``protocol`` (its standard split) else the section's
    (seeded stratified 5x2 CV), ``encodings`` = the weightings (``all``:
    ``termweight.weighting.all_encodings``), ``scores`` = the metrics they need, ``learner`` =
    the first learner with the section's C (the generic steps' default), ``learners`` = all,
    ``fit`` = the benchmark learners' ``{C, relative_C, max_iter}``.
    """
    b = params.get("benchmark")
    if not b:
        return {}
    from termweight.learners.linear import DEFAULT_C
    from termweight.weighting import benchmark_encodings, needed_scores

    encodings = benchmark_encodings(b.get("weightings", "all"))
    scores = needed_scores(encodings)  # the same for every dataset: computed once
    C = b.get("C", DEFAULT_C)
    fit = {"C": C, "relative_C": bool(b.get("relative_C", False)), "max_iter": b.get("max_iter")}
    runs = {}
    for key, d in b["datasets"].items():
        runs[f"{BENCHMARK_PREFIX}{key}"] = {
            "dataset": key, "protocol": (d or {}).get("protocol", b["protocol"]),
            "scores": list(scores), "encodings": encodings,
            "learner": {"name": b["learners"][0], "C": C}, "learners": list(b["learners"]),
            "C": C, "fit": fit, "mixch": dict(b.get("mixch", {})), "benchmark": key,
        }
    return runs


def benchmark_settings(params: dict) -> dict:
    """What every benchmark column computes with, resolved from params.yaml's ``benchmark:``:
    ``learners``, and either ``protocol`` (the tuned protocol: each learner's grid, inner
    folds, iteration cap, tolerance, normalisation, seed; ``benchmark.tuning``) or ``fit`` (the
    fixed-C protocol's ``C``, ``relative_C`` and ``max_iter``). The stage ``benchmark_settings``
    writes it to ``data/benchmark/settings.json`` and every column reads that file, so a change
    to how these values are derived reruns no column when they come out the same."""
    from termweight.learners.protocol import Protocol

    run = next(iter(benchmark_runs(params).values()))
    proto = Protocol.from_params(params["benchmark"].get("tuning"), seed=int(params.get("seed", 0)))
    out: dict = {"learners": list(run["learners"])}
    if proto is None:
        out["fit"] = dict(run["fit"])
    else:
        out["protocol"] = {"normalize": proto.normalize,
                           "grids": {lr: list(proto.grid(lr)) for lr in run["learners"]},
                           "extend": {lr: list(proto.extension(lr)) for lr in run["learners"]
                                      if proto.extension(lr)},
                           "inner_folds": proto.inner_folds, "max_iter": proto.max_iter,
                           "tol": proto.tol, "seed": proto.seed}
    return out


def protocol_of(settings: dict):
    """The ``Protocol`` of ``benchmark_settings``'s ``protocol`` (None: the fixed-C protocol)."""
    from termweight.learners.protocol import Protocol

    p = settings.get("protocol")
    if p is None:
        return None
    return Protocol(normalize=p["normalize"], inner_folds=int(p["inner_folds"]),
                    max_iter=int(p["max_iter"]), tol=float(p["tol"]), seed=int(p["seed"]),
                    learner_grids=tuple((k, tuple(map(float, v))) for k, v in p["grids"].items()),
                    learner_extend=tuple((k, tuple(map(float, v)))
                                         for k, v in p.get("extend", {}).items()))
