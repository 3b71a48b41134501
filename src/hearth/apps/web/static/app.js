// Hearth's web UI: plain JS, no build step. Every piece of model or tool output is put
// into the page as text (textContent) or through markdown.js, which builds nodes only.
"use strict";

import { el, renderMarkdown } from "./markdown.js";

const $ = (id) => document.getElementById(id);
const state = { session: null, ws: null, running: false, pendingSend: null, stream: null, thinking: null, tools: new Map(), questions: new Map() };

async function api(path, options = {}) {
  const init = { credentials: "same-origin", ...options, headers: { ...(options.headers || {}) } };
  if (init.body && typeof init.body !== "string" && !(init.body instanceof Blob)) {
    init.body = JSON.stringify(init.body);
    init.headers["Content-Type"] = "application/json";
  }
  const res = await fetch(path, init);
  if (res.status === 401) {
    showLogin();
    throw new Error("login needed");
  }
  const data = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    // Hearth's own errors carry a hint; a request the API could not read lists its problems.
    const detail = Array.isArray(data?.detail) ? data.detail.map((d) => `${d.loc?.at(-1)}: ${d.msg}`).join("; ") : data?.detail;
    throw new Error(detail ? (data.hint ? `${detail} → ${data.hint}` : detail) : res.statusText);
  }
  return data;
}

// ---- login -------------------------------------------------------------------------

function showLogin() {
  $("app").hidden = true;
  $("login").hidden = false;
  $("pin").focus();
}

$("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("login-error").textContent = "";
  try {
    const res = await fetch("/api/login", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pin: $("pin").value }),
    });
    if (!res.ok) throw new Error((await res.json()).detail);
    $("pin").value = "";
    start();
  } catch (err) {
    $("login-error").textContent = err.message;
  }
});

// ---- start ---------------------------------------------------------------------------

async function start() {
  let status;
  try {
    status = await api("/api/status");
  } catch {
    return;
  }
  $("login").hidden = true;
  $("app").hidden = false;
  $("status").textContent = `${status.model} · ${status.context_window} tokens · sandbox ${status.sandbox.split(":")[0]}`;
  $("status").title = `${status.server}\n${status.sandbox}\n${status.workspace}`;
  if (status.sandbox_warning) {
    // what this sandbox cannot protect (e.g. Landlock) and how to get bubblewrap: said, not hidden
    $("status").textContent += ` · warning: ${status.sandbox_warning}`;
    $("status").title += `\n${status.sandbox_warning}`;
  }
  $("mode").value = state.defaultMode = status.permission_mode;
  refreshSessions();
  showTrust();
  setupVoice();
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("s");
  if (fromHash) openSession(fromHash);
  else clearChat();
}

// ---- workspace trust: the workspace's own safety settings are ignored until trusted ------

async function showTrust() {
  let t;
  try {
    t = await api("/api/trust");
  } catch {
    return;
  }
  $("trust-banner")?.remove();
  if (t.state !== "untrusted" && t.state !== "changed") return;
  const banner = el("div", "trust-banner");
  banner.id = "trust-banner";
  banner.setAttribute("role", "alert");
  banner.append(el("strong", null, t.state === "changed"
    ? "This workspace's settings changed since you trusted it, so they are ignored:"
    : "This workspace's own files set these settings or hold these skills; they are ignored until you trust it:"));
  const list = el("ul");
  for (const s of t.settings) list.append(el("li", null, `${s.name} = ${s.value}  (${s.file})`));
  for (const s of t.skills || []) list.append(el("li", null, `skill ${s.name}: ${s.description}  (${s.file})`));
  banner.append(list);
  if (t.can_trust) {
    const button = el("button", null, "Trust this workspace");
    button.addEventListener("click", async () => {
      if (!confirm(`Let ${t.workspace}'s own files choose the permissions, the sandbox, the network and the model server (where your API key goes)?`)) return;
      try {
        const done = await api("/api/trust", { method: "POST", body: { fingerprint: t.fingerprint } });
        banner.replaceChildren(el("span", null, done.message));
      } catch (err) {
        banner.append(el("p", "error", err.message));
      }
    });
    banner.append(button);
  }
  document.querySelector("main").prepend(banner);
}

// ---- sessions --------------------------------------------------------------------------

