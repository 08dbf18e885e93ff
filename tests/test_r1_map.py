"""R1 Map: sectors, their ids and minerals, and the adjacency between them."""

from __future__ import annotations

import pytest

from companion.local_cluster import Galaxy, GalaxyError, Sector, Tile


def test_r1_1_tiles_sharing_an_edge_are_adjacent():
    """R1.1: two sectors are adjacent when their tiles share an edge segment."""
    galaxy = Galaxy.from_tiles(
        {"S1": Tile(0, 0), "S2": Tile(1, 0), "S3": Tile(1, 1)},
        {"S1": 1, "S2": 1, "S3": 1},
    )
    assert galaxy.adjacent("S1", "S2")
    assert galaxy.adjacent("S2", "S3")


def test_r1_1_touching_corners_are_not_adjacent():
    """R1.1: touching corners are not adjacency."""
    galaxy = Galaxy.from_tiles(
        {"S1": Tile(0, 0), "S2": Tile(1, 0), "S3": Tile(1, 1)},
        {"S1": 1, "S2": 1, "S3": 1},
    )
    assert not galaxy.adjacent("S1", "S3")
    assert galaxy.neighbours["S1"] == {"S2"}


def test_r1_1_tiles_meeting_only_at_a_corner_do_not_make_a_galaxy():
    """R1.1: touching corners are not adjacency (so two such tiles are not connected)."""
    with pytest.raises(GalaxyError, match="not connected"):
        Galaxy.from_tiles({"S1": Tile(0, 0), "S2": Tile(1, 1)}, {"S1": 1, "S2": 1})


def test_r1_1_adjacency_is_undirected():
    """R1.1: an undirected adjacency relation."""
    galaxy = Galaxy.from_sectors([Sector("S1", 1), Sector("S2", 1)], [("S2", "S1")])
    assert galaxy.adjacent("S1", "S2") and galaxy.adjacent("S2", "S1")
    assert galaxy.edges == (("S1", "S2"),)


def test_r1_2_ids_are_unique_ignoring_case():
    """R1.2: ids are unique ignoring case."""
    with pytest.raises(GalaxyError, match="used twice"):
        Galaxy.from_sectors([Sector("S1", 1), Sector("s1", 1)], [("S1", "s1")])


def test_r1_2_ids_are_found_in_any_case():
    """R1.2: every sector has a stable short id ... unique ignoring case."""
    galaxy = Galaxy.from_sectors([Sector("S1", 1), Sector("S12", 1)], [("s1", "s12")])
    assert galaxy.resolve("s12") == "S12"
    assert galaxy.adjacent("S1", "S12")
    assert galaxy.resolve("S7") is None


def test_r1_2_sectors_are_kept_in_natural_number_order():
    """R1.2: ids shown as S1..S48 (S2 comes before S10 wherever order matters)."""
    galaxy = Galaxy.from_sectors(
        [Sector("S10", 1), Sector("S2", 1), Sector("S1", 1)], [("S1", "S2"), ("S2", "S10")]
    )
    assert galaxy.ids == ("S1", "S2", "S10")


@pytest.mark.parametrize("value", [0, 5, -1])
def test_r1_2_mineral_value_is_1_to_4(value):
    """R1.2: a mineral value 1..4."""
    with pytest.raises(GalaxyError, match="must be 1 to 4"):
        Galaxy.from_sectors([Sector("S1", value), Sector("S2", 1)], [("S1", "S2")])


@pytest.mark.parametrize("value", [1, 2, 3, 4])
def test_r1_2_every_mineral_value_1_to_4_is_accepted(value):
    """R1.2: a mineral value 1..4."""
    galaxy = Galaxy.from_sectors([Sector("S1", value)], [])
    assert galaxy.minerals("S1") == value


def test_r1_3_any_connected_graph_is_accepted():
    """R1.3: the engine accepts any connected adjacency graph, not only ones a generator made.

    Five sectors all adjacent to each other cannot be laid with square tiles; they still play.
    """
    ids = ["S1", "S2", "S3", "S4", "S5"]
    edges = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    galaxy = Galaxy.from_sectors([Sector(s, 2) for s in ids], edges)
    assert all(len(galaxy.neighbours[s]) == 4 for s in ids)


def test_r1_3_table_names_are_accepted():
    """R1.2/R1.3: ids are S1..S48 unless the table names them; entered data is accepted."""
    galaxy = Galaxy.from_sectors([Sector("Home", 2), Sector("Rim-1", 3)], [("home", "rim-1")])
    assert galaxy.adjacent("Home", "Rim-1")


def test_r1_3_a_disconnected_graph_is_refused_with_the_unreached_sectors():
    """R1.3: any *connected* adjacency graph."""
    sectors = [Sector("S1", 1), Sector("S2", 1), Sector("S3", 1)]
    with pytest.raises(GalaxyError, match="S3 cannot be reached from S1"):
        Galaxy.from_sectors(sectors, [("S1", "S2")])


def test_r1_3_an_edge_to_an_unknown_sector_is_refused():
    """R1.3: the galaxy is a set of sectors and an adjacency relation between them."""
    with pytest.raises(GalaxyError, match=r"S2-S9 names sector .*not in the galaxy"):
        Galaxy.from_sectors([Sector("S1", 1), Sector("S2", 1)], [("S1", "S2"), ("S2", "S9")])


def test_r1_3_galaxy_round_trips_through_data():
    """R1.3: a galaxy may come from entered or stored data; it reads back identical."""
    galaxy = Galaxy.from_tiles({"S1": Tile(0, 0, 1, 2), "S2": Tile(0, 1, 3)}, {"S1": 2, "S2": 4})
    assert Galaxy.from_dict(galaxy.to_dict()) == galaxy
