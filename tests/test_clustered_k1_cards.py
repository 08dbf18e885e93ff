"""K1 Components: cards, decks, colours, start cards and the card notation."""

from __future__ import annotations

import pytest
from clustered_helpers import game, played

from companion.clustered import START, Card, Fill, NotationError, Palette, Settings, Shape, deck
from companion.clustered.cards import ATTRIBUTES, compatible
from companion.clustered.settings import DEFAULT_PALETTE
from companion.errors import StateError


def test_k1_1_a_card_has_shape_fill_and_number_and_colour_is_not_an_attribute() -> None:
    """K1.1: shape, fill and number are the attributes; colour is not one."""
    blue, orange = Card.parse("B-tr-da-3"), Card.parse("O-tr-da-3")
    assert ATTRIBUTES == ("shape", "fill", "number")
    assert (blue.shape, blue.fill, blue.number) == (Shape.TRIANGLE, Fill.DASHED, 3)
    assert blue.signature == orange.signature
    assert compatible(blue, orange)


def test_k1_2_a_deck_is_the_27_combinations_and_2_wild_cards() -> None:
    """K1.2: one card of each of the 27 attribute combinations plus 2 wild cards: 29."""
    cards = deck("B")
    assert len(cards) == 29
    plain = [c for c in cards if c.is_plain]
    assert len(set(plain)) == 27 and {c.signature for c in plain} == set(range(27))
    assert cards.count(Card.wild("B")) == 2
    assert {c.colour for c in cards} == {"B"}


def test_k1_3_with_the_third_wild_card_a_deck_holds_30_and_never_more_than_3_wilds() -> None:
    """K1.3: 30 cards with the third wild card; no deck holds more than 3 wild cards."""
    assert len(deck("B", 3)) == 30
    assert Settings(extra_wild="all").deck_size("B") == 30
    with pytest.raises(ValueError, match="at most 3 wild cards"):
        deck("B", 4)


def test_k1_4_each_colour_is_played_by_at_most_one_player_so_1_to_8_players() -> None:
    """K1.4: each colour by at most one player; a game has 1 to 8 players."""
    with pytest.raises(StateError, match="played by two seats"):
        game("BB")
    with pytest.raises(StateError, match="1 to 8 players, not 0"):
        game("")
    assert len(game("BORGYPTM").players) == 8


def test_k1_5_the_default_palette_and_its_codes() -> None:
    """K1.5: B blue, O orange from the rulebook; R G Y P T M are placeholders."""
    assert Palette().text() == "B O R G Y P T M"
    assert dict(DEFAULT_PALETTE) == {
        "B": "blue",
        "O": "orange",
        "R": "red",
        "G": "green",
        "Y": "yellow",
        "P": "purple",
        "T": "teal",
        "M": "magenta",
    }


def test_k1_5_house_rule_palette_renames_codes_and_colours() -> None:
    """K1.5 (house rule ``palette``): the table renames codes and colours (distinct A-Z)."""
    palette = Palette.parse("B O R G Y P T K=black")
    assert palette.name("K") == "black" and "M" not in palette.codes
    g = game("KB", palette=palette)
    assert g.play("k-WILD 1,0").move.card == Card.wild("K")
    assert g.name(1) == "black"
    with pytest.raises(NotationError, match="no colour 'M'"):
        Card.parse("M-sq-so-1", palette.codes)
    for bad in ("B O R G Y P T", "B O R G Y P T B", "B O R G Y P T 1=x"):
        with pytest.raises(ValueError):
            Palette.parse(bad)


def test_k1_6_a_start_card_has_no_colour_no_attributes_and_is_never_in_a_deck() -> None:
    """K1.6: black, nobody's, no attributes, never in a deck or a hand, never moves; one start
    card, or two in expansion play."""
    assert START.colour is None and START.signature == -1 and START.is_start
    assert all(START not in deck(code) for code in Palette().codes)
    assert game("B").layout.starts == ((0, 0),)
    assert game("BORGY").layout.starts == ((0, 0), (7, 0))


@pytest.mark.parametrize(
    ("text", "colour", "shape", "fill", "number"),
    [
        ("B-tr-da-3", "B", Shape.TRIANGLE, Fill.DASHED, 3),
        ("O-sq-ho-1", "O", Shape.SQUARE, Fill.HOLLOW, 1),
        ("R-ci-so-2", "R", Shape.CIRCLE, Fill.SOLID, 2),
    ],
)
def test_k1_7_card_notation(text: str, colour: str, shape: Shape, fill: Fill, number: int) -> None:
    """K1.7: ``C-sh-fi-n``; ``B-tr-da-3`` is a blue card with three dashed triangles."""
    card = Card.parse(text)
    assert (card.colour, card.shape, card.fill, card.number) == (colour, shape, fill, number)
    assert Card.parse("B-tr-da-3").words() == "three dashed triangles"


def test_k1_7_wild_and_start_notation_and_input_is_case_insensitive() -> None:
    """K1.7: ``C-wild``, ``start``; any case, no spaces inside, surrounding spaces ignored."""
    assert Card.parse("o-WILD") == Card.wild("O")
    assert Card.parse("  Start ") is START
    assert Card.parse(" b-Tr-DA-3\t") == Card.parse("B-tr-da-3")


@pytest.mark.parametrize("text", ["B-sq-so-2", "O-wild", "start", "M-ci-ho-1"])
def test_k1_8_output_is_canonical_and_round_trips(text: str) -> None:
    """K1.8: colour code uppercase, the rest lowercase; parse then format gives it back."""
    assert Card.parse(text).text() == text
    assert Card.parse(text.swapcase()).text() == text
    assert eval(repr(Card.parse(text))) == Card.parse(text)


def test_k1_9_wild_cards_of_one_colour_are_identical() -> None:
    """K1.9: the wild cards of one colour are identical in play and share ``C-wild``."""
    first, second = deck("B")[-2:]
    assert first == second and first.text() == "B-wild"


@pytest.mark.parametrize(
    "text", ["B-sq-so-4", "B-so-sq-2", "B-wild-2", "B sq so 2", "B-sq-so", "", "BB-sq-so-2"]
)
def test_k1_10_any_other_text_is_a_notation_error_quoting_it(text: str) -> None:
    """K1.10: a notation error that quotes the text; it never becomes a placement."""
    with pytest.raises(NotationError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)


def test_k1_10_an_unknown_colour_code_is_a_notation_error() -> None:
    """K1.10: an unknown colour code is a notation error."""
    with pytest.raises(NotationError, match=r"'X-sq-so-2'.*no colour 'X'"):
        Card.parse("X-sq-so-2", Palette().codes)
    g = game("BO")
    with pytest.raises(NotationError, match="no colour 'X'"):
        g.play("X-sq-so-2 1,0")
    assert g.turns == [] and g.steps == []


def test_k1_11_the_markers_are_the_companions_screens() -> None:
    """K1.11: the current player card and bonus cards are markers only; the companion shows
    whose turn it is and who holds each bonus."""
    g = played(["B-sq-so-1 1,0"], first_bonuses=True, largest_bonuses=True)
    assert g.current_seat() == 2
    assert g.first_holders() == {"first-rectangle": None, "first-line": None}
    assert g.largest_holders() == {"largest-rectangle": None, "longest-line": None}
