import sys

from termweight.runner.checkout import claim_dvc_run, pin_blas, run_own_source

pin_blas()  # one BLAS kernel and thread on every machine, before numpy loads (runner/checkout.py)
run_own_source(sys.argv[1:])  # a step run in a checkout runs that checkout's src/ (runner/checkout.py)
claim_dvc_run()  # under DVC: one DVC run per checkout at a time (runner/checkout.py)

from termweight.runner.cli import main  # noqa: E402

raise SystemExit(main())
