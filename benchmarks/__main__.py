"""``python -m benchmarks`` (``make bench``): see :mod:`benchmarks.runner`; then the table
service's benchmarks (:mod:`benchmarks.service`; alone: ``python -m benchmarks.service``), then
the Diplomacy engine's (:mod:`benchmarks.diplomacy`).
With ``--json`` the rules core's results carry the service's under ``"service"`` and the
Diplomacy engine's under ``"diplomacy"``."""

import io
import json
import sys

from benchmarks import diplomacy, service
from benchmarks.runner import main

args = sys.argv[1:]
if "--json" in args:
    buffer = io.StringIO()
    status = main(args, out=buffer)
    results = json.loads(buffer.getvalue())
    results["service"] = service.run(quick="--quick" in args)
    results["diplomacy"] = diplomacy.run(quick="--quick" in args)
    sys.stdout.write(json.dumps(results, indent=2, sort_keys=True) + "\n")
else:
    status = main(args)
    sys.stdout.write("\n")
    status = service.main(args) or status
    sys.stdout.write("\n")
    status = diplomacy.main(args) or status
raise SystemExit(status)