async function refreshSessions() {
  const list = $("session-list");
  const sessions = await api("/api/sessions?limit=200");
  list.replaceChildren();
  // a tree: each sub-agent's session under the session that delegated it
  const ids = new Set(sessions.map((s) => s.id));
  const children = new Map();
  for (const s of sessions) {
    if (s.parent && ids.has(s.parent)) {
      if (!children.has(s.parent)) children.set(s.parent, []);
      children.get(s.parent).push(s);
    }
  }
  const addEntry = (s, depth) => {
    const li = el("li", depth ? "child" : "");
    li.dataset.id = s.id;
    if (s.parent) li.dataset.parent = s.parent;
    li.style.paddingLeft = `${0.6 + depth * 1.1}rem`;
    if (s.id === state.session) li.classList.add("current");
    li.appendChild(el("span", "title", (depth ? "↳ " : "") + (s.title || "(empty)")));
    const meta = el("span", "dim");
    meta.appendChild(el("span", `badge ${s.status}`, STATUS_WORDS[s.status] || s.status));
    const when = s.status === "waiting" && s.wake_at ? ` wakes ${fmtTime(s.wake_at)}` : ` ${fmtTime(s.updated)}`;
    meta.appendChild(document.createTextNode(when));
    if (s.parent) meta.appendChild(document.createTextNode(` · sub-agent of ${s.parent}`));
    li.appendChild(meta);
    li.addEventListener("click", () => {
      $("sessions").classList.remove("open");
      openSession(s.id);
    });
    list.appendChild(li);
    for (const c of (children.get(s.id) || []).reverse()) addEntry(c, depth + 1);
  };
  for (const s of sessions) if (!s.parent || !ids.has(s.parent)) addEntry(s, 0);
}

// A status as the list says it: a session that waits for an answer waits for you, not "running".
const STATUS_WORDS = { needs_you: "waits for you" };

