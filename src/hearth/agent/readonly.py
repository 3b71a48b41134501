"""The shell commands allowed by default (in a sandbox): ones that provably cannot write files.

A pattern such as `git log*` also matches `git log --output=.env`, which writes
a file, and `ls*` matches `lsof`. So the defaults are not patterns: each part
of the command is split as the shell would split it (the command must be
simple: no redirection, substitution or escapes, see `rules.is_simple_command`)
and checked word by word. The program must be one of a few readers
(`ls`, `pwd`, `cat`, `head`, `tail`, `wc`, none of which has an option that
writes) or `git status|diff|log` with options from a fixed list of read-only
ones, spelled in full: git accepts abbreviations (`--out` for `--output`), so
anything not on the list, abbreviated or not, makes the command ask. Git's
global options (`-c`, `-C`, `--git-dir`, `--exec-path`, ...) are never allowed,
and before `--` a git word may not hold a glob character: the shell could
expand `*` to a file the model named `--output=.env`.

Nothing that prints file content out of git's objects or history is a default: no sandbox
hides a committed `.env` from `git show HEAD:.env` (bwrap hides the file, not the objects;
Landlock hides neither). So `git diff` is not one, `git log` is one only without a patch,
pickaxe or line-range option, and `reads_git_objects` finds every such git command (`show`,
`diff`, `cat-file`, `grep`, `blame`, `archive`, `stash show -p`, `log -p`, ...) anywhere in a
command line, even inside `sh -c '...'`, so the policy asks each time (refused headless).
"""

from __future__ import annotations

import re
import shlex

from hearth.agent.rules import command_parts, is_simple_command

READERS = ("ls", "pwd", "cat", "head", "tail", "wc")
GIT_COMMANDS = ("status", "log")
DEFAULT_COMMANDS = (*READERS, *(f"git {c}" for c in GIT_COMMANDS))

# Options shared by `git diff` and `git log -p` that only change what is shown.
_DIFF_FLAGS = {
    "-p", "-u", "--patch", "-s", "--no-patch", "--raw", "--patch-with-raw", "--patch-with-stat",
    "--stat", "--compact-summary", "--numstat", "--shortstat", "--dirstat", "--cumulative",
    "--summary", "--name-only", "--name-status", "--full-index", "--binary", "--abbrev",
    "--no-renames", "--find-renames", "-M", "--find-copies", "--find-copies-harder", "-B",
    "--break-rewrites", "-D", "--irreversible-delete", "--check", "-R", "--relative",
    "--no-relative", "-a", "--text", "--ignore-cr-at-eol", "--ignore-space-at-eol", "-b",
    "--ignore-space-change", "-w", "--ignore-all-space", "--ignore-blank-lines", "--minimal",
    "--patience", "--histogram", "--indent-heuristic", "--no-indent-heuristic", "--function-context",
    "-W", "--exit-code", "--quiet", "--no-ext-diff", "--no-textconv", "--no-prefix",
    "--default-prefix", "--no-color", "--color", "--word-diff", "--color-words", "--no-color-moved",
    "--color-moved", "-z", "--pickaxe-all", "--pickaxe-regex", "--ita-invisible-in-index",
    "--ita-visible-in-index", "--no-stat",
}  # fmt: skip
_DIFF_VALUED = {
    "--stat", "--stat-width", "--stat-name-width", "--stat-count", "--stat-graph-width",
    "--dirstat", "--abbrev", "--find-renames", "--find-copies", "--break-rewrites", "--relative",
    "--unified", "--inter-hunk-context", "--diff-algorithm", "--anchored", "--word-diff",
    "--word-diff-regex", "--color-words", "--color", "--color-moved", "--color-moved-ws",
    "--diff-filter", "--src-prefix", "--dst-prefix", "--line-prefix", "--ignore-matching-lines",
    "--ws-error-highlight", "--submodule",
}  # fmt: skip
_LOG_FLAGS = {
    "--oneline", "--graph", "--decorate", "--no-decorate", "--abbrev-commit", "--no-abbrev-commit",
    "--all", "--branches", "--tags", "--remotes", "--reverse", "--first-parent", "--merges",
    "--no-merges", "--follow", "--relative-date", "-i", "--regexp-ignore-case", "-E",
    "--extended-regexp", "-F", "--fixed-strings", "-P", "--perl-regexp", "--all-match",
    "--invert-grep", "--left-right", "--cherry-pick", "--cherry-mark", "--cherry", "--topo-order",
    "--date-order", "--author-date-order", "--full-history", "--simplify-merges",
    "--simplify-by-decoration", "--dense", "--sparse", "--ancestry-path", "--boundary", "--parents",
    "--children", "--left-only", "--right-only", "--no-walk", "--do-walk", "--source", "--log-size",
    "--mailmap", "--no-mailmap", "--use-mailmap", "--no-use-mailmap", "--show-linear-break",
    "-m", "-c", "--cc", "--combined-all-paths", "--remerge-diff", "--no-diff-merges",
    "--merge", "--count", "--no-min-parents", "--no-max-parents", "--no-notes", "-C",
}  # fmt: skip
_LOG_VALUED = {
    "--format", "--pretty", "--decorate", "--decorate-refs", "--decorate-refs-exclude",
    "--branches", "--tags", "--remotes", "--glob", "--exclude", "--author", "--committer",
    "--grep", "--grep-reflog", "--since", "--after", "--until", "--before", "--since-as-filter",
    "--max-count", "--skip", "--date", "--min-parents", "--max-parents", "--diff-merges",
    "--encoding", "--expand-tabs", "--show-linear-break", "--ancestry-path", "--abbrev",
}  # fmt: skip
_STATUS_FLAGS = {
    "-s", "--short", "-b", "--branch", "--show-stash", "--porcelain", "--long", "-v", "--verbose",
    "-u", "--untracked-files", "--ignored", "--ahead-behind", "--no-ahead-behind", "--renames",
    "--no-renames", "-z", "--column", "--no-column",
}  # fmt: skip
_STATUS_VALUED = {"--porcelain", "--untracked-files", "--ignored", "--find-renames", "--column"}

