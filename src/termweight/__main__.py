from termweight.cli import main

raise SystemExit(main())
