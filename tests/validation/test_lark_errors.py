"""Lark errors → diagnostics, with a small indentation-based grammar of our own."""
import pytest
from lark import Lark, Transformer
from lark.exceptions import GrammarError, UnexpectedEOF, VisitError
from lark.indenter import Indenter

from interpreter.validation.diagnostics import split_source_lines
from interpreter.validation.lark_errors import diagnostic_from_lark


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


GRAMMAR = r"""
start: _NL* phase*
phase: "phase" NAME ":" _NL _INDENT stmt+ _DEDENT
stmt: NAME "(" [arg ("," arg)*] ")" _NL
    | "move" NAME ARROW NAME _NL
    | "go" NAME "->" NAME _NL
    | "when" cond _NL
    | "if" NAME CMP NAME _NL
arg: NAME | NUMBER | STRING | "[" [arg ("," arg)*] "]"
cond: "empty" | "enemy" | "own" | "neutral" | "north" | "south" | "east" | "west" | "up" | "down"
ARROW: "=>"
CMP: "==" | "!=" | "<"
COMMENT: /#[^\n]*/
_NL: /(\r?\n[\t ]*(#[^\n]*)?)+/
%ignore COMMENT
%import common.CNAME -> NAME
%import common.NUMBER
%import common.ESCAPED_STRING -> STRING
%import common.WS_INLINE
%ignore WS_INLINE
%declare _INDENT _DEDENT
"""


@pytest.fixture(scope="module")
def parser():
    return Lark(GRAMMAR, parser="lalr", postlex=_Indenter())


def diagnose(parser, text, with_parser=True):
    with pytest.raises(Exception) as info:
        parser.parse(text)
    return diagnostic_from_lark(info.value, "r.rules", text, lark_parser=parser if with_parser else None)


def shown(diagnostic, text):
    return diagnostic.format(split_source_lines(text))


def test_valid_text_parses(parser):
    parser.parse("phase play:\n    f(a, [1, 2])\n    move a => b\n")


def test_missing_colon(parser):
    text = "phase play\n    f(a)\n"
    assert shown(diagnose(parser, text), text) == (
        'r.rules:1:11: error: found end of line, expected ":"\n'
        "    phase play\n"
        "              ^"
    )


def test_misspelt_keyword_gets_a_suggestion(parser):
    text = "phaze play:\n    f()\n"
    diagnostic = diagnose(parser, text)
    assert shown(diagnostic, text) == (
        'r.rules:1:1: error: found "phaze", expected one of: "phase", end of file, end of line\n'
        "    phaze play:\n"
        "    ^~~~~\n"
        '    hint: did you mean "phase"?'
    )


def test_keywords_are_found_even_without_the_parser(parser):
    text = "phaze play:\n    f()\n"
    diagnostic = diagnose(parser, text, with_parser=False)
    assert diagnostic.message == 'found "phaze", expected one of: "phase", end of file, end of line'
    assert diagnostic.hint == 'did you mean "phase"?'


def test_named_and_anonymous_literal_terminals_show_their_text(parser):
    text = "phase play:\n    move a b\n"
    assert diagnose(parser, text).message == 'found "b", expected "=>"'
    text = "phase play:\n    go a b\n"
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (2, 10, 11)
    assert diagnostic.message == 'found "b", expected "->"'


def test_a_terminal_of_several_literals_lists_each(parser):
    text = "phase play:\n    if a b\n"
    assert diagnose(parser, text).message == 'found "b", expected one of: "!=", "<", "=="'


def test_unexpected_character(parser):
    text = "phase play:\n    f(a ? b)\n"
    assert shown(diagnose(parser, text), text) == (
        'r.rules:2:9: error: unexpected character "?", expected one of: ")", ",", "]", end of line\n'
        "        f(a ? b)\n"
        "            ^"
    )


def test_unexpected_control_character(parser):
    text = "phase play:\n    f(a \x07)\n"
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (2, 9)
    assert diagnostic.message.startswith("unexpected character U+0007, expected one of:")


def test_unclosed_string(parser):
    text = 'phase play:\n    f("abc)\n'
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (2, 7)
    assert diagnostic.message == (
        "unexpected character '\"', expected one of: a name, a number, a string, \")\", \"[\", end of line"
    )
    assert diagnostic.hint == "is a string missing its closing quote?"


def test_unclosed_bracket_at_end_of_file(parser):
    text = "phase play:\n    f(a, [b,\n"
    assert shown(diagnose(parser, text), text) == (
        "r.rules:2:13: error: unclosed '[' opened at 2:10\n"
        "        f(a, [b,\n"
        "                ^\n"
        "    hint: add the closing ']'"
    )


def test_unclosed_paren_at_end_of_file_ignores_brackets_in_strings_and_comments(parser):
    text = 'phase play:  # (not this one\n    f(a, "(", [1],\n\n'
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (2, 19)
    assert diagnostic.message == "unclosed '(' opened at 2:6"


def test_unclosed_paren_before_more_text(parser):
    # Inside brackets line breaks do not count: the place to look is the bracket.
    text = "phase play:\n    f(a, b\nphase other:\n    g()\n"
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (2, 6)
    assert diagnostic.message == "unclosed '(': expected ')' before \"phase\" at 3:1"
    assert diagnostic.hint == "add the closing ')'"


def test_unclosed_paren_on_the_same_line_is_a_hint(parser):
    text = "phase play:\n    f(a b)\n"
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (2, 9)
    assert diagnostic.message == 'found "b", expected one of: ")", ","'
    assert diagnostic.hint == "unclosed '(' opened at 2:6"


