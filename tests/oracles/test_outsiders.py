"""The games outsiders wrote from the docs alone (benchmarks/outsiders/, each with its
README) still agree with OpenSpiel move by move: a few random games each through the
game's own `agree.py` (its notation of OpenSpiel's actions, the shared oracle.py), the
legal moves, chance outcomes, player to move, end and winner compared at every ply.
These definitions are the format as the docs teach it: a change that breaks one
breaks what an author would write. Skipped without pyspiel (the rl extra)."""
from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from types import ModuleType

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the oracle is OpenSpiel: the rl extra (pip install -e '.[rl]')")

import importlib.metadata  # noqa: E402

from interpreter import load_game  # noqa: E402
from tests.helpers import REPO, outsider_script  # noqa: E402

# The games were written against OpenSpiel 2.0; the releases for Python 3.10 (1.6)
# have neither Gomoku nor Banqi and end Ultimate tic-tac-toe's small boards otherwise.
OPENSPIEL_VERSION = importlib.metadata.version("open_spiel")
pytestmark = pytest.mark.skipif(
    int(OPENSPIEL_VERSION.split(".")[0]) < 2,
    reason=f"the outsiders' games follow OpenSpiel 2.0 and later; installed: {OPENSPIEL_VERSION}"
           " (Python 3.10 gets 1.6; CI's newest Python runs these)")

OUTSIDERS = REPO / "benchmarks" / "outsiders"


def _script(game: str) -> ModuleType:
    """The game's agree.py, imported as a module (it finds oracle.py beside it)."""
    return outsider_script(game)  # type: ignore[no-any-return]


def _oracle() -> ModuleType:
    _script("gomoku")  # (puts benchmarks/outsiders on the path, as every script does)
    import oracle  # type: ignore[import-not-found]

    return oracle


