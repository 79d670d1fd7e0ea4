"""External checks (termweight.experiments.external): the published numbers of others against our
run of their protocol, on the real 20 Newsgroups archive of the mirror."""

from __future__ import annotations

import json
import tarfile

import pytest

from termweight.experiments import external


@pytest.fixture(scope="module")
def four_groups(mirror, tmp_path_factory):
    """The bydate tree of the scikit-learn gallery's and tutorial's groups, extracted from the
    mirror's archive."""
    groups = set(external.GALLERY_GROUPS) | set(external.TUTORIAL_GROUPS)
    root = tmp_path_factory.mktemp("news")
    with tarfile.open(mirror / "20news-bydate" / "20news-bydate.tar.gz") as tf:
        for m in tf:
            parts = m.name.removeprefix("./").split("/")
            if not (m.isfile() and len(parts) == 3 and parts[1] in groups):
                continue
            dest = root / "20news-bydate" / parts[0] / parts[1] / parts[2]
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(tf.extractfile(m).read())
    return root


def test_documents_come_in_fetch_20newsgroups_order(four_groups):
    """``fetch_20newsgroups(categories=..., shuffle=True, random_state=42)`` is scikit-learn's
    ``load_files`` (groups sorted, file names sorted as strings, Latin-1) then one
    ``RandomState(42)`` permutation; ours is the same documents in the same order."""
    from sklearn.datasets import load_files

    ours = external.newsgroups(external.postings(four_groups), external.GALLERY_GROUPS)
    for subset in ("train", "test"):
        theirs = load_files(four_groups / "20news-bydate" / f"20news-bydate-{subset}",
                            categories=list(external.GALLERY_GROUPS), encoding="latin1",
                            shuffle=True, random_state=42)
        texts, labels = ours[subset]
        assert labels == [theirs.target_names[t] for t in theirs.target]
        assert texts == [t.replace("\r\n", "\n").removeprefix("\ufeff") for t in theirs.data]
    assert (len(ours["train"][1]), len(ours["test"][1])) == external.PUBLISHED_SIZES["gallery"]


def test_the_scikit_learn_gallery_is_reproduced(four_groups):
    """The example's LinearSVC and naive Bayes rows, as printed in its 0.21 output."""
    published = json.loads(external.PUBLISHED.read_text())
    runs = external.gallery(external.postings(four_groups))
    rows = {r["run"]: r for r in external.compare(
        {**published, "rows": [r for r in published["rows"] if r["run"] in runs]}, runs)}
    assert runs["gallery_linearsvc"]["facts"]["features"] == 33809
    for run in ("gallery_linearsvc", "gallery_mnb", "gallery_cnb", "gallery_centroid"):
        assert rows[run]["cause"].startswith("equal at the printed precision"), rows[run]


@pytest.mark.parametrize("value,digits,truncated,equal", [
    (0.9002, 3, False, True), (0.9006, 3, False, False), (0.83488, 4, True, True),
    (0.83479, 4, True, False), (0.83496, 4, False, False),
])
def test_equal_means_equal_as_printed(value, digits, truncated, equal):
    published = 0.9 if digits == 3 else 0.8348 if truncated else 0.8349
    row = {"run": "x", "measure": "accuracy", "published": published}
    ours = {"measures": {"accuracy": value},
            "facts": {"setting": "gallery", "train": 1, "test": 1, "features": 1}}
    cause = external._explain(row, ours, {"digits": digits, "truncated": truncated})
    assert cause.startswith("equal at the printed precision") is equal


def test_every_published_row_names_a_run_and_a_source():
    published = json.loads(external.PUBLISHED.read_text())
    runs = {"gallery_linearsvc", "gallery_mnb", "gallery_cnb", "gallery_centroid",
            "tutorial_mnb", "tutorial_sgd", "textgcn_lr", "news20_tfidf_svm",
            *external.WANG_METRICS}
    for row in published["rows"]:
        assert row["run"] in runs and row["source"] in published["sources"]
        assert row["measure"] in ("accuracy", "micro_f1", "macro_f1")
        assert 0 < row["published"] < 1
    assert all({"cite", "hand", "dataset", "protocol", "digits"} <= set(s)
               for s in published["sources"].values())
    assert len(published["sources"]) >= 3
