"""Each line of a turn played on a state: its cost and effects, or the reason it is refused.

:func:`play_line` works on a copy and returns it only when the whole line is allowed (G8.5),
so a refused line changes nothing (G8.4). Checks run in the order G8.4 gives: the notation is
already parsed; die faces (G8.3); the placement's rulings in order; a move step by step; any
other action's own ruling; and last, whether the AP left pay for it (G4.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from companion.globular.board import Colonist
from companion.globular.errors import Refusal
from companion.globular.geometry import MITS, Position
from companion.globular.notation import (
    Colonize,
    Draw,
    End,
    Improve,
    Line,
    Mine,
    Move,
    Place,
    Station,
    Timeout,
    Trade,
    Warp,
)
from companion.globular.placement import first_legal_placement, placement_refusal
from companion.globular.scoring import cap_refusal, is_single, majority, members_word
from companion.globular.settings import Dice, Settings, StackKeeper
from companion.globular.state import PlayerState, Score, State, TurnKind
from companion.globular.tiles import Face, Tile, TileKind
from companion.globular.turns import draw, end_turn

Roller = Callable[[int], Face]
"""The companion's die: the face of the game's roll number ``n`` (G4.8, G8.3)."""

COST = {Mine: 3, Trade: 3, Improve: 2, Colonize: 5, Station: 5}
"""AP per cache mined, per trade, per improvement, to colonize, per station (G4.6 to G4.13)."""


@dataclasses.dataclass(frozen=True)
class Played:
    """What one line did."""

    line: Line
    """The line as recorded: a mine with the faces rolled (G8.3)."""
    seat: int
    cost: int
    ap_left: int
    said: tuple[str, ...]
    """What happened, in words, one sentence a step."""
    scored: Score | None = None
    """The score the turn's end made (G6.2, G7.3)."""
    drew: Tile | None = None
    """The tile the companion drew for the next turn (G3.13), if the line ended the turn."""
    ended: bool = False


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def play_line(
    state: State,
    line: Line,
    *,
    settings: Settings,
    roll: Roller,
    recorded: bool = False,
) -> tuple[State, Played]:
    """Play ``line`` for the acting player on a copy of ``state``: the new state and what
    happened, or Refusal (the state given is never changed).

    ``recorded`` is a line read back from a record: a mine may then carry the companion's own
    faces, which must be the ones the seed rolls (G8.6)."""
    if state.over:
        raise Refusal("the game is over", "G7.3")
    new = state.copy()
    seat = new.turn.seat
    ap_before = new.turn.ap
    _turn_order_refusal(new, line, settings)
    said: list[str] = []
    scored: Score | None = None
    drew: Tile | None = None
    ended = False
    recorded_line: Line = line
    keeps_stack = settings.stack is StackKeeper.COMPANION
    if isinstance(line, Draw):
        _draw(new, line.tile, said)
    elif isinstance(line, Place):
        _place(new, line, said)
    elif isinstance(line, (End, Timeout)):
        if isinstance(line, Timeout):
            _timeout(new, said)
        kind = new.turn.kind
        player = new.player(seat)
        scores_before = len(player.scores)
        drew = end_turn(new, keeps_stack=keeps_stack)
        ended = True
        if kind.scores:
            scored = new.player(seat).scores[scores_before]
            said.append(f"{player.colour.title} scored {scored.total} VP")
        said.append("turn ended" + (f" with {ap_before} AP unused" if ap_before else ""))
    else:
        cost = 0
        if isinstance(line, (Move, Warp)):
            cost = _move(new, line, said)
        elif isinstance(line, Mine):
            cost, recorded_line = _mine(new, line, settings, roll, recorded, said)
        elif isinstance(line, Trade):
            cost = _trade(new, line, said)
        elif isinstance(line, Improve):
            cost = _improve(new, line, said)
        elif isinstance(line, Colonize):
            cost = _colonize(new, line, said)
        elif isinstance(line, Station):
            cost = _station(new, line, said)
        if cost > new.turn.ap:
            raise Refusal(f"{line.text()} costs {cost} AP but you have {new.turn.ap} left", "G4.2")
        new.turn.ap -= cost
    cost = ap_before - new.turn.ap if not ended else 0
    ap_left = 0 if ended else new.turn.ap
    return new, Played(recorded_line, seat, cost, ap_left, tuple(said), scored, drew, ended)


