"""The workflow files derived from the stage declaration: ``dvc-yaml``."""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("termweight")


def cmd_dvc_yaml(args) -> None:
    """Write dvc.yaml from workflow/stages.yaml and params.yaml (``--check``: only compare)."""
    from termweight.pipeline import dvcyaml

    fresh = dvcyaml.write(Path(args.root), check=args.check)
    log.info("dvc.yaml %s", "up to date" if fresh else "written")


def register(sub) -> None:
    """``dvc-yaml``."""
    p = sub.add_parser("dvc-yaml", help="generate dvc.yaml from workflow/stages.yaml and "
                       "params.yaml (the code dependencies derived from the imports)",
                       description=cmd_dvc_yaml.__doc__)
    p.add_argument("--root", default=".", help="the checkout (default: %(default)s)")
    p.add_argument("--check", action="store_true",
                   help="do not write: exit 2 when dvc.yaml differs from a fresh generation")
    p.set_defaults(func=cmd_dvc_yaml)
