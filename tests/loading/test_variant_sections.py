"""A variant replaces whole sections of its game's YAML (docs/format.md 4), tracks
and display hints among them."""
import shutil

from interpreter import load_game
from tests.helpers import REPO

KALAH = REPO / "docs" / "examples" / "kalah"

# Sowing that passes the stores by (own pits, then the opponent's).
NO_STORES = """\
variant: no-stores
extends: ../kalah.yaml
tracks:
  sowing:
    per_player:
      south: {sites: [b1, c1, d1, e1, f1, g1, g2, f2, e2, d2, c2, b2], loop: true}
      north: {sites: [g2, f2, e2, d2, c2, b2, b1, c1, d1, e1, f1, g1], loop: true}
display:
  regions: {store: {title: the stores, symbol: "*"}}
"""


def _seeds(game, state, sites) -> dict:
    return {p.site: p.attributes["seeds"] for p in game.pieces(state) if p.site in sites}


def test_a_variant_replaces_the_tracks(tmp_path):
    folder = tmp_path / "kalah"
    shutil.copytree(KALAH, folder)
    (folder / "variants").mkdir()
    (folder / "variants" / "no-stores.yaml").write_text(NO_STORES)
    game = load_game(str(folder))
    variant = load_game(str(folder / "variants" / "no-stores.yaml"))
    assert variant.warnings == []
    assert variant.definition.data["display"] == {"regions": {"store": {"title": "the stores", "symbol": "*"}}}
    # g1's four seeds: into h1 (the store), g2, f2, e2 — or, passing the store by, g2 f2 e2 d2
    played = _seeds(game, game.apply(game.initial_state(), "g1"), ("h1", "g2", "d2"))
    assert played == {"h1": 1, "g2": 5, "d2": 4}
    played = _seeds(variant, variant.apply(variant.initial_state(), "g1"), ("h1", "g2", "d2"))
    assert played == {"h1": 0, "g2": 5, "d2": 5}
