# kim: dvc.yaml's kim_* stages, a rule for each. `snakemake --cores 2 kim`.
# The rules follow params.yaml's `kim` section: one split, selection and fit per entry (key) of
# `kim.datasets`, a table per key; the convergence trace on the entry `kim.convergence.dataset`.
KIM = config["kim"]
KIM_CONVERGENCE_CORPUS = KIM["datasets"][KIM["convergence"]["dataset"]]["dataset"]
KIM_REPORTS = [
    *expand("reports/tables/kim_{key}.tex", key=list(KIM["datasets"])),
    *expand("reports/figures/kim_{name}.{ext}", name=["per_problem", "convergence"],
            ext=["pdf", "png", "csv"]),
    "reports/macros/kim.tex",
    "reports/metrics/kim.json",
]


rule kim:
    input:
        KIM_REPORTS,


rule kim_split:
    input:
        item_path("data/corpus/{dataset}/counts.npz", "kim.datasets"),
        item_path("data/corpus/{dataset}/terms.txt", "kim.datasets"),
        item_path("data/corpus/{dataset}/meta.json", "kim.datasets"),
    output:
        directory("data/kim/{key}/splits"),
    params:
        code=code("termweight.experiments.kim"),
        tracked=tracked("seed", "kim.datasets.{key}", "kim.train_fraction?", "kim.stratified?"),
        dataset=item("kim.datasets", "dataset"),
    log:
        "logs/kim/split_{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} kim-split --params params.yaml --key {wildcards.key}"
        " --corpus data/corpus/{params.dataset} --out-dir data/kim/{wildcards.key}/splits"


rule kim_select:
    input:
        item_path("data/corpus/{dataset}/counts.npz", "kim.datasets"),
        item_path("data/corpus/{dataset}/meta.json", "kim.datasets"),
        item_path("data/corpus/{dataset}/terms.txt", "kim.datasets"),
        "data/kim/{key}/splits",
        weighting_file("kim"),
    output:
        directory("data/kim/{key}/select"),
    params:
        code=code("termweight.experiments.kim"),
        tracked=tracked("seed", "kim.datasets.{key}", "kim.methods", "kim.base_scale?", "kim.validation", "kim.svm?", "kim.mixch?", "kim.minimax"),
        dataset=item("kim.datasets", "dataset"),
    log:
        "logs/kim/select_{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} kim-select --params params.yaml --key {wildcards.key}"
        " --corpus data/corpus/{params.dataset}"
        " --split data/kim/{wildcards.key}/splits/{{split}}.npz"
        " --out data/kim/{wildcards.key}/select/{{split}}.csv"


rule kim_fit:
    input:
        item_path("data/corpus/{dataset}/counts.npz", "kim.datasets"),
        item_path("data/corpus/{dataset}/meta.json", "kim.datasets"),
        item_path("data/corpus/{dataset}/terms.txt", "kim.datasets"),
        "data/kim/{key}/splits",
        "data/kim/{key}/select",
        weighting_file("kim"),
    output:
        directory("data/kim/{key}/fit"),
    params:
        code=code("termweight.experiments.kim"),
        tracked=tracked("kim.datasets.{key}", "kim.methods", "kim.base_scale?", "kim.svm?", "kim.mixch?", "kim.minimax"),
        dataset=item("kim.datasets", "dataset"),
    log:
        "logs/kim/fit_{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} kim-fit --params params.yaml --key {wildcards.key}"
        " --corpus data/corpus/{params.dataset}"
        " --split data/kim/{wildcards.key}/splits/{{split}}.npz"
        " --select data/kim/{wildcards.key}/select/{{split}}.csv"
        " --out data/kim/{wildcards.key}/fit/{{split}}.csv"


rule kim_convergence:
    input:
        f"data/kim/{cfg('kim.convergence.dataset')}/splits",
        corpus_of(KIM_CONVERGENCE_CORPUS),
        weighting_file("kim"),
    output:
        "data/kim/convergence.json",
    params:
        code=code("termweight.experiments.kim"),
        tracked=tracked("kim.convergence", "kim.base_scale?", "kim.mixch?", "kim.minimax"),
        kim_convergence_dataset=cfg("kim.convergence.dataset"),
        kim_convergence_split=cfg("kim.convergence.split"),
    log:
        "logs/kim/convergence.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} kim-convergence --params params.yaml"
        f" --corpus data/corpus/{KIM_CONVERGENCE_CORPUS}"
        " --split data/kim/{params.kim_convergence_dataset}/splits/{params.kim_convergence_split}.npz"
        " --out data/kim/convergence.json"


rule kim_report:
    input:
        expand("data/kim/{key}/fit", key=list(KIM["datasets"])),
        sorted({f"data/corpus/{d['dataset']}/meta.json" for d in KIM["datasets"].values()}),
        "data/kim/convergence.json",
        "src/termweight/experiments/kim/published.json",
        "benchmarks/results/probe_kim_single_sg.json",
    output:
        "data/kim/runs.csv",
        [shown("kim", path) for path in KIM_REPORTS],
    params:
        code=code("termweight.experiments.kim.report"),
        tracked=tracked("kim.datasets"),
    log:
        "logs/kim/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} kim-report --params params.yaml"
        " --meta 'data/corpus/{{dataset}}/meta.json' --fits 'data/kim/{{key}}/fit/{{split}}.csv'"
        " --convergence data/kim/convergence.json"
        " --sg-probe benchmarks/results/probe_kim_single_sg.json --out-runs data/kim/runs.csv"
        " --out-json reports/metrics/kim.json --tables reports/tables --figures reports/figures"
        " --macros reports/macros/kim.tex"
