# The term-weighting benchmark (docs/benchmark.md): `snakemake --cores 2 benchmark`. Per dataset
# of benchmark.datasets (run bench_<dataset>): splits and statistics; per dataset and weighting
# module of benchmark.modules, one column job (every weighting of that module, every learner
# and split); aggregates per dataset and learner; the statistics and the report. dvc.yaml: the
# benchmark_* stages.
B_DATASETS = list(BENCHMARK.get("datasets", {}))
B_LEARNERS = BENCHMARK.get("learners", [])
SENSITIVITY = BENCHMARK.get("sensitivity") or {}
CURVES = BENCHMARK.get("curves") or {}
SECOND_SEED = BENCHMARK.get("second_seed") or {}


rule benchmark:
    """The benchmark's report, the fastText reference row, the published numbers rerun, and each
    study whose datasets params.yaml lists (sensitivity, curves, second seed)."""
    input:
        "reports/metrics/benchmark.json",
        "reports/metrics/benchmark_reference.json",
        "reports/metrics/external.json",
        ["reports/metrics/benchmark_sensitivity.json"] if SENSITIVITY.get("datasets") else [],
        ["reports/metrics/benchmark_curves.json"] if CURVES.get("datasets") else [],
        ["reports/metrics/benchmark_seed.json"] if SECOND_SEED.get("datasets") else [],


rule benchmark_split:
    input:
        lambda w: corpus_of(w.dataset),
    output:
        directory("data/benchmark/splits/bench_{dataset}"),
    params:
        code=code("termweight.steps.split"),
        tracked=tracked("seed", "benchmark.protocol", "benchmark.datasets.{dataset}"),
    log:
        "logs/benchmark/split/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} split --params params.yaml --exp bench_{wildcards.dataset}"
        " --corpus data/corpus/{wildcards.dataset} --out-dir {output}"


rule benchmark_stats:
    input:
        lambda w: corpus_of(w.dataset),
        "data/benchmark/splits/bench_{dataset}",
    output:
        directory("data/benchmark/stats/bench_{dataset}"),
    params:
        code=code("termweight.steps.features"),
        tracked=tracked("benchmark.protocol", "benchmark.datasets.{dataset}"),
    log:
        "logs/benchmark/stats/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} stats --params params.yaml --exp bench_{wildcards.dataset}"
        " --corpus data/corpus/{wildcards.dataset}"
        " --split data/benchmark/splits/bench_{wildcards.dataset}/{{split}}.npz"
        " --out data/benchmark/stats/bench_{wildcards.dataset}/{{split}}.npz"


rule benchmark_settings:
    input:
    output:
        "data/benchmark/settings.json",
    params:
        code=code("termweight.steps.column"),
        tracked=tracked("seed", "benchmark.learners", "benchmark.tuning", "benchmark.C",
                        "benchmark.relative_C", "benchmark.max_iter"),
    log:
        "logs/benchmark/settings.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} benchmark-settings --params params.yaml --out {output}"


rule benchmark_column:
    input:
        column_inputs(),
    output:
        directory("data/benchmark/columns/bench_{dataset}/{weighting}"),
    params:
        code=code("termweight.steps.column"),
        tracked=tracked("benchmark.weightings", "benchmark.mixch"),
    log:
        "logs/benchmark/column/{dataset}_{weighting}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} benchmark-column --params params.yaml"
        " --exp bench_{wildcards.dataset} --weighting {wildcards.weighting}"
        " --corpus data/corpus/{wildcards.dataset}"
        " --split data/benchmark/splits/bench_{wildcards.dataset}/{{split}}.npz"
        " --stats data/benchmark/stats/bench_{wildcards.dataset}/{{split}}.npz"
        " --settings data/benchmark/settings.json"
        " --out data/benchmark/columns/bench_{wildcards.dataset}/{wildcards.weighting}/{{encoding}}.csv"
        " --out-seconds data/benchmark/seconds/bench_{wildcards.dataset}/{{encoding}}.json"