def _turn_order_refusal(state: State, line: Line, settings: Settings) -> None:
    """A line out of its place in the turn: before the draw, before the placement (G3.1)."""
    turn = state.turn
    if isinstance(line, Timeout):
        return
    if isinstance(line, Draw):
        if settings.stack is StackKeeper.COMPANION:
            raise Refusal("the companion keeps the stack here and draws each tile itself", "G3.13")
        if not turn.awaiting_draw:
            if turn.kind is not TurnKind.NORMAL:
                raise Refusal(f"no tile is drawn in this turn ({turn.kind.title.lower()})", "G4.1")
            raise Refusal(f"this turn's tile ({turn.drawn}) has been drawn already", "G3.1")
        return
    if turn.awaiting_draw:
        raise Refusal(
            "a turn starts with drawing the top tile of the stack: enter it first (draw <tile>)",
            "G3.1",
        )
    if isinstance(line, Place):
        if turn.to_place is None:
            if turn.placed is not None:
                raise Refusal(f"this turn's tile is placed already, at {turn.placed}", "G3.1")
            if turn.set_aside is not None:
                raise Refusal(
                    f"the {turn.set_aside.words()} fitted nowhere and was set aside", "G3.10"
                )
            raise Refusal(f"no tile is placed in this turn ({turn.kind.title.lower()})", "G4.1")
        return
    if turn.to_place is not None:
        raise Refusal(
            f"place the {turn.to_place.words()} first: a drawn tile is placed before any "
            "action, and cannot be declined",
            "G3.1",
        )


def _draw(state: State, tile: Tile, said: list[str]) -> None:
    if tile not in state.stack:
        raise Refusal(f"there is no {tile.words()} ({tile}) left in the stack", "G3.13")
    draw(state, tile)
    said.append(f"drew the {tile.words()}")
    _say_draw(state, tile, said)


def _say_draw(state: State, tile: Tile, said: list[str]) -> None:
    if tile.kind is TileKind.SUPERNOVA:
        said.append("a supernova: the scoring round begins; it is set aside until its turn")
    elif state.turn.set_aside is not None:
        said.append(f"the {tile.words()} fits nowhere and is set aside")


def _place(state: State, line: Place, said: list[str]) -> None:
    tile = state.turn.to_place
    assert tile is not None
    refusal = placement_refusal(state.board, line.position, tile, line.corner)
    if refusal is not None:
        raise refusal
    _put(state, line.position, tile, line)
    said.append(f"placed the {tile.words()} at {line.position} with its tick {line.corner.value}")
    cell = state.board[line.position]
    if cell.pennies:
        said.append(f"{cell.pennies} crystal cache{'s' if cell.pennies != 1 else ''} on it")


def _put(state: State, position: Position, tile: Tile, line: Place) -> None:
    pennies = (tile.number or 0) if tile.kind is TileKind.RESOURCE else 0
    state.board.place(position, tile, line.corner, pennies)  # G3.11
    state.turn.to_place = None
    state.turn.placed = position
    if state.turn.kind is TurnKind.SUPERNOVA:
        state.supernova = None


def _timeout(state: State, said: list[str]) -> None:
    """The table's clock ran out: a drawn tile still in hand goes to the first legal place."""
    turn = state.turn
    if turn.awaiting_draw:
        said.append("time ran out before the tile was drawn: the turn is lost")
        turn.awaiting_draw = False
        return
    if turn.to_place is not None:
        found = first_legal_placement(state.board, turn.to_place)
        assert found is not None  # a tile with no legal place was set aside when drawn
        position, corner = found
        tile = turn.to_place
        _put(state, position, tile, Place(position, corner))
        said.append(
            f"time ran out: the companion placed the {tile.words()} at {position} with its "
            f"tick {corner.value}"
        )
    else:
        said.append("time ran out")