// Finish markers are for Hearth, not for the reader: hidden from text as it streams in (the
// final text comes without them from the server), a partial marker at the end included.
const MARKER = /\bTASK[ _-]?COMPLETED?\b|\btask_complete\b/gi;
// A completion claim alone on its line ("# Task Complete", "The task is done.") is one too.
const CLAIM = /^[ \t>#*_`-]*(?:the\s+)?task\s*(?:is\s+|has\s+been\s+)?(?:now\s+)?(?:complete|completed|done|finished)[ \t.!*_`]*$/gim;
function hideMarkers(text) {
  const cut = text.replace(MARKER, "").replace(CLAIM, "");
  const tail = cut.match(/\bT(?:A(?:S(?:K(?:_(?:C(?:O(?:M(?:P(?:L(?:E(?:T)?)?)?)?)?)?)?)?)?)?)?$/);
  return (tail ? cut.slice(0, tail.index) : cut).replace(/\s+$/, "");
}

function fmtTime(iso) {
  const d = new Date(iso);
  return isNaN(d) ? "" : d.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function clearChat() {
  closeSocket();
  state.session = null;
  state.budget = null;
  showBudget();
  history.replaceState(null, "", location.pathname);
  $("messages").replaceChildren(el("p", "dim", "New session: say what you want done."));
  $("work").hidden = true;
  if (state.defaultMode) $("mode").value = state.defaultMode;
  setRunning(false);
  resetTurn();
}

function openSession(id) {
  closeSocket();
  state.session = id;
  state.budget = null;
  showBudget();
  history.replaceState(null, "", `#s=${encodeURIComponent(id)}`);
  document.querySelectorAll("#session-list li").forEach((li) => li.classList.toggle("current", li.dataset.id === id));
  connect(id);
}

function closeSocket() {
  if (state.ws) {
    state.ws.onclose = null;
    state.ws.close();
    state.ws = null;
  }
}

function connect(id) {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(id)}`);
  state.ws = ws;
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onclose = (e) => {
    if (state.ws !== ws) return;
    line(`Disconnected (${e.code}). Reconnecting…`, "error");
    setTimeout(() => state.session === id && connect(id), 1500);
  };
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(message));
}

// ---- rendering of the session's messages ---------------------------------------------------

function resetTurn() {
  state.stream = null;
  state.thinking = null;
}

function add(node) {
  const box = $("messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  box.appendChild(node);
  if (atBottom) box.scrollTop = box.scrollHeight;
  return node;
}

function line(text, cls = "") {
  return add(el("div", `line ${cls}`, text));
}

function setRunning(running) {
  state.running = running;
  $("stop").hidden = !running;
  $("send").disabled = running;
}

function streamBubble() {
  if (!state.stream) {
    const node = add(el("div", "msg assistant streaming"));
    state.stream = { node, text: "", frame: 0 };
  }
  return state.stream;
}

function paint(bubble) {
  if (bubble.frame) return;
  bubble.frame = requestAnimationFrame(() => {
    bubble.frame = 0;
    bubble.node.replaceChildren(renderMarkdown(hideMarkers(bubble.text)));
    const box = $("messages");
    if (box.scrollHeight - box.scrollTop - box.clientHeight < 160) box.scrollTop = box.scrollHeight;
  });
}

function thinkingBlock() {
  if (!state.thinking) {
    const details = add(el("details", "thinking"));
    details.appendChild(el("summary", null, "thinking…"));
    const pre = details.appendChild(el("pre"));
    state.thinking = { details, pre };
  }
  return state.thinking;
}

function shortArgs(input) {
  if (!input || typeof input !== "object") return "";
  const first = input.command ?? input.path ?? input.pattern ?? input.query;
  const text = typeof first === "string" ? first : JSON.stringify(input);
  return text.length > 120 ? text.slice(0, 117) + "…" : text;
}

function handle(msg) {
  switch (msg.type) {
    case "hello":
      $("messages").replaceChildren();
      resetTurn();
      state.tools.clear();
      state.budget = null;
      for (const m of msg.history) render(m);
      showBudget();
      resetTurn();
      setRunning(msg.running);
      $("mode").value = msg.mode;
      for (const m of state.pendingSend || []) send(m);
      state.pendingSend = null;
      $("messages").scrollTop = $("messages").scrollHeight;
      return;
    case "pong":
    case "stopping":
      return;
    default:
      if (msg.session && state.session && msg.session !== state.session) renderChild(msg);
      else render(msg);
  }
}

function render(msg) {
  switch (msg.type) {
    case "user_message":
      resetTurn();
      add(el("div", "msg user", msg.text));
      setRunning(true);
      break;
    case "delta":
      if (msg.kind === "thinking") {
        thinkingBlock().pre.textContent += msg.text;
      } else if (msg.kind === "text") {
        const bubble = streamBubble();
        bubble.text += msg.text;
        paint(bubble);
      } else if (msg.kind === "retry") {
        line(msg.text);
      }
      break;
    case "thinking":
      if (msg.text && !state.thinking) thinkingBlock().pre.textContent = msg.text;
      if (state.thinking) state.thinking.details.querySelector("summary").textContent = `thinking (step ${msg.iteration})`;
      if (!msg.text && state.thinking && !state.thinking.pre.textContent) state.thinking.details.remove();
      state.thinking = null;
      break;
    case "text": {
      const bubble = streamBubble();
      if (bubble.frame) cancelAnimationFrame(bubble.frame);
      bubble.frame = 0;
      if (!msg.text.trim()) {
        bubble.node.remove();
        state.stream = null;
        break;
      }
      bubble.text = msg.text;
      bubble.node.replaceChildren(renderMarkdown(msg.text));
      bubble.node.classList.remove("streaming");
      state.stream = null;
      break;
    }
    case "tool_call": {
      if (state.stream && !state.stream.text.trim()) state.stream.node.remove();
      state.stream = null;
      const details = add(el("details", "tool pending"));
      const summary = details.appendChild(el("summary"));
      summary.appendChild(el("span", "state", "…"));
      summary.appendChild(el("span", "name", msg.tool));
      summary.appendChild(el("span", "args", shortArgs(msg.input)));
      summary.appendChild(el("span", "time dim", ""));
      details.appendChild(el("pre", "input", JSON.stringify(msg.input, null, 2)));
      state.tools.set(msg.tool_call_id, details);
      break;
    }
    case "tool_result": {
      let details = state.tools.get(msg.tool_call_id);
      if (!details) {
        render({ type: "tool_call", tool: msg.tool, input: {}, tool_call_id: msg.tool_call_id });
        details = state.tools.get(msg.tool_call_id);
      }
      details.classList.remove("pending");
      details.classList.add(msg.success ? "ok" : "failed");
      details.querySelector(".state").textContent = msg.success ? "✓" : "✗";
      details.querySelector(".time").textContent = `${Math.round(msg.duration_ms)} ms`;
      details.appendChild(el("pre", "output", msg.output ?? msg.result_preview ?? ""));
      break;
    }
    case "permission": {
      const details = state.tools.get(msg.tool_call_id);
      if (details && !msg.allowed) details.appendChild(el("div", "line error", `denied (${msg.by}): ${msg.reason}`));
      break;
    }
    case "approval_request":
      approvalCard(msg);
      refreshSessions();
      break;
    case "plan_approval":
      planCard(msg);
      refreshSessions();
      break;
    case "answered": {
      if (state.questions.has(msg.id)) refreshSessions();
      const card = state.questions.get(msg.id);
      if (card) {
        card.classList.add("answered");
        card.querySelectorAll("button, textarea").forEach((b) => (b.disabled = true));
        card.querySelector("strong").textContent += ` · ${card.dataset.answer || "answered"}`;
      }
      break;
    }
    case "plan_ready": {
      const box = add(el("div", "msg assistant"));
      box.appendChild(el("strong", null, "Plan"));
      const ol = box.appendChild(el("ol"));
      for (const step of msg.steps) ol.appendChild(el("li", null, step));
      break;
    }
    case "task_update":
      $("work").hidden = !msg.summary;
      $("work").replaceChildren(el("pre", null, msg.summary));
      break;
    case "hearth_message":
      line(`hearth (${msg.reason}): ${msg.text.length > 300 ? msg.text.slice(0, 300) + "…" : msg.text}`);
      break;
    case "reflected":
      if (msg.error) line(`reflection: nothing stored (${msg.error})`);
      else if (msg.stored.length) line(`reflection: remembered ${msg.stored.join(", ")} (see Memory)`);
      break;
    case "rule_remembered":
      line(`allowed for this session: ${msg.pattern === null ? msg.tool : `${msg.tool}(${msg.pattern})`}`);
      break;
    case "budget_set":
      line(`token budget: ${msg.tokens}`);
      state.budget = { limit: msg.tokens, used: 0 };
      showBudget();
      break;
    case "usage":
    case "model_used": {
      // a reply's usage, or that of Hearth's own request beside the conversation (a summary, versions)
      const u = msg.type === "usage" ? msg : msg.usage;
      if (state.budget) {
        // what the budget counts (agent/budget.py): new prompt tokens plus output
        state.budget.used += Math.max(0, u.prompt_tokens - u.cached_tokens) + u.completion_tokens;
        showBudget();
      }
      break;
    }
    case "notice":
      line(`note (${msg.reason}): ${msg.text.length > 300 ? msg.text.slice(0, 300) + "…" : msg.text}`);
      break;
    case "compacted":
      line(`context compacted: ${msg.reason}`);
      break;
    case "window_learned":
      line(`context window: ${msg.window} tokens (${msg.reason})`);
      break;
    case "checkpoint":
      line(`checkpoint before step ${msg.step}`);
      break;
    case "model_chosen":
      line(`model of the ${msg.role} role: ${msg.model}`);
      break;
    case "mode_changed":
      $("mode").value = msg.mode;
      line(`mode: ${msg.mode}`);
      break;
    case "error":
      line(msg.hint ? `${msg.message} → ${msg.hint}` : msg.message, "error");
      break;
    case "done": {
      resetTurn();
      const ok = msg.status === "done";
      const words = { done: "✓ done", interrupted: "■ stopped", blocked: "⚠ blocked", waiting: "⏸ waiting", limit: "■ limit reached", error: "✗ error" };
      let text = words[msg.status] || msg.status;
      if (msg.reason && !ok) text += `: ${msg.reason}`;
      if (msg.wake_at) text += ` (wakes ${fmtTime(msg.wake_at)})`;
      line(text, `done ${ok ? "ok" : ""}`);
      setRunning(false);
      refreshSessions();
      break;
    }
  }
}

// A sub-agent working for this session: its progress, live, as lines that open its own session.
function renderChild(msg) {
  const who = `sub-agent ${msg.session.slice(-6)}`;
  let text = null;
  let cls = "subagent";
  switch (msg.type) {
    case "session_started":
      text = `${who} started (${msg.model})`;
      break;
    case "tool_call":
      text = `${who} → ${msg.tool} ${shortArgs(msg.input)}`;
      break;
    case "tool_result":
      text = `${who} ${msg.success ? "✓" : "✗"} ${msg.tool}`;
      break;
    case "done":
      text = `${who} ${msg.status === "done" ? "finished" : msg.status}${msg.reason && msg.status !== "done" ? `: ${msg.reason}` : ""}`;
      cls += msg.status === "done" ? " ok" : " failed";
      break;
  }
  if (text === null) return;
  const node = line(text, cls);
  node.dataset.session = msg.session;
  node.title = `Open the sub-agent's session ${msg.session}`;
  node.addEventListener("click", () => openSession(msg.session));
}

function approvalCard(msg) {
  const card = el("div", "question");
  // Drawn before the call it gates (its result lands in the call's card): the question comes first.
  const gated = [...document.querySelectorAll("#messages details.tool.pending")].reverse()
    .find((d) => d.querySelector(".name")?.textContent === msg.tool);
  if (gated) gated.before(card);
  else add(card);
  card.appendChild(el("strong", null, `${msg.tool} needs your approval`));
  card.appendChild(el("div", "dim", msg.reason));
  card.appendChild(el("pre", null, msg.shown));
  const buttons = card.appendChild(el("div", "buttons"));
  const answer = (decision, message = "") => send({ type: "approve", id: msg.id, decision, message });
  const button = (label, cls, fn) => {
    const b = buttons.appendChild(el("button", cls, label));
    b.type = "button";
    b.addEventListener("click", () => {
      card.dataset.answer = label.replace("…", "").toLowerCase();
      fn();
    });
  };
  button("Allow once", "primary", () => answer("allow"));
  button("Allow for this session", "", () => answer("session"));
  button("Deny", "", () => answer("deny"));
  button("Deny with a message…", "", () => {
    const text = prompt("Message to the model:");
    if (text !== null) answer("deny", text);
  });
  state.questions.set(msg.id, card);
}

function planCard(msg) {
  const card = add(el("div", "question"));
  card.appendChild(el("strong", null, "Approve the plan?"));
  const area = card.appendChild(el("textarea"));
  area.value = msg.steps.join("\n");
  area.setAttribute("aria-label", "Plan steps, one per line");
  const buttons = card.appendChild(el("div", "buttons"));
  const decide = (decision) => send({ type: "plan_decision", id: msg.id, decision, steps: area.value.split("\n") });
  const approve = buttons.appendChild(el("button", "primary", "Approve (with edits)"));
  approve.type = "button";
  approve.addEventListener("click", () => decide("approve"));
  const reject = buttons.appendChild(el("button", "", "Reject"));
  reject.type = "button";
  reject.addEventListener("click", () => decide("reject"));
  state.questions.set(msg.id, card);
}

// ---- voice input: shown only when the model server transcribes speech -------------------------

async function setupVoice() {
  const button = $("voice");
  let voice;
  try {
    voice = await api("/api/voice");
  } catch {
    return;
  }
  button.hidden = !(voice.available && navigator.mediaDevices && window.MediaRecorder);
  if (button.hidden || button.dataset.ready) return;
  button.dataset.ready = "1";
  let recorder = null;
  button.addEventListener("click", async () => {
    if (recorder) {
      recorder.stop();
      return;
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      line(`microphone: ${err.message}`, "error");
      return;
    }
    const chunks = [];
    recorder = new MediaRecorder(stream);
    recorder.addEventListener("dataavailable", (e) => e.data.size && chunks.push(e.data));
    recorder.addEventListener("stop", async () => {
      stream.getTracks().forEach((t) => t.stop());
      recorder = null;
      button.classList.remove("recording");
      button.textContent = "🎤";
      const blob = new Blob(chunks, { type: chunks[0]?.type || "audio/webm" });
      try {
        const { text } = await api("/api/voice/transcribe", { method: "POST", body: blob, headers: { "Content-Type": blob.type.split(";")[0] || "audio/webm" } });
        const input = $("input");
        input.value = input.value ? `${input.value} ${text}` : text;
        input.focus();
      } catch (err) {
        line(`voice: ${err.message}`, "error");
      }
    });
    recorder.start();
    button.classList.add("recording");
    button.textContent = "■";
  });
}

// ---- composer and header -------------------------------------------------------------------

function showBudget() {
  const meter = $("budget-meter");
  meter.hidden = !state.budget;
  if (state.budget) meter.textContent = `budget: ${state.budget.used} / ${state.budget.limit} tokens`;
}

$("deep-work").addEventListener("change", () => ($("budget").hidden = !$("deep-work").checked));

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value.trim();
  if (!text || state.running) return;
  const message = { type: "message", content: text, plan: $("plan-first").checked };
  if ($("deep-work").checked) {
    message.deep = true;
    const budget = parseInt($("budget").value, 10);
    if (budget > 0) message.budget = budget;
  }
  $("input").value = "";
  if (!state.session) {
    const { id } = await api("/api/sessions", { method: "POST" });
    const mode = $("mode").value;
    state.pendingSend = mode === state.defaultMode ? [message] : [{ type: "set_mode", mode }, message];
    openSession(id);
    refreshSessions();
  } else send(message);
});

