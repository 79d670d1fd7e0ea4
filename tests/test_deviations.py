"""The deviations log: every committed claim's rule is the one the log fixes (a rule changed, or a
claim added, without an entry fails here), and the log is generated into the docs and the PDF."""

import copy
import json
from pathlib import Path

import pytest

from termweight.experiments import deviations
from termweight.runner.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def _committed_claims() -> dict:
    out = {}
    for p in ("esuli", "mukras", "forman", "kim", "ferreira"):
        path = ROOT / "reports" / "metrics" / f"{p}.json"
        out[p] = json.loads(path.read_text())["claims"]
    return out


def test_the_log_accounts_for_every_committed_rule():
    assert deviations.check_rules(deviations.load(), _committed_claims()) == []


def test_a_rule_changed_or_a_claim_added_without_an_entry_fails():
    log, claims = deviations.load(), copy.deepcopy(_committed_claims())
    claims["kim"][0]["test"] += " (and a margin chosen after the run)"
    claims["forman"].append({**claims["forman"][0], "id": "a_new_claim"})
    msgs = deviations.check_rules(log, claims)
    assert len(msgs) == 2
    assert any(m.startswith(f"kim/{claims['kim'][0]['id']}: its rule changed") for m in msgs)
    assert any("forman/a_new_claim: a claim the deviations log does not name" in m for m in msgs)
    # an entry naming the new rule accounts for it
    entry = {"id": "x", "rules": {f"kim/{claims['kim'][0]['id']}":
                                  deviations.rule_hash(claims["kim"][0]["test"])}}
    log["entries"].append(entry)
    assert len(deviations.check_rules(log, claims)) == 1


def test_an_entry_without_its_verdicts_is_refused(tmp_path):
    text = (deviations.LOG.read_text()
            .replace("  before:", "  bef0re:", 1))
    bad = tmp_path / "deviations.yaml"
    bad.write_text(text)
    with pytest.raises(ConfigError, match=r"deviations.yaml: entries\[0\] .*missing before"):
        deviations.load(bad)


def test_the_log_is_generated_into_docs_and_the_pdf():
    log = deviations.load()
    md = deviations.markdown(log, "kim")
    assert "kim-20ng-text" in md and "Before:" in md and "After:" in md
    tex = deviations.latex(log, {"kim": "Kim (2016)"})
    assert r"\section{Deviations log" in tex and "kim-corrected-t" in tex
    page = (ROOT / "docs" / "papers" / "kim.md").read_text()
    assert "kim-corrected-t" in page
    generated = (ROOT / "reports" / "generated" / "claims.tex").read_text()
    assert r"\label{sec:deviations}" in generated
