"""The twenty-first held-out suite (bench/heldout21: ten multi-step tasks; HumanEval had no problem
left for exercises): each check fails on the untouched workspace and passes after the reference
solution, and what is particular to a task's check is shown by near-misses that must fail and
other honest solutions that must pass. These tasks are only for measuring; no harness change is
tuned on them."""

from __future__ import annotations

import csv
import re
import subprocess
from pathlib import Path

import pytest

from bench.suite_checks import (
    BENCH,
    GIT_ID,
    edit,
    fails,
    find_task,
    git,
    passes,
    solve,
    suite_tasks,
    untouched_and_solved,
    workspace_tests_pass,
)
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout21")
EVERY = suite_tasks("heldout21")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_the_suite_has_its_ten_tasks_and_no_exercises() -> None:
    assert [t.name for t in TASKS] == [
        "k169_fix_room_bookings",
        "k170_skip_option",
        "k171_merge_price_functions",
        "k172_fix_pace_rounding",
        "k173_revert_breaking_commit",
        "k174_split_last_commit",
        "k175_edit_logging_ini",
        "k176_membership_fees",
        "k177_meeting_talk_time",
        "k178_duplicate_photos",
    ]
    assert not (BENCH / "heldout21" / "exercises").exists()
    assert [t for _, t in EVERY] == TASKS
    for task in TASKS:
        assert (task.folder / "solution.sh").is_file() and (task.folder / "template").is_dir()


@pytest.mark.parametrize(("suite", "task"), EVERY, ids=[t.name for _, t in EVERY])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    untouched, solved, output = untouched_and_solved(task)
    assert not untouched, "the check passes without any work: it cannot fail"
    assert solved, output


OVERLAP = "    return a[0] <= b[0] < a[1] or a[0] < b[1] <= a[1]\n"
BY_WHO = "sorted(plan, key=lambda b: b[2])"


def test_bookings_fixed_another_way_passes() -> None:
    task = _task("k169")
    ws = prepare(task)
    edit(ws / "bookings.py", OVERLAP, "    return not (a[1] <= b[0] or b[1] <= a[0])\n")
    edit(ws / "bookings.py", BY_WHO, "sorted(plan, key=lambda b: (b[0], b[1]))")
    passes(task, ws)


def test_bookings_with_the_overlap_turned_round_fails() -> None:
    """It refuses a booking inside an earlier one, as the tests ask, but no longer one around it."""
    task = _task("k169")
    ws = prepare(task)
    edit(ws / "bookings.py", OVERLAP, "    return b[0] <= a[0] < b[1] or b[0] < a[1] <= b[1]\n")
    edit(ws / "bookings.py", BY_WHO, "sorted(plan)")
    assert workspace_tests_pass(ws, "test_bookings.py")
    fails(task, ws)


def test_bookings_sorted_by_the_hour_only_fails() -> None:
    task = _task("k169")
    ws = prepare(task)
    edit(ws / "bookings.py", OVERLAP, "    return a[0] < b[1] and b[0] < a[1]\n")
    edit(ws / "bookings.py", BY_WHO, "sorted(plan, key=lambda b: b[0].hour)")
    assert workspace_tests_pass(ws, "test_bookings.py")
    fails(task, ws)


WEEKS_ARGUMENT = (
    '    parser.add_argument("--weeks", type=int, default=4, help="how many weeks (default 4)")\n'
)
ROTA_LOOP = "    for line in rota(read_people(args.people), args.weeks):\n"
SKIP_TEST = """

def test_skip():
    assert run("people.txt", "--weeks", "1", "--skip", "Ana") == [
        "week 1: bins=Ben, bathroom=Cy, kitchen=Dee, hoovering=Eli"
    ]
"""
USAGE = "    python3 rota.py people.txt --weeks 8  # or as many as you like\n"


def _skip_option(ws: Path, argument: str, *, check_names: bool = True, readme: bool = True) -> None:
    edit(ws / "rota.py", WEEKS_ARGUMENT, WEEKS_ARGUMENT + argument)
    check = (
        "    unknown = set(args.skip) - set(people)\n"
        "    if unknown:\n"
        '        parser.error("not in the file: " + ", ".join(sorted(unknown)))\n'
    )
    edit(
        ws / "rota.py",
        ROTA_LOOP,
        "    people = read_people(args.people)\n"
        + (check if check_names else "")
        + "    for line in rota([p for p in people if p not in args.skip], args.weeks):\n",
    )
    if readme:
        edit(ws / "README.md", USAGE, USAGE + "    python3 rota.py people.txt --skip Ben  # Ben is away\n")


