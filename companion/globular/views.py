"""The position as plain data for screens: the cluster, the score sheet the rulebook keeps on
paper (crystals by type, VP per round and in total), the turn in progress, and what a draft
turn would do. No rules are decided here; everything comes from the rules core."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.globular.placement import legal_placements
from companion.globular.scoring import crystal_sets, holding
from companion.globular.state import State, TurnKind
from companion.globular.tiles import CRYSTALS, TileKind

if TYPE_CHECKING:
    from companion.globular.game import GlobularGame, Preview


def placements(state: State) -> dict[str, list[str]]:
    """Where the tile to place may go now (G3): position name to tick corners."""
    tile = state.turn.to_place
    if tile is None:
        return {}
    return {
        p.name(): [c.value for c in corners]
        for p, corners in legal_placements(state.board, tile).items()
    }


def board_dict(state: State) -> list[dict[str, Any]]:
    """Every tile with what stands on it, in reading order."""
    cells = []
    for position in state.board:
        cell = state.board[position]
        tile = cell.tile
        pieces = []
        for player in state.players:
            coins = player.coins_at(position)
            leader = player.leader == position
            if coins or leader:
                pieces.append({"colour": player.colour.value, "coins": coins, "leader": leader})
        entry: dict[str, Any] = {
            "position": position.name(),
            "q": position.q,
            "r": position.r,
            "code": cell.code,
            "colour": None if tile is None else tile.colour.value,
            "rank": None if tile is None else tile.rank.word,
            "number": None if tile is None else tile.number,
            "kind": cell.kind.value,
            "corner": None if cell.corner is None else cell.corner.value,
            "pennies": cell.pennies,
            "station": None if cell.station is None else cell.station.value,
            "colonist": None
            if cell.colonist is None
            else {"colour": cell.colonist.colour.value, "piece": cell.colonist.piece},
            "pieces": pieces,
        }
        if cell.kind is TileKind.HABITABLE:
            held = holding(state, position)
            entry["value"] = held.value
            entry["holder"] = None if held.holder is None else held.holder.value
        cells.append(entry)
    return cells


def crossings_dict(state: State) -> list[dict[str, Any]]:
    """Every pair of neighbouring tiles with its cost (None: impassable), for the map's
    crossing costs shown on demand."""
    return [{"a": a.name(), "b": b.name(), "cost": c} for a, b, c in state.board.crossings()]


def players_dict(state: State) -> list[dict[str, Any]]:
    out = []
    for seat, player in enumerate(state.players, start=1):
        out.append(
            {
                "seat": seat,
                "colour": player.colour.value,
                "vp": player.vp,
                "crystals": {c.value: player.crystals[c] for c in CRYSTALS},
                "sets": [crystal_sets(c, player.crystals[c]).to_dict() for c in CRYSTALS],
                "crystal_points_now": sum(
                    crystal_sets(c, player.crystals[c]).points for c in CRYSTALS
                ),
                "coins_on_board": sum(player.coins.values()),
                "coins_out": player.coins_out,
                "leader": None if player.leader is None else player.leader.name(),
                "leader_out": player.leader_out,
                "stations": [p.name() for p in player.stations],
                "stations_left": player.stations_left,
                "colony": None if player.colony is None else player.colony.name(),
                "scores": [s.to_dict() for s in player.scores],
            }
        )
    return out


def score_sheet(state: State) -> dict[str, Any]:
    """VP per round and in total for each player, and the running total after every round
    (the chart at the end)."""
    rounds = []
    running = {p.colour.value: 0 for p in state.players}
    for round_ in state.rounds:
        scores: dict[str, int | None] = {}
        for player in state.players:
            made = next((s for s in player.scores if s.round == round_.number), None)
            scores[player.colour.value] = None if made is None else made.total
            if made is not None:
                running[player.colour.value] += made.total
        rounds.append(
            {
                "number": round_.number,
                "final": round_.final,
                "drawer": round_.drawer,
                "scores": scores,
                "running": dict(running),
                "holdings": {
                    str(seat): [h.to_dict() for h in held] for seat, held in round_.holdings
                },
            }
        )
    return {"rounds": rounds, "totals": {p.colour.value: p.vp for p in state.players}}


def turn_dict(game: GlobularGame) -> dict[str, Any]:
    state = game.state
    turn = state.turn
    data = turn.to_dict()
    data.update(
        colour=state.acting.colour.value,
        title=turn.kind.title,
        scores=turn.kind.scores,
        lines=[line.text() for line in game.turns[-1].lines],
        placements=placements(state),
    )
    return data


def public_dict(game: GlobularGame) -> dict[str, Any]:
    """Everything everybody may see (the order of the stack is the companion's secret)."""
    from companion.globular.record import result_dict

    state = game.state
    out: dict[str, Any] = {
        "settings": game.settings.to_dict(),
        "board": board_dict(state),
        "crossings": crossings_dict(state),
        "players": players_dict(state),
        "score_sheet": score_sheet(state),
        "turn": turn_dict(game),
        "upcoming": [
            {"seat": seat, "colour": state.player(seat).colour.value, "kind": kind.value}
            for seat, kind in state.upcoming
        ],
        "stack_size": len(state.stack),
        "set_aside": [t.code() for t in state.set_aside],
        "supernova": None if state.supernova is None else state.supernova.code(),
        "over": state.over,
        "last_tile_placed": not state.stack and state.supernova is None,
        "final_round": any(kind is TurnKind.FINAL for _, kind in state.upcoming)
        or state.turn.kind is TurnKind.FINAL,
    }
    result = result_dict(game)
    if result is not None:
        first = result["standings"][0]["colours"]
        out["result"] = {**result, "winners": first}
    return out


def preview_dict(preview: Preview, ap_before: int) -> dict[str, Any]:
    """A draft's preview for the turn builder (see :meth:`GlobularGame.preview`)."""
    state = preview.state
    refused = None
    if preview.refused is not None:
        assert preview.refused_line is not None
        refused = {
            "number": len(preview.played) + 1,
            "text": preview.refused_line.text(),
            "reason": preview.refused.reason,
            "ruling": preview.refused.ruling,
            "message": str(preview.refused),
        }
    lines: list[dict[str, Any]] = [
        {
            "text": p.line.text(),
            "cost": p.cost,
            "ap_left": p.ap_left,
            "said": list(p.said),
            "ended": p.ended,
        }
        for p in preview.played
    ]
    if refused is not None:
        says = f"line {refused['number']} ({refused['text']}): {refused['message']}"
    elif not lines:
        says = f"{ap_before} AP left"
    elif lines[-1]["ended"]:
        says = f"ends the turn ({sum(p.cost for p in preview.played)} AP spent)"
    else:
        says = f"{lines[-1]['text']}: {lines[-1]['cost']} AP; {state.turn.ap} AP left"
    return {
        "playable": refused is None,
        "text": "\n".join(p.line.text() for p in preview.played),
        "says": says,
        "ap_before": ap_before,
        "lines": lines,
        "refused": refused,
        "unchecked": [line.text() for line in preview.unchecked],
        "ap_left": state.turn.ap,
        "ended": any(p.ended for p in preview.played),
        "to_place": None if state.turn.to_place is None else state.turn.to_place.code(),
        "to_place_words": None if state.turn.to_place is None else state.turn.to_place.words(),
        "awaiting_draw": state.turn.awaiting_draw,
        "placements": placements(state),
        "board": board_dict(state),
        "crossings": crossings_dict(state),
    }
