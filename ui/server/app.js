// mjtable tournament pages: fill the shells from the JSON API and the live event stream.
// Every value goes in with textContent, never as HTML.
"use strict";
const T = JSON.parse(document.getElementById("i18n").textContent);
const page = document.body.dataset.page;
const lang = document.body.dataset.lang;

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
function row(cells, head) {
  const tr = el("tr");
  for (const c of cells) tr.appendChild(c instanceof Node ? wrap(c, head) : el(head ? "th" : "td", c));
  return tr;
}
function wrap(node, head) { const td = el(head ? "th" : "td"); td.appendChild(node); return td; }
function fill(tbody, rows) { tbody.replaceChildren(...rows); }
for (const e of document.querySelectorAll("[data-t]")) e.textContent = T[e.dataset.t] || e.dataset.t;
for (const e of document.querySelectorAll("[data-ph]")) e.placeholder = T[e.dataset.ph] || e.dataset.ph;

function live(url, render) {
  const conn = document.getElementById("conn");
  const source = new EventSource(url);
  source.onopen = () => { conn.textContent = T.live; conn.className = "ok"; };
  source.onerror = () => { conn.textContent = T.connecting; conn.className = "error"; };
  source.onmessage = (msg) => render(JSON.parse(msg.data));
}

function renderStandings(data) {
  document.getElementById("title").textContent = `${data.tournament} · ${T.standings}`;
  const table = document.getElementById("standings");
  fill(table.tHead, [row([T.rank, T.player, T.points, T.score, T.adjustments, T.firsts, T.tables], true)]);
  fill(table.tBodies[0], data.rows.map((r) => {
    const tr = row([r.rank, r.player, r.points, r.score, r.adjustments, r.firsts, r.tables]);
    if (r.tied) tr.className = "tied";
    return tr;
  }));
  const tables = document.getElementById("tables");
  const grid = el("table");
  grid.appendChild(row([T.round, T.table, T.player, T.score, T.hands, T.status], true));
  for (const t of data.tables) {
    const link = el("a", `${t.round}-${t.table}`, { href: `/tables/${t.round}/${t.table}?lang=${lang}` });
    const who = t.players.map((p, i) => `${p} ${t.totals[i]}`).join(" · ");
    grid.appendChild(row([t.round, link, who, t.totals.join(" / "), t.hands,
      t.final ? T.final : T.provisional]));
  }
  tables.replaceChildren(grid);
  fill(document.getElementById("adjustments"), data.adjustments.map((a) =>
    el("li", `${a.player} ${a.points > 0 ? "+" : ""}${a.points}: ${a.why} (${T.by} ${a.actor}, ${a.created})`)));
  const zs = document.getElementById("zero-sum");
  const problems = data.zero_sum.concat(data.problems);
  zs.textContent = problems.length ? problems.join("; ") : T.ok;
  zs.className = problems.length ? "error" : "ok";
}

function renderTable(data) {
  document.getElementById("title").textContent = `${T.round} ${data.round} · ${T.table} ${data.table}`;
  const seats = document.getElementById("seats");
  fill(seats.tHead, [row([T.seat, T.player, T.score, T.place, T.points], true)]);
  fill(seats.tBodies[0], data.players.map((p, i) => {
    const sub = data.substitutes.filter((s) => s.seat === i).map((s) => ` (${s.substitute})`).join("");
    return row([i, p + sub, data.totals[i], data.places[i] || "", data.points[i]]);
  }));
  document.getElementById("hands").textContent = data.hands;
  document.getElementById("status").textContent = data.problem || data.status;
  fill(document.getElementById("events"), data.events.map((e) => el("li", `#${e.seq} ${e.at} ${e.who}: ${e.what}`)));
}

// ---------------------------------------------------------------- referee desk
function requestId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `r${Date.now()}${Math.random().toString(16).slice(2)}`;
}
async function send(url, body) {
  const token = document.getElementById("token").value.trim();
  sessionStorage.setItem("mjtable-referee", token);
  const result = document.getElementById("result");
  const resp = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...body, request_id: requestId() }),
  });
  const data = await resp.json();
  result.textContent = resp.ok ? `${T.saved}: ${JSON.stringify(data)}` : data.error;
  result.className = resp.ok ? "ok" : "error";
  if (resp.ok) loadWrites();
}
function values(form) {
  const out = {};
  for (const input of form.querySelectorAll("input,select,textarea")) {
    if (input.type === "checkbox") out[input.name] = input.checked;
    else if (input.type === "number") out[input.name] = input.value === "" ? null : Number(input.value);
    else out[input.name] = input.value;
  }
  return out;
}
async function loadWrites() {
  const token = document.getElementById("token").value.trim();
  if (!token) return;
  const resp = await fetch("/api/referee/writes", { headers: { Authorization: `Bearer ${token}` } });
  if (!resp.ok) return;
  const data = await resp.json();
  const table = document.getElementById("writes");
  fill(table.tBodies[0], [row([T.when, T.who, T.what, T.why], true)].concat(
    data.writes.map((w) => row([w.at, w.actor, w.what, w.why]))));
}
function desk() {
  const token = document.getElementById("token");
  token.value = sessionStorage.getItem("mjtable-referee") || "";
  token.addEventListener("change", loadWrites);
  const on = (id, build) => {
    const form = document.getElementById(id);
    form.querySelector("button").addEventListener("click", (ev) => {
      ev.preventDefault();
      let request;
      try {
        request = build(values(form));
      } catch (err) {  // a corrected event that is not JSON
        const result = document.getElementById("result");
        result.textContent = String(err);
        result.className = "error";
        return;
      }
      send(request[0], request[1]);
    });
  };
  on("f-penalty", (v) => ["/api/referee/actions", { name: "adjustment", player: v.player, round: v.round, points: v.points, why: v.why }]);
  on("f-amend", (v) => ["/api/referee/amend", {
    round: v.round, table: v.table, target: v.target, why: v.why,
    event: v.strike ? null : JSON.parse(v.event || "null"),
  }]);
  on("f-substitute", (v) => ["/api/referee/actions", {
    name: "substituted", round: v.round, table: v.table, seat: v.seat,
    substitute: v.substitute, from_hand: v.from_hand || 1, why: v.why,
  }]);
  on("f-close", (v) => ["/api/referee/actions", { name: "round_closed", round: v.round, why: v.why }]);
  on("f-seat", (v) => ["/api/referee/actions", { name: "round_seated", round: v.round, why: v.why, from: v.from }]);
  fetch("/api/tournament").then((r) => r.json()).then((t) => {
    const select = document.getElementById("penalty-player");
    select.replaceChildren(...t.players.map((p) => el("option", p, { value: p })));
  });
  loadWrites();
  live("/api/stream", () => {});
}

if (page === "standings") live("/api/stream", renderStandings);
else if (page === "table") live(`/api/stream?table=${document.body.dataset.round}-${document.body.dataset.table}`, renderTable);
else if (page === "referee") desk();
