"""The documentation site: API reference coverage, one example page per family, and a build
with no warning. (Every snippet runs in tests/test_doc_snippets.py.)"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """``mkdocs build --strict`` once for this module: ``(completed process, site directory)``."""
    out = tmp_path_factory.mktemp("docs") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(out), "--config-file", str(REPO / "mkdocs.yml")],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    return run, out


def _page(site, path: str) -> str:
    run, out = site
    if run.returncode != 0:
        pytest.fail("mkdocs build --strict failed:\n" + run.stdout + run.stderr)
    return (out / path).read_text(encoding="utf-8")


def _text(html: str) -> str:
    """The visible text of a page, without code blocks (``<pre>``) and without markup."""
    html = re.sub(r"<pre\b.*?</pre>", " ", html, flags=re.S)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", "", html))


def _pages(site) -> dict[str, str]:
    _page(site, "index.html")
    return {str(p.relative_to(site[1])): p.read_text(encoding="utf-8")
            for p in sorted(site[1].rglob("*.html")) if p.name != "404.html"}


def test_mkdocs_build_strict(site):
    """``mkdocs build --strict``: any warning (broken link or cross-reference, bad docstring,
    orphan page) fails."""
    page = _page(site, "api/encoding/index.html")
    assert 'id="termweight.encoding.SupervisedScaler"' in page  # docstrings were rendered


SPHINX_ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|ref|obj|exc):`?")


def test_no_literal_sphinx_role_on_any_page(site):
    """Sphinx roles are not Markdown: ``:func:`x``` would be printed as it is."""
    found = {name: sorted(set(SPHINX_ROLE.findall(_text(html))))
             for name, html in _pages(site).items()}
    found = {name: roles for name, roles in found.items() if roles}
    assert not found, found


def test_no_page_mentions_the_spec_file_users_do_not_have(site):
    """The methods page replaces the project's private spec: no page names METHODS.md."""
    bad = [name for name, html in _pages(site).items() if "METHODS.md" in html]
    assert not bad, bad


def test_no_restructuredtext_table_in_the_api_pages(site):
    """An RST ``=====  =====`` table is not Markdown: it renders as one run-on paragraph."""
    bad = [name for name, html in _pages(site).items()
           if name.startswith("api") and re.search(r"={4,} +={4,}", _text(html))]
    assert not bad, bad


def _tables(html: str) -> list[str]:
    return [_text(t) for t in re.findall(r"<table\b.*?</table>", html, flags=re.S)]


def test_scoring_metric_table_renders_as_a_table(site):
    """The scoring module's table of metrics is an HTML table (one row per metric), and so is
    the table of the rules that combine the classes' scores."""
    tables = _tables(_page(site, "api/scoring/index.html"))
    metric = [t for t in tables if all(re.search(rf"\b{m}\b", t) for m in ("bns", "chi2", "pmi", "dfreq"))]
    assert metric, "no <table> lists the metrics on the scoring API page"
    assert any(re.search(r"\bmax\b", t) and re.search(r"\bavg\b", t) for t in tables), \
        "no <table> lists the rules max and avg on the scoring API page"


HEADING = re.compile(r'id="(termweight(?:\.\w+)+)" class="doc doc-heading"')
ROW = re.compile(r"<tr\b.*?</tr>", flags=re.S)
CELL = re.compile(r"<td\b.*?>(.*?)</td>", flags=re.S)


def _parameter_rows(html: str):
    """``(object path, parameter, rendered default)`` of every row of a Parameters table."""
    heads = list(HEADING.finditer(html))
    for i, head in enumerate(heads):
        chunk = html[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(html)]
        m = re.search(r"Parameters:.*?<tbody>(.*?)</tbody>", chunk, flags=re.S)
        if not m:
            continue
        for row in ROW.findall(m.group(1)):
            cells = [" ".join(_text(c).split()) for c in CELL.findall(row)]
            if len(cells) == 4:
                yield head.group(1), cells[0].lstrip("*"), cells[3]


def _resolve(path: str):
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(path)


def _renders(default) -> set[str]:
    if default is inspect.Parameter.empty:
        return {"required"}
    return {repr(default), str(default), getattr(default, "__name__", repr(default))}


def test_rendered_defaults_are_the_signatures(site):
    """The Default column of every parameter table on the API pages is the signature's default
    (the issue: TermEncoder's table said "binary", its signature 'tf')."""
    rows, bad = 0, []
    for name, html in _pages(site).items():
        if not name.startswith("api"):
            continue
        for path, param, shown in _parameter_rows(html):
            obj = _resolve(path)
            sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
            if param not in sig.parameters or sig.parameters[param].kind in (
                    inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                continue
            rows += 1
            default = sig.parameters[param].default
            try:
                same = ast.literal_eval(shown) == default and shown != "required"
            except (ValueError, SyntaxError):
                same = False
            if not (same or shown in _renders(default)):
                bad.append(f"{path}({param}): page shows {shown!r}, signature {default!r}")
    assert rows > 40, rows
    assert not bad, "\n".join(bad)


METHOD_ANCHORS = ("methods-preprocessing", "methods-scoring", "methods-ordinal", "methods-encoding",
                  "methods-selection", "methods-learners", "methods-evaluation", "methods-experiments")


def test_methods_page_has_every_anchor_and_docstrings_link_to_it(site):
    page = _page(site, "methods/index.html")
    for anchor in METHOD_ANCHORS:
        assert f'id="{anchor}"' in page, anchor
    # the autorefs in docstrings (``[methods: scoring][methods-scoring]``) resolved to it
    api = "".join(html for name, html in _pages(site).items() if name.startswith("api"))
    assert re.search(r'href="[./]*methods/#methods-[a-z]+"', api)


def test_methods_page_markdown_anchors_match_the_tests():
    text = (DOCS / "methods.md").read_text(encoding="utf-8")
    assert re.findall(r"\{#(methods-[a-z]+)\}", text) == list(METHOD_ANCHORS)
