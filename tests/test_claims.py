"""Claims with verdicts: the checked format, the tallies, and the tables of the PDF, the README
and the docs pages (the LaTeX one compiled by pdfLaTeX)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from workflow_utils import require_tex

from termweight.experiments import claims, report
from termweight.runner.errors import TermweightError


def _claim(**kw):
    base = {"id": "gain", "claim": "BNS beats TF-IDF by 7 F points", "where": "Sec. 4.1",
            "published": "+7", "test": "paired t-test over 110 tasks",
            "result": "+3.1 points, t = 4.2, p < 0.001", "verdict": "partly",
            "cause": "bias regularised: probe gives +5.4 & 50% of the gap"}
    return {**base, **kw}


@pytest.mark.parametrize("change, message", [
    ({"verdict": "holds"}, "verdict 'holds' is not one of"),
    ({"cause": ""}, "needs a 'cause'"),
    ({"id": "Gain!"}, "must match"),
    ({"claim": "  "}, "key 'claim' is empty"),
    ({"result": "p \u2264 0.01"}, "must be ASCII"),
    ({"result": 0.01}, "must be a string"),
    ({"extra": "x"}, "unknown key(s) 'extra'"),
])
def test_a_bad_claim_is_one_error_naming_it(change, message):
    with pytest.raises(TermweightError, match=r"m\.json: claims\[1\]: .*" + message.replace(
            "(", r"\(").replace(")", r"\)")):
        claims.check_claims([_claim(id="first"), _claim(**change)], "m.json")


def test_repeated_ids_and_missing_keys_are_refused():
    with pytest.raises(TermweightError, match="id 'gain' is repeated"):
        claims.check_claims([_claim(), _claim()], "m.json")
    bad = _claim()
    del bad["test"]
    with pytest.raises(TermweightError, match="missing key"):
        claims.check_claims([bad], "m.json")
    with pytest.raises(TermweightError, match="must be a list"):
        claims.check_claims({"gain": _claim()}, "m.json")


def test_a_reproduced_claim_needs_no_cause_and_the_tally_counts_tested_claims():
    rows = [_claim(id="a", verdict="reproduced", cause=""), _claim(id="b"),
            _claim(id="c", verdict="not testable", cause="needs the 8 missing datasets"),
            _claim(id="d", verdict="reproduced", cause="")]
    t = claims.tally(rows)
    assert t == {"reproduced": 2, "partly": 1, "not reproduced": 0, "inconclusive": 0,
                 "not testable": 1, "tested": 3}
    # one definition: the not-testable claims are outside the denominator, and said so
    assert claims.tally_text(rows) == "2 of 3 tested (1 partly), 1 not testable"
    assert claims.tally_text(rows[:1]) == "1 of 1 tested"
    assert "outside the denominator" in claims.TALLY_RULE


def test_markdown_table_has_a_row_per_claim_and_keeps_cells_whole():
    md = claims.markdown_table([_claim(id="a", result="x | y"), _claim(id="b")])
    lines = md.strip().splitlines()
    assert len(lines) == 4 and all(line.count(" | ") == 5 for line in lines[:1] + lines[2:])
    assert "x / y" in md and "partly: bias regularised" in md


def test_latex_table_compiles_with_special_characters(tmp_path):
    require_tex()
    table = claims.latex_table("Forman (2008)", [_claim(id="a"), _claim(
        id="b", verdict="reproduced", cause="", result="p < 0.01, 100% of tasks, x_1 > {y}, ||w||^2")],
        "tab:forman-claims")
    assert "1 of 2 tested (1 partly)" in table
    doc = tmp_path / "t.tex"
    doc.write_text("\\documentclass{article}\\usepackage{array,booktabs,longtable}\\begin{document}\n"
                   + table + "\\end{document}\n")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    text = subprocess.run(["pdftotext", "t.pdf", "-"], cwd=tmp_path, capture_output=True,
                          text=True).stdout
    text = " ".join(text.split())
    assert "1 > {y}" in text and "p < 0.01, 100% of tasks" in text
    assert "||w||" in text  # not the em dashes OT1 prints for a bare |


def _reports(tmp_path, repo, with_claims: bool):
    reports = tmp_path / "reports"
    (reports / "metrics").mkdir(parents=True)
    for name in ("kim", "forman"):
        metrics = json.loads((repo / f"reports/metrics/{name}.json").read_text())
        metrics.pop("claims", None)
        if with_claims and name == "kim":
            metrics["claims"] = [_claim(id="a", verdict="reproduced", cause=""), _claim(id="b")]
        (reports / "metrics" / f"{name}.json").write_text(json.dumps(metrics))
    return reports


def test_readme_and_pdf_show_the_tally_per_paper(tmp_path, repo):
    reports = _reports(tmp_path, repo, with_claims=True)
    md = report.summary_markdown(reports, repo / "src/termweight/experiments/published")
    assert md.splitlines()[0].startswith("| paper | claims reproduced |")
    kim = next(line for line in md.splitlines() if line.startswith("| Kim"))
    assert "| 1 of 2 tested (1 partly) |" in kim
    forman = next(line for line in md.splitlines() if line.startswith("| Forman"))
    assert forman.split(" | ")[1] == "-"  # ran, but no claims list
    tex = report.claims_section(reports)
    assert r"\label{tab:kim-claims}" in tex and "No claims assessed" in tex
    # the decision rules once per paper with claims, after its table
    assert tex.count("verdicts are decided.}") == 1
    assert tex.index("verdicts are decided.}") > tex.index(r"\label{tab:kim-claims}")


def test_every_paper_states_its_decision_rules_once():
    """Each paper's declaration carries the rules of its verdicts (shown once under its claims
    table), naming its test and what 'inconclusive' or equivalence means for it."""
    from termweight.experiments.papers import papers

    for name, paper in papers().items():
        rules = paper.claim_rules
        assert rules and rules.isascii(), name
        assert "reproduced" in rules and ("test" in rules or "TOST" in rules), name


def test_a_bad_claims_list_in_a_metrics_file_names_the_file(tmp_path, repo):
    reports = _reports(tmp_path, repo, with_claims=False)
    path = reports / "metrics" / "kim.json"
    metrics = json.loads(path.read_text())
    metrics["claims"] = [_claim(verdict="maybe")]
    path.write_text(json.dumps(metrics))
    with pytest.raises(TermweightError, match=r"kim\.json: key 'claims': claims\[0\]: verdict"):
        report.paper_claims(reports)


def test_docs_blocks_are_written_and_checked(tmp_path, repo):
    reports = _reports(tmp_path, repo, with_claims=True)
    docs = tmp_path / "papers"
    docs.mkdir()
    for page in (repo / "docs/papers").glob("*.md"):
        shutil.copy2(page, docs / page.name)
    cmd = [sys.executable, "-m", "termweight", "report-summary", "--reports", str(reports),
           "--docs", str(docs)]
    stale = subprocess.run(cmd + ["--check"], capture_output=True, text=True)
    assert stale.returncode == 2 and ".md: the generated block differs" in stale.stderr
    assert subprocess.run(cmd, capture_output=True, text=True).returncode == 0
    assert "Claims reproduced: 1 of 2 tested (1 partly) (reproduced of" in (docs / "kim.md").read_text()
    assert "not run" in (docs / "esuli.md").read_text()
    assert subprocess.run(cmd + ["--check"], capture_output=True, text=True).returncode == 0
