"""Camera capture and board recognition (planned)."""
