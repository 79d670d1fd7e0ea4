"""params.yaml validation: unknown keys, bad values and unknown names stop with a clear message."""

import copy
from pathlib import Path

import pytest
import yaml

from termweight.runner.config import load_params, validate
from termweight.runner.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
SCHEMA = yaml.safe_load((REPO / "workflow/schemas/params.schema.yaml").read_text())
PARAMS = yaml.safe_load((REPO / "params.yaml").read_text())


def check(mutate, match):
    p = copy.deepcopy(PARAMS)
    mutate(p)
    with pytest.raises(ConfigError, match=match):
        validate(p, SCHEMA)


def test_repository_params_are_valid():
    assert load_params(REPO / "params.yaml")["experiments"]


def test_unknown_top_level_key():
    check(lambda p: p.update(sed=1), r"\(top level\).*'sed' was unexpected")


def test_unknown_experiment_key_names_the_path():
    check(lambda p: p["experiments"]["slice"].update(encodign=["tf"]),
          r"experiments/slice.*'encodign' was unexpected")


def test_bad_value():
    check(lambda p: p["experiments"]["slice"]["protocol"].update(folds=1),
          r"experiments/slice/protocol/folds: 1 is less than the minimum of 2")


def test_unknown_dataset():
    check(lambda p: p["experiments"]["slice"].update(dataset="nosuch"),
          r"unknown dataset 'nosuch'")


def test_unknown_metric_and_encoding():
    check(lambda p: p["experiments"]["slice"].update(scores=["bns", "magic"]),
          r"unknown metric 'magic'")
    check(lambda p: p["experiments"]["slice"].update(encodings=["okapi"]),
          r"unknown base encoding 'okapi'")
    check(lambda p: p["experiments"]["slice"].update(encodings=["binary-ig"]),
          r"scales by 'ig', which is not in this experiment's scores")


def test_params_file_elsewhere_is_checked_against_this_checkouts_schema(tmp_path):
    # a copy of params.yaml outside a workflow directory: the checkout's schema still applies
    good = tmp_path / "params.yaml"
    good.write_text((REPO / "params.yaml").read_text())
    assert load_params(good)["kim"]["datasets"]
    bad = copy.deepcopy(PARAMS)
    bad["kim"]["minimax"]["normalize"] = "l1"
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(bad))
    with pytest.raises(ConfigError, match="normalize"):
        load_params(tmp_path / "bad.yaml")


@pytest.mark.parametrize("rel", ["params.yaml", "workflow/schemas/params.schema.yaml",
                                 "dvc.yaml", "workflow/benchmark/dvc.yaml", "envs/termweight.yaml"])
def test_libyaml_reader_equals_the_pure_python_strict_reader(rel):
    """read_yaml parses with libyaml (fast) under the same strict rules as StrictLoader."""
    from termweight.runner.config import StrictLoader, _FastLoader, read_yaml

    path = REPO / rel
    text = path.read_text(encoding="utf-8")
    assert read_yaml(path) == yaml.load(text, Loader=StrictLoader)  # noqa: S506
    assert yaml.load(text, Loader=_FastLoader) == yaml.load(text, Loader=StrictLoader)  # noqa: S506


def test_libyaml_reader_refuses_duplicate_keys_too():
    from termweight.runner.config import _FastLoader

    with pytest.raises(yaml.constructor.ConstructorError, match="duplicate key 'a'"):
        yaml.load("a: 1\nb: 2\na: 3\n", Loader=_FastLoader)  # noqa: S506
