# Per experiment and step, ONE job over all its splits and encodings, exactly as DVC's stages:
# statistics -> scores -> encoded matrices -> models -> predictions -> per-task metrics.
# The default on one machine (a job costs ~1.5 s of Python start-up; the slice has 8 splits x 4
# encodings). `--config fanout=split` (the Slurm profile) uses features.smk + learn.smk instead:
# one job per split (and encoding). Both call the same CLI and write the same bytes.


for _exp, _e in EXPERIMENTS.items():
    _corpus = f"data/corpus/{_e['dataset']}"
    _split = f"data/splits/{_exp}/{{split}}.npz"
    _stats = f"data/stats/{_exp}/{{split}}.npz"
    _scores = f"data/scores/{_exp}/{{split}}.npz"
    _encoded = f"data/encoded/{_exp}/{{encoding}}/{{split}}.npz"
    _model = f"data/models/{_exp}/{{encoding}}/{{split}}.npz"
    _pred = f"data/predictions/{_exp}/{{encoding}}/{{split}}.npz"
    _metrics = f"data/metrics/{_exp}/{{encoding}}/{{split}}.csv"

    rule:
        name:
            f"stats_{_exp}"
        input:
            code=code_of("stats"),
            corpus=[f"{_corpus}/counts.npz", f"{_corpus}/meta.json", f"{_corpus}/terms.txt"],
            splits=_expand_runs(_exp, _split),
        output:
            _expand_runs(_exp, _stats),
        params:
            exp=_exp,
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            split=lambda w, t=_split: t,
            out=lambda w, t=_stats: t,
        log:
            f"logs/stats/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} stats --params params.yaml --exp {params.exp}"
            " --corpus {params.corpus} --split '{params.split}' --out '{params.out}'"

    rule:
        name:
            f"score_{_exp}"
        input:
            code=code_of("score"),
            stats=_expand_runs(_exp, _stats),
        output:
            _expand_runs(_exp, _scores),
        params:
            exp=_exp,
            stats=lambda w, t=_stats: t,
            out=lambda w, t=_scores: t,
            tracked=_e.get("scores"),
        log:
            f"logs/score/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} score --params params.yaml --exp {params.exp}"
            " --stats '{params.stats}' --out '{params.out}'"

    rule:
        name:
            f"encode_{_exp}"
        input:
            code=code_of("encode"),
            corpus=[f"{_corpus}/counts.npz", f"{_corpus}/meta.json", f"{_corpus}/terms.txt"],
            splits=_expand_runs(_exp, _split),
            stats=_expand_runs(_exp, _stats),
            scores=_expand_runs(_exp, _scores),
        output:
            _expand_runs(_exp, _encoded),
        params:
            exp=_exp,
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            split=lambda w, t=_split: t,
            stats=lambda w, t=_stats: t,
            scores=lambda w, t=_scores: t,
            out=lambda w, t=_encoded: t,
        threads: JOB_CORES  # parallel processes (same bytes for any number)
        log:
            f"logs/encode/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} encode --params params.yaml --exp {params.exp} --jobs {threads}"
            " --corpus {params.corpus} --split '{params.split}' --stats '{params.stats}'"
            " --scores '{params.scores}' --out '{params.out}'"

    rule:
        name:
            f"train_{_exp}"
        input:
            code=code_of("train"),
            encoded=_expand_runs(_exp, _encoded),
        output:
            _expand_runs(_exp, _model),
        params:
            exp=_exp,
            encoded=lambda w, t=_encoded: t,
            out=lambda w, t=_model: t,
            tracked=_e["learner"],
        threads: JOB_CORES  # parallel processes (same bytes for any number)
        log:
            f"logs/train/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} train --params params.yaml --exp {params.exp} --jobs {threads}"
            " --encoded '{params.encoded}' --out '{params.out}'"

    rule:
        name:
            f"predict_{_exp}"
        input:
            code=code_of("predict"),
            encoded=_expand_runs(_exp, _encoded),
            models=_expand_runs(_exp, _model),
        output:
            _expand_runs(_exp, _pred),
        params:
            exp=_exp,
            encoded=lambda w, t=_encoded: t,
            model=lambda w, t=_model: t,
            out=lambda w, t=_pred: t,
        log:
            f"logs/predict/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} predict --params params.yaml --exp {params.exp}"
            " --encoded '{params.encoded}' --model '{params.model}' --out '{params.out}'"

    rule:
        name:
            f"evaluate_{_exp}"
        input:
            code=code_of("evaluate"),
            meta=f"{_corpus}/meta.json",
            encoded=_expand_runs(_exp, _encoded),
            models=_expand_runs(_exp, _model),
            predictions=_expand_runs(_exp, _pred),
        output:
            _expand_runs(_exp, _metrics),
        params:
            exp=_exp,
            encoded=lambda w, t=_encoded: t,
            model=lambda w, t=_model: t,
            pred=lambda w, t=_pred: t,
            out=lambda w, t=_metrics: t,
        log:
            f"logs/evaluate/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} evaluate --params params.yaml --exp {params.exp}"
            " --corpus-meta {input.meta} --encoded '{params.encoded}' --model '{params.model}'"
            " --predictions '{params.pred}' --out '{params.out}'"
