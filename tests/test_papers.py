"""A paper is one package: a toy sixth paper, written as a user would (its package, its params.yaml
section and that section's schema entry, nothing else), runs to the PDF under Snakemake and DVC."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from test_doc_snippets import merge_schema, tutorial_files
from test_pipeline import one_graph_problems
from workflow_utils import REPO, copy_project, env, pdf_text, require_tex

from termweight.experiments.papers import papers
from termweight.pipeline import dvcyaml

pytestmark = pytest.mark.slow

PAGE = REPO / "docs/extending.md"  # its section "A whole paper: one package"


def _toy() -> tuple[dict[str, str], dict, dict]:
    """The page's toy paper: its package files, its params.yaml section, its schema entry."""
    files = tutorial_files(PAGE)
    package = {k: v for k, v in files.items() if k.startswith("src/termweight/experiments/toy/")}
    params = {"toy": yaml.safe_load(files["params.yaml"])["toy"]}
    schema = yaml.safe_load(files["workflow/schemas/params.schema.yaml"])
    return package, params, schema


def _run(root: Path, *argv: str) -> str:
    e = env()
    e["PYTHONPATH"] = str(root / "src")  # the project's own src/, with the new package
    res = subprocess.run(list(argv), cwd=root, env=e, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, f"{argv}:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res.stdout + res.stderr


def test_a_sixth_paper_is_one_package(slice_reported, tmp_path):
    require_tex()
    root = copy_project(slice_reported, tmp_path / "project")
    package, section, schema = _toy()
    # what a user touches: the package, a section of params.yaml, its schema entry
    for rel, text in package.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    params = yaml.safe_load((root / "params.yaml").read_text()) | section
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    merge_schema(root, schema)

    # discovered: a target, a DVC stage, a line of `list experiments`
    listed = _run(root, "python", "-m", "termweight", "list", "experiments")
    assert "Toy (2026): the share of each class" in listed and "all six papers" in listed
    _run(root, "python", "-m", "termweight", "dvc-yaml")
    stages = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    assert "src/termweight/experiments/toy/__init__.py" in dvcyaml.digested_code(stages, "toy_run")
    assert "src/termweight/experiments/toy/section.tex" in stages["report"]["deps"]

    # Snakemake: the paper's target, then the PDF with its section and its summary row
    _run(root, "snakemake", "--cores", "2", "toy")
    table = (root / "reports/tables/toy_classes.tex").read_bytes()
    metrics = (root / "reports/metrics/toy.json").read_bytes()
    _run(root, "snakemake", "--cores", "2")
    text = pdf_text(root / "reports/paper.pdf")
    assert "Toy (2026): a sixth paper" in text and "largest class share" in text
    assert "business" in text  # its table: a class of bbc

    # DVC runs the same stage and writes the same bytes, and its report stage builds the PDF with
    # the paper in it (--single-item: the other papers' stages are not run here)
    _run(root, "dvc", "repro", "--force", "toy_run")
    assert (root / "reports/tables/toy_classes.tex").read_bytes() == table
    assert (root / "reports/metrics/toy.json").read_bytes() == metrics
    (root / "reports/paper.pdf").unlink()
    _run(root, "dvc", "repro", "--force", "--single-item", "code_report", "report")
    text = pdf_text(root / "reports/paper.pdf")
    assert "Toy (2026): a sixth paper" in text and "largest class share" in text

    # one graph: Snakemake's job for the toy is DVC's stage
    problems = one_graph_problems(root, ["toy"], "step", only_owned=True)
    assert not problems, problems


def test_the_papers_are_declared_once():
    """Every paper of the report has its declaration; the five reproduced ones, in order."""
    declared = papers()
    assert list(declared)[:5] == ["esuli", "mukras", "forman", "kim", "ferreira"]
    for name, p in declared.items():
        assert p.readme_rows and p.title and p.description, name
