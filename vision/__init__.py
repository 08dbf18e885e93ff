"""Reading the physical board from a camera above the table.

Shared by every game (this top level): the camera reader interface and how a game's reader
is found (:mod:`vision.readers`), the frame sources (:mod:`vision.sources`), settled frames
(:mod:`vision.settle`), the camera attachment and the ``scan`` / ``print-kit`` commands. Each
game that has a camera reader keeps it, with its kit, recognizer and renderer, in a package
of its own (``vision/<game>/``), found only through the game's registration.
"""
