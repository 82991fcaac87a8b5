from tokenjuice.cli.main import main

raise SystemExit(main())
