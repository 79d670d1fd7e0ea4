"""A paper's claims, each with the test we ran, our result and a verdict.

Every reproduced paper writes a ``claims`` list into its ``reports/metrics/<paper>.json``: one
object per claim the paper makes, with

- ``id``: a short key, unique within the paper (``[a-z0-9_]+``);
- ``claim``: the paper's claim, quoted or closely paraphrased;
- ``where``: where the paper makes it (section, table, figure);
- ``published``: the paper's number(s) for it, or "" when it states no number;
- ``test``: what we ran to test it (data, protocol, statistical test);
- ``result``: our result, with its test statistic where there is one;
- ``verdict``: one of ``VERDICTS``; "inconclusive" when the data cannot decide (the smallest
  effect the test would detect is larger than the paper's), with that detectable effect stated;
- ``cause``: for every verdict but "reproduced", why: the measured cause of the gap, "unexplained",
  or, for "not testable", what is missing here. May be "" for "reproduced".

The texts are plain ASCII (the PDF is built by pdfLaTeX); ``latex_table`` escapes them.
The report's PDF shows one table per paper (``latex_section``), the README's results table the
count per paper (``tally``), each paper's docs page the Markdown table (``markdown_table``).

Examples
--------
>>> c = Claim(id="gain", claim="BNS beats TF-IDF", where="Sec. 4", published="+7 F points",
...           test="paired t-test over 110 tasks", result="+3.1 points, t = 4.2, p < 0.001",
...           verdict="partly", cause="smaller gain: the bias is regularised (probe)")
>>> tally([c.as_dict()])
{'reproduced': 0, 'partly': 1, 'not reproduced': 0, 'inconclusive': 0, 'not testable': 0, 'tested': 1}
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from termweight.latex import latex_escape
from termweight.runner.errors import TermweightError

#: the verdicts, in the order the tables count them
VERDICTS = ("reproduced", "partly", "not reproduced", "inconclusive", "not testable")
#: the significance level of every paper's tests
ALPHA = 0.05
#: z(1 - 0.05/2) + z(0.80): a difference of POWER_Z standard errors is detected with 80% power
POWER_Z = 2.8016
#: z(0.95): a one-sided 95% bound is the difference plus this many standard errors
ONE_SIDED_Z = 1.6449
FIELDS = ("id", "claim", "where", "published", "test", "result", "verdict", "cause")
_ID = re.compile(r"^[a-z0-9_]+$")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and our verdict on it (fields as in the module docstring)."""

    id: str
    claim: str
    where: str
    test: str
    result: str
    verdict: str
    cause: str = ""
    published: str = ""

    def __post_init__(self):
        check_claims([asdict(self)], "claim")

    def as_dict(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in FIELDS}


def directional_verdict(diff: float, p: float | None, expected: int = 1, alpha: float = ALPHA,
                        mde: float | None = None, paper: float | None = None,
                        se: float | None = None) -> str:
    """A claim that A beats B (``expected`` = 1; -1: that A is below B), our difference
    ``diff`` = A - B with two-sided ``p``.

    - p < alpha: "reproduced" for the expected sign, "not reproduced" for the other;
    - p >= alpha (or no test), given the standard error ``se`` and the paper's own difference
      ``paper``: "not reproduced" when the one-sided 95% bound ``expected * diff + 1.645 se`` is
      below ``|paper|`` (a difference as large as the paper's is excluded);
    - otherwise "inconclusive" when the difference detectable with 80% power (``mde``, 2.80 se
      when only ``se`` is given) exceeds ``|paper|``;
    - otherwise "partly" for the expected sign, "not reproduced" for the other.
    """
    same = diff * expected > 0
    if p is not None and p < alpha:
        return "reproduced" if same else "not reproduced"
    if se is not None and paper is not None:
        if expected * diff + ONE_SIDED_Z * se < abs(paper):
            return "not reproduced"
        mde = POWER_Z * se if mde is None else mde
    if mde is not None and paper is not None and mde > abs(paper):
        return "inconclusive"
    return "partly" if same else "not reproduced"


def count_verdict(n_ok: int, n: int, n_against: int = 0) -> str:
    """A claim over ``n`` cells: "reproduced" if it holds in all (``n`` > 0); "not reproduced" if
    it is contradicted in any (``n_against``) or holds in none; else "partly"."""
    if n and n_ok == n:
        return "reproduced"
    return "not reproduced" if n_against or not n_ok else "partly"


