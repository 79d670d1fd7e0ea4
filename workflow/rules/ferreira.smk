# ferreira: dvc.yaml's ferreira_* stages, a rule for each. `snakemake --cores 2 ferreira`.
# The rules follow params.yaml's `ferreira` section: its datasets, and the optional multi-class
# experiment (`ferreira.multiclass`), the Example1 figure's table (svmlight_example1) and Dexter's
# unlabelled test rows (dexter) where those are configured.
FERREIRA = config["ferreira"]
FERREIRA_DATASETS = list(FERREIRA["datasets"])
FERREIRA_MC = "multiclass" in FERREIRA
FERREIRA_MC_ERRORS = ["data/ferreira/multiclass/errors.csv"] if FERREIRA_MC else []
FERREIRA_DEXTER = ["data/corpus/dexter/meta.json"] if "dexter" in FERREIRA_DATASETS else []


# the optional arguments of the collect, figures and tables steps, as configured
FERREIRA_MC_OPTION = " --multiclass data/ferreira/multiclass/errors.csv" if FERREIRA_MC else ""
FERREIRA_OPTIONS = FERREIRA_MC_OPTION + (" --dexter-test data/raw/dexter" if FERREIRA_DEXTER else "")
FERREIRA_FIGURES = expand("reports/figures/ferreira_{name}.{ext}", ext=["pdf", "png", "csv"],
                          name=FERREIRA_DATASETS + (["multiclass"] if FERREIRA_MC else []))
FERREIRA_TABLES = [
    "reports/tables/ferreira_best.tex",
    "reports/tables/ferreira_datasets.tex",
    *(["reports/tables/ferreira_fig1.tex"] if "svmlight_example1" in FERREIRA_DATASETS else []),
    *(["reports/tables/ferreira_multiclass.tex"] if FERREIRA_MC else []),
    "reports/macros/ferreira.tex",
]


rule ferreira:
    input:
        "reports/metrics/ferreira.json",
        FERREIRA_FIGURES,
        FERREIRA_TABLES,


rule ferreira_split:
    input:
        "data/corpus/{key}/counts.npz",
        "data/corpus/{key}/meta.json",
        "data/corpus/{key}/terms.txt",
    output:
        directory("data/ferreira/splits/{key}"),
    params:
        code=code("termweight.experiments.ferreira"),
        tracked=tracked("seed", "ferreira.datasets.{key}"),
    log:
        "logs/ferreira/split/{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} ferreira-split --params params.yaml"
        " --dataset {wildcards.key} --corpus data/corpus/{wildcards.key}"
        " --out-dir data/ferreira/splits/{wildcards.key}"


rule ferreira_run:
    input:
        "data/corpus/{key}/counts.npz",
        "data/corpus/{key}/terms.txt",
        "data/corpus/{key}/meta.json",
        "data/ferreira/splits/{key}",
        weighting_file("chi2"),
    output:
        directory("data/ferreira/errors/{key}"),
        directory("data/ferreira/rankings/{key}"),
    params:
        code=code("termweight.experiments.ferreira"),
        tracked=tracked("seed", "ferreira.svm_C", "ferreira.modest_rounds", "ferreira.datasets.{key}"),
    log:
        "logs/ferreira/run/{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} ferreira-run --params params.yaml"
        " --dataset {wildcards.key} --corpus data/corpus/{wildcards.key}"
        " --split data/ferreira/splits/{wildcards.key}/{{split}}.npz"
        " --out data/ferreira/errors/{wildcards.key}/{{split}}.csv"
        " --rankings data/ferreira/rankings/{wildcards.key}/{{split}}.npz"


if FERREIRA_MC:

    rule ferreira_multiclass:
        input:
            f"data/corpus/{cfg('ferreira.multiclass.dataset')}/counts.npz",
            f"data/corpus/{cfg('ferreira.multiclass.dataset')}/terms.txt",
            f"data/corpus/{cfg('ferreira.multiclass.dataset')}/meta.json",
            weighting_file("chi2"),
        output:
            "data/ferreira/multiclass/errors.csv",
        params:
            code=code("termweight.experiments.ferreira"),
            tracked=tracked("seed", "ferreira.svm_C", "ferreira.multiclass"),
            ferreira_multiclass_dataset=cfg("ferreira.multiclass.dataset"),
        log:
            "logs/ferreira/multiclass.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} ferreira-multiclass --params params.yaml"
            " --corpus data/corpus/{params.ferreira_multiclass_dataset}"
            " --out data/ferreira/multiclass/errors.csv"


rule ferreira_collect:
    input:
        expand("data/ferreira/errors/{key}", key=FERREIRA_DATASETS),
        expand("data/ferreira/splits/{key}", key=FERREIRA_DATASETS),
        FERREIRA_MC_ERRORS,
        "src/termweight/experiments/ferreira/published.json",
        "benchmarks/results/selection_ferreira.json",
        "benchmarks/results/probe_ferreira_all_features.json",
        FERREIRA_DEXTER,
    output:
        "data/ferreira/all_errors.csv",
        "data/ferreira/summary.csv",
        shown("ferreira", "reports/metrics/ferreira.json"),
    params:
        code=code("termweight.experiments.ferreira.report"),
        tracked=tracked("ferreira.datasets"),
        options=FERREIRA_OPTIONS,
    log:
        "logs/ferreira/collect.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} ferreira-collect --params params.yaml"
        " --errors data/ferreira/errors/{{dataset}}/{{split}}.csv"
        " --index data/ferreira/splits/{{dataset}}/index.json"
        " --published src/termweight/experiments/ferreira/published.json{params.options}"
        " --timings benchmarks/results/selection_ferreira.json"
        " --probe benchmarks/results/probe_ferreira_all_features.json"
        " --out-errors data/ferreira/all_errors.csv --out-summary data/ferreira/summary.csv"
        " --out-json reports/metrics/ferreira.json"


rule ferreira_figures:
    input:
        "data/ferreira/summary.csv",
        FERREIRA_MC_ERRORS,
    output:
        [shown("ferreira", path) for path in FERREIRA_FIGURES],
    params:
        code=code("termweight.experiments.ferreira.report"),
        tracked=tracked("ferreira.datasets"),
        options=FERREIRA_MC_OPTION,
    log:
        "logs/ferreira/figures.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} ferreira-figures --params params.yaml"
        " --summary data/ferreira/summary.csv{params.options} --out-dir reports/figures"


rule ferreira_tables:
    input:
        "data/ferreira/summary.csv",
        expand("data/ferreira/splits/{key}", key=FERREIRA_DATASETS),
        FERREIRA_MC_ERRORS,
        "src/termweight/experiments/ferreira/published.json",
        "benchmarks/results/selection_ferreira.json",
        FERREIRA_DEXTER,
    output:
        [shown("ferreira", path) for path in FERREIRA_TABLES],
    params:
        code=code("termweight.experiments.ferreira.report"),
        tracked=tracked("ferreira"),
        options=FERREIRA_OPTIONS,
    log:
        "logs/ferreira/tables.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} ferreira-tables --params params.yaml"
        " --summary data/ferreira/summary.csv"
        " --published src/termweight/experiments/ferreira/published.json"
        " --index data/ferreira/splits/{{dataset}}/index.json"
        "{params.options}"
        " --out-dir reports"
