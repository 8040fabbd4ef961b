// ralph ui: the dashboard's page. Everything shown comes from the
// project (and much of it from the agent: reflections, commands, file
// names, diffs), so it is only ever put in the page as text.
"use strict";

const token = document.body.dataset.token;
const REFRESH_MS = 2000;
const SVGNS = "http://www.w3.org/2000/svg";

const ui = {
  root: "",
  loops: [],
  selected: new URLSearchParams(location.search).get("loop") || "",
  detail: null,
  log: { hook: "", decision: "", entries: [], total: 0 },
  pending: "",       // a gate decision waiting for its confirmation
  deciding: false,
  result: null,      // the last gate decision's answer
  openIterations: new Set(),
};

// h makes an element: h("td", {class: "num"}, "12", child…).
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

async function api(path, options) {
  const opts = Object.assign({ headers: {} }, options || {});
  opts.headers.Authorization = "Bearer " + token;
  const res = await fetch(path, opts);
  let body = null;
  try { body = await res.json(); } catch (e) { body = { error: res.statusText }; }
  if (!res.ok && !body.error) body.error = res.status + " " + res.statusText;
  return { ok: res.ok, status: res.status, body };
}

function banner(text) {
  const b = document.getElementById("banner");
  b.hidden = !text;
  b.textContent = text || "";
}

// rel shows a path inside the project relative to it.
const rel = (p) => ui.root && p.startsWith(ui.root + "/") ? p.slice(ui.root.length + 1) : p;
const fmtTime = (t) => t ? new Date(t).toLocaleString() : "—";
const fmtQ = (q) => (Math.round(q * 10) / 10).toFixed(1);
const badge = (status) => h("span", { class: "badge " + status }, status);

// ---------- the loop list ----------

function renderLoops() {
  const nav = document.getElementById("loops");
  nav.replaceChildren();
  if (ui.loops.length === 0) {
    nav.append(h("p", { class: "muted" }, "No loop in this project yet. Start one with ralph start \"TASK\" --completion \"CMD\"."));
    return;
  }
  const active = ui.loops.filter((l) => !l.ended), ended = ui.loops.filter((l) => l.ended);
  const item = (l) => h("button", {
    class: "loop" + (l.id === ui.selected ? " selected" : ""), "data-loop": l.id,
    onclick: () => select(l.id),
  },
  h("span", { class: "task" }, l.task),
  h("span", { class: "meta" }, badge(l.status), " ", "iteration " + l.iteration + "/" + l.max_iterations,
    l.iteration > 0 ? " · quality " + fmtQ(l.quality) : "", l.gate && l.status === "waiting" ? " · ⚑ " + l.gate.id : ""),
  h("span", { class: "meta mono" }, l.id));
  if (active.length) nav.append(h("h2", {}, "Active"), ...active.map(item));
  if (ended.length) nav.append(h("h2", {}, "Finished"), ...ended.map(item));
}

function select(id) {
  ui.selected = id;
  ui.detail = null;
  ui.pending = "";
  ui.result = null;
  ui.openIterations.clear();
  const url = new URL(location.href);
  url.searchParams.set("loop", id);
  history.replaceState(null, "", url);
  renderLoops();
  refreshLoop();
}

// ---------- one loop ----------

function renderLoop() {
  const main = document.getElementById("main");
  const d = ui.detail;
  if (!d) {
    main.replaceChildren(h("p", { class: "muted" }, ui.selected ? "Loading…" : "Pick a loop."));
    return;
  }
  main.replaceChildren(
    head(d),
    d.evidence || ui.result ? gate(d) : null,
    chart(d),
    metrics(d),
    iterations(d),
    regressions(d),
    recovery(d),
    checkpoints(d),
    logCard(d),
  );
}

