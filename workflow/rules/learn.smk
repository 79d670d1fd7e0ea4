# Per split and encoding: fitted one-vs-rest models -> test predictions -> per-task metrics.


rule train:
    input:
        code=code_of("train"),
        encoded="data/encoded/{exp}/{encoding}/{split}.npz",
    output:
        "data/models/{exp}/{encoding}/{split}.npz",
    params:
        tracked=lambda w: EXPERIMENTS[w.exp]["learner"],
    log:
        "logs/train/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} train --params params.yaml --exp {wildcards.exp}"
        " --encoded {input.encoded} --out {output}"
        " --encoding {wildcards.encoding} --names {wildcards.split}"


rule predict:
    input:
        code=code_of("predict"),
        encoded="data/encoded/{exp}/{encoding}/{split}.npz",
        model="data/models/{exp}/{encoding}/{split}.npz",
    output:
        "data/predictions/{exp}/{encoding}/{split}.npz",
    log:
        "logs/predict/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} predict --params params.yaml --exp {wildcards.exp}"
        " --encoded {input.encoded} --model {input.model} --out {output}"
        " --encoding {wildcards.encoding} --names {wildcards.split}"


rule evaluate:
    input:
        code=code_of("evaluate"),
        meta=lambda w: f"{corpus_dir(w)}/meta.json",
        encoded="data/encoded/{exp}/{encoding}/{split}.npz",
        model="data/models/{exp}/{encoding}/{split}.npz",
        predictions="data/predictions/{exp}/{encoding}/{split}.npz",
    output:
        "data/metrics/{exp}/{encoding}/{split}.csv",
    log:
        "logs/evaluate/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} evaluate --params params.yaml --exp {wildcards.exp}"
        " --corpus-meta {input.meta} --encoded {input.encoded} --model {input.model}"
        " --predictions {input.predictions} --out {output}"
        " --encoding {wildcards.encoding} --names {wildcards.split}"
