"""Loading and validating ``params.yaml`` against the JSON schema of the workflow.

The schema (``workflow/schemas/params.schema.yaml``) forbids unknown keys and checks every value;
a violation is a ``ConfigError`` of ONE line naming the file, the key
path, the value and the rule it breaks. Method and dataset names are checked against the
library's registries as well.

Reading is strict: a file that is missing, a directory or not UTF-8, YAML syntax errors and
duplicate keys (PyYAML would silently keep the last value) are errors naming the file and line;
``integer`` means an integer (``4.0`` is refused, as are booleans) and ``number`` means a finite
number (``.nan`` and ``.inf`` are refused). The same checks run inside Snakemake
(``check_workflow_config``), so its errors are as short as the CLI's.

What a file may cost is bounded: at most ``MAX_YAML_BYTES``, no aliases (``*name``: nine
nested levels of ten aliases in 1 KB expand to 10**9 values when anything walks them), at most
``MAX_DEPTH`` levels of nesting and ``MAX_INT_CHARS`` characters per integer. Error
messages show bounded reprs (``reprlib``), never a whole document.
"""

from __future__ import annotations

import math
import reprlib
import sys
from pathlib import Path

import jsonschema
import yaml

from termweight.runner.errors import ConfigError

SCHEMA_REL = Path("workflow") / "schemas" / "params.schema.yaml"


# ----------------------------------------------------------------------------- strict YAML

#: Largest YAML file read (params.yaml is about 15 KB, the schema 20 KB).
MAX_YAML_BYTES = 1 << 20
#: Deepest nesting of sequences and mappings (params.yaml nests 6 levels).
MAX_DEPTH = 64
#: Longest integer literal (Python refuses to convert more than 4300 digits).
MAX_INT_CHARS = 100


class _Refused(yaml.composer.ComposerError):
    """A construct refused for its cost, reported without the "not valid YAML" prefix."""


class _Bounded:
    """Refuse duplicate mapping keys (PyYAML would silently keep the last value), aliases,
    nesting deeper than ``MAX_DEPTH`` and integers longer than ``MAX_INT_CHARS``."""

    _depth = 0

    def compose_node(self, parent, index):  # the pure-Python composer (StrictLoader)
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _Refused(None, None, f"YAML aliases (*{event.anchor}) are not allowed (they can "
                                       "expand to billions of values): repeat the value instead",
                           event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Refused(None, None, f"nested more than {MAX_DEPTH} levels deep",
                               self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

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
                    None, None, f"duplicate key {_short(key)} (first defined on line {first})",
                    key_node.start_mark)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node):
        if len(node.value) > MAX_INT_CHARS:
            raise _Refused(None, None, f"an integer of {len(node.value)} characters (at most "
                                       f"{MAX_INT_CHARS})", node.start_mark)
        return super().construct_yaml_int(node)


class StrictLoader(_Bounded, yaml.SafeLoader):
    """PyYAML's safe loader (the YAML 1.1 rules Snakemake also uses), bounded (``_Bounded``)."""


def _too_costly(root) -> bool:
    """Whether a composed node graph shares a node (an alias) or nests too deeply; iterative."""
    seen: set[int] = set()
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or depth > MAX_DEPTH:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend((child, depth + 1) for pair in node.value for child in pair)
    return False


class _CBounded(_Bounded):
    """libyaml composes in C: an alias is the anchored node itself, found by ``_too_costly``."""

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None and _too_costly(node):
            raise yaml.YAMLError("aliases or deep nesting")  # StrictLoader reports where
        return node


# the same rules on libyaml's parser (10x faster: every CLI call reads params.yaml and the
# schema); a file it refuses is re-read by StrictLoader, whose messages are the ones reported
_FastLoader = (type("_FastLoader", (_CBounded, yaml.CSafeLoader), {})
               if getattr(yaml, "__with_libyaml__", False) else StrictLoader)
for _loader in {StrictLoader, _FastLoader}:
    _loader.add_constructor("tag:yaml.org,2002:int", _Bounded.construct_yaml_int)


