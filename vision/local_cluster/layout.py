"""Where the recognizer looks on a tile: sample points in the tile frame, per variant.

Everything is on a 1 mm lattice (``STEP``) in the tile frame (mm, origin at the tile's
centre). For each slot (docs/physical-kit.md, "Reading the slots"):

* **candidates**: where the token's centre may be, the slot's centre and every lattice point
  within the kit's placement offset of it (a token dropped by hand lies up to 3 mm off);
* **probes** at each candidate: the token's *body* (a disc well inside the token, or for a
  unit the band between its glyph and its edge) and, for a unit, the glyph's *centre* and
  *middle ring*; all rotation-free, as tokens lie turned;
* the slot's printed **outline**, and points on both sides of it: an empty slot shows its
  outline, a covered one (a dark sleeve) does not;
* its **surround**: bare printed tile near the slot and outside every slot's *zone* (where a
  token may reach), away from the white square, the tile's edge and its label. It gives the
  light around the slot; anything in its part nearest the zone (``COVER_REACH``) that does
  not look like printed tile (a hand, a cup, glare) makes the slot unknown.
* its **guard**: a circle just beyond where any token in it reaches, on the tile's face; and
  where that circle runs off the face, points **beyond** the tile's cut and in the **band**
  just inside it, across from the slot: a finger ending in the slot, or come in over the
  tile's edge, lies on them, a token never does.

One more group of points is shared by every variant: the white square's margin between the
marker and the square's edge, which says how much light falls on the tile.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import numpy.typing as npt

from vision.local_cluster.kit import Kit, SlotSpec

Matrix = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]
Indices = npt.NDArray[np.intp]

STEP = 1.25
"""The lattice spacing (mm): finer than a 1080p picture of a whole board shows."""
EDGE_BLUR = 1.2
"""How far (mm) a probe keeps inside a token's edge: blur and the cut line spread there."""
SURROUND = 7.0
SURROUND_LEAST = 12
COVER_REACH = 4.0
"""Whether a slot is covered is judged on its surround's points within this far (mm) of its
zone: anything lying over the slot crosses them first, while a hand or a highlight's rim
farther out leaves the slot clear (issue 18's benchmark)."""
COVER_LEAST = 8
"""...or on the surround's nearest this many points, when fewer lie that close."""
PLANE_HELD = 0.1
"""How firmly a surround's plane is held flat (a ridge on its slopes): a surround that lies
mostly to one side must not tilt it wildly."""
"""A slot whose surround holds fewer bare points looks at the nearest this many instead."""
"""How far beyond its zone a slot's surround reaches (mm)."""
KEEP_OFF_WHITE = 4.0
"""Bare tile counted only this far (mm) from the white square: blur spreads the white."""
KEEP_OFF_EDGE = 4.0
"""...and this far inside the tile's edge (its edge line, the gap, the next tile)."""
LABEL_CLEAR = 2.0
"""The label's box, grown by this (mm), is not bare tile."""
INNER_CLEAR = 0.8
BESIDE = 3.0
"""How far either side of an outline its background is looked at (mm)."""
STRIP_STEP = 1.5
OUTLINE_STEP = 1.6
"""Outlines are read at points this far apart (mm)."""
BARE_EVERY = 2
"""Bare tile is read at every this many lattice points across and down."""
FIELD_THIN = 6
"""Every this many field points is enough."""
FIELD_CLEAR = 4.0
"""How far (mm) a field point keeps from a zone, the white square, the edge, the label."""
GUARD_GAP = 0.8
"""How far (mm) beyond the circle about a slot's zone its guard lies (:func:`guard_radius`)."""
GUARD_STEP = 2.0
"""Guard points are this far apart (mm)."""
GUARD_EDGE = 2.5
"""Guard points count only this far (mm) inside the tile's cut, on its face: nearer lies
its edge line (the slot-line colour), and a tile cut or posed a little off shows the table
there."""
BEYOND = 3.0
"""How far (mm) past a tile's cut its beyond points lie (:attr:`KindProbes.beyond`): past
its edge line and the gap, on the table or the next tile."""
BAND = 2.25
"""How far (mm) inside a tile's cut its band points lie (:attr:`KindProbes.band`): between
its edge line and the slots' outlines, bare tile."""
BEYOND_AWAY = 2.0
"""A tile's beyond points farther than this many guard radii from a slot's centre are
elsewhere round the tile, for that slot (:attr:`KindProbes.elsewhere`)."""