def test_a_skip_option_filtering_in_rota_passes() -> None:
    task = _task("k170")
    ws = prepare(task)
    edit(ws / "rota.py", "def rota(people, weeks):\n", "def rota(people, weeks, skip=()):\n")
    edit(
        ws / "rota.py",
        "    lines = []\n",
        "    people = [p for p in people if p not in skip]\n    lines = []\n",
    )
    edit(
        ws / "rota.py",
        WEEKS_ARGUMENT,
        WEEKS_ARGUMENT + '    parser.add_argument("--skip", nargs=1, action="extend", default=[])\n',
    )
    edit(
        ws / "rota.py",
        ROTA_LOOP,
        "    people = read_people(args.people)\n"
        "    for name in args.skip:\n"
        "        if name not in people:\n"
        '            raise SystemExit(f"no {name} in {args.people}")\n'
        "    for line in rota(people, args.weeks, args.skip):\n",
    )
    test = '\n\ndef test_skip():\n    assert rota(["A", "B", "C"], 1, skip=["B"]) == ["week 1: bins=A, bathroom=C, kitchen=A, hoovering=C"]\n'
    (ws / "test_rota.py").write_text((ws / "test_rota.py").read_text() + test)
    edit(
        ws / "README.md",
        "comments.\n",
        "comments. `--skip NAME` leaves someone out; say it again for more.\n",
    )
    passes(task, ws)


def test_a_skip_option_keeping_only_the_last_name_fails() -> None:
    """`--skip Ben --skip Eli` leaves out Eli only."""
    task = _task("k170")
    ws = prepare(task)
    _skip_option(ws, '    parser.add_argument("--skip", type=lambda name: [name], default=[])\n')
    (ws / "test_rota.py").write_text((ws / "test_rota.py").read_text() + SKIP_TEST)
    assert workspace_tests_pass(ws, "test_rota.py")
    fails(task, ws)


def test_a_skip_option_ignoring_unknown_names_fails() -> None:
    task = _task("k170")
    ws = prepare(task)
    _skip_option(ws, '    parser.add_argument("--skip", action="append", default=[])\n', check_names=False)
    (ws / "test_rota.py").write_text((ws / "test_rota.py").read_text() + SKIP_TEST)
    fails(task, ws)


def test_a_skip_test_that_only_checks_the_exit_code_fails() -> None:
    """A rota.py that ignores --skip would pass it."""
    task = _task("k170")
    ws = prepare(task)
    _skip_option(ws, '    parser.add_argument("--skip", action="append", default=[])\n')
    test = '\n\ndef test_skip():\n    run("people.txt", "--skip", "Ana")\n'
    (ws / "test_rota.py").write_text((ws / "test_rota.py").read_text() + test)
    assert workspace_tests_pass(ws, "test_rota.py")
    fails(task, ws)


def test_a_skip_option_left_out_of_the_readme_fails() -> None:
    task = _task("k170")
    ws = prepare(task)
    _skip_option(ws, '    parser.add_argument("--skip", action="append", default=[])\n', readme=False)
    (ws / "test_rota.py").write_text((ws / "test_rota.py").read_text() + SKIP_TEST)
    fails(task, ws)


def test_one_price_function_from_a_table_passes() -> None:
    task = _task("k171")
    ws = prepare(task)
    tickets = (ws / "tickets.py").read_text()
    tickets = tickets[: tickets.index("def weekday_price")] + (
        "def price(age, weekend=False):\n"
        '    """One ticket; `weekend` on Saturday or Sunday (not for the under-fours: they go free)."""\n'
        "    if age < FREE_UNDER:\n"
        "        return 0.0\n"
        "    base = CHILD if age < CHILD_UNDER else SENIOR if age >= SENIOR_FROM else ADULT\n"
        "    return base + WEEKEND_EXTRA if weekend else base\n"
    )
    (ws / "tickets.py").write_text(tickets)
    edit(ws / "till.py", "weekday_price, weekend_price", "price")
    edit(
        ws / "till.py",
        "    if day.lower()[:3] in WEEKEND:\n"
        "        return [weekend_price(age) for age in ages]\n"
        "    return [weekday_price(age) for age in ages]\n",
        "    return [price(age, weekend=day.lower()[:3] in WEEKEND) for age in ages]\n",
    )
    test = (ws / "test_tickets.py").read_text().replace("weekday_price, weekend_price", "price")
    test = re.sub(r"weekend_price\((\w+)\)", r"price(\1, True)", test.replace("weekday_price(", "price("))
    (ws / "test_tickets.py").write_text(test)
    passes(task, ws)


