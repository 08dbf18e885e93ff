"""Reading every slot of the tiles of one variant from their sample points (see
:mod:`vision.local_cluster.layout`), white-balanced linear light.

A reading is given only when every check it could fail passes; otherwise the slot is
UNKNOWN, never a guess (docs/physical-kit.md, "How the camera reads the kit"):

1. **The light around it.** The bare tile around a slot says whether glare adds light there
   (taken off the slot's samples; too much, and the slot is unknown), whether more glare
   was taken off its whole tile than falls there (given back), or a shadow takes some away
   (made up for; a shade deeper than any shadow, and the slot is unknown; so too when its
   token, made up for beyond its tile's usual shade, reads lighter than the card's white:
   it did not lie in that shade).
2. **Covered?** Its surround's ring nearest the slot's zone must then look like printed
   tile: not lighter (a hand, a card), not darker than a shadow leaves it, not another hue,
   beyond what the picture's own noise puts there; and most of its whole surround must.
   Otherwise UNKNOWN, but for an empty slot whose outline shows whole, away from glare:
   what lay over it would hide its outline there. A reading is no surer than its ring and
   its whole surround are clear.
3. **Empty** only when the slot's inside looks like bare tile in hue and lightness, its
   body is no token's colour, *and* its printed outline shows, along every side (a dark
   sleeve or a dark object may look like bare tile; neither shows the outline, and a
   token's edge left showing beside a sleeve lifts only one side); a unit slot's middle
   darker than any shadow leaves bare tile is a glyph's ink, never an empty slot.
4. **A token** only when its inside is far from bare tile, its body (read at the candidate
   centre least like bare tile: tokens lie off-centre and turned) is even, near one of the
   card's swatches and clearly nearer to it than to any other (and, farther off its swatch,
   not on the way to another token's: part of it is something else); a unit's glyph must
   then fall clearly inside one glyph's rule; and its colour must not run on past where any
   token in its slot ends (a finger ending there does). A mineral is told from bare tile by its
   lightness, and below 1 px/mm its inside is no darker than its outline's ring
   (``MINERAL_UNDER_LINE``); an empty mineral slot's body must still lie in hue on the line
   from the card's white through bare tile (``MINERAL_EMPTY_HUE``: a finger over it does not).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from companion.local_cluster.atoms import Colour, UnitType
from companion.local_cluster.board_scan import SlotReading, SlotState
from vision.local_cluster.colour import lab, linear_from_lab, luminance, median
from vision.local_cluster.layout import KindProbes, VariantLayout

Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]

COLOURS = tuple(c.value for c in Colour)
NAMES = (*COLOURS, "tile")
WHITE = NAMES.index("white")
TILE = NAMES.index("tile")
LIGHT_TOKENS = ("white", "yellow", "aqua", "pink", "mineral")
HUED = tuple(c for c in COLOURS if c != "white")
"""The empire colours with a hue of their own."""

# The light around a slot -----------
LIFT_LEAST = 0.15
"""A surround this much lighter than bare tile (luminance) has glare on it, taken off the
slot's samples; SHADE_LEAST darker, a shadow, made up for."""
SHADE_LEAST = 0.1
SHADOW_DEEPEST = 0.15
"""A surround darker than this share of bare tile is in no shadow a hand casts (the
benchmark's renderer darkens to 0.4 under one hand's shadow, 0.16 under two): something
dark lies over it, and made up for as a shadow (its samples times 7 or more) it reads what
noise and an outline say. The slot is unknown. (Issue 18's benchmark, a warm set drawn
anew, seed 73, picture 20 at 0.96 px/mm: the prior placed a tile under a dark hand, its mineral1
slot's surround at 0.05 of bare tile, and the empty slot read "token" at 0.93. On fifteen
sets from 1 px/mm one mineral fewer right, read at 0.05; at 0.1 and 0.2 the same.)"""
OVER_WHITE = 1.5
OVER_SHARE = 0.2
"""A slot whose shade was made up for, with this share of its points then lighter than the
card's white by half again (``OVER_WHITE`` times it) in some channel, beyond the shade the
tile's slots show at the median, was not in that shade: what lies there is lit more than
the tile round it (a fingertip lit from above its hand's shadow; a token past a shadow's
edge) and is not read (drawn apart, seed 53 picture 51: a fingertip over an empty mineral
slot, its surround at 0.53 of bare tile, read as a token at 1.00; seed 57 picture 11: a
pink strike craft whose surround lay at 0.19, read white at 0.85, its red made up for to
2.9 times the card's white). Without the median, a tile printed darker than the kit says
reads as a shade at every slot, under which its light tokens lie as lit as the white
square: with the guard below, 104 right readings fewer on the fourteen seeds drawn apart,
10 of them on seed 11 (with it, 17). At 1.1, light claims and units lit a little more
than their surround were lost as well: 35 right readings on the ``hands`` set 13 alone;
at 1.5, one."""
SHADE_PRINTED_LEAST = 0.3
"""...but a tile whose slots show at the median a shade deeper than this is in shade, not
printed darker (its bare tile would read under L* 5, the kit printing it at 15): there a
token made up past ``OVER_WHITE`` is not read however the tile's other slots read. (Issue
18's pictures drawn apart, held-out seed 0 picture 17: fingers over S37's white square,
its light borrowed from the tiles beside it, its slots at 0.21-0.23 at the median, and two
pink strike craft made up to 2.2-3.1 times the card's white read white at 0.81-0.82. Tiles
printed dark read 0.38-0.45 on seeds 32-43: at 0.5, 25 right readings of minerals and light
tokens on them were lost; at 0.3, none.)"""
LEVEL_CLIP = 3.0
VEIL_ABOVE = 2.0
"""Where most of a slot's surround lies under a highlight's veil, its points count up to
the surround's median plus this many times bare tile's luminance, not ``LEVEL_CLIP``
times bare tile (:func:`surround_planes`). Capped at ``LEVEL_CLIP`` alone, the plane took
off at most twice bare tile's luminance (0.046 of paper white on issue 18's darkest
tiles): a veil lifting a surround by 0.06-0.2 left its ring lighter than bare tile, and
the slot read "covered" (the benchmark: 83 more visible slots right from 1 px/mm on seed
2026 with the prior, 262 on nine sets of pictures, none wrong)."""
GLARE_MOST = 0.15
"""Glare adding more than this share of paper white around a slot makes it unknown (the
plane's value at the slot; the benchmark's renderer counts a slot hidden by glare above a
fifth of paper white anywhere over its zone: at 0.2 here the same readings, at 0.1 17
fewer right on seed 2026, none wrong either way)..."""
GLARE_ALL_MOST = 0.2
"""...and so does glare adding more than this all told: what was taken off its whole tile
and what the median of its surround still shows (a bright object beside the slot does not
move a median)."""

# Covered -----------
BARE_LIGHTER = 9.0
"""A surround point lighter than bare tile by more than this (L*) is not bare tile."""
BARE_DARKER = 16.0
"""...or darker by more than this (a shadow darkens, but not this much)."""
BARE_HUE = 28.0
"""...or this far from it in hue (a*, b*)."""
NOISE_TIMES = 3.5
"""Bare tile's own noise (its median distance from bare tile) times this is still bare."""
COVERED_SHARE = 0.06
"""A slot whose surround's ring nearest its zone holds more than this share of such points
is covered..."""
COVERED_LEAST = 2
"""...if they are at least this many (a lone speck of noise covers nothing)..."""
NOISE_CHANCE = 1e-3
"""...and more than the picture's own noise would put there but this rarely: in a noisy
picture (warm light, JPEG, a highlight's veil over the dark tile) a point of bare tile lies
beyond the limits below now and then (4 % in issue 18's warmest pictures, where a ring of
20 points holds two such points one time in five). The rate is the picture's, counted over
the rings that look clear or nearly (at most ``NOISE_RING_SHARE`` foreign)."""
NOISE_RING_SHARE = 0.25
COVERED_ANYWAY = 0.4
"""A ring with this share of foreign points is covered whatever the picture's noise (a
small ring, 8 points, says little about the rate). At 0.2 (two points of a strike-craft
slot's ring of 8-10) the warm JPEG pictures' noise covered empty slots it had not reached:
issue 18's benchmark, five sets of pictures, 201 visible slots from 0.5 px/mm were unknown
for that alone (152 from 1 px/mm; 14 empty craft slots in seed 2026's picture 104, 3,134 K
at JPEG 60), all read right at 0.4, none wrong; no ring with 0.4 or more was left to it."""
SURROUND_COVERED = 0.3
"""A slot whose whole surround holds more than this share of foreign points, beyond the
picture's own noise rate, is covered however clear the ring nearest it: a hand over the slot
and one side of it (issue 18's benchmark picture 104 with the prior: S24's craft1, 42 %
foreign, 38 % beyond the noise). Counted with the noise, warm JPEG pictures left unknown
slots nothing covered (seed 2026 picture 104, 3,134 K, noise 3.9 %: S25's mineral1 token
with 33 % of its surround foreign, a surround of 12 to 18 points at the tile's edge): on
the nine sets read alone 56 visible slots more are right, none wrong. At 35 % there were
33 more, none wrong, but in the tests a mineral token beside a hand read empty, 12 claims
under squares of their own colour were read (5 before), and a tile whose marker a hand hides
was placed where it must not be."""
OUTLINE_WHOLE = 0.7
OUTLINED_SURE = 0.5
"""...but a slot whose outline shows whole, its least side at least ``OUTLINE_WHOLE`` of
the board's outlines, reads empty whatever lies over its ring and its surround (glare
aside): what lay over the slot would hide its outline on that side. So read, it is no surer
than ``OUTLINED_SURE``. A mineral slot's inside must still look like bare tile: its token
may leave its outline showing (and at 35 % of the surround, the outline not asked, a mineral
token beside a hand read empty).
(Issue 18's benchmark, seed 2026 picture 78: a hand over S31's claim, unit and minerals,
42 % of craft6's surround; picture 100: S44's empty craft3 and craft4, 38 % of each ring
under a thumb reaching over the slots beside them. Half the surround foreign and the ring
clear, until 2026-12-01: on the nine sets read alone 43 more visible slots right from 1
px/mm; whatever lies beside, 98 more again, none wrong at any scale; drawn apart, seeds
1818, 11 and 12 with the map, 6 more right, none wrong. Minerals too from 2026-12-06,
where a neighbour's token, the next tile's edge line or a hand lies over the ring: on tiles
whose marker shows whole, drawn apart, seeds 32-43 from 1 px/mm, 9 more right, held-out
seeds 0-31 44 more, our renderer's seven sets 10 more; on every tile, 14, 27 and 19 more
again with the map, none wrong. Seed 2026 picture 68's S35, a hand over its marker, then
showed its empty mineral4 at 0.5, enough to say which way its face lies,
``recognize.FACE_TURN_SURE``.)"""
HIDING_LEAST = 0.05
"""On a tile whose marker does not show whole, what lies over at least this share of its
bare points is what hides the marker (their colours, as sampled)..."""
HIDING_LIKE = 0.05
"""...and a token whose body lies as near at least this share of those colours as it lies
to its own swatch is unknown: a fingertip the colour of a token, over a strike-craft slot
inside the craft grid, whose surround lies all on the far side from the finger, passes
every other check. (Issue 18's pictures drawn apart, seed 27 picture 49: a pale hand over
S47, a fingertip over craft3, a yellow craft, read white at 0.88, the hand's median colour
nearer the body than white; seed 40 picture 40: a pink hand over S13, its lighter
fingertip over craft1, empty, read white at 0.84, the hand's median 19 from the body and
6 of its 66 points (9 %) nearer than white. Picture 41 of issue 18's benchmark: S39
placed 20 mm off under a finger, its empty craft6 read white but for ``LIGHTNESS_FAR``.
Mineral tokens keep ``HIDDEN_SURE``: their grey lies as near a pale hand as their
swatch.)"""
HIDDEN_SURE = 0.75
HIDDEN_SURROUND = 0.1
"""On a tile whose marker does not show whole (placed from the prior, or found on the grid:
``decide``'s ``hidden``), what hides the marker lies on that very tile, and may be what a
slot reads: a token read less surely than ``HIDDEN_SURE`` is kept only when no more than
this share of its whole surround, beyond the picture's noise, looks foreign. (Issue 18's
benchmark: a hand over an empty mineral slot and its ring, its skin white-balanced near a
mineral token's colour, read as a token at 0.45 with a sixth of the surround foreign; the
tokens read right there below 0.75 have their surround clear, or a few of their ring's
points foreign where the token lies off-centre. Every unsure token made unknown there, as
before: 24 visible slots fewer right from 1 px/mm with the prior on seed 2026, 100 on nine
sets, none wrong either way.)"""
HIDDEN_SURROUND_KINDS = ("mineral",)
"""...asked of a mineral token alone: its grey lies as near a pale hand as its swatch. A
coloured token is asked instead whether its body lies as near what hides the marker as its
swatch (``HIDING_LIKE``), and whether its colour runs on past its slot (``GUARD_SHARE``,
``BEYOND_SHARE``): a hand beside it is no reason to doubt it (issue 18's pictures drawn
apart, seed 43 picture 11: S24 under a hand, two aqua strike craft 1.6-2.1 from aqua's
print and 37 nearer it than any other colour, a seventh of their surround foreign, unknown;
read now. Seeds 32-43 from 1 px/mm, 15 more visible slots right with the map, 9 alone;
with every card's colours refused, 13 and 9; none wrong.)"""