@dataclasses.dataclass(frozen=True)
class KindProbes:
    """The probes of every slot of one kind on a variant (a tile's six strike-craft slots,
    its four mineral slots, its claim, its unit): the same shapes about each slot's centre,
    so one lattice and one set of weights serve them all. Point indices are into the
    variant's point list."""

    kind: str
    positions: tuple[int, ...]
    """Where these slots are in the variant's slot list."""
    names: tuple[str, ...]
    offsets: Matrix
    """C x 2: each candidate centre's offset from its slot's centre (mm)."""
    region: Indices
    """S x R: each slot's lattice points, the same offsets from each slot's centre."""
    body: Floats
    """C x R: averaging weights of the token's body at each candidate."""
    glyph_centre: Floats | None
    glyph_middle: Floats | None
    """C x R: a unit glyph's centre disc and middle ring (None for other kinds)."""
    inner: Indices
    """Which of the R region points lie well inside the printed outline (``INNER_CLEAR`` mm
    inside the line): a token anywhere in its zone covers much of them, an empty slot none."""
    outline: Indices
    """S x O: points on each slot's printed outline."""
    beside: Indices
    """S x B: points ``BESIDE`` mm outside it."""
    surround: Floats
    """S x N: averaging weights over each slot's surround among the variant's N bare points
    (``VariantLayout.bare``; a row of zeros where a slot has none)."""
    plane: Floats
    """S x 3 x N: least squares (gently held flat) of a plane through each surround's
    values: a, the value at the slot's centre, and its slopes per 10 mm across and down."""
    cover: Floats
    """S x N: averaging weights over the part of each surround nearest its zone (within
    ``COVER_REACH`` mm of it): what lies over the slot reaches there first."""
    guard: Indices
    """S x G: points on a circle about each slot's centre just beyond where any token in
    it reaches (``GUARD_GAP`` mm past its zone's circumscribed circle): a token ends
    before them, a finger ending in the slot runs on across them..."""
    guard_on: Bools
    """S x G: ...of which these count, and are sampled (the others name a point that is
    not): on the tile's face (``GUARD_EDGE`` inside its cut; beyond lie its edge line and
    the table, of any colour: a white cloth is a mineral's), and not as near another slot
    as its own guard (a token there may reach them)."""
    beyond: Indices
    """S x B: points ``BEYOND`` mm past the tile's cut (positions in
    :attr:`VariantLayout.beyond`), along each side the slot's guard reaches within
    ``GUARD_EDGE`` of, across the guard's width: where its guard is cut short, a finger
    coming in over the edge lies there, and no token in the slot reaches them..."""
    beyond_on: Bools
    """S x B: ...of which these count (the others name the ring's first point)."""
    elsewhere: Bools
    """S x A: which of the variant's points past the cut (:attr:`VariantLayout.beyond`) lie
    elsewhere round the tile for each slot (``BEYOND_AWAY`` guard radii from it): what the
    table or the next tile looks like there."""

    @functools.cached_property
    def ring(self) -> Floats:
        """S x N: 1 on the points of each slot's part nearest its zone (:attr:`cover`)."""
        out: Floats = (self.cover > 0).astype(np.float32)
        return out

    @functools.cached_property
    def ring_at(self) -> npt.NDArray[np.int64]:
        """The bare points in any slot's part nearest its zone (indices into N)."""
        out: npt.NDArray[np.int64] = np.nonzero((self.cover > 0).any(axis=0))[0]
        return out

    @functools.cached_property
    def ring_sizes(self) -> npt.NDArray[np.int64]:
        """S: how many points each of those parts has."""
        out: npt.NDArray[np.int64] = (self.cover > 0).sum(axis=1)
        return out