# Moving ----------------------------------------------------------------------------------------


def _move(state: State, line: Move | Warp, said: list[str]) -> int:
    player = state.acting
    count = 1 if line.leader else line.count
    piece = "leader" if line.leader else "coin"
    total = 0
    for number in range(1, count + 1):
        prefix = f"the {_ordinal(number)} coin: " if count > 1 else ""
        for here, there in zip(line.path, line.path[1:], strict=False):
            try:
                if isinstance(line, Warp):
                    total += _warp_step(state, player, here, there, line.leader)
                else:
                    total += _move_step(state, player, here, there, line.leader)
            except Refusal as refusal:
                raise Refusal(prefix + refusal.reason, refusal.ruling) from None
    pieces = "the leader" if line.leader else f"{count} {piece}{'s' if count != 1 else ''}"
    verb = "warped" if isinstance(line, Warp) else "moved"
    route = ">".join(p.name() for p in line.path)
    said.append(f"{verb} {pieces} {route} for {total} AP")
    return total


def _take_piece(player: PlayerState, here: Position, there: Position, leader: bool) -> None:
    if leader:
        player.leader = there
    else:
        player.add_coins(here, -1)
        player.add_coins(there, 1)


def _no_piece(player: PlayerState, here: Position, leader: bool) -> str | None:
    if leader:
        if player.leader_out:
            return "your leader has left the game"
        if player.colony is not None and player.leader is None:
            return "your leader is your colonist and never moves again"
        if player.leader != here:
            return f"your leader is not at {here}"
        return None
    if player.coins_at(here) < 1:
        return f"you have no coin at {here}"
    return None


def _move_step(
    state: State, player: PlayerState, here: Position, there: Position, leader: bool
) -> int:
    board = state.board
    for position in (here, there):
        if position not in board:
            raise Refusal(f"there is no tile at {position}", "G4.4")
    if here.direction_to(there) is None:
        raise Refusal(f"{here} and {there} are not neighbours", "G4.4")
    for position in (here, there):
        if board[position].kind is TileKind.SUPERNOVA:
            raise Refusal(f"{position} is a supernova: it can never be entered or crossed", "G2.10")
    cost = board.crossing(here, there)
    if cost is None:
        raise Refusal(
            f"the crossing between {here} and {there} is impassable: no tick faces it", "G2.8"
        )
    missing = _no_piece(player, here, leader)
    if missing is not None:
        raise Refusal(missing, "G4.4")
    _take_piece(player, here, there, leader)
    return cost


def _warp_step(
    state: State, player: PlayerState, here: Position, there: Position, leader: bool
) -> int:
    if there == MITS:
        raise Refusal("a warp never goes to the MITS, only from it", "G4.5")
    if here != MITS and here not in player.stations:
        raise Refusal(
            f"a warp starts at the MITS or at a station of yours, and {here} is neither", "G4.5"
        )
    if there not in player.stations:
        owner = state.board[there].station if there in state.board else None
        whose = f" (the station there is {owner.value}'s)" if owner is not None else ""
        raise Refusal(f"{there} holds no station of yours{whose}", "G4.5")
    if here == there:
        raise Refusal(f"a warp from {here} to itself goes nowhere", "G4.5")
    missing = _no_piece(player, here, leader)
    if missing is not None:
        raise Refusal(missing, "G4.5")
    _take_piece(player, here, there, leader)
    return 1


# Mining, trading -------------------------------------------------------------------------------


