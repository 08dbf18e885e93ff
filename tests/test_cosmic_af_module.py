"""The Overby Standard Army/Fleet module's own worked examples (ruling C4.4), on the standard map.

Sections F and G of ``seeds/cosmic-cluster-rules.txt``. Section F's orders are written as the
text has them (the map knows its old abbreviations TYH, MID, NAT); section G's in the DATC map's
ids (tys, mao, nao, lvp, stp). Each test states the outcome the text gives. Where the text
leaves the position open ("assumes opposing A Gre H", "if vacant") the test sets it up.
"""

from __future__ import annotations

import pytest

from companion.cosmic.afmodule import (
    AFTurnResult,
    adjudicate_af_retreats,
    adjudicate_af_turn,
    af_retreat_options,
)
from companion.cosmic.afnotation import AFKind, AFOrder
from companion.cosmic.diplomacy.geography import UnitType, standard_map
from companion.cosmic.diplomacy.orders import Order
from companion.cosmic.diplomacy.rules import Unit
from companion.errors import OrderSyntaxError

MAP = standard_map()


def board(*texts: str) -> list[Unit]:
    units = []
    for text in texts:
        power, rest = text.split(": ")
        parts = rest.split()
        if parts[0] == "A/F":
            cargo = parts[2] if len(parts) > 2 else power
            units.append(Unit(power, UnitType.FLEET, parts[1], cargo=cargo))
        else:
            units.append(Unit(power, UnitType(parts[0]), parts[1]))
    return units


def play(units: list[Unit], *orders: str) -> AFTurnResult:
    return adjudicate_af_turn(MAP, units, [AFOrder.parse(o) for o in orders])


def outcome(turn: AFTurnResult, written: str) -> bool:
    wanted = AFOrder.parse(written)
    return next(r.succeeded for r in turn.results if r.order == wanted)


def where(turn: AFTurnResult) -> set[str]:
    return {u.text() for u in turn.units}


# -- Section F ------------------------------------------------------------------------------


def test_f1_board_move_ferry_disembark_and_ts3_moves() -> None:
    """TS1 A Rom B F TYH; TS2 A/F TYH-WES, F ION F/F A Tun-Gre (creates A/F ION); TS3 A WES D
    Spa, F WES-MID, F ION-AEG (assumes opposing A Gre H)."""
    turn = play(
        board("ITA: A rom", "ITA: F tys", "ITA: F ion", "ITA: A tun", "TUR: A gre"),
        "ITA: TS1 A Rom B F TYH",  # the seed's own words, old abbreviations included
        "ITA: TS2 A/F TYH-WES",
        "ITA: TS2 F ION F/F A Tun-Gre",
        "TUR: A Gre H",
        "ITA: TS3 A WES D Spa",
        "ITA: TS3 F WES-MID",
        "ITA: TS3 F ION-AEG",
    )
    assert outcome(turn, "ITA: TS1 A Rom B F TYH")
    assert not outcome(turn, "ITA: TS2 F ION F/F A Tun-Gre")  # Greece holds: the ferry fails...
    assert where(turn) == {"ITA: A spa", "ITA: F mao", "ITA: A/F aeg", "TUR: A gre"}
    # ... so the army stays aboard (A/F ION), which moves to AEG in TS3.


def test_f2_supported_landing_dislodges_and_the_fleet_cannot_order_in_ts2() -> None:
    """TS1 A Spa B F MID, F ION S A ION L Gre (enemy A Gre dislodged); TS2 A/F MID-NAT, A
    Gre-Bul, F ION cannot order; TS3 F ION-AEG."""
    turn = play(
        board("ITA: A spa", "ITA: F mao", "ITA: A/F ion", "TUR: A gre"),
        "ITA: TS1 A Spa B F MID",
        "ITA: TS1 F ION S A ION L Gre",
        "ITA: TS1 A ION L Gre",
        "ITA: TS2 A/F MID-NAT",
        "ITA: TS2 A Gre-Bul",
        "ITA: TS2 F ION H",
        "ITA: TS3 F ION-AEG",
    )
    assert [(x.unit.text(), x.time_scale) for x in turn.dislodged] == [("TUR: A gre", 1)]
    assert not outcome(turn, "ITA: TS2 F ION H")
    assert where(turn) == {"ITA: A/F nao", "ITA: A bul", "ITA: F aeg"}