$("input").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});

$("stop").addEventListener("click", () => send({ type: "stop" }));
$("new-session").addEventListener("click", clearChat);
$("refresh-sessions").addEventListener("click", refreshSessions);
$("toggle-sessions").addEventListener("click", () => $("sessions").classList.toggle("open"));
$("mode").addEventListener("change", () => {
  // without a session yet, the mode is sent along with the first message
  if (state.session) send({ type: "set_mode", mode: $("mode").value });
});

// ---- panels: tools, usage, files --------------------------------------------------------------

function panel(title) {
  $("panel-title").textContent = title;
  const body = $("panel-body");
  body.replaceChildren();
  if (!$("panel").open) $("panel").showModal();
  return body;
}
$("panel-close").addEventListener("click", () => $("panel").close());

$("open-tools").addEventListener("click", async () => {
  const body = panel("Tools");
  const { mcp_servers: servers } = await api("/api/status");
  if (servers.length) {  // each MCP server's state: starting, its tools, or why it failed
    const box = body.appendChild(el("details", "mcp-servers"));
    box.open = true;
    box.appendChild(el("summary")).appendChild(el("strong", null, "MCP servers"));
    for (const line of servers) box.appendChild(el("p", "mcp-server", line));
  }
  for (const tool of await api("/api/tools")) {
    const entry = body.appendChild(el("details", "tool-entry"));
    const summary = entry.appendChild(el("summary"));
    summary.appendChild(el("strong", null, tool.name));
    summary.appendChild(document.createTextNode(` ${tool.read_only ? "· read-only" : ""} · ${tool.source}`));
    entry.appendChild(el("p", null, tool.description));
    entry.appendChild(el("pre", null, JSON.stringify(tool.parameters, null, 2)));
  }
});

