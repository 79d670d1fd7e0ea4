# mukras: dvc.yaml's mukras_* stages, a rule for each. `snakemake --cores 2 mukras`.
# The rules follow params.yaml's `mukras` section: each entry of `mukras.datasets` (a unit) reads
# its corpus.
MUKRAS_CORPORA = sorted({p for unit in config["mukras"]["datasets"].values()
                         for p in corpus_of(unit["dataset"])})

rule mukras:
    input:
        "reports/metrics/mukras.json",
        "reports/tables/mukras_table1.tex",
        "reports/tables/mukras_grid.tex",
        "reports/tables/mukras_example.tex",
        "reports/figures/mukras_fig4.pdf",
        "reports/figures/mukras_fig4.png",
        "reports/figures/mukras_fig4.csv",
        "reports/figures/mukras_grid.pdf",
        "reports/figures/mukras_grid.png",
        "reports/figures/mukras_grid.csv",
        "reports/tables/mukras_movers.tex",
        "reports/macros/mukras.tex",


rule mukras_split:
    input:
        MUKRAS_CORPORA,
    output:
        directory("data/mukras/splits"),
    params:
        code=code("termweight.experiments.mukras"),
        tracked=tracked("seed", "mukras.datasets", "mukras.folds"),
    log:
        "logs/mukras/split.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-split --params params.yaml"
        " --corpus data/corpus/{{dataset}} --out data/mukras/splits/{{unit}}.npz"


rule mukras_score:
    input:
        MUKRAS_CORPORA,
        "data/mukras/splits",
        weighting_file("chi2"),
        weighting_file("ig"),
    output:
        directory("data/mukras/scores"),
    params:
        code=code("termweight.experiments.mukras"),
        tracked=tracked("seed", "mukras.selectors", "mukras.prp_columns"),
    log:
        "logs/mukras/score.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-score --params params.yaml"
        " --corpus data/corpus/{{dataset}} --splits data/mukras/splits/{{unit}}.npz"
        " --out data/mukras/scores/{{unit}}/{{fold}}.npz"


rule mukras_evaluate:
    input:
        MUKRAS_CORPORA,
        "data/mukras/splits",
        "data/mukras/scores",
    output:
        directory("data/mukras/evaluations"),
    params:
        code=code("termweight.experiments.mukras"),
        tracked=tracked("seed", "mukras.features", "mukras.classifiers", "mukras.fh_selectors", "mukras.svm_C"),
    log:
        "logs/mukras/evaluate.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-evaluate --params params.yaml"
        " --corpus data/corpus/{{dataset}} --splits data/mukras/splits/{{unit}}.npz"
        " --scores data/mukras/scores/{{unit}}/{{fold}}.npz"
        " --out data/mukras/evaluations/{{unit}}/{{fold}}.csv"


rule mukras_aggregate:
    input:
        "data/mukras/evaluations",
        "data/mukras/splits",
        "src/termweight/experiments/mukras/published.json",
        weighting_file("ig"),
    output:
        "data/mukras/results.csv",
        "data/mukras/curves.csv",
        "data/mukras/tests.csv",
        shown("mukras", "reports/metrics/mukras.json"),
    params:
        code=code("termweight.experiments.mukras.report"),
        tracked=tracked("mukras.ranges", "mukras.alpha"),
    log:
        "logs/mukras/aggregate.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-aggregate --params params.yaml"
        " --evaluations data/mukras/evaluations/{{unit}}/{{fold}}.csv"
        " --splits data/mukras/splits/{{unit}}.npz --out-results data/mukras/results.csv"
        " --out-curves data/mukras/curves.csv --out-tests data/mukras/tests.csv"
        " --out-metrics reports/metrics/mukras.json"
        " --published src/termweight/experiments/mukras/published.json"


rule mukras_tables:
    input:
        "data/mukras/tests.csv",
        "src/termweight/experiments/mukras/published.json",
        weighting_file("ig"),
    output:
        shown("mukras", "reports/tables/mukras_table1.tex"),
        shown("mukras", "reports/tables/mukras_grid.tex"),
        shown("mukras", "reports/tables/mukras_example.tex"),
    params:
        code=code("termweight.experiments.mukras.report"),
        tracked=tracked("mukras"),
    log:
        "logs/mukras/tables.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-tables --params params.yaml"
        " --tests data/mukras/tests.csv"
        " --published src/termweight/experiments/mukras/published.json"
        " --out-table1 reports/tables/mukras_table1.tex --out-grid reports/tables/mukras_grid.tex"
        " --out-example reports/tables/mukras_example.tex"


rule mukras_figures:
    input:
        "data/mukras/curves.csv",
        weighting_file("ig"),
    output:
        "reports/figures/mukras_fig4.pdf",
        shown("mukras", "reports/figures/mukras_fig4.png"),
        "reports/figures/mukras_fig4.csv",
        "reports/figures/mukras_grid.pdf",
        shown("mukras", "reports/figures/mukras_grid.png"),
        "reports/figures/mukras_grid.csv",
    params:
        code=code("termweight.experiments.mukras.report"),
        tracked=tracked("mukras"),
    log:
        "logs/mukras/figures.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-figures --params params.yaml"
        " --curves data/mukras/curves.csv --out-fig4 reports/figures/mukras_fig4.pdf"
        " --out-grid reports/figures/mukras_grid.pdf"


rule mukras_movers:
    input:
        MUKRAS_CORPORA,
        "data/mukras/splits",
        "data/mukras/scores",
        weighting_file("ig"),
    output:
        shown("mukras", "reports/tables/mukras_movers.tex"),
    params:
        code=code("termweight.experiments.mukras.report"),
        tracked=tracked("mukras"),
    log:
        "logs/mukras/movers.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-movers --params params.yaml"
        " --corpus data/corpus/{{dataset}} --splits data/mukras/splits/{{unit}}.npz"
        " --scores data/mukras/scores/{{unit}}/{{fold}}.npz"
        " --out reports/tables/mukras_movers.tex"


rule mukras_macros:
    input:
        "data/mukras/tests.csv",
        "data/mukras/splits",
        "src/termweight/experiments/mukras/published.json",
        weighting_file("ig"),
    output:
        "reports/macros/mukras.tex",
    params:
        code=code("termweight.experiments.mukras.report"),
        tracked=tracked("mukras"),
    log:
        "logs/mukras/macros.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} mukras-macros --params params.yaml"
        " --tests data/mukras/tests.csv --splits data/mukras/splits/{{unit}}.npz"
        " --published src/termweight/experiments/mukras/published.json"
        " --out reports/macros/mukras.tex"
