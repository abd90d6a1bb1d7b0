"""The strength benchmark gives both sides the same time a move: where one move is
several OpenSpiel actions (Amazons: an amazon, then its square), the bot's
searches share the move's time as the regelwerk player's decisions do."""
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