function head(d) {
  const facts = h("dl", { class: "facts" },
    h("dt", {}, "loop"), h("dd", { class: "mono" }, d.id),
    h("dt", {}, "status"), h("dd", {}, badge(d.status), d.reason ? " " + d.reason : ""),
    h("dt", {}, "iteration"), h("dd", {}, d.iteration + " of " + d.max_iterations + (d.ended ? "" : ", next at " + (d.reinforcement_level || "—") + " reinforcement")),
    h("dt", {}, "completion"), h("dd", { class: "mono" }, d.completion),
    h("dt", {}, "best"), h("dd", {}, d.best_iteration ? "iteration " + d.best_iteration + ", quality " + fmtQ(d.best_quality) + (d.best_verified ? " (completion passed)" : "") : "no iteration has ended yet"),
    h("dt", {}, "started"), h("dd", {}, fmtTime(d.started_at)),
    d.stuck ? [h("dt", {}, "stuck"), h("dd", {}, d.stuck)] : null,
  );
  return h("section", { class: "card" }, h("h1", {}, d.task), facts,
    (d.warnings || []).map((w) => h("p", { class: "muted" }, "warning: " + w)));
}

const decisions = {
  approve: { label: "Approve", say: "accept the iteration: its measurements become the loop's new baseline, and the loop goes on" },
  reject: { label: "Reject", say: "restore the files as they were before the iteration, and go on with AGGRESSIVE reinforcement" },
  abort: { label: "Abort", say: "end the loop and archive it, with its report" },
};

function gate(d) {
  const card = h("section", { class: "card gate", id: "gate" });
  if (ui.result) {
    card.append(h("h2", {}, ui.result.ok ? "Decided" : "The decision failed"),
      h("pre", { class: "result", id: "gate-result" }, (ui.result.lines || []).join("\n") + (ui.result.error ? "\n" + ui.result.error : "")));
    if (!d.evidence) return card;
  }
  const g = d.gate, ev = d.evidence;
  card.append(
    h("h2", {}, "⚑ Waiting for your decision at " + g.id + " (iteration " + g.iteration + ")"),
    h("p", {}, g.reason),
    h("p", { class: "muted" }, "Diagnosis: " + g.diagnosis.cause + " (confidence " + g.diagnosis.confidence.toFixed(2) + ")" +
      (g.diagnosis.signals && g.diagnosis.signals.length ? ": " + g.diagnosis.signals.join("; ") : "")),
  );
  if (ev.deleted_tests.length) {
    card.append(h("h3", {}, "Tests deleted"), h("ul", { id: "gate-deleted" }, ev.deleted_tests.map((t) => h("li", { class: "mono" }, t))));
  }
  if (ev.changes.length) {
    card.append(h("h3", {}, "Files the iteration changed"),
      h("ul", { id: "gate-changes" }, ev.changes.map((c) => h("li", { class: "mono" }, c.Op + " " + c.Path))));
  }
  if (ev.patch) card.append(h("h3", {}, "Diff of the test files"), patch(ev.patch));
  if (ev.note) card.append(h("p", { class: "muted" }, ev.note));
  const buttons = h("div", { class: "buttons" });
  for (const [k, v] of Object.entries(decisions)) {
    if (k === "reject" && !g.restore_snapshot) continue;
    buttons.append(h("button", { class: k, id: "gate-" + k, disabled: ui.deciding, onclick: () => { ui.pending = k; renderLoop(); } }, v.label));
  }
  card.append(buttons);
  if (ui.pending) {
    const v = decisions[ui.pending];
    card.append(h("div", { class: "confirmbox" },
      h("p", {}, v.label + " " + g.id + ": " + v.say + "?"),
      h("div", { class: "buttons" },
        h("button", { class: "confirm", id: "gate-confirm", disabled: ui.deciding, onclick: () => decide(d.id, ui.pending) }, "Yes, " + v.label.toLowerCase()),
        h("button", { id: "gate-cancel", disabled: ui.deciding, onclick: () => { ui.pending = ""; renderLoop(); } }, "Cancel"))));
  }
  return card;
}

function patch(text) {
  const pre = h("pre", { id: "gate-patch" });
  for (const line of text.split("\n")) {
    let cls = "";
    if (line.startsWith("+") && !line.startsWith("+++")) cls = "add";
    else if (line.startsWith("-") && !line.startsWith("---")) cls = "del";
    else if (line.startsWith("@@")) cls = "hunk";
    pre.append(cls ? h("span", { class: cls }, line) : line + "\n");
  }
  return pre;
}

async function decide(id, decision) {
  ui.deciding = true;
  renderLoop();
  const res = await api("/api/gate", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ loop: id, decision }),
  });
  ui.deciding = false;
  ui.pending = "";
  ui.result = { ok: res.ok, lines: res.body.lines || [], error: res.body.error || "" };
  if (res.ok) document.body.dataset.decided = decision;
  await refresh();
}

