"""The JSON Schemas are documentation too: editors (yaml-language-server in VS Code,
Neovim, ...; JetBrains IDEs) show a field's `title` and `description` on hover and
in completion lists. Every field at every level must have both, and each schema an
`$id` (see docs/editors.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import jsonschema
import pytest

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
NAMES = ["game.schema.json", "variant.schema.json"]


def _load(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def documented_schemas(schema: dict, path: str = "#") -> Iterator[tuple[str, dict]]:
    """(JSON pointer, subschema) for every subschema an editor documents: each field
    under `properties`, each `$defs` entry, and the schemas of mapping values
    (`additionalProperties`, `patternProperties`), of list items and of the
    alternatives of `anyOf`/`oneOf`. A bare `$ref` takes its documentation from its
    target; `allOf` parts only add constraints to a documented schema."""
    if not isinstance(schema, dict):
        return

    def documented(sub: object, where: str) -> Iterator[tuple[str, dict]]:
        if isinstance(sub, dict):
            if set(sub) - {"$ref"}:
                yield where, sub
            yield from documented_schemas(sub, where)

    for name, sub in schema.get("properties", {}).items():
        yield from documented(sub, f"{path}/properties/{name}")
    for name, sub in schema.get("$defs", {}).items():
        yield from documented(sub, f"{path}/$defs/{name}")
    for name, sub in schema.get("patternProperties", {}).items():
        yield from documented(sub, f"{path}/patternProperties/{name}")
    for keyword in ("additionalProperties", "items"):
        yield from documented(schema.get(keyword), f"{path}/{keyword}")
    for keyword in ("anyOf", "oneOf"):
        for i, sub in enumerate(schema.get(keyword, [])):
            yield from documented(sub, f"{path}/{keyword}/{i}")
    for i, sub in enumerate(schema.get("allOf", [])):
        if isinstance(sub, dict):
            yield from documented_schemas(sub, f"{path}/allOf/{i}")


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_draft_2020_12(name):
    jsonschema.Draft202012Validator.check_schema(_load(name))


@pytest.mark.parametrize("name", NAMES)
def test_schema_has_id_title_and_description(name):
    schema = _load(name)
    assert schema.get("$id", "").endswith("/" + name)
    assert schema.get("title") and schema.get("description")


@pytest.mark.parametrize("name", NAMES)
def test_every_field_at_every_level_has_a_title_and_a_description(name):
    found = list(documented_schemas(_load(name)))
    assert len(found) > 20
    missing = [
        f"{pointer}: no {' and no '.join(key for key in ('title', 'description') if not str(sub.get(key, '')).strip())}"
        for pointer, sub in found
        if not (str(sub.get("title", "")).strip() and str(sub.get("description", "")).strip())
    ]
    assert not missing, "\n".join(missing)


def test_the_walk_reaches_nested_fields():
    pointers = {pointer for pointer, _ in documented_schemas(_load("game.schema.json"))}
    assert "#/properties/board/properties/grid/properties/files" in pointers
    assert "#/properties/pieces/additionalProperties/anyOf/0/properties/symbol" in pointers
    assert "#/$defs/region_rule/properties/except" in pointers
