"""The Pico's wiring: which GP pins are buttons, LEDs, the RGB LED and the buzzer.

Buttons go between their pin and ground (internal pull-up); LEDs through 330 ohm to ground;
the RGB LED (common cathode) on three PWM pins; an active buzzer on one pin.
"""

from machine import PWM, Pin

BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
LED_PINS = (10, 11, 12, 13, 14, 15, 16, 17)
RGB_PINS = (18, 19, 20)
BUZZER_PIN = 21


class RgbLed:
    def __init__(self, pins):
        self.legs = []
        for number in pins:
            leg = PWM(Pin(number))
            leg.freq(1000)
            self.legs.append(leg)

    def set(self, red, green, blue):
        values = (red, green, blue)
        for index in range(3):
            self.legs[index].duty_u16(values[index] * 257)


def parts():
    """(buttons, leds, rgb, buzzer) on the Pico's pins."""
    buttons = [Pin(n, Pin.IN, Pin.PULL_UP) for n in BUTTON_PINS]
    leds = [Pin(n, Pin.OUT, value=0) for n in LED_PINS]
    return buttons, leds, RgbLed(RGB_PINS), Pin(BUZZER_PIN, Pin.OUT, value=0)
