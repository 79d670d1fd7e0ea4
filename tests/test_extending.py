"""docs/extending.md, run for real: its dataset file and its experiment are written into a copy of
the project (the small offline configuration, already built: conftest's ``slice_smk``), the
README's run command runs the new experiment end to end, the new dataset reruns nothing that
existed before it, and DVC, given the experiment's per-encoding stanzas as the page says, writes
the same bytes."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from test_doc_snippets import merge_params, tutorial_files
from test_pipeline import graph_problems
from workflow_utils import REPO, add_experiment_stages, copy_project, env

pytestmark = pytest.mark.slow

PAGE = REPO / "docs/extending.md"


def run_in(root, cmd, **kw):
    e = env()
    e["PYTHONPATH"] = str(root / "src")  # the project's own src/, with the tutorial's file
    import subprocess

    res = subprocess.run(cmd, cwd=root, env=e, capture_output=True, text=True, timeout=900, **kw)
    assert res.returncode == 0, f"{cmd}:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res.stdout + res.stderr


def test_a_new_dataset_and_experiment_as_the_page_says(slice_smk, tmp_path):
    root = copy_project(slice_smk, tmp_path / "project")  # the slice exists (`experiments` ran)

    files = tutorial_files(PAGE)
    frag = yaml.safe_load(files.pop("params.yaml"))
    (rel, body), = [(k, v) for k, v in files.items()  # the dataset declaration
                    if k.startswith("src/termweight/datasets/")]
    (root / rel).write_text(body)
    params = merge_params(yaml.safe_load((root / "params.yaml").read_text()),
                          {"corpora": frag["corpora"], "experiments": frag["experiments"]})
    exp = next(iter(frag["experiments"]))
    params["experiments"][exp]["protocol"]["folds"] = 2  # small, as the rest of SMALL
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))

    listed = run_in(root, ["python", "-m", "termweight", "list", "datasets"])
    assert re.search(rf"^{params['experiments'][exp]['dataset']}\b", listed, re.M)

    # adding the file reruns none of the slice's jobs: only the new experiment's
    plan = run_in(root, ["snakemake", "-n", "--cores", "2", "experiments"])
    planned = re.findall(r"^(?:local)?rule (\w+):\n(?:.*\n)*?\s+wildcards: (.*)$", plan, re.M)
    assert planned and all("slice" not in w and "dataset=bbc," not in w + ","
                           for _, w in planned), planned
    assert "data/documents/bbc/" not in plan

    run_in(root, ["snakemake", "--cores", "2"])  # the README's run command: with the report
    metrics = json.loads((root / f"reports/metrics/{exp}.json").read_text())
    assert metrics["dataset"] == params["experiments"][exp]["dataset"]
    assert set(metrics["encodings"]) == set(params["experiments"][exp]["encodings"])
    for enc in metrics["encodings"].values():
        assert 0.9 < enc["micro_f1"] <= 1.0  # business against tech is easy
    # the PDF has a section for it, built from its metrics
    included = (root / "reports/generated/included.tex").read_text()
    assert f"\\section{{Experiment \\texttt{{{exp.replace('_', chr(92) + '_')}}}}}" in included

    # DVC as the page says: the five per-encoding stanzas copied for the experiment (the corpus
    # and per-experiment stages loop over params.yaml already), then `dvc repro` writes the same
    # bytes as Snakemake, and the two tools have one graph
    table = root / f"reports/tables/{exp}.tex"
    made_by_snakemake = table.read_bytes()
    add_experiment_stages(root, exp)
    # the new module's digest: the `code` stage adds its key to data/code.yaml (`dvc repro` runs
    # it first; Snakemake's rules compute the digests themselves)
    run_in(root, ["dvc", "repro", "--single-item", "code"])
    assert not graph_problems(root, only={"prepare", "tokenize", "count", "split", "stats",
                                          *(f"{s}_{exp}" for s in ("score", "encode", "train",
                                                                  "predict", "evaluate")),
                                          "aggregate", "table", "figure"})
    run_in(root, ["dvc", "repro", f"table@{exp}"])
    assert table.read_bytes() == made_by_snakemake
