"""Cluster (the peg game) and the camera: the printable board kit, the renderer of test pictures
and the reader that sees which holes hold a peg of which colour (issue 16)."""
