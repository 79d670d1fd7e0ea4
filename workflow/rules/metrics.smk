# A few headline numbers per paper and experiment -> reports/headlines.json: the README's results
# table (each paper's readme_rows, termweight.experiments.papers) with its claims' verdict counts,
# each configured experiment's micro- and macro-F1 per encoding, the benchmark's best weighting.
# DVC declares it (stage `headlines`) as its only `metrics:` file, so `dvc metrics show` is one
# row; the full reports/metrics/*.json are plain outputs of their rules.
# Run: `snakemake --cores 1 headlines`.

HEADLINES = "reports/headlines.json"


rule headlines:
    message:
        JOB_LINE
    input:
        code=code_of("headlines"),
        published=sorted(glob.glob("src/termweight/experiments/published/*.json"))
        + paper_package_files("published.json"),
        results=[f"reports/metrics/{exp}.json" for exp in EXPERIMENTS],
    output:
        report(
            HEADLINES,
            category="Headline numbers",
            caption="../report/headlines.rst",
        ),
    params:
        tracked=EXPERIMENTS,  # which experiments and encodings are reported
        # the papers' results are read but are not inputs (an input would let Snakemake rerun a
        # paper): their content hash (common.smk) makes the headlines follow them
        papers=other_results_digest(),
    log:
        "logs/headlines.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} headlines --params params.yaml --out {output}"
