# Per split: training statistics -> metric scores -> encoded train/test matrices.


rule stats:
    input:
        code=code_of("stats"),
        corpus=corpus_files,
        split="data/splits/{exp}/{split}.npz",
    output:
        "data/stats/{exp}/{split}.npz",
    params:
        corpus=corpus_dir,
    log:
        "logs/stats/{exp}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} stats --params params.yaml --exp {wildcards.exp}"
        " --corpus {params.corpus} --split {input.split} --out {output} --names {wildcards.split}"


rule score:
    input:
        code=code_of("score"),
        stats="data/stats/{exp}/{split}.npz",
    output:
        "data/scores/{exp}/{split}.npz",
    params:
        tracked=lambda w: EXPERIMENTS[w.exp].get("scores"),
    log:
        "logs/score/{exp}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} score --params params.yaml --exp {wildcards.exp}"
        " --stats {input.stats} --out {output} --names {wildcards.split}"


rule encode:
    input:
        code=code_of("encode"),
        corpus=corpus_files,
        split="data/splits/{exp}/{split}.npz",
        stats="data/stats/{exp}/{split}.npz",
        scores="data/scores/{exp}/{split}.npz",
    output:
        "data/encoded/{exp}/{encoding}/{split}.npz",
    params:
        corpus=corpus_dir,
    log:
        "logs/encode/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} encode --params params.yaml --exp {wildcards.exp}"
        " --corpus {params.corpus} --split {input.split} --stats {input.stats}"
        " --scores {input.scores} --out {output}"
        " --encoding {wildcards.encoding} --names {wildcards.split}"
