"""Reading the physical board from a camera above the table.

Shared by every game (this top level): the frame sources (:mod:`vision.sources`), settled
frames (:mod:`vision.settle`), the camera attachment and the ``scan`` / ``print-kit``
commands. Each game that has a camera reader keeps it in a package of its own (Local
Cluster's: :mod:`vision.local_cluster`, its kit, recognizer and renderer), found only through
the game's registration.
"""
