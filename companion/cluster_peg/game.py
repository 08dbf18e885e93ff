"""A game of Cluster from its start position: moves, the win, draws, resignation and swap (P4, P5).

:class:`Game` holds the start position, the house rules and the tokens played so far (moves in
the notation of P6.2, and ``swap``, ``resign-r``, ``resign-b``, ``draw``), with the position
after each, so it can answer for any point of the game and take back the last token.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from companion.cluster_peg import moves as moves_module
from companion.cluster_peg.atoms import Colour
from companion.cluster_peg.goal import groups
from companion.cluster_peg.moves import Move, MoveError
from companion.cluster_peg.position import Position, position_problem, setup
from companion.cluster_peg.settings import HouseRules
from companion.errors import StateError

SWAP = "swap"
DRAW = "draw"
RESIGN = {Colour.RED: "resign-r", Colour.BLUE: "resign-b"}
SPECIAL_TOKENS = (SWAP, DRAW, *RESIGN.values())


@dataclasses.dataclass(frozen=True)
class Result:
    """How a game ended: the winner (None for a draw) and why."""

    winner: Colour | None
    reason: str
    """``goal`` (P5.3), ``resignation`` (P5.9), ``agreement`` (P5.10), ``repetition``
    (P5.7) or ``turn-limit`` (P5.8)."""

    def text(self) -> str:
        if self.winner is None:
            why = {
                "agreement": "agreed by both players",
                "repetition": "the same position a third time",
                "turn-limit": "the move limit was reached",
            }.get(self.reason, self.reason)
            return f"Drawn ({why})"
        if self.reason == "goal":
            return f"{self.winner.title} wins: every peg connected at height 2"
        return f"{self.winner.title} wins: {self.winner.other.title} resigned"

    def to_dict(self) -> dict[str, str | None]:
        return {
            "winner": None if self.winner is None else self.winner.title.lower(),
            "reason": self.reason,
        }


class Game:
    """A game in progress or over; every change goes through :meth:`play` and friends."""

    def __init__(self, start: Position | None = None, rules: HouseRules | None = None) -> None:
        start = setup("64B") if start is None else start
        problem = position_problem(start)
        if problem is not None:
            raise problem
        self.start = start
        self.rules = rules or HouseRules()
        self.tokens: list[str] = []
        self.positions: list[Position] = [start]
        self.results: list[Result | None] = [_result_of(start)]
        self.swaps: list[bool] = [False]
        self._seen: dict[Position, int] = {start: 1}

    # Questions ------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def result(self) -> Result | None:
        return self.results[-1]

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def swapped(self) -> bool:
        """Whether the players exchanged colours by the swap rule (P5.11)."""
        return self.swaps[-1]

    @property
    def moves_played(self) -> int:
        """Moves played so far (swap, resignations and draws are not moves)."""
        return sum(1 for token in self.tokens if token not in SPECIAL_TOKENS)

    def legal_moves(self) -> list[Move]:
        return [] if self.over else moves_module.legal_moves(self.position)

    def can_swap(self) -> bool:
        """P5.11: Blue's choice right after Red's first move, when the house rule is on."""
        return (
            self.rules.swap
            and not self.over
            and self.start.to_move is Colour.RED
            and len(self.tokens) == 1
            and self.tokens[0] not in SPECIAL_TOKENS
        )

    def winning_group(self) -> list[int]:
        """The holes of the winner's pegs when the game was won on the board (else empty)."""
        result = self.result
        if result is None or result.winner is None or result.reason != "goal":
            return []
        return self.position.board.holes_of(self.position.of(result.winner))

    def repetitions(self) -> int:
        """How many times the current position has occurred (P5.7)."""
        return self._seen.get(self.position, 0)

    # Changes --------------------------------------------------------------------------------

    def check(self, move: Move | str) -> int:
        """The move's code if legal now; MoveError with P4.11's first reason otherwise."""
        if self.over and self.position.winner() is None:
            text = move if isinstance(move, str) else move.text()
            parsed = Move.parse(text)
            board = self.position.board
            for name in (parsed.origin, parsed.destination):
                if name not in board.index:
                    raise MoveError(
                        "no-hole", f"there is no hole {name} on the {board.title}", text=text
                    )
            assert self.result is not None
            raise MoveError("game-over", f"the game is over: {self.result.text()}", text=text)
        return moves_module.check(self.position, move)

    def play(self, move: Move | str) -> Move:
        """Play a legal move (MoveError if it is not: nothing changes); returns it."""
        code = self.check(move)
        position = moves_module.after(self.position, code)
        played = Move.from_code(position.board, code)
        self._push(played.text(), position, self._judge(position))
        return played

    def play_code(self, code: int) -> None:
        """Play a move given by its generator code (from :func:`legal_codes`); not checked
        beyond the generator's own legality."""
        position = moves_module.after(self.position, code)
        self._push(Move.from_code(position.board, code).text(), position, self._judge(position))

    def swap(self) -> None:
        """P5.11: Blue takes over Red's pegs and Red's first move; the players exchange
        colours and Blue (now the first mover) moves next."""
        if not self.can_swap():
            raise StateError(_why_no_swap(self))
        self.tokens.append(SWAP)
        self.positions.append(self.position)
        self.results.append(None)
        self.swaps.append(not self.swapped)

    def resign(self, colour: Colour) -> None:
        """P5.9: a player resigns, on their turn or not; the other wins."""
        self._end_by(RESIGN[colour], Result(colour.other, "resignation"))

    def agree_draw(self) -> None:
        """P5.10: both players have confirmed a draw."""
        self._end_by(DRAW, Result(None, "agreement"))

    def apply_token(self, token: str) -> None:
        """Play one token of a record (P6.7): a move, ``swap``, ``resign-r``, ``resign-b`` or
        ``draw``, in any case; MoveError or StateError when it is refused."""
        word = token.strip().lower()
        if word == SWAP:
            self.swap()
        elif word == DRAW:
            self.agree_draw()
        elif word in RESIGN.values():
            self.resign(Colour.RED if word == RESIGN[Colour.RED] else Colour.BLUE)
        else:
            self.play(word)

    def undo(self) -> str:
        """Take back the last token (the host's agreed undo); returns it."""
        if not self.tokens:
            raise StateError("nothing has been played yet, so there is nothing to take back")
        token = self.tokens.pop()
        position = self.positions.pop()
        self.results.pop()
        self.swaps.pop()
        if token not in SPECIAL_TOKENS:
            left = self._seen[position] - 1
            if left:
                self._seen[position] = left
            else:
                del self._seen[position]
        return token

    def _end_by(self, token: str, result: Result) -> None:
        if self.over:
            assert self.result is not None
            raise StateError(f"the game is already over: {self.result.text()}")
        self.tokens.append(token)
        self.positions.append(self.position)
        self.results.append(result)
        self.swaps.append(self.swapped)

    def _judge(self, position: Position) -> Result | None:
        """After a move: the win first (P5.3, P5.6), then repetition (P5.7), then the limit."""
        winner = position.winner()
        if winner is not None:
            return Result(winner, "goal")
        if self.rules.repetition and self._seen.get(position, 0) + 1 >= self.rules.repetition:
            return Result(None, "repetition")
        if self.rules.turn_limit and self.moves_played + 1 >= self.rules.turn_limit:
            return Result(None, "turn-limit")
        return None

    def _push(self, token: str, position: Position, result: Result | None) -> None:
        self.tokens.append(token)
        self.positions.append(position)
        self.results.append(result)
        self.swaps.append(self.swapped)
        self._seen[position] = self._seen.get(position, 0) + 1

    # Seats ----------------------------------------------------------------------------------

    def player_of(self, colour: Colour) -> Colour:
        """Which of the two players (named by the colour they started with) plays ``colour``
        now: after a swap (P5.11) the player who started as Blue plays Red."""
        return colour.other if self.swapped else colour

    @classmethod
    def replay(
        cls, start: Position, tokens: Iterable[str], rules: HouseRules | None = None
    ) -> Game:
        """A game from its start and tokens; the first refused token stops it with its reason
        (MoveError or StateError naming the token's number)."""
        game = cls(start, rules)
        for number, token in enumerate(tokens, start=1):
            try:
                game.apply_token(token)
            except (MoveError, StateError) as err:
                raise type(err)(*_with_number(err, number, token)) from err
        return game


def _with_number(err: MoveError | StateError, number: int, token: str) -> tuple[str, ...]:
    message = f"token {number} ({token.strip()}): {err}"
    if isinstance(err, MoveError):
        return (err.code, message)
    return (message,)


def _result_of(start: Position) -> Result | None:
    winner = start.winner()
    return None if winner is None else Result(winner, "goal")


def _why_no_swap(game: Game) -> str:
    if not game.rules.swap:
        return "swapping is not allowed at this table (house rule swap is off, P5.11)"
    if game.over:
        return "the game is over"
    return "a swap is only allowed instead of Blue's first move, right after Red's (P5.11)"


__all__ = ["DRAW", "RESIGN", "SWAP", "Game", "Result", "groups"]
