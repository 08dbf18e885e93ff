"""Reading the physical board from a camera above the table (issue 5).

:mod:`vision.kit` loads the kit description (markers, tiles, slots, printed colours) that both
the recognizer (:mod:`vision.recognize`) and the synthetic renderer (:mod:`vision.synthetic`)
read; the two share nothing else. A scan is a :class:`companion.board_scan.BoardScan`, handed
to the table service with :meth:`~companion.service.service.TableService.report_scan`.
"""
