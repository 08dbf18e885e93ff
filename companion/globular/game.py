"""A game of Globular Cluster: settings, seed and every line played (G8.6), the position they
lead to, previews of lines not yet played, and taking back lines within a turn (G8.7).

All randomness comes from the seed: the stack's shuffle from ``random.Random(f"{seed}:stack")``
and the companion's roll number ``n`` from ``random.Random(f"{seed}:roll:{n}")`` (string seeds
are hashed with SHA-512, the same on every platform and Python version), so a game replays to
the byte and taking back a line never changes a later roll.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence

from companion.globular.actions import Played, play_line
from companion.globular.errors import Refusal
from companion.globular.notation import Draw, End, Line, Mine, Timeout, parse_line
from companion.globular.placement import legal_placements
from companion.globular.settings import Dice, Settings, StackKeeper
from companion.globular.stack import shuffled_stack, stack_tiles
from companion.globular.state import State, TurnKind
from companion.globular.tiles import FACES, Face, Tile
from companion.globular.turns import first_turn, initial_state


@dataclasses.dataclass
class TurnRecord:
    """One turn as recorded: whose, what kind, its lines (the companion's draw first, when it
    keeps the stack) and the digest of the position after its last line."""

    number: int
    seat: int
    kind: TurnKind
    lines: list[Line]
    digest: str = ""
    ended: bool = False


@dataclasses.dataclass(frozen=True)
class Preview:
    """A draft's lines, each with what it does or why it is refused (the first refusal stops
    the preview: later lines are not looked at)."""

    played: tuple[Played, ...]
    refused: Refusal | None
    refused_line: Line | None
    unchecked: tuple[Line, ...]
    state: State
    """The position after the lines that are allowed."""

    @property
    def ap_left(self) -> int:
        return self.state.turn.ap


class GlobularGame:
    """The game so far. :meth:`play` adds one line; nothing else changes the position except
    :meth:`take_back`."""

    def __init__(self, settings: Settings, seed: int) -> None:
        self.settings = settings
        self.seed = seed
        players = settings.players
        if settings.stack is StackKeeper.COMPANION:
            stack = list(shuffled_stack(players, random.Random(f"{seed}:stack")))
        else:
            stack = sorted(stack_tiles(players).elements())
        self.state: State = initial_state(settings.colours, stack)
        drew = first_turn(self.state, keeps_stack=self.keeps_stack)
        self.turns: list[TurnRecord] = []
        self._before: list[State] = []
        """The position before each line of the turn in progress that may be taken back."""
        self._open_turn(drew)

    # Questions ---------------------------------------------------------------------------------

    @property
    def keeps_stack(self) -> bool:
        return self.settings.stack is StackKeeper.COMPANION

    @property
    def over(self) -> bool:
        return self.state.over

    def roll(self, index: int) -> Face:
        """The companion's roll number ``index`` of this game (each face 1/6, G1.8)."""
        return FACES[random.Random(f"{self.seed}:roll:{index}").randrange(len(FACES))]

    def lines(self) -> list[Line]:
        """Every line played, the companion's draws included, in order."""
        return [line for turn in self.turns for line in turn.lines]

    def legal_placements(self) -> dict[str, list[str]]:
        """Where the tile to place may go now: position name to tick corners (G3)."""
        tile = self.state.turn.to_place
        if tile is None:
            return {}
        return {
            p.name(): [c.value for c in corners]
            for p, corners in legal_placements(self.state.board, tile).items()
        }

    # Playing -----------------------------------------------------------------------------------

    def play(self, line: Line | str, *, recorded: bool = False) -> Played:
        """Play one line for the acting player, or raise Refusal / NotationError and change
        nothing (G8.4)."""
        if isinstance(line, str):
            line = parse_line(line)
        new, played = play_line(
            self.state, line, settings=self.settings, roll=self.roll, recorded=recorded
        )
        self._before.append(self.state)
        self.state = new
        turn = self.turns[-1]
        turn.lines.append(played.line)
        turn.kind = self.state.turn.kind if not played.ended else turn.kind
        if played.ended:
            turn.ended = True
            turn.digest = new.digest()
            self._before = []
            if not new.over:
                self._open_turn(played.drew)
        return played

    def play_all(self, lines: Iterable[Line | str]) -> list[Played]:
        return [self.play(line) for line in lines]

    def _open_turn(self, drew: Tile | None) -> None:
        turn = self.state.turn
        record = TurnRecord(turn.number, turn.seat, turn.kind, [])
        if drew is not None:
            record.lines.append(Draw(drew))
        self.turns.append(record)

    def digest(self, turn: TurnRecord) -> str:
        """The digest of the position after the turn's last line so far."""
        return turn.digest if turn.ended else self.state.digest()

    def take_back(self) -> Line:
        """Take back the latest line of the turn in progress (G8.7): not past a mine or the
        draw, and nothing of an ended turn. Returns the line taken back."""
        turn = self.turns[-1]
        if self.state.over or not self._before:
            raise Refusal("nothing of this turn can be taken back: no line of it stands", "G8.7")
        last = turn.lines[-1]
        if isinstance(last, Mine):
            raise Refusal(
                f"{last.text()} stands: a mine's roll is known, so it and the lines before "
                "it cannot be taken back",
                "G8.7",
            )
        if isinstance(last, Draw):
            raise Refusal("the draw stands, and the lines before it", "G8.7")
        self.state = self._before.pop()
        turn.lines.pop()
        turn.kind = self.state.turn.kind
        return last

    # Drafts ------------------------------------------------------------------------------------

    def preview(self, lines: Sequence[Line]) -> Preview:
        """What ``lines`` would do if played now, one after another, without playing them.

        When the companion rolls, a mine's die is not rolled in a preview (G8.7: a roll once
        known stands): the mine shows its cost, and lines after it wait until it is played."""
        state = self.state
        played: list[Played] = []
        for index, line in enumerate(lines):
            refusal = self._draft_refusal(lines, index)
            if refusal is None:
                try:
                    state, done = play_line(state, line, settings=self.settings, roll=self.roll)
                except Refusal as err:
                    refusal = err
            if refusal is not None:
                return Preview(tuple(played), refusal, line, tuple(lines[index + 1 :]), state)
            if isinstance(line, Mine) and self.settings.dice is Dice.COMPANION:
                done = dataclasses.replace(
                    done,
                    line=line,
                    said=(
                        f"mine {line.position}: {done.cost} AP; the die is rolled when the "
                        "line is played",
                    ),
                )
            played.append(done)
        return Preview(tuple(played), None, None, (), state)

    def _draft_refusal(self, lines: Sequence[Line], index: int) -> Refusal | None:
        """The companion's own limits on a draft: a ``timeout`` is the clock's, and when the
        companion rolls, only ``end`` may follow a mine (its roll must be seen first)."""
        line = lines[index]
        if isinstance(line, Timeout):
            return Refusal("only the table's clock times a turn out", "G8.2")
        if self.settings.dice is Dice.COMPANION and not isinstance(line, End):
            for earlier in lines[:index]:
                if isinstance(earlier, Mine):
                    return Refusal(
                        f"the die for {earlier.text()} is rolled when that line is played: "
                        "play the turn up to it, see the roll, then go on",
                        "G8.7",
                    )
        return None

    def check_draft(self, lines: Sequence[Line]) -> list[Played]:
        """The draft's lines if all are allowed now, or the first refusal, naming its line."""
        result = self.preview(lines)
        if result.refused is not None:
            number = len(result.played) + 1
            assert result.refused_line is not None
            raise Refusal(
                f"line {number} ({result.refused_line.text()}): {result.refused.reason}",
                result.refused.ruling,
            )
        return list(result.played)


def replay(settings: Settings, seed: int, turns: Sequence[Sequence[str]]) -> GlobularGame:
    """A game from its recorded turns' lines, each checked as it is played (G8.6).

    Where the companion keeps the stack, a turn's recorded ``draw`` must be the tile the
    companion drew; where it rolls, each recorded face must be the one the seed rolls."""
    game = GlobularGame(settings, seed)
    for number, lines in enumerate(turns, start=1):
        if number > len(game.turns):
            raise Refusal(f"turn {number} is recorded after the game's end", "G8.6")
        current = game.turns[number - 1]
        for index, text in enumerate(lines):
            line = parse_line(text)
            if index < len(current.lines) and number == len(game.turns) and index == 0:
                auto = current.lines[0]
                if isinstance(auto, Draw):
                    if line != auto:
                        raise Refusal(
                            f"turn {number}: the record says {text!r} but the seed's stack "
                            f"gives {auto.text()!r}",
                            "G8.6",
                        )
                    continue
            try:
                game.play(line, recorded=True)
            except Refusal as err:
                raise Refusal(
                    f"turn {number}, line {index + 1} ({text}): {err.reason}", err.ruling
                ) from None
    return game
