"""The deviations log: every rule, corpus, margin or comparison changed after its result was seen.

``deviations.yaml`` (beside this module) is written by hand, one entry per change: ``id``,
``paper``, ``date``, ``changed_in`` (the commit that made it, or "the commit adding this entry"),
``seen_at`` (where the result it changed was already visible), ``claims`` (the claim ids it
touches), ``what``, ``why`` (with the paper's text where it bears), ``before`` and ``after`` (the
verdicts). It also pins every claim's rule: ``baseline`` maps ``paper/claim`` to the short hash
(``rule_hash``) of the claim's ``test`` text when the log began, and an entry's ``rules`` maps the
claims it changed to their new hashes. A claim's rule is the hash of the last entry naming it,
else the baseline's; ``check_rules`` fails on a committed claim whose rule differs from it, or
that neither names, so a rule cannot change (or a claim appear) without an entry.

The log is generated into each paper's docs page (``markdown``) and the PDF's appendix
(``latex``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from termweight.runner.errors import ConfigError

LOG = Path(__file__).with_name("deviations.yaml")
FIELDS = ("id", "paper", "date", "changed_in", "seen_at", "claims", "what", "why", "before",
          "after")


def rule_hash(test: str) -> str:
    """The first 12 hex digits of SHA-256 over a claim's ``test`` text (its rule)."""
    return hashlib.sha256(test.encode("utf-8")).hexdigest()[:12]


def load(path: Path | str = LOG) -> dict:
    """The log, checked: ``baseline`` a mapping, ``entries`` a list of mappings with every
    field of ``FIELDS`` (``claims`` a list), unique ids; one error naming the file and entry."""
    import yaml

    path = Path(path)
    try:
        log = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ConfigError(f"{path}: cannot read the deviations log ({e})") from None
    if not isinstance(log, dict) or not isinstance(log.get("baseline"), dict) \
            or not isinstance(log.get("entries"), list):
        raise ConfigError(f"{path}: expected a mapping with 'baseline' and 'entries'")
    seen = set()
    for i, e in enumerate(log["entries"]):
        where = f"{path}: entries[{i}]"
        if not isinstance(e, dict):
            raise ConfigError(f"{where}: expected a mapping")
        missing = [f for f in FIELDS if f not in e]
        if missing:
            raise ConfigError(f"{where} ({e.get('id', '?')}): missing {', '.join(missing)}")
        if not isinstance(e["claims"], list) or not isinstance(e.get("rules", {}), dict):
            raise ConfigError(f"{where} ({e['id']}): 'claims' must be a list, 'rules' a mapping")
        if e["id"] in seen:
            raise ConfigError(f"{where}: id {e['id']!r} appears twice")
        seen.add(e["id"])
    return log


def expected_rules(log: dict) -> dict[str, str]:
    """``paper/claim`` -> the rule hash the log fixes: the last entry's that names it, else the
    baseline's."""
    out = {str(k): str(v) for k, v in log["baseline"].items()}
    for e in log["entries"]:
        out.update({str(k): str(v) for k, v in (e.get("rules") or {}).items()})
    return out


def check_rules(log: dict, claims_by_paper: dict[str, list[dict]]) -> list[str]:
    """One message per committed claim whose rule (``rule_hash`` of its ``test``) is not the one
    the log fixes, or that the log does not name; [] when the log accounts for every rule."""
    fixed = expected_rules(log)
    out = []
    for paper, rows in sorted(claims_by_paper.items()):
        for c in rows or []:
            key, h = f"{paper}/{c['id']}", rule_hash(c["test"])
            if key not in fixed:
                out.append(f"{key}: a claim the deviations log does not name (rule {h}): add an "
                           "entry for it")
            elif fixed[key] != h:
                out.append(f"{key}: its rule changed ({fixed[key]} -> {h}) without an entry in "
                           "the deviations log")
    return out


def entries_of(log: dict, paper: str) -> list[dict]:
    return [e for e in log["entries"] if e["paper"] == paper]


def markdown(log: dict, paper: str) -> str:
    """A paper's entries as Markdown (its docs page), newest first; "" without entries."""
    rows = sorted(entries_of(log, paper), key=lambda e: str(e["date"]), reverse=True)
    if not rows:
        return ""
    out = ["", "Deviations: rules, corpora, margins or comparisons changed after their results "
           "were seen (the log, `src/termweight/experiments/deviations.yaml`):", ""]
    for e in rows:
        out.append(f"- **{e['id']}** ({e['date']}, changed in {e['changed_in']}; claims: "
                   f"{', '.join(e['claims']) or 'none'}). {e['what']} Why: {e['why']} Seen "
                   f"before: {e['seen_at']} Before: {e['before']} After: {e['after']}")
    return "\n".join(out) + "\n"


def latex(log: dict, titles: dict[str, str]) -> str:
    """The PDF's appendix: every entry, by paper (``titles``: paper -> its title, LaTeX), then
    date (commit hashes cut to 10 digits, which a line can hold)."""
    import re

    from termweight.experiments.claims import tex_escape as _esc

    def tex_escape(text: str) -> str:  # identifiers may break after an underscore or a slash
        out = _esc(re.sub(r"\b([0-9a-f]{10})[0-9a-f]{30}\b", r"\1", str(text)))
        return out.replace(r"\_", r"\_\allowbreak{}").replace("/", r"/\allowbreak{}")

    lines = [r"\section{Deviations log: what changed after its result was seen}",
             r"\label{sec:deviations}",
             "A rule, corpus, margin or comparison changed after its result was seen, with the "
             "verdicts before and after (" + r"\texttt{src/termweight/experiments/deviations.yaml}"
             "; a test fails when a claim's rule changes without an entry).", ""]
    for paper in sorted({e["paper"] for e in log["entries"]},
                        key=lambda p: (p not in titles, list(titles).index(p)
                                       if p in titles else 0, p)):
        lines.append(r"\paragraph{" + (titles[paper] if paper in titles  # already LaTeX
                                         else tex_escape(paper)) + "}")
        lines.append(r"\begin{itemize}\setlength{\itemsep}{2pt}\small\raggedright")
        for e in sorted(entries_of(log, paper), key=lambda e: str(e["date"])):
            lines.append(
                r"\item \textbf{" + tex_escape(e["id"]) + "} (" + tex_escape(str(e["date"]))
                + "; changed in " + tex_escape(str(e["changed_in"])) + "; claims: "
                + tex_escape(", ".join(e["claims"]) or "none") + "). "
                + tex_escape(e["what"]) + r" \emph{Why:} " + tex_escape(e["why"])
                + r" \emph{Seen before:} " + tex_escape(e["seen_at"])
                + r" \emph{Before:} " + tex_escape(e["before"])
                + r" \emph{After:} " + tex_escape(e["after"]))
        lines.append(r"\end{itemize}")
    return "\n".join(lines) + "\n"
