"""Loading and validating ``params.yaml`` against the JSON schema of the workflow.

The schema (``workflow/schemas/params.schema.yaml``) forbids unknown keys and checks every value;
a violation is a :class:`~termweight.errors.ConfigError` of ONE line naming the file, the key
path, the value and the rule it breaks. Method and dataset names are checked against the
library's registries as well.

Reading is strict: a file that is missing, a directory or not UTF-8, YAML syntax errors and
duplicate keys (PyYAML would silently keep the last value) are errors naming the file and line;
``integer`` means an integer (``4.0`` is refused, as are booleans) and ``number`` means a finite
number (``.nan`` and ``.inf`` are refused). The same checks run inside Snakemake
(:func:`check_workflow_config`), so its errors are as short as the CLI's.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import jsonschema
import yaml

from termweight.errors import ConfigError

SCHEMA_REL = Path("workflow") / "schemas" / "params.schema.yaml"


# ----------------------------------------------------------------------------- strict YAML

class _NoDuplicateKeys:
    """Refuse duplicate mapping keys (PyYAML would silently keep the last value)."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark.line + 1)
            except TypeError:  # an unhashable key: SafeLoader reports it below
                continue
            if first != key_node.start_mark.line + 1:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first defined on line {first})",
                    key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


class StrictLoader(_NoDuplicateKeys, yaml.SafeLoader):
    """PyYAML's safe loader (the YAML 1.1 rules Snakemake also uses) that refuses duplicate keys."""


# the same rules on libyaml's parser (10x faster: every CLI call reads params.yaml and the
# schema); a file it refuses is re-read by StrictLoader, whose messages are the ones reported
_FastLoader = (type("_FastLoader", (_NoDuplicateKeys, yaml.CSafeLoader), {})
               if getattr(yaml, "__with_libyaml__", False) else StrictLoader)