# Empty -----------
EMPTY_HUE = 11.0
"""An empty slot's inside (well within its outline) is this close to bare tile in hue (a*,
b*), on average: to the board's bare tile or to the slot's own surround, the nearer (warm
light with JPEG shifts a dark tile's hue from place to place); every empire colour is far
more colourful, so a token anywhere in the zone moves it further from both (issue 18's
benchmark: colour tokens lay 50 or more from either, white ones are told by lightness)."""
EMPTY_HUE_NOISE = 2.0
EMPTY_HUE_MOST = 16.0
"""Where the picture's bare tile is noisy in hue (warm light: white balance magnifies the
little blue there is; JPEG 60-70), an empty slot's inside may be up to this many times
the bare points' median hue distance from bare tile, at most ``EMPTY_HUE_MOST``: far
below any colour token (50 or more in issue 18's benchmark and in
``test_strike_craft_of_every_colour_under_warm_light_are_never_read_empty``); white tokens
are told by lightness. Whether a token is read still uses ``EMPTY_HUE``."""
EMPTY_HUE_RINGED = {"craft": 1.5}
"""A strike craft slot's inside (the middle of a 10 mm circle) may be this
many times further in hue: its outline rings it closely, and JPEG keeps colour at half the
resolution of light, so the lighter outline's blue bleeds into the dark inside (issue 18's
benchmark, five sets of pictures: empty craft insides up to 2.7 times the limit in warm JPEG
60 pictures, and no other slot beyond it; the least colourful craft token dark enough to
pass for empty, a purple one at 2700 K, 2.1 times)."""
EMPTY_HUE_BARE = 2.5
BARE_BODY_FAR = 48.0
"""...and this many times when its body (read as a token's would be) is nearest bare tile
and at least this far (twice ``FAR``) from every token's swatch: nothing in the zone looks
like a token at all (issue 18's benchmark, new faces: 30 empty craft slots on seed 2026
were unknown on hue alone, 1.5-2.3 times the limit in 2700-3400 K JPEG 60-80 pictures, each
body nearest the tile and 51-75 from the nearest token swatch)."""
EMPTY_LIGHT = 0.3
"""...and lighter than bare tile by at most this share of the way to the darkest light
token (white, yellow, aqua, pink, mineral): blur brings some of the outline's light in."""
TOKEN_STEP = 2.0
"""A slot counts as holding a token only when its inside is this many times further from
bare tile than an empty slot may be (in between: unknown)."""
OUTLINE_SHARE = 0.5
"""An empty slot's outline shows at least this share of the contrast outlines show on this
board (and the board's outlines must show at all: ``OUTLINE_LEAST``)... (0.6 until
2026-12-01: a tile in a softer part of a picture drawn apart from the recognizer, seed 1818
picture 4, showed its empty strike-craft outlines at 0.55 of the board's, unknown; at 0.5,
from 1 px/mm, 4 more right on that set; none wrong on any set read.)"""
OUTLINE_SHARE_KIND = {"mineral": 0.45}
"""...or this share, for a kind measured against its own outlines' contrast: a mineral
slot's thin triangle, against the board's mineral outlines. No mineral token is dark: what
hides a mineral slot's outline and passes for bare tile is a dark sleeve or a shadow, which
shows none of it (issue 18's benchmark: at 0.6, 10 visible empty mineral slots on seed 2026
from 1 px/mm unknown for it alone, their outlines at 0.45-0.6 of the board's; 0.45 for every
kind reads a dark purple strike craft on a dark tile as empty)."""
OUTLINE_SHARE_HIDDEN = {"mineral": 0.6}
"""...but at least this share for these kinds on a tile whose marker does not show whole
(``decide``'s ``hidden``): what hides the marker lies on that very tile, and a dark hand in
warm light looks like the dark tile in colour, so a slot's ring and surround under it pass
for bare tile and only the outline tells it; a mineral's lowered share does not. (Issue
18's benchmark, ``warm`` set 83 picture 15, 0.87 px/mm: a dark arm over S46's marker and its
mineral3 token, the arm's texture and the print beside it lifting the slot's outline to
0.54 of the board's mineral outlines, read "empty" at 0.54. With this, that reading is
unknown; on nine sets read alone, every scale, none wrong, and from 1 px/mm 19 visible
empty minerals fewer right, 10 of them on seed 7. Every kind at 0.6 read the same on those
sets, and takes back two empty strike craft drawn apart at 0.55 under a hand.)"""
OUTLINE_LEAST = 3.5
OUTLINE_SHOWS = 2.5
"""...and any empty slot's outline must show at least this much (L*)."""
OUTLINE_PARTS = {"claim": 3, "unit": 6, "mineral": 3, "craft": 4}
"""An outline's sides (a circle's quarters), each of which must show."""
OUTLINE_ROUND = 0.2
"""An empty slot's outline shows at least this share of the board's outline contrast along
every side: a dark sleeve over part of the slot (it passes for bare tile) hides the outline
there, and a token's edge showing beside the sleeve lifts the outline's mean."""