def test_one_price_function_keeping_the_old_names_fails() -> None:
    task = _task("k171")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "tickets.py").read_text()
    text += "\n\ndef weekday_price(age):\n    return price(age)\n\n\ndef weekend_price(age):\n    return price(age, True)\n"
    (ws / "tickets.py").write_text(text)
    fails(task, ws)


def test_one_price_function_charging_the_under_fours_at_weekends_fails() -> None:
    task = _task("k171")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "tickets.py",
        "    if age < FREE_UNDER:\n        return 0.0\n    extra = WEEKEND_EXTRA if weekend else 0\n",
        "    extra = WEEKEND_EXTRA if weekend else 0\n    if age < FREE_UNDER:\n        return extra\n",
    )
    fails(task, ws)


CLOCK = """    hours, rest = divmod(int(secs), 3600)
    minutes = rest // 60
    left = round(secs - hours * 3600 - minutes * 60)
"""
PACE_TEST = '\n\ndef test_rounding_up_to_a_whole_minute():\n    assert pace(10, "49:57") == "5:00"\n'


def test_pace_rounded_first_with_the_test_in_test_clock_passes() -> None:
    task = _task("k172")
    ws = prepare(task)
    edit(
        ws / "pace.py",
        CLOCK,
        "    secs = int(secs + 0.5)\n    hours, rest = divmod(secs, 3600)\n    minutes, left = divmod(rest, 60)\n",
    )
    edit(
        ws / "test_pace.py",
        '    assert clock(3725) == "1:02:05"\n',
        '    assert clock(3725) == "1:02:05"\n    assert clock(299.7) == "5:00"\n',
    )
    passes(task, ws)


def test_pace_with_the_seconds_capped_at_59_fails() -> None:
    task = _task("k172")
    ws = prepare(task)
    edit(ws / "pace.py", CLOCK, CLOCK + "    left = min(left, 59)\n")
    (ws / "test_pace.py").write_text((ws / "test_pace.py").read_text() + PACE_TEST.replace("5:00", "4:59"))
    assert workspace_tests_pass(ws, "test_pace.py")
    fails(task, ws)


def test_pace_carrying_minutes_but_not_hours_fails() -> None:
    """59:59.6 becomes 60:00, not 1:00:00."""
    task = _task("k172")
    ws = prepare(task)
    edit(
        ws / "pace.py",
        CLOCK,
        "    hours = int(secs) // 3600\n    minutes, left = divmod(round(secs - hours * 3600), 60)\n",
    )
    (ws / "test_pace.py").write_text((ws / "test_pace.py").read_text() + PACE_TEST)
    assert workspace_tests_pass(ws, "test_pace.py")
    fails(task, ws)


def test_pace_fixed_without_a_test_fails() -> None:
    task = _task("k172")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_pace.py").read_text()
    (ws / "test_pace.py").write_text(text[: text.index("\n\n\ndef test_no_sixty_seconds")] + "\n")
    fails(task, ws)


def _commit(ws: Path, message: str) -> None:
    git(ws, "commit", "-qam", message)


def test_a_revert_by_hand_with_its_own_message_passes() -> None:
    task = _task("k173")
    ws = prepare(task)
    culprit = (ws / ".git/bench-commits").read_text().split()[2]
    undo = subprocess.run(
        ["git", "diff", culprit, f"{culprit}^"], cwd=ws, capture_output=True, check=True
    ).stdout
    subprocess.run(["git", "apply"], cwd=ws, input=undo, check=True)
    _commit(ws, "Put the conversion helpers back: c_to_f was wrong")
    passes(task, ws)


def test_a_fix_of_the_formula_only_fails() -> None:
    """The tests pass again, but the rest of the tidy-up stays: that is no revert."""
    task = _task("k173")
    ws = prepare(task)
    edit(ws / "convert.py", "celsius * 5 / 9 + 32", "celsius * 9 / 5 + 32")
    _commit(ws, "Fix c_to_f")
    assert workspace_tests_pass(ws, "test_convert.py")
    fails(task, ws)


