"""Flat Monte Carlo with native playouts: for each legal move, play it on a copy and finish that copy
`PLAYOUTS` times at random (`Game.playout`, in Rust); choose the move whose copies the mover's side won most.
It beats the random bot easily. Run after `pip install ./crates/python`: python3 flat_monte_carlo.py"""

import random

import parchis

PLAYOUTS = 40


def monte_carlo_move(game, rng):
    side = game.sides[game.seat]
    best, best_wins = None, -1
    for index, move in enumerate(game.legal_moves()):
        after = game.copy()
        after.play_index(index)
        wins = sum(after.copy().playout(rng.getrandbits(64)) == side for _ in range(PLAYOUTS))
        if wins > best_wins:
            best, best_wins = move, wins
    return best


rng = random.Random(7)
wins = 0
for n in range(10):
    game = parchis.Game("playgridia", "1v1")
    opponent = parchis.Bot("random", seed=n)
    while not game.is_over:
        if game.phase == "roll":
            game.roll(rng.randint(1, 6))
        elif game.seat == 0:
            game.play(monte_carlo_move(game, rng))
        else:
            game.play(opponent.choose(game))
    wins += game.winner == 0
print(f"Monte Carlo won {wins} of 10 against the random bot")
