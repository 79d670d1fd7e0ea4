"""The documentation site: API reference coverage, one example page per family, and a build
with no warning. (Every snippet runs in tests/test_doc_snippets.py.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "```python" in p.read_text(encoding="utf-8"))
BLOCK = re.compile(r"^```python\n(.*?)^```", flags=re.S | re.M)


def test_every_example_family_has_a_page_with_code():
    for family in ("scoring", "encoding", "selection", "learners"):
        assert DOCS / "examples" / f"{family}.md" in PAGES


# The pages' ```python blocks run (in a fresh interpreter each, so a page that registers a metric
# or a dataset cannot leak it into other tests) in tests/test_doc_snippets.py.


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