@pytest.mark.parametrize("game, openspiel, writer, games, plies_a_game", [
    ("einstein", "einstein_wurfelt_nicht", "write", 4, 10),
    ("ultimate_tic_tac_toe", "ultimate_tic_tac_toe", "to_notation", 4, 10),
    ("dots_and_boxes", "dots_and_boxes", "to_notation", 6, 10),
    ("gomoku", "gomoku", "to_notation", 3, 10),
    ("pig", "pig", "write", 4, 10),
    # Written fresh (their READMEs): Pentago, one action a move — the marble and the
    # quarter's turn, both players' lines asked after it, the full board; Breakthrough,
    # the step straight or diagonal onto empty and the diagonal capture as one action,
    # the far rank, the last piece taken; checkers, one action a jump, the chain going on
    # by the same piece while it can jump, a man crowned by a jump stopping there,
    # captures forced, the 40-action draw; xiangqi, the general found as it stands for
    # the check, stalemate a loss, the draw at 500 plies; Hex, the group of the stone
    # placed asked for both edges; nine men's morris, a step or a fly as one action, the
    # mill's removal a follow-up, the turn limit asked before each turn; chess, the self-check
    # a `forbid result`, en passant a site variable, OpenSpiel's draw rules in its order;
    # Othello, format.md 3.5's fragment with OpenSpiel's square names and its pass; Connect
    # Four, a drop onto a site whose lower neighbour is not empty, rays counted both ways;
    # Clobber, a step onto an enemy, the player left without a move losing.
    ("pentago", "pentago", "write", 5, 10),
    ("breakthrough", "breakthrough", "write", 4, 30),
    ("checkers", "checkers", "write", 4, 30),
    ("xiangqi", "xiangqi", "write", 2, 30),
    ("hex", "hex", "to_notation", 4, 10),
    ("nine_mens_morris", "nine_mens_morris", "write", 3, 30),
    ("chess", "chess", "write", 2, 30),
    ("othello", "othello", "write", 4, 30),
    ("connect_four", "connect_four", "to_notation", 4, 10),
    ("clobber", "clobber", "to_notation", 4, 10),
    ("chess960", "chess(chess960=true)", "write", 2, 30),
])
def test_an_outsiders_game_agrees_with_openspiel(game, openspiel, writer, games, plies_a_game):
    write = getattr(_script(game), writer)
    plies, problems = _oracle().play_and_compare(load_game(str(OUTSIDERS / game)), pyspiel.load_game(openspiel),
                                                 write, games, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > plies_a_game * games


@pytest.mark.parametrize("game, openspiel, writer, params, games", [
    ("chinese_checkers", "chinese_checkers", "write", {"players": 3, "max_moves": 40}, 3),
    ("y", "y", "to_notation", {"board_size": 9}, 4),
    ("mnk", "mnk", "to_notation", {"m": 7, "n": 6, "k": 4}, 4),
    ("dots_and_boxes", "dots_and_boxes", "to_notation", {"num_rows": 2, "num_cols": 3}, 4),
    ("quoridor", "quoridor", "to_notation", {"board_size": 5}, 3),
    ("quoridor", "quoridor", "to_notation", {"board_size": 6, "wall_count": 3}, 2),
    ("hex", "hex", "to_notation", {"board_size": 5, "swap": True}, 4),
    ("hex", "hex", "to_notation", {"num_cols": 4, "num_rows": 7}, 3),
])
def test_an_outsiders_game_with_options_agrees_with_openspiel(game, openspiel, writer, params, games):
    write = getattr(_script(game), writer)
    plies, problems = _oracle().play_and_compare(load_game(str(OUTSIDERS / game), options=params),
                                                 pyspiel.load_game(openspiel, params), write, games, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 10 * games


@pytest.mark.parametrize("misere", [True, False])
def test_nim_agrees_with_openspiel(misere):
    # (a game of Nim from 1, 3, 5, 7 counters is 6 to 16 takes)
    params = {"is_misere": misere}
    plies, problems = _oracle().play_and_compare(load_game(str(OUTSIDERS / "nim"), options=params),
                                                 pyspiel.load_game("nim", params), _script("nim").write, 10, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies >= 6 * 10


@pytest.mark.parametrize("game, check, params, games", [
    ("yacht", "same_totals", {"players": 2}, 1),
    ("2048", "same_score", {"max_tile": 64}, 3),
    ("morpion_solitaire", "same_score", {}, 2),
])
def test_an_outsiders_game_agrees_with_openspiel_to_the_scores(game, check, params, games):
    # Every player's total (Yacht) and the one player's score (2048) compared at the end,
    # beside the winner.
    script = _script(game)
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / game), options=params), pyspiel.load_game(game, params), script.write, games,
        seed=5, check_end=getattr(script, check))
    assert not problems, "\n".join(map(str, problems))
    assert plies > 10 * games


@pytest.mark.parametrize("params", [{}, {"board_width": 5, "board_height": 5}])
def test_battleship_agrees_with_openspiel_to_the_returns(params):
    # Both fleets placed (a placement only where the ships left still fit), then the shots;
    # both players' returns compared at the end (benchmarks/outsiders/battleship/README.md).
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "battleship"), options=params), pyspiel.load_game("battleship", params),
        _script("battleship").write, 2, seed=5, check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 10 * 2


def test_gin_rummy_agrees_with_openspiel_to_the_returns():
    # The deal, the upcard, draws, knocks with melds and layoffs, the wall; both
    # players' returns compared at the end (benchmarks/outsiders/gin_rummy/README.md).
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "gin_rummy")), pyspiel.load_game("gin_rummy"), _script("gin_rummy").write, 2,
        seed=5, check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 30 * 2


def test_bridge_agrees_with_openspiel_to_the_returns():
    # The deal, the auction (doubles, redoubles, the declarer by the first to name the
    # strain), the play with the dummy's cards played by the declarer, the duplicate
    # score; every player's return compared (benchmarks/outsiders/bridge/README.md).
    script = _script("bridge")
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "bridge")), pyspiel.load_game("bridge", script.OS_PARAMS), script.write, 2,
        seed=5, check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 100 * 2


