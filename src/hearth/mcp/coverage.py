"""What an approval of a workspace's MCP servers covers: every workspace file they can run.

An approved `.mcp.json` naming `python3 tools/srv.py` would run whatever `tools/srv.py` holds
at the next start, so the approval fingerprints the files, not only the JSON. Which files:

- each workspace path named in `command`, `args` or `env` values (or in an `--opt=path`
  argument, a `sh -c '...'` line, a `PYTHONPATH`-style list), resolved from the server's `cwd`:
  a file is covered exactly, whatever it is (`LD_PRELOAD=./x.so` covers `x.so`);
- the code around it, since a script imports or sources its neighbours: every file with a
  code suffix (CODE_SUFFIXES) in the named file's folder and below (or the named folder's);
  for Python that is the script's own `sys.path[0]`, which is where it imports from;
- for `python -m pkg` or `python -c`, the server's folder (Python's `sys.path[0]` then), and
  for a project runner (`npm start`, `uv run`, `make`), the server's folder, whose files say
  what it runs.

The folder and below, rather than following the imports: resolving a script's imports means
running its import machinery (or guessing at dynamic ones), while a change anywhere near the
script re-asks at worst. A folder too large to fingerprint (MAX_FILES, MAX_BYTES) is an error
that says to move the server into a small folder or into the user's own mcp.json. Files outside
the workspace (a system `python3`, `uvx`) are not covered: they are not the workspace's to change.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import ConfigError
from hearth.mcp.config import ServerConfig

CODE_SUFFIXES = frozenset(
    {
        ".py", ".pyw", ".pth", ".so", ".pyd", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx",
        ".tsx", ".json", ".sh", ".bash", ".zsh", ".rb", ".pl", ".pm", ".lua", ".php", ".jar", ".cfg",
        ".toml", ".ini", ".yaml", ".yml", ".env",
    }
)  # fmt: skip
SKIPPED_DIRS = frozenset({".git", "__pycache__", ".hearth"})
PROJECT_RUNNERS = frozenset(
    {
        "npm", "npx", "yarn", "pnpm", "bun", "deno", "uv", "make", "cargo", "poetry", "pipenv",
        "pdm", "hatch", "bundle", "rake", "composer", "go", "just", "task",
    }
)  # fmt: skip
MAX_FILES = 2000
MAX_BYTES = 32 << 20


@dataclass(frozen=True)
class Covered:
    """The workspace files one server can run: path relative to the workspace -> sha256."""

    files: dict[str, str]

    def digest(self) -> str:
        h = hashlib.sha256()
        for rel in sorted(self.files):
            h.update(f"{rel}\0{self.files[rel]}\0".encode())
        return h.hexdigest()


def covered_files(workspace: Path, server: ServerConfig) -> Covered:
    """The files `server` can run from `workspace`, each with its content's hash."""
    if server.url:
        return Covered({})
    root = Path(os.path.realpath(workspace))
    cwd = Path(os.path.realpath(root / server.cwd)) if server.cwd else root
    named: set[Path] = set()
    trees: set[Path] = set()
    for text in sorted(_path_words([server.command, *server.args, *server.env.values()])):
        path = _inside(root, cwd, text)
        if path is None:
            continue
        named.add(path)
        trees.add(path if path.is_dir() else path.parent)
    if (
        _is_python(server.command)
        and any(a in ("-m", "-c") or a.startswith(("-m", "-c")) for a in server.args)
        and cwd.is_relative_to(root)
    ):
        trees.add(cwd)  # sys.path[0] of `python -m` / `python -c`
    if os.path.basename(server.command) in PROJECT_RUNNERS and cwd.is_relative_to(root):
        trees.add(cwd)  # `npm start`, `uv run`, `make`: they run what the folder's files say
    files: dict[str, str] = {}
    budget = [MAX_FILES, MAX_BYTES]
    for path in sorted(named):
        if not path.is_dir():
            files[str(path.relative_to(root))] = _hash(path, budget, server)
    for tree in sorted(trees):
        for path in _code_files(tree):
            rel = str(path.relative_to(root))
            if rel not in files:
                files[rel] = _hash(path, budget, server)
    return Covered(files)