# What `git log` may show by default: which files changed and how much, never their content
# (no -p, no word or function context, no combined diffs, no -S/-G pickaxe, no -L line ranges).
_SUMMARY_FLAGS = {
    "-s", "--no-patch", "--stat", "--compact-summary", "--numstat", "--shortstat", "--summary",
    "--name-only", "--name-status", "--no-renames", "--find-renames", "-M", "--relative",
    "--no-relative", "--no-ext-diff", "--no-textconv", "--no-color", "-z",
}  # fmt: skip
_SUMMARY_VALUED = {
    "--stat",
    "--stat-width",
    "--stat-name-width",
    "--stat-count",
    "--relative",
    "--find-renames",
}
_FLAGS = {
    "log": _SUMMARY_FLAGS | (_LOG_FLAGS - {"-m", "-c", "--cc", "--remerge-diff", "--combined-all-paths"}),
    "status": _STATUS_FLAGS,
}
_VALUED = {"log": _SUMMARY_VALUED | _LOG_VALUED - {"--diff-merges"}, "status": _STATUS_VALUED}
# Short options whose value is attached (`-n5`): the value cannot be an option.
_ATTACHED = {"log": "n", "status": "u"}
_NUMBER = re.compile(r"^-\d+$")
_GLOB = re.compile(r"[*?\[\]{}]")


def is_read_only_command(command: str) -> bool:
    """True when every part of `command` is a default reader or a read-only git invocation."""
    if not is_simple_command(command):
        return False
    try:
        words = [shlex.split(part) for part in command_parts(command)]
    except ValueError:
        return False
    return all(words) and all(_reads_only(argv) for argv in words)


def _reads_only(argv: list[str]) -> bool:
    program, args = argv[0], argv[1:]
    if program in READERS:
        return program != "pwd" or all(a in ("-L", "-P") for a in args)
    if program == "git":
        return bool(args) and args[0] in GIT_COMMANDS and _git_args_read_only(args[0], args[1:])
    return False


def _git_args_read_only(sub: str, args: list[str]) -> bool:
    flags, valued, attached = _FLAGS[sub], _VALUED[sub], _ATTACHED[sub]
    it = iter(args)
    for word in it:
        if word == "--":
            return True  # the rest are paths, whatever they look like (globs expand to paths too)
        if _GLOB.search(word):
            return False
        if not word.startswith("-") or word == "-":
            continue  # a revision or a path
        if sub == "log" and _NUMBER.match(word):
            continue  # -5
        name, has_value, _ = word.partition("=")
        if has_value:
            if name not in valued:
                return False
            continue
        if word in flags:
            continue
        if sub == "log" and word == "-n":
            count = next(it, "")
            if not count.isdigit():
                return False
            continue
        if len(word) > 2 and word[1] in attached and not word.startswith("--"):
            if word[1] == "n" and not word[2:].isdigit():
                return False
            continue
        return False
    return True


# git commands that print what is in git's objects or history: file content, old or new.
GIT_OBJECT_READERS = frozenset(
    {
        "show", "diff", "cat-file", "grep", "blame", "annotate", "archive", "stash", "format-patch",
        "diff-tree", "diff-index", "diff-files", "fast-export", "bundle", "range-diff", "difftool",
        "unpack-file", "whatchanged", "restore", "worktree", "read-tree", "checkout-index",
    }
)  # fmt: skip
# Options that make log-like commands print content (patches, pickaxe hits, line ranges).
_CONTENT_OPTION = re.compile(
    r"^(-p|-u|--patch.*|-[SGL].*|--pickaxe.*|-W|--function-context|--word-diff.*|--color-words.*"
    r"|-c|--cc|-m|--remerge-diff|--binary|--full-diff|-U\d*|--unified.*|--ext-diff|--textconv)$"
)
_LOG_LIKE = frozenset({"log", "reflog", "shortlog"})
_TOKEN = re.compile(r"[^\s'\"`;|&<>(){}\[\],$]+")


def reads_git_objects(command: str) -> bool:
    """True when `command` may run git so that it prints file content from git's objects or
    history (a committed secret among it). Read by words anywhere in the text, quotes and
    backslashes removed, so `sh -c "git show HEAD:.env"` and `g''it show` count too; a false
    alarm only asks."""
    plain = command.replace("\\", "").replace("'", "").replace('"', "")
    words = _TOKEN.findall(plain)
    for i, word in enumerate(words):
        if word.rsplit("/", 1)[-1] != "git":
            continue
        rest = words[i + 1 :]
        sub = _subcommand(rest)
        if sub in GIT_OBJECT_READERS or sub.startswith(("cat-", "diff")):
            return True
        if sub in _LOG_LIKE and any(_CONTENT_OPTION.match(w) for w in rest):
            return True
        if sub == "checkout" and "--" in rest:  # files out of a commit (`git checkout HEAD -- .env`)
            return True
    return False


_GLOBAL_VALUED = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"}
)


def _subcommand(words: list[str]) -> str:
    """The git subcommand among the words after `git`, past its global options."""
    it = iter(words)
    for word in it:
        if word in _GLOBAL_VALUED:
            next(it, "")
        elif not word.startswith("-"):
            return word
    return ""
