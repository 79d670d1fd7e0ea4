"""`snakemake --report`: the tables, figures and metrics, each in its category with a caption.

The offline default's outputs are in category "Offline default" (subcategory: the experiment);
each paper's in its own category, when the ``papers`` target is reported. Wrapping outputs in
``report(...)`` changes nothing else: a finished workflow still has nothing to do.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest
from workflow_utils import REPO, copy_project, nothing_to_do, run

pytestmark = pytest.mark.slow

CATEGORIES = re.compile(r"var categories = (\{.*?\});\n", re.S)
RESULTS = re.compile(r"var results = (\{.*?\});\n", re.S)


def _report(root, name, *targets):
    """Run ``snakemake --report`` and return (log, {path: bytes} in the zip, categories, results)."""
    res = run(["snakemake", "--cores", "1", "--report", name, *targets], root)
    with zipfile.ZipFile(root / name) as z:
        files = {n: z.read(n) for n in z.namelist()}
    html = next(v for n, v in files.items() if n.endswith("/report.html")).decode()
    categories = json.loads(CATEGORIES.search(html).group(1))
    results = json.loads(RESULTS.search(html).group(1))
    return res.stdout + res.stderr, files, categories, results


@pytest.fixture(scope="module")
def slice_project(slice_reported, tmp_path_factory):
    """The README's run command on the small config (conftest's ``slice_reported``), copied."""
    return copy_project(slice_reported, tmp_path_factory.mktemp("report") / "project")


def test_report_holds_the_slices_table_figure_and_metrics(slice_project):
    root = slice_project
    log, files, categories, results = _report(root, "report.zip")
    wanted = ["reports/metrics/slice.json", "reports/tables/slice.tex", "reports/figures/slice.png"]
    assert sorted(categories["Offline default"]["slice"]) == sorted(wanted)
    by_name = {n.rsplit("/", 1)[1]: v for n, v in files.items()}
    for path in wanted:  # the very bytes of the workspace's file, with its caption
        assert by_name[path.rsplit("/", 1)[1]] == (root / path).read_bytes(), path
        assert "<tt class=\"docutils literal\">slice</tt>" in results[path]["caption"], path
    # every job of the run was Snakemake's own: no "Missing metadata" warning
    assert "Missing metadata" not in log
    assert nothing_to_do(root)


def test_report_of_the_papers_has_each_papers_category(slice_project, tmp_path):
    """The papers' committed results (their rules run for hours, so only reported here)."""
    root = slice_project
    for sub in ("metrics", "tables", "figures", "macros"):
        for f in (REPO / "reports" / sub).glob("*"):
            if not (root / "reports" / sub / f.name).exists():
                shutil.copy2(f, root / "reports" / sub / f.name)
    _, _, categories, results = _report(root, "papers.zip", "all", "papers")
    expected = {"Esuli & Sebastiani (2009)": "esuli", "Mukras et al. (2007)": "mukras",
                "Forman (2008)": "forman", "Kim (2016)": "kim",
                "Ferreira & Figueiredo (2010)": "ferreira"}
    for category, paper in expected.items():
        subs = categories[category]
        assert set(subs) == {"Tables", "Figures", "Metrics"}, (category, set(subs))
        assert subs["Metrics"] == [f"reports/metrics/{paper}.json"]
        listed = [p for paths in subs.values() for p in paths]
        on_disk = {f"reports/{sub}/{f.name}" for sub, ext in (("tables", "tex"), ("figures", "png"))
                   for f in (REPO / "reports" / sub).glob(f"{paper}_*.{ext}")}
        assert set(listed) == on_disk | {f"reports/metrics/{paper}.json"}, category
        for path in listed:
            assert paper in results[path]["caption"] or "docs/papers" in results[path]["caption"]
    assert "reports/figures/slice.png" in categories["Offline default"]["slice"]
