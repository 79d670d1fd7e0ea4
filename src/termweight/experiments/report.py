"""The LaTeX report: macros of the slice's numbers, the published-vs-reproduced summary table, the
list of sections whose outputs exist, the provenance line, and ``reports/paper.pdf`` via latexmk.

Sub-commands (one arrow of the pipeline each):

- ``report-macros``: ``reports/metrics/<exp>.json`` of a generic experiment (the offline default
  ``slice``) -> ``reports/macros/<exp>.tex``, ``\\newcommand`` macros of every number the report
  quotes (content only: byte-stable, a DVC output).
- ``report``: everything under ``reports/`` -> ``reports/generated/`` (summary table, included
  sections, the tables/figures of each paper that its section does not place itself; content only,
  a DVC output), ``reports/macros/provenance.tex`` (git commit, commit date, params hash, dataset
  checksums) and ``reports/paper.pdf`` (latexmk + pdflatex, when installed).

Provenance and stable outputs: the git commit of a build cannot be part of a DVC-hashed output (it
changes with every commit, including the one that records the outputs), so the build stamp
(``provenance.tex``, listed in ``.dvcignore``) and the PDF that prints it are deliberately outside
DVC's hashes; everything DVC hashes is a pure function of its dependencies. The date printed is the
commit date of the source (or ``SOURCE_DATE_EPOCH``), never the wall clock, and pdfTeX is told to
omit its own dates and trailer id, so rebuilding at the same commit gives the same PDF bytes.
The stamp also records a digest of the PDF's inputs (``inputs_digest``): a run whose inputs are
those the last commit's stamp records puts back the committed stamp and PDF instead of stamping
the current commit, so rebuilding an unchanged checkout (a fresh clone's quick start) leaves
``git status`` clean.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from termweight.experiments import claims
from termweight.experiments.papers import Headline, papers, tex_escape
from termweight.experiments.papers import get as _get
from termweight.runner import io
from termweight.runner.errors import DataError, TermweightError

log = logging.getLogger("termweight.report")

# Files whose content the source code is; a difference from the commit is flagged as uncommitted.
SOURCE_PATHS = ["src", "workflow", "Snakefile", "dvc.yaml", "params.yaml", "reports/paper.tex",
                "reports/sections", "pyproject.toml", "envs"]
TEX_INSTALL_HINT = ("apt-get install --no-install-recommends texlive-latex-base "
                    "texlive-latex-recommended latexmk poppler-utils")


# --- small LaTeX helpers -----------------------------------------------------------------------

def macro_name(*parts: str) -> str:
    """CamelCase LaTeX command name from parts; digits are spelled (macro names are letters)."""
    digits = "Zero One Two Three Four Five Six Seven Eight Nine".split()
    out = []
    for part in parts:
        for word in re.split(r"[^A-Za-z0-9]+", str(part)):
            word = "".join(digits[int(c)] if c.isdigit() else c for c in word)
            if word:
                out.append(word[0].upper() + word[1:])
    return "".join(out)


def fmt(value, digits: int = 4) -> str:
    return f"{value:.{digits}f}"


def newcommands(macros: dict[str, str], header: str) -> str:
    lines = [f"% {line}" for line in header.splitlines()]
    lines += [f"\\newcommand{{\\{k}}}{{{v}}}" for k, v in sorted(macros.items())]
    return "\n".join(lines) + "\n"


# --- report-macros: numbers of a generic experiment (the slice) --------------------------------

METRIC_MACROS = {"micro_f1": "MicroF", "macro_f1": "MacroF", "micro_accuracy": "Accuracy",
                 "macro_precision": "MacroP", "macro_recall": "MacroR"}


def experiment_macros(exp: str, metrics: dict) -> dict[str, str]:
    """Macros ``\\<Exp>...`` of every number in an experiment's metrics JSON, plus best/worst."""
    pre = macro_name(exp)
    encs = metrics["encodings"]
    m = {f"{pre}Dataset": tex_escape(metrics["dataset"]), f"{pre}Splits": str(metrics["splits"]),
         f"{pre}Encodings": str(len(encs)), f"{pre}SkippedTasks": str(metrics["skipped_tasks"])}
    for enc, vals in encs.items():
        for key, short in METRIC_MACROS.items():
            if key in vals:
                m[pre + macro_name(enc) + short] = fmt(vals[key])
                m[pre + macro_name(enc) + short + "Se"] = fmt(vals[f"{key}_se"])
    ranked = sorted(encs, key=lambda e: (-encs[e]["micro_f1"], e))
    for tag, enc in (("Best", ranked[0]), ("Worst", ranked[-1])):
        m[f"{pre}{tag}Encoding"] = f"\\texttt{{{tex_escape(enc)}}}"
        for key, short in METRIC_MACROS.items():
            m[f"{pre}{tag}{short}"] = fmt(encs[enc][key])
            m[f"{pre}{tag}{short}Se"] = fmt(encs[enc][f"{key}_se"])
    m[f"{pre}GapMicroF"] = fmt(encs[ranked[0]]["micro_f1"] - encs[ranked[-1]]["micro_f1"])
    if "binary" in encs and "binary-bns" in encs:
        m[f"{pre}BnsGainMicroF"] = fmt(encs["binary-bns"]["micro_f1"] - encs["binary"]["micro_f1"])
        m[f"{pre}BnsGainMacroF"] = fmt(encs["binary-bns"]["macro_f1"] - encs["binary"]["macro_f1"])
    return m


