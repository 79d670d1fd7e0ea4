"""The documentation: every ```python block under docs/ runs, and the site builds with no warning."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "```python" in p.read_text(encoding="utf-8"))
BLOCK = re.compile(r"^```python\n(.*?)^```", flags=re.S | re.M)


def test_every_example_family_has_a_page_with_code():
    for family in ("scoring", "encoding", "selection", "learners"):
        assert DOCS / "examples" / f"{family}.md" in PAGES


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_code_blocks_run(page, monkeypatch, tmp_path):
    """The page's blocks run in order in one namespace, as a reader would paste them."""
    monkeypatch.chdir(tmp_path)
    from termweight import scoring

    registry = dict(scoring.METRICS)
    namespace = {"__name__": "__docs__"}
    try:
        for i, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
            exec(compile(block, f"{page.relative_to(REPO)}[block {i}]", "exec"), namespace)
    finally:  # a page may register a metric; never leak it into other tests
        scoring.METRICS.clear()
        scoring.METRICS.update(registry)


def test_api_reference_covers_every_public_module():
    text = "\n".join(p.read_text(encoding="utf-8") for p in (DOCS / "api").glob("*.md"))
    for module in ("termweight", "termweight.scoring", "termweight.statistics",
                   "termweight.encoding", "termweight.selection", "termweight.multiclass",
                   "termweight.learners.boosting", "termweight.learners.modest",
                   "termweight.learners.kim", "termweight.learners.ordinal"):
        assert re.search(rf"^::: {re.escape(module)}$", text, flags=re.M), module


def test_mkdocs_build_strict(tmp_path):
    """``mkdocs build --strict``: any warning (broken link, bad docstring, orphan page) fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(tmp_path / "site"), "--config-file", str(REPO / "mkdocs.yml")],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    page = (tmp_path / "site" / "api" / "encoding" / "index.html").read_text(encoding="utf-8")
    assert 'id="termweight.encoding.SupervisedScaler"' in page  # docstrings were rendered
