"""``python -m benchmarks`` (``make bench``): see :mod:`benchmarks.runner`."""

from benchmarks.runner import main

raise SystemExit(main())