def cmd_report_macros(args) -> None:
    from termweight.intermediates import read_experiment_metrics

    metrics = read_experiment_metrics(args.metrics)
    check_experiment_metrics(args.metrics, metrics, args.params, args.exp)
    macros = experiment_macros(args.exp, metrics)
    io.write_text(args.out, newcommands(macros, f"Generated by `termweight report-macros` from "
                                                f"{args.metrics}; do not edit."))
    log.info("%d macros of %s written to %s", len(macros), args.exp, args.out)


def check_experiment_metrics(path, metrics: dict, params_path, exp: str) -> None:
    """An experiment's metrics JSON against the params: its dataset, exactly the declared
    encodings, and as many splits as the protocol declares (the number the macros quote)."""
    from termweight.results_check import check_count, check_mapping
    from termweight.runner.config import load_params
    from termweight.splits import split_names

    spec = load_params(params_path).get("experiments", {}).get(exp)
    if spec is None:
        raise TermweightError(f"{params_path}: no experiment {exp!r}")
    if metrics["dataset"] != spec["dataset"]:
        raise DataError(path, f"dataset {metrics['dataset']!r}, but experiment {exp!r} declares "
                        f"{spec['dataset']!r}")
    check_mapping(path, metrics["encodings"], spec["encodings"], "encodings", extra_ok=False)
    check_count(path, "splits", len(split_names(spec["protocol"])), metrics["splits"])


# --- summary: published against reproduced ----------------------------------------------------

def number(v):
    """A value or the mean of a ``[mean, sd]`` pair / ``{"mean": ...}`` entry; None otherwise."""
    if isinstance(v, dict):
        v = v.get("value", v.get("mean"))
    if isinstance(v, list | tuple) and v:
        v = v[0]
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float) and math.isfinite(v):
        return float(v)
    if isinstance(v, str):
        return v
    return None


def published_headlines(paper: str, pub: dict | None) -> list[Headline]:
    """The headline numbers of a paper, read from its published JSON (the paper's own reader,
    else the generic convention: the JSON's ``headline`` mapping)."""
    if not pub:
        return []
    declared = papers().get(paper)
    out = declared.headlines(pub) if declared is not None and declared.headlines else []
    if not out and isinstance(pub.get("headline"), dict):  # generic convention
        for key, v in sorted(pub["headline"].items()):
            out.append(Headline(paper, key, tex_escape(key), "", number(v)))
    return out


def reproduced_value(h: Headline, metrics: dict | None):
    """Our number for a headline: the metrics JSON's ``headline`` mapping first, else its path,
    else the paper's own lookup."""
    if metrics is None:
        return None
    v = _get(metrics, "headline", h.key)
    if v is None:
        v = _get(metrics, *h.key.split("/"))
    declared = papers().get(h.paper)
    if v is None and declared is not None and declared.reproduced is not None:
        v = declared.reproduced(h, metrics)
    return number(v)


def summary_rows(reports: Path, published_dir: Path) -> tuple[list[tuple], list[str]]:
    """Rows (paper title, quantity, where, published, ours, difference, key) and the papers run."""
    rows, ran = [], []
    for paper, declared in papers().items():
        title = declared.title
        pub_path = declared.published_path(published_dir)
        pub = io.read_json(pub_path) if pub_path.exists() else None
        met_path = reports / "metrics" / f"{paper}.json"
        metrics = io.read_json(met_path) if met_path.exists() else None
        if metrics is not None:
            ran.append(paper)
        heads = published_headlines(paper, pub)
        if not heads:
            rows.append((title, "\\emph{no published numbers recorded yet}", "", "--",
                         "not run" if metrics is None else "--", "--", f"{paper}:"))
            continue
        for i, h in enumerate(heads):
            ours = reproduced_value(h, metrics)
            pub_s = _show(h.published, h.digits)
            if metrics is None:
                ours_s, diff = "not run", "--"
            elif ours is None:
                ours_s, diff = "n/a", "--"
            else:
                ours_s = _show(ours, h.digits)
                diff = (f"{ours - h.published:+.{h.digits}f}"
                        if isinstance(ours, float) and isinstance(h.published, int | float) else
                        ("same" if str(ours) == str(h.published) else "differs"))
            rows.append((title if i == 0 else "", h.label, h.source, pub_s, ours_s, diff,
                         f"{paper}:{h.key}"))
    return rows, ran


