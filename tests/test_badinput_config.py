"""A params.yaml cannot make the loader, the CLI or Snakemake consume unbounded memory or time.

YAML aliases are refused by both loaders (libyaml's and the pure-Python one) and before
Snakemake's own ``configfile:`` load; error messages show bounded reprs, never a whole document;
seeds, folds, repeats and grids have maxima; :func:`split_names` refuses too many splits before
building their list. Measured on the code before: a 1 KB alias bomb took the CLI to 1.6 GB and
Snakemake to 2.7 GB (then MemoryError); ``folds: 1000000`` made ``snakemake -n`` hang.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc

import pytest
import yaml
from test_badinput import GOOD_PARAMS, REPO, assert_one_line_error, run_cli, workdir  # noqa: F401
from workflow_utils import make_project, run

from termweight.runner import config
from termweight.runner.errors import ConfigError
from termweight.splits import split_names


def alias_bomb(kind: str = "list", levels: int = 9) -> str:
    """``levels`` nested anchors of ten aliases each: 10**levels values once expanded (1 KB)."""
    if kind == "list":
        lines = ["x-l0: &l0 [" + ", ".join(['"xxxxxxxx"'] * 10) + "]"]
        lines += [f"x-l{k}: &l{k} [" + ", ".join([f"*l{k - 1}"] * 10) + "]"
                  for k in range(1, levels)]
    else:
        lines = ["x-l0: &l0 {" + ", ".join(f"k{i}: x" for i in range(10)) + "}"]
        lines += [f"x-l{k}: &l{k} {{" + ", ".join(f"k{i}: *l{k - 1}" for i in range(10)) + "}"
                  for k in range(1, levels)]
    return GOOD_PARAMS + "\n".join(lines) + "\n"


FIRST_ALIAS_LINE = GOOD_PARAMS.count("\n") + 2  # the second bomb line holds the first alias


@pytest.mark.parametrize("kind", ["list", "dict"])
@pytest.mark.parametrize("loader", ["fast", "strict"])
def test_aliases_are_refused_by_both_loaders(tmp_path, monkeypatch, kind, loader):
    if loader == "strict":
        monkeypatch.setattr(config, "_FastLoader", config.StrictLoader)
    path = tmp_path / "params.yaml"
    path.write_text(alias_bomb(kind), encoding="utf-8")
    tracemalloc.start()
    with pytest.raises(ConfigError) as err:
        config.read_yaml(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20e6, peak  # refused before expanding (no timing asserted: memory is exact)
    assert str(err.value) == (f"{path}:{FIRST_ALIAS_LINE}: YAML aliases (*l0) are not allowed "
                              "(they can expand to billions of values): repeat the value instead")
    with pytest.raises(yaml.YAMLError, match=r"aliases \(\*l0\)"):
        yaml.load(path.read_text(), Loader=config.StrictLoader)  # noqa: S506


@pytest.mark.parametrize("text, expected", [
    ("a: &x {k: 1}\nb:\n  <<: *x\n", ":3: YAML aliases (*x)"),  # merge keys need an alias
    ("a: &x [*x]\n", ":1: YAML aliases (*x)"),  # recursive
    ("a: *nowhere\n", ":1: YAML aliases (*nowhere)"),
    ("a: " + "[" * 100_000 + "]" * 100_000 + "\n", ":1: nested more than 64 levels deep"),
    ("seed: " + "1" * 5000 + "\n", ":1: an integer of 5000 characters (at most 100)"),
])
def test_costly_yaml_is_one_line(tmp_path, text, expected):
    path = tmp_path / "p.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="^" + str(path).replace("\\", "\\\\")) as err:
        config.read_yaml(path)
    assert expected in str(err.value) and "\n" not in str(err.value)


def test_oversized_file_is_refused_unread(tmp_path):
    path = tmp_path / "params.yaml"
    path.write_bytes(b"# " + b"x" * config.MAX_YAML_BYTES + b"\n")
    with pytest.raises(ConfigError, match=r"params file of \d+ bytes; at most 1048576"):
        config.read_yaml(path)


def test_committed_yaml_has_no_aliases():
    """What the project ships parses under the alias rule (none uses anchors or merge keys)."""
    for rel in ("params.yaml", "workflow/schemas/params.schema.yaml", "dvc.yaml",
                "workflow/benchmark/dvc.yaml"):
        config.read_yaml(REPO / rel)
        yaml.load((REPO / rel).read_text(encoding="utf-8"), Loader=config.StrictLoader)  # noqa: S506


def test_messages_are_bounded_and_never_repr_the_whole_value():
    """Our part of a message reprs a few elements (reprlib), whatever the value's size."""
    calls = []

    class Item:
        def __repr__(self):
            calls.append(1)
            return "item"

    big = [Item() for _ in range(10**5)]
    assert config._short(big) == "[item, item, item, item, ...]" and len(calls) == 4
    assert len(config._short({"k" * 10**6: ["x" * 10**6] * 10**3})) <= 60

    schema = {"type": "object", "additionalProperties": False,
              "properties": {"xs": {"type": "string"}, "n": {"maximum": 3},
                             "e": {"enum": ["a", "b"]}}}
    for params, expected in [
        ({"xs": list(range(10**5))}, "xs: [0, 1, 2, 3, ...] is not of type string"),
        ({"n": 4}, "n: 4 is greater than the maximum of 3"),
        ({"e": "c" * 10**5}, "e: 'cccccccccc"),
        ({f"k{i}" * 50: 1 for i in range(50)},
         "(top level): Additional properties are not allowed ('k0k0k0"),
    ]:
        with pytest.raises(ConfigError) as err:
            config.validate(params, schema, source="p.yaml")
        msg = str(err.value)
        assert msg.startswith(f"p.yaml: {expected}") and len(msg) < 300, msg