rule benchmark_aggregate:
    input:
        lambda w: expand("data/benchmark/columns/bench_{dataset}/{weighting}", dataset=w.dataset,
                         weighting=BENCHMARK["modules"]),
    output:
        tasks="data/benchmark/results/bench_{dataset}/{learner}/tasks.csv",
        runs="data/benchmark/results/bench_{dataset}/{learner}/runs.csv",
        summary="data/benchmark/results/bench_{dataset}/{learner}/summary.json",
    params:
        code=code("termweight.steps.results"),
        tracked=tracked("benchmark.weightings"),
    log:
        "logs/benchmark/aggregate/{dataset}_{learner}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} aggregate --params params.yaml"
        " --exp bench_{wildcards.dataset}"
        " --metrics data/benchmark/columns/bench_{wildcards.dataset}/{{group}}/{{encoding}}.csv"
        " --learner {wildcards.learner} --out-tasks {output.tasks} --out-runs {output.runs}"
        " --out-json {output.summary}"


rule benchmark_report:
    input:
        expand("data/benchmark/results/bench_{dataset}/{learner}/runs.csv", dataset=B_DATASETS,
               learner=B_LEARNERS),
        expand("data/benchmark/columns/bench_{dataset}/{weighting}", dataset=B_DATASETS,
               weighting=BENCHMARK.get("modules", [])),
        "benchmarks/results/benchmark_columns_seconds.csv",
        "src/termweight/experiments/hierarchical_t_test.stan",
    output:
        "data/benchmark/scores.csv",
        "data/benchmark/tests.csv",
        "data/benchmark/pairwise.csv",
        "reports/tables/benchmark_tests.tex",
        "reports/tables/benchmark_datasets.csv",
        "reports/tables/benchmark_datasets.tex",
        "reports/metrics/benchmark.json",
        "reports/macros/benchmark.tex",
        "reports/tables/benchmark_comparisons.csv",
        "reports/tables/benchmark_comparisons.tex",
        "reports/tables/benchmark_majority.tex",
        "reports/tables/benchmark_cost.csv",
        "reports/tables/benchmark_cost.tex",
        "reports/figures/benchmark_comparisons.pdf",
        "reports/figures/benchmark_comparisons.png",
        "reports/figures/benchmark_chosen.pdf",
        "reports/figures/benchmark_chosen.png",
        "reports/figures/benchmark_size.pdf",
        "reports/figures/benchmark_size.png",
        "reports/figures/benchmark_size.csv",
    params:
        code=code("termweight.experiments.benchmark"),
        tracked=tracked("benchmark", "forman.datasets"),
    log:
        "logs/benchmark/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} benchmark-report --params params.yaml"
        " --runs 'data/benchmark/results/{{run}}/{{learner}}/runs.csv' --data data/benchmark"
        " --reports reports --seconds benchmarks/results/benchmark_columns_seconds.csv"
        " --columns 'data/benchmark/columns/{{run}}/{{group}}/{{weighting}}.csv'"


# The sensitivity study: the columns again with the other row normalisation.
rule benchmark_sensitivity_column:
    input:
        column_inputs(),
    output:
        directory("data/benchmark/sensitivity/columns/bench_{dataset}/{weighting}"),
    params:
        code=code("termweight.steps.column"),
        tracked=tracked("benchmark.weightings", "benchmark.mixch", "benchmark.sensitivity.normalize"),
    log:
        "logs/benchmark/sensitivity/column/{dataset}_{weighting}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} benchmark-column --params params.yaml"
        " --exp bench_{wildcards.dataset} --weighting {wildcards.weighting}"
        f" --normalize {SENSITIVITY.get('normalize')} --corpus data/corpus/{{wildcards.dataset}}"
        " --split data/benchmark/splits/bench_{wildcards.dataset}/{{split}}.npz"
        " --stats data/benchmark/stats/bench_{wildcards.dataset}/{{split}}.npz"
        " --settings data/benchmark/settings.json"
        " --out data/benchmark/sensitivity/columns/bench_{wildcards.dataset}/{wildcards.weighting}/{{encoding}}.csv"
        " --out-seconds data/benchmark/sensitivity/seconds/bench_{wildcards.dataset}/{{encoding}}.json"


rule benchmark_sensitivity_aggregate:
    input:
        lambda w: expand("data/benchmark/sensitivity/columns/bench_{dataset}/{weighting}",
                         dataset=w.dataset, weighting=BENCHMARK["modules"]),
    output:
        tasks="data/benchmark/sensitivity/results/bench_{dataset}/{learner}/tasks.csv",
        runs="data/benchmark/sensitivity/results/bench_{dataset}/{learner}/runs.csv",
        summary="data/benchmark/sensitivity/results/bench_{dataset}/{learner}/summary.json",
    params:
        code=code("termweight.steps.results"),
        tracked=tracked("benchmark.weightings"),
    log:
        "logs/benchmark/sensitivity/aggregate/{dataset}_{learner}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} aggregate --params params.yaml"
        " --exp bench_{wildcards.dataset}"
        " --metrics data/benchmark/sensitivity/columns/bench_{wildcards.dataset}/{{group}}/{{encoding}}.csv"
        " --learner {wildcards.learner} --out-tasks {output.tasks} --out-runs {output.runs}"
        " --out-json {output.summary}"