def summary_table(reports: Path, published_dir: Path) -> tuple[str, list[str]]:
    """LaTeX of the summary table and the list of papers that were run."""
    rows, ran = summary_rows(reports, published_dir)
    lines = [
        "\\begin{table}[!htbp]", "\\centering", "\\small",
        "\\caption{Headline numbers: published (as printed in each paper) against reproduced "
        "(this pipeline), with the difference reproduced $-$ published. ``not run'': the paper's "
        "experiment has no results in \\texttt{reports/metrics/} yet; ``n/a'': it ran but does not "
        "report this number.}",
        "\\label{tab:summary}",
        "\\begin{tabular}{llllll}", "\\toprule",
        "Paper & Quantity & Where & Published & Reproduced & Difference \\\\", "\\midrule",
    ]
    prev = None
    for r in rows:
        if r[0] and prev is not None:
            lines.append("\\addlinespace")
        prev = r
        lines.append(" & ".join(r[:6]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n", ran


def readme_rows() -> dict[str, list[str]]:
    """The README's results at a glance: a few rows per paper (keys of ``summary_rows``)."""
    return {name: list(p.readme_rows) for name, p in papers().items()}


README_BEGIN = "<!-- results: generated by `python -m termweight report-summary --readme README.md` -->"
README_END = "<!-- results: end -->"


def _plain(tex: str) -> str:
    """A summary cell's LaTeX as Markdown text."""
    out = re.sub(r"\\texttt\{([^}]*)\}", r"`\1`", tex)
    out = re.sub(r"\\emph\{([^}]*)\}", r"*\1*", out)
    for a, b in (("$-$", "-"), ("\\_", "_"), ("\\&", "&"), ("\\%", "%"), ("\\ ", " "),
                 ("--", "-"), ("|", "/")):
        out = out.replace(a, b)
    return out


def paper_claims(reports: Path) -> dict[str, list[dict] | None]:
    """Each paper's checked ``claims`` list from its metrics JSON (None: not run or no claims)."""
    out: dict[str, list[dict] | None] = {}
    for paper in papers():
        path = Path(reports) / "metrics" / f"{paper}.json"
        metrics = io.read_json_object(path) if path.exists() else {}
        out[paper] = (claims.check_claims(metrics["claims"], f"{path}: key 'claims'")
                      if "claims" in metrics else None)
    return out


def claims_section(reports: Path) -> str:
    """The PDF's section of claims: one table per paper (``claims.latex_table``)."""
    lines = [r"\section{Claims: what each paper says, and whether it holds here}",
             r"\label{sec:claims}",
             "Each paper's claims, quoted or closely paraphrased, in a table to scan (where the "
             "paper makes the claim, its number, our verdict); below each table, under the "
             "claim's number, the test we ran on this pipeline's results and our result with its "
             "test statistic. The verdicts: "
             "\\emph{reproduced}, \\emph{partly}, \\emph{not reproduced}, \\emph{inconclusive} "
             "(the data cannot decide: the smallest effect the test detects is larger than the "
             "paper's, and both are stated), or \\emph{not testable} "
             "here (with what is missing). Every verdict but \\emph{reproduced} gives the cause "
             "of the gap, measured where we could, or says ``unexplained''.", ""]
    for paper, rows in paper_claims(reports).items():
        title = papers()[paper].title
        if rows is None:
            lines.append(rf"\paragraph{{{title}}} No claims assessed (not run).")
        else:
            lines.append(claims.latex_table(title, rows, f"tab:{paper}-claims"))
            rules = papers()[paper].claim_rules
            if rules:  # once per paper, not in every claim's test
                lines.append(r"\paragraph{How " + title + r"'s verdicts are decided.} "
                             + claims.tex_escape(rules) + "\n")
    from termweight.experiments import deviations

    lines.append(r"\clearpage")
    lines.append(deviations.latex(deviations.load(),
                                  {p: d.title for p, d in papers().items()}
                                  | {"benchmark": "The term-weighting benchmark"}))
    return "\n".join(lines) + "\n"


def summary_markdown(reports: Path, published_dir: Path, rows_by_paper=None) -> str:
    """The README's table: the selected headline rows, published beside ours, and per paper the
    claims reproduced of those tested (``claims.tally_text``)."""
    rows_by_paper = readme_rows() if rows_by_paper is None else rows_by_paper
    rows, _ = summary_rows(reports, published_dir)
    by_paper = paper_claims(reports)
    keep = {f"{p}:{k}" for p, keys in rows_by_paper.items() for k in keys}
    out = ["| paper | claims reproduced | quantity | published | ours | ours - published |",
           "|---|---|---|---|---|---|"]
    title = ""
    for r in rows:
        title = r[0] or title
        if r[6] in keep:
            where = f" ({r[2]})" if r[2] else ""
            paper = r[6].split(":", 1)[0]
            tally = ("" if not title else "-" if by_paper.get(paper) is None
                     else claims.tally_text(by_paper[paper]))
            out.append(f"| {_plain(title)} | {tally} | {_plain(r[1])}{where} | {_plain(r[3])} | "
                       f"{_plain(r[4])} | {_plain(r[5])} |")
            title = ""
    return "\n".join(out) + "\n"


DOCS_BEGIN = ("<!-- claims: generated by `python -m termweight report-summary --docs docs/papers` "
              "-->")
DOCS_END = "<!-- claims: end -->"


def _replace_block(path: Path, begin: str, end: str, body: str, check: bool, command: str) -> None:
    """Replace the text between ``begin`` and ``end`` in ``path`` by ``body``; with ``check``
    only compare (one error naming the file if it differs)."""
    text = path.read_text(encoding="utf-8")
    if begin not in text or end not in text:
        raise TermweightError(f"{path}: no generated block ({begin} ... {end})")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    new = f"{head}{begin}\n{body}{end}{tail}"
    if check:
        if new != text:
            raise TermweightError(f"{path}: the generated block differs from reports/metrics; run "
                                  f"`{command}`")
        return
    if new != text:
        io.write_text(path, new)


def cmd_report_summary(args) -> None:
    table = summary_markdown(Path(args.reports), Path(args.published))
    if not args.readme and not args.docs:
        sys.stdout.write(table)
        return
    if args.readme:
        _replace_block(Path(args.readme), README_BEGIN, README_END, table, args.check,
                       "python -m termweight report-summary --readme README.md")
    if args.docs:
        from termweight.experiments import deviations

        log = deviations.load()
        for paper, rows in paper_claims(Path(args.reports)).items():
            page = Path(args.docs) / f"{paper}.md"
            rules = papers()[paper].claim_rules
            body = ("No claims assessed yet (the paper's experiment has not run).\n" if rows is None
                    else f"Claims reproduced: {claims.tally_text(rows)} ({claims.TALLY_RULE}).\n\n"
                    + claims.markdown_table(rows)
                    + (f"\nHow the verdicts are decided: {rules}\n" if rules else "")
                    + deviations.markdown(log, paper))
            _replace_block(page, DOCS_BEGIN, DOCS_END, body, args.check,
                           "python -m termweight report-summary --docs docs/papers")


def _show(v, digits):
    if isinstance(v, bool) or v is None:
        return "--"
    if isinstance(v, int | float):
        return f"{v:.{digits}f}" if isinstance(v, float) or digits else str(v)
    return f"\\texttt{{{tex_escape(v)}}}"


# --- sections and their floats -----------------------------------------------------------------

#: a float a section places itself: (kind, name); a table and a figure may share a name
_PLACED = re.compile(r"\\tw(table|figure)\*?(?:\[[^\]]*\])?\{([^}]*)\}")
_COMMENT = re.compile(r"(?<!\\)%.*")


def _uncommented(path: Path) -> str:
    """The LaTeX source of ``path`` without its comments (``%`` to end of line, not ``\\%``)."""
    return _COMMENT.sub("", path.read_text(encoding="utf-8"))


def paper_outputs(reports: Path, paper: str) -> dict[str, list[str]]:
    return {"tables": sorted(p.stem for p in (reports / "tables").glob(f"{paper}_*.tex")),
            "figures": sorted(p.stem for p in (reports / "figures").glob(f"{paper}_*.pdf")),
            "metrics": [p.name for p in (reports / "metrics").glob(f"{paper}.json")],
            "macros": [p.name for p in (reports / "macros").glob(f"{paper}.tex")]}


def remaining_floats(reports: Path, paper: str) -> str:
    """LaTeX placing the paper's generated tables that its section does not place (a table carries
    its own caption); a figure its section does not place is refused, as it would have none."""
    section = papers()[paper].section_path(reports)
    placed = set(_PLACED.findall(_uncommented(section))) if section.exists() else set()
    outs = paper_outputs(reports, paper)
    tables = {name for kind, name in placed if kind == "table"}
    figures = {name for kind, name in placed if kind == "figure"}
    lines = [f"% Generated by `termweight report`: {paper}'s tables and figures not placed by "
             f"sections/{paper}.tex."]
    for t in outs["tables"]:
        if t not in tables:
            lines.append(f"\\twtable{{{t}}}")
    unplaced = [f for f in outs["figures"] if f not in figures]
    if unplaced:  # a figure needs a caption saying what it shows: no placeholder
        raise TermweightError(f"{section}: figure {unplaced[0]!r} ({reports}/figures/"
                              f"{unplaced[0]}.pdf) is not placed: add \\twfigure{{{unplaced[0]}}}"
                              "{<which paper figure it regenerates, what is plotted against what, "
                              "the data, the one thing to see>} to the section")
    return "\n".join(lines) + "\n"


def generic_section(exp: str) -> str:
    """A section for a configured experiment without a hand-written ``sections/<exp>.tex``:
    its numbers (macros from its metrics), its table and its figure."""
    pre, name = macro_name(exp), tex_escape(exp)
    return "\n".join([
        f"\\twmacros{{{exp}}}",
        f"\\section{{Experiment \\texttt{{{name}}}}}",
        f"\\label{{sec:{exp}}}",
        f"The experiment \\texttt{{{name}}} of \\texttt{{params.yaml}} (no hand-written section): "
        f"dataset \\texttt{{\\tw{{{pre}Dataset}}}}, \\tw{{{pre}Splits}} train/test splits, "
        f"\\tw{{{pre}Encodings}} encodings, one-vs-rest linear SVM. The best encoding is "
        f"\\tw{{{pre}BestEncoding}} with micro-F1 \\tw{{{pre}BestMicroF}} $\\pm$~"
        f"\\tw{{{pre}BestMicroFSe}} (macro-F1 \\tw{{{pre}BestMacroF}}); the weakest is "
        f"\\tw{{{pre}WorstEncoding}} with micro-F1 \\tw{{{pre}WorstMicroF}}; "
        f"\\tw{{{pre}SkippedTasks}} tasks were skipped for lack of training positives.",
        "",
        f"\\twtable{{{exp}}}",
        f"\\twfigure{{{exp}}}{{\\texttt{{{name}}}: micro- and macro-F1 of each "
        "encoding (mean $\\pm$ standard error over the splits).}",
        "\\clearpage",
    ])


def included_sections(reports: Path, experiments: list[str]) -> tuple[str, list[str]]:
    """The sections of the PDF: every configured experiment that has results (its hand-written
    section, else ``generic_section``), then every paper that has outputs."""
    lines = ["% Generated by `termweight report`: the sections whose outputs exist."]
    for exp in experiments:
        if not (reports / "metrics" / f"{exp}.json").exists():
            continue
        if (reports / "sections" / f"{exp}.tex").exists():
            lines.append(f"\\input{{sections/{exp}}}")
        else:
            lines.append(generic_section(exp))
    missing = []
    for paper, declared in papers().items():
        if any(paper_outputs(reports, paper).values()):
            section = Path(os.path.relpath(declared.section_path(reports), reports))
            lines.append(f"\\input{{{section.with_suffix('').as_posix()}}}")
        else:
            missing.append(paper)
    if missing:
        names = ", ".join(papers()[p].title for p in missing)
        cmds = ", ".join(f"\\texttt{{snakemake --cores 2 {p}}}" for p in missing)
        lines.append(f"\\section*{{Not run yet}}\nNo outputs exist yet for {names}; their sections "
                     f"are left out (regenerate them with {cmds}).")
    return "\n".join(lines) + "\n", missing


def check_macros(reports: Path) -> list[str]:
    """Names quoted with ``\\tw{...}`` in the sections but defined by no macro file."""
    defined = set()
    for f in (reports / "macros").glob("*.tex"):
        defined |= set(re.findall(r"\\(?:re)?newcommand\*?\{?\\([A-Za-z]+)", f.read_text(encoding="utf-8")))
    used = set()
    for f in [reports / "paper.tex", *(reports / "sections").glob("*.tex")]:
        if f.exists():
            used |= set(re.findall(r"\\tw\{([A-Za-z]+)\}", _uncommented(f)))
    return sorted(used - defined)


# --- provenance --------------------------------------------------------------------------------

def _git(root: Path, *argv) -> str | None:
    if not shutil.which("git"):
        return None
    res = subprocess.run(["git", "-C", str(root), *argv], capture_output=True, text=True)
    return res.stdout.strip() if res.returncode == 0 else None


def result_datasets(metrics: dict) -> list[str]:
    """The registered datasets named in a results file (a metrics JSON) of any experiment."""
    names = []
    if isinstance(metrics.get("dataset"), str):
        names.append(metrics["dataset"])
    d = metrics.get("datasets")
    if isinstance(d, list):
        names += [x for x in d if isinstance(x, str)]
    elif isinstance(d, dict):
        for key, v in d.items():
            inner = v.get("dataset", v.get("name")) if isinstance(v, dict) else None
            names.append(inner if isinstance(inner, str) else key)
    return names


def shown_results(reports: Path, experiments: list[str]) -> dict[str, list[str]]:
    """Results the PDF shows (configured experiments, papers with outputs) -> their datasets."""
    shown = {}
    for name in [*experiments, *papers()]:
        path = reports / "metrics" / f"{name}.json"
        if path.exists() and (name in experiments or any(paper_outputs(reports, name).values())):
            shown[name] = result_datasets(io.read_json(path))
    return shown


def dataset_files(name: str) -> list[dict]:
    """Each raw file of a dataset with the SHA-256 the prepare step verified it against."""
    from termweight import datasets

    spec = datasets.DATASETS.get(name)
    if spec is None:
        return [{"file": "(not a registered dataset)", "sha256": None}]
    if not spec.files:  # package data (BBC): the parser verifies one digest over its files
        return [{"file": "(package data: SHA-256 over every file, see its module)",
                 "sha256": spec.package_sha256 or None}]
    return [{"file": f.name, "sha256": f.sha256 or None} for f in spec.files]


def provenance(root: Path, params_path: Path, reports: Path | None = None) -> dict:
    """Build stamp: git commit, source date, params hash, and the datasets behind the numbers
    the PDF shows (named by the results' own metrics files), each file with its SHA-256."""
    reports = Path(reports) if reports is not None else root / "reports"
    commit = _git(root, "rev-parse", "HEAD") if (root / ".git").exists() else None
    dirty = bool(_git(root, "status", "--porcelain", "--",
                      *SOURCE_PATHS)) if commit else False
    if os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
        date = datetime.fromtimestamp(int(os.environ["SOURCE_DATE_EPOCH"]), UTC).strftime("%Y-%m-%d")
        date_source = "SOURCE\\_DATE\\_EPOCH"
    elif commit:
        date, date_source = _git(root, "log", "-1", "--format=%cs", "HEAD"), "commit date"
    else:
        date, date_source = None, None
    from termweight.runner.config import read_yaml

    params = read_yaml(params_path)
    shown = shown_results(reports, sorted(params.get("experiments", {})))
    used: dict[str, list[str]] = {}
    for result, names in shown.items():
        for n in names:
            used.setdefault(n, []).append(result)
    sets = [{"name": n, "used_by": sorted(set(by)), "files": dataset_files(n)}
            for n, by in sorted(used.items())]
    from termweight import environment

    env = environment.describe(root)
    # a commit is named only when the sources were committed: a dirty tree's commit does not say
    # what was built (the content digests below do, in both cases)
    return {"commit": None if dirty else commit, "dirty": dirty, "date": date,
            "date_source": date_source, "params_hash": io.canonical_hash(params), "datasets": sets,
            "inputs": inputs_digest(reports, root), "lock": env["lock"]["sha256"],
            "environment": env}


def input_files(reports: Path, root: Path) -> list[Path]:
    """What the PDF is built from: every file under ``reports/`` but the PDF and the stamps, and
    each paper package's ``section.tex``."""
    skip = {reports / "paper.pdf", *stamp_files(reports)}
    files = [f for f in sorted(reports.rglob("*")) if f.is_file() and f not in skip]
    return files + sorted((root / "src" / "termweight" / "experiments").glob("*/section.tex"))


def stamp_files(reports: Path) -> list[Path]:
    """The build stamp: the LaTeX macros the PDF prints and the JSON record beside them."""
    return [reports / "macros" / "provenance.tex", reports / "provenance.json"]


def _rel(f: Path, root: Path, reports: Path) -> str:
    return f.relative_to(root if f.is_relative_to(root) else reports).as_posix()


def input_md5s(reports: Path, root: Path) -> dict[str, str]:
    """``{path: MD5}`` of each input file, the hash DVC records for a file in ``dvc.lock``."""
    import hashlib

    return {_rel(f, root, reports): hashlib.md5(f.read_bytes()).hexdigest()
            for f in input_files(reports, root)}


def inputs_digest(reports: Path, root: Path) -> str:
    """SHA-256 over what the PDF is built from (``input_files``: paths and bytes)."""
    import hashlib

    h = hashlib.sha256()
    for f in input_files(reports, root):
        h.update(_rel(f, root, reports).encode())
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def recorded_provenance(path: Path) -> dict | None:
    """The stamp a ``provenance.tex`` records (its JSON comment line), or None."""
    try:
        return json_stamp(path.read_bytes())
    except OSError:
        return None


def json_stamp(blob: bytes) -> dict | None:
    """The JSON comment line of a ``provenance.tex``'s bytes, or None."""
    try:
        for line in blob.decode("utf-8").splitlines()[:5]:
            if line.startswith("% {"):
                return json.loads(line[2:])
    except ValueError:
        return None
    return None


def committed_bytes(root: Path, path: Path) -> bytes | None:
    """``path`` as the checkout's last commit holds it (None outside git or when not committed).
    Snakemake deletes a job's outputs before running it, so the committed copy is what says how
    the stamp and the PDF were built."""
    if not shutil.which("git") or not (root / ".git").exists():
        return None
    try:
        rel = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return None
    res = subprocess.run(["git", "-C", str(root), "show", f"HEAD:{rel}"], capture_output=True)
    return res.stdout if res.returncode == 0 else None


def same_build(old: dict | None, new: dict) -> bool:
    """Whether a recorded stamp describes the same inputs (PDF sources, params, datasets) as
    ``new``: then its commit is where these results were built, and nothing is rewritten."""
    keys = ("inputs", "params_hash", "datasets", "lock")
    return old is not None and all(old.get(k) == new.get(k) for k in keys)


def provenance_tex(p: dict) -> str:
    if p["commit"]:
        commit = f"\\texttt{{{p['commit'][:12]}}}"
    elif p["dirty"]:
        commit = "not stated (built from sources with uncommitted changes; the digests identify it)"
    else:
        commit = "none (not a git checkout)"
    date = f"{p['date']} ({p['date_source']})" if p["date"] else "undated (no git commit)"
    rows = []
    for d in p["datasets"]:
        for i, f in enumerate(d["files"]):
            sha = f"\\texttt{{{f['sha256'][:16]}}}" if f["sha256"] else "unverified (no pinned hash)"
            rows.append((f"\\texttt{{{tex_escape(d['name'])}}}" if i == 0 else "") + " & "
                        + (tex_escape(", ".join(d["used_by"])) if i == 0 else "") + " & "
                        + f"\\texttt{{{tex_escape(f['file'])}}} & {sha} \\\\")
    macros = {
        "ProvCommit": commit,
        "ProvDate": date,
        "ProvParamsHash": f"\\texttt{{{p['params_hash'][:16]}}}",
        "ProvDatasetNames": ", ".join(f"\\texttt{{{tex_escape(d['name'])}}}" for d in p["datasets"])
        or "none",
        "ProvDatasetTable": ("{\\scriptsize\\begin{longtable}{llll}\\toprule Dataset & Results & "
                             "File & SHA-256 (first 16 hex) \\\\ \\midrule\\endhead "
                             + " ".join(rows) + " \\bottomrule\\end{longtable}}")
        if rows else "(no results shown)",
    }
    env = p.get("environment") or {}
    pk = env.get("packages", {})
    lock = env.get("lock") or {}
    macros["ProvInputs"] = f"\\texttt{{{p['inputs'][:16]}}}"
    macros["ProvLock"] = (f"\\texttt{{{lock['sha256'][:16]}}}" if lock.get("sha256")
                          else "none (no lock file)")
    differs = lock.get("differs")
    macros["ProvLockMatch"] = ("no lock file" if differs is None else
                               "every locked package as locked" if not differs else
                               f"{len(differs)} packages differ from the lock: "
                               + tex_escape(", ".join(f"{k} {v['installed']}" for k, v in
                                                      sorted(differs.items()))))
    macros["ProvPython"] = tex_escape(f"{env.get('implementation', '')} {env.get('python', '?')}")
    plat = env.get("platform", {})
    macros["ProvPlatform"] = tex_escape(" ".join(str(plat.get(k) or "") for k in
                                                 ("system", "machine", "libc")).strip() or "?")
    macros["ProvPackages"] = tex_escape(", ".join(f"{k} {v or 'absent'}" for k, v in pk.items()))
    macros["ProvBlas"] = tex_escape("; ".join(
        f"{b.get('internal_api')} {b.get('version')} ({b.get('architecture') or 'generic'}, "
        f"{b.get('threading_layer') or b.get('user_api')})"
        for b in env.get("blas", [])) or "none found")
    macros["ProvLine"] = ("source commit \\ProvCommit; source date \\ProvDate; params.yaml hash "
                          "\\ProvParamsHash; inputs digest \\ProvInputs; lock "
                          "\\ProvLock; datasets \\ProvDatasetNames")
    head = ("Generated by `termweight report`: the build stamp. NOT a DVC output (.dvcignore): a\n"
            "commit hash changes with every commit, so it must stay out of DVC's hashes.\n"
            + json.dumps(p, sort_keys=True))
    return newcommands(macros, head)


# --- LaTeX -------------------------------------------------------------------------------------

def tex_available() -> tuple[bool, str]:
    missing = [t for t in ("latexmk", "pdflatex") if shutil.which(t) is None]
    return not missing, ", ".join(missing)


def build_pdf(reports: Path, out_pdf: Path, source_epoch: int) -> None:
    """latexmk + pdflatex on reports/paper.tex in a scratch directory; atomically -> out_pdf."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(source_epoch), FORCE_SOURCE_DATE="1")
    with tempfile.TemporaryDirectory(prefix="termweight-latex-") as tmp:
        cmd = ["latexmk", "-norc", "-pdf", "-interaction=nonstopmode", "-halt-on-error",
               "-file-line-error", f"-outdir={tmp}", "paper.tex"]
        res = subprocess.run(cmd, cwd=reports, env=env, capture_output=True, text=True)
        log.info("latexmk output:\n%s", res.stdout[-4000:])
        if res.returncode != 0 or not (Path(tmp) / "paper.pdf").exists():
            latex_log = Path(tmp) / "paper.log"
            text = latex_log.read_text(errors="replace") if latex_log.exists() else res.stderr
            errors = [ln for ln in text.splitlines() if ln.startswith("!") or ":" in ln and
                      " error" in ln.lower() or re.match(r"^\S+\.tex:\d+:", ln)]
            raise TermweightError(f"{reports / 'paper.tex'}: LaTeX failed:\n  "
                                  + "\n  ".join(errors[:15] or text.splitlines()[-15:]))
        with io.atomic_path(out_pdf) as dst:
            shutil.copyfile(Path(tmp) / "paper.pdf", dst)
    log.info("wrote %s", out_pdf)


def cmd_report(args) -> None:
    from termweight.runner.config import load_params

    reports = Path(args.reports)
    root = Path(args.root)
    params = load_params(args.params)
    experiments = sorted(params.get("experiments", {}))
    generated = reports / "generated"
    summary, ran = summary_table(reports, Path(args.published))
    io.write_text(generated / "summary.tex", summary)
    io.write_text(generated / "claims.tex", claims_section(reports))
    from termweight.experiments.front import front_section

    rows, _ = summary_rows(reports, Path(args.published))
    keep = {f"{p}:{k}" for p, keys in readme_rows().items() for k in keys}
    io.write_text(generated / "front.tex", front_section(reports, rows, keep,
                                                         paper_claims(reports)))
    included, missing = included_sections(reports, experiments)
    io.write_text(generated / "included.tex", included)
    for paper in papers():
        io.write_text(generated / f"{paper}-more.tex", remaining_floats(reports, paper))
    prov = provenance(root, Path(args.params), reports)
    stamp, record = stamp_files(reports)
    # a rebuild from the inputs the committed stamp records puts back the committed stamp and
    # PDF (a fresh clone's quick start leaves `git status` clean): the stamp records the build
    # that produced these results and its environment, not the one that happens to rebuild them
    kept_paths = (stamp, record, Path(args.pdf))
    old = {path: committed_bytes(root, path) for path in kept_paths}
    recorded = json_stamp(old[stamp]) if old[stamp] is not None else None
    kept = same_build(recorded, prov) and all(b is not None for b in old.values())
    if kept:
        for path in kept_paths:
            if not path.exists() or path.read_bytes() != old[path]:
                with io.atomic_path(path) as tmp:
                    tmp.write_bytes(old[path])
        log.info("the PDF's inputs are those the committed stamp records: the committed %s kept",
                 ", ".join(map(str, kept_paths)))
    else:
        io.write_text(stamp, provenance_tex(prov))
        io.write_json(record, {**prov, "input_md5": input_md5s(reports, root)})
    log.info("papers run: %s; not run: %s", ran or "none", missing or "none")
    undefined = check_macros(reports)
    if undefined:
        log.warning("quoted but not defined by any macro file (shown as [?name]): %s",
                    ", ".join(undefined))
    if args.no_pdf or kept:
        return
    ok, missing_tools = tex_available()
    if not ok:
        msg = (f"termweight report: {missing_tools} not found: {args.pdf} was NOT built. The LaTeX "
               f"sources ({reports}/paper.tex, sections/, generated/, macros/, tables/, figures/) "
               f"are up to date. Install TeX to build the PDF: {TEX_INSTALL_HINT}")
        log.warning("%s", msg)
        print(msg, file=sys.stderr)
        return
    epoch = 0
    if os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
        epoch = int(os.environ["SOURCE_DATE_EPOCH"])
    elif prov["commit"]:
        epoch = int(_git(root, "log", "-1", "--format=%ct", "HEAD") or 0)
    build_pdf(reports, Path(args.pdf), epoch)


def check_stamp(root: Path, reports: Path, params_path: Path) -> list[str]:
    """How this checkout differs from the build ``reports/provenance.json`` records: one line per
    input file whose MD5 differs (or is missing or new), and the params or lock hash if changed."""
    from termweight import environment
    from termweight.runner.config import read_yaml

    path = stamp_files(reports)[1]
    rec = io.read_json_object(path)
    for key in ("input_md5", "params_hash", "lock"):
        if key not in rec:
            raise TermweightError(f"{path}: key {key!r} missing: not a build stamp")
    now = input_md5s(reports, root)
    out = [f"{f}: {'missing' if f not in now else 'new' if f not in rec['input_md5'] else 'changed'}"
           for f in sorted(set(now) | set(rec["input_md5"]))
           if now.get(f) != rec["input_md5"].get(f)]
    if io.canonical_hash(read_yaml(params_path)) != rec["params_hash"]:
        out.append(f"{params_path}: params hash differs from the stamp's")
    if environment.describe(root)["lock"]["sha256"] != rec["lock"]:
        out.append(f"{environment.LOCK}: lock file differs from the stamp's")
    return out


def cmd_provenance(args) -> None:
    root, reports = Path(args.root), Path(args.reports)
    if args.check:
        diffs = check_stamp(root, reports, Path(args.params))
        if diffs:
            print("\n".join(diffs))
            raise TermweightError(f"{reports / 'provenance.json'}: {len(diffs)} differences from "
                                  "the recorded build (listed above)")
        print(f"{reports / 'provenance.json'}: this checkout's inputs, params and lock are the "
              "recorded build's")
        return
    from termweight import environment

    print(json.dumps(environment.describe(root), indent=1, sort_keys=True))


def register(sub) -> None:
    p = sub.add_parser("report-provenance", help="environment (--check: stamp)",
                       description="Print the environment record (Python, packages, BLAS, lock "
                       "file), or check the checkout against the PDF's build stamp.\n\nexample:\n"
                       "  python -m termweight report-provenance --check",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="compare the PDF's inputs, params and lock "
                   "with reports/provenance.json (exit 2 on a difference)")
    p.add_argument("--params", default="params.yaml", help="(default: %(default)s)")
    p.add_argument("--reports", default="reports", help="(default: %(default)s)")
    p.add_argument("--root", default=".", help="project root (default: %(default)s)")
    p.set_defaults(func=cmd_provenance)

    p = sub.add_parser("report-summary", help="the README's results table, from reports/metrics",
                       description="Print the results-at-a-glance table, or write it into the "
                       "README's results block.\n\nexample:\n  python -m termweight report-summary "
                       "--readme README.md", formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--reports", default="reports", help="the reports/ directory (default: %(default)s)")
    p.add_argument("--published", default="src/termweight/experiments/published",
                   help="published numbers, one JSON per paper (default: %(default)s)")
    p.add_argument("--readme", help="replace the results block of this Markdown file")
    p.add_argument("--docs", help="replace the claims block of each <paper>.md in this directory "
                   "(docs/papers)")
    p.add_argument("--check", action="store_true",
                   help="with --readme/--docs: only check that the blocks are current (exit 2 if "
                   "not)")
    p.set_defaults(func=cmd_report_summary)

    p = sub.add_parser("report-macros", help="an experiment's LaTeX macros")
    p.add_argument("--params", required=True, help="params.yaml (the experiment's declared "
                   "encodings and splits, checked against the metrics)")
    p.add_argument("--exp", required=True)
    p.add_argument("--metrics", required=True, help="reports/metrics/<exp>.json")
    p.add_argument("--out", required=True, help="reports/macros/<exp>.tex")
    p.set_defaults(func=cmd_report_macros)

    p = sub.add_parser("report", help="summary, sections, provenance -> reports/paper.pdf")
    p.add_argument("--params", required=True)
    p.add_argument("--reports", default="reports")
    p.add_argument("--published", default="src/termweight/experiments/published")
    p.add_argument("--root", default=".", help="project root (git checkout, data/corpus)")
    p.add_argument("--pdf", default="reports/paper.pdf")
    p.add_argument("--no-pdf", action="store_true", help="only the generated LaTeX inputs")
    p.set_defaults(func=cmd_report)