@pytest.mark.parametrize("size, players, games", [(9, 2, 2), (5, 4, 4), (7, 3, 2)])
def test_quoridor_written_fresh_agrees_with_openspiel(size, players, games):
    # Written without the other Quoridor: OpenSpiel's lattice of pawns and wall nodes,
    # jumps straight and to the side, every player's path kept open, four players'
    # turn order p1, p3, p2, p4; its own loop (returns by seat in turn order, a pass
    # OpenSpiel cannot play ends the comparison): benchmarks/outsiders/quoridor_fresh/README.md.
    params = {"board_size": size, "players": players}
    rw_game = load_game(str(OUTSIDERS / "quoridor_fresh"), options=params)
    assert _script("quoridor_fresh").compare(rw_game, pyspiel.load_game("quoridor", params), games, seed=5) == 0


@pytest.mark.parametrize("game, params", [("oware", {}), ("oware", {"num_seeds_per_house": 2}), ("mancala", {})])
def test_a_sowing_game_agrees_with_openspiel_to_the_scores(game, params):
    # Both players' seeds compared at the end beside the winner (each game's README).
    script = _script(game)
    options = {name: int(value) for name, value in params.items()}
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / game), options=options), pyspiel.load_game(game, params), script.to_notation, 3,
        seed=5, check_end=script.same_scores)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 10 * 3


@pytest.mark.parametrize("game, variant, params, games", [
    ("kuhn_poker", None, {}, 20), ("leduc_poker", None, {}, 10),
    ("kuhn_poker", "players", {"players": 3}, 10), ("leduc_poker", "players", {"players": 3}, 5),
])
def test_a_poker_game_agrees_with_openspiel_to_the_chips(game, variant, params, games):
    # The cards dealt and every player's chips compared at the end (each game's README).
    script = _script(game)
    path = OUTSIDERS / game
    rw_game = load_game(str(path), variant=str(path / "variants" / f"{variant}.yaml") if variant else None,
                        options=params)
    write = script.write_players if variant else script.write
    plies, problems = _oracle().play_and_compare(rw_game, pyspiel.load_game(game, params), write, games, seed=5,
                                                 check_end=script.same_end)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 2 * games


@pytest.mark.parametrize("params, bidding_rule, games", [({}, "reset-face", 20), ({"numdice": 2}, "reset-quantity", 6)])
def test_liars_dice_agrees_with_openspiel_to_the_returns(params, bidding_rule, games):
    # Every return and the dice rolled compared at the end (its README); the bidding
    # rule a text option.
    script = _script("liars_dice")
    rw_game = load_game(str(OUTSIDERS / "liars_dice"), options={**params, "bidding_rule": bidding_rule})
    os_game = pyspiel.load_game("liars_dice", {**params, "bidding_rule": bidding_rule})
    plies, problems = _oracle().play_and_compare(rw_game, os_game, script.write, games, seed=5,
                                                 check_end=script.same_end)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 3 * games


def test_liars_dice_with_three_players_agrees_with_openspiels_code_written_out():
    # OpenSpiel refuses more than two players: the other side is its liars_dice.cc in
    # Python (checked against OpenSpiel itself at two players by its author).
    script = _script("liars_dice")
    rw_game = load_game(str(OUTSIDERS / "liars_dice"), options={"players": 3, "numdice": 2})
    plies, problems = _oracle().play_and_compare(rw_game, script.Transcription(3, 2, 6, "reset-face"), script.write,
                                                 6, seed=5, check_end=script.same_end)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 3 * 6


