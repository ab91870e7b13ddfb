"""The referee from Python: starting, rolling, moving, refusing, and continuing games by their notation."""

import copy
import pickle

import pytest

import parchis

START = "playgridia individual/4 y:h,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"
# Yellow on square 20, blue alone on square 24 (not a safe square), yellow to roll.
CAPTURE = "playgridia individual/4 y:20,h,h,h/b:24,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"


def test_a_new_game_starts_with_every_piece_at_home_and_the_first_seat_to_roll():
    game = parchis.Game("playgridia", "individual", 4)
    assert str(game) == START
    assert (game.phase, game.seat, game.legal_moves(), game.winner) == ("roll", 0, [], None)
    assert game.progress() == [0] * 16
    assert game.piece_names()[:5] == ["y1", "y2", "y3", "y4", "b1"]


def test_the_mode_sets_the_usual_number_of_players_when_none_is_given():
    assert parchis.Game("ludoteka", "3v3").players == 6
    assert parchis.Game("morocco", "1v1").sides == [0, 1]


def test_a_five_brings_a_piece_out_and_exiting_is_the_only_move_in_playgridia():
    game = parchis.Game.parse("playgridia individual/4 y:20,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-")
    assert game.roll(5) == [{"type": "rolled", "seat": 0, "die": 5}]
    assert (game.phase, game.die) == ("move", 5)
    assert game.legal_moves() == ["y2:h-5"]


def test_house_rules_change_the_game_and_show_in_its_notation():
    plain = parchis.Game("ludoteka", "pairs")
    house = parchis.Game("ludoteka", "pairs", house_rules={"capture_bonus": 10, "three_sixes": "off", "lane_blockades": True})
    assert house != plain
    assert parchis.Game.parse(str(house)) == house
    assert house.view()["options"]["capture_bonus"] == 10 and plain.view()["options"]["capture_bonus"] == 20


def test_a_house_rule_that_makes_exiting_optional_lets_the_piece_on_the_circuit_move_too():
    game = parchis.Game("playgridia", "individual", 4, house_rules={"exit_mandatory": False})
    game = parchis.Game.parse(str(game).replace("y:h,h,h,h", "y:20,h,h,h"))
    game.roll(5)
    assert sorted(game.legal_moves()) == ["y1:20-25", "y2:h-5"]


def test_a_capture_sends_the_piece_home_and_grants_a_count_of_20_to_play_next():
    game = parchis.Game.parse(CAPTURE)
    game.roll(4)
    events = game.play("y1:20-24")
    assert {"type": "captured", "piece": "b1", "by": "y1", "at": {"kind": "square", "at": 24}} in events
    assert {"type": "bonus_granted", "seat": 0, "amount": 20} in events
    assert (game.phase, game.count, game.legal_moves()) == ("count", 20, ["y1:24-44"])
    assert game.progress()[4] == 0


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (lambda g: g.play("y1:h-5"), "must_roll"),
        (lambda g: g.roll(7), "bad_die"),
        (lambda g: g.roll(0), "bad_die"),
        (lambda g: g.roll(300), "bad_die"),
        (lambda g: g.play_index(0), "must_roll"),
        (lambda g: g.roll(-2), "bad_die"),
    ],
)
def test_a_refused_action_names_its_code_and_leaves_the_game_unchanged(action, code):
    game = parchis.Game.parse(CAPTURE)
    with pytest.raises(parchis.PlayError) as refused:
        action(game)
    assert refused.value.code == code
    assert str(game) == CAPTURE


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("y1:20-25", "wrong_destination"),
        ("b1:24-28", "not_your_piece"),
        ("z9", "bad_move_syntax"),
        ("y2", "no_legal_move_for_piece"),
    ],
)
def test_an_illegal_or_unreadable_move_is_refused_with_its_code_and_changes_nothing(move, code):
    game = parchis.Game.parse(CAPTURE)
    game.roll(4)
    before = str(game)
    with pytest.raises(parchis.PlayError) as refused:
        game.play(move)
    assert refused.value.code == code, str(refused.value)
    assert str(game) == before
    with pytest.raises(parchis.PlayError) as refused:
        game.roll(3)
    assert refused.value.code == "must_move"
    for index in (1, -1, 2**70):
        with pytest.raises((parchis.PlayError, OverflowError)) as refused:
            game.play_index(index)
        if index < 2**63:
            assert refused.value.code == "no_such_move"
    assert str(game) == before


@pytest.mark.parametrize(
    ("args", "kwargs", "code"),
    [
        (("chess", "individual"), {}, "unknown_rule_set"),
        (("playgridia", "solo"), {}, "unknown_mode"),
        (("playgridia", "pairs", 3), {}, "bad_player_count"),
        (("playgridia", "individual"), {"house_rules": {"six": "13"}}, "bad_option"),
        (("playgridia", "individual"), {"house_rules": {"no_such_rule": "1"}}, "bad_option"),
        (("playgridia", "individual"), {"house_rules": {"pieces_per_colour": 6}}, "bad_option"),
        (("playgridia", "individual"), {"house_rules": {"capture_bonus": 2.5}}, "bad_option"),
        (("playgridia", "individual"), {"house_rules": {3: "1"}}, "bad_option"),
        (("playgridia", "individual", 300), {}, "bad_player_count"),
        (("playgridia", "individual", -1), {}, "bad_player_count"),
    ],
)
def test_a_game_that_cannot_be_set_up_is_refused_with_its_code(args, kwargs, code):
    with pytest.raises(parchis.SetupError) as refused:
        parchis.Game(*args, **kwargs)
    assert refused.value.code == code
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize("text", ["", "playgridia", START.replace("y:h", "y:99"), START + " extra", "\x00" * 40])
def test_a_bad_notation_is_refused_as_a_bad_position(text):
    with pytest.raises(parchis.PositionError) as refused:
        parchis.Game.parse(text)
    assert refused.value.code == "bad_position"


def test_copies_and_pickles_are_independent_games_equal_to_the_original():
    game = parchis.Game.parse(CAPTURE)
    for twin in (game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin == game
        twin.roll(4)
        assert twin != game
    assert str(game) == CAPTURE
    assert eval(repr(game), {"Game": parchis.Game}) == game


def test_the_view_holds_the_pieces_the_turn_and_the_legal_moves_with_their_squares():
    game = parchis.Game.parse(CAPTURE)
    game.roll(4)
    view = game.view()
    assert view["notation"] == str(game)
    assert view["turn"]["phase"] == "move" and view["turn"]["die"] == 4
    assert view["legal_moves"] == [
        {"text": "y1:20-24", "piece": "y1", "from": {"kind": "square", "at": 20}, "to": {"kind": "square", "at": 24}, "captures": True,
         "goal": False, "safe": False, "blockade": False, "bonus": 20}
    ]
    assert {"id": "b1", "colour": "blue"}.items() <= next(p for p in view["pieces"] if p["id"] == "b1").items()


def test_a_playout_plays_to_the_end_the_same_way_for_the_same_seed():
    first, second = parchis.Game(), parchis.Game()
    side = first.playout(11)
    assert second.playout(11) == side
    assert first == second and first.is_over and first.winner == side
    assert first.phase == "over" and first.legal_count == 0
    assert first.playout(12) == side, "a finished game stays finished"
    assert parchis.Game().playout(-1) == parchis.Game().playout(2**64 - 1), "seeds are taken modulo 2**64"
    assert max(first.progress()) == 72