def _mine(
    state: State,
    line: Mine,
    settings: Settings,
    roll: Roller,
    recorded: bool,
    said: list[str],
) -> tuple[int, Mine]:
    if settings.dice is Dice.COMPANION:
        if line.faces and not recorded:
            raise Refusal(
                "the companion rolls the dice at this table: write the mine without 'roll'",
                "G8.3",
            )
        if recorded and len(line.faces) != line.count:
            raise Refusal(
                f"the record's mine gives {len(line.faces)} faces for {line.count} caches", "G8.6"
            )
    elif len(line.faces) != line.count:
        caches = f"{line.count} cache{'s' if line.count != 1 else ''}"
        raise Refusal(
            f"dice are rolled at the table: give one face per cache ({caches}: "
            f"mine {line.position}{' x2' if line.count == 2 else ''} roll "
            f"{' '.join(['<face>'] * line.count)})",
            "G8.3",
        )
    player = state.acting
    turn = state.turn
    position = line.position
    cell = state.board.get(position)
    faces: list[Face] = []
    for number in range(1, line.count + 1):
        if cell is None:
            raise Refusal(f"there is no tile at {position}", "G4.6")
        if cell.kind is not TileKind.RESOURCE:
            raise Refusal(
                f"{position} holds {cell.words()}: only resource tiles (black ace to 5) hold "
                "crystal caches",
                "G4.6",
            )
        if cell.pennies < 1:
            raise Refusal(f"no crystal cache is left at {position}", "G4.6")
        if turn.mined >= 2:
            raise Refusal("a player mines at most 2 caches a turn", "G4.7")
        if turn.mined_at is not None and turn.mined_at != position:
            raise Refusal(
                f"you mined at {turn.mined_at} this turn: both caches come from one tile", "G4.7"
            )
        needed = turn.mined + 1
        if player.presence(position) < needed:
            which = "the 2nd cache this turn" if needed == 2 else "a cache"
            raise Refusal(
                f"{which} needs {members_word(needed)} of yours at {position}; you have "
                f"{player.presence(position)}",
                "G4.7",
            )
        if settings.dice is Dice.COMPANION:
            face = roll(state.rolls)
            state.rolls += 1
            if recorded and line.faces[number - 1] is not face:
                raise Refusal(
                    f"the record says the die showed {line.faces[number - 1].value} but this "
                    f"game's seed rolls {face.value}",
                    "G8.6",
                )
        else:
            face = line.faces[number - 1]
        cell.pennies -= 1
        turn.mined += 1
        turn.mined_at = position
        player.crystals[face.crystal] += 1
        faces.append(face)
        said.append(
            f"mined a cache at {position}: the die shows {face.value}, a crystal of type "
            f"{face.crystal.label}"
        )
    return COST[Mine] * line.count, dataclasses.replace(line, faces=tuple(faces))


def _trade(state: State, line: Trade, said: list[str]) -> int:
    player = state.acting
    seat = state.seat_of(line.colour)
    if seat is None:
        raise Refusal(f"nobody plays {line.colour.value} in this game", "G4.9")
    other = state.player(seat)
    if other is player:
        raise Refusal("a trade is with another player", "G4.9")
    if line.give is line.take:
        raise Refusal("a trade gives one type of crystal for a different type", "G4.9")
    if player.crystals[line.give] < 1:
        raise Refusal(f"you hold no crystal of type {line.give.label} to give", "G4.9")
    held = other.crystals[line.take]
    if held == 0:
        raise Refusal(f"{line.colour.value} holds no crystal of type {line.take.label}", "G4.9")
    if not is_single(held):
        sets = "all in triplets" if held % 3 == 0 else "ending in a pair"
        raise Refusal(
            f"{line.colour.value}'s {held} crystals of type {line.take.label} are {sets}: "
            "pairs and triplets can be neither taken nor broken",
            "G4.9",
        )
    player.crystals[line.give] -= 1
    player.crystals[line.take] += 1
    other.crystals[line.take] -= 1
    other.crystals[line.give] += 1
    said.append(
        f"traded a {line.give.label} crystal for {line.colour.value}'s {line.take.label} crystal"
    )
    return COST[Trade]


# Improving, colonizing, stations ---------------------------------------------------------------


