"""Pilot: a chat whose only tools are the pipeline's controls.

It reads the queue, writes new plans into plans/, retries, resumes and cancels, and shows reports.
It has no shell, no file tools and no sub-agents: whatever it is asked, it can only steer the
pipeline. Its sessions go through `Conversation.send` like every other session.
"""

from __future__ import annotations

import json

from pydantic import Field

from hearth.pipeline import control
from hearth.pipeline.report import summary
from hearth.pipeline.store import PipelineStore
from hearth.runtime.api import (
    Conversation,
    PermissionMode,
    RunContext,
    Runtime,
    Tool,
    ToolInput,
    Toolset,
    open_conversation,
)

PILOT_TOOLS = (
    "pipeline_status",
    "create_plan",
    "retry_failed",
    "resume_pipeline",
    "cancel_plan",
    "show_report",
)


class StatusInput(ToolInput):
    """Show the pipeline: each plan with its tasks, their status, attempts and why any failed."""


class CreatePlanInput(ToolInput):
    """Write a new plan to plans/<name>.md from the conversation; the pipeline plans and runs it."""

    name: str = Field(description="Lower-case letters, digits and '-', e.g. add-login")
    text: str = Field(description="The plan in Markdown: goal, phases, files, and a 'Test: <command>' line")


class PlanRefInput(ToolInput):
    """Name a plan (#id, path or name), or none for every plan."""

    plan: str | None = Field(None, description="#id, path or name; blank = all plans")


class RetryInput(PlanRefInput):
    """Put failed tasks (of one plan, or all) back in the queue for another try."""


class ResumeInput(PlanRefInput):
    """Open cancelled plans again and release work left by runners that stopped."""


class CancelInput(PlanRefInput):
    """Cancel a plan (or all): its tasks not yet started are not started."""


class ReportInput(PlanRefInput):
    """Show the quality report of one plan, or the summary across every plan that ended."""


def pilot_tools(store: PipelineStore, rt: Runtime) -> list[Tool]:
    workspace = rt.workspace

    def status(args: StatusInput, ctx: RunContext) -> str:
        return control.status_text(control.status_data(store))

    def create(args: CreatePlanInput, ctx: RunContext) -> str:
        return control.create_plan(store, workspace, args.name, args.text)

    def retry(args: RetryInput, ctx: RunContext) -> str:
        return control.retry(store, args.plan)

    def resume(args: ResumeInput, ctx: RunContext) -> str:
        return control.resume(store, args.plan)

    def cancel(args: CancelInput, ctx: RunContext) -> str:
        return control.cancel(store, args.plan)

    def report(args: ReportInput, ctx: RunContext) -> str:
        if args.plan:
            return control.plan_report_text(store, workspace, args.plan)
        return json.dumps(summary(store)["totals"])

    return [
        Tool("pipeline_status", StatusInput, status, read_only=True),
        Tool("create_plan", CreatePlanInput, create),
        Tool("retry_failed", RetryInput, retry),
        Tool("resume_pipeline", ResumeInput, resume),
        Tool("cancel_plan", CancelInput, cancel),
        Tool("show_report", ReportInput, report, read_only=True),
    ]


def pilot_runtime(rt: Runtime, store: PipelineStore) -> Runtime:
    """The runtime as Pilot's sessions see it: the pipeline controls as the only tools, no sub-agents,
    every tool shown; the `pilot` role's model when one is configured."""
    import dataclasses

    roles = dict(rt.settings.model.roles)
    if "pilot" in roles:
        roles["main"] = roles["pilot"]
    settings = rt.settings.replace(roles=roles, subagent_depth=0)
    model = rt.model_for(rt.role("pilot")) if "pilot" in rt.settings.model.roles else rt.model
    profile = rt.profile.model_copy(update={"shown_tools": ()})
    return dataclasses.replace(
        rt, settings=settings, model=model, profile=profile, toolset=Toolset(pilot_tools(store, rt))
    )


def open_pilot(rt: Runtime, store: PipelineStore, resume: str | None = None) -> Conversation:
    # Its tools only steer the queue; nobody is asked (a headless web client or a script works too).
    return open_conversation(pilot_runtime(rt, store), resume=resume, permission_mode=PermissionMode.AUTO)
