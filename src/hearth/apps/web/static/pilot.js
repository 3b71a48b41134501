// Pilot's panel: the plans and their tasks, the pipeline's controls, and a chat with Pilot.
// Everything the model or a plan says is shown as text (textContent), never as HTML.

const $ = (selector) => document.querySelector(selector);
let session = null;

class LoginNeeded extends Error {}

async function api(path, options = {}) {
  const response = await fetch(path, {
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    ...options,
  });
  if (response.status === 401) throw new LoginNeeded();
  const body = await response.json();
  if (!response.ok) throw new Error(body.hint ? `${body.detail} ${body.hint}` : String(body.detail));
  return body;
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(label, action) {
  const b = el("button", label);
  b.type = "button";
  b.addEventListener("click", () => run(action));
  return b;
}

async function run(action) {
  $("#error").textContent = "";
  try {
    await action();
  } catch (error) {
    if (error instanceof LoginNeeded) return showLogin();
    $("#error").textContent = error.message;
  }
}

function showLogin() {
  $("#pilot").hidden = true;
  $("#need-login").hidden = false;
}

function say(who, text) {
  const turn = el("div", undefined, "turn");
  turn.append(el("span", who, "who"), el("span", text));
  $("#chat").append(turn);
}

async function control(path, plan) {
  const answer = await api(path, { method: "POST", body: JSON.stringify({ plan }) });
  say("pipeline", answer.message);
  await refresh();
}

async function showReport(plan) {
  const report = await api(`/api/pilot/report?plan=${encodeURIComponent(plan)}`);
  const box = $("#report");
  box.textContent = JSON.stringify(report.totals ?? report, null, 1);
  box.hidden = false;
}

async function refresh() {
  const data = await api("/api/pilot/status");
  const root = $("#plans");
  root.replaceChildren();
  if (!data.plans.length) root.append(el("p", "No plans yet: ask Pilot to write one, or put a Markdown file in plans/."));
  for (const plan of data.plans) {
    const card = el("article", undefined, "plan");
    card.dataset.plan = String(plan.id);
    const title = el("h2", `#${plan.id} ${plan.path} v${plan.version}: `);
    title.append(el("span", plan.status, `status-${plan.status}`));
    card.append(title);
    if (plan.reason) card.append(el("p", plan.reason, "dim"));
    const list = el("ul");
    for (const t of plan.tasks) {
      const line = `${t.id} ${t.status}${t.stage && t.status !== "done" ? "/" + t.stage : ""} · ${t.attempts} attempt(s) · ${t.title}`;
      const item = el("li", line, `status-${t.status}`);
      if (t.reason) item.append(el("div", t.reason, "dim"));
      list.append(item);
    }
    card.append(list);
    const actions = el("div", undefined, "actions");
    const ref = `#${plan.id}`;
    if (["new", "planning", "active"].includes(plan.status)) actions.append(button("Cancel", () => control("/api/pilot/cancel", ref)));
    if (plan.status === "cancelled") actions.append(button("Resume", () => control("/api/pilot/resume", ref)));
    if (plan.status === "failed") actions.append(button("Retry", () => control("/api/pilot/retry", ref)));
    actions.append(button("Report", () => showReport(ref)));
    card.append(actions);
    root.append(card);
  }
}

async function send(event) {
  event.preventDefault();
  const text = $("#message").value.trim();
  if (!text) return;
  $("#message").value = "";
  say("you", text);
  $("#send").disabled = true;
  try {
    await run(async () => {
      const answer = await api("/api/pilot/chat", { method: "POST", body: JSON.stringify({ message: text, session }) });
      session = answer.session;
      say("pilot", answer.text || `(${answer.status}: ${answer.reason})`);
      await refresh();
    });
  } finally {
    $("#send").disabled = false;
  }
}

$("#chat-form").addEventListener("submit", send);
$("#refresh").addEventListener("click", () => run(refresh));
$("#resume-all").addEventListener("click", () => run(() => control("/api/pilot/resume", null)));
$("#retry-all").addEventListener("click", () => run(() => control("/api/pilot/retry", null)));
run(async () => {
  await refresh();
  $("#pilot").hidden = false;
});