# Tokens -----------
FAR = 24.0
"""A token's body farther than this from every swatch is unknown."""
MARGIN = 10.0
"""...and so is one not this much nearer its swatch than the next."""
FAR_CLEAR = 28.0
FAR_CLEAR_MARGIN = 18.0
"""A token's body up to ``FAR_CLEAR`` from its swatch is still read when it is at least
``FAR_CLEAR_MARGIN`` nearer that swatch than any other: plainly that colour, further off
it (a pink and a yellow strike craft on a tile drawn apart from the recognizer, seed 1818
picture 4, lay 24.1 and 25.8 from their swatches and 19 and 34 nearer them than the next;
a yellow one on picture 7 24.2, 47 nearer; unknown at ``FAR``)."""
LIGHTNESS_FAR = 20.0
"""...and so is one whose lightness (L*, the slot's light taken off) lies farther than this
from its swatch's, however near its hue: a colour of one swatch's lightness and another's
hue is neither. Lightness is most of what parts red from pink (L* 43 and 68 as printed);
issue 18's ``lamps`` set of seed 97 read a red carrier on a dark tile, tinted by a daylight
lamp's highlight on the token alone, as pink at 0.50: L* 23.6 below the card's pink, 23.9
from it in all. (Twenty-seven sets of 30-120 pictures, at every scale: that reading
unknown, one right one lost; on twenty-two of them, 41 of 63,954 token readings lay more
than 16 from their swatch's lightness.)"""
HUE_SHIFT_MOST = 20.0
"""In a picture under ``FINE_PX_PER_MM``, a card swatch whose hue (white-balanced, a* b*)
lies more than this many degrees from its printed one is unsure: the card's swatches are
small, and blur brings the white and the black probe round them into them, more than into a
claim or a unit (``warm`` 83 picture 8, 0.59 px/mm: the purple swatch read 36 degrees off
its print, at chroma 27 for 70, and a purple destroyer, 18 from the blue swatch and 36 from
that purple, read blue at 0.62)."""
PRINTED_FAR = 18.0
"""Against the kit's printed colours (no card to read: ``References.printed``) a token's
body farther than this from its swatch is unknown, and an empty slot's body must be
plainly bare tile, at least ``PRINTED_BARE`` from every token's swatch: a printer and a
light that the card would have shown move a token's colour off its printed one. Issue 18's
benchmark, every picture of 1 px/mm or more on 25 sets read with the card painted over:
with ``FAR`` and no bare test, 5 visible slots read wrong on ten of the sets (green units
aqua at 20.6-21.3 from aqua's print, a blue and a purple strike craft empty with their
bodies 37.8-38.9 from blue's and purple's); with these, no visible slot on all 25: 102,189
of 111,337 right (91.78 %; with the card 93.50 %). One mineral under a hand read empty
(``lamps`` 67, picture 3): the kit's grey prints lighter than that printer's, and its inside
lay no nearer the one than bare tile; with the card it is unknown."""
PRINTED_BARE = 44.0
"""...(see ``PRINTED_FAR``): the strike craft that read empty lay 37.8-38.9 from their print.
A reach of 26 for a body 20 nearer its swatch than any other was tried for the pictures drawn
apart from the recognizer (picture 28: six pink strike craft under a daylight lamp, 21-24
from pink's print and 47-51 from every other, unknown): with the card painted over, `lamps`
59 picture 31 then read two green units aqua, 20.6-21.3 from aqua's print and 48.6-50.3
from every other. A tinted light moves a colour onto another's print as far as off its own."""
PRINTED_CRAFT_BARE = 28.0
PRINTED_CRAFT_MARGIN = 10.0
"""...(see ``PRINTED_BARE``): an empty strike craft's body may instead lie
``PRINTED_CRAFT_BARE`` from every token's print and this much nearer bare tile than any. A
strike craft's small body takes in its outline's blur, a unit's does not (issue 18's
pictures drawn apart, seed 33 picture 16, its card's colours refused: sixteen empty strike
craft 17-22 from bare tile and 34-38 from every print, unknown; fifteen read empty now). A
blue one 37.8 from its print and 3.1 nearer bare tile (``warm`` 17 picture 15, dark strike
craft) is still unknown. Not asked of a unit: under a daylight lamp, ``lamps`` 59 picture
31 then read S8's blue carrier empty, 18.7 from bare tile and 31.9 from blue's print. (Seeds
32-43 from 1 px/mm, with the map: 30 more visible slots right, held-out seeds 0-31 49; with
every picture's card colours refused there, on our renderer's five sets, ``lamps`` 59 and
``warm`` 17 with dark strike craft: no visible slot wrong.)"""
PRINTED_FAR_CLEAR = 26.0
PRINTED_FAR_CLEAR_MARGIN = 40.0
"""...(see ``PRINTED_FAR``): a token's body up to ``PRINTED_FAR_CLEAR`` from its print is
still read when it lies at least ``PRINTED_FAR_CLEAR_MARGIN`` nearer that print than any
other colour, bare tile's included: plainly that colour, moved off its print by the light
alone. The tinted light that moves a colour onto another's print (``lamps`` 59 picture 31:
green units 20.6-21.3 from aqua's print) leaves it 27-30 nearer that print than any other,
so the margin is asked of a colour far from every other. (Issue 18's pictures drawn apart,
seed 40 picture 26, the card refused for glare: three yellow strike craft on S1 beside a
hand, 23 from yellow's print and 46 nearer it than any other colour, unknown; read now.
With every card's colours refused, of the 9,838 visible tokens of seeds 32-43 from 1 px/mm
none whose body lay nearest another colour's print, beyond ``PRINTED_FAR``, lay more than
12.3 nearer it than the next. Seeds 32-43 with the map, 10 more visible slots right; the
held-out seeds 0-31, 44; none wrong, nor with every card's colours refused.)"""
PRINTED_ANCHORED_FAR = 28.0
PRINTED_ANCHOR = 10.0
"""...(see ``PRINTED_FAR``): a token's body up to ``PRINTED_ANCHORED_FAR`` from its print is
still read when, of the tokens the picture reads within reach of their print, the one whose
body lies nearest it is of that colour and lies within ``PRINTED_ANCHOR`` of it: the
picture itself shows what that colour looks like in its light (a printer's drift, a lamp
the card would have shown). A tinted light that moves a colour onto another's print
(``lamps`` 59 picture 31) moves that colour's own tokens off it too. (Issue 18's pictures
drawn apart, seed 37 picture 20, a second lamp over the card: S16's blue strike craft
18-21 from blue's print, one within ``PRINTED_FAR`` and four within 5 of a token read
blue, unknown; read now. Seeds 32-43 from 1 px/mm, 9 more visible slots right with the
map and alone; with every card's colours refused, 42 more; none wrong, nor on our
renderer's sets with their cards' colours refused, ``lamps`` 59 among them.)"""
TINT_MARGIN = MARGIN / 2
TINT_FAR = 1.15 * FAR
"""A token's colour is read with the light around its slot taken off alike in every
channel, as the light that lit the table's colour (the card white-balances it away). A
lamp of another colour lights a highlight of its own colour, and a faint one is not even
taken off (``LIFT_LEAST``): issue 18's ``lamps`` pictures read a yellow claim white, greens
aqua, a red carrier purple (confidences 0.51-0.58). So each colour read is read again with
what the slot's surround shows beyond bare tile taken off channel by channel
(:func:`tinted`), and is kept only if that names the same swatch, at least this much nearer
to it than to the next, and within ``TINT_FAR`` of it. Not the reading itself: a hand or a
sleeve over part of the surround passes for a coloured light there, and read so a covered
mineral became a token; as a check it only ever makes a slot unknown. (The benchmark, two
``lamps`` sets of 40 pictures: their five wrong readings unknown at every scale, and 3
right ones with them; fifteen other sets, from 1 px/mm: 2 dark strike craft fewer right,
none on seed 2026. With ``MARGIN`` and ``FAR`` themselves, 24 dark strike craft on a warm,
JPEG-60 table were lost, most just beyond ``FAR``; without a test of ``FAR``, one wrong
reading stayed, 28.7 from its swatch. The wrong readings lay 0.5-2.9 from the next swatch,
or beyond 28 from their own.) Beside a body plainly lighter than bare tile
(``HUE_ONLY_BODY``), the surround's points off bare tile in hue alone are the tint, not
a cover: held-out seed 9 picture 39 (0.97 px/mm) lays S14's pink strike craft in a 2,701 K
lamp's warm pool, which left every point round two of them off bare tile in hue; counted
as foreign, they showed no tint, and both read red at 0.52-0.66. Read with the tint, they
lie nearer pink (19-21) than red (39-42)."""
TINT_SURROUND = 0.5
"""...where more than this share of the slot's surround is off bare tile: there the check
saw nothing of the light (9/39's two: all of it). Where less is, a hue-only point is more
likely the token's own colour that JPEG smears into the tile around it: a red strike craft
on seed 2026 picture 43 (2,985 K, JPEG 70; a quarter of its surround), read so, was left
unknown."""
HALO_OFF = FAR
"""A foreign point in a slot's ring counts as covering it only if it lies farther than this
from every mix of the slot's body and bare tile: blur and JPEG spread a token's own colour
into its ring (a yellow claim at 1.0 px/mm put 4-9 of its ring's points beyond bare tile's
limits, and was unknown), a hand or a neighbour's token of another colour is off that line.
A body as near its swatch may read as its token (``FAR``). Issue 18's benchmark from 1
px/mm, with the prior: 61 more slots right on nine sets (21 at half this), 11 on the three
dark-craft checks, none wrong."""
HUE_ONLY_BODY = 20.0
"""Beside a slot whose body is at least this much lighter (L*) than bare tile, the points
off bare tile in hue alone (of its lightness, within ``Bare.lighter`` and ``Bare.darker``)
do not cover it: a dark sleeve or shadow is of the tile's lightness, and what lies over the
body would make it as dark; a lamp's tint is not a cover. (Issue 18's pictures drawn
apart, seed 32 picture 32: a 2,772 K lamp's warm pool lifts b* on S40's dark face by 31-35
about its mineral slots and leaves L* within 1 of bare tile's; every mineral there was
unknown, its ring's tinted points calling it covered.)"""
HALO_MOST = 0.6
HALO_BODY = 25.0
"""A foreign point on that line still covers the slot when it shows this share of the slot's
body or more on the way from bare tile to it, where the body lies ``HALO_BODY`` or more from
bare tile: the ring lies beyond where a token may reach, and blur takes only a faint share
of its colour there; the whole of it is something lying over the slot and beyond, a
fingertip the colour of a token. (Issue 18's pictures drawn apart, seed 28 picture 14, 1.78
px/mm: a pale fingertip over S29's empty mineral4 and 15 % of its ring, near the card's
mineral grey, read as a token at 0.73. An empty slot's body lies near bare tile, and any
point off it lies toward it: without ``HALO_BODY``, 12 empty strike craft more unknown on
``lamps`` 53 alone. With it, on the nine sets read alone 13 fewer right from 1 px/mm, none
wrong.)"""
UNEVEN = 12.0
"""A token body whose colours spread more than this (Lab standard deviation) straddles an
edge: unknown."""
UNEVEN_PLAIN = 22.0
PLAIN_FAR = 18.0
PLAIN_MARGIN = 15.0
"""...unless its colour is unmistakable, within ``PLAIN_FAR`` (three-quarters of ``FAR``) of
its swatch and ``PLAIN_MARGIN`` (one and a half ``MARGIN``) nearer to it than to the next:
then it may spread up to ``UNEVEN_PLAIN``. A body straddling an edge has the mean of two
colours, far from every swatch or near two; warm light with JPEG 60 spreads a token's own
colour (issue 18's benchmark, five sets of pictures: 398 slots unknown for a spread of 12-18
alone, every one of them nearest its own colour). At 18, within 12 and 20 nearer: on the
nine sets read alone from 1 px/mm, 102 visible tokens on tiles found were unknown for their
spread or for lying more than ``FAR`` from their swatch alone, every one nearest its own
colour, most of them red and yellow in warm JPEG pictures (seed 2026 picture 43, 2,985 K:
S6's red claim spread 18.8, 12.7 from red); now 58 more visible slots are right there,
none wrong."""
PLAIN_INSIDE = 3.0
"""...and only when its inside, the slot's centre, is plainly no bare tile either: farther
from it in hue or lightness than this many times an empty slot may lie (``looks_empty``).
Half a token lying off-centre from the next slot and half bare tile spreads as much, and
its mean may lie as near that token's swatch (issue 18's pictures drawn apart, seed 23
picture 34: an empty strike-craft slot beside a red strike craft, its body spread 20.6,
13.4 from red, its inside 27 from bare tile in hue and 0.29 of the way to a light token,
read red at 0.72; the red strike craft read right there lie 66-79 off in hue). On six
seeds drawn apart that mistake is gone and nothing else changed; on the nine sets read
alone 7 fewer visible slots right from 1 px/mm (warm light), none wrong either way."""
SMEARED_OFF = 12.0
"""...or whatever its spread along the line from its mean to bare tile, if what spreads
across that line is within ``UNEVEN`` and its mean lies within this of some mix of its
swatch and bare tile: a token whose edge blur or JPEG smears into the tile around it (JPEG
keeps colour at half the resolution of light: a red or blue token at 1 px/mm spread 12-20,
much of it toward the tile). A red whose yellow JPEG took away lies 21 off every mix
of pink and tile, nearest pink: unknown (issue 18's benchmark, nine sets and the three
dark-craft checks from 1 px/mm: 219 more slots right with the prior, none wrong; with this
limit at 99, that red read pink at 0.47)."""
SMEARED_MOST = 20.0
"""...and a smeared body spreads at most this much: one spreading more is half a token and
half something else, whatever line it spreads along (a finger over half an empty strike-craft
slot and bare tile beside it spread 26 along the line from white to the tile, and read
white at 0.66, on a tile placed from a prior turned 5 degrees). The smeared tokens read on
the benchmark's sets spread at most 24; 8 of them, from 20 to 24, are unknown."""
SMEARED_FAR_COARSE = 18.0
"""...and, in a picture coarser than a pixel per millimetre, lies within this of its swatch
(elsewhere ``FAR``). There a unit's body is a few pixels across, and JPEG's colour, at half
their resolution, mixes it with the tile whole: issue 18's benchmark, a warm set drawn anew
(seed 73, 2700 K, JPEG 60), read a green carrier at 0.64 px/mm and a green strike craft at
0.93 aqua, smeared, 22.2 and 19.7 from aqua. From a pixel per millimetre this limit
would lose 27 right readings on the fifteen sets (most of them dark strike craft), and
below it costs 2 on that warm set."""
MINERAL_EMPTY, MINERAL_PRESENT = 0.25, 0.42
"""Where a mineral slot's inside lies between bare tile (0) and the card's mineral grey
(1): at most the first, it is empty (if its outline shows); at least the second, it holds a
token; in between, unknown."""
MINERAL_EMPTY_HUE = 25.0
"""An empty mineral slot is bare tile and its light outline blurred together: its body's hue
(a*, b*) lies within this of the line from the card's white (or mineral grey) through bare
tile's, however far past the tile (a deeper print of it). A finger over the slot is skin,
off that line whatever the light. Issue 18's benchmark, five sets of pictures: 4,943 empty
mineral slots read right at most 23.5 off the line (warm JPEG 60 pictures); a hand's edge
over a mineral token (warm set, picture 2) 27.3 off it, read empty at 0.05."""
MINERAL_HUE = 22.0
"""A mineral token is the card's mineral grey in hue (a*, b*) within this, or a mix of it
and bare tile's hue (JPEG keeps colour at half the resolution of light and bleeds the dark
tile's blue into a token on it; the card's grey swatch sits on white); a light patch of
another hue (a hand's edge, a finger) is not a mineral. Issue 18's benchmark: real mineral
tokens lay within 12 of the grey, a hand read as one at 30; in warm JPEG 60-70 pictures
mineral tokens lay 18-26 bluer than the grey, towards the tile (27 unknown for that alone
on seed 2026, 54 on the warm set), and no light patch over an empty slot within 18 of the
mix on five sets. At 18 on the nine sets read alone from 1 px/mm: of the mineral slots on
tiles found that passed every other test of a token more than 12 off the mix, 142, every
one was a token (32 of them 18.1-39.3 off, 19 within 22, most in the warm sets); at 22, 18
more visible slots right, none wrong."""
GREY_REDDER = 9.0
"""...and no redder (a*) than the card's mineral grey by more than this for each whole grey
its inside shows (at half the grey's lightness, 4.5): a mineral is grey in the light the
card shows, and a finger's edge over an empty slot is skin, red however it is lit; half over
the slot, even the lightest skin (12 redder) and the dark tile come to 8. Issue 18's benchmark,
two sets of pictures: 4,555 visible mineral tokens at most 6.1 redder, and at most 7.0 for
each whole grey; fingers over empty slots 12.9-18.8 redder at 0.6-0.7 of the grey, read as
minerals at 0.69-0.77 within ``MINERAL_HUE``. Not more: on five of the nine sets read alone
from 1 px/mm, of the mineral slots that passed every other test of a token but this one, the
tokens lay 9.0-17.3 redder for each whole grey and a fingertip over an empty slot 12.1
(`lamps` 53 picture 5, S3's mineral3, at 0.95 of the grey; the lightest skin the renderer
draws is 12 redder than the grey). At 11, 20 more visible slots right and none wrong on the
nine sets, but a skin a shade lighter or lit a little bluer would read as a mineral at full
confidence."""
WHITE_REDDER = 6.0
"""A white token is no redder (a*) than the card's white by more than this: the lightest skin
lies within ``FAR`` of white (21 in Lab), 12 redder; 1,127 white tokens read on three sets of
pictures were at most 4.0 redder. A fingertip over an empty strike-craft slot, the rest of
the slot's surround bare tile, came to 8.9 (issue 18's benchmark, hands set 71, picture 26)."""
MINERAL_UNDER_LINE = 12.0
"""A mineral token (the kit's mineral grey) is lighter than the slot-line colour: its inside
is at least as light as the ring on its outline, where it meets the line. In a picture
coarser than 1 px/mm (``References.coarse``), an inside darker than that ring by
more than this (L*) is an empty slot whose light outline the picture has blurred into it.
(Drawn apart, seed 49 picture 26, 0.88 px/mm, blurred: S34's empty mineral2 read as a token,
its inside 0.6 of the way to the grey and 17.7 darker than its outline; that picture's other
empty minerals lay 14.6-20.5 darker. Mineral tokens read right below 1 px/mm lay at most
9.2 darker, on the `warm` set 17. Not from 1 px/mm, where the outline does not bleed in:
applied there too, at 10, the rule cost 16 right readings on the nine sets; `warm` 17
picture 8, 2.03 px/mm, had five tokens 10.4-14.5 darker.)"""
MINERAL_UNEVEN = 20.0
"""A mineral token is evenly light; a light patch more uneven than this is something else
(the edge of a neighbour's token, a highlight's rim). Warm light with JPEG 60 spreads the
grey: issue 18's benchmark, the 25 sets read alone from 0.85 px/mm, 27,012 mineral slots
passed every other test of a token (the ring clear, at least ``MINERAL_PRESENT`` of the way
to the grey, within ``MINERAL_HUE``, no redder than ``GREY_REDDER`` allows), every one of
them a token, and 270 were unknown for a spread of 10-25 alone (the limit was 10, or 15 for
an inside 0.8 of the way to the grey). At 20: 250 more slots right from 0.85 px/mm, none
wrong (the pictures drawn apart from the renderer: 457 passed every other test, all of
them tokens, none spreading over 10)."""
MINERAL_EMPTY_UNEVEN, MINERAL_EMPTY_OUTLINE = 24.0, 1.5
"""An empty mineral slot's inside is bare tile: it spreads (Lab standard deviation) by the
picture's noise, up to the first, and by its own light outline blurred into it, up to the
second times the outline's contrast. An inside more uneven holds something else: part of a
token under the edge of a sleeve or a hand, dark and light averaging to bare tile. (Issue
18's `lamps` 53 picture 26, 0.94 px/mm, with the map: S10 under a dark sleeve, looked for
from the map's cell; its mineral1 token's inside as dark as bare tile, its outline showing
6.7, spreading 27.5, read empty at 0.21. On the pictures drawn apart, seeds 32-43 from 1
px/mm, the 8,896 mineral slots read empty spread at most 23.8, none past either limit; 24
alone cost 3 right ones read alone on the held-out seeds, their outlines' contrast 27-56,
and 1.5 times the contrast alone, from 20, cost 6 on our renderer's sets.)"""
BEYOND_SHARE = 0.3
BEYOND_ELSEWHERE = 0.2
"""A token whose body's colour lies past the tile's cut beside it (``KindProbes.beyond``)
at this share of those points, at least ``GUARD_LEAST`` of them, and at this share of the
band just inside the cut across from them (``VariantLayout.band``), while the points past
the cut elsewhere round the tile show it at no more than ``BEYOND_ELSEWHERE``, is a hand
come in over the edge (unknown). Where a slot's guard runs off the tile's face, what comes
in from beyond crosses nothing else looked at, and a pale skin may pass every test of a
token's colour (under a yellow light, the card's own mineral grey). No token reaches past
the cut; a table of the body's colour (a white cloth, a mat's white stripe) shows past it,
but not on the band, where bare tile and the edge line lie, and mostly all round the tile
too. (Issue 18's pictures drawn apart, seeds 32-43, 47, 63, 68 and 69, 960 pictures from
0.5 px/mm, 26,057 tokens read: the four read wrong, all under a hand, showed 0.5-1.0 past
the cut, 0.58-0.91 on the band and at most 0.08 elsewhere; three right ones are lost, one
of them visible. Without the band, past the cut alone with at most 0.2 elsewhere, 105 right
ones were lost, 98 visible, most of them minerals beside a light cloth or a white stripe.)"""
GLYPH_DARK, GLYPH_LIGHT = 0.65, 0.35
"""Every glyph is ink at its centre or its middle ring (a destroyer's dot, a battleship's
disc, a carrier's ring): the darker of the two is the glyph's ink on this very token. The
other counts as ink too when at least GLYPH_DARK as dark, as the token's colour when at most
GLYPH_LIGHT; in between, the unit is unknown."""
GLYPH_INKED = 30.0
GLYPH_DARK_INKED = 0.45
"""A glyph whose ink is at least GLYPH_INKED (L*) darker than its token (black ink on a
light token) counts its other part as ink from GLYPH_DARK_INKED as dark: blur takes a
battleship's middle ring towards a light token's colour (white battleships at about 1
px/mm read their ring 0.52-0.64 as dark as their disc, and were unknown), while of ~3,700
destroyers and carriers with ink that dark, on issue 18's renderer and the pictures drawn
apart from it, no destroyer's ring nor carrier's hole read over 0.23 as dark."""
GLYPH_DISC_COARSE = 0.8
"""Blur darkens a carrier's light hole and a destroyer's light ring towards a battleship's
disc, never the other way: in a picture too coarse for small things (``References.fine``)
a disc is read only when its centre and middle are both at least this as dark as the
darker of them (issue 18's benchmark, seed 23, picture 25: a purple carrier's hole at 0.71
at 0.62 px/mm read as a battleship's disc)."""
GLYPH_LEAST = 10.0
"""The glyph's ink must be this much darker (L*) than the token's colour..."""
GLYPH_LEAST_COARSE = 11.0
"""...and this much in a picture too coarse for small things (``References.fine``), where a
carrier's light hole is a pixel or two and blur fills it: a blue carrier at 0.62 px/mm read
as a battleship with its ink 10.0 darker (issue 18's benchmark, warm set 73, picture 23)."""
BETWEEN_OFF = 8.0
BETWEEN_SHARE = 0.2
"""A body farther than ``FAR`` from its nearest swatch (read only as ``FAR_CLEAR`` allows)
that lies within ``BETWEEN_OFF`` of a mix of that swatch and another token's, at least
``BETWEEN_SHARE`` of the way to the other, is unknown: a token is one colour, and a body
between two is part of one and part of something else (drawn apart, seed 48 picture 18,
0.84 px/mm: a pale fingertip over S35's yellow strike craft, read white at 0.43, its body
27 from the card's white and a third of the way to its yellow, 5 off the line between
them). A body blurred into bare tile lies toward the tile, no token's colour."""
GUARD_LIKE = 12.0
"""A guard point this near (Lab) a token's body, and unlike bare tile, looks like it."""
GUARD_SHARE = 0.25
GUARD_LEAST = 2
"""A token whose guard (``KindProbes.guard``) shows its body's colour at this share of its
points, and at least this many, runs on past its slot: a finger ending there, not a token
(unknown). The slots along a tile's edge have no surround on that side, and a finger
coming in over the edge crosses nothing else looked at (drawn apart, seed 55 picture 13:
fingertips in two empty mineral slots read as tokens at 0.05 and 0.46, their guard's
points 0.37 and 0.38 like the body). Of the 6,530 tokens read right on four seeds drawn
apart (21-24), counting the table beyond the cut as well, 16 reached 0.25, all minerals by
a tile's edge (a white cloth is a mineral's colour); the nine of them looked at again on
the tile's face alone lay below 0.15."""
GLYPHS = {
    (True, False): UnitType.DESTROYER,
    (True, True): UnitType.BATTLESHIP,
    (False, True): UnitType.CARRIER,
}