def _path_words(words: list[str]) -> set[str]:
    """Every piece of the command line and env values that could be a path: whole words, the
    value of `--opt=path`, the words of `sh -c 'python3 tools/x.py'`, the parts of `A:B` lists."""
    out: set[str] = set()
    for word in words:
        for piece in (word, word.partition("=")[2], *word.split(), *word.split(":")):
            if piece:
                out.add(piece)
    return out


def _is_python(command: str) -> bool:
    return os.path.basename(command).startswith("python")


def _inside(root: Path, cwd: Path, text: str) -> Path | None:
    """The workspace path `text` names from `cwd` (followed through symlinks), if it exists there."""
    if "\0" in text or len(text) > 4096:
        return None
    candidate = Path(os.path.realpath(cwd / os.path.expanduser(text)))
    if not candidate.is_relative_to(root) or not candidate.exists():
        return None
    return candidate


def _code_files(tree: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(tree):  # follows no symlinked folder
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for name in sorted(filenames):
            if Path(name).suffix.lower() in CODE_SUFFIXES:
                out.append(Path(dirpath) / name)
        if len(out) > MAX_FILES:
            break
    return out


def _hash(path: Path, budget: list[int], server: ServerConfig) -> str:
    """sha256 of a file's content (of a symlink: of where it points, and of the content there)."""
    budget[0] -= 1
    h = hashlib.sha256()
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            h.update(b"link:" + os.readlink(path).encode())
            st = os.stat(path)
        if stat.S_ISREG(st.st_mode):
            budget[1] -= st.st_size
            if budget[0] >= 0 and budget[1] >= 0:
                with open(path, "rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
    except OSError as exc:
        h.update(f"unreadable:{exc.errno}".encode())
    if budget[0] < 0 or budget[1] < 0:
        raise ConfigError(
            f"MCP server {server.name!r} runs code from a folder too large to fingerprint "
            f"(over {MAX_FILES} code files or {MAX_BYTES >> 20} MB around {path.parent}).",
            "Keep a workspace server's script in a small folder of its own, or add the server to "
            "your own mcp.json (`hearth mcp add`) if you trust it as it will change.",
        )
    return h.hexdigest()


_SECRET_NAME = re.compile(r"(?i)key|token|secret|pass|auth|cred|private|session|cookie|sig")
_SECRET_VALUE = re.compile(
    r"^(sk-|ghp_|gho_|xox[bp]-|glpat-)|^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9+/_\-=.]{24,}$"
)
LOADS_CODE = frozenset(
    {
        "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME",
        "PYTHONUSERBASE", "NODE_OPTIONS", "NODE_PATH", "BASH_ENV", "ENV", "PATH", "PERL5OPT",
        "PERL5LIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "DYLD_INSERT_LIBRARIES",
    }
)  # fmt: skip


def shown_secret(name: str, value: str) -> str:
    """A value of env or headers as an approval shows it: masked when it looks like a secret."""
    return "***" if _SECRET_NAME.search(name) or _SECRET_VALUE.search(value) else value


def review_lines(workspace: Path, server: ServerConfig) -> list[str]:
    """Everything an approval of `server` covers, for the person to read before saying yes."""
    lines = [f"{server.name} ({server.transport})"]
    if server.url:
        lines.append(f"    url      {server.url}")
        for key, value in server.headers.items():
            lines.append(f"    header   {key}: {shown_secret(key, value)}")
    else:
        lines.append(f"    command  {shlex.join([server.command, *server.args])}")
        lines.append(f"    cwd      {server.cwd or '.'} (in the workspace)")
        for key, value in server.env.items():
            note = (
                "   <- makes the program load other code"
                if key in LOADS_CODE or key.startswith("GIT_")
                else ""
            )
            lines.append(f"    env      {key}={shown_secret(key, value)}{note}")
        lines.append(f"    network  {'yes' if server.network else 'no'}")
        try:
            files = sorted(covered_files(workspace, server).files)
        except ConfigError as exc:
            files = []
            lines.append(f"    files    {exc.message}")
        if files:
            shown = files[:25] + ([f"... and {len(files) - 25} more"] if len(files) > 25 else [])
            lines.append(f"    runs     {len(files)} workspace file(s), fingerprinted: " + ", ".join(shown))
    return lines
