"""The GPIO panel: seat buttons and LEDs, a phase RGB LED, a buzzer and the host button.

It shows what :mod:`companion.service.indicators` decides for the table's current view,
refreshed on every event the service publishes for the table, and turns presses into service
commands:

- a seat button marks that seat ready (in the command phase: its orders are final), for the
  stage the panel was showing when pressed, so a late press never counts for the next phase;
- the host button pauses or resumes on a short press and skips to the next phase when held
  (2 seconds by default).

Devices come from the pin factory given (gpiozero's mock pins in tests and off the Pi).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.service.indicators import Cue, Indicators, SeatLight, cues, indicators
from companion.service.service import TableService
from hardware.config import GpioPanelConfig
from hardware.errors import PanelClosed, PinsUnavailable

log = logging.getLogger("hardware.panel")

BEEPS = {Cue.COUNTDOWN: (0.08, 0.05, 1), Cue.PHASE: (0.3, 0.15, 2)}
"""Buzzer patterns: seconds on, seconds off, repeats."""


class GpioPanel:
    """A panel on the Pi's GPIO header for one table. Close it to release pins and threads."""

    def __init__(
        self,
        service: TableService,
        table_id: str,
        config: GpioPanelConfig,
        *,
        pin_factory: Any,
        monotonic: Callable[[], float] = time.monotonic,
        close_factory: bool = False,
    ) -> None:
        from gpiozero import LED, RGBLED, Button, Buzzer

        self.service = service
        self.table_id = table_id
        self.config = config
        self._pin_factory = pin_factory
        self._close_factory = close_factory
        """Close the pin factory with the panel (one the panel's attach function opened)."""
        self._monotonic = monotonic
        self._lock = threading.RLock()
        self._closed = False
        self.shown: Indicators | None = None
        """What the panel shows now (None before the first refresh)."""
        self.refreshes = 0
        self._last_press: dict[int, float] = {}
        self._host_held = False
        self._devices: list[Any] = []
        seats = len(service.view(table_id)["seats"])
        wired = min(seats, len(config.seat_buttons))
        if seats > wired:
            log.warning("panel: the table has %d seats but only %d are wired", seats, wired)
        try:
            self.buttons: dict[int, Any] = {}
            self.leds: dict[int, Any] = {}
            for index in range(wired):
                seat = index + 1
                button = self._add(
                    Button(
                        config.seat_buttons[index],
                        bounce_time=config.bounce_time or None,
                        pin_factory=pin_factory,
                    )
                )
                button.when_pressed = self._press_handler(seat)
                self.buttons[seat] = button
                self.leds[seat] = self._add(LED(config.seat_leds[index], pin_factory=pin_factory))
            self.phase_led = self._add(RGBLED(*config.phase_led, pin_factory=pin_factory))
            self.buzzer = self._add(Buzzer(config.buzzer, pin_factory=pin_factory))
            self.host_button = self._add(
                Button(
                    config.host_button,
                    bounce_time=config.bounce_time or None,
                    hold_time=config.hold_time,
                    pin_factory=pin_factory,
                )
            )
            self.host_button.when_pressed = self._host_pressed
            self.host_button.when_held = self._host_held_down
            self.host_button.when_released = self._host_released
            self._subscription = service.subscribe(table_id)
        except Exception as err:
            self._close_devices()
            raise PinsUnavailable(
                f"the GPIO panel cannot claim its pins ({type(err).__name__}: {err}); check "
                f"[panel] for pins other hardware uses, and that this user is in the gpio group"
            ) from err
        except BaseException:
            self._close_devices()
            raise
        try:
            self.refresh()
        except BaseException:
            self._subscription.close()
            self._close_devices()
            raise
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="gpio-panel", daemon=True)
        self._thread.start()

    def _add(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    # Showing -------------------------------------------------------------------------------------

    def _follow(self) -> None:
        while not self._stop.is_set():
            event = self._subscription.get(timeout=0.1)
            if event is None:
                continue
            self._subscription.drain()  # one refresh shows every event queued so far
            try:
                self.refresh()
            except PanelClosed:
                return
            except CompanionError as err:
                log.error("panel: cannot show table %s: %s", self.table_id, err)

    def refresh(self) -> None:
        """Show the table's current view: LEDs, phase colour, and any buzzer cue."""
        view = self.service.view(self.table_id)
        with self._lock:
            if self._closed:
                raise PanelClosed("the GPIO panel has been closed")
            shown = indicators(view)
            before = self.shown
            for seat, led in self.leds.items():
                now = shown.seat(seat)
                if before is not None and before.seat(seat).light is now.light:
                    continue
                self._show_seat(led, now.light)
                log.info("panel: %s", now.describe())
            if before is None or (before.colour, before.paused) != (shown.colour, shown.paused):
                self._show_phase(shown)
                log.info("panel: %s", shown.describe_colour())
            for cue in cues(before, shown):
                on, off, repeats = BEEPS[cue]
                self.buzzer.beep(on, off, n=repeats)
                log.info("panel: buzzer %s", cue.value)
            self.shown = shown
            self.refreshes += 1

    def _show_seat(self, led: Any, light: SeatLight) -> None:
        if light is SeatLight.BLINK:
            led.blink(self.config.blink_time, self.config.blink_time)
        elif light is SeatLight.STEADY:
            led.on()
        else:
            led.off()

    def _show_phase(self, shown: Indicators) -> None:
        if shown.colour_blinks:
            blink = self.config.blink_time
            self.phase_led.blink(blink, blink, on_color=shown.colour)
        else:
            self.phase_led.color = shown.colour

    # Pressing ------------------------------------------------------------------------------------

    def _press_handler(self, seat: int) -> Callable[[], None]:
        def pressed() -> None:
            self.press(seat)

        return pressed

    def press(self, seat: int) -> None:
        """A seat's button went down: mark it ready for the stage on show."""
        with self._lock:
            if self._closed:
                raise PanelClosed("the GPIO panel has been closed")
            now = self._monotonic()
            last = self._last_press.get(seat)
            if last is not None and now - last < self.config.bounce_time:
                log.debug("panel: seat %d bounce ignored", seat)
                return
            self._last_press[seat] = now
            shown = self.shown
        if shown is None:
            return
        if shown.seat(seat).ready:
            log.info("panel: seat %d is already ready", seat)
            return
        try:
            self.service.set_ready(self.table_id, seat, True, stage=shown.stage)
            log.info("panel: seat %d pressed ready (%s)", seat, shown.stage.title)
        except CompanionError as err:
            log.info("panel: seat %d press not counted: %s", seat, err)

    def _host_pressed(self) -> None:
        self._host_held = False

    def _host_held_down(self) -> None:
        self._host_held = True
        try:
            self.service.skip(self.table_id)
            log.info("panel: host held the button: skipped to the next phase")
        except CompanionError as err:
            log.info("panel: host skip refused: %s", err)

    def _host_released(self) -> None:
        if self._host_held:
            return
        try:
            if self.service.view(self.table_id)["paused"]:
                self.service.resume(self.table_id)
                log.info("panel: host resumed the table")
            else:
                self.service.pause(self.table_id)
                log.info("panel: host paused the table")
        except CompanionError as err:
            log.info("panel: host pause/resume refused: %s", err)

    # Closing -------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop following the table, turn everything off and release the pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._subscription.close()
        self._close_devices()
        if self._close_factory:
            self._pin_factory.close()  # lgpio's gpiochip handle, say: a new panel opens another

    def _close_devices(self) -> None:
        # Each gpiozero Button takes up to 0.1 s to stop its hold thread: close them together.
        closers = [
            threading.Thread(target=device.close, name="gpio-panel-close")
            for device in reversed(self._devices)
        ]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()
        self._devices.clear()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> GpioPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