def check_claims(claims, source: str) -> list[dict[str, str]]:
    """``claims`` checked (a list of objects with the fields above); one error naming ``source``
    and the claim's index and key otherwise."""
    if not isinstance(claims, list):
        raise TermweightError(f"{source}: 'claims' must be a list, found {type(claims).__name__}")
    seen = set()
    out = []
    for i, c in enumerate(claims):
        at = f"{source}: claims[{i}]"
        if not isinstance(c, dict):
            raise TermweightError(f"{at}: expected an object, found {type(c).__name__}")
        missing = [k for k in FIELDS if k not in c and k not in ("cause", "published")]
        if missing:
            raise TermweightError(f"{at}: missing key(s) {', '.join(map(repr, missing))}")
        extra = sorted(set(c) - set(FIELDS))
        if extra:
            raise TermweightError(f"{at}: unknown key(s) {', '.join(map(repr, extra))}")
        row = {k: c.get(k, "") for k in FIELDS}
        for k, v in row.items():
            if not isinstance(v, str):
                raise TermweightError(f"{at}: key {k!r} must be a string, found {type(v).__name__}")
            if not v.isascii():
                raise TermweightError(f"{at}: key {k!r} must be ASCII text (pdfLaTeX), found "
                                      f"{next(ch for ch in v if not ch.isascii())!r}")
        for k in ("claim", "where", "test", "result"):
            if not row[k].strip():
                raise TermweightError(f"{at}: key {k!r} is empty")
        if not _ID.match(row["id"]):
            raise TermweightError(f"{at}: id {row['id']!r} must match [a-z0-9_]+")
        if row["id"] in seen:
            raise TermweightError(f"{at}: id {row['id']!r} is repeated")
        seen.add(row["id"])
        if row["verdict"] not in VERDICTS:
            raise TermweightError(f"{at}: verdict {row['verdict']!r} is not one of "
                                  f"{', '.join(VERDICTS)}")
        if row["verdict"] != "reproduced" and not row["cause"].strip():
            raise TermweightError(f"{at}: verdict {row['verdict']!r} needs a 'cause' (the measured "
                                  "cause, 'unexplained', or what is missing here)")
        out.append(row)
    return out


def tally(claims) -> dict[str, int]:
    """Claims per verdict, and ``tested`` = all but "not testable"."""
    rows = check_claims(claims, "claims")
    out = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    out["tested"] = len(rows) - out["not testable"]
    return out


#: how every tally counts, stated once (README, docs pages, the PDF's front section)
TALLY_RULE = ("reproduced of the claims tested (every verdict but 'not testable'); the other "
              "verdicts of the tested claims in brackets; claims not testable here counted "
              "after, outside the denominator")


def tally_text(claims) -> str:
    """``"3 of 5 tested (1 partly; 1 inconclusive), 2 not testable"``: ``TALLY_RULE``."""
    t = tally(claims)
    rest = [f"{t[v]} {v}" for v in VERDICTS[1:-1] if t[v]]
    return (f"{t['reproduced']} of {t['tested']} tested"
            + (f" ({'; '.join(rest)})" if rest else "")
            + (f", {t['not testable']} not testable" if t["not testable"] else ""))


def p_text(p: float, math: bool = False) -> str:
    """A p-value as the reports print it: ``p < 0.001`` below 0.001, else ``p = 0.xxx``; in
    LaTeX math (``$p<0.001$``) with ``math``."""
    if math:
        return "$p<0.001$" if p < 0.001 else f"$p={p:.3f}$"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def tex_escape(text: str) -> str:
    """Plain text as LaTeX text: the special characters escaped; ``<`` and ``>`` in math and
    ``|`` as ``\\textbar`` (the report's default font encoding, OT1, prints them as other
    glyphs: an em dash for ``|``)."""
    return (latex_escape(text).replace("<", "$<$").replace(">", "$>$")
            .replace("|", r"\textbar{}"))


def latex_table(title: str, claims, label: str) -> str:
    """One paper's claims for the PDF: a table to scan, one row per claim (number, claim, where,
    published, verdict), then each claim's test, our result and the cause of a gap, numbered
    alike, as full-width paragraphs (``longtable`` and ``booktabs``)."""
    rows = check_claims(claims, label)
    lines = [
        r"{\footnotesize",
        # ragged right: justified narrow columns hyphenate the verdicts ("not repro- duced")
        r"\begin{longtable}{@{}" + "".join(rf">{{\raggedright\arraybackslash}}p{{{w}}}" for w in
                                          ("0.45cm", "5.6cm", "1.9cm", "4.0cm", "2.5cm")) + "@{}}",
        rf"\caption{{{title}: the paper's claims and our verdicts "
        rf"(reproduced: {tex_escape(tally_text(rows))}); each claim's test, result and cause "
        rf"follow the table under its number.}}\label{{{label}}}\\",
        r"\toprule",
        r"\# & Claim & Where & Published & Verdict \\",
        r"\midrule\endfirsthead",
        r"\toprule \# & Claim & Where & Published & Verdict \\ \midrule\endhead",
    ]
    for i, r in enumerate(rows, 1):
        lines.append(" & ".join([str(i), tex_escape(r["claim"]), tex_escape(r["where"]),
                                 tex_escape(r["published"] or "--"),
                                 r"\textbf{" + tex_escape(r["verdict"]) + "}"]) + r" \\")
    lines += [r"\bottomrule", r"\end{longtable}", r"\begin{description}"]
    for i, r in enumerate(rows, 1):
        item = (rf"\item[{i}. \texttt{{{tex_escape(r['id'])}}}] \emph{{Test:}} "
                + tex_escape(r["test"]) + r" \emph{Result:} " + tex_escape(r["result"]))
        if r["cause"]:
            item += rf" \emph{{Why {tex_escape(r['verdict'])}:}} " + tex_escape(r["cause"])
        lines.append(item)
    lines += [r"\end{description}}"]
    return "\n".join(lines) + "\n"


def markdown_table(claims) -> str:
    """One paper's claims as a Markdown table (for its docs page)."""
    rows = check_claims(claims, "claims")

    def cell(s: str) -> str:
        return " ".join(s.split()).replace("|", "/") or "-"

    out = ["| claim | where | published | test | our result | verdict |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        verdict = r["verdict"] + (f": {r['cause']}" if r["cause"] else "")
        out.append("| " + " | ".join(cell(x) for x in (r["claim"], r["where"], r["published"],
                                                        r["test"], r["result"], verdict)) + " |")
    return "\n".join(out) + "\n"