@dataclasses.dataclass(frozen=True)
class References:
    """What the slots are compared with, in white-balanced Lab."""

    swatches: dict[str, Floats]
    """The card's colour swatches (empire colours and mineral grey)."""
    tile: Floats
    """Bare printed tile, as this board's tiles show it."""
    tile_luminance: float
    """Bare printed tile's luminance (white-balanced linear light; paper is 1)."""
    outline: float = 0.0
    """How much lighter the printed outlines look than the tile beside them, on this board
    (the median over the slots that look empty)."""
    mineral_outline: float = 0.0
    """...and the mineral slots' outlines alone (0 when too few look empty to say). A
    mineral's outline, a triangle, is judged against the lesser of the two: it shows less than
    a craft slot's ring or a claim's outline (issue 18's benchmark, seed 2026 from 1 px/mm: a
    median 0.93 of the board's, against 1.02-1.06), and less still in a blurred picture,
    where 25 empty minerals were unknown for an outline under 0.6 of the board's (with the
    prior, 18 more slots right on seed 2026 and 42 on the five sets, none wrong)."""
    colours: bool = True
    """False when no token's colour is read: the card's colours unusable in a picture too
    coarse for the printed ones, tiles unlike their print, or a picture under 0.5 px/mm."""
    fine: bool = True
    """False when the picture is too coarse for small things (a 1.5 mm outline, a mineral,
    a strike craft) to be told from noise: then only claims and units are read, and no slot
    as empty."""
    coarse: bool = False
    """True in a picture coarser than 1 px/mm: a smeared token's body must lie nearer its
    swatch (:data:`SMEARED_FAR_COARSE`), and a slot's 1.5 mm outline blurs into a mineral's
    small inside (:data:`MINERAL_UNDER_LINE`)."""
    printed: bool = False
    """The swatches are the kit's printed colours, not the card's (no card to read)."""
    unsure: frozenset[str] = frozenset()
    """Swatches whose hue, as the card shows them, lies too far from their print to say
    what that colour looks like here (:data:`HUE_SHIFT_MOST`): a token nearest such a
    swatch, or next nearest it, is unknown."""
    glare: Floats = dataclasses.field(default_factory=lambda: np.ones(3, np.float32))
    """The colour a highlight around a slot is taken off in (white-balanced linear R, G, B
    of luminance 1; grey unless :func:`recognize._glare_colour` says otherwise)."""

    @property
    def light_span(self) -> float:
        """How much lighter (L*) than bare tile the darkest light token is."""
        return max(min(float(self.swatches[n][0]) for n in LIGHT_TOKENS) - float(self.tile[0]), 1.0)

    def table(self) -> Floats:
        """The swatches (and bare tile) in :data:`NAMES` order, N x 3."""
        return np.stack([self.swatches[n] if n != "tile" else self.tile for n in NAMES])


def _least_foreign(points: npt.NDArray[np.int64], rate: float) -> Floats:
    """For rings of ``points`` points each: how many foreign points a ring must hold for the
    picture's noise (``rate`` of bare points beyond the limits, independently) to put that
    many there less often than :data:`NOISE_CHANCE`, and never fewer than
    :data:`COVERED_LEAST`."""
    most = int(points.max()) if points.size else 0
    n = np.arange(most + 1)
    if rate <= 0 or math.comb(most, COVERED_LEAST) * rate**COVERED_LEAST < NOISE_CHANCE:
        # Even the largest ring holds COVERED_LEAST noisy points more rarely than that (the
        # bound is the expected number of such sets): a clean picture.
        least = np.full(most + 1, COVERED_LEAST, np.float32)
        return least[points]
    rate = min(rate, 0.999)
    log_fact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, most + 1)))])
    k = n[None, :]
    rows = n[:, None]
    with np.errstate(invalid="ignore"):
        log_pmf = (
            log_fact[rows]
            - log_fact[np.minimum(k, rows)]
            - log_fact[np.maximum(rows - k, 0)]
            + k * np.log(rate)
            + (rows - k) * np.log1p(-rate)
        )
    pmf = np.where(k <= rows, np.exp(log_pmf), 0.0)
    # P(X >= k) for each ring size (row) and count (column).
    tail = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    rare = tail < NOISE_CHANCE
    first = np.where(rare.any(axis=1), np.argmax(rare, axis=1), n + 1)
    out: Floats = np.maximum(first, COVERED_LEAST).astype(np.float32)[points]
    return out


@dataclasses.dataclass
class Lit:
    """One variant's tiles as lit around each slot: Lab samples (T x K x 3; only from the
    layout's ``lab_from`` on) with glare taken off and shadows made up for, slot by slot,
    and which slots cannot be read for the light (too much glare, or a shade deeper than any
    shadow)."""

    lab: Floats
    glare: Bools
    """T x slots."""
    bare_rgb: Floats
    """The bare points as sampled (T x N x 3, white-balanced linear light, the tile's own
    glare taken off): :func:`tinted` measures the light around a slot channel by channel."""
    lift: Floats
    """What was taken off each slot's samples at its centre (T x slots), in each channel
    that times the glare's colour (``References.glare``)..."""
    gain: Floats
    """...and what they were then divided by (a shadow: below 1)."""


def light(
    groups: dict[int, tuple[VariantLayout, Floats, Floats]], refs: References
) -> dict[int, Lit]:
    """Correct each slot's samples for the light around it (each variant's tiles: their
    layout, white-balanced linear light, T x K x 3, and the glare already taken off each
    tile as a whole, T), then convert them to Lab."""
    bare = max(refs.tile_luminance, 1e-4)
    corrected: dict[int, Floats] = {}
    glare = {}
    lifts: dict[int, Floats] = {}
    gains: dict[int, Floats] = {}
    for variant, (layout, linear, taken) in groups.items():
        count = len(linear)
        # A plane through each surround's luminance: the light around the slot, and how it
        # changes across it (:func:`surround_planes`).
        planes = np.zeros((count, layout.slot_count, 3), np.float32)
        planes[:, :, 0] = bare
        seen = luminance(linear[:, layout.bare_at])
        for positions, plane in layout.planes():
            planes[:, list(positions)] = surround_planes(seen, plane, bare)
        owner = layout.owner[layout.lab_from :]
        at = layout.from_owner[layout.lab_from :]
        # Each plane's three terms gathered apart (T x K each): gathering T x K x 3 and
        # slicing it took three times as long, for the same sums.
        level = (
            np.take(planes[..., 0], owner, axis=1)
            + np.take(planes[..., 1], owner, axis=1) * at[:, 0]
            + np.take(planes[..., 2], owner, axis=1) * at[:, 1]
        )
        lift, gain = _lift_and_gain(level, bare, taken)
        # T x 3K rows, each point's lift and gain repeated for its three channels: the same
        # arithmetic as broadcasting them over a last axis of 3, in a third of the time.
        inside = linear[:, layout.lab_from :, :]
        rows = inside.reshape(count, -1)
        taken_off = (
            np.repeat(lift, 3, axis=1)
            if (refs.glare == 1).all()
            else (lift[..., None] * refs.glare).reshape(count, -1)
        )
        lit = (rows - taken_off) / np.repeat(gain, 3, axis=1)
        corrected[variant] = np.maximum(lit, 0).reshape(inside.shape)
        # ...and at each slot's centre, for :func:`tinted` and the deepest shade.
        lifts[variant], gains[variant] = _lift_and_gain(planes[:, :, 0], bare, taken)
        glare[variant] = (planes[:, :, 0] - bare > GLARE_MOST) | (gains[variant] < SHADOW_DEEPEST)
        # Each tile's median slot's gain: a tile printed darker than the kit says reads as a
        # shade at every slot, under which its light tokens lie as lit as the white square.
        # A median shade deeper than SHADE_PRINTED_LEAST is no darker print, but shade.
        usual_shade = median(gains[variant], axis=1)
        usual_shade = np.where(usual_shade >= SHADE_PRINTED_LEAST, usual_shade, 1)
        # The surround's median above bare tile plus what is left of GLARE_ALL_MOST once its
        # tile's glare is taken off: more than half its points lie above that.
        bright = (seen > (bare + GLARE_ALL_MOST - taken)[:, None]).astype(np.float32)
        for kind in layout.kinds:
            glare[variant][:, list(kind.positions)] |= bright @ kind.surround.T > 0.5
            # A slot in shade whose points, made up for, read lighter than the card's white
            # (only the slots in shade are looked at: few are).
            tiles, slots = np.nonzero(gains[variant][:, list(kind.positions)] < 1)
            if len(tiles):
                made_up = corrected[variant][tiles[:, None], kind.region[slots] - layout.lab_from]
                made_up = made_up.max(axis=2) * usual_shade[tiles, None]
                over = (made_up > OVER_WHITE).mean(axis=1) > OVER_SHARE
                glare[variant][tiles, np.asarray(kind.positions)[slots]] |= over
    flat = lab(np.concatenate([c.reshape(-1, 3) for c in corrected.values()]).astype(np.float32))
    out = {}
    start = 0
    for variant, part in corrected.items():
        layout = groups[variant][0]
        size = part.shape[0] * part.shape[1]
        full = np.zeros((part.shape[0], len(layout.points), 3), np.float32)
        full[:, layout.lab_from :] = flat[start : start + size].reshape(part.shape)
        start += size
        out[variant] = Lit(
            full,
            glare[variant],
            groups[variant][1][:, layout.bare_at],
            lifts[variant],
            gains[variant],
        )
    return out