@dataclasses.dataclass(frozen=True)
class VariantLayout:
    points: Matrix
    """K x 2 sample points (mm, tile frame): the white margin's first, then the field's,
    then the points read in Lab (from ``lab_from`` on)."""
    lab_from: int
    strip: Indices
    """The white square's margin (the same points for every variant)."""
    bare: Indices
    """Every bare-tile point near a slot (the surrounds together)."""
    field: Indices
    """Bare tile far from anything printed or placed (``FIELD_CLEAR`` mm): how much light
    falls on the tile, since every face is printed alike."""
    owner: Indices
    """K: the slot (position in the variant's slot list) each point belongs to, for the
    light around it; -1 for the white margin and the field."""
    from_owner: Floats
    """K x 2: each point's offset from its owner slot's centre, in 10 mm."""
    slot_count: int
    kinds: tuple[KindProbes, ...]
    beyond: Indices
    """A: points ``BEYOND`` mm past the tile's cut all round it, ``GUARD_STEP`` apart (each
    slot's ``beyond`` are some of them)."""
    band: Indices
    """A: the points ``BAND`` mm inside the cut across from them, in the same order: a finger
    come in over the edge covers them too; bare tile and the edge line lie there else."""
    skipped: tuple[tuple[int, str], ...] = ()
    """Slots not probed at all (position in the variant's slot list, name): read UNKNOWN.
    A picture too coarse for small things skips minerals and strike craft (:data:`SMALL`)."""
    unprobed: tuple[tuple[tuple[int, ...], Floats], ...] = ()
    """The skipped kinds' slot positions and surround planes (``KindProbes.plane``): the
    bare tile a skipped slot owns is still lit by the light around that slot."""

    def planes(self) -> tuple[tuple[tuple[int, ...], Floats], ...]:
        """Every kind's slot positions and surround planes, probed or not."""
        return tuple((k.positions, k.plane) for k in self.kinds) + self.unprobed

    @functools.cached_property
    def strip_at(self) -> slice | Indices:
        """:attr:`strip` as a slice when its points lie in one run (they do): indexing by it
        is a view, not a copy."""
        return _run(self.strip)

    @functools.cached_property
    def field_at(self) -> slice | Indices:
        """:attr:`field`, likewise."""
        return _run(self.field)

    @functools.cached_property
    def bare_at(self) -> slice | Indices:
        """:attr:`bare`, likewise."""
        return _run(self.bare)


def _run(indices: Indices) -> slice | Indices:
    """``indices`` as a slice when they are one increasing run, else as they are."""
    if len(indices) and bool((np.diff(indices) == 1).all()):
        return slice(int(indices[0]), int(indices[-1]) + 1)
    return indices


def zone_inradius(kit: Kit, slot: SlotSpec) -> float:
    """How far from the slot's centre its zone reaches, measured like its inradius: the
    token's inradius, plus the placement offset, plus the blur of its edge."""
    return kit.token(slot).inradius + kit.placement_offset + EDGE_BLUR


def guard_radius(kit: Kit, slot: SlotSpec) -> float:
    """The radius (mm) of the circle about ``slot``'s centre its guard lies on: past the
    farthest any token in it reaches (its circumradius, whichever way it is turned, plus the
    placement offset and the blur of its edge), by ``GUARD_GAP``."""
    return kit.token(slot).circumradius + kit.placement_offset + EDGE_BLUR + GUARD_GAP


def _circle(centre: tuple[float, float], radius: float) -> Matrix:
    """Points about ``GUARD_STEP`` apart on a circle."""
    count = max(12, round(2 * math.pi * radius / GUARD_STEP))
    t = np.arange(count) * 2 * math.pi / count
    return np.stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)], 1)


def _inside_distance(slot: SlotSpec, x: Matrix, y: Matrix, inradius: float) -> Matrix:
    """How far inside (positive) or outside (negative) of ``slot``'s shape, grown to
    ``inradius``, each point lies (the shape's support function; exact for circles)."""
    dx, dy = x - slot.centre[0], y - slot.centre[1]
    if slot.shape == "circle":
        out: Matrix = inradius - np.hypot(dx, dy)
        return out
    if slot.shape == "triangle":
        normals = [
            (0.0, 1.0),
            (math.cos(math.radians(-30)), -0.5),
            (-math.cos(math.radians(30)), -0.5),
        ]
    else:
        normals = [
            (math.cos(math.radians(a)), math.sin(math.radians(a)))
            for a in (30, 90, 150, 210, 270, 330)
        ]
    reach = np.max([dx * nx + dy * ny for nx, ny in normals], axis=0)
    out = inradius - reach
    return out


def outline_points(slot: SlotSpec, inradius: float) -> Matrix:
    """Points about OUTLINE_STEP apart along the slot's shape grown to ``inradius``."""
    if slot.shape == "circle":
        count = max(12, round(2 * math.pi * inradius / OUTLINE_STEP))
        t = np.arange(count) * 2 * math.pi / count
        return np.stack(
            [slot.centre[0] + inradius * np.cos(t), slot.centre[1] + inradius * np.sin(t)], 1
        )
    grown = dataclasses.replace(slot, radius=inradius * (2 if slot.shape == "triangle" else 1))
    corners = np.array(grown.outline())
    out = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        n = max(2, round(float(np.linalg.norm(b - a)) / OUTLINE_STEP))
        # leave the corners out: blur rounds them
        for t in np.linspace(0, 1, n + 1)[1:-1]:
            out.append(a + (b - a) * t)
    return np.array(out)