$("open-usage").addEventListener("click", () => showUsage("7d"));

$("export-session").addEventListener("click", () => {
  if (state.session) window.open(`/api/sessions/${encodeURIComponent(state.session)}/export?format=md`, "_blank", "noopener");
});

// The model of each role in this session; a choice is recorded in the session (it holds on resume).
$("open-models").addEventListener("click", async () => {
  if (!state.session) {
    const { id } = await api("/api/sessions", { method: "POST" });
    openSession(id);
    refreshSessions();
  }
  showModels();
});

async function showModels(error = "") {
  const body = panel("Models");
  const id = state.session;
  const [roles, listed] = await Promise.all([
    api(`/api/sessions/${encodeURIComponent(id)}/models`),
    api("/api/models").catch(() => ({ models: [] })),
  ]);
  const options = body.appendChild(el("datalist"));
  options.id = "server-models";
  for (const m of listed.models) options.appendChild(el("option")).value = m;
  body.appendChild(el("p", "dim", "The model each role uses in this session, from its next request on."));
  if (error) body.appendChild(el("p", "error", error));
  const table = body.appendChild(el("table", "roles"));
  for (const r of roles) {
    const row = table.appendChild(el("tr"));
    row.dataset.role = r.role;
    row.appendChild(el("th", null, r.role));
    const flags = [r.vision && "vision", r.json_schema && "json-schema", r.thinking && "thinking", r.native_tools === false && "text tools"].filter(Boolean);
    row.appendChild(el("td", "dim", (r.server ? `@ ${r.server} ` : "") + flags.join(", ")));
    const cell = row.appendChild(el("td"));
    const input = cell.appendChild(el("input"));
    input.value = r.model;
    input.placeholder = "(server default)";
    input.setAttribute("list", "server-models");
    input.setAttribute("aria-label", `Model of the ${r.role} role`);
    const use = cell.appendChild(el("button", "", "Use"));
    use.type = "button";
    use.addEventListener("click", async () => {
      try {
        await api(`/api/sessions/${encodeURIComponent(id)}/model`, { method: "POST", body: { role: r.role, model: input.value.trim() } });
        showModels();
      } catch (err) {
        showModels(err.message);
      }
    });
  }
}

