"""`file(SITE)` and `rank(SITE)` (format.md 3.12.2): a site's file and rank numbers
on a grid, 1 for file a and the bottom rank, 0 for none; an error on a graph."""
from interpreter import load_game
from tests.helpers import placing, stones_and_rocks, validate_says, write_definition

YAML = stones_and_rocks(files=5, ranks=3, extra="variables:\n  f: {}\n  r: {}\n  far: {}\n  nothing: {}\n")
RULES = placing("""\
    f = file(to)
    r = rank(to)
    far = abs(file(to) - file(a1)) + rank(c3)
    nothing = file(neighbour(to, s))
""")


def test_numbers_of_the_site_dropped_on(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    for site, expected in (("a1", (1, 1, 3, 0)), ("e2", (5, 2, 7, 5)), ("c3", (3, 3, 5, 3))):
        state = game.apply(game.initial_state(), f"@{site}")
        values = game.variables(state)
        assert (values["f"], values["r"], values["far"], values["nothing"]) == expected, site


def test_a_graph_has_no_files(tmp_path, capsys):
    yaml = ("game: probe\ntitle: Probe\ndescription: A graph.\nrules: game.rules\nplayers: [white, black]\n"
            "board:\n  graph:\n    sites: {x: [0, 0], y: [1, 0]}\n    edges: [[x, y]]\n"
            "pieces:\n  stone:\nvariables:\n  f: {}\n")
    write_definition(tmp_path, yaml, placing("f = file(to)\n"))
    validate_says(tmp_path, capsys, "'file' needs a grid board: a graph's sites have no files or ranks")


def test_a_define_named_like_the_function_wins_and_is_warned_of(tmp_path, capsys):
    rules = "define rank(s) = 7\n" + RULES
    game = load_game(write_definition(tmp_path, YAML, rules))
    assert game.variables(game.apply(game.initial_state(), "@c3"))["r"] == 7
    from interpreter.frontends.cli import main

    assert main(["validate", str(tmp_path)]) == 0
    assert "game.rules:1:1: warning: 'rank' is also a function of the rules language (rank(SITE), format.md " \
           "3.12.2): in these rules 'rank(...)' is the define" in capsys.readouterr().err
