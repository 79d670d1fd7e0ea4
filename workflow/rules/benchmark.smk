# The term-weighting benchmark (docs/benchmark.md): params.yaml's `benchmark:` expanded into one
# generic run per dataset (termweight.config.benchmark_runs: bench_<dataset>), each through the
# generic steps (workflow/stages.yaml) with the same CLI: split -> stats -> score -> encode (all weightings,
# one job) -> per learner: train -> predict -> evaluate -> aggregate; then one statistics/report
# job (termweight.experiments.benchmark). Outputs under data/benchmark/; `snakemake benchmark`.
# Each step's output is the run's directory (as DVC's stages): ~20 runs x 41 weightings x 10
# splits x 3 learners as single files would cost Snakemake seconds of parsing on every call.
from termweight.config import benchmark_runs

BENCH = benchmark_runs(config)
BENCH_LEARNERS = config.get("benchmark", {}).get("learners", [])
BENCH_MEASURES = config.get("benchmark", {}).get("measures", ["micro_f1", "macro_f1", "accuracy"])
BENCH_DATA = "data/benchmark"


for _run, _e in BENCH.items():
    _corpus = f"data/corpus/{_e['dataset']}"
    _corpus_files = [f"{_corpus}/counts.npz", f"{_corpus}/meta.json", f"{_corpus}/terms.txt"]
    _split_dir = f"{BENCH_DATA}/splits/{_run}"
    _stats_dir = f"{BENCH_DATA}/stats/{_run}"
    _scores_dir = f"{BENCH_DATA}/scores/{_run}"
    _encoded_dir = f"{BENCH_DATA}/encoded/{_run}"
    _split = f"{_split_dir}/{{split}}.npz"
    _stats = f"{_stats_dir}/{{split}}.npz"
    _scores = f"{_scores_dir}/{{split}}.npz"
    _encoded = f"{_encoded_dir}/{{encoding}}/{{split}}.npz"

    rule:
        name:
            f"benchmark_split_{_run}"
        input:
            code=code_of("split"),
            corpus=_corpus_files,
        output:
            directory(_split_dir),
        params:
            exp=_run,
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            out=lambda w, output: output[0],
            tracked=[_e["protocol"], config["seed"]],
        log:
            f"logs/benchmark/split/{_run}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} split --params params.yaml --exp {params.exp}"
            " --corpus {params.corpus} --out-dir {params.out}"

    rule:
        name:
            f"benchmark_stats_{_run}"
        input:
            code=code_of("stats"),
            corpus=_corpus_files,
            splits=_split_dir,
        output:
            directory(_stats_dir),
        params:
            exp=_run,
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            split=lambda w, t=_split: t,
            out=lambda w, t=_stats: t,
        log:
            f"logs/benchmark/stats/{_run}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} stats --params params.yaml --exp {params.exp}"
            " --corpus {params.corpus} --split '{params.split}' --out '{params.out}'"

    rule:
        name:
            f"benchmark_score_{_run}"
        input:
            code=code_of("score"),
            stats=_stats_dir,
        output:
            directory(_scores_dir),
        params:
            exp=_run,
            stats=lambda w, t=_stats: t,
            out=lambda w, t=_scores: t,
            tracked=_e["scores"],
        log:
            f"logs/benchmark/score/{_run}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} score --params params.yaml --exp {params.exp}"
            " --stats '{params.stats}' --out '{params.out}'"

    rule:
        name:
            f"benchmark_encode_{_run}"
        input:
            code=code_of("encode"),
            corpus=_corpus_files,
            splits=_split_dir,
            stats=_stats_dir,
            scores=_scores_dir,
        output:
            directory(_encoded_dir),
        params:
            exp=_run,
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            split=lambda w, t=_split: t,
            stats=lambda w, t=_stats: t,
            scores=lambda w, t=_scores: t,
            out=lambda w, t=_encoded: t,
            tracked=[_e["encodings"], _e["mixch"]],
        threads: JOB_CORES  # parallel processes over splits (same bytes for any number)
        log:
            f"logs/benchmark/encode/{_run}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} encode --params params.yaml --exp {params.exp}"
            " --jobs {threads} --corpus {params.corpus} --split '{params.split}'"
            " --stats '{params.stats}' --scores '{params.scores}' --out '{params.out}'"

    for _learner in BENCH_LEARNERS:
        _model_dir = f"{BENCH_DATA}/models/{_run}/{_learner}"
        _pred_dir = f"{BENCH_DATA}/predictions/{_run}/{_learner}"
        _metrics_dir = f"{BENCH_DATA}/metrics/{_run}/{_learner}"
        _model = f"{_model_dir}/{{encoding}}/{{split}}.npz"
        _pred = f"{_pred_dir}/{{encoding}}/{{split}}.npz"
        _metrics = f"{_metrics_dir}/{{encoding}}/{{split}}.csv"
        _results = f"{BENCH_DATA}/results/{_run}/{_learner}"

        rule:
            name:
                f"benchmark_train_{_run}_{_learner}"
            input:
                code=code_of("train"),
                encoded=_encoded_dir,
            output:
                directory(_model_dir),
            params:
                exp=_run,
                learner=_learner,
                encoded=lambda w, t=_encoded: t,
                out=lambda w, t=_model: t,
                tracked=_e["fit"],
            threads: JOB_CORES  # parallel processes (same bytes for any number)
            log:
                f"logs/benchmark/train/{_run}_{_learner}.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} train --params params.yaml --exp {params.exp}"
                " --learner {params.learner} --jobs {threads} --encoded '{params.encoded}'"
                " --out '{params.out}'"

        rule:
            name:
                f"benchmark_predict_{_run}_{_learner}"
            input:
                code=code_of("predict"),
                encoded=_encoded_dir,
                models=_model_dir,
            output:
                directory(_pred_dir),
            params:
                exp=_run,
                encoded=lambda w, t=_encoded: t,
                model=lambda w, t=_model: t,
                out=lambda w, t=_pred: t,
            log:
                f"logs/benchmark/predict/{_run}_{_learner}.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} predict --params params.yaml --exp {params.exp}"
                " --encoded '{params.encoded}' --model '{params.model}' --out '{params.out}'"

        rule:
            name:
                f"benchmark_evaluate_{_run}_{_learner}"
            input:
                code=code_of("evaluate"),
                meta=f"{_corpus}/meta.json",
                encoded=_encoded_dir,
                models=_model_dir,
                predictions=_pred_dir,
            output:
                directory(_metrics_dir),
            params:
                exp=_run,
                encoded=lambda w, t=_encoded: t,
                model=lambda w, t=_model: t,
                pred=lambda w, t=_pred: t,
                out=lambda w, t=_metrics: t,
            log:
                f"logs/benchmark/evaluate/{_run}_{_learner}.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} evaluate --params params.yaml --exp {params.exp}"
                " --doc-accuracy --corpus-meta {input.meta} --encoded '{params.encoded}'"
                " --model '{params.model}' --predictions '{params.pred}' --out '{params.out}'"

        rule:
            name:
                f"benchmark_aggregate_{_run}_{_learner}"
            input:
                _metrics_dir,
                code=code_of("aggregate"),
            output:
                tasks=f"{_results}/tasks.csv",
                runs=f"{_results}/runs.csv",
                summary=f"{_results}/summary.json",
            params:
                exp=_run,
                metrics=lambda w, t=_metrics: t,
            log:
                f"logs/benchmark/aggregate/{_run}_{_learner}.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} aggregate --params params.yaml --exp {params.exp}"
                " --metrics '{params.metrics}' --out-tasks {output.tasks} --out-runs {output.runs}"
                " --out-json {output.summary}"


