"""Writes the outcome lists of yacht.rules' chance events dice1 ... dice5 (run once;
the output is pasted into yacht.rules between the markers).

An outcome is the faces of the dice rolled, first die (lowest position) first, as a
decimal number: 21111 is die 0 showing 2, dice 1-4 showing 1. They are listed in
OpenSpiel's order of its chance actions, where action i gives the j-th die rolled
the face (i // 6**j) % 6 + 1, so that the index of an outcome in its event is
OpenSpiel's action.
"""
import sys


def outcomes(k: int, sides: int = 6) -> list[int]:
    values = []
    for index in range(sides ** k):
        faces = [(index // sides ** j) % sides + 1 for j in range(k)]
        values.append(int("".join(map(str, faces))))
    return values


def rules_text(k: int) -> str:
    values = outcomes(k)
    lines = [", ".join(map(str, values[i:i + 12])) for i in range(0, len(values), 12)]
    body = ",\n        ".join(lines)
    return f"chance dice{k}:\n    outcomes [\n        {body},\n    ]\n    land({10 ** (k - 1)})\n"


if __name__ == "__main__":
    sys.stdout.write("\n".join(rules_text(k) for k in range(1, 6)))
