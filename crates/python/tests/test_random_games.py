"""Every rule set and mode plays to its end through the Python API, each move one of the legal ones."""

import random

import pytest

import parchis

MODES = {
    "playgridia": ["individual", "quick", "pairs", "1v1", "6-piece"],
    "ludoteka": ["individual", "quick", "pairs", "1v1", "6-piece", "3v3"],
    "morocco": ["individual", "1v1"],
}
CASES = [(rules, mode) for rules, modes in MODES.items() for mode in modes]


@pytest.mark.parametrize(("rules", "mode"), CASES)
def test_random_games_end_with_a_winner_and_their_notation_round_trips(rules, mode):
    rng = random.Random(f"{rules}/{mode}")
    for _ in range(3):
        game = parchis.Game(rules, mode)
        actions = 0
        while not game.is_over:
            assert parchis.Game.parse(str(game)) == game
            if game.phase == "roll":
                game.roll(rng.randint(1, 6))
            else:
                legal = game.legal_moves()
                assert len(legal) == game.legal_count > 0
                game.play(rng.choice(legal))
            actions += 1
            assert actions < 20_000, "the game should end"
        assert game.winner in game.sides


def test_the_modes_listed_by_the_module_are_those_the_games_accept():
    assert set(parchis.MODES) == {mode for modes in MODES.values() for mode in modes} | {"3v3"}
    assert parchis.RULE_SETS == ("playgridia", "ludoteka", "morocco")
    assert "exit_mandatory" in parchis.HOUSE_RULES and "pieces_per_colour" not in parchis.HOUSE_RULES
