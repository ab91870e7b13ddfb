"""A four-player Playgridia game: one random mover against three greedy bots, with seeded dice; prints the
events of each turn and the winner. Run after `pip install ./crates/python`: python3 play_against_bots.py"""

import random

import parchis

rng = random.Random(2026)
game = parchis.Game("playgridia", "individual", 4)
bots = [parchis.Bot("random", seed=1)] + [parchis.Bot("greedy") for _ in range(3)]
while not game.is_over:
    if game.phase == "roll":
        events = game.roll(rng.randint(1, 6))
    else:
        events = game.play(bots[game.seat].choose(game))
    for event in events:
        if event["type"] in ("captured", "reached_goal", "game_won"):
            print(event)
print("winning side:", game.winner, "final position:", game)
