"""boardref hardware package: the only code that touches the physical world.

- ``hardware.panel``: the GPIO panel (LEDs, buzzer, roll and second button) on gpiozero.
- ``hardware.dice_rng``: the fair die the roll button rolls.
- ``hardware.cameras``: camera sources (picamera2, cv2.VideoCapture, recordings, plug-ins).

Import the submodules directly; this package imports nothing itself, so loading one part does
not pull in gpiozero or OpenCV for the other.
"""
