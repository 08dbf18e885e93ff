"""The position as plain text for a terminal: the tile grid with claims, units and minerals.

Each tile is two lines: ``S12  3`` (its id and mineral value) over ``Rd BlB+2`` (the claim's
colour, then the unit: Blue battleship, with 2 strike craft in the sector). Galaxies without
tile positions are listed sector by sector instead.
"""

from __future__ import annotations

from companion.local_cluster.atoms import Colour, SectorId, UnitType
from companion.local_cluster.state import State

ABBREVIATION = {
    Colour.RED: "Rd",
    Colour.GREEN: "Gr",
    Colour.BLUE: "Bl",
    Colour.YELLOW: "Ye",
    Colour.AQUA: "Aq",
    Colour.PURPLE: "Pu",
    Colour.PINK: "Pk",
    Colour.WHITE: "Wh",
}
UNIT_LETTER = {UnitType.DESTROYER: "D", UnitType.BATTLESHIP: "B", UnitType.CARRIER: "C"}
CELL = 10


def _contents(state: State, sector: SectorId) -> str:
    claim = state.claim_map.get(sector)
    text = ABBREVIATION[claim] if claim is not None else ".."
    unit = state.unit_at.get(sector)
    if unit is not None:
        text += " " + ABBREVIATION[unit.owner] + UNIT_LETTER[unit.kind]
        if unit.kind is UnitType.CARRIER:
            text += str(unit.docked)
    craft = [c for c in state.craft if c.sector == sector]
    if craft:
        text += f"+{len(craft)}"
    return text


def legend() -> str:
    colours = " ".join(f"{a}={c.title}" for c, a in ABBREVIATION.items())
    return (
        f"Key: {colours}\n"
        "     tile: [id minerals], then claim, unit (D destroyer, B battleship,\n"
        "     C carrier + docked craft), +N strike craft in the sector"
    )


def render(state: State) -> str:
    """The map as text, one grid cell per tile, or a sector list without tile positions."""
    galaxy = state.galaxy
    tiles = {s.tile.cell: s for s in galaxy.sectors if s.tile is not None}
    if len(tiles) != len(galaxy.sectors):
        lines = []
        for sector in galaxy.sectors:
            near = ", ".join(sorted(galaxy.neighbours[sector.id], key=galaxy.order.__getitem__))
            contents = _contents(state, sector.id)
            lines.append(f"{sector.id:>5} m{sector.minerals} {contents:<12} next to {near}")
        return "\n".join(lines)
    columns = [c for c, _ in tiles]
    rows = [r for _, r in tiles]
    out = []
    for row in range(min(rows), max(rows) + 1):
        top, bottom = [], []
        for column in range(min(columns), max(columns) + 1):
            tile = tiles.get((column, row))
            if tile is None:
                top.append(" " * CELL)
                bottom.append(" " * CELL)
            else:
                top.append(f"[{tile.id:<5}{tile.minerals}]".ljust(CELL))
                bottom.append(f" {_contents(state, tile.id)}".ljust(CELL)[:CELL])
        out.append("".join(top).rstrip())
        out.append("".join(bottom).rstrip())
    return "\n".join(out)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def scoreboard(state: State) -> str:
    """One line per empire: sectors, mineral value, units (each under 80 columns)."""
    lines = []
    for empire in state.empires:
        sectors = state.sectors_of(empire.colour)
        value = sum(map(state.galaxy.minerals, sectors))
        units = state.units_of(empire.colour)
        counts = ", ".join(
            _count(n, kind.value)
            for kind in UnitType
            if (n := sum(1 for u in units if u.kind is kind))
        )
        status = "eliminated" if empire.eliminated else counts or "no units"
        lines.append(
            f"  {empire.colour.title:<7}{_count(len(sectors), 'sector'):>11}, "
            f"{value:>3} minerals; {status}"
        )
    return "\n".join(lines)