def test_a_revert_left_uncommitted_fails() -> None:
    task = _task("k173")
    ws = prepare(task)
    git(ws, "revert", "--no-commit", "HEAD~2")
    fails(task, ws)


def test_a_reset_to_before_the_culprit_fails() -> None:
    task = _task("k173")
    ws = prepare(task)
    git(ws, "reset", "-q", "--hard", "HEAD~3")
    git(ws, "commit", "-q", "--allow-empty", "-m", "Back to the wind chill")
    fails(task, ws)


def test_a_split_from_a_soft_reset_with_a_message_body_passes() -> None:
    task = _task("k174")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD^")
    git(ws, "restore", "--staged", "README.md")
    git(
        ws, "commit", "-qm", "Charge late fees per started hour\n\nA quarter of an hour late is an hour late."
    )
    git(ws, "commit", "-qam", "Fix typos in the README")
    passes(task, ws)


def test_a_split_the_other_way_round_fails() -> None:
    task = _task("k174")
    ws = prepare(task)
    git(ws, "reset", "-q", "HEAD^")
    git(ws, "add", "README.md")
    git(ws, "commit", "-qm", "Fix typos in the README")
    git(ws, "commit", "-qam", "Charge late fees per started hour")
    fails(task, ws)


def test_a_split_on_top_of_the_mixed_commit_fails() -> None:
    task = _task("k174")
    ws = prepare(task)
    git(ws, "commit", "-q", "--amend", "-m", "Charge late fees per started hour")
    git(ws, "commit", "-q", "--allow-empty", "-m", "Fix typos in the README")
    fails(task, ws)


def test_a_logging_ini_with_its_own_names_passes() -> None:
    task = _task("k175")
    ws = prepare(task)
    path = ws / "logging.ini"
    text = path.read_text()
    for old, new in [
        ("keys = console\n", "keys = console,file\n"),
        ("keys = plain\n", "keys = plain,with_time\n"),
        (
            "[logger_sync]\nlevel = INFO\nhandlers = console\n",
            "[logger_sync]\nlevel = NOTSET\nhandlers = file,console\n",
        ),
        ("[logger_root]\n", "# Only the important ones.\n[logger_root]\n"),
        ("class = StreamHandler\nlevel = INFO\n", "class = StreamHandler\nlevel = WARNING\n"),
    ]:
        text = text.replace(old, new, 1)
    text += (
        "\n# The log file, with everything.\n[handler_file]\nclass = logging.FileHandler\nformatter = with_time\n"
        "args = ('sync.log', 'a', 'utf-8')\n\n"
        "[formatter_with_time]\nformat = %(asctime)s %(levelname)s %(name)s: %(message)s\n"
    )
    path.write_text(text)
    # NOTSET on a named logger means the root's level, WARNING: no DEBUG lines in the file
    fails(task, ws)
    path.write_text(text.replace("level = NOTSET\n", "level = DEBUG\n"))
    passes(task, ws)


def test_a_logging_ini_with_the_sync_logger_left_at_info_fails() -> None:
    task = _task("k175")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "logging.ini", "[logger_sync]\nlevel = DEBUG\n", "[logger_sync]\nlevel = INFO\n")
    fails(task, ws)


def test_a_logging_ini_written_by_configparser_fails() -> None:
    """ConfigParser.write drops the comments."""
    task = _task("k175")
    ws = prepare(task)
    solve(task, ws)
    script = (
        "import configparser\n"
        "ini = configparser.ConfigParser(interpolation=None)\n"
        "ini.read('logging.ini')\n"
        "with open('logging.ini', 'w') as f:\n"
        "    ini.write(f)\n"
    )
    subprocess.run(["python3", "-c", script], cwd=ws, check=True)
    fails(task, ws)


MEMBERS_HEADER = ["name", "email", "joined", "membership", "fee"]