def _lift_and_gain(level: Floats, bare: float, taken: Floats) -> tuple[Floats, Floats]:
    """What to take off samples where the light around them is ``level`` (T x any,
    luminance; ``taken``, T: the glare already taken off each whole tile), and what to
    divide them by then.

    The glare taken off the whole tile (what its field's low percentile shows) may be more
    than falls around a slot: a highlight falls off across a tile, and the slots near its
    edge lie beyond the field. What the surround lacks of bare tile, up to what was taken, is
    given back; only a shortfall beyond that is shade. (Taken for shade, the over-subtraction
    was divided out: the dark tile turned a saturated blue, and no ring looked like bare
    tile.)"""
    back = np.minimum(np.maximum(bare - level, 0), taken[:, None].astype(np.float32))
    lift = np.where(level > bare * (1 + LIFT_LEAST), level - bare, -back).astype(np.float32)
    level = level + back
    gain = np.where(level < bare * (1 - SHADE_LEAST), level / bare, 1).astype(np.float32)
    out: Floats = np.maximum(gain, 0.05)
    return lift, out


def surround_planes(seen: Floats, plane: Floats, bare: float) -> Floats:
    """T x S x 3: the plane through each of S surrounds' luminance on T tiles (``seen``, T x
    N bare points; ``plane``, the least squares, S x 3 x N; ``bare``, bare tile's
    luminance).

    Each point counts at most ``LEVEL_CLIP`` times bare tile's luminance, so that a bright
    object in a corner of a surround does not pass for glare all over it; or, where the
    surround's median lies higher (a highlight's veil over most of it), at most that
    median plus ``VEIL_ABOVE`` times bare tile: the plane follows the veil, and an object
    over less than half the surround moves no median."""
    count, size = seen.shape
    least = np.float32(LEVEL_CLIP * bare)
    above = np.float32(VEIL_ABOVE * bare)
    # T x N times (S x 3 x N) -> T x S x 3, as one matrix product (einsum: 5 times slower at
    # 1080p).
    terms = (np.minimum(seen, least) @ plane.reshape(-1, size).T).reshape(count, len(plane), 3)
    # The cap rises only where the surround's median lies above ``least - above``, and
    # changes something only where a point lies above ``least``: only surrounds with such a
    # point are looked at (most pictures' surrounds have none).
    around: Bools = np.any(plane, axis=1)
    over = ((seen > least).astype(np.float32) @ around.T.astype(np.float32)) > 0  # T x S
    for s in np.nonzero(over.any(axis=0))[0]:
        points = seen[:, around[s]]
        caps = median(points, axis=1) + above
        rows = np.nonzero((caps > least) & over[:, s])[0]
        if len(rows):
            terms[rows, s] = np.minimum(points[rows], caps[rows, None]) @ plane[s][:, around[s]].T
    return terms


def _plainly_lighter(colour: Floats, refs: References) -> Bools:
    """Whether each body (Lab, last axis) is plainly lighter than bare tile
    (:data:`HUE_ONLY_BODY`): no dark thing over its slot, so beside it what is off bare tile
    in hue alone is the light's tint, not a cover (:func:`measure`, :func:`tinted`)."""
    out: Bools = colour[..., 0] - refs.tile[0] >= HUE_ONLY_BODY
    return out


def tinted(
    layout: VariantLayout,
    m: Measured,
    lit: Lit,
    refs: References,
    colour: Floats,
    nearest: npt.NDArray[np.int64],
    tiles: npt.NDArray[np.intp],
    slots: npt.NDArray[np.intp],
) -> Bools:
    """Which of the token colours read on ``tiles`` in ``m``'s ``slots`` (their bodies
    ``colour``, P x 3 Lab, nearest the swatches ``nearest``) do not hold once the light
    around each slot is taken off channel by channel (:data:`TINT_MARGIN`)."""
    probes = next(k for k in layout.kinds if k.kind == m.kind.kind)
    tile = linear_from_lab(refs.tile)
    at = np.asarray(probes.positions)[slots]
    lift, gain = lit.lift[tiles, at][:, None], lit.gain[tiles, at][:, None]
    # The surround's points that do not look like bare tile once lit (a neighbour's token,
    # a hand) count as bare tile under that light: they show nothing of its colour. Beside
    # a body plainly lighter than bare tile whose surround is mostly such points
    # (TINT_SURROUND), only those off it in lightness: what is off it in hue alone is the
    # light's tint there, as :func:`measure` takes it (HUE_ONLY_BODY).
    seen = lit.bare_rgb[tiles]  # P x N x 3
    points = lit.lab[tiles][:, layout.bare_at]
    foreign = m.limits.foreign(points, refs.tile)
    # ...the share of each surround off bare tile, as :func:`measure` weighs it.
    share = (foreign * probes.surround[slots]).sum(axis=1)
    tint_only = _plainly_lighter(colour, refs) & (share > TINT_SURROUND)
    if tint_only.any():
        foreign[tint_only] = m.limits.off_in_lightness(points[tint_only], refs.tile) > 0
    taken = gain * tile + lift * refs.glare
    seen = np.where(foreign[..., None], taken[:, None, :], seen)
    level = (probes.plane[slots][:, :1, :] @ seen)[:, 0, :]
    # What the surround shows beyond bare tile under the lift and gain already made up for,
    # channel by channel: a lamp of another colour, or the light left below LIFT_LEAST.
    tint = level - taken
    body = lab(np.maximum(linear_from_lab(colour) - tint / gain, 0).astype(np.float32))
    distances = np.linalg.norm(body[:, None, :] - refs.table()[None], axis=2)
    order = np.argsort(distances, axis=1, kind="stable")[:, :2]
    d = np.take_along_axis(distances, order, axis=1)
    out: Bools = (order[:, 0] != nearest) | (d[:, 1] - d[:, 0] < TINT_MARGIN) | (d[:, 0] > TINT_FAR)
    return out


@dataclasses.dataclass(frozen=True)
class Bare:
    """How far from bare tile a point may look and still be bare tile, on this picture: the
    fixed limits, or wider where the picture's noise is (a warm light leaves little blue, so
    white balance magnifies its noise on the dark tile)."""

    lighter: float = BARE_LIGHTER
    darker: float = BARE_DARKER
    hue: float = BARE_HUE
    empty_hue: float = EMPTY_HUE
    """How far in hue an empty slot's inside may be (:data:`EMPTY_HUE_NOISE`)."""

    @classmethod
    def of(cls, lab_points: Floats, tile: Floats) -> Bare:
        """The limits for a picture whose bare tile reads ``lab_points`` (N x 3)."""
        dl = np.abs(lab_points[:, 0] - tile[0])
        hue = np.hypot(lab_points[:, 1] - tile[1], lab_points[:, 2] - tile[2])
        spread = float(median(dl)) * NOISE_TIMES
        noise = float(median(hue))
        return cls(
            max(BARE_LIGHTER, spread),
            max(BARE_DARKER, spread),
            max(BARE_HUE, noise * NOISE_TIMES),
            min(EMPTY_HUE_MOST, max(EMPTY_HUE, noise * EMPTY_HUE_NOISE)),
        )

    def off_in_lightness(self, lab_points: Floats, tile: Floats) -> Floats:
        """1 at the points (any shape x 3, Lab) lighter or darker than bare tile may look,
        0 elsewhere."""
        dl = lab_points[..., 0] - tile[0]
        out: Floats = ((dl > self.lighter) | (dl < -self.darker)).astype(np.float32)
        return out

    def foreign(self, lab_points: Floats, tile: Floats) -> Bools:
        """Which points (any shape x 3, Lab) do not look like bare tile."""
        dl = lab_points[..., 0] - tile[0]
        hue = np.hypot(lab_points[..., 1] - tile[1], lab_points[..., 2] - tile[2])
        out: Bools = (dl > self.lighter) | (dl < -self.darker) | (hue > self.hue)
        return out


def looks_empty(
    hue: Floats,
    lightness: Floats,
    step: float = 1.0,
    hue_limit: float | npt.NDArray[np.floating[Any]] = EMPTY_HUE,
) -> Bools:
    out: Bools = (hue <= hue_limit * step) & (lightness <= EMPTY_LIGHT * step)
    return out


@dataclasses.dataclass(frozen=True)
class Measured:
    """What was measured of one kind of slot on T tiles (T x S arrays)."""

    kind: KindProbes
    covered: Floats
    """The share of each surround's ring nearest the zone (``KindProbes.cover``) that does
    not look like bare tile."""
    covered_points: Floats
    """How many points that share is."""
    covered_other: Floats
    """The share of that ring that does not look like bare tile nor like a mix of the slot's
    own body and bare tile (:data:`HALO_OFF`): what covers the slot, not its token's own
    blurred edge."""
    covered_other_points: Floats
    """How many points that share is."""
    covered_least: Floats
    """How many such points make the ring covered, given its size and the picture's noise
    (:func:`_least_foreign`)."""
    surround_share: Floats
    """The share of each whole surround that does not look like bare tile."""
    hue: Floats
    lightness: Floats
    """How far from bare tile each inside is on average, in hue (from the board's bare tile
    or the slot's own surround, the nearer), and in lightness as a share of
    :attr:`References.light_span`."""
    contrast: Floats
    """How much lighter each printed outline looks than either side of it."""
    contrast_least: Floats
    """...and along its least side (:data:`OUTLINE_PARTS`): a dark sleeve over part of a
    slot hides the outline there, whatever a token's edge beside it shows."""
    over_inside: Floats
    """How much lighter (L*) each printed outline looks than the slot's inside."""
    colour: Floats
    """T x S x 3: the token's body at its best candidate."""
    spread: Floats
    """How far the body's colours spread (Lab standard deviation)..."""
    spread_across: Floats
    """...of which this much lies off the line from the body's mean to bare tile (what a
    blurred or JPEG-smeared edge of the token mixes in lies along it)."""
    nearest: npt.NDArray[np.intp]
    """Index into :data:`NAMES` of the swatch nearest each body."""
    d1: Floats
    d2: Floats
    glyph: tuple[Floats, Floats] | None
    """How much darker than the token its glyph's centre disc and middle ring are."""
    seen: Bools
    """T: the tiles found by their own marker (:func:`measure`'s ``seen``)."""
    guard_like: Floats
    """The share of each slot's guard points that count (``KindProbes.guard_on``) that look
    like its body (within :data:`GUARD_LIKE`) and unlike bare tile..."""
    guard_count: Floats
    """...and how many points that is."""
    beyond_like: Floats
    """The share of each slot's points past the tile's cut (``KindProbes.beyond``) that look
    like its body and unlike bare tile, as the guard's do..."""
    beyond_count: Floats
    """...and how many points that is..."""
    elsewhere_like: Floats
    """...and the share of the points past the cut elsewhere round the tile
    (``KindProbes.elsewhere``) that do..."""
    band_like: Floats
    """...and the share of the points inside the cut across from the slot's
    (``VariantLayout.band``) that do."""
    limits: Bare = Bare()
    """How far from bare tile a point may look on this picture."""
    noise_rate: float = 0.0
    """The share of bare points beyond the limits in the rings that look clear or nearly:
    the picture's own noise."""