@pytest.mark.parametrize("variant", [None, "dealer-seat"])
def test_hearts_agrees_with_openspiel_to_the_points(variant):
    # The deal, the pass of three cards, the tricks and every seat's points (its README).
    script = _script("hearts")
    path = OUTSIDERS / "hearts"
    rw_game = load_game(str(path), variant=str(path / "variants" / f"{variant}.yaml") if variant else None)
    plies, problems = _oracle().play_and_compare(rw_game, pyspiel.load_game("hearts"), script.write, 2, seed=5,
                                                 check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 2 * (52 + 12 + 52)


@pytest.mark.parametrize("variant, openspiel", [(None, "python_block_dominoes"), ("team", "python_team_dominoes")])
def test_dominoes_agree_with_openspiel_to_the_hands_and_returns(variant, openspiel):
    # The deal tile by tile, a tile on either end, the skips, the end and the pips (its README).
    script = _script("dominoes")
    path = OUTSIDERS / "dominoes"
    rw_game = load_game(str(path), variant=str(path / "variants" / f"{variant}.yaml") if variant else None)
    plies, problems = _oracle().play_and_compare(rw_game, pyspiel.load_game(openspiel), script.write, 4, seed=3,
                                                 check_end=script.same_end)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 4 * len(rw_game.players) * 7


def test_twixt_agrees_with_openspiel_to_the_links():
    # Pegs, the links made and refused where they would cross, the swap, the end
    # (its README). In a process of its own: OpenSpiel keeps the observation
    # tensor's shape (the links are read from it) of the first size it loads.
    script = OUTSIDERS / "twixt" / "agree.py"
    done = subprocess.run([sys.executable, str(script), "--games", "4", "--seed", "2", "--sizes", "5",
                           "--swap-bias", "0.5"], capture_output=True, text=True, cwd=REPO, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "size 5: 4 of 4 games agree" in done.stdout, done.stdout


@pytest.mark.parametrize("size", [4, 5])
def test_havannah_agrees_with_openspiel_side_by_side(size):
    # the hexagon's side an option: the grid's size and the regions written with it
    game = load_game(str(OUTSIDERS / "havannah"), options={"board_size": size})
    plies, problems = _oracle().play_and_compare(game, pyspiel.load_game("havannah", {"board_size": size}),
                                                 _script("havannah").to_notation, 4, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 10 * 4


@pytest.mark.parametrize("game, params", [("blackjack", {}), ("catch", {"rows": 6, "columns": 4})])
def test_a_short_one_player_game_agrees_with_openspiel_to_the_score(game, params):
    # Blackjack's deck: a card drawn among those not dealt (`outcomes one of`,
    # benchmarks/outsiders/blackjack/README.md); Catch sized by its options.
    # Games of a few plies each: more of them.
    script = _script(game)
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / game), options=params), pyspiel.load_game(game, params), script.write, 20,
        seed=5, check_end=script.same_score)
    assert not problems, "\n".join(map(str, problems))
    assert plies >= 4 * 20


