# The LaTeX report: slice macros -> summary table, sections, provenance -> reports/paper.pdf.
# The report is built from the configured experiments (`experiments:`, e.g. the offline slice) and
# from whatever paper results are on disk; it does NOT run the papers. Regenerate everything with
# `snakemake --cores 2 papers && snakemake --cores 2` (the second call rebuilds the PDF).
import shutil

from termweight.experiments.papers import papers as declared_papers

HAVE_TEX = all(shutil.which(tool) for tool in ("latexmk", "pdflatex"))
REPORT_GENERATED = [
    f"reports/generated/{name}.tex"
    for name in ["front", "summary", "included"]
    + [f"{p}-more" for p in declared_papers()]
]
# Without TeX the PDF is not declared (so the rule does not fail); the rule says why.
REPORT_OUTPUTS = REPORT_GENERATED + ["reports/macros/provenance.tex", "reports/provenance.json"] + (
    ["reports/paper.pdf"] if HAVE_TEX else []
)

rule report_macros:
    message:
        JOB_LINE
    wildcard_constraints:
        exp="|".join(EXPERIMENTS),
    input:
        code=code_of("report-macros"),
        metrics="reports/metrics/{exp}.json",
    output:
        "reports/macros/{exp}.tex",
    params:
        tracked=lambda w: EXPERIMENTS[w.exp],
    log:
        "logs/report/macros_{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} report-macros --params params.yaml --exp {wildcards.exp}"
        " --metrics {input.metrics}"
        " --out {output}"


rule report:
    message:
        JOB_LINE
    input:
        code=code_of("report"),
        tex=["reports/paper.tex"] + sorted(glob.glob("reports/sections/*.tex"))
        + paper_package_files("section.tex"),
        published=sorted(glob.glob("src/termweight/experiments/published/*.json"))
        + paper_package_files("published.json"),
        deviations="src/termweight/experiments/deviations.yaml",
        results=lambda w: sorted(_configured_reports()),
    output:
        [
            (
                report(p, category="Report", caption="../report/paper_pdf.rst")
                if p.endswith(".pdf")
                else p
            )
            for p in REPORT_OUTPUTS
        ],
    params:
        tracked=config,  # the provenance line quotes the params hash
        other_results=other_results_digest(),
    log:
        "logs/report/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} report --params params.yaml --pdf reports/paper.pdf"
