"""Find tool calls that a model wrote into its reply text.

Weak local models (and servers whose chat template does not map tool calls)
answer with calls as text even when the request carried `tools`. Five shapes
are recognised, in this order:

1. `<tool_call>{json}</tool_call>` (Hermes, Qwen), possibly unclosed at the end;
2. `<function=name><parameter=p>v</parameter></function>` (Qwen3-Coder XML);
   then a whole file: its path alone on a line and its text in a fence right below (a `write`);
3. fenced JSON, ```json {"name"|"tool": ..., "arguments"|"args": {...}} ``` (also lists);
   a bare JSON object or list of that shape when no fence is used;
4. a Python-style `name(arg=value, ...)` of a known tool, alone on its line.

Arguments are repaired with json-repair when truncated or malformed; what
cannot be understood comes back as a call with `error` set, so the model
hears what was wrong.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from json_repair import repair_json


@dataclass(frozen=True)
class TextCall:
    name: str
    arguments: dict[str, Any]
    raw: str
    repaired: bool = False
    error: str | None = None


ToolParams = Mapping[str, Sequence[str]]
"""Known tool names, each with its parameter names in order (for positional args)."""

_TOOL_CALL_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_FUNCTION_TAG = re.compile(r"<function=([\w.\-]+)>(.*?)(?:</function>|$)", re.DOTALL)
_PARAMETER_TAG = re.compile(r"<parameter=([\w.\-]+)>(.*?)(?:</parameter>|(?=<parameter=)|$)", re.DOTALL)
_FENCE = re.compile(r"```[ \t]*([\w-]*)[ \t]*\n?(.*?)(?:```|$)", re.DOTALL)
_JSON_LANGS = ("", "json", "tool_call", "tool", "json5", "jsonc", "function")
# `solution.py` alone on its line (maybe as `File: a.py`, **a.py**, `a.py`, # a.py), then a
# fence holding the whole file; the closing fence is alone on its line, or ends the reply.
_FILE_BLOCK = re.compile(
    r"^[ \t]*(?:#+[ \t]*|(?:File|Path)[ \t]*:[ \t]*)?[*`]*((?:[\w.-]+/)*[\w-]*[A-Za-z][\w.-]*\.\w{1,8})[*`]*:?[ \t]*\n"
    r"(?:[ \t]*\n)?```[ \t]*([\w+#.-]*)[ \t]*\n(.*?)(?:^```[ \t]*$|\Z)",
    re.MULTILINE | re.DOTALL,
)
_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "args", "parameters", "params", "input")


def parse_text_calls(text: str, tools: ToolParams) -> list[TextCall]:
    """All tool calls written in `text`, in order. Empty when there are none."""
    if "<tool_call>" in text or "<function=" in text:
        calls = _from_tags(text, tools)
        if calls:
            return calls
    calls = _from_file_blocks(text, tools)
    if calls:
        return calls
    calls = _from_fences(text, tools)
    if calls:
        return calls
    calls = _from_bare_json(text, tools)
    if calls:
        return calls
    return _from_python_style(text, tools)


def load_arguments(raw: str) -> tuple[dict[str, Any], bool]:
    """Parse a JSON arguments string, repairing it if needed.

    Returns (arguments, repaired). Raises ValueError when nothing usable remains.
    """
    if raw.strip() == "":
        return {}, False
    try:
        value = json.loads(raw, strict=False)  # raw tabs and newlines inside strings: meant
        repaired = False
    except json.JSONDecodeError:
        value = repair_json(raw, return_objects=True)
        repaired = True
    if isinstance(value, str) and value.strip().startswith("{"):
        # Double-encoded arguments: a JSON string holding a JSON object.
        return load_arguments(value)
    if not isinstance(value, dict):
        raise ValueError(f"arguments must be a JSON object, got {type(value).__name__}: {raw[:200]!r}")
    return value, repaired


def _from_tags(text: str, tools: ToolParams) -> list[TextCall]:
    calls: list[TextCall] = []
    for body in _TOOL_CALL_TAG.findall(text):
        if "<function=" in body:
            calls.extend(_functions(body))
        else:
            calls.extend(_from_json_text(body, tools, require_shape=False))
    if not calls and "<function=" in text:
        calls.extend(_functions(text))
    return calls


def _functions(text: str) -> list[TextCall]:
    calls = []
    for name, body in _FUNCTION_TAG.findall(text):
        args: dict[str, Any] = {}
        for pname, value in _PARAMETER_TAG.findall(body):
            args[pname] = _strip_one_newline(value)
        calls.append(TextCall(name=name, arguments=args, raw=f"<function={name}>{body}"))
    return calls


def _strip_one_newline(value: str) -> str:
    if value.startswith("\n"):
        value = value[1:]
    if value.endswith("\n"):
        value = value[:-1]
    return value


def _from_file_blocks(text: str, tools: ToolParams) -> list[TextCall]:
    """Whole files written as a path alone on its line and the file's text in a fence right
    below it: the form small models write code in best (no escaping inside a JSON string)."""
    if "write" not in tools:
        return []
    calls = []
    for m in _FILE_BLOCK.finditer(text):
        path, lang, body = m.group(1), m.group(2), m.group(3)
        if lang.lower() in _JSON_LANGS and _looks_like_call(body, tools):
            continue  # a call in a fence under a heading, not a file
        content = body if body.endswith("\n") or not body else body + "\n"
        calls.append(TextCall(name="write", arguments={"path": path, "content": content}, raw=m.group(0)))
    return calls


def _from_fences(text: str, tools: ToolParams) -> list[TextCall]:
    calls: list[TextCall] = []
    for lang, body in _FENCE.findall(text):
        if lang.lower() in _JSON_LANGS:
            calls.extend(_from_json_text(body, tools, require_shape=True))
        elif lang.lower() in ("python", "py"):
            calls.extend(_from_python_style(body, tools))
    return calls


def _from_bare_json(text: str, tools: ToolParams) -> list[TextCall]:
    calls: list[TextCall] = []
    decoder = json.JSONDecoder()
    i = 0
    while True:
        start = _next_json_start(text, i)
        if start < 0:
            break
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            # Maybe truncated at the very end of the reply: repair what is left.
            tail = text[start:]
            if _looks_like_call(tail, tools):
                calls.extend(_from_json_text(tail, tools, require_shape=True))
                break
            i = start + 1
            continue
        calls.extend(_calls_from_value(value, text[start:end], tools, require_shape=True))
        i = end
    return calls


def _json_sequence(body: str, tools: ToolParams) -> list[TextCall]:
    """The calls of a body holding several JSON values one after another (text between them is
    skipped); a last value cut off at the end is repaired on its own."""
    calls: list[TextCall] = []
    decoder = json.JSONDecoder()
    i = 0
    while (start := _next_json_start(body, i)) >= 0:
        try:
            value, end = decoder.raw_decode(body, start)
        except json.JSONDecodeError:
            tail = body[start:]
            if calls and _looks_like_call(tail, tools):
                value = repair_json(tail, return_objects=True)
                repaired = _calls_from_value(value, tail, tools, require_shape=True)
                calls.extend(TextCall(c.name, c.arguments, c.raw, True, c.error) for c in repaired)
                break
            i = start + 1
            continue
        calls.extend(_calls_from_value(value, body[start:end], tools, require_shape=True))
        i = end
    return calls


def _next_json_start(text: str, i: int) -> int:
    positions = [p for p in (text.find("{", i), text.find("[", i)) if p >= 0]
    return min(positions) if positions else -1


def _looks_like_call(fragment: str, tools: ToolParams) -> bool:
    m = re.match(r'\s*[\[{]\s*\{?\s*"(name|tool|tool_name|function)"\s*:\s*"([\w.\-]+)"', fragment)
    return bool(m and (m.group(2) in tools or re.search(r'"(arguments|args)"', fragment)))


# The call's last argument when it is a file's text (it runs to the call's closing braces).
_LAST_TEXT = re.compile(r'("(?:content|new|code|text)"\s*:\s*")(.*)("\s*\}\s*\}?\s*)$', re.DOTALL)


def _loads(text: str) -> Any:
    try:
        return json.loads(text, strict=False)  # strict=False: raw newlines inside strings
    except json.JSONDecodeError:
        return None


def _last_text_read_whole(body: str) -> Any:
    """A call whose last argument is a file's text holding bare quotes (`"content": "def f():\n
    \"""Doc.\"""` as the 1.5B wrote it): that text is taken whole, up to the call's end."""
    m = _LAST_TEXT.search(body)
    if m is None:
        return None
    inner = m.group(2)
    if inner.startswith('""') and inner.endswith('""') and len(inner) >= 4:
        inner = inner[2:-2]  # the value was itself triple-quoted
    escaped = re.sub(r'(?<!\\)"', r'\\"', inner)
    value = _loads(body[: m.start(2)] + escaped + body[m.end(2) :])
    if not isinstance(value, dict):
        return None
    return value


