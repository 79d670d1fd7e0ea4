# The LaTeX report (termweight.experiments.report) and the headline numbers. They read every
# result under reports/, but only the generic experiments' are inputs: the papers' and the
# benchmark's committed results are a content hash among the params (committed_results_digest),
# so the default target never starts a paper's hours of work. dvc.yaml: report_macros, report,
# headlines (there the whole directories are dependencies: `dvc repro` reproduces everything).
import shutil

HAVE_TEX = all(shutil.which(tool) for tool in ("latexmk", "pdflatex"))
REPORT_GENERATED = [f"reports/generated/{name}.tex" for name in ["front", "summary", "included"]
                    + [f"{p}-more" for p in declared_papers()]]
# the build stamp (git commit) and the PDF that prints it: not DVC outputs (see dvc.yaml)
REPORT_OUTPUTS = REPORT_GENERATED + ["reports/macros/provenance.tex", "reports/provenance.json"] + (
    ["reports/paper.pdf"] if HAVE_TEX else [])
PAPER_FILES = [path for p in declared_papers() for f in ("section.tex", "published.json")
               if os.path.exists(path := f"src/termweight/experiments/{p}/{f}")]


rule report_macros:
    input:
        "reports/metrics/{exp}.json",
    output:
        "reports/macros/{exp}.tex",
    params:
        code=code("termweight.experiments.report"),
        tracked=tracked("experiments.{exp}"),
    log:
        "logs/report/macros_{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} report-macros --params params.yaml --exp {wildcards.exp}"
        " --metrics reports/metrics/{wildcards.exp}.json --out {output}"


rule report:
    input:
        "reports/paper.tex",
        sorted(glob.glob("reports/sections/*.tex")),
        sorted(glob.glob("src/termweight/experiments/published/*.json")),
        "src/termweight/experiments/deviations.yaml",
        "src/termweight/experiments/registrations.yaml",
        PAPER_FILES,
        EXPERIMENT_REPORTS,
    output:
        [report(p, category="Report", caption="../report/paper_pdf.rst") if p.endswith(".pdf")
         else p for p in REPORT_OUTPUTS],
    params:
        code=code("termweight.experiments.report"),
        tracked=config,  # the provenance line quotes the params hash
        committed=committed_results_digest(),
    log:
        "logs/report/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} report --params params.yaml --pdf reports/paper.pdf"


rule headlines:
    input:
        sorted(glob.glob("src/termweight/experiments/published/*.json")),
        [f for f in PAPER_FILES if f.endswith("published.json")],
        [f"reports/metrics/{exp}.json" for exp in EXPERIMENTS],
    output:
        report("reports/headlines.json", category="Headline numbers",
               caption="../report/headlines.rst"),
    params:
        code=code("termweight.steps.headlines"),
        tracked=tracked("experiments"),
        committed=committed_results_digest(),
    log:
        "logs/headlines.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} headlines --params params.yaml --out {output}"
