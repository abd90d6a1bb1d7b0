"""Writes the parts of the Oh Hell definition that are one line per card: the 52 card
sites and pieces of oh_hell.yaml (between the markers). Run after changing them:
python benchmarks/outsiders/oh_hell/gen.py"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = "23456789TJQKA"
SUITS = "CDSH"   # OpenSpiel's order: card = rank * 4 + suit
CARDS = [SUITS[s] + RANKS[r] for r in range(13) for s in range(4)]


def yaml_parts() -> tuple[str, str]:
    sites = "".join(f"      {c}: [{RANKS.index(c[1])}, {SUITS.index(c[0])}]\n" for c in CARDS)
    deck = "".join(f"      - {{site: {c}, suit: {SUITS.index(c[0])}, rank: {RANKS.index(c[1])}}}\n"
                   for c in CARDS)
    return sites, deck


def replace_between(text: str, begin: str, end: str, body: str) -> str:
    head, rest = text.split(begin + "\n", 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body + end + tail


if __name__ == "__main__":
    path = os.path.join(HERE, "oh_hell.yaml")
    with open(path) as handle:
        text = handle.read()
    sites, deck = yaml_parts()
    text = replace_between(text, "      # cards: begin", "      # cards: end", sites)
    text = replace_between(text, "      # deck: begin", "      # deck: end", deck)
    with open(path, "w") as handle:
        handle.write(text)