_TRIPLE_QUOTED = re.compile(r'"""(.*?)"""|\'\'\'(.*?)\'\'\'', re.DOTALL)


def _from_json_text(body: str, tools: ToolParams, *, require_shape: bool) -> list[TextCall]:
    body = body.strip()
    if not body:
        return []
    try:
        value = json.loads(body)
        repaired = False
    except json.JSONDecodeError:
        if require_shape and not _looks_like_call(body, tools):
            return []
        fixed = _last_text_read_whole(body)
        if fixed is None and ('"""' in body or "'''" in body):
            # Python's triple-quoted strings as values, common in small models' calls
            fixed = _loads(_TRIPLE_QUOTED.sub(lambda m: json.dumps(m.group(1) or m.group(2) or ""), body))
        if fixed is not None:
            return [
                TextCall(c.name, c.arguments, c.raw, True, c.error)
                for c in _calls_from_value(fixed, body, tools, require_shape=require_shape)
            ]
        # Several calls one after another (JSON Lines, or objects with a stray line between them):
        # each read on its own. Repairing the whole body would keep only one of them.
        sequence = _json_sequence(body, tools)
        if len(sequence) > 1:
            return sequence
        value = repair_json(body, return_objects=True)
        repaired = True
        if value in ("", None, [], {}):
            if require_shape:
                return []
            return [TextCall(name="", arguments={}, raw=body, error=_unparseable(body))]
    calls = _calls_from_value(value, body, tools, require_shape=require_shape)
    if repaired:
        calls = [TextCall(c.name, c.arguments, c.raw, True, c.error) for c in calls]
    return calls


