from randbot.cli import main

raise SystemExit(main())