def test_empty_block_points_at_its_colon(parser):
    for text in ("phase play:\nphase two:\n    f()\n", "phase play:  # nothing yet\n\n"):
        diagnostic = diagnose(parser, text)
        assert (diagnostic.line, diagnostic.column) == (1, 11), text
        assert diagnostic.message == "expected an indented block after ':'"


def test_end_of_file(parser):
    text = "phase play:"
    diagnostic = diagnose(parser, text)
    assert diagnostic.format() == "r.rules:1:12: error: unexpected end of file, expected end of line"
    text = "phase"
    assert diagnose(parser, text).format() == "r.rules:1:6: error: unexpected end of file, expected a name"
    text = "phase\n\n"  # the newline is a token of its own
    assert diagnose(parser, text).format() == "r.rules:1:6: error: found end of line, expected a name"


def test_unexpected_indent(parser):
    text = "phase play:\n    f()\n        g()\n"
    assert shown(diagnose(parser, text), text) == (
        "r.rules:3:9: error: unexpected indentation\n"
        "            g()\n"
        "            ^\n"
        "    hint: indent this line like the line before it, or end that line with ':' to start a block; "
        "to go on with an expression on the next line, put it in ( ) or end that line with '\\'"
    )


def test_inconsistent_dedent(parser):
    text = "phase play:\n        f(a)\n    # a comment does not count\n    g(b)\n"
    assert shown(diagnose(parser, text), text) == (
        "r.rules:4:5: error: indentation does not match any enclosing block\n"
        "        g(b)\n"
        "        ^\n"
        "    hint: indent this line by 0 or 8 spaces, like a line of the block it belongs to"
    )


def test_inconsistent_dedent_counts_tabs_like_the_indenter(parser):
    text = "phase play:\n\tf(a)\n    g(b)\n"
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (3, 5)
    assert diagnostic.message.endswith("(a tab in the indentation counts as 8 columns)")
    assert diagnostic.hint == (
        "indent this line by 0 or 8 spaces, like a line of the block it belongs to; "
        "indent the rules with spaces only, no tabs"
    )


def test_inconsistent_dedent_lists_every_level(parser):
    text = "phase play:\n    when empty\n        f(a)\n      g(b)\n"
    with pytest.raises(Exception) as info:
        grammar = GRAMMAR.replace("stmt+", "(stmt | _INDENT stmt+ _DEDENT)+")
        Lark(grammar, parser="lalr", postlex=_Indenter()).parse(text)
    diagnostic = diagnostic_from_lark(info.value, "r.rules", text)
    assert (diagnostic.line, diagnostic.column) == (4, 7)
    assert diagnostic.hint == "indent this line by 0, 4 or 8 spaces, like a line of the block it belongs to"


def test_white_space_at_the_end_of_the_file(parser):
    text = "phase play:\n    f(a)\n\n  "
    diagnostic = diagnose(parser, text)
    assert (diagnostic.line, diagnostic.column) == (4, 3)
    assert diagnostic.message == "indentation does not match any enclosing block"
    assert diagnostic.hint == "remove the white space at the end of the file"


def test_long_expected_lists_are_summarised(parser):
    text = "phase play:\n    when 3\n"
    diagnostic = diagnose(parser, text)
    assert diagnostic.message == (
        'found "3", expected one of: "down", "east", "empty", "enemy", "neutral", "north", "own", "south", ... (2 more)'
    )


def test_visit_error_uses_the_tree_position(parser):
    class Check(Transformer):
        def stmt(self, children):
            raise ValueError("unknown function 'f'")

    text = "phase play:\n    f()\n"
    tree = Lark(GRAMMAR, parser="lalr", postlex=_Indenter(), propagate_positions=True).parse(text)
    with pytest.raises(VisitError) as info:
        Check().transform(tree)
    assert diagnostic_from_lark(info.value, "r.rules", text).format() == "r.rules:2:5: error: unknown function 'f'"


def test_unexpected_eof_from_other_parsers():
    error = UnexpectedEOF(["RPAR", "NAME"])
    diagnostic = diagnostic_from_lark(error, "r.rules", "f(a\n")
    assert diagnostic.format() == "r.rules:1:4: error: unclosed '(' opened at 1:2\n    hint: add the closing ')'"
    diagnostic = diagnostic_from_lark(error, "r.rules", "f a\n")
    assert diagnostic.format() == 'r.rules:1:4: error: unexpected end of file, expected one of: a name, ")"'


def test_any_other_lark_error_still_gives_a_diagnostic():
    diagnostic = diagnostic_from_lark(GrammarError("Rule 'x' used but not defined\nmore"), "r.rules", "")
    assert diagnostic.format() == "r.rules:1:1: error: Rule 'x' used but not defined"


def test_mangled_rules_always_give_a_located_diagnostic(parser):
    import random

    pieces = ["phase", " ", "x", ":", "\n", "\n    ", "\n        ", "\n  ", "\t",
              "(", ")", "[", "]", ",", "1", '"', "#c", "=>", "when", "?"]
    valid = "phase play:\n    f(a, [1, 2])\n    move a => b\n    when north\nphase two:\n    go a -> b\n"
    rng = random.Random(3)
    for _ in range(500):
        text = list(valid)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(text))
            if rng.random() < 0.5:
                text.insert(at, rng.choice(pieces))
            elif text:
                del text[min(at, len(text) - 1)]
        text = "".join(text)
        try:
            parser.parse(text)
        except Exception as error:  # noqa: BLE001
            diagnostic = diagnostic_from_lark(error, "r.rules", text, lark_parser=parser)
            assert "Unexpected" not in diagnostic.message and "__ANON" not in diagnostic.message, diagnostic.format()
            assert 1 <= diagnostic.line <= text.count("\n") + 1
            diagnostic.format(split_source_lines(text))
