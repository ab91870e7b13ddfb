"""The built-in bots from Python."""

import pytest

import parchis

CAPTURE = "playgridia individual/4 y:20,h,h,h/b:24,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"


@pytest.mark.parametrize("level", parchis.LEVELS)
def test_a_bot_chooses_one_of_the_legal_moves_and_leaves_the_game_unchanged(level):
    game = parchis.Game.parse(CAPTURE)
    game.roll(5)
    before = str(game)
    assert parchis.Bot(level, seed=1).choose(game) in game.legal_moves()
    assert str(game) == before


def test_the_greedy_bot_takes_a_capture_worth_twenty():
    game = parchis.Game.parse(CAPTURE.replace("y:20,h,h,h", "y:20,30,h,h"))
    game.roll(4)
    assert set(game.legal_moves()) == {"y1:20-24", "y2:30-34"}
    assert parchis.Bot("greedy").choose(game) == "y1:20-24"


def test_a_bot_asked_to_move_when_a_roll_is_due_is_refused():
    with pytest.raises(parchis.PlayError) as refused:
        parchis.Bot("random").choose(parchis.Game())
    assert refused.value.code == "must_roll"


def test_an_unknown_level_is_refused():
    with pytest.raises(parchis.SetupError) as refused:
        parchis.Bot("grandmaster")
    assert refused.value.code == "unknown_level"


def play(bots, seed):
    """One 1v1 game with seeded dice; returns the winning seat."""
    import random

    rng = random.Random(seed)
    game = parchis.Game("playgridia", "1v1")
    while not game.is_over:
        if game.phase == "roll":
            game.roll(rng.randint(1, 6))
        else:
            game.play(bots[game.seat].choose(game))
    return game.winner


def test_the_greedy_bot_beats_the_random_bot_in_most_games():
    wins = sum(play([parchis.Bot("greedy"), parchis.Bot("random", seed=s)], s) == 0 for s in range(10))
    wins += sum(play([parchis.Bot("random", seed=s), parchis.Bot("greedy")], s) == 1 for s in range(10))
    assert wins >= 17, f"greedy won {wins} of 20"


def test_the_same_seed_gives_the_same_choices():
    a, b = parchis.Bot("random", seed=5), parchis.Bot("random", seed=5)
    game = parchis.Game.parse(CAPTURE.replace("y:20,h,h,h", "y:20,30,40,h"))
    game.roll(3)
    assert [a.choose(game) for _ in range(20)] == [b.choose(game) for _ in range(20)]