BENCH_REPORT = (
    [f"reports/tables/benchmark_{learner}.tex" for learner in BENCH_LEARNERS]
    + ["reports/tables/benchmark_tests.tex", "reports/metrics/benchmark.json",
       "reports/macros/benchmark.tex", f"{BENCH_DATA}/scores.csv", f"{BENCH_DATA}/tests.csv"]
    + [f"reports/figures/benchmark_cd_{learner}_{m}.{ext}" for learner in BENCH_LEARNERS
       for m in BENCH_MEASURES for ext in ("pdf", "png")]
    + [f"reports/figures/benchmark_heat_{learner}.{ext}" for learner in BENCH_LEARNERS
       for ext in ("pdf", "png")]
)


rule benchmark_report:
    input:
        code=code_of("benchmark-report"),
        runs=[f"{BENCH_DATA}/results/{run}/{learner}/runs.csv" for run in BENCH
              for learner in BENCH_LEARNERS],
    output:
        BENCH_REPORT,
    params:
        tracked=config.get("benchmark", {}),
    log:
        "logs/benchmark/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} benchmark-report --params params.yaml"
        " --runs 'data/benchmark/results/{{run}}/{{learner}}/runs.csv'"
        " --data data/benchmark --reports reports"


rule benchmark:
    input:
        BENCH_REPORT if BENCH else [],