async function showUsage(range) {
  const body = panel("Usage");
  const picker = body.appendChild(el("div", "buttons"));
  for (const r of ["today", "7d", "30d", "all"]) {
    const b = picker.appendChild(el("button", r === range ? "primary" : "", r));
    b.addEventListener("click", () => showUsage(r));
  }
  const usage = await api(`/api/usage?range=${range}`);
  body.appendChild(el("p", null, `${usage.prompt_tokens} tokens in (${usage.cached_tokens} cached) · ${usage.completion_tokens} out · ${usage.requests} requests`));
  const chart = body.appendChild(el("div", "chart"));
  const labels = body.appendChild(el("div", "chart-labels"));
  const max = Math.max(1, ...usage.days.map((d) => d.prompt_tokens + d.completion_tokens));
  for (const d of usage.days) {
    const total = d.prompt_tokens + d.completion_tokens;
    const bar = chart.appendChild(el("div", "bar"));
    bar.style.height = `${Math.round((100 * total) / max)}%`;
    bar.title = `${d.day}: ${d.prompt_tokens} in, ${d.cached_tokens} cached, ${d.completion_tokens} out`;
    labels.appendChild(el("span", null, d.day.slice(5)));
  }
  if (!usage.days.length) body.appendChild(el("p", "dim", "No model requests in this range."));
}

$("open-settings").addEventListener("click", () => showSettings());

async function showSettings() {
  let status;
  try {
    status = await api("/api/status");
  } catch (err) {
    panel("Settings").appendChild(el("p", "error", err.message));
    return;
  }
  const body = panel("Settings");
  const table = body.appendChild(el("table", "settings"));
  const row = (label, key, value, hint = "") => {
    const tr = table.appendChild(el("tr"));
    tr.appendChild(el("th", null, label));
    const td = tr.appendChild(el("td", null, value));
    td.dataset.setting = key;
    if (hint) td.appendChild(el("div", "dim", hint));
  };
  row("Model", "model", status.model, `${status.server} · ${status.context_window} tokens (${status.context_source}) · tool calls: ${status.tool_mode}`);
  row("Mode", "mode", status.permission_mode, "Change it for this session with the mode menu above.");
  row("Sandbox", "sandbox", status.sandbox_backend);
  row("It protects", "protects", status.sandbox_protects);
  if (status.sandbox_warning) row("Warning", "warning", status.sandbox_warning);
  row("Network", "network", status.network);
  row("Workspace", "workspace", status.workspace);
  if (status.mcp_servers.length) row("MCP servers", "mcp", status.mcp_servers.join("\n"));
  body.appendChild(el("p", "dim", "Settings come from the config files and HEARTH_ variables (hearth config shows where each came from); changes apply when hearth web starts again."));
}

$("open-jobs").addEventListener("click", () => showJobs());

let jobsShown = 0; // only the newest of overlapping refreshes draws the panel
// a refresh still loading when the person closes the panel (button or Escape) must not reopen it
$("panel").addEventListener("close", () => { jobsShown++; });