def read_yaml(path, what: str = "params file"):
    """Read a YAML file strictly; every failure is a one-line ``ConfigError`` naming it."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_YAML_BYTES and path.is_file():
            raise ConfigError(f"{path}: {what} of {size} bytes; at most {MAX_YAML_BYTES} are read")
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
    except (yaml.YAMLError, RecursionError):
        pass
    try:
        return yaml.load(text, Loader=StrictLoader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = _one_line(exc.problem or exc.context or "invalid YAML")
        if isinstance(exc, _Refused):
            raise ConfigError(f"{where}: {problem}") from None
        raise ConfigError(f"{where}: not valid YAML: {problem}") from None
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
    s = " ".join(str(s)[: 4 * limit].split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxlong, _REPR.maxother = 2, 50, 40, 50
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4


def _short(value, limit: int = 60) -> str:
    """A repr of at most ``limit`` characters, built without the repr of the whole value."""
    return _one_line(_REPR.repr(value), limit)


def _where(err: jsonschema.ValidationError) -> str:
    return _one_line("/".join(str(p)[:60] for p in err.absolute_path) or "(top level)", 200)


def _unexpected(err: jsonschema.ValidationError) -> str:
    """``Additional properties are not allowed ('x', 'y' were unexpected)``, at most 5 named."""
    allowed = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
    extra = [k for k in err.instance if k not in allowed]
    named = ", ".join(_short(k, 40) for k in extra[:5]) + (
        f" and {len(extra) - 5} more" if len(extra) > 5 else "")
    return (f"Additional properties are not allowed ({named} "
            f"{'was' if len(extra) == 1 else 'were'} unexpected)")


# "<value> <rule>" for the keywords of the schema (jsonschema's own err.message reprs the value)
_RULES = {
    "minimum": "is less than the minimum of {}",
    "maximum": "is greater than the maximum of {}",
    "exclusiveMinimum": "is less than or equal to the minimum of {}",
    "exclusiveMaximum": "is greater than or equal to the maximum of {}",
    "minItems": "has fewer than {} items",
    "maxItems": "has more than {} items",
    "minProperties": "has fewer than {} keys",
    "maxProperties": "has more than {} keys",
    "uniqueItems": "has non-unique elements",
    "pattern": "does not match {!r}",
    "minLength": "is shorter than {} characters",
    "maxLength": "is longer than {} characters",
}


def _describe(err: jsonschema.ValidationError) -> str:
    """``value rule`` in one short line, from err.validator and err.validator_value (never
    err.message, which holds the repr of the whole instance)."""
    v, rule = err.validator, err.validator_value
    value = _short(err.instance)
    if v == "additionalProperties" and isinstance(err.instance, dict):
        return _one_line(_unexpected(err), 160)
    if v == "required" and isinstance(err.instance, dict):
        missing = [p for p in rule if p not in err.instance] or list(rule)
        return f"{_short(missing[0])} is a required property"
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
    if v == "const":
        return f"{value} is not {_short(rule)}"
    if v in ("anyOf", "oneOf", "allOf", "not", "if", "then", "else"):
        best = jsonschema.exceptions.best_match(err.context) if err.context else None
        if best is not None and best is not err:
            return _describe(best)
        return f"{value} does not match the allowed forms"
    if v in _RULES:
        return _one_line(f"{value} {_RULES[v].format(rule)}", 160)
    return _one_line(f"{value} breaks the schema's {v!r} rule ({_short(rule)})", 160)


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
    check_split_counts(params, source)
    check_names(params, source)
    if params.get("benchmark"):
        check_benchmark(params, source)
    return params


def _protocols(node, path=()):
    """``(key path, protocol)`` of every ``protocol:`` mapping in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "protocol" and isinstance(value, dict) and "type" in value:
                yield "/".join(map(str, (*path, key))), value
            else:
                yield from _protocols(value, (*path, key))


def check_split_counts(params: dict, source: str = "params.yaml") -> None:
    """Every protocol's splits (folds x repeats) within ``termweight.splits.split_names``'s
    limit, including the papers' CV grids, before Snakemake lists any job."""
    from termweight.splits import split_names

    found = list(_protocols(params))
    if "forman" in params:
        found.append(("forman", {"type": "kfold", "folds": params["forman"]["folds"],
                                 "repeats": params["forman"]["repeats"]}))
    if "mukras" in params:
        found.append(("mukras", {"type": "kfold", "folds": params["mukras"]["folds"]}))
    for key, d in params.get("kim", {}).get("datasets", {}).items():
        found.append((f"kim/datasets/{key}", {"type": "random", "repeats": d["repeats"]}))
    for where, protocol in found:
        try:
            split_names(protocol)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {where}: {exc}") from None


def _literals(module: str, *names: str) -> list:
    """Module-level literal constants of a termweight module, read from its source without
    importing it: a check of names must not import scikit-learn (``termweight.encoding``
    defines scikit-learn estimators), which every step would then pay for."""
    import ast
    import importlib.util

    tree = ast.parse(Path(importlib.util.find_spec(module).origin).read_text(encoding="utf-8"))
    found = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name)}
    return [ast.literal_eval(found[n]) for n in names]


