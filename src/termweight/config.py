"""Loading and validating ``params.yaml`` against the JSON schema of the workflow.

The schema (``workflow/schemas/params.schema.yaml``) forbids unknown keys and checks every value;
a violation is a :class:`~termweight.errors.ConfigError` that names the offending key path.
Method and dataset names are checked against the library's registries as well.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema
import yaml

from termweight.errors import ConfigError


def _where(err: jsonschema.ValidationError) -> str:
    return "/".join(str(p) for p in err.absolute_path) or "(top level)"


def validate(params: dict, schema: dict, source: str = "params.yaml") -> dict:
    """Validate ``params`` (filling schema defaults is left to the caller); return it."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(params), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"{source}: {_where(e)}: {e.message}" for e in errors]
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(lines))
    check_names(params, source)
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


def load_params(path, schema_path=None) -> dict:
    """Read and validate a params file against the workflow schema (beside it, else this checkout's)."""
    path = Path(path)
    try:
        params = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if schema_path is None:
        # the workflow's schema beside the params file, else this checkout's
        rel = Path("workflow") / "schemas" / "params.schema.yaml"
        candidates = [path.parent / rel, Path(__file__).resolve().parents[2] / rel]
        schema_path = next((c for c in candidates if c.is_file()), None)
        if schema_path is None:
            raise ConfigError(f"{path}: no params schema found (looked for "
                              f"{' and '.join(map(str, candidates))}); pass one explicitly")
    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    return validate(params, schema, source=str(path))


def encoding_parts(encoding: str) -> tuple[str, str | None]:
    """``"binary-bns"`` -> ``("binary", "bns")``; ``"tfidf"`` -> ``("tfidf", None)``."""
    base, _, metric = encoding.partition("-")
    return base, (metric or None)