// chart draws the quality trajectory: one point per iteration, the best
// ringed, the good-enough line at 70.
function chart(d) {
  const its = d.iterations;
  const card = h("section", { class: "card" }, h("h2", {}, "Quality by iteration (0–100)"));
  if (!its.length) {
    card.append(h("p", { class: "muted" }, "No iteration has ended yet."));
    return card;
  }
  const W = 720, H = 220, L = 36, R = 12, T = 12, B = 28;
  const n = Math.max(its.length, 2);
  const x = (i) => L + (W - L - R) * (i - 1) / (n - 1);
  const y = (q) => T + (H - T - B) * (1 - q / 100);
  const s = svg("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "quality by iteration" });
  for (const q of [0, 25, 50, 75, 100]) {
    s.append(svg("line", { class: "grid", x1: L, x2: W - R, y1: y(q), y2: y(q) }), svg("text", { x: 4, y: y(q) + 3 }, q));
  }
  s.append(svg("line", { class: "threshold", x1: L, x2: W - R, y1: y(70), y2: y(70) }), svg("text", { x: W - R - 64, y: y(70) - 4 }, "good enough"));
  s.append(svg("line", { class: "axis", x1: L, x2: W - R, y1: y(0), y2: y(0) }));
  const step = Math.ceil(its.length / 20);
  its.forEach((it, i) => { if (i % step === 0 || i === its.length - 1) s.append(svg("text", { x: x(i + 1) - 3, y: H - 10 }, it.iteration)); });
  s.append(svg("polyline", { class: "line", points: its.map((it, i) => x(i + 1) + "," + y(it.quality)).join(" ") }));
  its.forEach((it, i) => {
    let cls = "pt";
    if (it.decision === "gated") cls += " gated";
    else if ((it.regressions || []).length) cls += " regression";
    else if (it.verified) cls += " verified";
    const pt = svg("circle", { class: cls, cx: x(i + 1), cy: y(it.quality), r: 4 });
    pt.append(svg("title", {}, "iteration " + it.iteration + ": " + fmtQ(it.quality) + (it.verified ? ", completion passed" : "") +
      ((it.regressions || []).length ? ", " + it.regressions.length + " regression(s)" : "")));
    s.append(pt);
    if (it.iteration === d.best_iteration) s.append(svg("circle", { class: "best", cx: x(i + 1), cy: y(it.quality), r: 8 }));
  });
  card.append(s, h("div", { class: "legend" },
    h("span", {}, h("i", { class: "sw-it" }), "iteration"),
    h("span", {}, h("i", { class: "sw-ok" }), "completion passed"),
    h("span", {}, h("i", { class: "sw-bad" }), "regression"),
    h("span", {}, h("i", { class: "sw-gate" }), "stopped at the gate"),
    h("span", {}, h("i", { class: "sw-best" }), "best")));
  return card;
}

function metrics(d) {
  if (!d.metrics || !d.metrics.length) return null;
  return h("section", { class: "card" }, h("h2", {}, "Baseline and now"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "metric"), h("th", { class: "num" }, "baseline"), h("th", { class: "num" }, "now"))),
      h("tbody", {}, d.metrics.map((m) => h("tr", {}, h("td", {}, m[0]), h("td", { class: "num" }, m[1]), h("td", { class: "num" }, m[2]))))));
}