def test_f2_the_dislodged_army_retreats_in_ts4() -> None:
    """Units dislodged are lifted until the end of TS3, then retreat."""
    turn = play(
        board("ITA: A/F ion", "TUR: A gre"),
        "ITA: F ion S A ion L gre",
        "ITA: A ion L gre",
    )
    (lifted,) = turn.dislodged
    assert "alb" in af_retreat_options(MAP, turn, lifted)
    retreat = adjudicate_af_retreats(MAP, turn, [Order.parse("TUR: A gre -> alb")])
    assert "TUR: A alb" in {u.text() for u in retreat.units}


# -- Section G: international A/Fs ---------------------------------------------------------

FRANCE_1 = ("FRA: German A bel B F eng", "FRA: A/F eng-nth", "FRA: A nth D nwy")
GERMANY_1 = ("GER: A bel B French F eng", "GER: A/F eng-nth", "GER: A nth D den")


def test_g1_the_army_lands_where_its_own_power_says_if_vacant() -> None:
    """If the move to NTH succeeds, the army winds up in Den if vacant, ..."""
    turn = play(board("FRA: F eng", "GER: A bel"), *FRANCE_1, *GERMANY_1)
    assert where(turn) == {"FRA: F nth", "GER: A den"}


def test_g1_else_where_the_fleet_owner_says_if_vacant() -> None:
    """... else Nwy if vacant, ..."""
    turn = play(board("FRA: F eng", "GER: A bel", "RUS: A den"), *FRANCE_1, *GERMANY_1)
    assert "GER: A nwy" in where(turn)


def test_g1_else_the_af_remains() -> None:
    """... else A/F NTH remains."""
    units = board("FRA: F eng", "GER: A bel", "RUS: A den", "RUS: A nwy")
    turn = play(units, *FRANCE_1, *GERMANY_1)
    assert "FRA: A/F nth (GER army)" in where(turn)


FRANCE_2 = ("FRA: German A bel B F eng", "FRA: A/F eng-mao", "FRA: A mao D naf")


def test_g2_the_fleet_goes_where_its_owner_says_and_takes_the_army() -> None:
    """The army boards, but will wind up in North Africa if A/F ENG-MID succeeds, ..."""
    turn = play(board("FRA: F eng", "GER: A bel"), *FRANCE_2, *GERMANY_1)
    assert where(turn) == {"FRA: F mao", "GER: A naf"}
    assert not outcome(turn, "GER: A nth D den")


def test_g2_or_stays_part_of_the_af_if_the_move_failed() -> None:
    """... or as part of A/F ENG if the move failed."""
    units = board("FRA: F eng", "GER: A bel", "ENG: F iri")
    turn = play(units, *FRANCE_2, *GERMANY_1, "ENG: F iri-mao")
    assert "FRA: A/F eng (GER army)" in where(turn)


def test_g3_without_the_armys_boarding_the_af_order_fails() -> None:
    """GERMANY: A Bel-Bur. Now the fleet order fails; the A/F which was ordered does not exist."""
    turn = play(board("FRA: F eng", "GER: A bel"), *FRANCE_1, "GER: A bel-bur")
    assert not outcome(turn, "FRA: A/F eng-nth")
    assert where(turn) == {"FRA: F eng", "GER: A bur"}


GERMANY_4 = ("GER: English A yor B F nth", "GER: A/F nth-nwg", "GER: A nwg D cly")
ENGLAND_4 = "ENG: German F nth F/F A yor-nwy"


def test_g4_the_trusting_army_goes_backwards_if_the_af_move_works() -> None:
    """Poor trusting England goes backwards if the A/F move works, ..."""
    turn = play(board("GER: F nth", "ENG: A yor"), *GERMANY_4, ENGLAND_4)
    assert where(turn) == {"GER: F nwg", "ENG: A cly"}


def test_g4_or_makes_it_to_norway_if_the_af_move_fails() -> None:
    """... or makes it to Nwy if A/F NTH-NWG fails."""
    units = board("GER: F nth", "ENG: A yor", "RUS: F bar")
    turn = play(units, *GERMANY_4, ENGLAND_4, "RUS: F bar-nwg")
    assert "ENG: A nwy" in where(turn)
    assert outcome(turn, ENGLAND_4)