def _lattice(centre: tuple[float, float], radius: float) -> Matrix:
    n = math.ceil(radius / STEP)
    g = np.arange(-n, n + 1) * STEP
    xs, ys = np.meshgrid(g, g)
    keep = np.hypot(xs, ys) <= radius
    return np.stack([xs[keep] + centre[0], ys[keep] + centre[1]], 1)


def _weights(points: Matrix, centres: Matrix, low: float, high: float) -> Floats:
    """C x R: for each centre, equal weights on the points between ``low`` and ``high`` mm
    from it (a disc when ``low`` is 0, a ring otherwise)."""
    d = np.hypot(points[None, :, 0] - centres[:, None, 0], points[None, :, 1] - centres[:, None, 1])
    inside = ((d >= low) & (d <= high)).astype(np.float32)
    out: Floats = inside / np.maximum(inside.sum(axis=1, keepdims=True), 1)
    return out


_LAYOUTS: dict[tuple[int, int, float, bool], tuple[Kit, VariantLayout]] = {}
SMALL = ("mineral", "craft")
"""The kinds of slot a coarse picture does not read (``slots.decide`` would call them all
unknown): a coarse layout leaves their points out, nearly half of a tile's."""
KEEP_OFF_STEP = 0.5


def keep_off(edge_mm: float) -> float:
    """How much farther (mm) the bare tile keeps from every zone in a picture whose edges
    are ``edge_mm`` wide (10-90 %): blur spreads a light token's colour onto the dark tile
    around it. In steps of KEEP_OFF_STEP, so few layouts are ever made."""
    extra = min(3.0, max(0.0, edge_mm - 1.2))
    return round(extra / KEEP_OFF_STEP) * KEEP_OFF_STEP


def layout(kit: Kit, variant: int, extra: float = 0.0, *, coarse: bool = False) -> VariantLayout:
    """The sample points of ``variant``, its bare tile ``extra`` mm farther from every zone
    (see :func:`keep_off`); made once per kit, variant, distance and coarseness. A
    ``coarse`` layout has no probes for the :data:`SMALL` kinds of slot (everything else,
    the same points and weights as the full layout)."""
    key = (id(kit), variant, extra, coarse)
    found = _LAYOUTS.get(key)
    if found is None or found[0] is not kit:
        full = layout(kit, variant, extra) if coarse else _layout(kit, variant, extra)
        found = _LAYOUTS[key] = (kit, _without(full, SMALL) if coarse else full)
    return found[1]


def _without(full: VariantLayout, kinds: tuple[str, ...]) -> VariantLayout:
    """``full`` without the probes of ``kinds`` of slot (their points dropped, every other
    index renumbered; the white margin, the field and the bare tile come first and stay)."""
    dropped = [k for k in full.kinds if k.kind in kinds]
    kept = [k for k in full.kinds if k.kind not in kinds]
    if not dropped:
        return full
    keep = np.ones(len(full.points), bool)
    for k in dropped:
        for indices in (k.region, k.outline, k.beside, k.guard):
            keep[indices.ravel()] = False
    renumber = np.cumsum(keep) - 1
    assert keep[: full.lab_from].all() and keep[full.bare].all()

    def moved(indices: Indices) -> Indices:
        out: Indices = renumber[indices].astype(np.intp)
        return out

    probes = tuple(
        dataclasses.replace(
            k,
            region=moved(k.region),
            outline=moved(k.outline),
            beside=moved(k.beside),
            guard=moved(k.guard),
        )
        for k in kept
    )
    skipped = tuple(
        sorted((p, name) for k in dropped for p, name in zip(k.positions, k.names, strict=True))
    )
    return dataclasses.replace(
        full,
        points=full.points[keep],
        strip=moved(full.strip),
        bare=moved(full.bare),
        field=moved(full.field),
        beyond=moved(full.beyond),
        band=moved(full.band),
        owner=full.owner[keep],
        from_owner=full.from_owner[keep],
        kinds=probes,
        skipped=full.skipped + skipped,
        unprobed=full.unprobed + tuple((k.positions, k.plane) for k in dropped),
    )


