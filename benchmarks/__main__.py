"""``python -m benchmarks`` (``make bench``): the rules core's benchmarks
(:mod:`benchmarks.runner`), then each part's in turn: the table service, the panels, the web
site, the Diplomacy engine, the vision (on the benchmark's own pictures, then on tables drawn
apart from the recognizer), Globular Cluster and its camera. Each part also runs alone:
``python -m benchmarks.service`` and so on.

With ``--json`` the rules core's results carry each part's under its name (``"service"``,
``"panels"``, ``"web"``, ``"diplomacy"``, ``"vision"``, ``"vision_kit_renders"``,
``"globular"``, ``"globular_vision"``, ``"cluster"``,
``"cluster-vision"``, ``"clustered_vision"``)."""

import io
import json
import sys

from benchmarks import (
    cluster_peg,
    cluster_vision,
    clustered_vision,
    diplomacy,
    globular,
    globular_vision,
    panels,
    service,
    vision,
    vision_kit_renders,
    web,
)
from benchmarks.runner import main

PARTS = {
    "service": service,
    "panels": panels,
    "web": web,
    "diplomacy": diplomacy,
    "vision": vision,
    "vision_kit_renders": vision_kit_renders,
    "globular": globular,
    "globular_vision": globular_vision,
    "cluster": cluster_peg,
    "cluster-vision": cluster_vision,
    "clustered_vision": clustered_vision,
}

args = sys.argv[1:]
quick = "--quick" in args
if "--json" in args:
    buffer = io.StringIO()
    status = main(args, out=buffer)
    results = json.loads(buffer.getvalue())
    for name, part in PARTS.items():
        results[name] = part.run(quick=quick)
    sys.stdout.write(json.dumps(results, indent=2, sort_keys=True) + "\n")
else:
    status = main(args)
    for part in PARTS.values():
        sys.stdout.write("\n")
        status = part.main(args) or status
raise SystemExit(status)
