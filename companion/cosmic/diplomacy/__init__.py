"""A general Diplomacy adjudicator for any map given as data (see ``docs/cosmic-cluster.md``).

``geography`` (maps; ``standard_map()``), ``orders`` (``Order.parse``), ``movement``
(``adjudicate_movement``), ``retreats`` (``adjudicate_retreats``), ``adjustments``
(``adjudicate_adjustments``), ``options`` (what a unit may be ordered to do) and ``datc`` (running
the DATC's JSON cases). Pure standard library and deterministic, like the rest of the core.
"""