function iterations(d) {
  const card = h("section", { class: "card" }, h("h2", {}, "Iterations"));
  if (!d.iterations.length) {
    card.append(h("p", { class: "muted" }, "None has ended yet."));
    return card;
  }
  const body = h("tbody", {});
  for (const it of d.iterations.slice().reverse()) {
    const t = it.tests;
    const open = ui.openIterations.has(it.iteration);
    body.append(h("tr", { class: "clickable", "data-iteration": it.iteration, onclick: () => {
      if (open) ui.openIterations.delete(it.iteration); else ui.openIterations.add(it.iteration);
      renderLoop();
    } },
    h("td", { class: "num" }, it.iteration),
    h("td", {}, fmtTime(it.ended_at)),
    h("td", { class: "num" }, it.exit_code),
    h("td", {}, t ? t.passed + " passed, " + t.failed + " failed" : "—"),
    h("td", { class: "num" }, fmtQ(it.quality)),
    h("td", {}, it.reinforcement_level || ""),
    h("td", {}, it.decision),
    h("td", {}, (it.regressions || []).map((r) => r.type).join(", "))));
    if (open) body.append(h("tr", { class: "detail" }, h("td", { colspan: 8 }, iterationDetail(it))));
  }
  card.append(h("table", {}, h("thead", {}, h("tr", {},
    h("th", { class: "num" }, "#"), h("th", {}, "ended"), h("th", { class: "num" }, "exit"), h("th", {}, "tests"),
    h("th", { class: "num" }, "quality"), h("th", {}, "level"), h("th", {}, "decision"), h("th", {}, "regressions"))), body),
  h("p", { class: "muted" }, "Click an iteration for its reflection, failing tests and output."));
  return card;
}

function iterationDetail(it) {
  const w = it.words, tr = it.trajectory;
  return h("div", {},
    w ? h("dl", { class: "facts" },
      h("dt", {}, "attempted"), h("dd", {}, w.attempted || "—"),
      h("dt", {}, "result"), h("dd", {}, w.result || "—"),
      h("dt", {}, "learned"), h("dd", {}, w.learned || "—"),
      h("dt", {}, "next"), h("dd", {}, w.change || "—"),
      h("dt", {}, "written by"), h("dd", {}, w.source === "agent" ? "the agent" : "ralph, from the facts")) : h("p", { class: "muted" }, "No reflection."),
    tr && tr.files_modified && tr.files_modified.length ? h("p", {}, "Files modified: ", h("span", { class: "mono" }, tr.files_modified.join(", "))) : null,
    it.failing && it.failing.length ? h("p", {}, "Failing: ", h("span", { class: "mono" }, it.failing.join(", "))) : null,
    it.stuck ? h("p", {}, "Stuck: " + it.stuck) : null,
    it.recovery ? h("p", {}, "Recovery: " + it.recovery.trigger + " → " + it.recovery.strategy + " (" + it.recovery.diagnosis.cause + ")") : null,
    it.output_tail ? [h("h3", {}, "Output (last lines)"), h("pre", {}, it.output_tail)] : null);
}

function regressions(d) {
  if (!d.regressions || !d.regressions.length) return null;
  return h("section", { class: "card" }, h("h2", {}, "Regressions against the baseline"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { class: "num" }, "iteration"), h("th", {}, "severity"), h("th", {}, "type"), h("th", {}, "detail"), h("th", {}, "human"))),
      h("tbody", {}, d.regressions.map((r) => h("tr", {}, h("td", { class: "num" }, r.iteration), h("td", {}, r.severity), h("td", {}, r.type),
        h("td", { class: "reason" }, r.detail), h("td", {}, r.decision || ""))))));
}

function recovery(d) {
  if (!d.recovery || !d.recovery.length) return null;
  return h("section", { class: "card" }, h("h2", {}, "Recovery attempts"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { class: "num" }, "iteration"), h("th", {}, "trigger"), h("th", {}, "diagnosis"), h("th", {}, "strategy"))),
      h("tbody", {}, d.recovery.map((a) => h("tr", {}, h("td", { class: "num" }, a.iteration), h("td", {}, a.trigger),
        h("td", {}, a.diagnosis.cause + " (" + a.diagnosis.confidence.toFixed(2) + ")"), h("td", {}, a.strategy + (a.escalated ? ", escalated" : "")))))));
}

function checkpoints(d) {
  if (!d.checkpoints.length) return null;
  return h("section", { class: "card" }, h("h2", {}, "Checkpoints (ralph rollback --checkpoint ID)"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "checkpoint"), h("th", {}, "taken"), h("th", {}, "before"), h("th", {}, "rule"), h("th", { class: "num" }, "paths"))),
      h("tbody", {}, d.checkpoints.map((c) => h("tr", {}, h("td", { class: "mono" }, c.id), h("td", {}, fmtTime(c.created)),
        h("td", { class: "mono reason" }, c.tool + " " + c.target), h("td", {}, c.rule || ""), h("td", { class: "num" }, c.paths))))));
}