def measure(
    layouts: dict[int, VariantLayout],
    lit: dict[int, Lit],
    refs: References,
    seen: dict[int, Bools] | None = None,
) -> list[Measured]:
    """Every kind of slot on every tile, measured: one :class:`Measured` per kind, its rows
    the tiles of each variant in turn (as ``lit`` orders them). ``seen`` marks each
    variant's tiles found by their own marker (all when None; ``recognize.read_tiles``
    passes all when none was): the picture's bare-tile
    limits and its noise are measured on those alone, so a tile placed from the prior, a
    hand over it, changes nothing another tile reads."""
    table = refs.table()
    points = {v: lit[v].lab[:, layouts[v].bare_at, :] for v in lit}
    if seen is None:
        seen = {v: np.ones(len(lit[v].lab), bool) for v in lit}
    limits = Bare.of(
        np.concatenate(
            [(points[v] if seen[v].all() else points[v][seen[v]]).reshape(-1, 3) for v in lit]
        ),
        refs.tile,
    )
    rows_seen = np.concatenate([seen[v] for v in lit])
    bare = {v: limits.foreign(points[v], refs.tile).astype(np.float32) for v in lit}
    # ...and of those, the ones off it in lightness (not in hue alone: ``HUE_ONLY_BODY``).
    lit_off = {v: limits.off_in_lightness(points[v], refs.tile) for v in lit}
    # Each variant's bare points that look like bare tile, and their a*, b* (T x N each):
    # the slots' own surrounds in hue (:func:`_around`).
    kept = {v: 1 - bare[v] for v in lit}
    kept_ab = {v: (kept[v] * points[v][..., 1], kept[v] * points[v][..., 2]) for v in lit}
    # Past each tile's cut and just inside it (every kind's slots look at the same points).
    cuts = {v: _Cut.of(lit[v].lab, layouts[v], limits, refs.tile) for v in lit}
    kinds: dict[str, list[KindProbes]] = {}
    for v in lit:
        for kind in layouts[v].kinds:
            kinds.setdefault(kind.kind, []).append(kind)
    out = []
    rings: list[npt.NDArray[np.int64]] = []
    for name, probes in kinds.items():
        kind = probes[0]
        region = np.concatenate(
            [lit[v].lab[:, k.region, :] for v, k in zip(lit, probes, strict=True)]
        )
        covered_share = np.concatenate(
            [bare[v] @ k.cover.T for v, k in zip(lit, probes, strict=True)]
        )
        # How many points that is, counted on each variant's own rings (the sparse lattice
        # falls differently on each quarter turn: one slot's ring has 22 points on one
        # variant and 11 on another).
        covered_points = np.concatenate(
            [bare[v] @ k.ring.T for v, k in zip(lit, probes, strict=True)]
        )
        ring_points = np.concatenate(
            [
                np.broadcast_to(k.ring_sizes, (len(bare[v]), len(k.ring_sizes)))
                for v, k in zip(lit, probes, strict=True)
            ]
        )
        surround_share = np.concatenate(
            [bare[v] @ k.surround.T for v, k in zip(lit, probes, strict=True)]
        )
        on = np.concatenate([lit[v].lab[:, k.outline, 0] for v, k in zip(lit, probes, strict=True)])
        outside = np.concatenate(
            [lit[v].lab[:, k.beside, 0] for v, k in zip(lit, probes, strict=True)]
        )
        flipped = np.ascontiguousarray(np.swapaxes(region, 2, 3))  # T x S x 3 x R
        # One matrix product over every tile, slot and channel (not one per tile and slot).
        rows = flipped.reshape(-1, flipped.shape[3]) @ kind.body.T  # T S 3 x C
        means = np.swapaxes(rows.reshape(*flipped.shape[:3], -1), 2, 3)  # T x S x C x 3
        from_tile = ((means - refs.tile) ** 2).sum(axis=3)  # T x S x C
        best = np.argmax(from_tile, axis=2)  # T x S
        pick = best[..., None, None]
        colour = np.take_along_axis(means, pick, axis=2)[:, :, 0]
        # The body's mean square at the chosen candidate only (at every candidate, then
        # picking one, took ten times as long; the sums differ in float32's last bits).
        squares = ((flipped**2) @ kind.body[best][..., None])[..., 0]  # T x S x 3
        spread_sq = np.clip(squares - colour**2, 0, None).sum(axis=2)
        spread = np.sqrt(spread_sq)
        toward = refs.tile - colour
        toward /= np.maximum(np.linalg.norm(toward, axis=2, keepdims=True), 1e-6)
        along = np.einsum("tscr,tsc->tsr", flipped, toward)
        along_sq = ((along**2)[:, :, None, :] @ kind.body[best][..., None])[..., 0, 0]
        along_var = np.clip(along_sq - (colour * toward).sum(axis=2) ** 2, 0, None)
        spread_across = np.sqrt(np.clip(spread_sq - along_var, 0, None))
        # A body plainly lighter than bare tile is no dark thing over the slot: beside it,
        # what is off bare tile in hue alone is the light's tint, not a cover.
        light_body = _plainly_lighter(colour, refs)
        if light_body.any():
            covered_share = np.where(
                light_body,
                np.concatenate([lit_off[v] @ k.cover.T for v, k in zip(lit, probes, strict=True)]),
                covered_share,
            )
            surround_share = np.where(
                light_body,
                np.concatenate(
                    [lit_off[v] @ k.surround.T for v, k in zip(lit, probes, strict=True)]
                ),
                surround_share,
            )
        # The ring's foreign points off every mix of the slot's own body and bare tile, or
        # showing most of a body plainly no bare tile (only the rings that hold any foreign
        # point: most are clear).
        other_share, other_points = covered_share.copy(), covered_points.copy()
        first = 0
        for v, k in zip(lit, probes, strict=True):
            tile_rows, slot = np.nonzero(covered_points[first : first + len(bare[v])] > 0)
            if len(tile_rows):
                at = k.ring_at
                body = colour[first + tile_rows, slot][:, None]
                ring_lab = points[v][tile_rows][:, at]
                off = np.where(
                    light_body[first + tile_rows, slot][:, None],
                    lit_off[v][tile_rows][:, at],
                    bare[v][tile_rows][:, at],
                )
                other = off * (
                    (_off_mix(ring_lab, body, refs.tile) > HALO_OFF)
                    | (
                        (_mix_share(ring_lab, body, refs.tile) <= 1 - HALO_MOST)
                        & (np.linalg.norm(body - refs.tile, axis=-1) >= HALO_BODY)
                    )
                )
                other_share[first + tile_rows, slot] = (other * k.cover[slot][:, at]).sum(axis=1)
                other_points[first + tile_rows, slot] = (other * k.ring[slot][:, at]).sum(axis=1)
            first += len(bare[v])
        inner = region[:, :, kind.inner, :].mean(axis=2)
        # Bare tile in hue as the board shows it, or as the slot's own surround does (a lamp
        # or a warm light with JPEG shifts a dark tile's hue from place to place): the
        # nearer of the two.
        around = np.concatenate(
            [_around(kept[v], *kept_ab[v], k.surround) for v, k in zip(lit, probes, strict=True)]
        )
        hue = np.fmin(
            np.hypot(inner[..., 1] - refs.tile[1], inner[..., 2] - refs.tile[2]),
            np.hypot(inner[..., 1] - around[..., 0], inner[..., 2] - around[..., 1]),
        )
        lightness = (inner[..., 0] - refs.tile[0]) / refs.light_span
        level = (outside.mean(axis=2) + inner[..., 0]) / 2
        on_mean = on.mean(axis=2)
        contrast = on_mean - level
        contrast_least = _least_part(on, OUTLINE_PARTS[kind.kind]) - level
        over_inside = on_mean - inner[..., 0]
        distances = np.sqrt(((colour[:, :, None, :] - table[None, None]) ** 2).sum(axis=3))
        order = np.argsort(distances, axis=2, kind="stable")[..., :2]
        d = np.take_along_axis(distances, order, axis=2)
        glyph = None
        if kind.glyph_centre is not None and kind.glyph_middle is not None:
            values = region[..., 0]
            glyph = (
                colour[..., 0] - (kind.glyph_centre[best] * values).sum(axis=2),
                colour[..., 0] - (kind.glyph_middle[best] * values).sum(axis=2),
            )
        guard_like, guard_count = _guard(
            [(lit[v].lab[:, k.guard], k) for v, k in zip(lit, probes, strict=True)],
            colour,
            limits,
            refs.tile,
        )
        beyond_like, beyond_count, elsewhere_like, band_like = _beyond(
            [(cuts[v], k) for v, k in zip(lit, probes, strict=True)], colour
        )
        del name
        rings.append(ring_points)
        out.append(
            Measured(
                kind,
                covered_share,
                covered_points,
                other_share,
                other_points,
                # Until the picture's noise is known (below): COVERED_LEAST, as in a clean one.
                np.full(covered_points.shape, COVERED_LEAST, np.float32),
                surround_share,
                hue,
                lightness,
                contrast,
                contrast_least,
                over_inside,
                colour,
                spread,
                spread_across,
                order[..., 0],
                d[..., 0],
                d[..., 1],
                glyph,
                rows_seen,
                guard_like,
                guard_count,
                beyond_like,
                beyond_count,
                elsewhere_like,
                band_like,
                limits,
            )
        )
    # The picture's noise: the foreign points' share in the rings that look clear or nearly
    # (a ring under a hand says nothing of it).
    foreign = np.concatenate([m.covered_points[rows_seen].ravel() for m in out])
    sizes = np.concatenate([r[rows_seen].ravel() for r in rings])
    calm = foreign <= NOISE_RING_SHARE * sizes
    rate = float(foreign[calm].sum() / max(int(sizes[calm].sum()), 1))
    largest = max((int(r.max()) for r in rings if r.size), default=0)
    least = _least_foreign(np.arange(largest + 1), rate)
    return [
        dataclasses.replace(m, covered_least=least[ring], noise_rate=rate)
        for m, ring in zip(out, rings, strict=True)
    ]


def _guard(
    parts: list[tuple[Floats, KindProbes]], colour: Floats, limits: Bare, tile: Floats
) -> tuple[Floats, Floats]:
    """T x S each: the share of each slot's guard points that count (``guard_on``) and look
    like its body (``colour``, T x S x 3) but not like bare tile (``limits``), and how many
    they are; ``parts`` gives each variant's guard points as sampled (T x S x G x 3) and its
    probes."""
    shares, counts = [], []
    first = 0
    for seen, probes in parts:
        body = colour[first : first + len(seen)]
        first += len(seen)
        like = np.linalg.norm(seen - body[:, :, None, :], axis=3) <= GUARD_LIKE
        like &= limits.foreign(seen, tile)
        count = (like & probes.guard_on[None]).sum(axis=2).astype(np.float32)
        shares.append(count / np.maximum(probes.guard_on.sum(axis=1), 1))
        counts.append(count)
    return np.concatenate(shares), np.concatenate(counts)


@dataclasses.dataclass(frozen=True)
class _Cut:
    """One variant's points past each tile's cut all round (``VariantLayout.beyond``) and
    inside it across from them (``VariantLayout.band``): T x A x 3 each, Lab, and which of
    them look unlike bare tile (T x A each)."""

    past: Floats
    band: Floats
    past_foreign: Bools
    band_foreign: Bools

    @classmethod
    def of(cls, lab: Floats, layout: VariantLayout, limits: Bare, tile: Floats) -> _Cut:
        past, band = lab[:, layout.beyond], lab[:, layout.band]
        return cls(past, band, limits.foreign(past, tile), limits.foreign(band, tile))


def _beyond(
    parts: list[tuple[_Cut, KindProbes]], colour: Floats
) -> tuple[Floats, Floats, Floats, Floats]:
    """T x S each, for each slot's points past the cut (``KindProbes.beyond``): the share of
    them that look like its body (``colour``, T x S x 3; within :data:`GUARD_LIKE`) but not
    like bare tile, and how many they are; the share of the points past the cut elsewhere
    round the tile (``KindProbes.elsewhere``) that do; and the share of the points inside
    the cut across from the slot's that do. ``parts`` gives each variant's points about
    its tiles' cuts and its probes."""
    shares, counts, elsewhere, inside = [], [], [], []
    first = 0
    for cut, probes in parts:
        body = colour[first : first + len(cut.past)]
        first += len(cut.past)
        at = probes.beyond  # S x B: positions round the ring
        rows = np.arange(len(at))[:, None]
        on = probes.beyond_on[None]
        counted = np.maximum(probes.beyond_on.sum(axis=1), 1)
        like = _near(cut.past, body) & cut.past_foreign[:, None]
        count = (like[:, rows, at] & on).sum(axis=2).astype(np.float32)
        shares.append(count / counted)
        counts.append(count)
        away = probes.elsewhere[None]
        elsewhere.append((like & away).sum(axis=2) / np.maximum(away.sum(axis=2), 1))
        across = ((cut.band[:, at] - body[:, :, None, :]) ** 2).sum(axis=3) <= GUARD_LIKE**2
        across &= cut.band_foreign[:, at]
        inside.append((across & on).sum(axis=2) / counted)
    return (
        np.concatenate(shares),
        np.concatenate(counts),
        np.concatenate(elsewhere),
        np.concatenate(inside),
    )


