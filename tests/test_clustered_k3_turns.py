"""K3 Setup and turns: seats, the first player, hands, a turn, "no legal move" declarations.

K3.16's table, Blue to play::

     y\\x      -1          0          1
       1       .      O-ci-da-1       .
       0   O-tr-ho-3    start     B-sq-so-2
      -1       .      B-ci-da-1       .
"""

from __future__ import annotations

import pytest
from clustered_helpers import K316_ORDER, card, game, played

from companion.clustered import Cell, DeclarationError, Discard, Placement
from companion.clustered.moves import Declaration
from companion.clustered.simulate import simulate
from companion.errors import StateError

K316_HAND = "B-tr-da-2 B-sq-da-3 B-ci-so-3 B-ci-ho-2 B-tr-so-1"


def k316(**rules: object):  # type: ignore[no-untyped-def]
    return played(K316_ORDER, **rules)


def test_k3_1_five_to_eight_players_have_two_start_cards_by_default() -> None:
    """K3.1: each a colour nobody else has; with 5 to 8 players, two start cards."""
    assert len(game("BORG").layout.starts) == 1
    assert len(game("BORGY").layout.starts) == 2
    assert len(game("BORGYPTM").layout.starts) == 2


def test_k3_2_play_passes_clockwise_to_the_next_seat() -> None:
    """K3.2: seats in clockwise order; play passes to the next seat in that order."""
    g = game("BOR", first=2)
    order = []
    for text in ("O-wild 1,0", "R-wild 2,0", "B-wild 3,0", "O-wild 4,0"):
        order.append(g.current_seat())
        g.play(text)
    assert order == [2, 3, 1, 2]


def test_k3_3_the_table_names_the_first_player() -> None:
    """K3.3: the companion does not know ages; at setup the table names the first player."""
    assert game("BO", first=2).current_seat() == 2
    with pytest.raises(StateError, match="seats 1 to 2, not 3"):
        game("BO", first=3)


def test_k3_4_each_player_draws_five_cards() -> None:
    """K3.4: 5 cards; the companion never needs to see a deck or a hand."""
    g = game("BO")
    assert [g.hand_size(s) for s in g.seats] == [5, 5]
    assert [g.deck_left(s) for s in g.seats] == [24, 24]


def test_k3_5_a_turn_is_a_placement_then_a_draw() -> None:
    """K3.5: place one card in a legal cell, then draw one if the deck has any."""
    g = played(["B-sq-so-2 1,0"])
    assert (g.taken(1), g.hand_size(1), g.deck_left(1)) == (1, 5, 23)
    assert g.current_seat() == 2


def test_k3_5_a_forced_discard_is_a_turn() -> None:
    """K3.5: only when no card in the hand has a legal cell, discard one face down; a forced
    discard is a turn."""
    g = played(["B-wild 1,0"], surface="0..1,0..0", end_when_blocked=False)
    result = g.play("discard O-sq-so-1 hand O-sq-so-1 O-sq-so-2 O-sq-so-3 O-tr-so-1 O-wild")
    assert result.move == Discard(card("O-sq-so-1"))
    assert (g.taken(2), g.current_seat()) == (1, 1)


def test_k3_6_legal_cells_of_a_card() -> None:
    """K3.6: a legal cell meets K4.4 to K4.7; a player has a legal move when a card in the
    hand has one."""
    g = k316()
    assert g.legal_cells(card("B-sq-so-1")) == [Cell(2, 0)]
    assert g.legal_cells(card("B-tr-da-2")) == []


def test_k3_7_on_an_unbounded_surface_a_wild_card_always_has_a_legal_cell() -> None:
    """K3.7: so there a player who holds a wild card never discards."""
    g = simulate(2, seed=5, turns=40)
    assert g.legal_cells(card("B-wild"))
    with pytest.raises(DeclarationError) as caught:
        k316().play("discard B-tr-da-2 hand B-tr-da-2 B-sq-da-3 B-ci-so-3 B-ci-ho-2 B-wild")
    assert caught.value.code == "hand-has-move"


