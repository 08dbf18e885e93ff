"""``python -m benchmarks`` (``make bench``): see :mod:`benchmarks.runner`; then the table
service's benchmarks (:mod:`benchmarks.service`; alone: ``python -m benchmarks.service``).
With ``--json`` the rules core's results carry the service's under ``"service"`` and the
vision's under ``"vision"`` (alone: ``python -m benchmarks.vision``)."""

import io
import json
import sys

from benchmarks import service, vision
from benchmarks.runner import main

args = sys.argv[1:]
if "--json" in args:
    buffer = io.StringIO()
    status = main(args, out=buffer)
    results = json.loads(buffer.getvalue())
    results["service"] = service.run(quick="--quick" in args)
    results["vision"] = vision.run(quick="--quick" in args)
    sys.stdout.write(json.dumps(results, indent=2, sort_keys=True) + "\n")
else:
    status = main(args)
    sys.stdout.write("\n")
    status = service.main(args) or status
    sys.stdout.write("\n")
    status = vision.main(args) or status
raise SystemExit(status)
