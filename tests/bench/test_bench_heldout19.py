"""The nineteenth held-out suite (bench/heldout19: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout19` makes into bench/heldout19/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout19")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


SUFFIX_LINE = """    return f"{n}{SUFFIXES.get(n % 10, 'th')}"\n"""


def test_ordinals_with_a_range_of_the_last_two_digits_passes() -> None:
    task = _task("k150")
    ws = prepare(task)
    edit(
        ws / "ordinals.py",
        SUFFIX_LINE,
        '    suffix = "th" if 10 <= n % 100 <= 20 else SUFFIXES.get(n % 10, "th")\n    return str(n) + suffix\n',
    )
    assert workspace_tests_pass(ws, "test_ordinals.py")
    passes(task, ws)


def test_ordinals_with_the_teens_in_the_table_passes() -> None:
    task = _task("k150")
    ws = prepare(task)
    edit(
        ws / "ordinals.py",
        'SUFFIXES = {1: "st", 2: "nd", 3: "rd"}',
        'SUFFIXES = {1: "st", 2: "nd", 3: "rd"}\nTEENS = {11, 12, 13}',
    )
    edit(ws / "ordinals.py", SUFFIX_LINE, '    if n % 100 in TEENS:\n        return f"{n}th"\n' + SUFFIX_LINE)
    passes(task, ws)


def test_ordinals_hard_coding_eleven_to_thirteen_fails() -> None:
    """111 is the 111th, not the 111st."""
    task = _task("k150")
    ws = prepare(task)
    edit(
        ws / "ordinals.py", SUFFIX_LINE, '    if n in (11, 12, 13):\n        return f"{n}th"\n' + SUFFIX_LINE
    )
    assert workspace_tests_pass(ws, "test_ordinals.py")
    fails(task, ws)


def test_ordinals_with_the_teen_tests_changed_fails() -> None:
    task = _task("k150")
    ws = prepare(task)
    for n, wrong in (("11", "11st"), ("12", "12nd"), ("13", "13rd")):
        edit(ws / "test_ordinals.py", f'ordinal({n}) == "{n}th"', f'ordinal({n}) == "{wrong}"')
    edit(ws / "test_ordinals.py", '"12th Lu"', '"12nd Lu"')
    edit(ws / "test_ordinals.py", '"13th Max"', '"13rd Max"')
    assert workspace_tests_pass(ws, "test_ordinals.py")
    fails(task, ws)


PERCENT_TEST = """