@pytest.mark.parametrize("players, side_by_side", [(2, False), (4, False), (2, True)])
def test_mensch_aergere_dich_nicht_agrees_with_openspiel(players, side_by_side):
    argv = ["--players", str(players)] + (["--side-by-side"] if side_by_side else [])
    definition, write, options, os_params, _ = _script("maedn").setting(argv)
    plies, problems = _oracle().play_and_compare(load_game(definition, options=options),
                                                 pyspiel.load_game("maedn", os_params), write, 2, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 100


def test_banqi_agrees_with_openspiel_by_the_piece_each_flip_turns_up():
    # The format's outcomes have fixed weights: one event per count of face-down
    # pieces, each outcome an index among them; compared with OpenSpiel's outcome per
    # kind by the piece turned up (benchmarks/outsiders/banqi/README.md).
    script = _script("banqi")
    game = script.RevealByPiece(load_game(str(OUTSIDERS / "banqi")))
    plies, problems = _oracle().play_and_compare(game, pyspiel.load_game("banqi"), script.write, 2, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 100


def test_hive_agrees_with_openspiel_by_what_each_move_does():
    # Moves compared by effect (OpenSpiel's UHP texts name pieces relative to
    # others); games where OpenSpiel's documented quirks or the fixed board's rim
    # decide are told apart from disagreements (benchmarks/outsiders/hive/README.md).
    script = _script("hive")
    game, os_game = load_game(str(OUTSIDERS / "hive")), pyspiel.load_game(script.OPENSPIEL)
    rng, seen = random.Random(7), [0]
    outcomes = [script.play(game, os_game, rng, seen)[0] for _ in range(3)]
    assert set(outcomes) <= {"agree", "os_unpinned", "rim", "os_board_limit"}, outcomes
    assert "agree" in outcomes and seen[0] > 100


def test_shogi_agrees_with_openspiel_and_in_positions_random_games_seldom_reach():
    # Drops, promotion, the pawn drop that may not mate, entering king, perpetual
    # check, repetition (its README); the chosen positions are OpenSpiel's SFEN read
    # on both sides, and a game played on from each.
    script = _script("shogi")
    plies, problems = _oracle().play_and_compare(load_game(str(OUTSIDERS / "shogi")), pyspiel.load_game("shogi"),
                                                 script.write, 1, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 50
    assert script.positions(["--games", "1"]) == 0


@pytest.mark.parametrize("players", [2, 5])
def test_crazy_eights_agrees_with_openspiel_to_the_returns(players):
    # The dealer and the deal, the draws and the draw limit, the eights' suits, the
    # scoring by the cards left (its README).
    script = _script("crazy_eights")
    rw_game = load_game(str(OUTSIDERS / "crazy_eights"), options={"players": players})
    os_game = script._RaisedGame(pyspiel.load_game("crazy_eights", {"players": players}))
    plies, problems = _oracle().play_and_compare(rw_game, os_game, script.write, 3, seed=5,
                                                 check_end=script.same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 3 * 5 * players


def test_cribbage_agrees_with_openspiel_to_the_points_after_every_action():
    # The deal, the crib, the cut, the pegging and the show, to 121 (its README).
    script = _script("cribbage")
    assert script.compare_scores(["--games", "1", "--seed", "5"]) == 0
    plies, problems = _oracle().play_and_compare(load_game(str(OUTSIDERS / "cribbage")),
                                                 pyspiel.load_game("cribbage"), script.write, 1, seed=5,
                                                 check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 100


@pytest.mark.parametrize("params", [{}, {"players": 4, "num_tricks_fixed": 5}])
def test_oh_hell_agrees_with_openspiel_to_the_returns(params):
    # The tricks and the dealer drawn, the deal, the trump, the bids (the dealer's
    # restriction), following suit, the score (its README).
    script = _script("oh_hell")
    rw_game = load_game(str(OUTSIDERS / "oh_hell"), options=params)
    plies, problems = _oracle().play_and_compare(script._PositiveWinner(rw_game), pyspiel.load_game("oh_hell", params),
                                                 script.write, 3, seed=5, check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 3 * 10


@pytest.mark.parametrize("params", [{}, {"allow_lone_defender": True, "stick_the_dealer": False}])
def test_euchre_agrees_with_openspiel_to_the_returns(params):
    # The deal, the upcard, both rounds of bidding, going alone, the dealer's discard,
    # the bowers, the partnerships' points (its README).
    script = _script("euchre")
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "euchre"), options=params), pyspiel.load_game("euchre", params), script.write, 4,
        seed=5, check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 4 * 20


def test_lines_of_action_written_fresh_agrees_with_openspiel():
    # Moves as far as the line holds pieces, jumping own pieces, the joined win (both
    # at once: the mover's), the repeated board and the move limit (its README).
    script = _script("lines_of_action")
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "lines_of_action"), options={"max_game_length": 60}),
        pyspiel.load_game("lines_of_action", {"max_game_length": 60}), script.to_notation, 3, seed=5)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 3 * 10


@pytest.mark.parametrize("size", [6, 10])
def test_amazons_written_fresh_agrees_with_openspiel(size):
    # A turn in three actions (the amazon, its queen move, the arrow), the loss of the
    # player who cannot move, the start placed by the board size (its README).
    script = _script("amazons")
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "amazons"), options={"board_size": size}),
        pyspiel.load_game("amazons", {"board_size": size}), script.to_notation, 2, seed=3)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 2 * 20