def _layout(kit: Kit, variant: int, extra: float) -> VariantLayout:
    points: list[Matrix] = []

    def add(new: Matrix) -> Indices:
        start = sum(len(p) for p in points)
        points.append(np.asarray(new, np.float64).reshape(-1, 2))
        return np.arange(start, start + len(points[-1]), dtype=np.intp)

    strip = add(white_margin(kit))
    slots = kit.variants[variant]
    half = kit.tile_side / 2
    # The bare tile: a sparser lattice, outside every zone.
    n = math.floor(half / STEP)
    g = (np.arange(-n, n) + 0.5) * STEP
    xs, ys = np.meshgrid(g, g)
    xs, ys = xs.ravel(), ys.ravel()
    keep = (
        (np.arange(len(g))[:, None] % BARE_EVERY == 0)
        & (np.arange(len(g))[None, :] % BARE_EVERY == 0)
    ).ravel()
    keep &= np.maximum(np.abs(xs), np.abs(ys)) <= half - KEEP_OFF_EDGE
    keep &= np.maximum(np.abs(xs), np.abs(ys)) >= kit.white_side / 2 + KEEP_OFF_WHITE
    for slot in slots:
        keep &= _inside_distance(slot, xs, ys, zone_inradius(kit, slot) + 1.0 + extra) < 0
    (lx, ly), (bw, bh) = kit.label_at(variant)
    keep &= ~((np.abs(xs - lx) <= bw / 2 + LABEL_CLEAR) & (np.abs(ys - ly) <= bh / 2 + LABEL_CLEAR))
    # The field: bare tile well clear of everything.
    far = keep.copy()
    far &= np.maximum(np.abs(xs), np.abs(ys)) <= half - KEEP_OFF_EDGE - FIELD_CLEAR
    far &= np.maximum(np.abs(xs), np.abs(ys)) >= kit.white_side / 2 + KEEP_OFF_WHITE + FIELD_CLEAR
    for slot in slots:
        far &= (
            _inside_distance(slot, xs, ys, zone_inradius(kit, slot) + 1.0 + extra + FIELD_CLEAR) < 0
        )
    far &= ~(
        (np.abs(xs - lx) <= bw / 2 + LABEL_CLEAR + FIELD_CLEAR)
        & (np.abs(ys - ly) <= bh / 2 + LABEL_CLEAR + FIELD_CLEAR)
    )
    field = add(np.stack([xs[far], ys[far]], 1)[::FIELD_THIN])
    lab_from = sum(len(p) for p in points)
    # Only the bare tile near some slot is looked at.
    near_any = np.zeros(len(xs), bool)
    for slot in slots:
        near_any |= _inside_distance(slot, xs, ys, zone_inradius(kit, slot) + extra + SURROUND) >= 0
    keep &= near_any
    bare_points = np.stack([xs[keep], ys[keep]], 1)
    bare = add(bare_points)
    owner_parts: list[Indices] = [np.full(lab_from, -1, np.intp)]
    reach_of = [zone_inradius(kit, slot) + extra + SURROUND for slot in slots]
    # A bare point belongs to the slot it is most inside the surround of.
    depth = np.stack(
        [
            _inside_distance(slot, bare_points[:, 0], bare_points[:, 1], reach)
            for slot, reach in zip(slots, reach_of, strict=True)
        ]
    )
    owner_parts.append(np.argmax(depth, axis=0).astype(np.intp))
    # Past the cut, all round: each point lit as the slot nearest it is.
    along = np.arange(-half, half + 1e-6, GUARD_STEP)
    past = half + BEYOND
    ring_points = np.concatenate(
        [
            np.stack([along, np.full(len(along), -past)], 1),
            np.stack([np.full(len(along), past), along], 1),
            np.stack([along[::-1], np.full(len(along), past)], 1),
            np.stack([np.full(len(along), -past), along[::-1]], 1),
        ]
    )
    beyond_all = add(ring_points)
    band_points = ring_points * (half - BAND) / past
    band_all = add(band_points)
    centres_all = np.array([slot.centre for slot in slots])
    for ring in (ring_points, band_points):
        owner_parts.append(
            np.argmin(
                np.hypot(*(ring[:, None, :] - centres_all[None]).transpose(2, 0, 1)), axis=1
            ).astype(np.intp)
        )
    offset = kit.placement_offset
    centres = _lattice((0.0, 0.0), offset + 1e-6)
    per_slot: dict[int, tuple[Indices, Indices, Indices, Indices, Indices, Indices]] = {}
    guard_on: dict[int, Bools] = {}
    beyond_of: dict[int, Indices] = {}
    elsewhere_of: dict[int, Bools] = {}
    shapes: dict[str, tuple[Floats, Floats | None, Floats | None, Indices]] = {}
    for position, slot in enumerate(slots):
        token = kit.token(slot)
        if slot.kind == "unit":
            glyph_outer = max(
                kit.glyph["destroyer"]["dot"],
                kit.glyph["battleship"]["dot"],
                kit.glyph["carrier"]["ring"][1],
            )
            low, high = token.inradius * glyph_outer + EDGE_BLUR, token.inradius - EDGE_BLUR
        else:
            low, high = 0.0, max(token.inradius - EDGE_BLUR, 1.5)
        relative = _lattice((0.0, 0.0), offset + high + 1e-6)
        region_points = relative + np.array(slot.centre)
        region = add(region_points)
        outline = add(outline_points(slot, slot.inradius))
        beside = add(outline_points(slot, slot.inradius + BESIDE))
        ring = _circle(slot.centre, guard_radius(kit, slot))
        alone = np.all(
            [
                np.hypot(*(ring - other.centre).T) > guard_radius(kit, other)
                for other in slots
                if other is not slot
            ],
            axis=0,
        )
        on = alone & (np.abs(ring).max(axis=1) <= half - GUARD_EDGE)
        # Only the points that count are sampled; the others name the slot's first point
        # (never counted), so every slot of a kind has a guard of one length.
        guard = np.full(len(ring), region[0], np.intp)
        guard[on] = add(ring[on])
        guard_on[position] = on
        # Past each side the guard comes within GUARD_EDGE of, across the guard's width.
        radius = guard_radius(kit, slot)
        cut_short = np.zeros(len(ring_points), bool)
        for axis in (0, 1):
            for sign in (-1.0, 1.0):
                if sign * slot.centre[axis] + radius <= half - GUARD_EDGE:
                    continue
                cut_short |= (
                    (np.sign(ring_points[:, axis]) == sign)
                    & (np.abs(ring_points[:, axis]) == past)
                    & (np.abs(ring_points[:, 1 - axis] - slot.centre[1 - axis]) <= radius)
                )
        beyond_of[position] = np.nonzero(cut_short)[0]
        elsewhere_of[position] = (
            np.hypot(*(ring_points - np.array(slot.centre)).T) > BEYOND_AWAY * radius
        )
        owner_parts.append(
            np.full(len(region) + len(outline) + len(beside) + int(on.sum()), position, np.intp)
        )
        near = np.nonzero(depth[position] >= 0)[0]
        # Every sort here is stable: on the kit's lattice many points lie equally deep, and
        # which of them make a cut must not turn on the order a machine's sort leaves ties
        # in (numpy 1's and numpy 2's differed: the Raspberry Pi's strike craft surrounds).
        if len(near) < SURROUND_LEAST:  # hemmed in by other zones: the bare tile nearest it
            near = np.argsort(-depth[position], kind="stable")[:SURROUND_LEAST]
        close = near[depth[position][near] >= SURROUND - COVER_REACH]
        if len(close) < COVER_LEAST:
            close = near[np.argsort(-depth[position][near], kind="stable")[:COVER_LEAST]]
        per_slot[position] = (
            region,
            outline,
            beside,
            bare[np.sort(near)],
            bare[np.sort(close)],
            guard,
        )
        if slot.kind not in shapes:
            body = _weights(relative, centres, low, high)
            glyph_centre = glyph_middle = None
            if slot.kind == "unit":
                glyphs = kit.glyph
                hole = glyphs["carrier"]["ring"][0]
                glyph_centre = _weights(relative, centres, 0.0, token.inradius * hole * 0.7)
                middle = (glyphs["destroyer"]["dot"] + glyphs["battleship"]["dot"]) / 2
                glyph_middle = _weights(
                    relative,
                    centres,
                    token.inradius * (middle - 0.06),
                    token.inradius * (middle + 0.06),
                )
            clear = kit.line_width / 2 + INNER_CLEAR
            centred = dataclasses.replace(slot, centre=(0.0, 0.0))
            inside = _inside_distance(centred, relative[:, 0], relative[:, 1], slot.inradius)
            inner = np.nonzero(inside >= clear)[0].astype(np.intp)
            if len(inner) < 3:  # a small slot: its three points nearest the centre
                nearest = np.argsort(np.hypot(relative[:, 0], relative[:, 1]), kind="stable")
                inner = nearest[:3].astype(np.intp)
            shapes[slot.kind] = (body, glyph_centre, glyph_middle, inner)
    kinds = []
    for kind in dict.fromkeys(slot.kind for slot in slots):
        positions = tuple(i for i, slot in enumerate(slots) if slot.kind == kind)
        body, glyph_centre, glyph_middle, inner = shapes[kind]
        weights = np.zeros((len(positions), len(bare)), np.float32)
        cover = np.zeros((len(positions), len(bare)), np.float32)
        planes = np.zeros((len(positions), 3, len(bare)), np.float32)
        for row, position in enumerate(positions):
            around = per_slot[position][3]
            close = per_slot[position][4]
            if len(close):
                cover[row, close - bare[0]] = 1.0 / len(close)
            if len(around):
                weights[row, around - bare[0]] = 1.0 / len(around)
                at = (bare_points[around - bare[0]] - slots[position].centre) / 10.0
                design = np.column_stack([np.ones(len(at)), at])
                held = design.T @ design + np.diag([0.0, PLANE_HELD, PLANE_HELD]) * len(at)
                planes[row][:, around - bare[0]] = np.linalg.solve(held, design.T)
        kinds.append(
            KindProbes(
                kind,
                positions,
                tuple(slots[p].name for p in positions),
                centres,
                np.stack([per_slot[p][0] for p in positions]),
                body,
                glyph_centre,
                glyph_middle,
                inner,
                np.stack([per_slot[p][1] for p in positions]),
                np.stack([per_slot[p][2] for p in positions]),
                weights,
                planes,
                cover,
                np.stack([per_slot[p][5] for p in positions]),
                np.stack([guard_on[p] for p in positions]),
                *_padded([beyond_of[p] for p in positions]),
                np.stack([elsewhere_of[p] for p in positions]),
            )
        )
    everything = np.concatenate(points)
    owner = np.concatenate(owner_parts)
    centres_of = np.array([slot.centre for slot in slots])
    from_owner = np.where(
        owner[:, None] >= 0, (everything - centres_of[np.maximum(owner, 0)]) / 10.0, 0.0
    ).astype(np.float32)
    return VariantLayout(
        everything,
        lab_from,
        strip,
        bare,
        field,
        owner,
        from_owner,
        len(slots),
        tuple(kinds),
        beyond_all,
        band_all,
    )


