import os
import sys

from termweight.checkout import claim_dvc_run, pin_blas, run_own_source

pin_blas()  # one BLAS kernel and thread on every machine, before numpy loads (checkout.py)
run_own_source(sys.argv[1:])  # a step run in a checkout runs that checkout's src/ (checkout.py)
claim_dvc_run()  # under DVC: one DVC run per checkout at a time (checkout.py)
if os.environ.get("DVC_STAGE"):  # under DVC: never a stage against a stale code digest
    from termweight.pipeline.codedigest import check_dvc_stage

    check_dvc_stage()

from termweight.cli import main  # noqa: E402

raise SystemExit(main())