function logCard(d) {
  const pick = (name, values) => h("label", {}, name + " ",
    h("select", { id: "log-" + name, onchange: (e) => { ui.log[name] = e.target.value; refreshLog(); } },
      h("option", { value: "" }, "all"), values.map((v) => h("option", { value: v, selected: ui.log[name] === v }, v))));
  const rows = ui.log.entries.slice().reverse().map((e) => h("tr", {},
    h("td", {}, new Date(e.time).toLocaleTimeString()), h("td", {}, e.hook_name), h("td", {}, e.tool || ""),
    h("td", { class: "decision-" + e.decision }, e.decision), h("td", {}, e.rule || ""),
    h("td", { class: "mono reason" }, rel(e.target || "")), h("td", { class: "reason" }, e.reason || e.error || "")));
  return h("section", { class: "card", id: "log" }, h("h2", {}, "Audit log"),
    h("div", { class: "filters" }, pick("hook", ["pre-tool-call", "post-tool-call", "stop", "post-iteration-reflect"]),
      pick("decision", ["allow", "warn", "ask", "deny", "block", "error"]),
      h("span", { class: "muted" }, ui.log.total > ui.log.entries.length ? "the last " + ui.log.entries.length + " of " + ui.log.total : ui.log.total + " calls")),
    rows.length ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "time"), h("th", {}, "hook"), h("th", {}, "tool"), h("th", {}, "decision"),
      h("th", {}, "rule"), h("th", {}, "target"), h("th", {}, "reason"))), h("tbody", {}, rows)) : h("p", { class: "muted" }, "No matching hook call."));
}

// ---------- the task board ----------

function renderBoard(t) {
  const board = document.getElementById("board");
  if (!t.found) { board.hidden = true; return; }
  board.hidden = false;
  board.replaceChildren(h("h2", {}, "Tasks (ralph run)"), h("div", { class: "cols" }, t.columns.map((c) =>
    h("div", { class: "col", "data-column": c }, h("h3", {}, c + " (" + t.board[c].length + ")"),
      t.board[c].map((task) => h("details", { class: "task" },
        h("summary", {}, task.title),
        h("div", { class: "muted mono" }, task.file + (task.id ? " · " + task.id : "") + (task.state ? " · " + task.state : "")),
        task.error ? h("p", { class: "decision-error" }, task.error) : null,
        h("pre", {}, JSON.stringify(task.front_matter, null, 2))))))));
}

// ---------- refreshing ----------

async function refreshLoop() {
  if (!ui.selected) { renderLoop(); return; }
  const id = ui.selected;
  const res = await api("/api/loop?id=" + encodeURIComponent(id));
  if (id !== ui.selected) return;
  if (!res.ok) { banner(res.body.error); return; }
  ui.detail = res.body;
  await refreshLog(true);
}

async function refreshLog(quiet) {
  const q = new URLSearchParams({ id: ui.selected, n: "200" });
  if (ui.log.hook) q.set("hook", ui.log.hook);
  if (ui.log.decision) q.set("decision", ui.log.decision);
  const res = await api("/api/log?" + q);
  if (res.ok) { ui.log.entries = res.body.entries; ui.log.total = res.body.total; }
  renderLoop();
}

let failures = 0;

async function refresh() {
  try {
    const res = await api("/api/loops");
    if (!res.ok) { banner(res.body.error); return; }
    ui.loops = res.body.loops;
    ui.root = res.body.root;
    if (!ui.selected && ui.loops.length) {
      const first = ui.loops.find((l) => l.status === "waiting") || ui.loops[0];
      ui.selected = first.id;
    }
    renderLoops();
    if (!ui.pending && !ui.deciding) await refreshLoop();
    const tasks = await api("/api/tasks");
    if (tasks.ok) renderBoard(tasks.body);
    failures = 0;
    banner("");
    const live = document.getElementById("live");
    live.textContent = "live · updated " + new Date().toLocaleTimeString();
    live.classList.remove("stale");
    document.body.dataset.ready = "1";
  } catch (e) {
    failures++;
    const live = document.getElementById("live");
    live.textContent = "not updating";
    live.classList.add("stale");
    if (failures > 1) banner("Lost contact with ralph ui: is it still running?");
  }
}

async function loop() {
  if (!document.hidden) await refresh();
  setTimeout(loop, REFRESH_MS);
}

loop();
