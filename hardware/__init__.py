"""Panel drivers built on gpiozero and pyserial (planned)."""
