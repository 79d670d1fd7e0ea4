"""The test suite's own set-up: the xdist groups that conftest.py gives the tests sharing a small
project reach the scheduler (else they would be spread over both workers, each waiting for the
other's build, and the Slurm tests could start two clusters)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest


@pytest.mark.xdist_group("suite-self-check")
def test_xdist_groups_reach_the_scheduler(request):
    if not (os.environ.get("PYTEST_XDIST_WORKER") and request.config.getvalue("loadgroup")):
        pytest.skip("not a pytest-xdist worker of --dist loadgroup")
    # a worker of `--dist loadgroup` suffixes the node ID with the group: its scheduler reads that
    assert request.node.nodeid.endswith("@suite-self-check"), (
        f"{request.node.nodeid}: --dist loadgroup lost the xdist_group mark (pytest-xdist issue "
        "#1386: pytest 9.2 with xdist 3.8); pin a pytest that xdist supports in pyproject.toml")


def test_every_shared_project_has_a_group():
    from conftest import SHARED_GROUPS

    source = (Path(__file__).parent / "conftest.py").read_text()
    built = re.findall(r'shared_project\(tmp_path_factory, "(\w+)"', source)
    assert built and sorted(built) == sorted(SHARED_GROUPS)