async function showJobs() {
  const mine = ++jobsShown;
  const cron = await api("/api/cron");
  if (mine !== jobsShown) return;
  const body = panel("Scheduled jobs");
  body.appendChild(el("p", "dim", cron.scheduler ? "The scheduler runs in this server." : `No scheduler in this server: ${cron.note}`));
  const buttons = body.appendChild(el("div", "buttons"));
  buttons.appendChild(el("button", null, "Reload schedules.toml")).addEventListener("click", () => jobAction("/api/cron/reload"));
  body.appendChild(addJobForm());
  if (!cron.jobs.length) body.appendChild(el("p", "dim", "No jobs yet."));
  const table = body.appendChild(el("table", "jobs"));
  const head = table.appendChild(el("tr"));
  for (const h of ["job", "schedule", "state", "next run", "last run", "session", ""]) head.appendChild(el("th", null, h));
  for (const job of cron.jobs) {
    const row = table.appendChild(el("tr"));
    row.dataset.job = job.id;
    row.appendChild(el("td", null, job.id)).title = job.prompt;
    row.appendChild(el("td", null, `${job.schedule} (${job.tz})`));
    row.appendChild(el("td", "state", !job.approved ? "needs approval" : job.enabled ? "enabled" : "paused"));
    row.appendChild(el("td", null, job.next_run ? fmtTime(job.next_run) : "-"));
    row.appendChild(el("td", "last", job.last_run ? `${fmtTime(job.last_run)} ${job.last_status || ""}` : "-"));
    const cell = row.appendChild(el("td"));
    if (job.last_session) {
      const link = cell.appendChild(el("a", "session-link", job.last_session));
      link.href = `#s=${encodeURIComponent(job.last_session)}`;
      link.addEventListener("click", () => $("panel").close());
    }
    const actions = row.appendChild(el("td", "buttons"));
    if (!job.approved) {
      actions.appendChild(el("button", null, "Approve")).addEventListener("click", () => jobAction(`/api/cron/${encodeURIComponent(job.id)}/approve`));
    } else {
      actions.appendChild(el("button", null, "Run now")).addEventListener("click", () => jobAction(`/api/cron/${encodeURIComponent(job.id)}/run`));
      actions.appendChild(el("button", null, job.enabled ? "Pause" : "Resume")).addEventListener("click", () => jobAction(`/api/cron/${encodeURIComponent(job.id)}/toggle`));
    }
  }
}

function addJobForm() {
  const form = el("form", "add-job");
  const field = (name, label, placeholder) => {
    const wrap = form.appendChild(el("label", null, label));
    const input = wrap.appendChild(el(name === "prompt" ? "textarea" : "input"));
    input.name = name;
    input.required = true;
    input.placeholder = placeholder;
    return input;
  };
  form.appendChild(el("strong", null, "Add a job"));
  field("id", "Name", "nightly-tests");
  field("schedule", "When: every 30m, daily 09:00, hourly :15, or cron such as 0 3 * * *", "daily 09:00");
  field("prompt", "Task", "Run the tests and tell me what failed");
  const submit = form.appendChild(el("button", "primary", "Add"));
  submit.type = "submit";
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    try {
      await api("/api/cron", { method: "POST", body: data });
    } catch (err) {
      form.querySelector(".error")?.remove();
      form.appendChild(el("p", "error", err.message));
      return;
    }
    await showJobs();
  });
  return form;
}

async function jobAction(path) {
  try {
    await api(path, { method: "POST" });
  } catch (err) {
    $("panel-body").prepend(el("p", "error", err.message));
    return;
  }
  await showJobs();
}

$("open-bridges").addEventListener("click", () => showBridges());

async function showBridges(data) {
  const info = data || (await api("/api/bridges"));
  const body = panel("Messaging bridges");
  body.appendChild(el("p", null, info.active ? `Active: ${info.active} (one bridge at a time).` : "No bridge is running."));
  const list = body.appendChild(el("ul", "bridges"));
  for (const b of info.bridges) {
    const li = list.appendChild(el("li"));
    li.dataset.bridge = b.name;
    li.appendChild(el("strong", null, b.name));
    if (b.webhook) li.appendChild(el("span", "dim", ` · its platform calls ${location.origin}${b.webhook} (through your tunnel)`));
    if (!b.configured) {
      li.appendChild(el("span", "dim", " · not set up (token and allow-list in the config)"));
    } else if (info.active === b.name) {
      li.appendChild(el("button", null, "Stop")).addEventListener("click", () => bridgeAction("/api/bridges/stop"));
    } else {
      li.appendChild(el("button", null, "Start")).addEventListener("click", () => bridgeAction(`/api/bridges/${b.name}/start`));
    }
  }
  body.appendChild(el("h3", null, "Feed"));
  body.appendChild(el("pre", "bridge-log", info.log.length ? info.log.join("\n") : "(nothing yet)"));
}

async function bridgeAction(path) {
  try {
    await showBridges(await api(path, { method: "POST" }));
  } catch (err) {
    $("panel-body").prepend(el("p", "error", err.message));
  }
}

$("open-files").addEventListener("click", () => showFiles());

// The workspace as a folder tree (the server leaves out secrets, .hearth/ and .git/), with uploads.
async function showFiles(note = "") {
  const body = panel("Workspace files");
  const bar = body.appendChild(el("div", "upload-bar"));
  const folder = bar.appendChild(el("input"));
  folder.id = "upload-folder";
  folder.value = "uploads";
  folder.setAttribute("aria-label", "Upload into folder");
  const picker = bar.appendChild(el("input"));
  picker.type = "file";
  picker.multiple = true;
  picker.id = "upload-input";
  picker.setAttribute("aria-label", "Upload files");
  const status = body.appendChild(el("p", "dim", note));
  status.id = "upload-status";
  picker.addEventListener("change", () => upload(picker.files, folder.value, status));
  const { files } = await api("/api/files");
  const view = el("div");
  body.appendChild(tree(files, view));
  body.appendChild(view);
  if (!files.length) body.appendChild(el("p", "dim", "The workspace is empty."));
}

