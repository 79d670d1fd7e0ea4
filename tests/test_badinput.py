"""Bad input of every kind the project reads gives ONE line naming the file, exit 2, no output.

Part 1 runs the real CLI (``termweight.runner.cli.main``, in-process; two cases through
``python -m termweight``) on broken params files and broken intermediates of a small pipeline.
Part 2 feeds each dataset parser the malformed values of issue #19. Part 3 is hypothesis-based
fuzzing: random byte-level and token-level mutations of a small valid file of every format, for
every parser and every intermediate reader; each run must either parse or raise a one-line
:class:`DataError` naming the file. Any other exception (a traceback) fails the test.
The archive and download cases are in ``test_badinput_fetch.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termweight.corpus import Corpus, indicator
from termweight.datasets import Documents
from termweight.datasets.arff import parse_sparse_arff
from termweight.datasets.cachopo import parse_cachopo_r8, read_label_tab_text
from termweight.datasets.ordinal import parse_amazon_beauty, read_pang_lee
from termweight.datasets.rcv1 import read_lyrl_tokens, read_qrels
from termweight.datasets.reuters import SGM_SHA256, read_modapte
from termweight.datasets.vectors import parse_spambase, read_svmlight
from termweight.runner import io
from termweight.runner.cli import main
from termweight.runner.errors import ConfigError, DataError
from termweight.splits import Split

REPO = Path(__file__).resolve().parents[1]
# 40 deterministic examples per target keep CI short; TW_FUZZ_EXAMPLES=2000 for a deep run.
FUZZ = settings(max_examples=int(os.environ.get("TW_FUZZ_EXAMPLES", "40")), deadline=None,
                derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


# ----------------------------------------------------------------------------- helpers

def run_cli(*args, cwd: Path, capsys, monkeypatch) -> tuple[int, str]:
    """The real CLI, in-process, with a --log file so that stderr holds only the error line."""
    monkeypatch.chdir(cwd)
    code = main(["--log", "step.log", *map(str, args)])
    return code, capsys.readouterr().err


def assert_one_line_error(code: int, err: str, names, step: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().split("\n")
    assert code == 2 and len(lines) == 1, err
    line = lines[0]
    assert line.startswith(f"termweight {step}: error: "), line
    for name in [names] if isinstance(names, str) else names:
        assert name in line, (name, line)
    return line


def assert_data_error(exc: DataError, path) -> None:
    msg = str(exc)
    assert "\n" not in msg and msg.startswith(str(path)), msg


def nothing_under(path: Path) -> list[str]:
    return sorted(p.name for p in path.rglob("*")) if path.exists() else []


# ----------------------------------------------------------------------------- part 1: CLI

GOOD_PARAMS = (REPO / "params.yaml").read_text(encoding="utf-8")


@pytest.fixture
def workdir(tmp_path):
    """A directory with the workflow schema beside params files, and a small valid pipeline."""
    schema = tmp_path / "workflow" / "schemas"
    schema.mkdir(parents=True)
    (schema / "params.schema.yaml").write_bytes(
        (REPO / "workflow/schemas/params.schema.yaml").read_bytes())
    (tmp_path / "params.yaml").write_text(GOOD_PARAMS, encoding="utf-8")
    rng = np.random.default_rng(0)
    X = sp.random(24, 12, density=0.4, format="csr", random_state=1)
    X.data = np.ceil(X.data * 3)
    y = np.arange(24) % 2
    Corpus("toy", X.astype(np.int32), indicator(y, 2), ["a", "b"],
           [f"t{j}" for j in range(12)], [str(i) for i in range(24)],
           np.array(["all"] * 24)).save(tmp_path / "corpus")
    Split("s0", np.arange(16), np.arange(16, 24)).save(tmp_path / "s0.npz")
    texts = [" ".join(rng.choice(["oil", "wheat", "price", "rose"], 5)) for _ in range(6)]
    Documents("docs", [f"d{i}" for i in range(6)], texts, [["x"], ["y"]] * 3, ["all"] * 6,
              ["x", "y"]).save(tmp_path / "docs")
    return tmp_path


PARAMS_CASES = {
    # case: (file content or a marker, text the error line must contain)
    "missing": (None, "params file not found"),
    "directory": ("DIR", "is a directory"),
    "not-utf8": (GOOD_PARAMS.encode().replace(b"# Base seed", b"# Base s\xe9ed"),
                 "not UTF-8 (byte 0xe9)"),
    "duplicate-key": (GOOD_PARAMS.replace("seed: 20081026", "seed: 20081026\nseed: 7"),
                      "duplicate key 'seed'"),
    "float-integer": (GOOD_PARAMS.replace("folds: 4\n", "folds: 4.0\n", 1),
                      "experiments/slice/protocol/folds: 4.0 is not of type integer"),
    "nan-number": (GOOD_PARAMS.replace("C: 1.0", "C: .nan", 1),
                   "experiments/slice/learner/C: nan is not of type number"),
    "yaml-syntax": (GOOD_PARAMS + "\n  oops: [\n", "not valid YAML"),
    "not-a-mapping": ("- 1\n- 2\n", "expected a mapping"),
    "unknown-key": (GOOD_PARAMS.replace("seed: 20081026", "seed: 20081026\nsede: 1"),
                    "(top level): Additional properties are not allowed ('sede'"),
}


@pytest.mark.parametrize("case", sorted(PARAMS_CASES))
def test_bad_params_file(workdir, capsys, monkeypatch, case):
    content, expected = PARAMS_CASES[case]
    path = workdir / f"{case}.yaml"
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, err = run_cli("split", "--params", path.name, "--exp", "slice", "--corpus", "corpus",
                        "--out-dir", "splits", cwd=workdir, capsys=capsys,
                        monkeypatch=monkeypatch)
    line = assert_one_line_error(code, err, [path.name, expected], "split")
    assert len(line) < 300  # the key, the value, the rule: never the schema
    assert not (workdir / "splits").exists()


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flip_middle(path: Path) -> None:
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    path.write_bytes(bytes(blob))


def _npz_without(path: Path, key: str) -> None:
    arrays = dict(np.load(path, allow_pickle=False))
    arrays.pop(key)
    np.savez(path.with_suffix(""), **arrays)  # np.savez appends .npz


INTERMEDIATE_CASES = {
    # case: (corrupt(workdir), step arguments, the file the error must name, the output)
    "npz-missing": (lambda d: (d / "corpus/counts.npz").unlink(),
                    ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                     "stats-{split}.npz", "--names", "s0"), "counts.npz", "stats-s0.npz"),
    "npz-empty": (lambda d: (d / "corpus/counts.npz").write_bytes(b""),
                  ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                   "stats-{split}.npz", "--names", "s0"), "counts.npz", "stats-s0.npz"),
    "npz-truncated": (lambda d: _truncate(d / "corpus/counts.npz"),
                      ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                       "stats-{split}.npz", "--names", "s0"), "counts.npz", "stats-s0.npz"),
    "npz-corrupt-deflate": (lambda d: _flip_middle(d / "corpus/counts.npz"),
                            ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                             "stats-{split}.npz", "--names", "s0"), "counts.npz",
                            "stats-s0.npz"),
    "npz-missing-array": (lambda d: _npz_without(d / "s0.npz", "test"),
                          ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                           "stats-{split}.npz", "--names", "s0"), "s0.npz", "stats-s0.npz"),
    "split-is-directory": (lambda d: ((d / "s0.npz").unlink(), (d / "s0.npz").mkdir()),
                           ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                            "stats-{split}.npz", "--names", "s0"), "s0.npz", "stats-s0.npz"),
    "meta-json-nan": (lambda d: (d / "corpus/meta.json").write_text(
                          (d / "corpus/meta.json").read_text().replace('"nnz"', '"x": NaN, "nnz"')),
                      ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                       "stats-{split}.npz", "--names", "s0"), "meta.json", "stats-s0.npz"),
    "meta-json-key-missing": (lambda d: (d / "corpus/meta.json").write_text('{"name": "toy"}'),
                              ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                               "stats-{split}.npz", "--names", "s0"), "meta.json",
                              "stats-s0.npz"),
    "terms-not-utf8": (lambda d: (d / "corpus/terms.txt").write_bytes(b"t0\n\xff\xfe\n"),
                       ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out",
                        "stats-{split}.npz", "--names", "s0"), "terms.txt:2", "stats-s0.npz"),
    "parquet-corrupt": (lambda d: _truncate(d / "docs/documents.parquet"),
                        ("tokenize", "--documents", "docs", "--out", "tok.parquet"),
                        "documents.parquet", "tok.parquet"),
    "parquet-empty": (lambda d: (d / "docs/documents.parquet").write_bytes(b""),
                      ("tokenize", "--documents", "docs", "--out", "tok.parquet"),
                      "documents.parquet", "tok.parquet"),
    "documents-json-truncated": (lambda d: _truncate(d / "docs/documents.json"),
                                 ("tokenize", "--documents", "docs", "--out", "tok.parquet"),
                                 "documents.json", "tok.parquet"),
    "tokens-wrong-columns": (lambda d: io.write_table(d / "tok.parquet", __import__(
                                 "pandas").DataFrame({"x": [1]})),
                             ("count", "--documents", "docs", "--tokens", "tok.parquet",
                              "--out", "counted"), "tok.parquet", "counted"),
    "corpus-meta-is-directory": (lambda d: ((d / "corpus/meta.json").unlink(),
                                            (d / "corpus/meta.json").mkdir()),
                                 ("stats", "--corpus", "corpus", "--split", "{split}.npz",
                                  "--out", "stats-{split}.npz", "--names", "s0"), "meta.json",
                                 "stats-s0.npz"),
}


@pytest.mark.parametrize("case", sorted(INTERMEDIATE_CASES))
def test_bad_intermediate(workdir, capsys, monkeypatch, case):
    corrupt, step, named, output = INTERMEDIATE_CASES[case]
    corrupt(workdir)
    code, err = run_cli(*step, cwd=workdir, capsys=capsys, monkeypatch=monkeypatch)
    assert_one_line_error(code, err, named, step[0])
    assert not (workdir / output).exists()
    assert not list(workdir.glob(f".{output}*"))  # no temporary left either


def test_the_entry_point_itself_prints_one_line(workdir):
    """Through ``python -m termweight`` without --log: one line, exit 2, no traceback."""
    (workdir / "bad.yaml").write_bytes(b"seed: 1\nseed: 2\n")
    for args, named in ((["split", "--params", "bad.yaml", "--exp", "x", "--corpus", "corpus",
                          "--out-dir", "s"], "bad.yaml:2"),
                        (["stats", "--corpus", "corpus", "--split", "nope-{split}.npz", "--out",
                          "o-{split}.npz", "--names", "s0"], "nope-s0.npz")):
        res = subprocess.run([sys.executable, "-m", "termweight", *args], cwd=workdir,
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 2 and "Traceback" not in res.stderr
        assert len(res.stderr.strip().split("\n")) == 1 and named in res.stderr, res.stderr


def test_json_writer_refuses_nan_and_writes_nothing(tmp_path):
    with pytest.raises(DataError, match=r"out\.json: .*non-finite.* at encodings/tf/micro_f1"):
        io.write_json(tmp_path / "out.json", {"encodings": {"tf": {"micro_f1": float("nan")}}})
    with pytest.raises(DataError, match="at scores/1"):
        io.write_json(tmp_path / "out.json", {"scores": np.array([1.0, np.inf])})
    assert list(tmp_path.iterdir()) == []


def test_params_errors_inside_snakemake_are_one_line(tmp_path, capsys):
    """The function the Snakefile calls: a strict re-read of its config files, then the schema."""
    from termweight.runner.config import check_workflow_config

    bad = tmp_path / "p.yaml"
    bad.write_text(GOOD_PARAMS.replace("repeats: 2", "repeats: 2.0", 1), encoding="utf-8")
    import yaml

    with pytest.raises(SystemExit) as stop:
        check_workflow_config(yaml.safe_load(bad.read_text()), [bad],
                              REPO / "workflow/schemas/params.schema.yaml")
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and len(err) < 300
    assert "experiments/slice/protocol/repeats: 2.0 is not of type integer" in err
    check_workflow_config(yaml.safe_load(GOOD_PARAMS), [REPO / "params.yaml"],
                          REPO / "workflow/schemas/params.schema.yaml")  # the real one passes


# ----------------------------------------------------------------------------- part 2: values

ARFF_HEAD = ("@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE b integer\n"
             "@ATTRIBUTE class {x,y}\n@DATA\n{0 1,1 2,2 y}\n{1 3}\n")


@pytest.mark.parametrize("record, why", [
    ("{\xb2 1,2 y}", "non-integer attribute index '\xb2'"),       # "²": isdigit() but no int
    ("{" + "1" * 23 + " 1,2 y}", "non-integer attribute index"),  # 10^23: no int64
    ("{0 nan,2 y}", "non-numeric or non-finite value 'nan'"),
    ("{0 inf,2 y}", "non-finite"),
    ("{0 1e999,2 y}", "non-finite"),
    ("{0 -2,2 y}", "out of range"),
    ("{0 1_0,2 y}", "non-numeric"),
    ("{0 9999999999,2 y}", "out of range"),
])
def test_arff_values(tmp_path, record, why):
    path = tmp_path / "t.wc.arff"
    path.write_bytes((ARFF_HEAD + record + "\n").encode("utf-8"))  # ARFF is read as UTF-8
    with pytest.raises(DataError, match=why) as err:
        parse_sparse_arff(path)
    assert err.value.line == 8
    assert_data_error(err.value, path)


@pytest.mark.parametrize("line, why", [
    ("1 1:nan", "bad entry 1:nan"),
    ("1 1:inf", "bad entry 1:inf"),
    ("1 1:-inf", "bad entry 1:-inf"),
    ("1 \xb2:1", "bad entry"),
    ("1 " + "1" * 23 + ":1", "bad entry"),
    ("1 1:1e400", "bad entry"),
    ("3 1:1", "label '3'"),
])
def test_svmlight_values(tmp_path, line, why):
    path = tmp_path / "s.dat"
    path.write_bytes(f"-1 1:0.5 3:1\n{line}\n".encode("latin-1"))
    with pytest.raises(DataError, match=why) as err:
        read_svmlight(path, 5)
    assert err.value.line == 2
    assert_data_error(err.value, path)


def test_dexter_counts_are_not_negative(tmp_path):
    path = tmp_path / "d.data"
    path.write_text("1:2 4:1\n2:-3\n")
    with pytest.raises(DataError, match="negative count 2:-3") as err:
        read_svmlight(path, 5, labelled=False, counts=True)
    assert err.value.line == 2


def _spambase(tmp_path, field: str):
    (tmp_path / "spambase.names").write_text("".join(f"a{i}: continuous.\n" for i in range(57)))
    good = ",".join(["0"] * 57 + ["1"])
    bad = ",".join(["0"] * 10 + [field] + ["0"] * 46 + ["0"])
    (tmp_path / "spambase.data").write_bytes(f"{good}\r\n{bad}\r\n".encode("latin-1"))


@pytest.mark.parametrize("field, why", [("nan", "field 11: 'nan' is not a finite number"),
                                        ("inf", "'inf' is not a finite number"),
                                        ("-inf", "not a finite number"),
                                        ("-0.5", "never negative"),
                                        ("1\xb2", "not a finite number")])
def test_spambase_values(tmp_path, field, why):
    _spambase(tmp_path, field)
    with pytest.raises(DataError, match=why) as err:
        parse_spambase(tmp_path)
    assert err.value.line == 2
    assert_data_error(err.value, tmp_path / "spambase.data")


def _amazon(tmp_path, *records, raw: bytes = b"") -> Path:
    lines = b"".join(json.dumps(r).encode() + b"\n" for r in records) + raw
    path = tmp_path / "All_Beauty_5.json.gz"
    path.write_bytes(gzip.compress(lines, mtime=0))
    return path


GOOD_REVIEW = {"overall": 5.0, "reviewerID": "A", "unixReviewTime": 1, "reviewText": "nice",
               "asin": "B"}
OTHER_REVIEW = {**GOOD_REVIEW, "overall": 1.0, "reviewerID": "B", "reviewText": "bad"}


@pytest.mark.parametrize("record, why", [
    ({**GOOD_REVIEW, "overall": True}, "overall=True has type bool"),
    ({**GOOD_REVIEW, "overall": 6}, "overall=6 is not 1..5"),
    ({**GOOD_REVIEW, "overall": "5"}, "overall='5' has type str"),
    ({**GOOD_REVIEW, "reviewerID": {"a": 1}}, "reviewerID"),
    ({**GOOD_REVIEW, "reviewText": 3}, "reviewText=3 has type int"),
    ([1, 2], "a JSON list"),
    ({"reviewerID": "A", "unixReviewTime": 1}, "no 'overall'"),
])
def test_amazon_records(tmp_path, record, why):
    path = _amazon(tmp_path, GOOD_REVIEW, OTHER_REVIEW, record)
    with pytest.raises(DataError, match=why) as err:
        parse_amazon_beauty(tmp_path)
    assert err.value.line == 3
    assert_data_error(err.value, path)


def test_amazon_nan_non_utf8_and_truncated_gzip(tmp_path):
    path = _amazon(tmp_path, GOOD_REVIEW, raw=b'{"overall": NaN}\n')
    with pytest.raises(DataError, match=r"json\.gz:2: bad review record.*NaN"):
        parse_amazon_beauty(tmp_path)
    path = _amazon(tmp_path, GOOD_REVIEW, raw=b'{"overall": 5.0, "reviewText": "caf\xe9"}\n')
    with pytest.raises(DataError, match=r"json\.gz:2: not UTF-8 \(byte 0xe9\)"):
        parse_amazon_beauty(tmp_path)
    path = _amazon(tmp_path, *([GOOD_REVIEW, OTHER_REVIEW] * 50))
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(DataError, match="corrupt or truncated gzip") as err:
        parse_amazon_beauty(tmp_path)
    assert_data_error(err.value, path)


def test_label_tab_text_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"a\tone\nb\ttw\xf6\n")
    with pytest.raises(DataError, match=r"x\.txt:2: not UTF-8 \(byte 0xf6\)"):
        read_label_tab_text(path)


def test_one_class_corpus_is_refused(tmp_path):
    for name in ("r8-train-all-terms.txt", "r8-test-all-terms.txt"):
        (tmp_path / name).write_text("earn\tprofit rose\nearn\tnet loss\n")
    with pytest.raises(DataError, match=r"same labels \[.earn.\].*r8-train-all-terms\.txt"
                                        r".*one class only") as err:
        parse_cachopo_r8(tmp_path)
    assert "\n" not in str(err.value)
    with pytest.raises(DataError, match="one class only"):
        Corpus("c", sp.csr_matrix(np.ones((3, 2))), indicator([0, 0, 0], 2), ["a", "b"],
               ["t", "u"], ["1", "2", "3"], np.array(["all"] * 3))
    # one class without documents in a usable corpus is fine (that task is a recorded skip)
    Corpus("c", sp.csr_matrix(np.ones((3, 2))), indicator([0, 1, 0], 3), ["a", "b", "c"],
           ["t", "u"], ["1", "2", "3"], np.array(["all"] * 3))


def test_pang_lee_rating_not_a_number(tmp_path):
    base = tmp_path / "scaledata" / "Steve+Rhodes"
    base.mkdir(parents=True)
    for kind, lines in (("id", "1\n2\n"), ("subj", "good\nbad\n"), ("rating", "0.7\nhigh\n"),
                        ("label.3class", "2\n0\n")):
        (base / f"{kind}.Steve+Rhodes").write_text(lines)
    with pytest.raises(DataError, match=r"rating\.Steve\+Rhodes:2: rating 'high'"):
        read_pang_lee(tmp_path, 3, "Steve+Rhodes")


def test_rcv1_truncated_gzip(tmp_path):
    path = tmp_path / "t.dat.gz"
    path.write_bytes(gzip.compress(b"".join(b".I %d\n.W\nsome tokens here\n\n" % i
                                            for i in range(2000)))[:-300])
    with pytest.raises(DataError, match="corrupt or truncated gzip") as err:
        list(read_lyrl_tokens(path))
    assert_data_error(err.value, path)


# ----------------------------------------------------------------------------- part 3: fuzzing

NASTY = ["nan", "inf", "-inf", "-1", "\xb2", "\u0661", "1" * 23, "1e999", "1_0", "", " ",
         ":", ",", "{", "}", "\t", "\n", "\r", "\x00", "\xff", "'", '"', "\\", "%", "@DATA",
         ".I", ".W", "1:", ":1", "</REUTERS>", "<REUTERS NEWID=\"9\">", "NaN", "true", "[",
         "0", "99999999999"]


@st.composite
def mutated(draw, text: str, encoding: str = "latin-1") -> bytes:
    """``text`` with up to 3 token-level edits (a nasty token put in or a span cut), then up to
    2 byte-level edits (flip, delete, truncate)."""
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
    blob = bytearray(text.encode(encoding, errors="replace"))
    for _ in range(draw(st.integers(0, 2))):
        if not blob:
            break
        at = draw(st.integers(0, len(blob) - 1))
        op = draw(st.sampled_from(["flip", "delete", "truncate"]))
        if op == "flip":
            blob[at] ^= draw(st.integers(1, 255))
        elif op == "delete":
            del blob[at]
        else:
            del blob[at:]
    return bytes(blob)


def expect_parse_or_data_error(call, path) -> None:
    try:
        call()
    except DataError as exc:
        assert_data_error(exc, path)


SVMLIGHT = "# c\n1 1:0.5 3:1 # x\n-1 2:1 4:2.5e-1\n+1 qid:3 5:7\n"
ARFF = ("% c\n@RELATION 'r'\n@ATTRIBUTE a integer\n@ATTRIBUTE 'b c' numeric\n"
        "@ATTRIBUTE class {x,'y z'}\n@DATA\n{0 1,1 2,2 'y z'}\n{1 3}\n{0 2,2 x}\n")
TAB = "earn\tprofit rose\nacq\tbought a firm\nearn\tnet up\n"
RCV1 = ".I 2286\n.W\nmexic peso fell\n\n.I 2287\n.W\noil rose\n"
QRELS = "E11 2286 1\nECAT 2286 1\nM14 2287 1\n"
SPAMBASE_ROWS = [",".join(["0.5"] * 54 + ["1.2", "3", "40", str(k % 2)]) for k in range(3)]
REUTERS = ('<!DOCTYPE lewis SYSTEM "lewis.dtd">\n<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" '
           'CGISPLIT="TRAINING-SET" OLDID="1" NEWID="{id}">\n<TOPICS><D>earn</D></TOPICS>\n'
           '<TEXT><TITLE>T &amp; U</TITLE><BODY>b &lt;x&gt; &#3;</BODY></TEXT>\n</REUTERS>\n')


@FUZZ
@given(blob=mutated(ARFF))
def test_fuzz_arff(tmp_path, blob):
    path = tmp_path / "f.wc.arff"
    path.write_bytes(blob)
    expect_parse_or_data_error(lambda: parse_sparse_arff(path), path)


@FUZZ
@given(blob=mutated(SVMLIGHT), labelled=st.booleans())
def test_fuzz_svmlight(tmp_path, blob, labelled):
    path = tmp_path / "f.dat"
    path.write_bytes(blob)
    expect_parse_or_data_error(lambda: read_svmlight(path, 5, labelled=labelled), path)


@FUZZ
@given(blob=mutated("\r\n".join(SPAMBASE_ROWS) + "\r\n"))
def test_fuzz_spambase(tmp_path, blob):
    (tmp_path / "spambase.names").write_text("".join(f"a{i}: continuous.\n" for i in range(57)))
    (tmp_path / "spambase.data").write_bytes(blob)
    expect_parse_or_data_error(lambda: parse_spambase(tmp_path), tmp_path / "spambase")


@FUZZ
@given(blob=mutated(TAB, "utf-8"))
def test_fuzz_label_tab_text(tmp_path, blob):
    path = tmp_path / "f.txt"
    path.write_bytes(blob)
    expect_parse_or_data_error(lambda: read_label_tab_text(path), path)


@FUZZ
@given(blob=mutated(json.dumps(GOOD_REVIEW) + "\n" + json.dumps(OTHER_REVIEW) + "\n", "utf-8"),
       compressed_edit=st.integers(-1, 400))
def test_fuzz_amazon(tmp_path, blob, compressed_edit):
    path = tmp_path / "All_Beauty_5.json.gz"
    gz = bytearray(gzip.compress(blob, mtime=0))
    if 0 <= compressed_edit < len(gz):  # also damage the gzip stream itself
        gz[compressed_edit] ^= 0x55
    path.write_bytes(bytes(gz))
    expect_parse_or_data_error(lambda: parse_amazon_beauty(tmp_path), path)


@FUZZ
@given(tokens=mutated(RCV1), qrels=mutated(QRELS), gz=st.booleans())
def test_fuzz_rcv1(tmp_path, tokens, qrels, gz):
    path = tmp_path / ("t.dat.gz" if gz else "t.dat")
    path.write_bytes(gzip.compress(tokens, mtime=0)[: len(tokens) + 20] if gz else tokens)
    expect_parse_or_data_error(lambda: list(read_lyrl_tokens(path)), path)
    path = tmp_path / "q.txt"
    path.write_bytes(qrels)
    expect_parse_or_data_error(lambda: read_qrels(path), path)


@FUZZ
@given(blob=mutated(REUTERS.format(id=1) + REUTERS.format(id=2)))
def test_fuzz_reuters(tmp_path, blob):
    for k, name in enumerate(SGM_SHA256):
        (tmp_path / name).write_bytes(blob if k == 0 else b"")
    expect_parse_or_data_error(lambda: read_modapte(tmp_path), tmp_path / "reut2-000.sgm")


def _mutate_bytes(blob: bytes, data) -> bytes:
    out = bytearray(blob)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(out) - 1))
        op = data.draw(st.sampled_from(["flip", "truncate", "zero"]))
        if op == "flip":
            out[at] ^= data.draw(st.integers(1, 255))
        elif op == "truncate":
            del out[at:]
        else:
            out[at: at + 16] = bytes(len(out[at: at + 16]))
        if not out:
            break
    return bytes(out)


@pytest.fixture(scope="module")
def intermediates(tmp_path_factory):
    """One small valid file of every intermediate format, as bytes."""
    d = tmp_path_factory.mktemp("inter")
    X = sp.random(6, 5, density=0.5, format="csr", random_state=0)
    Corpus("toy", X, indicator([0, 1, 0, 1, 0, 1], 2), ["a", "b"], list("vwxyz"),
           list("123456"), np.array(["all"] * 6)).save(d / "corpus")
    Documents("docs", ["1", "2"], ["a b", "c"], [["x"], ["y"]], ["all", "all"],
              ["x", "y"]).save(d / "docs")
    import pandas as pd

    io.write_table(d / "m.csv", pd.DataFrame({"status": ["ok"], "tp": [1], "fp": [0],
                                              "fn": [0], "tn": [3]}))
    return _Files({p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*")
                   if p.is_file()})


class _Files(dict):
    def __repr__(self):  # keep hypothesis' failure reports short
        return f"<{len(self)} intermediate files>"


@FUZZ
@given(data=st.data())
def test_fuzz_intermediates(tmp_path, intermediates, data):
    name = data.draw(st.sampled_from(sorted(intermediates)))
    for rel, blob in intermediates.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(_mutate_bytes(blob, data) if rel == name else blob)
    target = tmp_path / name
    # a part that is unreadable names itself; parts that do not fit together name the directory
    if name.startswith("corpus/"):
        expect_parse_or_data_error(lambda: Corpus.load(tmp_path / "corpus"), target.parent)
    elif name.startswith("docs/"):
        expect_parse_or_data_error(lambda: Documents.load(tmp_path / "docs"), target.parent)
    else:
        expect_parse_or_data_error(lambda: io.read_table(target, required=("status",)), target)


@FUZZ
@given(data=st.data())
def test_fuzz_params(tmp_path, data):
    from termweight.runner.config import load_params

    blob = data.draw(mutated(GOOD_PARAMS[:1500] + "\nexperiments: {}\n", "utf-8"))
    path = tmp_path / "p.yaml"
    path.write_bytes(blob)
    try:
        load_params(path, REPO / "workflow/schemas/params.schema.yaml")
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path)), str(exc)


def test_zip_npz_with_pickled_object_is_refused(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(path, x=np.array([{"a": 1}], dtype=object))
    with pytest.raises(DataError, match="evil.npz"):
        io.load_arrays(path)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("X.data.npy", b"\x93NUMPY garbage")
    with pytest.raises(DataError, match="evil.npz"):
        io.load_arrays(path)
