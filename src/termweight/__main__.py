import sys

from termweight.checkout import run_own_source

run_own_source(sys.argv[1:])  # a step run in a checkout runs that checkout's src/ (checkout.py)

from termweight.cli import main  # noqa: E402

raise SystemExit(main())