def check_names(params: dict, source: str = "params.yaml") -> None:
    """Every dataset, metric and encoding named by an experiment must exist."""
    from termweight import datasets, scoring

    (BASE_ENCODINGS,) = _literals("termweight.encoding", "BASE_ENCODINGS")

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


def check_benchmark(params: dict, source: str = "params.yaml") -> None:
    """The benchmark's datasets, weightings and learners must exist; run names must be free."""
    from termweight import datasets, scoring
    from termweight.learners.registry import one_vs_rest
    from termweight.weighting import LEARNED, encoding_parts

    learners = [spec.name for spec in one_vs_rest()]
    BASE_ENCODINGS, EXTRA_BASES, SKLEARN_BASES = _literals(
        "termweight.encoding", "BASE_ENCODINGS", "EXTRA_BASES", "SKLEARN_BASES")

    from termweight.settings import benchmark_runs
    from termweight.weighting import benchmark_encodings, group_of, groups

    b = params["benchmark"]
    if "modules" in b:  # the column stages' modules: those of the weightings, no more, no less
        want = list(dict.fromkeys(group_of(e) for e in benchmark_encodings(b["weightings"])))
        extra = [m for m in b["modules"] if m not in want]
        missing = [m for m in want if m not in b["modules"]]
        if extra or missing:
            raise ConfigError(f"{source}: benchmark/modules: "
                              + (f"{missing} missing" if missing else f"{extra} not used")
                              + f" (the weightings' modules are {want}; known: "
                              f"{', '.join(groups())})")
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
            known = BASE_ENCODINGS + EXTRA_BASES + tuple(SKLEARN_BASES)
            if base not in known:
                raise ConfigError(f"{source}: benchmark/weightings: {enc!r}: unknown base {base!r}; "
                                  f"known: {', '.join(known)}")
            if base in SKLEARN_BASES and metric is not None:
                raise ConfigError(f"{source}: benchmark/weightings: {enc!r}: scikit-learn's "
                                  f"{base} takes no supervised weighting")
            if metric is not None and metric not in scoring.METRICS and metric not in LEARNED:
                raise ConfigError(f"{source}: benchmark/weightings: {enc!r}: unknown weighting "
                                  f"{metric!r}; known: {', '.join(sorted(scoring.METRICS))}, "
                                  f"{', '.join(LEARNED)}")
        for i, c in enumerate(params["benchmark"].get("comparisons") or []):
            for side in ("a", "b"):
                if c[side] not in run["encodings"]:
                    raise ConfigError(f"{source}: benchmark/comparisons/{i}/{side}: "
                                      f"{c[side]!r} is not one of the benchmark's weightings")


def _schema_for(path: Path, schema_path) -> Path:
    if schema_path is not None:
        return Path(schema_path)
    # the workflow's schema beside the params file, else this checkout's
    candidates = [path.parent / SCHEMA_REL, Path(__file__).resolve().parents[3] / SCHEMA_REL]
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


def _exit_with(exc: ConfigError) -> None:
    print(f"termweight: config error: {_one_line(str(exc), 2000)}", file=sys.stderr)
    raise SystemExit(2) from None


def check_config_files(configfiles) -> None:
    """Strict read of config files before Snakemake loads them (``configfile:``): Snakemake's
    loader keeps aliases as shared references, but its config merge copies every mapping, so a
    1 KB alias bomb expanded to 10**9 dicts (2.7 GB, 30 s) before ``check_workflow_config``
    ran. A missing file is left to Snakemake. Errors: one line, exit status 2."""
    try:
        for f in configfiles:
            if Path(f).exists():
                read_yaml(f)
    except ConfigError as exc:
        _exit_with(exc)


def check_workflow_config(config: dict, configfiles=(), schema_path=SCHEMA_REL) -> None:
    """Snakemake's config check: strict re-read of its config files, then ``validate``.

    On an error, print the same one line as the CLI (``config error: <file>: <key>: ...``) and
    exit with status 2 instead of Snakemake's dump of the whole schema.
    """
    try:
        for f in configfiles:
            read_yaml(f)  # duplicate keys and YAML errors, with file and line
        source = ", ".join(map(str, configfiles)) or "config"
        validate(config, read_yaml(schema_path, what="params schema"), source=source)
    except ConfigError as exc:
        _exit_with(exc)
