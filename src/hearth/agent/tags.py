"""A git tag the task asks for: there, on the commit the task names, annotated when asked.

"Put an annotated tag v0.2.0 with the message 'Second release' on the commit 'Add export', not
on the newest commit": the 1.5B rewrote README.md and finished (exit 0); no tag was made. When the
task asks for a tag it names (a name with a digit: `v0.2.0`, `release-3`), the repository must
have it; when the task quotes the message of the commit it goes on ("on the commit 'Add
export'"), or says the new or last commit, it must be on that commit; when it says annotated or
gives the tag a message, it must be an annotated tag with that message. Read with git in the
sandbox, like every check of the finish review; the going back says the one command that makes
the tag right (`git tag -f -a NAME -m MESSAGE COMMIT`), with the commit's hash looked up by its
message, so the model has nothing to look up.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

_NAME = r"[`'\"]?((?:[A-Za-z][\w.-]*)?\d(?:[\w.-]*\w)?)[`'\"]?"
_ASKS_TAG = re.compile(
    r"\btag(?:ged)?\s+(?:it\s+(?:as\s+)?|called\s+|named\s+|"
    rf"(?:the\s+)?(?:new|last|latest|newest|current|that)\s+commit\s+(?:as\s+)?)?{_NAME}",
    re.IGNORECASE,
)
_MESSAGE = re.compile(r"\bmessage\s+(?:'([^'\n]+)'|\"([^\"\n]+)\"|`([^`\n]+)`)", re.IGNORECASE)
_ON_COMMIT = re.compile(
    r"\bon\s+(?:the\s+)?(?:commit\s+)?(?:'([^'\n]+)'|\"([^\"\n]+)\")(?:\s+commit)?", re.IGNORECASE
)
_ON_HEAD = re.compile(
    r"\b(?:(?:the\s+)?(?:new|last|latest|newest)\s+commit|HEAD)\b(?![^.]*\bnot\b)", re.IGNORECASE
)
_NOT_HEAD = re.compile(r"\bnot\s+(?:on\s+)?(?:the\s+)?(?:new|last|latest|newest)", re.IGNORECASE)


@dataclass(frozen=True)
class Tag:
    name: str
    annotated: bool
    message: str  # "" when the task gives none
    subject: str  # the message of the commit it goes on; "" when the task names none
    head: bool  # the task puts it on the new (last) commit


def tag_asked(task: str) -> Tag | None:
    """The tag the task asks for, read from its sentence; None when it asks for none."""
    match = _ASKS_TAG.search(task)
    if match is None:
        return None
    name = match.group(1)
    start = task.rfind(".", 0, match.start()) + 1
    end = task.find(". ", match.end())
    sentence = task[start : end if end != -1 else len(task)]
    message = _MESSAGE.search(sentence)
    said = next((g for g in message.groups() if g), "") if message else ""
    on = _ON_COMMIT.search(sentence)
    subject = next((g for g in on.groups() if g), "") if on else ""
    annotated = bool(said) or "annotated" in sentence.lower()
    head = not subject and bool(_ON_HEAD.search(sentence)) and not _NOT_HEAD.search(sentence)
    return Tag(name=name, annotated=annotated, message=said, subject=subject, head=head)


def tag_command(tag: Tag) -> str:
    """A read-only git command printing `target <hash>` (the commit the task puts the tag on;
    nothing after `target` when the task names none or it is not found), then, when the tag is
    there, `ref <tag|commit> <object> <commit, for an annotated tag> <message's first line>`.
    No git command that prints objects' content (agent/readonly): it would ask a person."""
    if tag.subject:
        # the newest commit of any branch with exactly that message
        subject = shlex.quote(tag.subject)
        target = (
            f"git log --all --format='%H%x09%s' | awk -F'\\t' -v s={subject} '$2 == s {{print $1; exit}}'"
        )
    elif tag.head:
        target = "git rev-parse HEAD"
    else:
        target = "true"
    ref = shlex.quote(f"refs/tags/{tag.name}")
    fields = "ref %(objecttype) %(objectname) %(*objectname) %(contents:subject)"
    return f'echo "target $({target} 2>/dev/null | head -n1)"; git for-each-ref --format={shlex.quote(fields)} {ref}'


def tag_wrong(tag: Tag, output: str) -> tuple[str, str] | None:
    """What is wrong with the tag (from `tag_command`'s output) and the command that makes it
    right; None when it is right, or git could not tell."""
    lines = output.splitlines()
    target = next((ln[len("target ") :].strip() for ln in lines if ln.startswith("target ")), "")
    target = target if re.fullmatch(r"[0-9a-f]{40}", target) else ""
    if (tag.subject or tag.head) and not target:
        return None  # the commit it goes on is not there: nothing to say it by
    ref = next((ln.split(" ", 4) for ln in lines if ln.startswith("ref ")), None)
    words = ["git", "tag"] if ref is None else ["git", "tag", "-f"]
    if tag.annotated:
        words += ["-a", tag.name, "-m", tag.message or tag.name]
    else:
        words.append(tag.name)
    if target:
        words.append(target)
    command = shlex.join(words)
    if ref is None:
        return f"the repository has no tag {tag.name}", command
    kind, obj, peeled, message = [*ref, "", "", "", ""][1:5]
    if target and (peeled or obj) != target:
        return f"the tag {tag.name} is not on the commit the task says ({target[:7]})", command
    if tag.annotated and kind != "tag":
        return f"{tag.name} is a lightweight tag, and the task asks for an annotated one", command
    if tag.message and message.strip() != tag.message:
        return f"the tag {tag.name}'s message is not '{tag.message}'", command
    return None