def _fees(ws: Path, loyal: str, honorary_discount: bool = False, lineterminator: str = "\r\n") -> None:
    with open(ws / "members.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        fee = {"standard": 48, "student": 24, "honorary": 0}[row["membership"]]
        if row["joined"] <= loyal and (fee or honorary_discount):
            fee -= 5
        row.update(fee=str(fee), email=row["email"].lower())
    with open(ws / "members.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, MEMBERS_HEADER, lineterminator=lineterminator, quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)


def test_members_written_with_every_field_quoted_and_crlf_pass() -> None:
    task = _task("k176")
    ws = prepare(task)
    _fees(ws, "2019-12-31")
    assert (ws / "members.csv").read_text().startswith('"name","email"')
    passes(task, ws)


def test_members_who_joined_on_new_year_2020_discounted_fails() -> None:
    task = _task("k176")
    ws = prepare(task)
    _fees(ws, "2020-01-01")
    fails(task, ws)


def test_members_with_honorary_fees_below_zero_fails() -> None:
    task = _task("k176")
    ws = prepare(task)
    _fees(ws, "2019-12-31", honorary_discount=True)
    fails(task, ws)


TALK_TIME = """import sys


def stamp(text):
    h, m, s = (int(part) for part in text.strip("[]").split(":"))
    return h * 3600 + m * 60 + s


lines = []
for line in open(sys.argv[1]):
    if line.strip() and not line.startswith("#"):
        when, _, rest = line.strip().partition(" ")
        lines.append((stamp(when), rest.partition(":")[0]))
talked = {}
for (start, name), (end, _) in zip(lines, lines[1:]):
    talked[name] = talked.get(name, 0) + end - start
for name in sorted(talked, key=lambda name: (-talked[name], name)):
    print(f"{name} {talked[name] // 60}:{talked[name] % 60:02d}")
total = lines[-1][0] - lines[0][0]
print(f"total {total // 60}:{total % 60:02d}")
"""


def test_talk_time_with_partition_passes() -> None:
    task = _task("k177")
    ws = prepare(task)
    (ws / "talk_time.py").write_text(TALK_TIME)
    passes(task, ws)


def test_talk_time_reading_minutes_and_seconds_only_fails() -> None:
    task = _task("k177")
    ws = prepare(task)
    (ws / "talk_time.py").write_text(TALK_TIME.replace("h * 3600 + m * 60 + s", "m * 60 + s"))
    fails(task, ws)


def test_talk_time_with_ties_in_the_order_they_spoke_fails() -> None:
    task = _task("k177")
    ws = prepare(task)
    (ws / "talk_time.py").write_text(TALK_TIME.replace("(-talked[name], name)", "-talked[name]"))
    fails(task, ws)


DUPES = """import sys
from pathlib import Path

top = Path(sys.argv[1])
seen = {}
for path in sorted(top.rglob("*")):
    relative = path.relative_to(top)
    if path.is_file() and not any(part.startswith(".") for part in relative.parts):
        data = path.read_bytes()
        if data:
            seen.setdefault(data, []).append(relative.as_posix())
groups = sorted(paths for paths in seen.values() if len(paths) > 1)
print("\\n".join(", ".join(paths) for paths in groups) or "no duplicates")
"""


def test_dupes_with_rglob_passes() -> None:
    task = _task("k178")
    ws = prepare(task)
    (ws / "dupes.py").write_text(DUPES)
    passes(task, ws)


def test_dupes_looking_into_hidden_folders_fails() -> None:
    task = _task("k178")
    ws = prepare(task)
    (ws / "dupes.py").write_text(
        DUPES.replace(
            'not any(part.startswith(".") for part in relative.parts)', 'not path.name.startswith(".")'
        )
    )
    fails(task, ws)


def test_dupes_counting_empty_files_fails() -> None:
    task = _task("k178")
    ws = prepare(task)
    (ws / "dupes.py").write_text(
        DUPES.replace("        if data:\n            seen", "        if True:\n            seen")
    )
    fails(task, ws)


def test_the_git_tasks_start_from_the_history_their_prompts_describe() -> None:
    """k173: the tests pass before the third commit and fail from it on; k174: the last commit touches
    both files."""
    ws = prepare(_task("k173"))
    commits = (ws / ".git/bench-commits").read_text().split()
    assert len(commits) == 5
    git(ws, "checkout", "-q", commits[1])
    assert workspace_tests_pass(ws, "test_convert.py")
    git(ws, "checkout", "-q", commits[2])
    assert not workspace_tests_pass(ws, "test_convert.py")
    ws = prepare(_task("k174"))
    done = subprocess.run(
        ["git", "show", "--name-only", "--format=", "HEAD"],
        cwd=ws,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", **GIT_ID},
    )
    assert done.stdout.split() == ["README.md", "rental.py"]