def test_k3_8_the_companion_counts_cards_left_and_hand_sizes() -> None:
    """K3.8: deck size and turns taken give cards left and hand size."""
    g = simulate(2, seed=1, turns=50)
    assert [g.taken(s) for s in g.seats] == [25, 25]
    assert [g.hand_size(s) for s in g.seats] == [4, 4]
    assert [g.deck_left(s) for s in g.seats] == [0, 0]
    assert [g.turns_left(s) for s in g.seats] == [4, 4]


def test_k3_9_an_accepted_placement_passes_the_turn() -> None:
    """K3.9: exactly one new card in an empty cell, legal: the turn passes."""
    g = game("BO")
    result = g.place(Placement.parse("B-sq-so-2 1,0"))
    assert result.seat == 1 and g.current_seat() == 2
    assert g.placements() == [(Cell(1, 0), card("B-sq-so-2"))]


def test_k3_12_the_host_undoes_the_last_accepted_placement() -> None:
    """K3.12: an accepted placement is final; the host may undo the last one (the turn goes
    back to the seat that made it)."""
    g = played(["B-sq-so-2 1,0", "O-sq-so-1 2,0"])
    turn = g.undo("the camera misread it")
    assert turn.move == Placement.parse("O-sq-so-1 2,0")
    assert g.current_seat() == 2 and Cell(2, 0) not in g.layout
    assert g.steps[-1].kind == "undo"
    g.undo()
    with pytest.raises(StateError, match="no placement to undo"):
        g.undo()


def test_k3_13_the_table_alone_proves_a_move() -> None:
    """K3.13, K3.16: on the start card and ``B-sq-so-2`` at 1,0 any declaration is refused at
    once (``table-has-move``): 0,1, -1,0 and 0,-1 touch only the start card."""
    g3 = game("OB")
    g3.play("O-sq-so-2 1,0")  # the table is the start card and one card: Blue declares
    with pytest.raises(DeclarationError) as caught:
        g3.play(f"discard B-tr-da-2 hand {K316_HAND}")
    assert caught.value.code == "table-has-move"
    assert g3.current_seat() == 2 and g3.taken(2) == 0


def test_k3_13_could_hold_is_the_deck_less_the_record_less_named_discards() -> None:
    """K3.13: the cards a player could hold."""
    g = k316()
    held = g.could_hold(1)
    assert len(held) == 27
    assert card("B-sq-so-2") not in held and card("B-ci-da-1") not in held
    assert held.count(card("B-wild")) == 2


def test_k3_14_hand_check_accepts_the_k3_16_declaration() -> None:
    """K3.14, K3.16: none of Blue's cards shares two attributes with any card on the table."""
    g = k316()
    discard = g.check_declaration(Declaration.parse(f"discard B-tr-so-1 hand {K316_HAND}"))
    assert discard == Discard(card("B-tr-so-1"))
    result = g.play(f"discard B-tr-so-1 hand {K316_HAND}")
    assert result.move.text() == "discard B-tr-so-1"
    assert g.steps[-1].move == "discard B-tr-so-1"  # the rest of the hand is not stored