@pytest.mark.parametrize("edit, key, limit", [
    (("seed: 20081026", "seed: 4294967296"), "seed: 4294967296", "maximum of 2147483647"),
    (("      folds: 4\n", "      folds: 1000000\n"), "experiments/slice/protocol/folds: 1000000",
     "maximum of 100"),
    (("      repeats: 2\n", "      repeats: 100000\n"),
     "experiments/slice/protocol/repeats: 100000", "maximum of 1000"),
    (("  folds: 4\n  # CV seeds", "  folds: 4000\n  # CV seeds"), "forman/folds: 4000",
     "maximum of 100"),
])
def test_schema_maxima_name_the_key(workdir, capsys, monkeypatch, edit, key, limit):  # noqa: F811
    assert edit[0] in GOOD_PARAMS
    (workdir / "params.yaml").write_text(GOOD_PARAMS.replace(*edit, 1), encoding="utf-8")
    code, err = run_cli("split", "--params", "params.yaml", "--exp", "slice", "--corpus", "corpus",
                        "--out-dir", "splits", cwd=workdir, capsys=capsys,
                        monkeypatch=monkeypatch)
    assert_one_line_error(code, err, [f"params.yaml: {key} is greater than the {limit}"], "split")
    assert not (workdir / "splits").exists()


def test_seed_out_of_numpys_range_through_the_entry_point(workdir):  # noqa: F811
    (workdir / "params.yaml").write_text(GOOD_PARAMS.replace("seed: 20081026", "seed: 4294967296"),
                                         encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "termweight", "split", "--params", "params.yaml",
                          "--exp", "slice", "--corpus", "corpus", "--out-dir", "splits"],
                         cwd=workdir, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip() == ("termweight split: error: params.yaml: seed: 4294967296 is "
                                  "greater than the maximum of 2147483647")


def test_split_names_refuses_before_building_the_list():
    tracemalloc.start()
    with pytest.raises(ConfigError, match=r"^folds x repeats = 1000000 x 1000 = 1000000000 splits, "
                                          r"more than 1000$"):
        split_names({"type": "kfold", "folds": 10**6, "repeats": 1000})
    with pytest.raises(ConfigError, match=r"^repeats = 1001 splits, more than 1000$"):
        split_names({"type": "random", "repeats": 1001})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1e6, peak  # a list of a billion names was never built
    assert len(split_names({"type": "kfold", "folds": 10, "repeats": 100})) == 1000
    assert split_names({"type": "balanced", "repeats": 2}) == ["r0", "r1"]


def test_split_count_within_maxima_is_refused_with_its_key(workdir, capsys, monkeypatch):  # noqa: F811
    params = GOOD_PARAMS.replace("      folds: 4\n", "      folds: 100\n", 1).replace(
        "      repeats: 2\n", "      repeats: 1000\n", 1)
    (workdir / "params.yaml").write_text(params, encoding="utf-8")
    code, err = run_cli("split", "--params", "params.yaml", "--exp", "slice", "--corpus", "corpus",
                        "--out-dir", "splits", cwd=workdir, capsys=capsys,
                        monkeypatch=monkeypatch)
    assert_one_line_error(code, err, ["params.yaml: experiments/slice/protocol: folds x repeats = "
                                      "100 x 1000 = 100000 splits, more than 1000"], "split")


@pytest.mark.parametrize("content, expected", [
    ("alias-bomb", ":{line}: YAML aliases (*l0) are not allowed"),
    ("folds", ": experiments/slice/protocol/folds: 1000000 is greater than the maximum of 100"),
])
def test_snakemake_dry_run_refuses_quickly(tmp_path, content, expected):
    """A real ``snakemake -n``: one line naming params.yaml, exit 2 (before: a 1 KB
    dict-alias bomb reached 2.7 GB in Snakemake's config merge; folds 10**6 hung)."""
    project = make_project(tmp_path / "p", {})
    good = (project / "params.yaml").read_text(encoding="utf-8")
    if content == "alias-bomb":
        text = good + alias_bomb("dict")[len(GOOD_PARAMS):]
        expected = expected.format(line=good.count("\n") + 2)
    else:
        assert "folds: 4\n" in good  # make_project keeps the repository's experiment slice
        text = good.replace("folds: 4\n", "folds: 1000000\n", 1)
    (project / "params.yaml").write_text(text, encoding="utf-8")
    # the timeout stops a hang; no duration is asserted (a loaded machine is slower)
    res = run(["snakemake", "-n", "--cores", "1"], project, check=False, timeout=120)
    assert res.returncode == 2, res.stderr[-2000:]
    line = res.stderr.strip()
    assert "\n" not in line and line.startswith(f"termweight: config error: params.yaml{expected}"), line