def _improve(state: State, line: Improve, said: list[str]) -> int:
    player = state.acting
    turn = state.turn
    position = line.position
    cell = state.board.get(position)
    for _ in range(line.count):
        if cell is None:
            raise Refusal(f"there is no tile at {position}", "G4.10")
        if cell.kind is not TileKind.HABITABLE:
            raise Refusal(
                f"{position} holds {cell.words()}: only habitable tiles (blue and green ace to "
                "5) take improvements",
                "G4.10",
            )
        if cell.colonist is not None:
            raise Refusal(f"{position} is colonized: it takes no more improvements", "G4.10")
        done = turn.improved.get(position, 0)
        if done >= 2:
            raise Refusal(f"{position} has had 2 improvements this turn, the most", "G4.10")
        if player.presence(position) < done + 1:
            which = "the 2nd improvement this turn" if done else "an improvement"
            raise Refusal(
                f"{which} at {position} needs {members_word(done + 1)} of yours there; you "
                f"have {player.presence(position)}",
                "G4.10",
            )
        capped = cap_refusal(state.board, position)
        if capped is not None:
            raise Refusal(capped, "G4.11")
        cell.pennies += 1
        turn.improved[position] = done + 1
    assert cell is not None
    said.append(
        f"improved {position} {'twice' if line.count == 2 else 'once'}: its value is now "
        f"{cell.value}"
    )
    return COST[Improve] * line.count


def _colonize(state: State, line: Colonize, said: list[str]) -> int:
    player = state.acting
    position = line.position
    cell = state.board.get(position)
    if cell is None:
        raise Refusal(f"there is no tile at {position}", "G4.12")
    if cell.kind is not TileKind.HABITABLE:
        raise Refusal(
            f"{position} holds {cell.words()}: only habitable tiles are colonized", "G4.12"
        )
    if cell.colonist is not None:
        raise Refusal(f"{position} is colonized already", "G4.12")
    if player.colony is not None:
        raise Refusal(f"you colonized {player.colony} already: once a game", "G4.12")
    if cell.pennies < 1:
        raise Refusal(f"{position} has no improvement yet: improve it first", "G4.12")
    if majority(state, position) is not player.colour:
        raise Refusal(
            f"you do not hold the majority at {position} (you {player.presence(position)}, "
            f"the most of any other {_most_other(state, player, position)})",
            "G4.12",
        )
    coins = player.coins_at(position)
    leader_there = player.leader == position
    if line.leader and not leader_there:
        raise Refusal(f"your leader is not at {position}", "G4.12")
    as_leader = line.leader or coins == 0
    cell.colonist = Colonist(player.colour, as_leader)
    player.colony = position
    removed_coins = coins - (0 if as_leader else 1)
    player.add_coins(position, -coins)
    player.coins_out += removed_coins
    if leader_there:
        player.leader = None
        if not as_leader:
            player.leader_out = True
    gone = []
    if removed_coins:
        gone.append(f"{removed_coins} coin{'s' if removed_coins != 1 else ''}")
    if leader_there and not as_leader:
        gone.append("the leader")
    said.append(
        f"colonized {position} with {'the leader' if as_leader else 'a coin'}"
        + (f"; {' and '.join(gone)} left the game" if gone else "")
    )
    return COST[Colonize]


def _most_other(state: State, player: PlayerState, position: Position) -> int:
    return max((p.presence(position) for p in state.players if p is not player), default=0)


def _station(state: State, line: Station, said: list[str]) -> int:
    player = state.acting
    position = line.position
    cell = state.board.get(position)
    if cell is None:
        raise Refusal(f"there is no tile at {position}", "G4.13")
    kind = cell.kind
    if kind is TileKind.RESOURCE and cell.pennies:
        raise Refusal(
            f"{position} still holds {cell.pennies} crystal cache"
            f"{'s' if cell.pennies != 1 else ''}: a station needs a null tile or a mined-out one",
            "G4.13",
        )
    if kind not in (TileKind.NULL, TileKind.RESOURCE):
        raise Refusal(
            f"{position} is {cell.words()}: stations go on null tiles and mined-out resource tiles",
            "G4.13",
        )
    if cell.station is not None:
        raise Refusal(f"{position} holds {cell.station.value}'s station already", "G4.13")
    if player.stations_left < 1:
        raise Refusal("you have built both your stations", "G4.13")
    cell.station = player.colour
    player.stations.append(position)
    said.append(f"built a warp station at {position}")
    return COST[Station]
