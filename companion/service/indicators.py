"""What a table's lights and buzzer show, decided once for every panel.

The GPIO panel, the USB serial panel and the table screen's virtual panel all show the same
thing, so it is decided here, as pure code, from a table's public view
(:meth:`TableService.view(table_id) <companion.service.service.TableService.view>`):

- each seat's LED: **off** when the stage waits for nothing from that seat, **blinking** while
  its orders, retreats, build plan or setup choice are awaited, **steady** once it submitted or
  pressed ready;
- the table's phase colour, the one its :class:`~companion.service.session.Stage` asks for
  (each game names its stages' colours), blinking while the table is paused;
- buzzer cues, from two views in a row (:func:`cues`): a beep for each of the last 10 seconds
  of a running timer, and a chime when the phase changes.

Nothing here reads a clock or touches hardware; the panels turn these values into pins and
serial commands.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from typing import Any

from companion import games
from companion.service.session import Stage, StageKind

COUNTDOWN_SECONDS = 10
"""The buzzer beeps once a second for this many last seconds of a running timer."""


class SeatLight(enum.Enum):
    """A seat LED's state."""

    OFF = "off"
    BLINK = "blink"
    STEADY = "steady"


class Cue(enum.Enum):
    """Something the buzzer sounds."""

    COUNTDOWN = "countdown"
    """One short beep: a second of the last ten of the timer has gone."""
    PHASE = "phase"
    """A longer chime: a new phase (or the end of the game) has begun."""


RGB = tuple[float, float, float]
"""A colour as red, green and blue from 0 to 1 (gpiozero's RGBLED takes these)."""

LIGHT_COLOURS: Mapping[str, RGB] = {
    "dim white": (0.2, 0.2, 0.2),  # seats joining and choosing
    "blue": (0.0, 0.0, 1.0),  # talk
    "green": (0.0, 1.0, 0.0),  # write orders, make a move
    "red": (1.0, 0.0, 0.0),  # retreats owed
    "amber": (1.0, 0.6, 0.0),  # build
    "magenta": (1.0, 0.0, 1.0),  # game over
    "cyan": (0.0, 1.0, 1.0),
    "white": (1.0, 1.0, 1.0),
}
"""The phase LED's colour for each light a stage may ask for (``Stage.light``)."""


@dataclasses.dataclass(frozen=True)
class SeatIndicator:
    """One seat's LED and why it shows that, in words for a log line or a tooltip."""

    seat: int
    light: SeatLight
    reason: str
    ready: bool = False
    """The seat has pressed ready in this stage (a further press changes nothing)."""

    def describe(self) -> str:
        """``"seat 2 LED blinking (orders awaited)"``."""
        shown = {SeatLight.OFF: "off", SeatLight.BLINK: "blinking", SeatLight.STEADY: "steady"}
        return f"seat {self.seat} LED {shown[self.light]} ({self.reason})"


@dataclasses.dataclass(frozen=True)
class Indicators:
    """Everything a panel shows for one table at one moment."""

    stage: Stage
    turn: int
    paused: bool
    colour: RGB
    seats: tuple[SeatIndicator, ...]
    countdown: int | None
    """Whole seconds left (1 to 10) in the last ten seconds of a running timer, else None."""

    @property
    def colour_blinks(self) -> bool:
        """The phase LED blinks while the table is paused."""
        return self.paused

    def seat(self, number: int) -> SeatIndicator:
        for indicator in self.seats:
            if indicator.seat == number:
                return indicator
        raise KeyError(f"this table has no seat {number}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a web page's virtual panel (JSON)."""
        return {
            "stage": self.stage.value,
            "turn": self.turn,
            "paused": self.paused,
            "colour": list(self.colour),
            "colour_blinks": self.colour_blinks,
            "countdown": self.countdown,
            "seats": [
                {
                    "seat": s.seat,
                    "light": s.light.value,
                    "reason": s.reason,
                    "ready": s.ready,
                    "text": s.describe(),
                }
                for s in self.seats
            ],
        }

    def describe_colour(self) -> str:
        """``"phase LED green (Orders)"``, ``"phase LED blue blinking (Discussion, paused)"``."""
        name = self.stage.light
        if self.paused:
            return f"phase LED {name} blinking ({self.stage.title}, paused)"
        return f"phase LED {name} ({self.stage.title})"


def indicators(view: Mapping[str, Any]) -> Indicators:
    """The lights for a table's public view (``TableService.view(table_id)``)."""
    stage = games.get(view["game_name"]).stage(view["stage"])
    paused = bool(view.get("paused", False))
    seats = tuple(_seat(stage, view, seat) for seat in view["seats"])
    return Indicators(
        stage=stage,
        turn=int(view.get("turn", 0)),
        paused=paused,
        colour=LIGHT_COLOURS[stage.light],
        seats=seats,
        countdown=_countdown(stage, paused, view.get("remaining")),
    )


def _seat(stage: Stage, view: Mapping[str, Any], seat: Mapping[str, Any]) -> SeatIndicator:
    number = int(seat["seat"])
    if stage.kind is StageKind.LOBBY:
        if view.get("next_to_choose") == number:
            verb = "join and choose" if not seat.get("joined") else "setup choice"
            return SeatIndicator(number, SeatLight.BLINK, f"{verb} awaited")
        if seat.get("choice") is not None:
            return SeatIndicator(number, SeatLight.STEADY, "chosen")
        return SeatIndicator(number, SeatLight.OFF, "waiting for its turn to choose")
    if stage.kind is StageKind.OVER:
        return SeatIndicator(number, SeatLight.OFF, "game over")
    if not seat.get("awaited"):
        return SeatIndicator(number, SeatLight.OFF, "nothing to do")
    if seat.get("ready"):
        return SeatIndicator(number, SeatLight.STEADY, "ready", ready=True)
    if seat.get("submitted"):
        return SeatIndicator(number, SeatLight.STEADY, f"{stage.awaited} submitted")
    if stage.kind is StageKind.DISCUSSION:
        return SeatIndicator(number, SeatLight.OFF, "discussing")
    if stage.kind is StageKind.TURN:
        return SeatIndicator(number, SeatLight.BLINK, f"its turn: {stage.awaited} awaited")
    return SeatIndicator(number, SeatLight.BLINK, f"{stage.awaited} awaited")


def _countdown(stage: Stage, paused: bool, remaining: Any) -> int | None:
    if paused or remaining is None or not stage.playing:
        return None
    seconds = math.ceil(float(remaining))
    if 1 <= seconds <= COUNTDOWN_SECONDS:
        return seconds
    return None


def cues(before: Indicators | None, after: Indicators) -> tuple[Cue, ...]:
    """What the buzzer sounds going from one view's indicators to the next.

    A new stage or turn chimes (not the first view a panel sees: it was not there for the
    change); each new whole second of the countdown beeps once, however often the view is read.
    """
    if before is None:
        return ()
    if (before.stage, before.turn) != (after.stage, after.turn):
        return (Cue.PHASE,)
    if after.countdown is not None and after.countdown != before.countdown:
        return (Cue.COUNTDOWN,)
    return ()
