"""The plan pipeline: plans in `plans/*.md`, split by a planner into micro-tasks, each
worked by a coder session, checked by a mechanical verifier and a reviewer, queued in SQLite.

    plans.py       finding and reading plan files
    schema.py      what the planner and the reviewer must answer (pydantic)
    structured.py  asking a role for JSON: validate, repair, retry naming the error
    planner.py     a plan into tasks
    coder.py       a task worked through `Conversation.send`, headless, sandboxed
    verifier.py    the mechanical checks
    reviewer.py    the reviewer's verdict
    gitphase.py    a commit per finished phase, through the sandbox
    report.py      quality reports per plan and across plans
    runner.py      the loop that claims work from the queue
    preflight.py   does each task fit the coder's window
    pilot.py       the pipeline controls as tools, for Pilot
"""