@pytest.mark.parametrize("variant", [None, "variants/dealer-seat.yaml"])
def test_spades_agrees_with_openspiel_to_the_returns_and_the_winning_partnership(variant):
    # The deal by `outcomes one of`, bids with nil, following suit and trumps, the
    # partnerships' points and bags, `teams:` naming the partnership that won.
    script = _script("spades")
    game = load_game(str(OUTSIDERS / "spades"), variant=str(OUTSIDERS / "spades" / variant) if variant else None)
    plies, problems = _oracle().play_and_compare(
        game, pyspiel.load_game("spades"), script.write, 3, seed=5, check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies == 3 * 108


@pytest.mark.parametrize("options", [{}, {"players": 3, "returns_type": "point_difference"}])
def test_goofspiel_turn_based_agrees_with_openspiel(options):
    # The prize drawn from a seat that never plays, the bids, ties, the last round played
    # by itself, the returns (its README).
    script = _script("goofspiel")
    rw_game, os_game = script.turn_based(load_game(str(OUTSIDERS / "goofspiel"), options=options),
                                         pyspiel.load_game("goofspiel", options))
    plies, problems = _oracle().play_and_compare(rw_game, os_game, script.write, 5, seed=5,
                                                 check_end=script.same_points)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 5 * 20


def test_tiny_bridge_agrees_with_openspiel_to_the_returns_and_the_winning_side():
    # Two partnerships (`teams:`), each hand dealt as one outcome, the auction with
    # doubles, the two tricks searched with every card seen, OpenSpiel's score (its README).
    script = _script("tiny_bridge")
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "tiny_bridge")), pyspiel.load_game("tiny_bridge_4p"), script.write, 30, seed=5,
        check_end=_oracle().same_returns)
    assert not problems, "\n".join(map(str, problems))
    assert plies > 30 * 8


@pytest.mark.parametrize("size, games", [(5, 6), (9, 2)])
def test_go_written_fresh_agrees_with_openspiel(size, games):
    # No suicide, simple ko, superko a draw, two passes or the move limit, Tromp-Taylor
    # area with komi 7.5, OpenSpiel's column letters (its README).
    script = _script("go")
    plies, problems = _oracle().play_and_compare(
        load_game(str(OUTSIDERS / "go"), options={"board_size": size}),
        pyspiel.load_game("go", {"board_size": size}), script.write, games, seed=5, check_end=script.same_winner)
    assert not problems, "\n".join(map(str, problems))
    assert plies > games * size * size


def test_backgammon_written_fresh_agrees_with_openspiel(capsys):
    # One decision a die, a double in two halves, the bar a pool, `play the longest turn,
    # then the highest pips`; the boards OpenSpiel's actions reach compared with those the
    # two decisions reach, the dice and their odds, the end and the returns (its README).
    script = _script("backgammon")
    assert script.agree(["--games", "3", "--seed", "5"]) == 0
    assert "3 games" in capsys.readouterr().out


def test_dou_dizhu_agrees_with_openspiel_to_the_returns(capsys):
    # The deal card by card, the bidding, every combination OpenSpiel has (its quirks kept),
    # an airplane's kickers as follow-up decisions expanded before the lists are compared,
    # every return (its README).
    script = _script("dou_dizhu")
    assert script.compare(4, 5) == 0
    out = capsys.readouterr().out
    assert "4 games" in out and " 0 disagreements" in out


def test_klondike_solitaire_agrees_with_openspiel_to_the_points_every_step(capsys):
    # OpenSpiel's K+ Klondike: the reveals by chance, runs onto the other colour, kings to the
    # first empty column, every third waste card playable, the points after every action
    # against OpenSpiel's return so far, the 150-action end (its README).
    script = _script("solitaire")
    assert script.compare(["--games", "4", "--seed", "5"]) == 0
    assert "4 games" in capsys.readouterr().out


def test_phantom_tic_tac_toe_agrees_with_openspiel_to_each_players_view(capsys):
    # OpenSpiel's classical phantom tic-tac-toe: a try on a cell the opponent holds marks it
    # seen and the same player goes again; each player's view (its marks and the opponent's
    # seen ones) against OpenSpiel's observation and information state (its README).
    script = _script("phantom_ttt")
    assert script.oracle.main(script.HERE, "phantom_ttt", script.write, ["--games", "6", "--seed", "5"]) == 0
    assert script.compare_views(["--games", "6", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "6 games" in out and " 0 views differing" in out
