"""JSON-Schema checking with messages written for rule authors.

jsonschema's own messages ("Additional properties are not allowed ('sizee' was
unexpected)", "'eight' is not of type 'integer'", "... is not valid under any of the
given schemas") are precise but read like a validator's internals. Each error is
rewritten here into what an author needs — which field, what was expected, what was
found, the nearest known name — and placed at the key or value it is about.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import jsonschema
from jsonschema.exceptions import ValidationError

from ..spelling import counted
from .diagnostics import Diagnostic, shorten, suggest
from .yaml_source import PositionIndex

Path = tuple[Any, ...]

# oneOf/anyOf only say "none of the alternatives fit"; any other error at the same
# place says more. Mirrors jsonschema's own WEAK_MATCHES.
_WEAK = frozenset({"oneOf", "anyOf"})
_MAX_LISTED = 12

_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "empty",
}


@dataclass(frozen=True)
class _Problem:
    path: Path  # where to point (in the data as validated)
    message: str
    at_key: bool = False  # point at the mapping key of `path` rather than its value
    hint: str | None = None
    weak: bool = False


def check_against_schema(
    data: Any,
    schema: dict[str, Any],
    positions: PositionIndex | None,
    file: str,
    *,
    registry: Any = None,
    reported: Iterable[Path] = (),
) -> list[Diagnostic]:
    """Every way `data` fails `schema` (Draft 2020-12), as located diagnostics, best first.

    `positions` comes from `yaml_source` (None: everything is reported at 1:1).
    `registry` (a `referencing.Registry`) resolves `$ref`s to other schema files.
    `reported`: paths whose entries the caller has already found wrong as a whole (a
    name that is not what its section lists): nothing below them is reported again.
    """
    reported = tuple(tuple(prefix) for prefix in reported)
    positions = positions if positions is not None else PositionIndex()
    instance = _as_json(data)
    kwargs = {"registry": registry} if registry is not None else {}
    validator = jsonschema.Draft202012Validator(schema, **kwargs)
    problems: list[_Problem] = []
    for error in validator.iter_errors(instance):
        problems.extend(_explain(error, instance))

    located = []
    for problem in problems:
        path = _original_path(data, problem.path)
        if any(path[:len(prefix)] == prefix for prefix in reported):
            continue
        found, is_key = positions.nearest(path, key=problem.at_key)
        line, column = (positions.keys if is_key else positions.values).get(found, (1, 1))
        end = positions.end_column(found, key=is_key) if found == path else None
        hint = problem.hint
        word = positions.yes_no_words.get(path) if not problem.at_key else None
        if word is not None:
            # `name: off` where a name was meant: YAML 1.1 made it a boolean.
            hint = (f"YAML reads the word {word!r} as {_show(_read_as(data, path))}: "
                    f"put it in quotes (\"{word}\") to mean the word")
        located.append((problem, Diagnostic(file, line, column, problem.message, hint=hint, end_column=end)))

    located.sort(key=lambda item: (item[0].weak, len(item[0].path), item[1].line, item[1].column))
    seen: set[tuple[Any, ...]] = set()
    result = []
    for _, diagnostic in located:
        identity = (diagnostic.line, diagnostic.column, diagnostic.message)
        if identity not in seen:
            seen.add(identity)
            result.append(diagnostic)
    return result


# --- choosing which errors to report ------------------------------------------------


def _explain(error: ValidationError, root: Any) -> list[_Problem]:
    if error.validator in _WEAK:
        return _explain_alternatives(error, root)
    return _describe(error, root)


def _explain_alternatives(error: ValidationError, root: Any) -> list[_Problem]:
    path = tuple(error.absolute_path)
    if not error.context:
        # oneOf failing because more than one alternative fits: nothing to descend into.
        return [_Problem(path, f"{_subject(path)} matches more than one of the allowed forms", weak=True)]

    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0]].append(sub)

    # An alternative for another type of value (a string shorthand where a mapping
    # was written) is certainly not the one meant; one whose discriminating field
    # ("kind: grid") has another value most likely is not.
    right_type = [subs for subs in branches.values() if not _wrong_type(subs, path)]
    if not right_type:
        types: list[str] = []
        for subs in branches.values():
            for sub in subs:
                if sub.validator == "type" and tuple(sub.absolute_path) == path:
                    _extend_unique(types, _as_list(sub.validator_value))
        return [_Problem(path, f"{_subject(path)} must be {_type_words(types)}, found {_show(error.instance)}")]
    plausible = [subs for subs in right_type if _discriminator(subs, path) is None]
    if not plausible and len(right_type) > 1:
        merged = _merge_discriminators(right_type, path)
        if merged is not None:
            return [merged]
    plausible = plausible or right_type
    # Of several remaining alternatives, report the one the author got furthest into.
    best = max(plausible, key=lambda subs: (max(len(s.absolute_path) for s in subs), -len(subs)))
    return [problem for sub in best for problem in _explain(sub, root)]


def _wrong_type(subs: list[ValidationError], path: Path) -> bool:
    return any(sub.validator == "type" and tuple(sub.absolute_path) == path for sub in subs)


def _discriminator(subs: list[ValidationError], path: Path) -> ValidationError | None:
    """A const/enum failure on a field of the value at `path`, if the branch has one."""
    for sub in subs:
        sub_path = tuple(sub.absolute_path)
        if sub.validator in ("const", "enum") and len(sub_path) == len(path) + 1 and sub_path[: len(path)] == path:
            return sub
    return None


def _merge_discriminators(branches: list[list[ValidationError]], path: Path) -> _Problem | None:
    """One message when every alternative wants another value of the same field.

    E.g. each wants a different `kind`: "'hexagon' is not one of grid, graph".
    """
    allowed: list[Any] = []
    field_paths = set()
    instance = None
    for subs in branches:
        sub = _discriminator(subs, path)
        if sub is None:
            return None
        field_paths.add(tuple(sub.absolute_path))
        values: Any = sub.validator_value
        _extend_unique(allowed, [values] if sub.validator == "const" else values)
        instance = sub.instance
    if len(field_paths) != 1:
        return None
    return _enum_problem(field_paths.pop(), instance, allowed)


# --- wording ------------------------------------------------------------------------


def _describe(error: ValidationError, root: Any) -> list[_Problem]:
    path = tuple(error.absolute_path)
    if error.validator is None:
        # A `false` subschema: jsonschema leaves the offending key out of the path.
        path = path + _false_schema_key(root, path, error.instance)
        return [_Problem(path, f"{_subject(path)} is not allowed here",
                         at_key=bool(path) and isinstance(path[-1], str))]
    if "propertyNames" in error.absolute_schema_path:
        # The instance is a key of the mapping at `path`; point at that key.
        name = error.instance
        subject = f"field name {_show(name)}" + _in(path)
        return _describe_as(error, path + (name,), subject, at_key=True)
    return _describe_as(error, path, _subject(path), at_key=False)


def _describe_as(error: ValidationError, path: Path, subject: str, at_key: bool) -> list[_Problem]:
    kind = error.validator
    # (jsonschema types these as possibly unset: an error it reports has them)
    value: Any = error.validator_value
    instance: Any = error.instance
    fields = _field_problems(error, path)
    if fields is not None:
        return fields
    if kind == "enum" and not at_key:
        return [_enum_problem(path, instance, value)]
    message = _value_message(kind, value, instance, path, subject, at_key)
    # A pattern says little to people, nor does a list's length (an offset of three
    # numbers): the schema's description of the value says what is written there.
    described = kind == "pattern" or (kind in ("minItems", "maxItems") and isinstance(instance, list))
    hint = error.schema.get("description") if described and isinstance(error.schema, dict) else None
    if (kind == "type" and "string" in _as_list(value) and isinstance(instance, (int, float))
            and not isinstance(instance, bool)):
        # `title: 2048`: YAML read a number where a text was meant.
        hint = f"YAML reads {_show(instance)} as a number: put it in quotes (\"{instance}\") to mean the text"
    if kind == "pattern" and not at_key and isinstance(hint, str) and hint[:1].islower():
        # A description written as what the value must be ("a file letter ..."):
        # the message in words, not the pattern.
        message, hint = f"{subject} must be {hint}, found {_show(instance)}", None
    return [_Problem(path, message if message is not None else f"{subject}: {error.message}", at_key=at_key,
                     hint=hint)]


def _field_problems(error: ValidationError, path: Path) -> list[_Problem] | None:
    """The problems of the fields of a mapping (unknown, missing ones), or None for
    an error of another kind."""
    kind = error.validator
    value: Any = error.validator_value
    instance: Any = error.instance
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
        return _unknown_fields(error, path)
    if kind == "required" and isinstance(instance, dict):
        # A field present under a misspelt key is reported at that key ("unknown field
        # 'Board' (did you mean 'board'?)"), not as missing at the top of the mapping.
        known = list(_known_properties(error.schema)) if isinstance(error.schema, dict) else []
        misspelt = {suggest(key, known) for key in instance if key not in known}
        return [
            _Problem(path, f"missing required field {name!r}{_in(path)}", at_key=True)
            for name in value
            if name not in instance and name not in misspelt
        ]
    if kind == "dependentRequired" and isinstance(instance, dict):
        return [
            _Problem(path, f"field {needed!r} is required{_in(path)} when {present!r} is given", at_key=True)
            for present, needs in value.items()
            if present in instance
            for needed in needs
            if needed not in instance
        ]
    return None


def _value_message(kind: Any, value: Any, instance: Any, path: Path, subject: str, at_key: bool) -> str | None:
    """What is wrong with one value (or key) by the schema's keyword `kind`, or
    None for a keyword without a message of its own."""
    # For a key the subject already shows it ("field name 'Bad-Name' in options").
    found = "" if at_key else f", found {_show(instance)}"
    if kind == "type":
        return f"{subject} must be {_type_words(_as_list(value))}{found}"
    if at_key and kind in ("enum", "const"):
        # A key restricted to a list of names is just an unknown field by another route.
        known = [name for name in (value if kind == "enum" else [value]) if isinstance(name, str)]
        nearest = suggest(instance, known) if isinstance(instance, str) else None
        guess = f" (did you mean {nearest!r}?)" if nearest is not None else ""
        return f"unknown field {_show(instance)}{_in(path[:-1])}{guess}"
    if kind == "const":
        return f"{subject} must be {_show(value)}{found}"
    bound = _bound_message(kind, value, instance, subject, found)
    if bound is not None:
        return bound
    if kind == "pattern":
        return f"{subject} must match the pattern {value}{found}"
    if kind == "format":
        return f"{subject} must be a valid {value}{found}"
    if kind == "uniqueItems":
        duplicate = _first_duplicate(instance)
        detail = f" ({_show(duplicate)} appears more than once)" if duplicate is not _NONE else ""
        return f"{subject} must not contain duplicates{detail}"
    if kind in ("contains", "minContains"):
        return f"{subject} has no item of the required form"
    if kind == "maxContains":
        return f"{subject} has too many items of the restricted form"
    if kind == "not":
        return f"{subject} is not allowed to be {_show(instance)}"
    if kind in ("items", "unevaluatedItems") and isinstance(instance, list):
        return f"{subject} has too many items"
    return None


# What a number must be, by the JSON-Schema keyword it breaks.
_NUMBER_BOUNDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "greater than",
    "exclusiveMaximum": "less than",
    "multipleOf": "a multiple of",
}


def _bound_message(kind: Any, value: Any, instance: Any, subject: str, found: str) -> str | None:
    """A number out of its bounds, or a list, mapping or string of the wrong size;
    None for a keyword of another kind."""
    if kind in _NUMBER_BOUNDS:
        return f"{subject} must be {_NUMBER_BOUNDS[kind]} {value}{found}"
    if kind in ("minItems", "maxItems") and isinstance(instance, list):
        bound = "at least" if kind == "minItems" else "at most"
        return f"{subject} must have {bound} {counted(value, 'item')}, found {len(instance)}"
    if kind in ("minProperties", "maxProperties") and isinstance(instance, dict):
        bound = "at least" if kind == "minProperties" else "at most"
        return f"{subject} must have {bound} {counted(value, 'field')}, found {len(instance)}"
    if kind in ("minLength", "maxLength") and isinstance(instance, str):
        bound = "at least" if kind == "minLength" else "at most"
        return f"{subject} must be {bound} {counted(value, 'character')} long{found}"
    return None


def _false_schema_key(root: Any, path: Path, value: Any) -> Path:
    parent = root
    for part in path:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return ()
    if isinstance(parent, dict):
        for matches in (lambda v: v is value, lambda v: v == value):
            for key, item in parent.items():
                if matches(item):
                    return (key,)
    return ()


def _unknown_fields(error: ValidationError, path: Path) -> list[_Problem]:
    instance: Any = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    known = list(_known_properties(schema))
    if error.validator == "additionalProperties":
        patterns = list(schema.get("patternProperties", {}))
        extras = [
            key
            for key in instance
            if key not in known and not any(re.search(pattern, str(key)) for pattern in patterns)
        ]
    else:
        # unevaluatedProperties depends on everything evaluated elsewhere; jsonschema
        # names the offenders in its message, so take them from there.
        extras = [key for key in instance if key not in known and repr(key) in error.message]
    problems = []
    for key in extras:
        nearest = suggest(key, known)
        message = f"unknown field {key!r}{_in(path)}"
        hint = None
        if not path and isinstance(key, str) and key.lower() in RULES_FILE_WORDS:
            written, section = RULES_FILE_WORDS[key.lower()]
            message += f" ({written} belongs in the rules file: format.md {section})"
        elif isinstance(key, str) and " " in key.strip():
            # Words for a field's name: a comma in a value written unquoted inside
            # {...} ended the value there, and the rest became a field of its own.
            hint = ("a comma inside {...} starts a new field: put a value that holds a comma in quotes, "
                    "e.g. description: \"A mark, a won board.\"")
        elif nearest is not None:
            message += f" (did you mean {nearest!r}?)"
        elif known and len(known) <= _MAX_LISTED:
            hint = "known fields: " + ", ".join(known)
        problems.append(_Problem(path + (key,), message, at_key=True, hint=hint))
    return problems


# The words of the rules file (format.md 3) an author may write as a section of the
# YAML: how the rules file says it, and its section of format.md.
RULES_FILE_WORDS = {
    **dict.fromkeys(("score", "scores", "scoring"), ("'score: EXPR'", "3.14")),
    **dict.fromkeys(("phase", "phases"), ("'phase NAME:'", "3.3")),
    **dict.fromkeys(("turn", "turns"), ("a phase's 'turn:'", "3.3")),
    **dict.fromkeys(("order", "turn_order"), ("a phase's 'order:'", "3.3")),
    **dict.fromkeys(("decision", "decisions", "action", "actions", "moves"), ("'decision NAME:'", "3.4")),
    **dict.fromkeys(("chance", "chances"), ("'chance NAME:'", "3.9")),
    **dict.fromkeys(("define", "defines"), ("'define NAME = EXPR'", "3.13")),
    **dict.fromkeys(("procedure", "procedures"), ("'procedure NAME:'", "3.13")),
    **dict.fromkeys(("forbid", "forbids"), ("'forbid ...'", "3.7")),
    **dict.fromkeys(("win", "winner", "result", "results"), ("'win', 'lose', 'draw', 'end game'", "3.10")),
}


def _known_properties(schema: dict[str, Any]) -> Iterator[str]:
    seen = set()
    stack = [schema]
    while stack:
        current = stack.pop(0)
        if not isinstance(current, dict):
            continue
        for name in current.get("properties", {}):
            if name not in seen:
                seen.add(name)
                yield name
        for keyword in ("allOf", "anyOf", "oneOf"):
            stack.extend(current.get(keyword, []))
        for keyword in ("then", "else"):
            if keyword in current:
                stack.append(current[keyword])


def _enum_problem(path: Path, instance: Any, allowed: Iterable[Any]) -> _Problem:
    allowed = list(allowed)
    shown = [value if isinstance(value, str) else _show(value) for value in allowed[:_MAX_LISTED]]
    listing = ", ".join(shown) + (f", ... ({len(allowed) - _MAX_LISTED} more)" if len(allowed) > _MAX_LISTED else "")
    where = _in(path)
    hint = None
    if isinstance(instance, str):
        nearest = suggest(instance, [value for value in allowed if isinstance(value, str)])
        if _OTHER_NAMES.get(instance.lower()) in allowed:
            nearest = _OTHER_NAMES[instance.lower()]
        hint = f"did you mean {nearest!r}?" if nearest is not None else None
    return _Problem(path, f"{_show(instance)} is not one of {listing}{where}", hint=hint)


# What other languages call a type that has a name of its own here.
_OTHER_NAMES = {"bool": "flag", "boolean": "flag", "integer": "int", "string": "str", "float": "decimal"}


def dotted(path: Iterable[Any]) -> str:
    """`("board", "grid", "files")` → `board.grid.files`; list indices as `players[0]`."""
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif isinstance(part, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", part):
            text += f".{part}" if text else part
        else:
            text += f"[{_show(part)}]"
    return text


def _subject(path: Path) -> str:
    return dotted(path) if path else "the document"


def _in(path: Path) -> str:
    return f" in {dotted(path)}" if path else ""


def _show(value: Any) -> str:
    """A value as a rule author wrote it in YAML, shortened."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(shorten(value, 40))
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _type_words(types: list[str]) -> str:
    words = [_TYPE_WORDS.get(t, t) for t in types]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _extend_unique(target: list[Any], values: Iterable[Any]) -> None:
    for value in values:
        if value not in target:
            target.append(value)


_NONE = object()


def _first_duplicate(items: Any) -> Any:
    if not isinstance(items, list):
        return _NONE
    for index, item in enumerate(items):
        if item in items[:index]:
            return item
    return _NONE


# --- YAML data as JSON sees it ------------------------------------------------------


def _json_key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def _as_json(data: Any) -> Any:
    """`data` with mapping keys as strings, as a JSON document would have them.

    YAML allows `1:` or `true:` as keys; JSON Schema keywords that look at keys
    (patternProperties, propertyNames) assume strings.
    """
    if isinstance(data, dict):
        return {_json_key(key): _as_json(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_as_json(item) for item in data]
    return data


def _read_as(data: Any, path: Path) -> Any:
    """The value at `path` of `data` (None if there is none)."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _original_path(data: Any, path: Path) -> Path:
    """Map a path in `_as_json(data)` back to the keys the YAML data really has."""
    original = []
    current = data
    for part in path:
        if isinstance(current, dict):
            if part not in current:
                part = next((key for key in current if _json_key(key) == part), part)
            current = current.get(part)
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            current = current[part]
        else:
            current = None
        original.append(part)
    return tuple(original)