rule benchmark_sensitivity:
    input:
        expand("data/benchmark/results/bench_{dataset}/{learner}/runs.csv",
               dataset=SENSITIVITY.get("datasets", []), learner=B_LEARNERS),
        expand("data/benchmark/sensitivity/results/bench_{dataset}/{learner}/runs.csv",
               dataset=SENSITIVITY.get("datasets", []), learner=B_LEARNERS),
    output:
        "reports/tables/benchmark_sensitivity.csv",
        "reports/tables/benchmark_sensitivity.tex",
        "reports/metrics/benchmark_sensitivity.json",
        "reports/macros/benchmark_sensitivity.tex",
    params:
        code=code("termweight.experiments.sensitivity"),
        tracked=tracked("benchmark.sensitivity", "benchmark.tuning", "benchmark.measures"),
    log:
        "logs/benchmark/sensitivity.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} sensitivity-compare --params params.yaml"
        " --runs 'data/benchmark/results/{{run}}/{{learner}}/runs.csv'"
        " --other-runs 'data/benchmark/sensitivity/results/{{run}}/{{learner}}/runs.csv' --reports reports"


# Learning curves (registered in src/termweight/experiments/registrations.yaml before the run).
rule benchmark_curves_column:
    input:
        column_inputs(stats=False),
    output:
        directory("data/benchmark/curves/columns/bench_{dataset}/{weighting}"),
    params:
        code=code("termweight.experiments.curves"),
        tracked=tracked("seed", "benchmark.mixch", "benchmark.curves"),
    log:
        "logs/benchmark/curves/column/{dataset}_{weighting}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} curves-column --params params.yaml"
        " --exp bench_{wildcards.dataset} --weighting {wildcards.weighting}"
        " --corpus data/corpus/{wildcards.dataset}"
        " --split data/benchmark/splits/bench_{wildcards.dataset}/{{split}}.npz"
        " --settings data/benchmark/settings.json"
        " --out data/benchmark/curves/columns/bench_{wildcards.dataset}/{wildcards.weighting}/{{encoding}}.csv"
        " --out-seconds data/benchmark/curves/seconds/bench_{wildcards.dataset}/{{encoding}}.json"


rule benchmark_curves:
    input:
        expand("data/benchmark/curves/columns/bench_{dataset}/{weighting}",
               dataset=CURVES.get("datasets", []), weighting=CURVES.get("modules", [])),
        expand("data/benchmark/columns/bench_{dataset}/{weighting}",
               dataset=CURVES.get("datasets", []), weighting=CURVES.get("modules", [])),
        "src/termweight/experiments/registrations.yaml",
    output:
        "reports/tables/benchmark_curves.csv",
        "reports/tables/benchmark_curves.tex",
        "reports/metrics/benchmark_curves.json",
        "reports/macros/benchmark_curves.tex",
        "reports/figures/benchmark_curves.pdf",
        "reports/figures/benchmark_curves.png",
        "reports/figures/benchmark_curves.csv",
    params:
        code=code("termweight.experiments.curves"),
        tracked=tracked("benchmark.curves", "benchmark.controls", "benchmark.learners",
                        "benchmark.measures"),
    log:
        "logs/benchmark/curves.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} curves-report --params params.yaml"
        " --columns 'data/benchmark/curves/columns/{{run}}/{{group}}/{{weighting}}.csv'"
        " --full 'data/benchmark/columns/{{run}}/{{group}}/{{weighting}}.csv' --reports reports"


