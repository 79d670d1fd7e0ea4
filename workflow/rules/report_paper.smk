# The LaTeX report: slice macros -> summary table, sections, provenance -> reports/paper.pdf.
# The report is built from the configured experiments (`experiments:`, e.g. the offline slice) and
# from whatever paper results are on disk; it does NOT run the papers. Regenerate everything with
# `snakemake --cores 2 papers && snakemake --cores 2` (the second call rebuilds the PDF).
import os
import shutil

HAVE_TEX = all(shutil.which(tool) for tool in ("latexmk", "pdflatex"))
REPORT_CODE = ["src/termweight/experiments/report.py", "src/termweight/reporting.py"]
REPORT_GENERATED = [
    f"reports/generated/{name}.tex"
    for name in ["summary", "included"]
    + [f"{p}-more" for p in ("esuli", "mukras", "forman", "kim", "ferreira")]
]
# Without TeX the PDF is not declared (so the rule does not fail); the rule says why.
REPORT_OUTPUTS = REPORT_GENERATED + ["reports/macros/provenance.tex"] + (
    ["reports/paper.pdf"] if HAVE_TEX else []
)

# Results on disk are inputs too: papers not configured here but run before get their sections.
REPORT_GLOBS = [
    "reports/metrics/*.json",
    "reports/tables/*.tex",
    "reports/figures/*.pdf",
    "reports/macros/*.tex",
]


rule report_macros:
    wildcard_constraints:
        exp="|".join(EXPERIMENTS),
    input:
        code="src/termweight/experiments/report.py",
        metrics="reports/metrics/{exp}.json",
    output:
        "reports/macros/{exp}.tex",
    log:
        "logs/report/macros_{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} report-macros --exp {wildcards.exp} --metrics {input.metrics}"
        " --out {output}"


rule report:
    input:
        code=REPORT_CODE,
        tex=["reports/paper.tex"] + sorted(glob.glob("reports/sections/*.tex")),
        published=sorted(glob.glob("src/termweight/experiments/published/*.json")),
        # every configured experiment's outputs, plus the results of papers whose intermediates
        # are in this workspace (run here, or restored with DVC: kept up to date first). Committed
        # results of papers NOT run here (a fresh clone) are read as they are, never regenerated:
        # the default target must not start the papers' hours of work.
        results=lambda w: sorted(
            set(all_reports() + [f"reports/macros/{e}.tex" for e in EXPERIMENTS])
            | {
                p
                for pat in REPORT_GLOBS
                for p in glob.glob(pat)
                if not p.endswith("provenance.tex")
                and os.path.isdir(f"data/{os.path.basename(p).split('.')[0].split('_')[0]}")
                and os.path.basename(p).split(".")[0].split("_")[0] not in EXPERIMENTS
            }
        ),
    output:
        REPORT_OUTPUTS,
    params:
        tracked=config,  # the provenance line quotes the params hash
    log:
        "logs/report/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} report --params params.yaml --pdf reports/paper.pdf"
