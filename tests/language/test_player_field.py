"""`{player}` in a notation (docs/format.md 3.8): the deciding player by name, so one
action serves every player where the records tell their actions apart."""
from interpreter import load_game
from interpreter.frontends.adapters.actions import ActionIndex
from tests.helpers import placing, stones_and_rocks, validate_says, write_definition

# (one action for every player, its notation naming the one who places)
PLACING = placing("").replace("drop stone on sites\n", 'drop stone on sites\n        notation "{player}:{to}"\n')

def _game(tmp_path, rules=PLACING):
    return load_game(write_definition(tmp_path, stones_and_rocks(players=("white", "black", "red"), files=2,
                                                                 ranks=2), rules))


def test_each_player_writes_its_own_name(tmp_path):
    game = _game(tmp_path)
    state = game.initial_state()
    assert sorted(game.legal_notations(state)) == ["white:a1", "white:a2", "white:b1", "white:b2"]
    state = game.apply(state, "white:a1")
    assert sorted(game.legal_notations(state)) == ["black:a2", "black:b1", "black:b2"]
    state = game.apply(state, "black:b2")
    assert sorted(game.legal_notations(state)) == ["red:a2", "red:b1"]
    assert game.engine.perft(game.initial_state(), 3) == [4, 12, 24]


def test_the_fixed_action_space_has_each_player_and_no_none(tmp_path):
    space = ActionIndex(_game(tmp_path))
    assert sorted(space.notation(i) for i in range(len(space))) == sorted(
        f"{p}:{s}" for p in ("white", "black", "red") for s in ("a1", "a2", "b1", "b2"))


def test_the_field_beside_a_value_of_the_action(tmp_path):
    rules = PLACING.replace("action stone:", "action stone for each k in 1 to 2:").replace(
        '"{player}:{to}"', '"{player}{k}{to}"')
    game = _game(tmp_path, rules)
    assert sorted(game.legal_notations(game.initial_state()))[:3] == ["white1a1", "white1a2", "white1b1"]


def test_an_unknown_field_names_player_among_the_known(tmp_path, capsys):
    write_definition(tmp_path, stones_and_rocks(), PLACING.replace("{player}", "{playr}"))
    validate_says(tmp_path, capsys, "{playr}: no such variable, option or value of the action; did you mean "
                                    "{player}?")