# A second fold seed (registered before the run).
rule benchmark_seed_column:
    input:
        lambda w: [weighting_file(w.weighting), "data/benchmark/settings.json", *corpus_of(w.dataset)],
    output:
        directory("data/benchmark/seed/columns/bench_{dataset}/{weighting}"),
    params:
        code=code("termweight.experiments.seed"),
        tracked=tracked("benchmark.weightings", "benchmark.mixch", "benchmark.protocol",
                        "benchmark.second_seed.seed"),
    log:
        "logs/benchmark/seed/column/{dataset}_{weighting}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} seed-column --params params.yaml"
        " --exp bench_{wildcards.dataset} --weighting {wildcards.weighting}"
        " --corpus data/corpus/{wildcards.dataset} --settings data/benchmark/settings.json"
        " --out data/benchmark/seed/columns/bench_{wildcards.dataset}/{wildcards.weighting}/{{encoding}}.csv"
        " --out-seconds data/benchmark/seed/seconds/bench_{wildcards.dataset}/{{encoding}}.json"


rule benchmark_seed:
    input:
        expand("data/benchmark/seed/columns/bench_{dataset}/{weighting}",
               dataset=SECOND_SEED.get("datasets", []), weighting=BENCHMARK.get("modules", [])),
        expand("data/benchmark/columns/bench_{dataset}/{weighting}",
               dataset=SECOND_SEED.get("datasets", []), weighting=BENCHMARK.get("modules", [])),
        "src/termweight/experiments/registrations.yaml",
    output:
        "reports/tables/benchmark_seed.csv",
        "reports/tables/benchmark_seed.tex",
        "reports/metrics/benchmark_seed.json",
        "reports/macros/benchmark_seed.tex",
    params:
        code=code("termweight.experiments.seed"),
        tracked=tracked("seed", "benchmark.second_seed", "benchmark.protocol", "benchmark.weightings",
                        "benchmark.comparisons?", "benchmark.learners", "benchmark.measures"),
    log:
        "logs/benchmark/seed.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} seed-report --params params.yaml"
        " --columns 'data/benchmark/seed/columns/{{run}}/{{group}}/{{weighting}}.csv'"
        " --first 'data/benchmark/columns/{{run}}/{{group}}/{{weighting}}.csv' --reports reports"


# A reference row outside term weighting: fastText from scratch on every dataset's splits.
rule benchmark_reference:
    input:
        lambda w: ["data/benchmark/settings.json", *corpus_of(w.dataset),
                   f"data/benchmark/splits/bench_{w.dataset}"],
    output:
        "data/benchmark/reference/bench_{dataset}/fasttext.csv",
    params:
        code=code("termweight.steps.reference"),
        tracked=tracked("seed"),
    log:
        "logs/benchmark/reference/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} benchmark-reference --params params.yaml"
        " --exp bench_{wildcards.dataset} --corpus data/corpus/{wildcards.dataset}"
        " --split data/benchmark/splits/bench_{wildcards.dataset}/{{split}}.npz"
        " --settings data/benchmark/settings.json --out {output}"


rule benchmark_reference_report:
    input:
        expand("data/benchmark/reference/bench_{dataset}/fasttext.csv", dataset=B_DATASETS),
        expand("data/benchmark/results/bench_{dataset}/{learner}/runs.csv", dataset=B_DATASETS,
               learner=B_LEARNERS),
        "reports/metrics/benchmark.json",
        "src/termweight/experiments/registrations.yaml",
    output:
        "reports/tables/benchmark_reference.csv",
        "reports/tables/benchmark_reference.tex",
        "reports/metrics/benchmark_reference.json",
        "reports/macros/benchmark_reference.tex",
    params:
        code=code("termweight.experiments.reference"),
        tracked=tracked("benchmark"),
    log:
        "logs/benchmark/reference_report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} reference-report --params params.yaml"
        " --reference 'data/benchmark/reference/{{run}}/fasttext.csv'"
        " --runs 'data/benchmark/results/{{run}}/{{learner}}/runs.csv'"
        " --conclusions reports/metrics/benchmark.json --reports reports"


# Published numbers on 20 Newsgroups and R8 from other papers, rerun here.
rule benchmark_external:
    input:
        "data/documents/20news/documents.json",
        corpus_of("cachopo_r8"),
        "src/termweight/experiments/published/external.json",
    output:
        "reports/tables/external.csv",
        "reports/tables/external.tex",
        "reports/metrics/external.json",
    params:
        code=code("termweight.experiments.external"),
    log:
        "logs/benchmark/external.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} external-compare --raw-20news data/raw/20news"
        " --corpus-r8 data/corpus/cachopo_r8 --published src/termweight/experiments/published/external.json"
        " --out-csv reports/tables/external.csv --out-tex reports/tables/external.tex"
        " --out-json reports/metrics/external.json"