def _padded(rows: list[Indices]) -> tuple[Indices, Bools]:
    """Each row's positions round the ring, padded to the longest row with the ring's first
    (not counted), and which of them count."""
    width = max((len(r) for r in rows), default=0)
    positions = np.zeros((len(rows), width), np.intp)
    on = np.zeros((len(rows), width), bool)
    for i, row in enumerate(rows):
        positions[i, : len(row)] = row
        on[i, : len(row)] = True
    return positions, on


_MARGINS: dict[int, tuple[Kit, Matrix]] = {}


def white_margin(kit: Kit) -> Matrix:
    """Points on the white square between the marker and the square's edge (made once per
    kit): see :func:`_white_margin`."""
    found = _MARGINS.get(id(kit))
    if found is None or found[0] is not kit:
        found = _MARGINS[id(kit)] = (kit, _white_margin(kit))
    return found[1]


def _white_margin(kit: Kit) -> Matrix:
    """Points on the white square between the marker and the square's edge: two square
    rings a third and two thirds of the way out, points STRIP_STEP apart."""
    inner, outer = kit.marker_side / 2, kit.white_side / 2
    out = []
    for share in (1 / 3, 2 / 3):
        r = inner + (outer - inner) * share
        n = round(8 * r / STRIP_STEP)
        t = np.arange(n) / n * 8 * r  # distance along the ring, from (-r, -r) clockwise
        side, along = np.divmod(t, 2 * r)
        along = along - r
        x = np.choose(side.astype(int), [along, np.full(n, r), -along, np.full(n, -r)])
        y = np.choose(side.astype(int), [np.full(n, -r), along, np.full(n, r), -along])
        out.append(np.stack([x, y], 1))
    return np.concatenate(out)