def read_yaml(path, what: str = "params file"):
    """Read a YAML file strictly; every failure is a one-line :class:`ConfigError` naming it."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: {what} not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: {what} is a directory, not a file") from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 (byte 0x{exc.object[exc.start]:02x})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
    try:
        return yaml.load(text, Loader=_FastLoader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.YAMLError:
        pass
    try:
        return yaml.load(text, Loader=StrictLoader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(f"{where}: not valid YAML: {_one_line(problem)}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {_one_line(str(exc))}") from None


# ----------------------------------------------------------------------------- validation

def _is_integer(checker, instance) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(checker, instance) -> bool:
    return (isinstance(instance, int | float) and not isinstance(instance, bool)
            and math.isfinite(instance))


_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
    {"integer": _is_integer, "number": _is_number})
StrictValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator,
                                               type_checker=_TYPES)


def _one_line(s: str, limit: int = 200) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _short(value, limit: int = 60) -> str:
    text = _one_line(repr(value), limit)
    return text


def _where(err: jsonschema.ValidationError) -> str:
    return "/".join(str(p) for p in err.absolute_path) or "(top level)"


def _describe(err: jsonschema.ValidationError) -> str:
    """``key: value: rule`` in one short line (never the schema or a whole sub-tree)."""
    v, rule = err.validator, err.validator_value
    value = _short(err.instance)
    if v == "additionalProperties":
        return err.message if len(err.message) < 160 else "unexpected keys"
    if v == "required":
        return _one_line(err.message)
    if v == "type":
        kinds = rule if isinstance(rule, str) else " or ".join(rule)
        extra = ""
        if "integer" in kinds and isinstance(err.instance, float):
            extra = " (write integers without a decimal point)"
        elif "number" in kinds and isinstance(err.instance, float):
            extra = " (numbers must be finite)"
        return f"{value} is not of type {kinds}{extra}"
    if v == "enum":
        return f"{value} is not one of {_short(rule, 120)}"
    if v in ("anyOf", "oneOf", "allOf", "not", "if", "then", "else"):
        best = jsonschema.exceptions.best_match(err.context) if err.context else None
        if best is not None and best is not err:
            return _describe(best)
        return f"{value} does not match the allowed forms"
    return _one_line(err.message.replace(repr(err.instance), value), 160)


def validate(params, schema: dict, source: str = "params.yaml") -> dict:
    """Validate ``params`` (filling schema defaults is left to the caller); return it.

    The error is one line: ``<source>: <key path>: <value> <rule>`` for the first violation (in
    key order), followed by how many more there are.
    """
    validator = StrictValidator(schema)
    errors = sorted(validator.iter_errors(params),
                    key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ConfigError(f"{source}: {_where(first)}: {_describe(first)}{more}")
    check_names(params, source)
    if params.get("benchmark"):
        check_benchmark(params, source)
    return params


def check_names(params: dict, source: str = "params.yaml") -> None:
    """Every dataset, metric and encoding named by an experiment must exist."""
    from termweight import datasets, scoring
    from termweight.encoding import BASE_ENCODINGS

    for name, exp in params.get("experiments", {}).items():
        where = f"{source}: experiments/{name}"
        if exp["dataset"] not in datasets.DATASETS:
            raise ConfigError(f"{where}/dataset: unknown dataset {exp['dataset']!r}; known: "
                              f"{', '.join(sorted(datasets.DATASETS))}")
        for m in exp.get("scores", []):
            if m not in scoring.METRICS:
                raise ConfigError(f"{where}/scores: unknown metric {m!r}; known: "
                                  f"{', '.join(sorted(scoring.METRICS))}")
        for enc in exp.get("encodings", []):
            base, _, metric = enc.partition("-")
            if base not in BASE_ENCODINGS:
                raise ConfigError(f"{where}/encodings: {enc!r}: unknown base encoding {base!r}; "
                                  f"known: {', '.join(BASE_ENCODINGS)}")
            if base == "tfidf" and "idf" not in exp.get("scores", []):
                raise ConfigError(f"{where}/encodings: 'tfidf' needs 'idf' in the scores")
            if metric and metric not in exp.get("scores", []):
                raise ConfigError(f"{where}/encodings: {enc!r} scales by {metric!r}, which is not "
                                  "in this experiment's scores")


BENCHMARK_PREFIX = "bench_"


def benchmark_runs(params: dict) -> dict[str, dict]:
    """The ``benchmark:`` section expanded into one generic experiment per dataset.

    ``datasets`` maps a registered dataset name to ``{protocol: ...}`` (or ``{}``). Run
    ``bench_<dataset>`` is ``{dataset, protocol, scores, encodings, learner, learners, ...}`` as an
    ``experiments:`` entry: the dataset's own ``protocol`` (its standard split) else the section's
    (seeded stratified 5x2 CV), ``encodings`` = the weightings (``all``:
    :func:`termweight.weighting.all_encodings`), ``scores`` = the metrics they need, ``learner`` =
    the first learner with the section's C (the generic steps' default), ``learners`` = all,
    ``fit`` = the benchmark learners' ``{C, relative_C, max_iter}``.
    """
    b = params.get("benchmark")
    if not b:
        return {}
    from termweight.weighting import benchmark_encodings, needed_scores

    encodings = benchmark_encodings(b.get("weightings", "all"))
    from termweight.learners.linear import DEFAULT_C

    C = b.get("C", DEFAULT_C)
    fit = {"C": C, "relative_C": bool(b.get("relative_C", False)), "max_iter": b.get("max_iter")}
    runs = {}
    for key, d in b["datasets"].items():
        runs[f"{BENCHMARK_PREFIX}{key}"] = {
            "dataset": key, "protocol": (d or {}).get("protocol", b["protocol"]),
            "scores": needed_scores(encodings), "encodings": encodings,
            "learner": {"name": b["learners"][0], "C": C}, "learners": list(b["learners"]),
            "C": C, "fit": fit, "mixch": dict(b.get("mixch", {})), "benchmark": key,
        }
    return runs


def check_benchmark(params: dict, source: str = "params.yaml") -> None:
    """The benchmark's datasets, weightings and learners must exist; run names must be free."""
    from termweight import datasets, scoring
    from termweight.encoding import BASE_ENCODINGS, EXTRA_BASES
    from termweight.learners.registry import one_vs_rest
    from termweight.weighting import LEARNED, encoding_parts

    learners = [spec.name for spec in one_vs_rest()]

    runs = benchmark_runs(params)
    for name, run in runs.items():
        where = f"{source}: benchmark/datasets/{run['benchmark']}"
        if name in params.get("experiments", {}):
            raise ConfigError(f"{where}: run name {name!r} is also an experiment's name")
        if run["dataset"] not in datasets.DATASETS:
            raise ConfigError(f"{where}: unknown dataset {run['dataset']!r}; known: "
                              f"{', '.join(sorted(datasets.DATASETS))}")
    for run in list(runs.values())[:1]:
        for learner in run["learners"]:
            if learner not in learners:
                raise ConfigError(f"{source}: benchmark/learners: unknown learner {learner!r}; "
                                  f"known: {', '.join(learners)}")
        for enc in run["encodings"]:
            base, metric = encoding_parts(enc)
            if base not in BASE_ENCODINGS + EXTRA_BASES:
                raise ConfigError(f"{source}: benchmark/weightings: {enc!r}: unknown base {base!r}; "
                                  f"known: {', '.join(BASE_ENCODINGS + EXTRA_BASES)}")
            if metric is not None and metric not in scoring.METRICS and metric not in LEARNED:
                raise ConfigError(f"{source}: benchmark/weightings: {enc!r}: unknown weighting "
                                  f"{metric!r}; known: {', '.join(sorted(scoring.METRICS))}, "
                                  f"{', '.join(LEARNED)}")


def _schema_for(path: Path, schema_path) -> Path:
    if schema_path is not None:
        return Path(schema_path)
    # the workflow's schema beside the params file, else this checkout's
    candidates = [path.parent / SCHEMA_REL, Path(__file__).resolve().parents[2] / SCHEMA_REL]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        raise ConfigError(f"{path}: no params schema found (looked for "
                          f"{' and '.join(map(str, candidates))}); pass one explicitly")
    return found


def load_params(path, schema_path=None) -> dict:
    """Read and validate a params file against the workflow schema (beside it, else this checkout's)."""
    path = Path(path)
    params = read_yaml(path)
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ConfigError(f"{path}: expected a mapping of keys at the top level, found "
                          f"{type(params).__name__}")
    schema_path = _schema_for(path, schema_path)
    schema = read_yaml(schema_path, what="params schema")
    return validate(params, schema, source=str(path))


def check_workflow_config(config: dict, configfiles=(), schema_path=SCHEMA_REL) -> None:
    """Snakemake's config check: strict re-read of its config files, then :func:`validate`.

    On an error, print the same one line as the CLI (``config error: <file>: <key>: ...``) and
    exit with status 2 instead of Snakemake's dump of the whole schema.
    """
    try:
        for f in configfiles:
            read_yaml(f)  # duplicate keys and YAML errors, with file and line
        source = ", ".join(map(str, configfiles)) or "config"
        validate(config, read_yaml(schema_path, what="params schema"), source=source)
    except ConfigError as exc:
        print(f"termweight: config error: {_one_line(str(exc), 2000)}", file=sys.stderr)
        raise SystemExit(2) from None

