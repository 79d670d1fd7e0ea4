"""A paper is one package: a toy sixth paper, written as docs/extending.md says (its package, its
params.yaml section and that section's schema entry, its stanza in dvc.yaml, its rules file:
six files), runs to the PDF under Snakemake and DVC, and both tools have one graph for it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from test_doc_snippets import merge_schema, merge_stages, tutorial_files
from test_pipeline import graph_problems
from workflow_utils import REPO, copy_project, env, pdf_text, require_tex

from termweight.experiments.papers import papers

pytestmark = pytest.mark.slow

PAGE = REPO / "docs/extending.md"  # its section "A whole paper: one package, one stanza, ..."


def _toy() -> dict[str, str]:
    """The page's toy paper: every file it writes or adds to."""
    files = tutorial_files(PAGE)
    keep = ("src/termweight/experiments/toy/", "reports/sections/toy.tex", "workflow/rules/toy.smk",
            "dvc.yaml")
    out = {k: v for k, v in files.items() if k.startswith(keep)}
    out["params.yaml"] = yaml.safe_dump({"toy": yaml.safe_load(files["params.yaml"])["toy"]})
    out["workflow/schemas/params.schema.yaml"] = files["workflow/schemas/params.schema.yaml"]
    return out


def _run(root: Path, *argv: str) -> str:
    e = env()
    e["PYTHONPATH"] = str(root / "src")  # the project's own src/, with the new package
    res = subprocess.run(list(argv), cwd=root, env=e, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, f"{argv}:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res.stdout + res.stderr


def test_a_sixth_paper_is_one_package(slice_reported, tmp_path):
    require_tex()
    root = copy_project(slice_reported, tmp_path / "project")
    files = _toy()
    assert len(files) == 6, sorted(files)  # docs/extending.md's count
    for rel, text in files.items():
        if rel == "params.yaml":
            params = yaml.safe_load((root / rel).read_text()) | yaml.safe_load(text)
            (root / rel).write_text(yaml.safe_dump(params, sort_keys=False))
        elif rel == "workflow/schemas/params.schema.yaml":
            merge_schema(root, yaml.safe_load(text))
        elif rel == "dvc.yaml":
            merge_stages(root, yaml.safe_load(text))
        else:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)

    # discovered: a target, a line of `list experiments`
    listed = _run(root, "python", "-m", "termweight", "list", "experiments")
    assert "Toy (2026): the share of each class" in listed and "all six papers" in listed

    # Snakemake: the paper's target, then the PDF with its section and its summary row
    _run(root, "snakemake", "--cores", "2", "toy")
    table = (root / "reports/tables/toy_classes.tex").read_bytes()
    metrics = (root / "reports/metrics/toy.json").read_bytes()
    _run(root, "snakemake", "--cores", "2")
    text = pdf_text(root / "reports/paper.pdf")
    # its section, and its row of the summary table (it prints no numbers of its own to compare)
    assert "Toy (2026): a sixth paper" in text and "no published numbers recorded yet" in text
    assert "business" in text  # its table: a class of bbc

    # DVC runs the same stage and writes the same bytes
    _run(root, "dvc", "repro", "--force", "toy_run")
    assert (root / "reports/tables/toy_classes.tex").read_bytes() == table
    assert (root / "reports/metrics/toy.json").read_bytes() == metrics

    # one graph: Snakemake's job for the toy is DVC's stage, command, params, files
    assert not graph_problems(root, only={"toy_run"})


def test_the_papers_are_declared_once():
    """Every paper of the report has its declaration; the five reproduced ones, in order."""
    declared = papers()
    assert list(declared)[:5] == ["esuli", "mukras", "forman", "kim", "ferreira"]
    for name, p in declared.items():
        assert p.readme_rows and p.title and p.description, name