def test_g4_if_norway_is_tenanted_the_af_remains() -> None:
    """If Nwy were tenanted as well A/F NTH remains."""
    units = board("GER: F nth", "ENG: A yor", "RUS: F bar", "RUS: A nwy")
    turn = play(units, *GERMANY_4, ENGLAND_4, "RUS: F bar-nwg")
    assert "GER: A/F nth (ENG army)" in where(turn)


def test_g5_stab_and_counter_stab() -> None:
    """England bounces the A/F out of NWG, stands in TS2 on the F NTH that didn't get to move,
    and disembarks successfully in TS3 (into Norway, left empty by Germany's self-standoff)."""
    units = board("GER: F nth", "ENG: A yor", "GER: A stp", "GER: A swe", "ENG: F edi")
    turn = play(
        units,
        *GERMANY_4,
        "GER: A stp-nwy",
        "GER: A swe-nwy",
        "ENG: A yor B German F nth",
        "ENG: A/F nth H",
        "ENG: A nth D nwy",
        "ENG: F edi-nwg",
    )
    assert not outcome(turn, "GER: A/F nth-nwg")
    assert not outcome(turn, "GER: A stp-nwy") and not outcome(turn, "GER: A swe-nwy")
    assert outcome(turn, "ENG: A nth D nwy")
    assert "ENG: A nwy" in where(turn) and "GER: F nth" in where(turn)


# -- Notation and the module's own restrictions -----------------------------------------------


def test_af_orders_read_the_seed_notation() -> None:
    order = AFOrder.parse("TS1 A Rom B F TYH", "ITA")
    assert (order.kind, order.army, order.fleet, order.time_scale) == (
        AFKind.BOARD,
        "rom",
        "tyh",
        1,
    )
    assert AFOrder.parse(order.text()) == order


def test_af_order_in_the_wrong_time_scale_is_a_syntax_error() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        AFOrder.parse("ITA: TS2 A rom B F tys")
    assert "TS1" in caught.value.expected


def test_convoys_do_not_exist_with_the_module_but_a_fast_ferry_does() -> None:
    units = board("ENG: A lon", "ENG: F nth", "FRA: F eng")
    turn = play(units, "ENG: F nth C A lon -> bel", "ENG: A lon -> bel")
    assert not outcome(turn, "ENG: F nth C A lon -> bel")
    turn = play(board("ENG: A lon", "ENG: F nth"), "ENG: F nth F/F A lon-bel")
    assert "ENG: A bel" in where(turn)


def test_an_af_embarked_in_ts3_may_not_move_in_ts3() -> None:
    units = board("ENG: A lon", "ENG: F nth")
    turn = play(units, "ENG: TS3 A lon E F nth", "ENG: TS3 A/F nth-nwg")
    assert outcome(turn, "ENG: TS3 A lon E F nth")
    assert not outcome(turn, "ENG: TS3 A/F nth-nwg")
    assert where(turn) == {"ENG: A/F nth"}


def test_a_foreign_fleet_takes_no_army_without_its_owners_order() -> None:
    turn = play(board("ENG: A lon", "FRA: F eng"), "ENG: A lon B French F eng")
    assert not outcome(turn, "ENG: A lon B French F eng")


def test_two_fleets_of_one_power_in_a_box_each_take_one_order() -> None:
    from companion.cosmic.cluster import generate_cluster

    cluster = generate_cluster(3, 2)
    home = cluster.home_of("P1")
    assert home.orbit is not None
    units = [Unit("P1", UnitType.FLEET, home.box), Unit("P1", UnitType.FLEET, home.box)]
    turn = adjudicate_af_turn(
        cluster.map,
        units,
        [AFOrder.parse(f"P1: F {home.box} -> {home.orbit}"), AFOrder.parse(f"P1: F {home.box} H")],
    )
    assert sorted(u.region for u in turn.units) == sorted([home.box, home.orbit])


def test_a_unit_ordered_twice_in_ts3_moves_once() -> None:
    units = board("ENG: F nth")
    turn = play(units, "ENG: TS3 F nth -> nwg", "ENG: TS3 F nth -> hel")
    assert where(turn) == {"ENG: F nwg"}
