"""The REPL's slash commands and their help (light: the prompt's completer needs it at start)."""

COMMANDS = {
    "help": "list commands",
    "sessions": "list sessions in this workspace",
    "resume": "resume ID: continue a session",
    "new": "start a new session",
    "session": "this session's id, title and status",
    "mode": "mode auto|normal|manual|plan: what runs without asking",
    "plan": "plan TASK: plan with read-only tools, then approve, edit or reject",
    "todo": "the todos, plan and task state; todo clear drops them all",
    "status": "model, server, context window, sandbox, instructions",
    "model": "model [ROLE] [NAME]: the roles' models and the server's; switch the session's or a role's",
    "compact": "compact the context now",
    "soul": "the personality and instructions loaded",
    "cost": "tokens in, cached and out: this session and today",
    "undo": "undo [N]: put files back as before the last N changing steps",
    "thinking": "show the last reply's thinking in full",
    "quit": "leave",
}
