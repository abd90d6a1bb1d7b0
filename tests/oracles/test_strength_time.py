"""The strength benchmark gives both sides the same time a move: where one move is
several OpenSpiel actions (Amazons: an amazon, then its square), the bot's
searches share the move's time as the regelwerk player's decisions do."""
import pytest

from benchmarks.strength.openspiel import spiel_move


class _State:
    def __init__(self, played=()):
        self.played = tuple(played)

    def clone(self):
        return _State(self.played)

    def apply_action(self, action):
        self.played += (action,)


class _Match:
    def __init__(self, moves):
        self.moves = moves
        self.spiel_state = _State()

    def spiel_moves(self):
        return self.moves


class _Bot:
    """Plays the first action of the first move that continues what it played,
    noting the time it was given for each step."""

    def __init__(self, moves):
        self.moves = moves
        self.given = []
        self.step_seconds = None

    def step(self, state):
        self.given.append(self.step_seconds)
        n = len(state.played)
        return next(move[n] for move in self.moves.values() if move[:n] == state.played)


def test_a_move_of_two_actions_gives_each_search_half_the_time():
    moves = {"a1-b2": (3, 17), "a1-c3": (3, 25), "d4-d5": (8, 40)}
    bot = _Bot(moves)
    assert spiel_move(_Match(moves), bot, 0.5) == "a1-b2"
    assert bot.given == [0.25, 0.25]


def test_a_move_of_one_action_gets_the_whole_time():
    moves = {"b2": (17,), "c3": (25,)}
    bot = _Bot(moves)
    assert spiel_move(_Match(moves), bot, 0.5) == "b2"
    assert bot.given == [0.5]


# -- a move of several regelwerk decisions, and chance (backgammon) -------------

class _Decision:
    def __init__(self, code):
        self.code = code


class _Agent:
    """Chooses the given codes in turn, noting the time it was given."""

    def __init__(self, codes):
        self.codes = list(codes)
        self.seconds = None
        self.given = []

    def choose(self, game, state):
        self.given.append(self.seconds)
        return _Decision(self.codes.pop(0))


class _Game:
    class engine:  # noqa: N801 (stands for the fast layer)
        @staticmethod
        def notation(code):
            return f"#{code}"

    @staticmethod
    def apply(state, action):
        return state + (action.code,)


def test_a_move_of_two_regelwerk_decisions_is_found_by_its_codes_and_shares_the_time():
    from benchmarks.strength.openspiel import regel_move

    # keys as the backgammon adapter writes them: two checkers, or one that wins
    moves = {"p1-p4 p4-p7": (1, 2), "p1-p4 p12-p15": (1, 3), "p24-off:h pass": (9,)}
    agent = _Agent([1, 3])
    assert regel_move(_Game, agent, (), moves, 0.5) == "p1-p4 p12-p15"
    assert agent.given == [0.25, 0.25]
    assert regel_move(_Game, _Agent([9]), (), moves, 0.5) == "p24-off:h pass"


def test_decisions_that_make_no_move_are_an_error_not_a_guess():
    from benchmarks.strength.openspiel import regel_move

    with pytest.raises(RuntimeError, match="#1 #7"):
        regel_move(_Game, _Agent([1, 7]), (), {"a b": (1, 2)}, 0.5)


def test_backgammon_is_played_through_its_rolls_and_two_checker_moves():
    """The match plays OpenSpiel's chance nodes by their odds (the bot is never
    asked to choose a roll) and the default player's two decisions as one move."""
    pytest.importorskip("pyspiel", reason="the match against OpenSpiel needs the bench extra (open_spiel)")
    from benchmarks.catalog import GAMES
    from benchmarks.strength.openspiel import play_game
    from interpreter.frontends.agents import make_agent

    bench = GAMES["backgammon"]
    played = play_game(bench, bench.load(), bench.load_spiel(), lambda seed: make_agent("mcts:8", seed=seed),
                       0.01, index=1, seed=1, max_plies=9)
    assert played.plies == 9  # roll, move, roll, move, ... with neither side failing
    assert len(played.moves) == 9  # (kept with the game's score, to look at a lost game)
    assert played.seconds["regelwerk"] > 0 and played.seconds["openspiel"] > 0


def test_a_game_is_named_as_its_result_files_are():
    """`morris` is the bundled game alone, `morris-benchmark` the benchmark game of
    that name; a name neither is refused with the names known."""
    from benchmarks.strength.__main__ import games_to_play

    assert [label for label, _, _ in games_to_play(["morris"])] == ["morris"]
    assert [(label, kind) for label, kind, _ in games_to_play(["morris-benchmark", "go"])] == [
        ("morris (benchmark)", "benchmark"), ("go", "benchmark")]
    with pytest.raises(ValueError, match="unknown games moris; known: lielow, "):
        games_to_play(["moris"])


def test_a_match_keeps_each_games_moves(tmp_path):
    from benchmarks.strength.__main__ import run_row

    record = run_row(tmp_path, "lielow", "bundled", {}, "greedy", 0.01, 1)
    (game,) = record["games"]
    assert game["default_player"] in ("white", "black") and len(game["moves"]) == game["plies"] > 0


def test_a_matchs_file_says_which_variant_of_the_default_player_played(tmp_path, monkeypatch):
    from benchmarks.strength import __main__ as strength

    monkeypatch.setattr(strength, "METHODS", strength.parse_methods("grave=0"))
    record = strength.run_row(tmp_path, "lielow", "bundled", {}, "greedy", 0.01, 1)
    assert record["methods"] == {"grave": False}
    assert strength.table_row(record).startswith("| lielow (`grave=False`) | `greedy` |")
    # more games of another variant are not added to that file
    monkeypatch.setattr(strength, "METHODS", {})
    with pytest.raises(SystemExit, match=r"holds games of the default player with --methods grave=False; "
                                         r"this run has \(none\): give another --out"):
        strength.run_row(tmp_path, "lielow", "bundled", {}, "greedy", 0.01, 2)


def test_a_table_of_a_folder_without_those_matches_says_what_it_holds(tmp_path, capsys):
    from benchmarks.strength.__main__ import main

    (tmp_path / "tablut-previous-0.25s-cpu.json").write_text('{"games": []}', encoding="utf-8")
    assert main(["tablut", "--table-only", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "--clock wall; it holds tablut-previous-0.25s-cpu.json (`-cpu` files: --clock process)" in err


def test_a_match_from_a_later_game_on_and_its_first_games_added_after(tmp_path):
    from benchmarks.strength.__main__ import run_row

    record = run_row(tmp_path, "lielow", "bundled", {}, "greedy", 0.01, 2, first=1)
    assert [game["index"] for game in record["games"]] == [1]
    seat = record["games"][0]["default_player"]
    record = run_row(tmp_path, "lielow", "bundled", {}, "greedy", 0.01, 2)
    assert [game["index"] for game in record["games"]] == [0, 1]
    assert record["games"][1]["default_player"] == seat != record["games"][0]["default_player"]
    assert run_row(tmp_path, "lielow", "bundled", {}, "greedy", 0.01, 2) == record  # nothing missing: nothing played