def test_percent_flag(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("A\\nB\\nA\\nA\\n")
    done = subprocess.run([sys.executable, "votes.py", "--percent", str(path)], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["A: 3 (75.0%)", "B: 1 (25.0%)"]
"""


def _percent_code(ws: Path, share: str = "count / total * 100") -> None:
    edit(
        ws / "votes.py",
        '    parser.add_argument("file")\n',
        '    parser.add_argument("file")\n    parser.add_argument("--percent", action="store_true", help="show shares")\n',
    )
    edit(
        ws / "votes.py",
        "    votes = count_votes(args.file)\n",
        "    votes = count_votes(args.file)\n    total = sum(votes.values())\n",
    )
    edit(
        ws / "votes.py",
        '        print(f"{name}: {count}")\n',
        '        if args.percent:\n            print(f"{name}: {count} ({' + share + ':.1f}%)")\n'
        '        else:\n            print(f"{name}: {count}")\n',
    )


def test_a_percent_flag_with_an_if_else_passes() -> None:
    task = _task("k151")
    ws = prepare(task)
    _percent_code(ws)
    (ws / "test_votes.py").write_text((ws / "test_votes.py").read_text() + PERCENT_TEST)
    assert workspace_tests_pass(ws, "test_votes.py")
    passes(task, ws)


def test_a_percent_flag_rounding_to_whole_percents_fails() -> None:
    task = _task("k151")
    ws = prepare(task)
    _percent_code(ws, share="round(count / total * 100)")
    (ws / "test_votes.py").write_text((ws / "test_votes.py").read_text() + PERCENT_TEST.replace(".0%", "%"))
    fails(task, ws)


def test_a_percent_flag_of_the_winners_votes_fails() -> None:
    """The share is of all the votes, not of the most any candidate got."""
    task = _task("k151")
    ws = prepare(task)
    _percent_code(ws, share="count / max(votes.values()) * 100")
    (ws / "test_votes.py").write_text((ws / "test_votes.py").read_text() + PERCENT_TEST)
    fails(task, ws)


def test_a_percent_flag_without_a_test_fails() -> None:
    task = _task("k151")
    ws = prepare(task)
    _percent_code(ws)
    fails(task, ws)


def test_a_percent_test_replacing_the_old_one_fails() -> None:
    task = _task("k151")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_votes.py").read_text()
    start, end = text.index("def test_prints_the_counts"), text.index("def test_percent")
    (ws / "test_votes.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_votes.py")
    fails(task, ws)


DELAYS = """import sys
from datetime import datetime

late, count, worst = {}, {}, {}
with open(sys.argv[1]) as f:
    next(f)
    for line in f:
        if not line.strip():
            continue
        name, scheduled, actual = line.strip().split(",")
        gap = int((datetime.strptime(actual, "%H:%M") - datetime.strptime(scheduled, "%H:%M")).total_seconds() // 60)
        count[name] = count.get(name, 0) + 1
        late.setdefault(name, 0)
        worst.setdefault(name, 0)
        if gap > 0:
            late[name] += 1
            worst[name] = max(worst[name], gap)
for name in sorted(count):
    print(f"{name}: {late[name]} of {count[name]} late, worst {worst[name]} min")
"""


def test_delays_with_datetime_passes() -> None:
    task = _task("k152")
    ws = prepare(task)
    (ws / "delays.py").write_text(DELAYS)
    passes(task, ws)


def test_delays_counting_trains_on_time_as_late_fails() -> None:
    task = _task("k152")
    ws = prepare(task)
    (ws / "delays.py").write_text(DELAYS.replace("if gap > 0:", "if gap >= 0:"))
    fails(task, ws)


def test_delays_subtracting_only_the_minutes_fails() -> None:
    """09:50 to 10:05 is 15 minutes late, not 45 minutes early."""
    task = _task("k152")
    ws = prepare(task)
    text = DELAYS.replace(
        '        gap = int((datetime.strptime(actual, "%H:%M") - datetime.strptime(scheduled, "%H:%M")).total_seconds() // 60)\n',
        "        gap = int(actual[3:]) - int(scheduled[3:])\n",
    )
    (ws / "delays.py").write_text(text)
    fails(task, ws)


def test_delays_in_the_order_of_the_file_fails() -> None:
    task = _task("k152")
    ws = prepare(task)
    (ws / "delays.py").write_text(DELAYS.replace("for name in sorted(count):", "for name in count:"))
    fails(task, ws)


def test_delays_printing_the_example_fails() -> None:
    task = _task("k152")
    ws = prepare(task)
    (ws / "delays.py").write_text(
        'print("Blue: 2 of 4 late, worst 12 min")\nprint("Green: 0 of 2 late, worst 0 min")\n'
        'print("Red: 2 of 3 late, worst 7 min")\n'
    )
    fails(task, ws)


def test_a_tip_rename_importing_the_module_passes() -> None:
    task = _task("k153")
    ws = prepare(task)
    edit(ws / "tips.py", "def tip(", "def tip_amount(")
    text = (ws / "bill.py").read_text()
    text = text.replace("from tips import tip, tip_percent\n", "import tips\n")
    text = text.replace("tip(", "tips.tip_amount(").replace("{tip_percent(", "{tips.tip_percent(")
    (ws / "bill.py").write_text(text)
    passes(task, ws)


def test_a_tip_rename_replacing_every_word_tip_fails() -> None:
    """The word tip in what bill.py prints is not the function."""
    task = _task("k153")
    ws = prepare(task)
    edit(ws / "tips.py", "def tip(", "def tip_amount(")
    text = (ws / "bill.py").read_text()
    (ws / "bill.py").write_text(
        text.replace("tip ", "tip_amount ").replace("tip(", "tip_amount(").replace("tip,", "tip_amount,")
    )
    fails(task, ws)


def test_a_tip_rename_that_also_renames_tip_percent_fails() -> None:
    task = _task("k153")
    ws = prepare(task)
    for name in ("tips.py", "bill.py"):
        path = ws / name
        path.write_text(
            path.read_text()
            .replace("tip(", "tip_amount(")
            .replace("tip,", "tip_amount,")
            .replace("tip_percent", "tip_amount_percent")
        )
    fails(task, ws)


def test_a_tip_rename_keeping_the_old_name_as_an_alias_fails() -> None:
    task = _task("k153")
    ws = prepare(task)
    solve(task, ws)
    (ws / "tips.py").write_text((ws / "tips.py").read_text() + "\n\ntip = tip_amount\n")
    fails(task, ws)


def test_a_tip_rename_importing_it_under_the_old_name_fails() -> None:
    task = _task("k153")
    ws = prepare(task)
    edit(ws / "tips.py", "def tip(", "def tip_amount(")
    edit(
        ws / "bill.py", "from tips import tip, tip_percent", "from tips import tip_amount as tip, tip_percent"
    )
    fails(task, ws)


def test_a_reword_by_soft_reset_and_a_new_commit_passes() -> None:
    task = _task("k154")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    git(ws, "commit", "-q", "-m", "Add sleeping bags")
    passes(task, ws)


def test_a_reword_with_the_notes_stashed_around_it_passes() -> None:
    task = _task("k154")
    ws = prepare(task)
    git(ws, "stash", "-q")
    git(ws, "commit", "-q", "--amend", "-m", "Add sleeping bags")
    git(ws, "stash", "pop", "-q")
    passes(task, ws)


def test_a_reword_that_commits_the_notes_too_fails() -> None:
    task = _task("k154")
    ws = prepare(task)
    git(ws, "commit", "-q", "-a", "--amend", "-m", "Add sleeping bags")
    fails(task, ws)


def test_a_reword_as_a_new_empty_commit_fails() -> None:
    task = _task("k154")
    ws = prepare(task)
    git(ws, "commit", "-q", "--allow-empty", "-m", "Add sleeping bags")
    fails(task, ws)


def test_a_reword_leaving_the_notes_in_a_stash_fails() -> None:
    task = _task("k154")
    ws = prepare(task)
    git(ws, "stash", "-q")
    git(ws, "commit", "-q", "--amend", "-m", "Add sleeping bags")
    fails(task, ws)


def test_a_reword_with_a_body_fails() -> None:
    task = _task("k154")
    ws = prepare(task)
    git(ws, "commit", "-q", "--amend", "-m", "Add sleeping bags", "-m", "Fix the typo.")
    fails(task, ws)


def test_a_compose_edit_with_other_quotes_and_no_blank_lines_passes() -> None:
    task = _task("k155")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "docker-compose.yml"
    text = (
        path.read_text()
        .replace('"8080:8000"', "'8080:8000'")
        .replace("TZ: Europe/London", 'TZ: "Europe/London"')
    )
    path.write_text(text.replace("\n\n", "\n"))
    passes(task, ws)


def test_a_compose_edit_with_tz_under_db_fails() -> None:
    task = _task("k155")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "docker-compose.yml"
    text = path.read_text().replace("      TZ: Europe/London\n", "")
    path.write_text(
        text.replace(
            "      POSTGRES_PASSWORD: app\n", "      POSTGRES_PASSWORD: app\n      TZ: Europe/London\n"
        )
    )
    fails(task, ws)


def test_a_compose_edit_changing_the_container_port_too_fails() -> None:
    task = _task("k155")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "docker-compose.yml", '"8080:8000"', '"8080:8080"')
    fails(task, ws)


def test_a_compose_edit_without_the_comment_fails() -> None:
    task = _task("k155")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "docker-compose.yml", "    # The data survives restarts in the pgdata volume.\n", "")
    fails(task, ws)


def test_a_compose_edit_leaving_adminer_commented_out_fails() -> None:
    task = _task("k155")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "docker-compose.yml",
        "volumes:\n  pgdata:",
        "  # adminer:\n  #   image: adminer:4\nvolumes:\n  pgdata:",
    )
    fails(task, ws)


PROBLEMS = """def problems(password):
    checks = [
        (len(password) < 8, "shorter than 8 characters"),
        (not any(c.isdigit() for c in password), "no digit"),
        (not any(c.isupper() for c in password), "no capital letter"),
        (password.lower() in COMMON, "too common"),
    ]
    return [message for failed, message in checks if failed]


def main():
    found = problems(sys.argv[1])
    print("\\n".join("- " + p for p in found) if found else "looks fine")
"""


def _password(ws: Path, code: str) -> None:
    text = (ws / "password.py").read_text()
    start, end = text.index("def main():"), text.index("\n\nif __name__")
    (ws / "password.py").write_text(text[:start] + code + text[end:])


def test_problems_as_a_list_of_checks_passes() -> None:
    task = _task("k156")
    ws = prepare(task)
    _password(ws, PROBLEMS)
    passes(task, ws)


def test_problems_with_the_dashes_in_its_list_fails() -> None:
    task = _task("k156")
    ws = prepare(task)
    code = PROBLEMS.replace('"shorter', '"- shorter').replace('"no ', '"- no ').replace('"too', '"- too')
    _password(ws, code.replace('"- " + p', "p"))
    fails(task, ws)


def test_problems_that_prints_them_itself_fails() -> None:
    task = _task("k156")
    ws = prepare(task)
    code = PROBLEMS.replace(
        "    return [message for failed, message in checks if failed]\n",
        "    found = [message for failed, message in checks if failed]\n"
        "    for message in found:\n        print('- ' + message)\n    return found\n",
    ).replace(
        '    print("\\n".join("- " + p for p in found) if found else "looks fine")\n',
        '    if not found:\n        print("looks fine")\n',
    )
    _password(ws, code)
    fails(task, ws)


def test_problems_added_but_main_still_checking_itself_fails() -> None:
    task = _task("k156")
    ws = prepare(task)
    text = (ws / "password.py").read_text()
    start = text.index("def main():")
    helper = PROBLEMS[: PROBLEMS.index("def main():")]
    text = (
        text[:start]
        + helper
        + text[start:].replace(
            "    password = sys.argv[1]\n", "    password = sys.argv[1]\n    problems(password)\n"
        )
    )
    (ws / "password.py").write_text(text)
    fails(task, ws)