def _calls_from_value(value: Any, raw: str, tools: ToolParams, *, require_shape: bool) -> list[TextCall]:
    items = value if isinstance(value, list) else [value]
    calls = []
    for item in items:
        call = _call_from_object(item, raw, tools, require_shape=require_shape)
        if call is not None:
            calls.append(call)
    return calls


def _call_from_object(obj: Any, raw: str, tools: ToolParams, *, require_shape: bool) -> TextCall | None:
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):  # OpenAI's own shape echoed as text
        obj = obj["function"]
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    arg_key = next((k for k in _ARG_KEYS if k in obj), None)
    if name is None:
        return None
    if require_shape and arg_key is None and name not in tools:
        return None  # some other JSON that happens to have a "name"
    raw_args = obj.get(arg_key, {}) if arg_key else {}
    if isinstance(raw_args, str):
        try:
            args, repaired = load_arguments(raw_args)
        except ValueError as exc:
            return TextCall(name=name, arguments={}, raw=raw, error=str(exc))
        return TextCall(name=name, arguments=args, raw=raw, repaired=repaired)
    if not isinstance(raw_args, dict):
        return TextCall(
            name=name,
            arguments={},
            raw=raw,
            error=f"arguments must be a JSON object, got {type(raw_args).__name__}",
        )
    return TextCall(name=name, arguments=raw_args, raw=raw)


def _from_python_style(text: str, tools: ToolParams) -> list[TextCall]:
    if not tools:
        return []
    names = "|".join(re.escape(n) for n in sorted(tools, key=len, reverse=True))
    pattern = re.compile(rf"^[ \t>*`]*(?:functions\.)?({names})\(", re.MULTILINE)
    calls: list[TextCall] = []
    for m in pattern.finditer(text):
        name = m.group(1)
        start = m.start(1)
        call = _parse_call_expression(text, start, name, tools[name])
        if call is not None:
            calls.append(call)
    return calls


def _parse_call_expression(text: str, start: int, name: str, params: Sequence[str]) -> TextCall | None:
    pos = text.find("(", start)
    while True:
        pos = text.find(")", pos + 1)
        if pos < 0:
            return None
        source = text[start : pos + 1]
        try:
            tree = ast.parse(source, mode="eval")
        except SyntaxError:
            continue
        node = tree.body
        if not isinstance(node, ast.Call):
            return None
        args: dict[str, Any] = {}
        try:
            for i, arg in enumerate(node.args):
                if i >= len(params):
                    return TextCall(
                        name, {}, source, error=f"{name} takes at most {len(params)} positional arguments"
                    )
                args[params[i]] = ast.literal_eval(arg)
            for kw in node.keywords:
                if kw.arg is None:
                    return TextCall(name, {}, source, error="use name=value arguments, not **kwargs")
                args[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            return TextCall(
                name, {}, source, error="arguments must be literal values (strings, numbers, lists)"
            )
        return TextCall(name=name, arguments=args, raw=source)


def _unparseable(body: str) -> str:
    return f"could not parse this tool call as JSON: {body[:200]!r}"
