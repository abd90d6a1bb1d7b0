"""Writes the parts of the Oh Hell definition that are one line per card or per count
of cards left: the 52 card sites and pieces of oh_hell.yaml (between the markers) and
the 52 deal events of deal.rules. Run after changing either:
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


def deal_rules() -> str:
    out = ["# Written by gen.py: one event per count of cards left (format.md 3.9), the",
           "# outcome the index of the card among them in OpenSpiel's order.", ""]
    for left in range(len(CARDS), 0, -1):
        out += [f"chance deal{left}:", f"    outcomes 0 to {left - 1}", "    deal_card(outcome)"]
        if left > 1:
            out += ["    if dealt <= count(players) * tricks:", f"        then deal{left - 1}"]
        out.append("")
    return "\n".join(out)


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
    with open(os.path.join(HERE, "deal.rules"), "w") as handle:
        handle.write(deal_rules())
