"""docs/api.md, "The generated code": the idiom it gives for a code's decision name
(`CaseInfo.decision` is an index into `rules.decisions`) names the decision the
position asks for, in both decisions of the Amazons example (move, then shoot)."""
from interpreter import load_game
from tests.helpers import REPO

IDIOM = "game.rules.decisions[game.rules.cases[code[0]].decision].name"


def test_the_decision_of_a_code_is_named_as_documented():
    assert IDIOM in " ".join((REPO / "docs" / "api.md").read_text(encoding="utf-8").split())
    game = load_game(str(REPO / "docs" / "examples" / "amazons"))
    state = game.initial_state()
    seen = set()
    for _ in range(2):
        actions = game.legal_actions(state)
        for code in (action.code for action in actions):
            assert game.rules.decisions[game.rules.cases[code[0]].decision].name == game.decision(state)  # IDIOM
        seen.add(game.decision(state))
        state = game.apply(state, actions[0])
    assert seen == {"move", "shoot"}