def test_k3_14_hand_has_move_says_privately_which_card_fits_where() -> None:
    """K3.14, K3.16: with ``B-sq-so-1`` in place of ``B-tr-so-1``: ``hand-has-move``:
    ``B-sq-so-1`` fits at 2,0."""
    g = k316()
    hand = K316_HAND.replace("B-tr-so-1", "B-sq-so-1")
    with pytest.raises(DeclarationError) as caught:
        g.play(f"discard B-tr-da-2 hand {hand}")
    assert caught.value.code == "hand-has-move"
    assert caught.value.reasons[0] == "B-sq-so-1 fits at 2,0"
    assert g.taken(1) == 2 and g.current_seat() == 1


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("discard B-tr-da-2 hand B-tr-da-2 B-sq-da-3", "you hold 5 cards, not 2"),
        ("discard B-tr-da-2", "you hold 5 cards, not 0"),
        (
            "discard B-tr-da-2 hand B-tr-da-2 B-sq-da-3 B-ci-so-3 B-ci-ho-2 B-sq-so-2",
            "you cannot hold B-sq-so-2",
        ),
        (
            "discard B-tr-da-2 hand B-tr-da-2 B-tr-da-2 B-ci-so-3 B-ci-ho-2 B-tr-so-1",
            "you cannot hold 2 x B-tr-da-2: at most 1",
        ),
        (
            "discard B-sq-da-1 hand B-tr-da-2 B-sq-da-3 B-ci-so-3 B-ci-ho-2 B-tr-so-1",
            "B-sq-da-1, is not in the hand entered",
        ),
        (f"discard hand {K316_HAND}", "name the card you discard"),
    ],
)
def test_k3_14_hand_invalid(text: str, says: str) -> None:
    """K3.14: ``hand-invalid`` when an entered card is not among the cards the player could
    hold (copies counted) or the number of cards differs from the hand size."""
    g = k316()
    with pytest.raises(DeclarationError) as caught:
        g.play(text)
    assert caught.value.code == "hand-invalid"
    assert any(says in reason for reason in caught.value.reasons)
    assert g.taken(1) == 2


def test_k3_14_no_more_wild_cards_than_could_be_held() -> None:
    """K3.14: copies counted: no more wild cards than could be held."""
    g = k316()
    with pytest.raises(DeclarationError, match="cannot hold 3 x B-wild: at most 2"):
        g.play("discard B-wild hand B-wild B-wild B-wild B-ci-ho-2 B-tr-so-1")


def test_k3_14_the_checks_run_in_order_table_then_invalid_then_has_move() -> None:
    """K3.14: K3.13, then ``hand-invalid``, then ``hand-has-move``."""
    g3 = game("OB")
    g3.play("O-sq-so-2 1,0")
    with pytest.raises(DeclarationError) as first:
        g3.play("discard B-sq-so-2 hand B-sq-so-2")  # invalid too, but the table comes first
    assert first.value.code == "table-has-move"
    g = k316()
    with pytest.raises(DeclarationError) as second:
        g.play("discard B-sq-so-1 hand B-sq-so-1 B-sq-so-2")  # invalid and it would fit
    assert second.value.code == "hand-invalid"


def test_k3_14_house_rule_discard_check_table() -> None:
    """K3.14 (house rule ``discard_check`` = ``table``): K3.13 is the only check and the
    discarded card is not named."""
    g = k316(discard_check="table")
    with pytest.raises(DeclarationError, match="just 'discard'"):
        g.play(f"discard B-tr-so-1 hand {K316_HAND}")
    result = g.play("discard")
    assert result.move == Discard(None)
    assert g.steps[-1].move == "discard"
    assert len(g.could_hold(1)) == 27  # an unnamed discard still could be held


def test_k3_15_an_accepted_declaration_is_a_forced_discard_and_the_card_leaves() -> None:
    """K3.15: a forced discard (K3.5); the named card no longer counts among the cards the
    player could hold."""
    g = k316()
    g.play(f"discard B-tr-so-1 hand {K316_HAND}")
    assert card("B-tr-so-1") not in g.could_hold(1)
    assert g.discards(1) == [Discard(card("B-tr-so-1"))]
    assert g.current_seat() == 2


def test_k3_15_a_refused_declaration_changes_nothing() -> None:
    """K3.15: a refused one changes nothing and the turn goes on."""
    g = k316()
    before = (list(g.steps), g.layout, g.digest())
    with pytest.raises(DeclarationError):
        g.play(f"discard B-sq-so-1 hand {K316_HAND.replace('B-tr-so-1', 'B-sq-so-1')}")
    assert (g.steps, g.layout, g.digest()) == before