def _near(points: Floats, body: Floats) -> Bools:
    """T x S x A: which of each tile's points (T x A x 3) lie within :data:`GUARD_LIKE` of
    each of its slots' bodies (T x S x 3), by the expanded square: one matrix product (the
    points all round a tile against every slot are the most the scan compares)."""
    points = points.astype(np.float64)
    body = body.astype(np.float64)
    square = (
        (body * body).sum(axis=2)[:, :, None]
        + (points * points).sum(axis=2)[:, None, :]
        - 2.0 * np.matmul(body, points.transpose(0, 2, 1))
    )
    out: Bools = square <= GUARD_LIKE * GUARD_LIKE
    return out


def _least_part(on: Floats, parts: int) -> Floats:
    """The darkest of an outline's ``parts`` equal runs of points (its sides, in order; a
    circle's quarters), each run's mean: T x S from T x S x O."""
    runs = np.array_split(on, parts, axis=2)
    out: Floats = np.min(np.stack([r.mean(axis=2) for r in runs]), axis=0)
    return out


def _around(kept: Floats, kept_a: Floats, kept_b: Floats, surround: Floats) -> Floats:
    """Each slot's surround in a*, b* (T x S x 2): the mean over its bare points that look
    like bare tile (``kept``, T x N: 1 where they do; ``kept_a``, ``kept_b``: their a*, b*,
    0 elsewhere); NaN where none does."""
    weight = kept @ surround.T  # T x S
    a = kept_a @ surround.T
    b = kept_b @ surround.T
    with np.errstate(invalid="ignore", divide="ignore"):
        out: Floats = np.stack([a / weight, b / weight], axis=2)
    return out


def outline_contrasts(
    measured: list[Measured], kind: str | None = None, *, everywhere: bool = False
) -> Floats:
    """The outline contrasts of the slots (of ``kind``, or every kind) that look empty and
    clear of anything, on the tiles found by their own marker (on every tile measured,
    ``everywhere``)."""
    measured = [m for m in measured if kind is None or m.kind.kind == kind]
    on = [(m.seen | everywhere)[:, None] for m in measured]
    found = [
        m.contrast[tiles & looks_empty(m.hue, m.lightness) & (m.covered < COVERED_SHARE / 2)]
        for m, tiles in zip(measured, on, strict=True)
        if m.kind.kind != "mineral"
    ]
    found += [
        m.contrast[tiles & (m.lightness <= EMPTY_LIGHT) & (m.covered < COVERED_SHARE / 2)]
        for m, tiles in zip(measured, on, strict=True)
        if m.kind.kind == "mineral"
    ]
    out: Floats = np.concatenate([f.ravel() for f in found]) if found else np.zeros(0, np.float32)
    return out


def decide(
    layouts: dict[int, VariantLayout],
    measured: list[Measured],
    lit: dict[int, Lit],
    refs: References,
    hidden: dict[int, Bools] | None = None,
) -> dict[int, list[list[SlotReading]]]:
    """Every slot of every tile: for each variant, its tiles' readings in slot order (see
    the module docstring). ``hidden`` marks each variant's tiles whose marker does not show
    whole (:data:`HIDDEN_SURROUND`)."""
    rows: dict[int, list[list[SlotReading | None]]] = {}
    for v in lit:
        row: list[SlotReading | None] = [None] * layouts[v].slot_count
        for position, name in layouts[v].skipped:
            row[position] = SlotReading(name, SlotState.UNKNOWN)
        rows[v] = [list(row) for _ in range(len(lit[v].glare))]
    starts = {}
    at = 0
    for v in lit:
        starts[v] = at
        at += len(lit[v].glare)
    hidden_tiles = (
        np.concatenate([hidden[v] for v in lit]) if hidden is not None else np.zeros(at, bool)
    )
    # The colours of what hides each such tile's marker (the picture's bare-tile limits are
    # every kind's alike), each variant's padded to the most bare points any has.
    most = max((len(layouts[v].bare) for v in lit), default=0)
    hiders = np.full((at, most, 3), np.nan, np.float32)
    if hidden is not None and measured:
        for v in lit:
            part = _hider(layouts[v], lit[v], refs, hidden[v], measured[0].limits)
            hiders[starts[v] : starts[v] + len(part), : part.shape[1]] = part
    kinds: list[_Decided] = []
    for m in measured:
        kind = m.kind
        positions = list(kind.positions)
        glare = np.concatenate([lit[v].glare[:, positions] for v in lit])
        states, colours, units, sure, far = _decide_kind(m, glare, refs, hidden_tiles, hiders)
        # Each colour read, read again with the light around its slot taken off channel by
        # channel (TINT_MARGIN): one that does not hold is unknown.
        read = np.nonzero(np.asarray(colours) >= 0)
        if len(read[0]):
            for v in lit:
                count = len(lit[v].glare)
                mine = (read[0] >= starts[v]) & (read[0] < starts[v] + count)
                if not mine.any():
                    continue
                tiles, slots = read[0][mine], read[1][mine]
                wrong = tinted(
                    layouts[v],
                    m,
                    lit[v],
                    refs,
                    m.colour[tiles, slots],
                    m.nearest[tiles, slots],
                    tiles - starts[v],
                    slots,
                )
                for i, s in zip(tiles[wrong], slots[wrong], strict=True):
                    states[i][s], colours[i][s], units[i][s], sure[i][s] = 0, -1, -1, 0.0
        kinds.append((m, states, colours, units, sure, far))
    _anchored(kinds)
    for m, states, colours, units, sure, _ in kinds:
        positions = list(m.kind.positions)
        for v in lit:
            for t, row in enumerate(rows[v]):
                i = starts[v] + t
                for s, position in enumerate(positions):
                    colour, unit = colours[i][s], units[i][s]
                    row[position] = SlotReading(
                        m.kind.names[s],
                        _STATES[states[i][s]],
                        None if colour < 0 else _COLOURS[colour],
                        None if unit < 0 else _UNITS[unit],
                        sure[i][s],
                    )
    return {v: [[r for r in row if r is not None] for row in rows[v]] for v in lit}


_Decided = tuple[
    Measured, list[list[int]], list[list[int]], list[list[int]], list[list[float]], Bools
]
"""One kind's readings as :func:`_decide_kind` gives them: its measurements, then per slot
the state, colour, unit and confidence, and which tokens only ``PRINTED_ANCHORED_FAR``
reaches."""


def _anchored(kinds: list[_Decided]) -> None:
    """Each token read only by ``PRINTED_ANCHORED_FAR`` kept where the token read within
    reach of its print whose body lies nearest it, of every kind and tile, is of its colour
    and within ``PRINTED_ANCHOR`` of it; made unknown otherwise (in place)."""
    if not any(far.any() for *_, far in kinds):
        return  # the common case: no token read beyond its reach
    bodies, names = [], []
    for m, states, colours, _, _, far in kinds:
        read = (np.asarray(states) == 2) & ~far
        bodies.append(m.colour[read])
        names.append(np.asarray(colours)[read])
    anchors, anchor_names = np.concatenate(bodies), np.concatenate(names)
    for m, states, colours, units, sure, far in kinds:
        for t, s in zip(*np.nonzero(far & (np.asarray(states) == 2)), strict=True):
            if len(anchors):
                apart = np.linalg.norm(anchors - m.colour[t, s], axis=1)
                nearest = int(np.argmin(apart))
                if anchor_names[nearest] == colours[t][s] and apart[nearest] <= PRINTED_ANCHOR:
                    continue
            states[t][s], colours[t][s], units[t][s], sure[t][s] = 0, -1, -1, 0.0


def _hider(
    layout: VariantLayout, lit: Lit, refs: References, hidden: Bools, limits: Bare
) -> Floats:
    """T x N x 3: the colours of what hides each tile's marker (Lab, as sampled: its N bare
    points that do not look like bare tile; NaN at the others, and at every point where the
    marker shows whole or less than ``HIDING_LEAST`` of its bare points lie under anything)."""
    out: Floats = np.full((len(hidden), len(layout.bare), 3), np.nan, np.float32)
    for t in np.nonzero(hidden)[0]:
        under = limits.foreign(lit.lab[t, layout.bare_at], refs.tile)
        if under.mean() >= HIDING_LEAST:
            out[t, under] = lab(lit.bare_rgb[t][under].astype(np.float32))
    return out


_STATES = (SlotState.UNKNOWN, SlotState.EMPTY, SlotState.TOKEN)
_COLOURS = tuple(Colour)
_UNITS = tuple(UnitType)
_GLYPH_CODES = {unit: _UNITS.index(unit) for unit in GLYPHS.values()}


