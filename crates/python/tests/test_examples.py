"""The example programs of PYTHON.md run and do what they say."""

import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def run(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_game_against_bots_ends_with_a_winner_and_its_final_position():
    out = run("play_against_bots.py")
    assert "'type': 'game_won'" in out
    assert "winning side:" in out and " over:" in out


def test_flat_monte_carlo_beats_the_random_bot():
    out = run("flat_monte_carlo.py")
    wins = int(out.split("won ")[1].split(" of")[0])
    assert wins >= 8, out
