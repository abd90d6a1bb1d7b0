"""Writes deck.rules: one chance event per number of cards left in the draw pile
(`draw52` ... `draw1`), whose outcome k takes the k-th card of the pile in board
order, and the procedure `draw_card` that starts the one for the pile as it stands.

python benchmarks/outsiders/crazy_eights/gen_deck.py
"""

import os

CARDS = 52
HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    lines = ["# Written by gen_deck.py: the deck's chance events (format.md 3.9, one event",
             "# per count of cards left).", ""]
    for left in range(CARDS, 0, -1):
        lines += [f"chance draw{left}:",
                  f"    outcomes 1 to {left}",
                  "    receive(nth(pieces of pile, outcome))",
                  ""]
    lines.append("procedure draw_card:")
    for left in range(CARDS, 0, -1):
        lines.append(f"    {'if' if left == CARDS else 'elif'} left == {left}:")
        lines.append(f"        then draw{left}")
    with open(os.path.join(HERE, "deck.rules"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
