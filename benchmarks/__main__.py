"""``python -m benchmarks`` (``make bench``): see :mod:`benchmarks.runner`; then the table
service's benchmarks (:mod:`benchmarks.service`; alone: ``python -m benchmarks.service``)
and the panels' (:mod:`benchmarks.panels`; alone: ``python -m benchmarks.panels``).
With ``--json`` the rules core's results carry the service's under ``"service"``."""
service's benchmarks (:mod:`benchmarks.service`; alone: ``python -m benchmarks.service``),
then the web site's (:mod:`benchmarks.web`). With ``--json`` the rules core's results carry
the service's under ``"service"`` and the web site's under ``"web"``."""

import io
import json
import sys

from benchmarks import panels, service
from benchmarks import service, web
from benchmarks.runner import main

args = sys.argv[1:]
if "--json" in args:
    buffer = io.StringIO()
    status = main(args, out=buffer)
    results = json.loads(buffer.getvalue())
    results["service"] = service.run(quick="--quick" in args)
    results["panels"] = panels.run(quick="--quick" in args)
    results["web"] = web.run(quick="--quick" in args)
    sys.stdout.write(json.dumps(results, indent=2, sort_keys=True) + "\n")
else:
    status = main(args)
    sys.stdout.write("\n")
    status = service.main(args) or status
    sys.stdout.write("\n")
    status = panels.main(args) or status
    status = web.main(args) or status
raise SystemExit(status)
