"""The board scan as the rules see it: a galaxy for setup, discrepancies against the state."""

from __future__ import annotations

from companion.local_cluster.atoms import Colour, UnitType
from companion.local_cluster.board_scan import (
    BoardScan,
    SlotReading,
    SlotState,
    TileReading,
    compare,
    discrepancies,
    galaxy_from_scan,
)
from companion.local_cluster.generation import random_setup

EMPTY = SlotState.EMPTY
TOKEN = SlotState.TOKEN


def tile(sector: str, column: int, row: int, *slots: SlotReading, rotation: int = 0) -> TileReading:
    return TileReading(
        sector, 0, column, row, rotation, (column * 130.0, row * 130.0), 90.0 * rotation, 1.0, slots
    )


def minerals(count: int) -> tuple[SlotReading, ...]:
    return tuple(
        SlotReading(f"mineral{i}", TOKEN if i <= count else EMPTY, confidence=1)
        for i in range(1, 5)
    )


def test_galaxy_from_scan_takes_tiles_adjacency_minerals_and_homes() -> None:
    red_home = (
        SlotReading("claim", TOKEN, Colour.RED, confidence=1),
        SlotReading("unit", TOKEN, Colour.RED, UnitType.DESTROYER, 1),
        *minerals(2),
    )
    scan = BoardScan(
        (
            tile("S1", 3, 3, *red_home),
            tile("S2", 4, 3, *minerals(4)),
            tile("S3", 4, 4, *minerals(0)),
        ),
        (("S1", "S2"), ("S2", "S3")),
    )
    found = galaxy_from_scan(scan)
    assert found.galaxy.edges == (("S1", "S2"), ("S2", "S3"))
    assert found.galaxy.minerals("S2") == 4
    assert found.galaxy.by_id["S1"].tile is not None and found.galaxy.by_id["S1"].tile.cell == (
        0,
        0,
    )
    assert found.homes == {Colour.RED: "S1"}
    assert found.unread == ("S3 minerals",)


def test_a_scan_round_trips_through_json_data() -> None:
    scan = BoardScan((tile("S1", 0, 0, *minerals(1)),), (), ("a note",))
    assert BoardScan.from_dict(scan.to_dict()) == scan


def _scan_of(state, turned: dict[str, int] | None = None, **changes: SlotReading) -> BoardScan:
    """A perfect scan of ``state`` (each tile turned as its galaxy lays it, plus ``turned``
    quarter turns), with some slots changed: ``S3=SlotReading(...)``."""
    turned = turned or {}
    claims = dict(state.claims)
    units = {u.sector: u for u in state.units}
    tiles = []
    for sector in state.galaxy.sectors:
        assert sector.tile is not None
        slots = [
            SlotReading("claim", TOKEN, claims[sector.id], confidence=1)
            if sector.id in claims
            else SlotReading("claim", EMPTY, confidence=1)
        ]
        unit = units.get(sector.id)
        slots.append(
            SlotReading("unit", TOKEN, unit.owner, unit.kind, 1)
            if unit
            else SlotReading("unit", EMPTY, confidence=1)
        )
        slots += minerals(sector.minerals)
        if sector.id in changes:
            slots = [changes[sector.id] if s.slot == changes[sector.id].slot else s for s in slots]
        laid = sector.tile
        turn = (laid.rotation + turned.get(sector.id, 0)) % 4
        tiles.append(tile(sector.id, laid.column, laid.row, *slots, rotation=turn))
    return BoardScan(tuple(tiles), state.galaxy.edges)


def test_a_perfect_scan_has_no_discrepancies() -> None:
    state = random_setup(4, 4)
    assert discrepancies(_scan_of(state), state) == []


def test_a_wrong_unit_is_named_in_a_players_words() -> None:
    state = random_setup(4, 4)
    unit = state.units[0]
    wrong = SlotReading("unit", TOKEN, unit.owner, UnitType.BATTLESHIP, 0.9)
    found = discrepancies(_scan_of(state, **{unit.sector: wrong}), state)
    assert [d.text for d in found] == [
        f"{unit.sector}: expected {unit.owner.value} destroyer, saw {unit.owner.value} battleship"
    ]
    assert found[0].sector == unit.sector


def test_an_unknown_slot_is_unread_not_a_discrepancy() -> None:
    state = random_setup(4, 4)
    unit = state.units[0]
    report = compare(
        _scan_of(state, **{unit.sector: SlotReading("unit", SlotState.UNKNOWN)}), state
    )
    assert report.discrepancies == ()
    assert report.unread == (f"{unit.sector} unit",)


def test_a_tile_not_seen_is_missing() -> None:
    state = random_setup(4, 4)
    scan = _scan_of(state)
    gone = scan.tiles[0].sector
    partial = BoardScan(scan.tiles[1:], tuple(e for e in scan.adjacency if gone not in e))
    report = compare(partial, state)
    assert report.missing == (gone,)
    assert report.discrepancies == ()


def test_r2_1_a_tile_seen_turned_otherwise_than_the_screen_draws_is_named() -> None:
    """The table screen draws each tile's top (its quarter turn, R2.1). The camera may look
    from any side, so the turns are compared with the one most tiles share: a tile a
    quarter turn off it is named, with the way it lies."""
    state = random_setup(4, 4)
    ids = [s.id for s in state.galaxy.sectors]
    assert discrepancies(_scan_of(state), state) == []
    from_the_side = {sid: 1 for sid in ids}  # the camera a quarter turn round the table
    assert discrepancies(_scan_of(state, turned=from_the_side), state) == []
    slipped = {**from_the_side, ids[2]: 2, ids[5]: 0}
    found = discrepancies(_scan_of(state, turned=slipped), state)
    assert {d.sector: d.text for d in found} == {
        ids[2]: f"{ids[2]}: the tile lies a quarter turn clockwise from the way the table "
        "screen draws it (its top goes to the light bar)",
        ids[5]: f"{ids[5]}: the tile lies a quarter turn anticlockwise from the way the table "
        "screen draws it (its top goes to the light bar)",
    }


def test_r2_1_no_tile_is_named_turned_where_no_turn_is_shared_by_most() -> None:
    """Two tiles seen, or tiles turned every way: no turn to hold the others to."""
    state = random_setup(4, 4)
    scan = _scan_of(state, turned={s.id: i % 4 for i, s in enumerate(state.galaxy.sectors)})
    assert discrepancies(scan, state) == []
    two = BoardScan(_scan_of(state, turned={state.galaxy.sectors[0].id: 1}).tiles[:2], ())
    assert [d for d in discrepancies(two, state) if "turn" in d.text] == []