async function upload(files, folder, status) {
  const base = folder.trim().replace(/^\/+|\/+$/g, "");
  const saved = [];
  for (const file of files) {
    const path = base ? `${base}/${file.name}` : file.name;
    try {
      const r = await api(`/api/files/upload?path=${encodeURIComponent(path)}`, { method: "PUT", body: file });
      saved.push(r.path);
    } catch (err) {
      status.className = "error";
      status.textContent = `${path}: ${err.message}`;
      return;
    }
  }
  const input = $("input");
  input.value = `${input.value}${input.value && !input.value.endsWith("\n") ? "\n" : ""}Uploaded: ${saved.join(", ")}`;
  await showFiles(`Uploaded ${saved.join(", ")}`);
}

function tree(files, view) {
  const root = { dirs: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split("/");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.dirs.has(part)) node.dirs.set(part, { dirs: new Map(), files: [] });
      node = node.dirs.get(part);
    }
    node.files.push({ name: parts[parts.length - 1], ...f });
  }
  const build = (node) => {
    const list = el("ul", "files");
    for (const [name, sub] of [...node.dirs].sort(([a], [b]) => a.localeCompare(b))) {
      const folder = list.appendChild(el("li", "folder"));
      const details = folder.appendChild(el("details"));
      details.open = true;
      details.appendChild(el("summary", null, `${name}/`));
      details.appendChild(build(sub));
    }
    for (const f of node.files) {
      const li = list.appendChild(el("li", "file", `${f.name} (${f.size} B)`));
      li.title = f.path;
      li.addEventListener("click", () => showFile(view, f.path));
    }
    return list;
  };
  return build(root);
}

async function showFile(view, path) {
  const url = `/api/files/raw?path=${encodeURIComponent(path)}`;
  view.replaceChildren(el("h3", null, path));
  if (/\.(png|jpe?g|gif|webp)$/i.test(path)) {
    const img = view.appendChild(el("img", "file-image"));
    img.alt = path;
    img.src = url;
    return;
  }
  try {
    view.appendChild(el("pre", null, await api(url)));
  } catch (err) {
    view.appendChild(el("p", "error", err.message));
    return;
  }
  if (/\.html?$/i.test(path)) {
    const b = view.insertBefore(el("button", null, "Preview (sandboxed, no scripts)"), view.children[1]);
    b.addEventListener("click", () => {
      const frame = el("iframe", "preview");
      frame.setAttribute("sandbox", "");
      frame.src = `${url}&preview=1`;
      b.replaceWith(frame);
    });
  }
}

// ---- memory: what earlier sessions remembered (text only), searched and forgotten here ----------

$("open-memory").addEventListener("click", () => showMemory("", ""));

async function showMemory(query, kind) {
  const body = panel("Memory");
  const form = body.appendChild(el("form", "memory-search"));
  const input = form.appendChild(el("input"));
  input.type = "search";
  input.placeholder = "Search memories";
  input.setAttribute("aria-label", "Search memories");
  input.value = query;
  const kinds = form.appendChild(el("select"));
  kinds.setAttribute("aria-label", "Kind");
  for (const [value, label] of [["", "all kinds"], ["fact", "facts"], ["learning", "learnings (mistakes)"],
    ["preference", "preferences"], ["skill_candidate", "candidate skills"], ["note", "notes"], ["chunk", "ingested chunks"]]) {
    const option = kinds.appendChild(el("option", null, label));
    option.value = value;
  }
  kinds.value = kind;
  form.appendChild(el("button", null, "Search"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    showMemory(input.value.trim(), kinds.value);
  });
  kinds.addEventListener("change", () => showMemory(input.value.trim(), kinds.value));
  const params = new URLSearchParams({ q: query, kind });
  let found;
  try {
    found = await api(`/api/memory?${params}`);
  } catch (err) {
    body.appendChild(el("p", "error", err.message));
    return;
  }
  for (const notice of found.notices) body.appendChild(el("p", "dim", notice));
  const list = body.appendChild(el("ul", "memories"));
  for (const item of found.items) {
    const li = list.appendChild(el("li", "memory"));
    const head = li.appendChild(el("div", "dim"));
    const when = new Date(item.created * 1000).toLocaleString();
    head.textContent = `[${item.ref}] ${item.kind} · ${item.scope} · ${when}` + (item.session ? ` · session ${item.session}` : "");
    li.appendChild(el("pre", "memory-text", item.text));
    const forget = li.appendChild(el("button", null, "Forget"));
    forget.addEventListener("click", async () => {
      try {
        await api(`/api/memory/${item.scope}/${item.id}`, { method: "DELETE" });
        li.remove();
      } catch (err) {
        li.appendChild(el("p", "error", err.message));
      }
    });
  }
  if (!found.items.length) body.appendChild(el("p", "dim", query ? "No memory matches." : "Nothing remembered yet."));
}

window.addEventListener("hashchange", () => {
  const id = new URLSearchParams(location.hash.slice(1)).get("s");
  if (id && id !== state.session) openSession(id);
});

start();
