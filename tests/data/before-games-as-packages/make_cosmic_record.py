"""Makes cosmic-cluster-random.json with the code from before issue 14 (commit bad9bf7): 40
steps of random orders (the old random_orders). Run from a checkout of bad9bf7:
``PYTHONPATH=<checkout> python make_cosmic_record.py OUT.json``. local-cluster-demo.json is
``companion demo --seed 7 --players 4 --turns 30 --delay 0 --record OUT.json`` of the same commit;
the .replay.txt files are that commit's ``companion replay`` of each."""

import random
import sys
from pathlib import Path

from companion.cosmic.game import CosmicGame, Phase
from companion.cosmic.record import record_json
from companion.diplomacy.options import random_orders

rng = random.Random(3)
game = CosmicGame(21, 4)
for _ in range(40):
    position = game.position
    if position.phase is Phase.OVER:
        break
    if position.phase is Phase.ORDERS:
        orders = random_orders(game.map, list(position.units), rng)
        game.play_orders(
            {
                power: "\n".join(order.text() for order in orders if order.power == power)
                for power in game.powers
            }
        )
    elif position.phase is Phase.RETREATS:
        game.play_retreats({})
    else:
        game.play_adjustments({})
Path(sys.argv[1]).write_text(record_json(game))