def _decide_kind(
    m: Measured, glare: Bools, refs: References, hidden: Bools, hider: Floats
) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[list[float]], Bools]:
    """Per slot: state (0 unknown, 1 empty, 2 token), colour and unit indices (-1 none),
    confidence, and whether it is a token only ``PRINTED_ANCHORED_FAR`` reaches; ``hidden``
    marks the tiles whose marker does not show whole, and ``hider`` (T x N x 3) gives the
    colours of what hides it (:func:`_hider`; NaN where nothing does)."""
    # Its own colour blurred into a token's ring does not cover it (``covered_other``),
    # but no blur fills two-fifths of the ring: something the colour of its body lies there.
    covered = ((m.covered_other > COVERED_SHARE) & (m.covered_other_points >= m.covered_least)) | (
        m.covered >= COVERED_ANYWAY
    )
    # The share of the whole surround foreign beyond what the picture's noise puts anywhere.
    surround = m.surround_share - m.noise_rate
    # Neither covered nor under glare, with most of the surround bare tile.
    usable = ~(covered | (surround > SURROUND_COVERED) | glare)
    if not refs.fine and m.kind.kind in ("mineral", "craft"):
        usable[:] = False
    # How clear the ring is, beyond the foreign points the picture's noise puts anywhere, and
    # the whole surround (a hand beside the slot, over the ring's sparse points or not).
    clear = np.minimum(
        1 - np.maximum(m.covered_other - m.noise_rate, 0) / COVERED_SHARE,
        1 - np.maximum(surround, 0) / SURROUND_COVERED,
    )
    own = refs.outline
    if m.kind.kind == "mineral" and refs.mineral_outline > 0:
        own = min(own, refs.mineral_outline)
    outline = max(own, 1e-6)
    kind_share = OUTLINE_SHARE_KIND.get(m.kind.kind, OUTLINE_SHARE)
    hidden_share = max(kind_share, OUTLINE_SHARE_HIDDEN.get(m.kind.kind, 0.0))
    share = np.where(hidden[:, None], hidden_share, kind_share)
    shows = (
        refs.fine
        & (refs.outline >= OUTLINE_LEAST)
        & (m.contrast >= share * own)
        & (m.contrast_least >= OUTLINE_ROUND * own)
        & (m.contrast >= OUTLINE_SHOWS)
    )
    # An empty slot may read with its surround covered where its outline shows whole, away
    # from glare (``OUTLINE_WHOLE``): what lay over it would hide its outline on that side;
    # so read, it is no surer than ``OUTLINED_SURE``.
    whole = ~glare & (m.contrast_least >= OUTLINE_WHOLE * own)
    empty_clear = np.where(usable, clear, OUTLINED_SURE)
    state = np.zeros(m.covered.shape, np.int64)
    colour = np.full(m.covered.shape, -1, np.int64)
    unit = np.full(m.covered.shape, -1, np.int64)
    sure = np.zeros(m.covered.shape, np.float64)
    far = np.zeros(m.covered.shape, bool)
    if m.kind.kind == "mineral":
        span = float(refs.swatches["mineral"][0] - refs.tile[0]) / refs.light_span
        where = m.lightness / max(span, 0.1)
        grey = refs.swatches["mineral"]
        hue = _off_mix(m.colour[..., 1:], grey[1:], refs.tile[1:])
        token = (
            usable
            & (where >= MINERAL_PRESENT)
            & (m.spread <= MINERAL_UNEVEN)
            & (hue <= MINERAL_HUE)
            & (m.colour[..., 1] - grey[1] <= GREY_REDDER * where)
        )
        if refs.coarse:
            token &= m.over_inside <= MINERAL_UNDER_LINE
        white = refs.swatches["white"]
        off_line = np.minimum(
            _off_mix(m.colour[..., 1:], white[1:], refs.tile[1:], past_tile=True),
            _off_mix(m.colour[..., 1:], grey[1:], refs.tile[1:], past_tile=True),
        )
        empty = (
            (usable | whole) & (where <= MINERAL_EMPTY) & shows & (off_line <= MINERAL_EMPTY_HUE)
        )
        empty &= m.spread <= np.maximum(MINERAL_EMPTY_UNEVEN, MINERAL_EMPTY_OUTLINE * m.contrast)
        state[token] = 2
        state[empty] = 1
        sure = np.where(token, np.minimum(clear, 0.5 + where - MINERAL_PRESENT), sure)
        sure = np.where(
            empty,
            np.minimum.reduce(
                [
                    empty_clear,
                    m.contrast / outline,
                    1 - where / (2 * MINERAL_EMPTY),
                ]
            ),
            sure,
        )
        # With its surround clear enough to use, its ring vouches for an empty mineral slot
        # (its token may leave its outline showing): on a tile whose marker does not show
        # whole (something lies over it), one its ring leaves no confidence at all is
        # unknown. A ring foreign in a share past the picture's noise, on too few points to
        # call the slot covered, leaves ``clear`` at nought (issue 18's ``lamps`` 53
        # picture 26, 0.94 px/mm, with the map: S10 placed by its cell under a dark sleeve,
        # its mineral1 token read empty at 0.05). One read by its whole outline, its ring
        # covered, is read at most ``OUTLINED_SURE``.
        state[empty & hidden[:, None] & (sure <= 0)] = 0
    else:
        ringed = EMPTY_HUE_RINGED.get(m.kind.kind, 1.0)
        # ...further still when its body is plainly bare tile, far from every token's colour.
        bare = (m.nearest == TILE) & (m.d2 >= BARE_BODY_FAR)
        hue_limit = m.limits.empty_hue * np.where(bare & (ringed > 1.0), EMPTY_HUE_BARE, ringed)
        looks = looks_empty(m.hue, m.lightness, hue_limit=hue_limit)
        gap = m.d2 - m.d1
        reach = np.where(gap >= FAR_CLEAR_MARGIN, FAR_CLEAR, FAR)
        # Nothing in the zone looks like a token's colour: a blurred token dropped off-centre
        # can leave the inside near bare tile in hue, never its body. A body between two
        # token colours (a blurred purple craft near purple and blue) is still no bare tile,
        # nor is one nearer a token's colour than bare tile by however little (issue 18's
        # `lamps` 53 picture 26, 0.94 px/mm: a purple battleship on a dark tile, 21.8 from
        # purple and less than 10 nearer it than bare tile, its hue 16.0 from the tile's,
        # read empty; on the 25 sets read alone: that reading unknown, and 94 right ones
        # lost, 38 of them from 1 px/mm).
        coloured = (m.nearest != TILE) & (m.d1 <= reach)
        # ...or, with its outline showing whole, whatever lies beside it.
        empty = (usable | whole) & looks & shows & ~coloured
        if m.glyph is not None:
            # A unit slot's centre or middle ring darker than any shadow leaves bare tile
            # (the samples are lit slot by slot, as the surround's are) is a glyph's ink: a
            # dark token's body and its black glyph can average to near bare tile's
            # lightness and hue, bare tile shows no ink (drawn apart, seed 36 picture 1 and
            # seed 37 picture 25: purple battleships on dark tiles read empty at 0.54 and
            # 0.64, their glyph's centre 25.5 and 19.3 darker than bare tile; the empty
            # slots read empty on five of the nine sets and three seeds, at most 12.8).
            above = m.colour[..., 0] - refs.tile[0]
            empty &= np.maximum(*m.glyph) - above <= m.limits.darker
        if refs.printed:
            bare_far = m.d2 >= PRINTED_BARE
            if m.kind.kind == "craft":
                bare_far |= (m.d2 >= PRINTED_CRAFT_BARE) & (gap >= PRINTED_CRAFT_MARGIN)
            empty &= (m.nearest == TILE) & bare_far
        toward = np.maximum(m.hue / hue_limit, m.lightness / EMPTY_LIGHT)
        state[empty] = 1
        sure = np.where(
            empty,
            np.minimum.reduce([empty_clear, 1 - toward / 2, m.contrast / outline]),
            sure,
        )
        white = refs.swatches["white"]
        plain = (
            (m.d1 <= PLAIN_FAR)
            & (gap >= PLAIN_MARGIN)
            & ~looks_empty(m.hue, m.lightness, PLAIN_INSIDE)
        )
        smeared = (
            (m.spread_across <= UNEVEN)
            & (m.spread <= SMEARED_MOST)
            & (_off_mix(m.colour, refs.table()[m.nearest], refs.tile) <= SMEARED_OFF)
            & (m.d1 <= (SMEARED_FAR_COARSE if refs.coarse else FAR))
        )
        token_reach = (
            np.where(gap >= PRINTED_FAR_CLEAR_MARGIN, PRINTED_FAR_CLEAR, PRINTED_FAR)
            if refs.printed
            else reach
        )
        # ...or, against printed colours, further where the picture's own tokens of that
        # colour lie near it (``PRINTED_ANCHORED_FAR``: :func:`decide` keeps such a token).
        anchored_reach = np.maximum(token_reach, PRINTED_ANCHORED_FAR) if refs.printed else reach
        token = (
            usable
            & ~looks_empty(m.hue, m.lightness, TOKEN_STEP)
            & refs.colours
            & (m.nearest != TILE)
            & ((m.nearest != WHITE) | (m.colour[..., 1] - white[1] <= WHITE_REDDER))
            & (m.d1 <= anchored_reach)
            & (gap >= MARGIN)
            & ~_near_unsure(m, refs)
            & (np.abs(m.colour[..., 0] - refs.table()[m.nearest][..., 0]) <= LIGHTNESS_FAR)
            & ((m.spread <= UNEVEN) | ((m.spread <= UNEVEN_PLAIN) & plain) | smeared)
        )
        # Far off its swatch, and toward another token's colour: part of it is something else.
        token &= ~_between_tokens(m, refs, token & (m.d1 > FAR))
        token_sure = np.minimum.reduce([clear, (gap - MARGIN) / MARGIN + 0.5, 1 - m.d1 / (2 * FAR)])
        if m.glyph is not None:
            kinds, glyph_sure = _glyphs(*m.glyph, coarse=not refs.fine)
            token &= kinds >= 0
            token_sure = np.minimum(token_sure, glyph_sure)
            unit = np.where(token, kinds, -1)
        state[token] = 2
        far = token & (m.d1 > token_reach)
        colour = np.where(token, m.nearest, -1)
        sure = np.where(token, token_sure, sure)
    sure = np.where(state > 0, np.clip(sure, 0.05, 1.0), 0.0)
    # What hides a tile's marker may be what its slot reads (HIDDEN_SURROUND).
    doubtful = (
        hidden[:, None]
        & (state == 2)
        & (sure < HIDDEN_SURE)
        & (surround > HIDDEN_SURROUND)
        & (m.kind.kind in HIDDEN_SURROUND_KINDS)
    )
    # ...and a token's colour as near HIDING_LIKE of what hides the marker as its swatch.
    under = ~np.isnan(hider[:, :, 0])  # T x N: the points something lies over
    rows = np.nonzero((state == 2).any(axis=1) & under.any(axis=1))[0]
    if m.kind.kind != "mineral" and len(rows):
        with np.errstate(invalid="ignore"):
            near = np.linalg.norm(hider[rows][:, None] - m.colour[rows][:, :, None], axis=3)
        count = under[rows].sum(axis=1)[:, None]
        like = (near < m.d1[rows][..., None]).sum(axis=2) >= HIDING_LIKE * count
        doubtful[rows] |= (state[rows] == 2) & like
    # ...and a token whose colour runs on past where any token in its slot ends: a finger
    # ending there (or over what is there).
    doubtful |= (state == 2) & (m.guard_like >= GUARD_SHARE) & (m.guard_count >= GUARD_LEAST)
    # ...or past the tile's cut beside the slot and just inside it, and not elsewhere round
    # the tile: an arm or a finger come in over the edge (BEYOND_SHARE).
    doubtful |= (
        (state == 2)
        & (m.beyond_like >= BEYOND_SHARE)
        & (m.beyond_count >= GUARD_LEAST)
        & (m.band_like >= BEYOND_SHARE)
        & (m.elsewhere_like <= BEYOND_ELSEWHERE)
    )
    state[doubtful] = 0
    colour[doubtful] = -1
    unit[doubtful] = -1
    sure[doubtful] = 0.0
    return (
        cast(list[list[int]], state.tolist()),
        cast(list[list[int]], colour.tolist()),
        cast(list[list[int]], unit.tolist()),
        cast(list[list[float]], sure.tolist()),
        far,
    )


def _between_tokens(m: Measured, refs: References, rows: Bools) -> Bools:
    """Of ``rows`` (T x S), the bodies that lie on a mix of their nearest swatch and another
    token's (within :data:`BETWEEN_OFF`, :data:`BETWEEN_SHARE` or more of the way from the
    nearest): part of the slot shows another colour than the rest."""
    out = np.zeros(m.d1.shape, bool)
    tiles, slots = np.nonzero(rows)
    if not len(tiles):
        return out
    table = refs.table()
    body = m.colour[tiles, slots]
    start = table[m.nearest[tiles, slots]]
    for other in range(len(COLOURS)):
        share = _mix_share(body, start, table[other])
        off = _off_mix(body, start, table[other])
        out[tiles, slots] |= (
            (m.nearest[tiles, slots] != other) & (share >= BETWEEN_SHARE) & (off <= BETWEEN_OFF)
        )
    return out


def _near_unsure(m: Measured, refs: References) -> Bools:
    """Whether a body's nearest or next nearest swatch is one the card shows unsurely
    (:attr:`References.unsure`): its distance to that swatch says nothing of the token."""
    out = np.zeros(m.d1.shape, bool)
    for name in refs.unsure:
        out |= np.linalg.norm(m.colour - refs.swatches[name], axis=-1) <= m.d2 + 1e-3
    return out


def _off_mix(ab: Floats, start: Floats, tile: Floats, *, past_tile: bool = False) -> Floats:
    """How far each of ``ab`` (... x 2: a*, b*; or ... x 3, Lab) lies from every mix of
    ``start``'s colour (one, or one for each) and bare tile's (and, ``past_tile``, on along
    that line beyond the tile: a deeper print). JPEG keeps colour at half the resolution of
    light, so a mineral token on a tile takes some of the tile's hue (never its lightness),
    an empty slot mixes the tile's hue with its light outline's, and a token's edge smears
    into the tile around it."""
    t = np.maximum(_mix_share(ab, start, tile), 0.0)
    if not past_tile:
        t = np.minimum(t, 1.0)
    out: Floats = np.linalg.norm(ab - start - t[..., None] * (tile - start), axis=-1).astype(
        np.float32
    )
    return out


def _mix_share(ab: Floats, start: Floats, tile: Floats) -> Floats:
    """Where each of ``ab`` lies along the line from ``start``'s colour to bare tile's: 0 at
    ``start``, 1 at bare tile (below 0 beyond ``start``, above 1 beyond the tile)."""
    along = tile - start
    out: Floats = ((ab - start) * along).sum(axis=-1) / np.maximum(
        (along * along).sum(axis=-1), 1e-9
    )
    return out


def _glyphs(
    centre: Floats, middle: Floats, *, coarse: bool = False
) -> tuple[npt.NDArray[np.int64], Floats]:
    """The unit type (index into UnitType, -1 unknown) each glyph shows from how much darker
    than the token its centre disc and middle ring are (L*), and how surely. In a
    ``coarse`` picture a disc needs both at least ``GLYPH_DISC_COARSE`` as dark."""
    dark = np.maximum(np.maximum(centre, middle), 1e-6)
    c, m = centre / dark, middle / dark
    ink = np.where(dark >= GLYPH_INKED, GLYPH_DARK_INKED, GLYPH_DARK)
    between = ((c > GLYPH_LIGHT) & (c < ink)) | ((m > GLYPH_LIGHT) & (m < ink))
    out = np.full(centre.shape, -1, np.int64)
    for (centre_dark, middle_dark), unit in GLYPHS.items():
        match = ((c >= ink) == centre_dark) & ((m >= ink) == middle_dark)
        out[match] = _GLYPH_CODES[unit]
    if coarse:
        disc = out == _GLYPH_CODES[UnitType.BATTLESHIP]
        between |= disc & (np.minimum(c, m) < GLYPH_DISC_COARSE)
    out[between | (dark < (GLYPH_LEAST_COARSE if coarse else GLYPH_LEAST))] = -1
    slack = np.minimum.reduce(
        [np.abs(c - ink), np.abs(c - GLYPH_LIGHT), np.abs(m - ink), np.abs(m - GLYPH_LIGHT)]
    )
    sure = np.minimum.reduce([np.ones_like(c), 0.5 + 2 * slack, dark / (2 * GLYPH_LEAST)])
    return out, sure.astype(np.float32)
