"""Globular Cluster as text for a terminal: the cluster drawn as the rulings draw Figures 1
and 2, who stands where, the score sheet the rulebook keeps on paper, and the turn in progress.
No rules are decided here."""

from __future__ import annotations

from companion.globular.game import GlobularGame
from companion.globular.geometry import Position
from companion.globular.placement import legal_placements
from companion.globular.scoring import crystal_sets, holding
from companion.globular.state import State, TurnKind
from companion.globular.tiles import CRYSTALS, TileKind

CELL = 4
"""Characters per half tile: a tile is ``[bl2:bl]``, 8 characters."""


def cluster(state: State) -> list[str]:
    """The board, rows numbered and half-tile columns lettered (G2.3)."""
    board = state.board
    left = min(p.q for p in board.cells)
    right = max(p.q for p in board.cells) + 2
    top = min(p.r for p in board.cells)
    bottom = max(p.r for p in board.cells)
    header = "    " + "".join(f"{Position(0, q).name()[0]:<{CELL}}" for q in range(left, right - 1))
    lines = [header.rstrip()]
    for r in range(top, bottom + 1):
        row = [" " * CELL] * (right - left)
        text = "".join(row)
        for position in board:
            if position.r != r:
                continue
            cell = board[position]
            label = (
                "[ MITS ]"
                if cell.tile is None
                else f"[{cell.code}:{cell.corner.value if cell.corner else '--'}]"
            )
            at = (position.q - left) * CELL
            text = text[:at] + label + text[at + len(label) :]
        lines.append(f"{Position(r, 0).name()[1:]:>3} {text.rstrip()}")
    return lines


def contents(state: State) -> list[str]:
    """Each tile with anything on it or of note: caches, improvements, stations, colonists,
    pieces."""
    out = []
    for position in state.board:
        cell = state.board[position]
        notes = []
        if cell.kind is TileKind.RESOURCE:
            notes.append(f"{cell.pennies} cache{'s' if cell.pennies != 1 else ''}")
        if cell.kind is TileKind.HABITABLE:
            held = holding(state, position)
            who = "nobody" if held.holder is None else held.holder.value
            notes.append(
                f"value {cell.value} ({cell.pennies} improvement"
                f"{'s' if cell.pennies != 1 else ''}), held by {who}"
            )
        if cell.station is not None:
            notes.append(f"{cell.station.value}'s station")
        if cell.colonist is not None:
            notes.append(f"colonized by {cell.colonist.colour.value} ({cell.colonist.piece})")
        for player in state.players:
            coins = player.coins_at(position)
            leader = player.leader == position
            if coins or leader:
                parts = [f"{coins} coin{'s' if coins != 1 else ''}"] if coins else []
                if leader:
                    parts.append("leader")
                notes.append(f"{player.colour.value} {' + '.join(parts)}")
        if notes or cell.kind is TileKind.SUPERNOVA:
            kind = "supernova" if cell.kind is TileKind.SUPERNOVA else cell.code
            out.append(f"  {position.name():<4} {kind:<5} " + "; ".join(notes))
    return out


def score_sheet(state: State) -> list[str]:
    """Crystals by type and VP per round and in total, one column per player."""
    names = [p.colour.value for p in state.players]
    width = max(7, *(len(n) + 1 for n in names))

    def row(label: str, values: list[object]) -> str:
        return f"  {label:<22}" + "".join(f"{v!s:>{width}}" for v in values)

    lines = [row("Score sheet", list(names))]
    for crystal in CRYSTALS:
        lines.append(row(f"crystals {crystal.label}", [p.crystals[crystal] for p in state.players]))
    lines.append(
        row(
            "crystal points now",
            [sum(crystal_sets(c, p.crystals[c]).points for c in CRYSTALS) for p in state.players],
        )
    )
    for round_ in state.rounds:
        label = "final round" if round_.final else f"round {round_.number}"
        cells: list[object] = []
        for p in state.players:
            made = next((s for s in p.scores if s.round == round_.number), None)
            cells.append("-" if made is None else made.total)
        lines.append(row(f"VP {label}", cells))
    lines.append(row("VP total", [p.vp for p in state.players]))
    return lines


def round_details(state: State, number: int) -> list[str]:
    """How each player's score was made in one round: each habitable tile and who held it at
    their scoring, each crystal set (G6.4 to G6.6)."""
    round_ = next((r for r in state.rounds if r.number == number), None)
    if round_ is None:
        return [f"There has been no round {number}."]
    title = "The final round" if round_.final else f"Scoring round {number}"
    lines = [f"{title}:"]
    for seat, held in round_.holdings:
        player = state.player(seat)
        made = next(s for s in player.scores if s.round == number)
        lines.append(f"  {player.colour.title} scored {made.total} VP:")
        for h in held:
            who = "nobody" if h.holder is None else h.holder.value
            how = " (colonized)" if h.colonized else ""
            mark = "+" if h.holder is player.colour else " "
            lines.append(
                f"   {mark} {h.position.name():<4} {h.tile.code()} value {h.value}: {who}{how}"
            )
        for s in made.sets:
            parts = [
                f"{n} {w}"
                for n, w in ((s.triplets, "triplet"), (s.pairs, "pair"), (s.singles, "single"))
                if n
            ]
            lines.append(
                f"   + {s.count} {s.crystal.label} crystals: {', '.join(parts)} = {s.points}"
            )
        lines.append(f"     tiles {made.tile_points} + crystals {made.crystal_points}")
    return lines


def waiting(game: GlobularGame) -> list[str]:
    """Whose turn it is and what it holds."""
    state = game.state
    if state.over:
        from companion.globular.record import result_dict

        result = result_dict(game)
        assert result is not None
        places = "; ".join(
            f"{s['place']}. {' and '.join(s['colours'])} ({result['vp'][s['colours'][0]]} VP)"
            for s in result["standings"]
        )
        return [f"The game is over: {places}."]
    turn = state.turn
    player = state.acting
    lines = [
        f"Turn {turn.number}: {player.colour.title} (seat {turn.seat}), "
        f"{turn.kind.title.lower()}, {turn.ap} AP left."
    ]
    if turn.awaiting_draw:
        lines.append("  Draw the top tile and enter it: companion play GAME.json 'draw <tile>'.")
    if turn.to_place is not None:
        legal = legal_placements(state.board, turn.to_place)
        places = ", ".join(
            f"{p.name()} {'/'.join(c.value for c in corners)}" for p, corners in legal.items()
        )
        lines.append(f"  Place the {turn.to_place.words()} ({turn.to_place}): {places}.")
    elif turn.set_aside is not None:
        lines.append(f"  The {turn.set_aside.words()} fitted nowhere and was set aside.")
    if turn.kind is TurnKind.SCORING:
        lines.append("  A scoring round: this player scores at the end of the turn.")
    if turn.kind is TurnKind.FINAL:
        lines.append("  The final round: this player scores at the end of the turn.")
    played = [line.text() for line in game.turns[-1].lines]
    if played:
        lines.append(f"  Played so far: {'; '.join(played)}.")
    lines.append(f"  Tiles left in the stack: {len(state.stack)}.")
    return lines


def position(game: GlobularGame) -> list[str]:
    state = game.state
    return [*cluster(state), "", "On the tiles:", *contents(state), "", *score_sheet(state)]
