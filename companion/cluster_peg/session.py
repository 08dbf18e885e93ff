"""Cluster at the table: the :class:`GameSetup` and :class:`GameSession` of the peg game.

Two seats (P2.1). There is nothing to choose before the game: it starts when both seats have
joined. Who plays Red (and so moves first, P4.8) is a house rule of the table: seat 1, seat 2,
or drawn by lot from the table's seed (recorded). A seat may be played by the computer (the
``computer`` house rule): the session says which seats and works out their moves
(:meth:`ClusterSession.computer_move`); the service's computer players
(:mod:`companion.service.computer`) join those seats and submit the moves like any other.

One stage, ``move`` (a TURN stage): the acting seat is the player to move. A submission is a
move (``c3*g1``), ``swap`` (P5.11, Blue's first turn, when the house rule is on), ``resign``
(P5.9) or ``draw`` (P5.10: offers a draw, or accepts the opponent's standing offer; both must
confirm, so an offer alone leaves the turn where it is). A turn whose clock runs out (or that
the host skips) loses the game for the player to move, recorded as their resignation. The
host's corrections: ``resign red``, ``resign blue`` (at any time, P5.9) and ``draw`` (agreed
at the table); the host's undo takes back the last token.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.cluster_peg import bot
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.board import Board
from companion.cluster_peg.game import DRAW, RESIGN, SWAP, Game
from companion.cluster_peg.moves import Move, MoveError
from companion.cluster_peg.position import (
    DEFAULT_SETUP,
    SETUP_TITLES,
    SETUPS,
    Position,
    PositionError,
    setup_name,
)
from companion.cluster_peg.record import GAME, record_json, replay_record
from companion.cluster_peg.scan import PegScan, compare
from companion.cluster_peg.settings import HouseRules
from companion.errors import StateError
from companion.service.session import Stage, StageKind, SubmissionError

MOVE = Stage("move", "Move", StageKind.TURN, "move", "green")
"""The one stage of the game: the player to move moves."""
STAGES = (MOVE,)

RED_CHOICES = ("seat 1", "seat 2", "lots")
COMPUTER_CHOICES = ("none", "seat 1", "seat 2", "both")
PLAYERS = 2


def colour_word(colour: Colour) -> str:
    return colour.title.lower()


class ClusterSetup:
    """A new Cluster table: the start position, house rules and who plays what."""

    game = GAME

    def __init__(
        self,
        players: int = PLAYERS,
        *,
        seed: int = 0,
        rules: HouseRules | None = None,
        start: str = DEFAULT_SETUP,
        red: str = "seat 1",
        computer: str = "none",
        level: str = bot.STRONGEST.value,
        seconds: int = int(bot.DEFAULT_SECONDS),
        tokens: tuple[str, ...] = (),
        red_seat: int | None = None,
    ) -> None:
        if players != PLAYERS:
            raise StateError(
                f"Cluster is for 2 players, not {players}: each board has only one symmetry "
                "that exchanges the sides, so there is no fair setup for more (P2.1)"
            )
        self.players = players
        self.seed = seed
        self.rules = rules or HouseRules()
        try:
            self.start_position = SETUPS[start] if start in SETUPS else Position.parse(start)
        except PositionError as err:
            raise StateError(f"the start position is refused: {err}") from None
        self.start_text = start if start in SETUPS else self.start_position.text()
        if red not in RED_CHOICES:
            raise StateError(f"who plays Red: one of {', '.join(RED_CHOICES)}, not {red!r}")
        if computer not in COMPUTER_CHOICES:
            raise StateError(
                f"the computer plays one of {', '.join(COMPUTER_CHOICES)}, not {computer!r}"
            )
        self.red = red
        self.computer = computer
        self.level = bot.Level.parse(level)
        if not 1 <= seconds <= 60:
            raise StateError(f"the computer's time for a move is 1 to 60 seconds, not {seconds}")
        self.seconds = seconds
        self.tokens = tuple(tokens)
        """An imported game's tokens: the table carries on after them."""
        if red_seat is None:
            red_seat = random.Random(seed).choice((1, 2)) if red == "lots" else int(red.split()[1])
        self.red_seat = red_seat
        Game.replay(self.start_position, self.tokens, self.rules)  # refuse what does not replay

    def choosing_order(self) -> list[int]:
        return []  # nothing to choose: the game starts when both seats have joined

    def check_choice(
        self, seat: int, choice: Mapping[str, Any], taken: Mapping[int, Mapping[str, Any]]
    ) -> dict[str, Any]:
        raise SubmissionError(["there is nothing to choose in Cluster: join and play"])

    def choices(self) -> dict[int, dict[str, Any]]:
        return {}

    def computer_seats(self) -> dict[int, str]:
        """The seats the computer plays, each with the name it joins under."""
        return computer_seats(self.computer, self.level)

    def start(self, choices: Mapping[int, Mapping[str, Any]]) -> ClusterSession:
        game = Game.replay(self.start_position, self.tokens, self.rules)
        return ClusterSession(game, self._table())

    def _table(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "start": self.start_text,
            "red": self.red,
            "red_seat": self.red_seat,
            "computer": self.computer,
            "level": self.level.value,
            "seconds": self.seconds,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "tokens": list(self.tokens),
            **self._table(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClusterSetup:
        return cls(
            int(data["players"]),
            seed=int(data["seed"]),
            rules=HouseRules.from_dict(data["rules"]),
            start=str(data["start"]),
            red=str(data["red"]),
            computer=str(data["computer"]),
            level=str(data["level"]),
            seconds=int(data["seconds"]),
            tokens=tuple(data.get("tokens", ())),
            red_seat=int(data["red_seat"]),
        )

    def public(self) -> dict[str, Any]:
        return {
            "start": self.start_position.text(),
            "setup": setup_name(self.start_position),
            "red_seat": self.red_seat,
            "red": self.red,
            "computer": {str(s): n for s, n in self.computer_seats().items()},
            "rules": self.rules.to_dict(),
            "house_rules": {
                "setup": setup_name(self.start_position) or "entered",
                "red": self.red,
                **self.rules.to_dict(),
                "computer": self.computer,
                "computer_level": self.level.value,
                "computer_seconds": self.seconds,
            },
        }

    def durations(self) -> dict[Stage, int]:
        return {}


def computer_seats(computer: str, level: bot.Level) -> dict[int, str]:
    seats = {"none": (), "seat 1": (1,), "seat 2": (2,), "both": (1, 2)}[computer]
    return {seat: f"Computer ({level.value})" for seat in seats}


class ClusterSession:
    """A running game of Cluster at a table."""

    game = GAME

    def __init__(
        self,
        core: Game,
        table: Mapping[str, Any],
        *,
        steps: list[dict[str, Any]] | None = None,
        offer: int | None = None,
    ) -> None:
        self.core = core
        self.table = dict(table)
        self.red_seat = int(table["red_seat"])
        self.level = bot.Level.parse(str(table["level"]))
        self.seconds = int(table["seconds"])
        self.steps: list[dict[str, Any]] = list(steps or [])
        self.offer = offer
        """The seat whose draw offer stands (P5.10), if one does."""

    # Seats and colours ----------------------------------------------------------------------

    def seat_of(self, colour: Colour) -> int:
        """The seat that plays ``colour`` now (after a swap, the other one, P5.11)."""
        red = self.red_seat if not self.core.swapped else 3 - self.red_seat
        return red if colour is Colour.RED else 3 - red

    def colour_of(self, seat: int) -> Colour:
        return Colour.RED if self.seat_of(Colour.RED) == seat else Colour.BLUE

    def computer_seats(self) -> dict[int, str]:
        return computer_seats(str(self.table["computer"]), self.level)

    # The service's questions ----------------------------------------------------------------

    def stage(self) -> Stage:
        return Stage.OVER if self.core.over else MOVE

    def turn(self) -> int:
        return len(self.core.tokens) + 1

    def active_seats(self) -> set[int]:
        return {1, 2}

    def acting(self) -> int | None:
        return None if self.core.over else self.seat_of(self.core.position.to_move)

    def owing(self) -> set[int]:
        seat = self.acting()
        return set() if seat is None else {seat}

    def durations(self) -> dict[Stage, int]:
        return {}

    # Submissions ----------------------------------------------------------------------------

    def check_submission(self, seat: int, text: str) -> str:
        if seat != self.acting():
            raise SubmissionError([f"it is not seat {seat}'s turn"])
        word = text.strip().lower()
        if word == "resign":
            return word
        if word == DRAW:
            return word
        if word == SWAP:
            if not self.core.can_swap():
                if not self.core.rules.swap:
                    reason = "swapping is not allowed at this table (house rule swap is off)"
                else:
                    reason = "a swap is only allowed instead of Blue's first move (P5.11)"
                raise SubmissionError([reason])
            return word
        try:
            self.core.check(word)
        except MoveError as err:
            raise SubmissionError([str(err)]) from None
        return Move.parse(word).text()

    def preview(self, seat: int, text: str) -> dict[str, Any]:
        """What a draft would do: the move in words, with the height it lands at."""
        canonical = self.check_submission(seat, text)
        return {"text": canonical, "says": self._describe(canonical)}

    def _describe(self, token: str) -> str:
        if token == "resign":
            return "you resign: your opponent wins"
        if token == DRAW:
            if self.offer is not None and self.offer != self.acting():
                return "you accept the draw your opponent offered"
            return "you offer a draw (your opponent may accept it on their turn)"
        if token == SWAP:
            return "you take over Red's pegs and Red's first move; your opponent moves next"
        position = self.core.position
        board = position.board
        move = Move.parse(token)
        origin, destination = board.hole(move.origin), board.hole(move.destination)
        peg = position.peg_at(origin)
        assert peg is not None
        _, between = board.line_between(origin, destination)
        height = peg.kind.length + (0 if board.is_deep(destination) else 1)
        jumped = ", ".join(board.names[h] for h in between)
        verb = f"jumps over {jumped} to" if between else "steps to"
        return (
            f"the {peg.kind.value} peg in {move.origin} {verb} {move.destination}: height {height}"
        )

    def resolve(self, submissions: Mapping[int, str]) -> dict[str, Any]:
        seat = self.acting()
        if seat is None:
            raise StateError("the game is over")
        colour = self.colour_of(seat)
        text = submissions.get(seat)
        base = {"seat": seat, "colour": colour_word(colour)}
        if text is None:
            self.core.resign(colour)
            self.offer = None
            self._step("timeout", seat, RESIGN[colour])
            return {"kind": "timeout", **base, **self._ending()}
        token = self.check_submission(seat, text)
        if token == "resign":
            self.core.resign(colour)
            self.offer = None
            self._step("resign", seat, RESIGN[colour])
            return {"kind": "resign", **base, **self._ending()}
        if token == DRAW:
            if self.offer is not None and self.offer != seat:
                self.core.agree_draw()
                self.offer = None
                self._step("draw", seat, DRAW)
                return {"kind": "draw", **base, **self._ending()}
            self.offer = seat
            self._step("offer", seat, None)
            return {"kind": "draw_offer", **base}
        if token == SWAP:
            self.core.swap()
            self._step("swap", seat, SWAP)
            return {"kind": "swap", **base, "now": colour_word(Colour.RED)}
        before = self.core.position
        played = self.core.play(token)
        if self.offer is not None and self.offer != seat:
            self.offer = None  # a move declines the opponent's standing offer
        self._step("move", seat, played.text())
        return {"kind": "move", **base, **move_facts(before, played), **self._ending()}

    def _ending(self) -> dict[str, Any]:
        result = self.core.result
        if result is None:
            return {}
        return {"result": self.result()}

    def result(self) -> dict[str, Any] | None:
        result = self.core.result
        if result is None:
            return None
        winner = None if result.winner is None else self.seat_of(result.winner)
        return {
            "winner": winner,
            "winner_colour": None if result.winner is None else colour_word(result.winner),
            "reason": result.reason,
            "text": result.text(),
            "group": [self.core.position.board.names[h] for h in self.core.winning_group()],
        }

    def _step(self, kind: str, seat: int, token: str | None) -> None:
        self.steps.append(
            {
                "kind": kind,
                "seat": seat,
                "token": token,
                "position": self.core.position.text(),
                "offer": self.offer,
            }
        )

    # Host -----------------------------------------------------------------------------------

    def correct(self, text: str, reason: str) -> dict[str, Any]:
        """``resign red``, ``resign blue`` or ``draw`` (agreed at the table)."""
        words = text.strip().lower().split()
        if words == [DRAW]:
            self.core.agree_draw()
            self.offer = None
            self._step("draw", 0, DRAW)
            return {"text": DRAW, "reason": reason}
        if len(words) == 2 and words[0] == "resign":
            try:
                colour = Colour.parse(words[1])
            except ValueError as err:
                raise StateError(str(err)) from None
            self.core.resign(colour)
            self.offer = None
            self._step("resign", self.seat_of(colour), RESIGN[colour])
            return {"text": f"resign {colour_word(colour)}", "reason": reason}
        raise StateError(
            f"{text.strip()!r} is not a Cluster correction: write 'resign red', 'resign blue' "
            "or 'draw'; to take back a move, undo it"
        )

    def undo(self) -> dict[str, Any]:
        token = self.core.undo()
        self.offer = None
        self._step("undo", 0, token)
        return {"text": f"undo {token}", "reason": "taken back by the host"}

    # The computer ---------------------------------------------------------------------------

    def computer_move(self, seat: int, *, seconds: float | None = None) -> Callable[[], str]:
        """For a seat the computer plays, when it is that seat's turn: a function that works
        out its move on a copy of the board (so it may run outside the service's lock), within
        the house rule's time or half of ``seconds`` (the time left on the table's clock)."""
        if seat not in self.computer_seats():
            raise StateError(f"the computer does not play seat {seat}")
        if seat != self.acting():
            raise StateError(f"it is not seat {seat}'s turn")
        position = self.core.position
        budget = float(self.seconds)
        if seconds is not None:
            budget = max(0.05, min(budget, seconds / 2))
        level = self.level
        seed = hash((int(self.table["seed"]), len(self.core.tokens))) & 0x7FFFFFFF
        may_swap = self.core.can_swap()
        pie = self.core.rules.swap and not self.core.tokens and position.to_move is Colour.RED

        def think() -> str:
            if may_swap and bot.should_swap(position, level=level, seconds=budget, seed=seed):
                return SWAP
            choice = bot.choose(position, level=level, seconds=budget, seed=seed, pie=pie)
            return choice.move.text()

        return think

    # Camera ---------------------------------------------------------------------------------

    def compare_scan(self, scan: object) -> dict[str, Any]:
        """What a camera's :class:`~companion.cluster_peg.scan.PegScan` shows against the
        tracked position: discrepancies, and the legal moves that explain it (P6.3)."""
        if not isinstance(scan, PegScan):
            raise StateError("a Cluster table compares only a reading of its holes (PegScan)")
        if self.core.over:
            found = compare(self.core.position, scan, moves_allowed=False)
        else:
            found = compare(self.core.position, scan)
        return found.to_dict()

    # Storage --------------------------------------------------------------------------------

    def step_count(self) -> int:
        return len(self.steps)

    def steps_since(self, count: int) -> list[dict[str, Any]]:
        return [dict(step) for step in self.steps[count:]]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "table": dict(self.table),
            "rules": self.core.rules.to_dict(),
            "tokens": list(self.core.tokens),
            "offer": self.offer,
            "step_count": len(self.steps),
        }

    @classmethod
    def restore(cls, snapshot: Mapping[str, Any], steps: list[Mapping[str, Any]]) -> ClusterSession:
        """A session from its snapshot: the start position and tokens replayed (each token
        checked again), and the stored steps up to it."""
        table = dict(snapshot["table"])
        start = str(table["start"])
        position = SETUPS[start] if start in SETUPS else Position.parse(start)
        try:
            core = Game.replay(
                position, snapshot["tokens"], HouseRules.from_dict(snapshot["rules"])
            )
        except (MoveError, StateError) as err:
            raise StateError(f"the stored game does not replay: {err}") from err
        kept = [dict(step) for step in steps[: snapshot["step_count"]]]
        return cls(core, table, steps=kept, offer=snapshot.get("offer"))

    def record_json(self) -> str:
        players: dict[str, Any] = {
            "red": f"seat {self.red_seat}",
            "blue": f"seat {3 - self.red_seat}",
        }
        if self.table["red"] == "lots":
            players["by_lot"] = True
        return record_json(self.core, players=players)

    # Views ----------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        core = self.core
        position = core.position
        board = position.board
        out: dict[str, Any] = {
            "board": board_dict(board),
            "position": position.text(),
            "setup": setup_name(core.start),
            "setup_title": SETUP_TITLES.get(setup_name(core.start) or "", "entered position"),
            "pegs": {board.names[h]: peg.letter for h, peg in position.placement().items()},
            "to_move": None if core.over else colour_word(position.to_move),
            "seats": {
                "red": self.seat_of(Colour.RED),
                "blue": self.seat_of(Colour.BLUE),
            },
            "swapped": core.swapped,
            "computer": {str(s): name for s, name in self.computer_seats().items()},
            "tokens": list(core.tokens),
            "moves_played": core.moves_played,
            "last": self.last_move(),
            "legal": {} if core.over else legal_by_origin(position),
            "can_swap": core.can_swap(),
            "draw_offer": self.offer,
            "rules": core.rules.to_dict(),
            "house_rules": self.house_rules(),
            "repetitions": core.repetitions(),
        }
        result = self.result()
        if result is not None:
            out["result"] = result
        return out

    def house_rules(self) -> dict[str, Any]:
        """Every house rule of the table by name (the registration's ``house_rules``)."""
        return {
            "setup": setup_name(self.core.start) or "entered",
            "red": self.table["red"],
            **self.core.rules.to_dict(),
            "computer": self.table["computer"],
            "computer_level": self.level.value,
            "computer_seconds": self.seconds,
        }

    def last_move(self) -> dict[str, Any] | None:
        """The last move played (skipping swap), with the holes it jumped."""
        tokens = self.core.tokens
        for index in range(len(tokens) - 1, -1, -1):
            token = tokens[index]
            if token in (SWAP, DRAW, *RESIGN.values()):
                continue
            before = self.core.positions[index]
            return {
                "number": index + 1,
                "colour": colour_word(before.to_move),
                **move_facts(before, Move.parse(token)),
            }
        return None

    def private(self, seat: int) -> dict[str, Any]:
        colour = self.colour_of(seat)
        return {
            "colour": colour_word(colour),
            "computer": seat in self.computer_seats(),
            "your_turn": seat == self.acting(),
        }


def move_facts(before: Position, move: Move) -> dict[str, Any]:
    board = before.board
    origin, destination = board.hole(move.origin), board.hole(move.destination)
    _, between = board.line_between(origin, destination)
    peg = before.peg_at(origin)
    return {
        "move": move.text(),
        "origin": move.origin,
        "destination": move.destination,
        "jumped": [board.names[h] for h in between],
        "peg": None if peg is None else peg.letter,
    }


def legal_by_origin(position: Position) -> dict[str, list[str]]:
    """The legal moves of the player to move, as origin -> destinations (for tapping)."""
    out: dict[str, list[str]] = {}
    for move in legal_moves_of(position):
        out.setdefault(move.origin, []).append(move.destination)
    return out


def legal_moves_of(position: Position) -> list[Move]:
    from companion.cluster_peg.moves import legal_moves

    return legal_moves(position)


def board_dict(board: Board) -> dict[str, Any]:
    """The board for drawing: every hole with its centre (hole spacings) and depth."""
    holes = []
    for hole in range(board.size):
        x, y = board.xy(hole)
        holes.append(
            {"name": board.names[hole], "x": x, "y": round(y, 4), "deep": board.is_deep(hole)}
        )
    return {"name": board.name, "title": board.title, "holes": holes}


def setup_from_record(record: bytes) -> ClusterSetup:
    """A table that carries on from a game record (checked and replayed first)."""
    from companion.cluster_peg.record import parse_record

    data = parse_record(record)
    game = replay_record(data)
    players = data.get("players") or {}
    red_seat = 2 if players.get("red") == "seat 2" else 1
    return ClusterSetup(
        PLAYERS,
        rules=game.rules,
        start=data["start"] if data.get("setup") is None else data["setup"],
        tokens=tuple(game.tokens),
        red="lots" if players.get("by_lot") else f"seat {red_seat}",
        red_seat=red_seat,
    )
