// boardref: the table's page. Plain JavaScript, no build step.
// Draws the board from its geometry, keeps it live over server-sent events, and talks to /api.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const boot = JSON.parse((document.getElementById("boot") || { textContent: "{}" }).textContent);
const csrf = document.querySelector('meta[name="csrf-token"]').content;

// --- small helpers -------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

function toast(message, ok = false) {
  const t = el("div", { class: ok ? "toast ok" : "toast", role: ok ? "status" : "alert", text: message });
  document.body.append(t);
  setTimeout(() => t.remove(), 4500);
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

// --- the API, with CSRF and the table PIN ----------------------------------------------------

const pinStore = {
  get() { try { return sessionStorage.getItem("tablePin") || ""; } catch (e) { return ""; } },
  set(v) { try { sessionStorage.setItem("tablePin", v); } catch (e) { /* private mode */ } },
  clear() { try { sessionStorage.removeItem("tablePin"); } catch (e) { /* ignore */ } },
};

function askPin(why) {
  const dialog = document.getElementById("pin-dialog");
  const input = document.getElementById("pin-input");
  const error = document.getElementById("pin-error");
  document.getElementById("pin-why").textContent = why || "This changes the game, so it needs the table PIN.";
  error.textContent = "";
  input.value = "";
  return new Promise((resolve) => {
    const form = document.getElementById("pin-form");
    const cancel = document.getElementById("pin-cancel");
    const done = (value) => {
      form.removeEventListener("submit", onSubmit);
      cancel.removeEventListener("click", onCancel);
      dialog.close();
      resolve(value);
    };
    const onSubmit = async (ev) => {
      ev.preventDefault();
      const r = await fetch("/api/pin", { method: "POST", headers: { "X-CSRF-Token": csrf, "X-Table-PIN": input.value } });
      if (r.ok) { pinStore.set(input.value); done(input.value); }
      else { const b = await r.json().catch(() => ({})); error.textContent = b.error || "wrong PIN"; input.select(); }
    };
    const onCancel = () => done(null);
    form.addEventListener("submit", onSubmit);
    cancel.addEventListener("click", onCancel);
    dialog.showModal();
    input.focus();
  });
}

async function api(method, url, body, { pin = false } = {}) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const headers = { "X-CSRF-Token": csrf };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const sentPin = pin ? pinStore.get() : "";
    if (sentPin) headers["X-Table-PIN"] = sentPin;
    const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (r.status === 403 && /PIN/.test(data.error || "")) {
      pinStore.clear();
      const entered = await askPin(sentPin ? "Wrong PIN, or it has changed. Try again."
        : "This changes the game, so it needs the table PIN.");
      if (entered === null) throw new Error("cancelled: no PIN");
      pin = true;
      continue;
    }
    if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    return data;
  }
  throw new Error("PIN not accepted");
}

// A question asked again and again (the panel's lights, the latest moves): a slow answer
// must not replace a later one. Each answer is returned only if no later question has been
// answered yet; otherwise null.
function latestOnly(ask) {
  let asked = 0, used = 0;
  return async (...args) => {
    const mine = ++asked;
    const data = await ask(...args);
    if (mine < used) return null;
    used = mine;
    return data;
  };
}

// --- the die -------------------------------------------------------------------------------

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

function drawDie(container, value) {
  container.textContent = "";
  const s = svg("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": value ? `Die shows ${value}` : "Die not rolled" }, container);
  svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: value ? "#fffdf6" : "#2b3947", stroke: value ? "#10161c" : "#55687a", "stroke-width": 2 }, s);
  if (value) for (const [i, j] of PIPS[value] || []) svg("circle", { cx: i * 10, cy: j * 10, r: 3.6, fill: "#10161c" }, s);
  else { const t = svg("text", { x: 20, y: 27, "text-anchor": "middle", "font-size": 20, fill: "#aebccb", "font-weight": 800 }, s); t.textContent = "–"; }
  container.dataset.value = value || 0;
}

// The value to show in the die box: the die of the turn, or during a roll-off (where the
// state keeps no die between rolls) the roll the banner announces.
function dieValue(state) {
  if (state.dice) return state.dice;
  const r = state.ruling;
  return r && r.kind === "roll" && r.move && r.move.value ? r.move.value : 0;
}

// --- the board diagram, drawn only from geometry -----------------------------------------------

function rgbOf(palette, colour) { return (palette[colour] || {}).rgb || "#999999"; }
function letterOf(palette, colour) { return (palette[colour] || {}).letter || (colour ? colour[0].toUpperCase() : "?"); }
function tint(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * amount);
  return `rgb(${mix(n >> 16)},${mix((n >> 8) & 255)},${mix(n & 255)})`;
}
function inkFor(hex) {
  const n = parseInt(hex.slice(1), 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 150 ? "#111" : "#fff";
}

class BoardView {
  constructor(svgEl, board, onTap) {
    this.svg = svgEl;
    this.onTap = onTap;
    this.setBoard(board);
  }

  setBoard(board) {
    this.board = board;
    this.names = board.names || {};
    this.byId = Object.fromEntries(board.spaces.map((s) => [s.id, s]));
    this.groupOf = {};
    for (const g of board.groups || []) for (const id of g) this.groupOf[id] = g;
    const r = board.token_radius;
    const xs = board.spaces.map((s) => s.x), ys = board.spaces.map((s) => s.y);
    const pad = r * 2.2;
    const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
    const w = Math.max(...xs) + pad - x0, h = Math.max(...ys) + pad - y0;
    this.svg.setAttribute("viewBox", `${x0.toFixed(1)} ${y0.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
    this.svg.textContent = "";
    const title = svg("title", {}, this.svg);
    title.textContent = `${board.title} board`;
    this.gLinks = svg("g", {}, this.svg);
    this.gSpaces = svg("g", {}, this.svg);
    this.gMarks = svg("g", {}, this.svg);
    this.gTokens = svg("g", {}, this.svg);
    this.gTop = svg("g", {}, this.svg);
    this.gLabels = svg("g", { class: "id-labels" }, this.svg);
    this.gHits = svg("g", {}, this.svg);
    const hr = board.hole_radius;
    for (const [a, b] of board.links) {
      const p = this.byId[a], q = this.byId[b];
      if (p && q) svg("line", { class: "link", x1: p.x, y1: p.y, x2: q.x, y2: q.y, "stroke-width": hr * 0.35 }, this.gLinks);
    }
    const seat = board.seat_colours || [];
    for (const s of board.spaces) {
      let fill = "#fffaf0";
      const owner = s.owner !== null && s.owner !== undefined ? seat[s.owner] : null;
      if (owner && (s.kind === "base" || s.kind === "home")) fill = tint(rgbOf(board.palette, owner), 0.62);
      if (s.kind === "centre") fill = "#e9dcc0";
      const radius = s.kind === "centre" ? hr * 1.5 : hr;
      const c = svg("circle", { class: `space ${s.kind}`, cx: s.x, cy: s.y, r: radius, fill,
        "stroke-width": s.kind === "star" || s.kind === "centre" ? hr * 0.32 : hr * 0.18 }, this.gSpaces);
      c.dataset.space = s.id;
      if (s.kind === "star") {
        svg("path", { d: starPath(s.x, s.y, hr * 0.55, hr * 0.25), fill: "#8a7a5e", "pointer-events": "none" }, this.gSpaces);
      }
      if (owner && s.kind === "start") {
        svg("circle", { cx: s.x, cy: s.y, r: hr * 1.35, fill: "none", stroke: rgbOf(board.palette, owner), "stroke-width": hr * 0.3 }, this.gSpaces);
      }
      if (s.label) {
        const t = svg("text", { class: "space-label", x: s.x, y: s.y + hr * 0.42, "text-anchor": "middle", "font-size": hr * 1.1 }, this.gSpaces);
        t.textContent = s.label;
      }
      const hit = svg("circle", { class: "hit", cx: s.x, cy: s.y, r: Math.max(r * 1.15, hr * 1.3) }, this.gHits);
      hit.dataset.space = s.id;
      svg("title", {}, hit).textContent = this.names[s.id] ? `${this.names[s.id]} (${s.id})` : s.id;
      hit.addEventListener("click", () => this.onTap && this.onTap(s.id));
    }
    this.placement = {};
    this.showIds(this.idsShown || false);
  }

  // Small labels with each space's id, for finding a space the referee names (optional).
  showIds(on) {
    this.idsShown = on;
    this.gLabels.textContent = "";
    if (!on) return;
    const { token_radius: r } = this.board;
    for (const s of this.board.spaces) {
      const t = svg("text", { class: "id-label", x: s.x + r * 0.75, y: s.y - r * 0.75, "font-size": r * 0.62, "stroke-width": r * 0.18 }, this.gLabels);
      t.textContent = s.id;
    }
  }

  // A move drawn as an arrow from one space to another (red and dashed for an illegal one).
  arrow(frm, to, kind) {
    const p = this.byId[frm], q = this.byId[to];
    if (!p || !q || frm === to) return;
    const { token_radius: r, hole_radius: hr } = this.board;
    const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy);
    if (len < r * 2) return;
    const ux = dx / len, uy = dy / len;
    const x1 = p.x + ux * r * 1.1, y1 = p.y + uy * r * 1.1;
    const x2 = q.x - ux * r * 1.6, y2 = q.y - uy * r * 1.6;
    const g = svg("g", { class: `ruling-arrow ${kind}`, "data-from": frm, "data-to": to }, this.gTop);
    svg("line", { class: `move-arrow ${kind}`, x1, y1, x2, y2, "stroke-width": hr * 0.45 }, g);
    const h = r * 0.9, w = r * 0.6;
    const tip = [q.x - ux * r * 1.05, q.y - uy * r * 1.05];
    const base = [tip[0] - ux * h, tip[1] - uy * h];
    const pts = [tip, [base[0] - uy * w, base[1] + ux * w], [base[0] + uy * w, base[1] - ux * w]];
    svg("polygon", { class: `arrow-head ${kind}`, points: pts.map((pt) => pt.map((v) => v.toFixed(2)).join(",")).join(" ") }, g);
  }

  // "Take off here" / "put back here": what to do to put the board right.
  fixMark(step) {
    const s = this.byId[step.space];
    if (!s) return;
    const { token_radius: r, hole_radius: hr } = this.board;
    const off = step.action === "off";
    const g = svg("g", { class: `fix-mark ${off ? "off" : "back"}`, "data-space": step.space, "data-action": step.action }, this.gTop);
    svg("circle", { class: off ? "fix-off" : "fix-back", cx: s.x, cy: s.y, r: r * 1.5, "stroke-width": hr * (off ? 0.42 : 0.36) }, g);
    if (off) {
      const d = r * 0.95;
      svg("path", { d: `M${s.x - d},${s.y - d} L${s.x + d},${s.y + d} M${s.x + d},${s.y - d} L${s.x - d},${s.y + d}`, stroke: "#b00020", "stroke-width": hr * 0.3, "stroke-linecap": "round", "pointer-events": "none" }, g);
    }
    const t = svg("text", { class: `fix-caption ${off ? "off" : "back"}`, x: s.x, y: s.y - r * 1.85, "text-anchor": "middle", "font-size": r * 0.95, "stroke-width": r * 0.32 }, g);
    t.textContent = off ? "take off" : "put back";
  }

  draw(placement, marks = {}, labels = {}) {
    this.placement = placement || {};
    const { palette, token_radius: r, hole_radius: hr } = this.board;
    this.gTokens.textContent = "";
    this.gMarks.textContent = "";
    this.gTop.textContent = "";
    for (const [id, colour] of Object.entries(this.placement)) {
      const s = this.byId[id];
      if (!s) continue;
      if (colour === "?") continue;
      if (colour.includes("+")) {  // two stands in one square: a battle waiting, or a stalemate
        const [a, b] = colour.split("+");
        const g = svg("g", { class: "token contest", "data-space": id, "data-colour": colour }, this.gTokens);
        svg("title", {}, g).textContent = `${a} and ${b} stands on ${id}`;
        svg("path", { d: `M${s.x},${s.y - r} A${r},${r} 0 0 0 ${s.x},${s.y + r} Z`, fill: rgbOf(palette, a), stroke: "#1a1a1a", "stroke-width": r * 0.1 }, g);
        svg("path", { d: `M${s.x},${s.y - r} A${r},${r} 0 0 1 ${s.x},${s.y + r} Z`, fill: rgbOf(palette, b), stroke: "#1a1a1a", "stroke-width": r * 0.1 }, g);
        const t = svg("text", { class: "token-letter", x: s.x, y: s.y + r * 0.4, "text-anchor": "middle", "font-size": r * 1.0, fill: "#fff" }, g);
        t.textContent = id in labels ? labels[id] : "=";
        continue;
      }
      const fill = rgbOf(palette, colour);
      const g = svg("g", { class: "token", "data-space": id, "data-colour": colour }, this.gTokens);
      svg("title", {}, g).textContent = `${colour} token on ${id}`;
      svg("circle", { cx: s.x, cy: s.y + r * 0.12, r, fill: "rgba(0,0,0,.28)" }, g);
      svg("circle", { cx: s.x, cy: s.y, r, fill, stroke: "#1a1a1a", "stroke-width": r * 0.12 }, g);
      const t = svg("text", { class: "token-letter", x: s.x, y: s.y + r * 0.4, "text-anchor": "middle",
        "font-size": r * 1.15, fill: inkFor(fill) }, g);
      t.textContent = id in labels ? labels[id] : letterOf(palette, colour);
    }
    const ring = (id, cls, scale, width, extra = {}) => {
      const s = this.byId[id];
      if (s) svg("circle", { class: cls, cx: s.x, cy: s.y, r: r * scale, "stroke-width": width, ...extra }, this.gTop);
    };
    for (const id of marks.unclear || []) {
      const s = this.byId[id];
      if (!s) continue;
      svg("circle", { class: "unclear-mark", cx: s.x, cy: s.y, r: r * 1.05, "stroke-width": hr * 0.3 }, this.gTop);
      const q = svg("text", { class: "unclear-q", x: s.x, y: s.y + r * 0.42, "text-anchor": "middle", "font-size": r * 1.2 }, this.gTop);
      q.textContent = "?";
    }
    for (const id of marks.from || []) ring(id, "from-mark", 1.45, hr * 0.35);
    for (const id of marks.moved || []) ring(id, "moved-mark", 1.4, hr * 0.28);
    if (marks.arrow) this.arrow(marks.arrow.from, marks.arrow.to, marks.arrow.kind);
    for (const step of marks.fix || []) this.fixMark(step);
    if (marks.selected) ring(marks.selected, "selected", 1.35, hr * 0.42);
    for (const id of marks.targets || []) {
      ring(id, "target", 1.3, hr * 0.45);
      const s = this.byId[id];
      if (s && !this.placement[id]) svg("circle", { class: "target-dot", cx: s.x, cy: s.y, r: hr * 0.45 }, this.gTop);
    }
  }
}

function starPath(cx, cy, outer, inner) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? inner : outer;
    d += `${i ? "L" : "M"}${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`;
  }
  return d + "Z";
}

// --- hidden identities (Playground Battles): icons, the battle reveal, the set-up grid ----------

const KINDS = ["rock", "paper", "scissors"];
const KIND_LETTER = { rock: "R", paper: "P", scissors: "S" };

function kindIcon(kind, size = 28) {
  const s = svg("svg", { class: `kind-icon kind-${kind || "hidden"}`, viewBox: "0 0 32 32", width: size, height: size, "aria-hidden": "true" });
  if (kind === "rock") {
    svg("path", { d: "M6 20 L9 11 L16 7 L24 10 L27 18 L23 25 L12 26 Z", fill: "#8d8f96", stroke: "#2b2d33", "stroke-width": 2, "stroke-linejoin": "round" }, s);
    svg("path", { d: "M12 13 L17 11 M19 18 L23 16", stroke: "#5d6068", "stroke-width": 1.6, fill: "none" }, s);
  } else if (kind === "paper") {
    svg("path", { d: "M8 4 H20 L25 9 V28 H8 Z", fill: "#fdfaf2", stroke: "#2b2d33", "stroke-width": 2, "stroke-linejoin": "round" }, s);
    svg("path", { d: "M11 13 H22 M11 17 H22 M11 21 H19", stroke: "#8aa0b8", "stroke-width": 1.6 }, s);
  } else if (kind === "scissors") {
    svg("circle", { cx: 9, cy: 24, r: 4.2, fill: "none", stroke: "#d0343a", "stroke-width": 2.6 }, s);
    svg("circle", { cx: 23, cy: 24, r: 4.2, fill: "none", stroke: "#d0343a", "stroke-width": 2.6 }, s);
    svg("path", { d: "M11.5 20.5 L24 4 M20.5 20.5 L8 4", stroke: "#4b5563", "stroke-width": 2.6, "stroke-linecap": "round" }, s);
  } else {
    svg("rect", { x: 6, y: 4, width: 20, height: 24, rx: 3, fill: "#34475a", stroke: "#aebccb", "stroke-width": 2 }, s);
    const t = svg("text", { x: 16, y: 21, "text-anchor": "middle", "font-size": 14, "font-weight": 900, fill: "#aebccb" }, s);
    t.textContent = "?";
  }
  return s;
}

function kindBadge(kind, unset = "hidden") {
  return el("span", { class: "kind-badge" }, kindIcon(kind, 22), el("b", { text: kind ? KIND_LETTER[kind] : "?" }), kind ? ` ${kind}` : ` ${unset}`);
}

function battleReveal(battle, ruling) {
  const box = el("div", { class: `reveal result-${battle.result}`, "data-result": battle.result });
  const card = (colour, kind, won) => el("div", { class: `reveal-card ${won ? "winner" : ""} ${kind ? "shown" : "hidden-card"}`, "data-colour": colour },
    el("span", { class: "reveal-colour", text: cap(colour) }), kindIcon(kind, 54), el("span", { class: "reveal-kind", text: kind ? cap(kind) : "hidden" }));
  const r = battle.result;
  const attackerWon = r === "won" || r === "rescued";
  const defenderWon = r === "lost";
  let headline;
  if (r === "stalemate") headline = `Stalemate on ${battle.space}: both stay hidden`;
  else if (r === "failed") headline = `The stalemate on ${battle.space} holds: ${battle.attacker_colour}'s piece is lost, nothing revealed`;
  else headline = cap(ruling.text || "");
  const cards = el("div", { class: "reveal-cards" });
  cards.append(card(battle.attacker_colour, battle.attacker_identity, attackerWon), el("span", { class: "reveal-vs", text: r === "stalemate" ? "=" : "vs" }),
    card(battle.defender_colour, battle.defender_identity, defenderWon));
  box.append(cards, el("div", { class: "what", text: headline }));
  const clause = (ruling.effects || []).find((e) => ["capture", "stalemate"].includes(e.kind));
  if (clause) box.append(el("div", { class: "clause" }, el("span", { class: "cid", text: clause.clause }), " by the rulebook"));
  return box;
}

// A grid of a seat's ten back-row squares; each tap cycles rock -> paper -> scissors.
function setupGrid(container, squares, colour, palette, onSubmit, { submitText = "Done: send to the referee" } = {}) {
  container.textContent = "";
  const chosen = {};
  const grid = el("div", { class: "setup-grid", role: "group", "aria-label": `${colour}'s ten pieces` });
  const error = el("p", { class: "form-error", role: "alert" });
  const submit = el("button", { class: "btn primary", type: "button", text: submitText, disabled: true });
  const counts = el("p", { class: "hint setup-counts" });
  const update = () => {
    const n = Object.keys(chosen).length;
    const c = KINDS.map((k) => `${Object.values(chosen).filter((v) => v === k).length} ${k}`).join(" · ");
    counts.textContent = `${n} of ${squares.length} chosen · ${c}`;
    submit.disabled = n !== squares.length;
  };
  for (const sq of squares) {
    const b = el("button", { type: "button", class: "setup-piece", "data-square": sq, "aria-label": `${sq}: not chosen` });
    const draw = () => {
      const k = chosen[sq];
      b.textContent = "";
      b.append(el("span", { class: "sq", text: sq }), kindIcon(k, 34), el("span", { class: "kl", text: k ? KIND_LETTER[k] : "tap" }));
      b.dataset.kind = k || "";
      b.setAttribute("aria-label", `${sq}: ${k || "not chosen"}`);
    };
    b.addEventListener("click", () => {
      const k = chosen[sq];
      chosen[sq] = KINDS[(KINDS.indexOf(k) + 1) % 3];
      draw(); update(); error.textContent = "";
    });
    draw();
    grid.append(b);
  }
  submit.addEventListener("click", async () => {
    submit.disabled = true;
    try { await onSubmit({ ...chosen }); }
    catch (e) { error.textContent = e.message; submit.disabled = false; }
  });
  container.append(grid, counts, error, submit);
  update();
}

// --- turn, banner, panel -----------------------------------------------------------------------

function tokenChip(palette, colour) {
  const s = svg("svg", { class: "tokenchip", viewBox: "0 0 20 20", "aria-hidden": "true" });
  const fill = rgbOf(palette, colour);
  svg("circle", { cx: 10, cy: 10, r: 9, fill, stroke: "#000", "stroke-width": 1.2 }, s);
  const t = svg("text", { x: 10, y: 14, "text-anchor": "middle", "font-size": 11, "font-weight": 900, fill: inkFor(fill) }, s);
  t.textContent = letterOf(palette, colour);
  return s;
}

// What players call a token in the game on the table (marble, pawn, piece...).
let TOKEN = (boot.board && boot.board.token) || "token";

const PHASE_TEXT = {
  opening: "rolls to see who starts", roll: "to roll the die", move: "to move",
  setup: "players enter their pieces", keep: "chooses which piece stays", place: "puts a piece back",
  declare: "names the teammate who moves", over: "game over",
};

function drawTurn(container, state, palette) {
  container.textContent = "";
  const colours = state.colours || [];
  if (state.outcome) {
    container.append(el("span", { text: `★ ${cap(state.outcome.text || "game over")}` }));
    return;
  }
  if (state.seats && (state.phase === "setup" || state.phase === "opening")) {
    const label = el("span", {}, state.phase === "setup" ? "Setting up" : "Who starts?");
    label.append(el("span", { class: "phase", text: state.phase === "setup"
      ? "each player enters their ten pieces in secret" : "rock-paper-scissors decides who plays first" }));
    container.append(label);
    return;
  }
  const colour = colours[state.to_move];
  const actor = colours[state.actor ?? state.to_move];
  container.append(tokenChip(palette, colour));
  const label = el("span", {}, `${cap(colour)}`);
  let phase = PHASE_TEXT[state.phase] || state.phase;
  if (state.phase === "move") phase = `to move a ${TOKEN}`;
  if (actor && actor !== colour && state.phase === "move") phase = `rolled for ${actor}: ${actor} moves`;
  label.append(el("span", { class: "phase", text: phase }));
  container.append(label);
}

const VERDICT = {
  legal: ["✓", "Legal"], illegal: ["✕", "Illegal"], unclear: ["?", "Cannot see"], roll: ["⚄", "Rolled"],
  pass: ["→", "Pass"], win: ["★", "Winner"], undo: ["↶", "Undone"], new: ["+", "New game"],
  ignored: ["–", "Not counted"],
};

// A rule clause, folded: its id and title show, one tap opens the text.
function clauseFold(c, open = false) {
  const d = el("details", { class: "rule" });
  if (open) d.open = true;
  d.append(el("summary", {}, el("span", { class: "cid", text: c.id }), c.title, el("span", { class: "more", text: "why?" })));
  d.append(el("p", { text: c.text }));
  return d;
}

function drawBanner(container, ruling, { fresh = false, names = {} } = {}) {
  container.textContent = "";
  container.className = "banner";
  if (!ruling) {
    container.append(el("span", { class: "icon", text: "●" }), el("div", { class: "headline" }, el("span", { class: "verdict", text: "Waiting for the first move" })));
    return;
  }
  const kind = ruling.kind || "legal";
  let [icon, word] = VERDICT[kind] || ["●", cap(kind)];
  if (ruling.battle) [icon, word] = ruling.battle.result === "stalemate" ? ["=", "Stalemate"] : ruling.battle.result === "failed" ? ["✕", "Rescue failed"] : ["⚔", "Battle"];
  const cssKind = kind === "roll" || kind === "pass" ? "legal" : kind;
  container.classList.add(cssKind);
  container.dataset.kind = kind;
  container.append(el("span", { class: "icon", "aria-hidden": "true", text: icon }));
  const headline = el("div", { class: "headline" }, el("span", { class: "verdict", text: word }));
  if (!ruling.battle && ruling.text) headline.append(el("span", { class: "what", text: cap(ruling.text) }));
  container.append(headline);
  if (ruling.battle) container.append(battleReveal(ruling.battle, ruling));
  // the move in words (for an illegal move the fix below says it, with what to do)
  const where = ruling.battle || (kind === "illegal" && ruling.fix) ? "" : whereWords(ruling, names);
  if (where) container.append(el("div", { class: "where", text: cap(where) }));
  if (kind === "unclear" && (ruling.spaces || []).length) {
    const spaces = ruling.spaces.map((id) => (names[id] ? `${names[id]} (${id})` : id)).join(", ");
    container.append(el("div", { class: "clause", text: `Cannot read: ${spaces}. Move your hand away and check the circled spaces.` }));
  }
  if (kind === "illegal") {
    if (ruling.fix) container.append(el("div", { class: "fix", text: `➜ ${cap(ruling.fix)}` }));
    for (const c of ruling.clauses || []) container.append(clauseFold(c));
  } else if ((ruling.effects || []).filter((e) => !ruling.battle || !["capture", "stalemate"].includes(e.kind)).length) {
    const ul = el("ul");
    const said = (ruling.text || "").toLowerCase();
    const seen = new Set();
    for (const e of ruling.effects.filter((e) => !ruling.battle || !["capture", "stalemate"].includes(e.kind))) {
      if (seen.has(e.text)) continue;
      seen.add(e.text);
      if (e.text && said.includes(e.text.toLowerCase())) {  // already in the headline: its rule only
        if (e.clause) headline.append(el("span", { class: "cid", text: ` ${e.clause}` }));
        continue;
      }
      ul.append(el("li", {}, cap(e.text), el("span", { class: "cid", text: ` ${e.clause}` })));
    }
    if (ul.childNodes.length) container.append(ul);
    if (ruling.fix) container.append(el("div", { class: "fix", text: `➜ ${cap(ruling.fix)}` }));
  } else if ((ruling.clauses || []).length && kind === "legal" && !ruling.battle) {
    const c = ruling.clauses[0];  // the rule that allows it: one line, its text on the rules page
    container.append(el("div", { class: "clause" }, el("a", { class: "cid", href: `/teach#${encodeURIComponent(c.id)}`, text: c.id }), ` ${c.title}`));
  }
  if (fresh) { container.classList.remove("fresh"); void container.offsetWidth; container.classList.add("fresh"); }
}

// With hidden identities the public board shows a revealed piece's kind and nothing else (a
// red "R" would read as "rock").
function publicLabels(state) {
  const pieces = state.seats && state.state && state.state.pieces;
  if (!pieces) return {};
  const labels = {};
  for (const p of pieces) labels[p.space] = p.stalemate ? "=" : p.identity ? KIND_LETTER[p.identity] : "";
  return labels;
}

// What a ruling shows on the board: the move as an arrow, the fix as "take off here / put
// back here" marks, the spaces the camera cannot read.
function fixSteps(ruling) {
  if (Array.isArray(ruling.fix_steps)) return ruling.fix_steps;
  const sp = ruling.spaces || [];
  // An illegal attempt names the two spaces of the move tried: back from where it went.
  if (ruling.kind === "illegal" && sp.length === 2 && ruling.fix && !/^nothing was changed/.test(ruling.fix)) {
    return [{ action: "off", space: sp[1] }, { action: "back", space: sp[0] }];
  }
  return [];
}

function rulingMarks(ruling) {
  if (!ruling) return {};
  if (ruling.kind === "unclear") return { unclear: ruling.spaces || [] };
  const m = ruling.move || {};
  const sp = ruling.spaces || [];
  if (ruling.kind === "illegal") {
    const frm = m.frm || sp[0], to = m.to || (sp.length > 1 ? sp[sp.length - 1] : null);
    return { arrow: frm && to ? { from: frm, to, kind: "illegal" } : null, fix: fixSteps(ruling), from: frm && !to ? [frm] : [] };
  }
  if ((ruling.kind === "legal" || ruling.kind === "win") && m.to) {
    return { moved: [m.to], arrow: m.frm ? { from: m.frm, to: m.to, kind: "legal" } : null, fix: fixSteps(ruling) };
  }
  return { fix: fixSteps(ruling) };
}

// While an illegal move waits to be put right, the board shows the table as the camera sees
// it (the marble where it went), with the marks saying how to put it back.
function asOnTheTable(state) {
  const ruling = state.ruling;
  if (!ruling || ruling.kind !== "illegal") return state.placement;
  const steps = fixSteps(ruling);
  if (!steps.length) return state.placement;
  const seen = { ...state.placement };
  let moved = null;
  for (const st of steps.filter((x) => x.action === "back")) {
    moved = moved || st.colour || seen[st.space];
    delete seen[st.space];
  }
  for (const st of steps.filter((x) => x.action === "off")) {
    const colour = st.colour || moved;
    if (colour) seen[st.space] = colour;
  }
  return seen;
}

// "from the 3rd hole after red's START to red's HOME": a move in the words players use.
function whereWords(ruling, names) {
  const marks = rulingMarks(ruling);
  const a = marks.arrow;
  if (!a || !names[a.from] || !names[a.to]) return "";
  return `from ${names[a.from]} to ${names[a.to]}`;
}

// --- sound: Web Audio tones, muted until a tap ----------------------------------------------------

const sound = {
  ctx: null,
  enable() {
    if (!this.ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return false;
      this.ctx = new AC();
    }
    this.ctx.resume();
    return true;
  },
  tone(freq, start, dur, type = "sine", gain = 0.18) {
    if (!this.ctx) return;
    const t0 = this.ctx.currentTime + start;
    const o = this.ctx.createOscillator(), g = this.ctx.createGain();
    o.type = type; o.frequency.value = freq;
    g.gain.setValueAtTime(0, t0);
    g.gain.linearRampToValueAtTime(gain, t0 + 0.01);
    g.gain.linearRampToValueAtTime(0, t0 + dur);
    o.connect(g).connect(this.ctx.destination);
    o.start(t0); o.stop(t0 + dur + 0.02);
  },
  play(kind) {
    if (!this.ctx) return;
    if (kind === "illegal") { this.tone(196, 0, 0.45, "square", 0.12); this.tone(165, 0.5, 0.45, "square", 0.12); }
    else if (kind === "unclear") { this.tone(440, 0, 0.15); this.tone(440, 0.25, 0.15); }
    else if (kind === "win") { [523, 659, 784, 1047].forEach((f, i) => this.tone(f, i * 0.15, 0.2, "triangle")); }
    else if (kind === "roll") { this.tone(660, 0, 0.06, "triangle"); }
    else if (kind === "legal" || kind === "pass") { this.tone(880, 0, 0.12); }
  },
};

function drawPanel(panel) {
  for (const name of ["green", "amber", "red", "buzzer"]) {
    const led = document.querySelector(`.led[data-led="${name}"]`);
    if (led) led.classList.toggle("on", Boolean(panel && panel[name]));
    if (led && name === "buzzer") led.title = (panel && panel.buzzer) || "silent";
  }
}

// --- live events --------------------------------------------------------------------------------

function connectEvents(handlers) {
  const live = document.getElementById("live");
  live.hidden = false;
  let source = null, retry = 2000;
  // One event at a time, in the order they came: a handler that asks the server (the new
  // board, the history since a move) finishes before the next event is looked at, so a
  // slower answer about an older state never replaces a newer one.
  let turn = Promise.resolve();
  const inTurn = (handler) => (ev) => {
    const data = JSON.parse(ev.data);
    turn = turn.then(() => handler(data)).catch((e) => { setTimeout(() => { throw e; }); });
  };
  const open = () => {
    source = new EventSource("/api/events");
    source.addEventListener("open", () => { live.dataset.state = "up"; live.textContent = "● live"; retry = 2000; });
    source.addEventListener("state", inTurn(handlers.state));
    source.addEventListener("ruling", inTurn(handlers.ruling));
    source.addEventListener("error", () => {
      live.dataset.state = "down";
      live.textContent = "○ reconnecting";
      if (source.readyState === EventSource.CLOSED) {  // refused (e.g. 503): back off, then retry
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 30000);
      }
    });
  };
  open();
}

// --- the live table page ---------------------------------------------------------------------------

function tablePage() {
  let state = boot.state;
  let board = boot.board;
  let mode = "watch";
  let selected = null;
  let targets = [];
  const view = new BoardView(document.getElementById("board"), board, onTap);
  const teach = document.getElementById("teach");
  const rollBtn = document.getElementById("roll");
  const dieBox = document.getElementById("die");
  const boardWrap = document.getElementById("board-wrap");
  const boardSvg = document.getElementById("board");
  const declineBtn = document.getElementById("decline");

  function render({ fresh = false } = {}) {
    drawTurn(document.getElementById("turn"), state, board.palette);
    dieBox.hidden = board.dice === false;  // The Right Moves has no die: no die box
    drawDie(dieBox, dieValue(state));
    drawBanner(document.getElementById("banner"), state.ruling, { fresh, names: board.names || {} });
    const marks = selected ? { selected, targets } : rulingMarks(state.ruling);
    view.draw(selected ? state.placement : asOnTheTable(state), marks, publicLabels(state));
    const canRoll = (state.legal || []).some((m) => m.kind === "roll");
    renderSeats();
    const roller = state.colours[state.actor ?? state.to_move];
    rollBtn.hidden = !canRoll;
    rollBtn.disabled = !canRoll;
    rollBtn.textContent = "Roll";
    rollBtn.setAttribute("aria-label", canRoll ? `Roll the die for ${roller}` : "Roll the die");
    const decline = (state.legal || []).find((m) => m.kind === "decline");
    declineBtn.hidden = !decline;
    declineBtn.textContent = decline ? "Don't roll again" : "";
    declineBtn.title = decline ? `${cap(decline.colour)} passes the turn instead of rolling again` : "";
    document.getElementById("roll-hint").textContent = canRoll
      ? `${cap(roller)} rolls: throw the die into the tray, press the table's button, or tap Roll.`
      : state.phase !== "move" ? ""
      : state.mode === "manual" ? `Camera off: choose Move by hand, tap the ${TOKEN}, then where it goes.`
      : `Move a ${TOKEN} on the board; the camera watches.`;
    updateInset();
    fitBoard();
  }

  // The ruling and the whole board fit on one screen: the board gets the height left below
  // the banner (and, side by side on a wide screen, above the mode buttons).
  function fitBoard() {
    const top = boardWrap.getBoundingClientRect().top + window.scrollY;
    const wide = window.matchMedia("(min-width: 900px)").matches;
    const below = wide ? document.querySelector(".board-tools").offsetHeight + 24 : 14;
    const room = Math.max(window.innerHeight - top - below, 220);
    boardSvg.style.maxHeight = `${Math.floor(room)}px`;
  }
  window.addEventListener("resize", fitBoard);
  // Anything above the board that grows or shrinks (the banner, a status line about the
  // camera or the storage) leaves the board the room that is left.
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(() => fitBoard());
    for (const id of ["banner", "faults", "turn"]) { const n = document.getElementById(id); if (n) watch.observe(n); }
  }

  // The live camera inset: a fresh annotated snapshot every two seconds while the page is
  // shown; tap to enlarge. The annotation circles the spaces the referee cannot read.
  const insetImg = document.getElementById("inset-img");
  const insetOff = document.getElementById("inset-off");
  const insetBox = document.getElementById("camera-inset");
  const insetCaption = document.getElementById("inset-caption");
  const big = document.getElementById("camera-big");
  const bigImg = document.getElementById("camera-big-img");
  let insetTimer = null, insetFailures = 0;
  function loadInset() {
    if (document.hidden) return;
    const next = new Image();
    next.onload = () => { insetFailures = 0; insetImg.src = next.src; insetImg.hidden = false; insetOff.hidden = true; };
    next.onerror = () => {
      insetFailures += 1;
      insetImg.hidden = true; insetOff.hidden = false;
      insetOff.textContent = "No camera image" + (state.mode === "manual" ? " (camera off)" : "");
    };
    next.src = `/snapshot.jpg?t=${Date.now()}`;
  }
  function scheduleInset() {
    clearTimeout(insetTimer);
    insetTimer = setTimeout(() => {
      loadInset();
      // The panel's lights change on their own too (a blink ends, a light is set just after
      // the ruling is announced): look again with each picture.
      if (!document.hidden) refreshPanel(null);
      scheduleInset();
    }, insetFailures > 2 ? 10000 : 2000);
  }
  function updateInset() {
    const unsure = state.ruling && state.ruling.kind === "unclear" && (state.ruling.spaces || []).length;
    insetBox.classList.toggle("unsure", Boolean(unsure));
    insetCaption.textContent = unsure
      ? `Camera · circled: ${state.ruling.spaces.length === 1 ? "the space" : "the spaces"} it cannot read · tap to enlarge`
      : "Camera · tap to enlarge";
  }
  // Enlarged: a fresh still every second, each loaded before it replaces the last (no
  // blank picture between frames, no stream holding one of the server's threads).
  let bigTimer = null;
  function loadBig() {
    const next = new Image();
    next.onload = () => { if (big.open) bigImg.src = next.src; };
    next.src = `/snapshot.jpg?t=${Date.now()}`;
  }
  document.getElementById("inset-open").addEventListener("click", () => {
    if (!insetImg.hidden) bigImg.src = insetImg.src;
    big.showModal();
    loadBig();
    clearInterval(bigTimer);
    bigTimer = setInterval(loadBig, 1000);
  });
  const stopBig = () => { clearInterval(bigTimer); bigImg.removeAttribute("src"); };
  const closeBig = () => { stopBig(); if (big.open) big.close(); };
  document.getElementById("camera-close").addEventListener("click", closeBig);
  big.addEventListener("close", stopBig);  // Escape closes it too
  big.addEventListener("click", (ev) => { if (ev.target === big) closeBig(); });
  loadInset();
  scheduleInset();

  const labelsBtn = document.getElementById("labels");
  labelsBtn.addEventListener("click", () => {
    const on = labelsBtn.getAttribute("aria-pressed") !== "true";
    labelsBtn.setAttribute("aria-pressed", String(on));
    view.showIds(on);
  });

  // Players' phones (games with hidden identities): QR codes, fallback entry, opening, keep.
  const seatsCard = document.getElementById("seats");
  let seatsKey = "";
  function renderSeats() {
    const seats = state.seats;
    if (!seatsCard) return;
    seatsCard.hidden = !seats;
    if (!seats) { seatsKey = ""; return; }
    const legal = state.legal || [];
    const key = JSON.stringify([seats, state.phase, state.moves, legal.filter((m) => m.kind === "pb-keep")]);
    if (key === seatsKey) return;
    seatsKey = key;
    seatsCard.textContent = "";
    seatsCard.append(el("h2", { text: "Players" }));
    const list = el("div", { class: "seat-list" });
    for (const seat of seats) {
      const row = el("div", { class: "seat", "data-seat": seat.seat, "data-claimed": seat.claimed ? "1" : "0" });
      const head = el("div", { class: "seat-head" }, tokenChip(board.palette, seat.colour));
      const status = seat.assigned ? "pieces entered ✓" : seat.claimed ? "joined · entering pieces…" : "not joined yet";
      head.append(el("div", {}, el("b", { text: seat.claimed ? `${cap(seat.colour)}'s phone` : `${cap(seat.colour)}: scan to join` }),
        el("span", { class: "hint seat-status", text: state.phase === "opening" ? (seat.hand_in ? "hand chosen ✓" : "choosing a hand…") : status })));
      row.append(head);
      if (!seat.claimed) {
        row.append(el("img", { class: "qr", src: `/seat-qr/${seat.seat}.svg?v=${seat.link}`, width: 150, height: 150,
          alt: `QR code: ${seat.colour}'s private link` }));
      }
      const actions = el("div", { class: "seat-actions" });
      if (state.phase === "setup" && !seat.assigned) {
        actions.append(el("button", { class: "btn ghost small", type: "button", "data-enter": seat.seat, text: `Enter ${seat.colour}'s pieces here`,
          onclick: async () => {
            try { await api("POST", "/api/pin", undefined, { pin: true }); } catch (e) { toast(e.message); return; }
            privateEntry(seat);
          } }));
      }
      if (seat.claimed) {
        actions.append(el("button", { class: "btn ghost small", type: "button", text: "New link", title: `Reset ${seat.colour}'s phone link (table PIN)`,
          onclick: async () => {
            if (!window.confirm(`Make a new link for ${seat.colour}? The phone that has it now is logged out.`)) return;
            try { await api("POST", `/api/seats/${seat.seat}/reset`, {}, { pin: true }); } catch (e) { toast(e.message); }
          } }));
      }
      if (actions.childNodes.length) row.append(actions);
      list.append(row);
    }
    seatsCard.append(list);
    if (state.phase === "opening") {
      const box = el("div", { class: "opening-box" });
      box.append(el("p", { class: "hint", text: "Each player picks rock, paper or scissors on their phone (ties throw again). Played with hands instead? Enter who won:" }));
      const row = el("div", { class: "row" });
      state.colours.forEach((c, n) => row.append(el("button", { class: "btn small", type: "button", "data-winner": n, text: `${cap(c)} won`,
        onclick: async () => {
          try { await api("POST", "/api/opening", { winner: n }, { pin: true }); } catch (e) { toast(e.message); }
        } })));
      box.append(row);
      seatsCard.append(box);
    }
    const keeps = legal.filter((m) => m.kind === "pb-keep");
    if (keeps.length) {
      const box = el("div", { class: "opening-box" });
      box.append(el("p", { class: "hint", text: `${cap(keeps[0].colour)} chooses which piece stays on ${keeps[0].space} (on their phone, or here):` }));
      const row = el("div", { class: "row" });
      for (const m of keeps) row.append(el("button", { class: "btn small", type: "button", text: m.stay === "rescuer" ? "Keep the rescuer" : "Keep the freed piece",
        onclick: async () => {
          try { await api("POST", "/api/move", { move: { kind: m.kind, player: m.player, colour: m.colour, space: m.space, stay: m.stay } }, { pin: true }); }
          catch (e) { toast(e.message); }
        } }));
      box.append(row);
      seatsCard.append(box);
    }
  }

  // The fallback: a player without a phone enters their pieces here while the other looks away.
  function privateEntry(seat) {
    const overlay = document.getElementById("private-entry");
    const close = () => { overlay.hidden = true; overlay.textContent = ""; document.body.classList.remove("private-open"); };
    overlay.textContent = "";
    const inner = el("div", { class: "private-inner" });
    inner.append(el("h2", { text: `${cap(seat.colour)}'s pieces` }),
      el("p", { class: "private-warn", text: `Only ${seat.colour} looks at the screen now. Tap each square until it shows the piece standing there.` }));
    const form = el("div");
    inner.append(form);
    inner.append(el("button", { class: "btn ghost", type: "button", text: "Cancel", onclick: close }));
    overlay.append(inner);
    overlay.hidden = false;
    document.body.classList.add("private-open");
    const squares = board.spaces.filter((sp) => sp.kind === "back" && sp.owner === seat.seat).map((sp) => sp.id);
    setupGrid(form, squares.length === 10 ? squares : backRow(seat.seat), seat.colour, board.palette, async (identities) => {
      await api("POST", `/api/seats/${seat.seat}/setup`, { identities }, { pin: true });
      close();
      toast(`${cap(seat.colour)}'s pieces are entered. Nothing about them is shown here.`, true);
    }, { submitText: "Done: hide and send" });
  }

  function backRow(seat) {
    const rows = board.spaces.filter((sp) => /^[a-j]\d+$/.test(sp.id)).map((sp) => parseInt(sp.id.slice(1), 10));
    const row = seat === 0 ? 1 : Math.max(...rows);
    return "abcdefghij".split("").map((c) => `${c}${row}`);
  }

  async function refreshBoardIfNeeded(snapshot) {
    if (snapshot.board_id && snapshot.board_id !== board.board_id) {
      board = await api("GET", "/api/board");
      TOKEN = board.token || "token";
      view.setBoard(board);
      clearSelection();
    }
  }

  const askStatus = latestOnly(api);
  async function refreshPanel(kind) {
    try {
      const st = await askStatus("GET", "/api/status");
      if (st) drawPanel(st.panel);
    } catch (e) { /* the banner still shows it */ }
    if (kind) sound.play(kind);
  }

  // Each tap asks the server; a slower answer to an earlier tap must not replace a later one.
  let panelAsk = 0;
  function clearSelection() { selected = null; targets = []; teach.hidden = true; panelAsk += 1; }

  async function onTap(space) {
    if (mode === "watch") return;
    const token = state.placement[space];
    if (selected && targets.includes(space)) return chooseTarget(space);
    if (selected && mode === "move" && !token) return chooseTarget(space);
    if (selected && space !== selected && mode === "teach" && !token) return explain(selected, space);
    if (!token) { clearSelection(); render(); return; }
    selected = space;
    const ask = ++panelAsk;
    try {
      const data = await api("GET", `/api/teach/moves?space=${encodeURIComponent(space)}`);
      if (ask !== panelAsk) return;
      targets = data.targets;
      showMoves(data);
    } catch (e) { toast(e.message); }
    render();
  }

  function showMoves(data) {
    teach.hidden = false;
    teach.textContent = "";
    const colour = data.token;
    const names = board.names || {};
    const where = (view.byId[data.space] || {}).kind === "base" ? "in its BASE" : `on ${names[data.space] || data.space}`;
    teach.append(el("h3", {}, `${cap(colour || "no")} ${TOKEN} ${where}`));
    if (!data.moves.length) {
      teach.append(el("p", { text: cap(data.note) }));
      if ((data.if_rolled || []).length) {
        teach.append(el("p", { class: "hint", text: `If ${data.token} rolls…` }));
        const ul = el("ul", { class: "moves-list" });
        for (const r of data.if_rolled) {
          const li = el("li", {}, el("b", { text: `${r.value}: ` }));
          if (!r.moves.length) li.append(`no move for this ${TOKEN}`);
          li.append(r.moves.map((m) => `→ ${m.to} (${m.verdict.clauses.map((c) => c.id).join(", ")})`).join(" · "));
          ul.append(li);
        }
        teach.append(ul);
      }
      return;
    }
    teach.append(el("p", { class: "hint", text: mode === "move"
      ? "Tap a ringed space to make that move, or any other space to see why not."
      : "Ringed spaces are legal. Tap one, or any other space, to see why." }));
    const ul = el("ul", { class: "moves-list" });
    for (const m of data.moves) {
      const li = el("li");
      li.append(el("b", { text: `→ ${(board.names || {})[m.to] || m.to}` }), ` (${m.to}${m.route ? `, ${m.route}` : ""}): `);
      li.append(m.verdict.clauses.map((c) => `${c.id} ${c.title}`).join(" · "));
      for (const e of m.verdict.effects) li.append(el("div", { class: "hint", text: cap(e.text) }));
      ul.append(li);
    }
    teach.append(ul);
  }

  async function explain(frm, to) {
    const ask = ++panelAsk;
    try {
      const data = await api("GET", `/api/teach/explain?from=${encodeURIComponent(frm)}&to=${encodeURIComponent(to)}`);
      if (ask !== panelAsk) return;
      teach.hidden = false;
      teach.textContent = "";
      const v = data.verdict;
      const names = board.names || {};
      teach.append(el("h3", {}, `${names[frm] || frm} → ${names[to] || to}: `, el("span", { class: data.legal ? "ok" : "bad", text: data.legal ? "✓ allowed" : "✕ not allowed" })));
      teach.append(el("p", { text: cap(v.reason) }));
      const ul = el("ul", { class: "moves-list" });
      for (const c of v.clauses) ul.append(el("li", {}, el("span", { class: "cid", text: c.id }), ` ${c.title}: ${c.text}`));
      teach.append(ul);
      if (mode === "move") {
        teach.append(el("p", {}, el("button", { class: "btn primary", onclick: () => makeMove(frm, to, data.moves[0]) },
          data.legal ? "Make this move" : "Make it anyway (the referee will rule)")));
      }
      targets = data.legal ? [to] : targets;
      render();
    } catch (e) { toast(e.message); }
  }

  async function chooseTarget(space) {
    if (mode === "teach") return explain(selected, space);
    return explain(selected, space);
  }

  // The answer to our own request and the live events of the same change come in either
  // order (a roll that passes is told as two states, and the answer is the last), so every
  // state and ruling carries the table's number for it: one older than the newest shown is
  // never shown. Another epoch is a restarted table, counting afresh.
  let newest = { epoch: state.epoch, seq: state.seq };
  function older(data) {
    return data.seq != null && data.epoch === newest.epoch && data.seq < newest.seq;
  }
  function note(data) { newest = { epoch: data.epoch, seq: data.seq }; }
  function take(snapshot) {
    if (older(snapshot)) return false;
    note(snapshot);
    state = snapshot;
    return true;
  }

  async function makeMove(frm, to, legal) {
    try {
      const body = legal ? { move: legal.move } : { from: frm, to };
      take((await api("POST", "/api/move", body, { pin: true })).state);
      clearSelection();
      render({ fresh: true });
    } catch (e) { toast(e.message); }
  }

  for (const b of document.querySelectorAll(".seg")) {
    b.addEventListener("click", () => {
      mode = b.dataset.mode;
      for (const o of document.querySelectorAll(".seg")) o.setAttribute("aria-pressed", String(o === b));
      clearSelection();
      if (mode !== "watch") {
        teach.hidden = false;
        teach.textContent = "";
        teach.append(el("p", { text: mode === "teach"
          ? `Tap a ${TOKEN} to see where it may go and the rule that allows it.`
          : `Tap the ${TOKEN} you moved, then where it went. The referee checks it like a camera move.` }));
      }
      render();
    });
  }

  const doRoll = async () => {
    rollBtn.disabled = true;
    try { take(await api("POST", "/api/roll")); clearSelection(); render({ fresh: true }); }
    catch (e) { toast(e.message); render(); }
  };
  rollBtn.addEventListener("click", doRoll);
  document.getElementById("undo").addEventListener("click", async () => {
    if (!window.confirm("Undo the last move for the whole table?")) return;
    try { take(await api("POST", "/api/undo", undefined, { pin: true })); clearSelection(); render({ fresh: true }); }
    catch (e) { toast(e.message); }
  });
  // After a 6 a player may roll again or not (MANJI-4.6, MANIP-2.2): declining is a move.
  declineBtn.addEventListener("click", async () => {
    const m = (state.legal || []).find((x) => x.kind === "decline");
    if (!m) return;
    try {
      await api("POST", "/api/move", { move: { kind: m.kind, player: m.player, colour: m.colour } }, { pin: true });
    } catch (e) { toast(e.message); }
  });

  const soundBtn = document.getElementById("sound");
  soundBtn.addEventListener("click", () => {
    if (sound.ctx && sound.ctx.state === "running") {
      sound.ctx.suspend();
      soundBtn.setAttribute("aria-pressed", "false");
      soundBtn.textContent = "♪ Sound off · tap to hear it";
    } else if (sound.enable()) {
      soundBtn.setAttribute("aria-pressed", "true");
      soundBtn.textContent = "♪ Sound on · tap to mute";
      sound.play("legal");
    }
  });

  const askRecent = latestOnly(api);
  async function refreshRecent() {
    const list = document.getElementById("recent");
    try {
      const h = await askRecent("GET", "/api/history?last=5");
      if (!h) return;
      list.textContent = "";
      for (const e of h.entries.slice().reverse()) list.append(historyItem(e));
      if (!h.entries.length) list.append(el("li", { class: "empty", text: "No moves yet." }));
    } catch (e) { /* not essential */ }
  }

  connectEvents({
    async state(snapshot) {
      if (older(snapshot)) return;  // our own request's answer showed a newer one
      await refreshBoardIfNeeded(snapshot);
      const moved = snapshot.moves !== state.moves || snapshot.phase !== state.phase;
      if (!take(snapshot)) return;  // a newer answer came while the new board loaded
      if (moved) { clearSelection(); refreshRecent(); }
      render();
    },
    ruling(ruling) {
      if (older(ruling)) return;
      note(ruling);
      state = { ...state, ruling };
      render({ fresh: true });
      refreshPanel(ruling.kind);
    },
  });
  render();
  refreshPanel(null);
  refreshRecent();
}

function historyItem(e) {
  const kind = (e.ruling && e.ruling.kind) || "legal";
  const li = el("li", { value: e.n });
  li.append(el("span", { class: `tag ${kind === "illegal" ? "illegal" : kind === "unclear" ? "unclear" : "legal"}`, text: (VERDICT[kind] || [kind, kind])[1] }));
  li.append(cap(e.text || (e.ruling && e.ruling.text) || ""));
  return li;
}

// --- history page -----------------------------------------------------------------------------

function historyPage() {
  const board = boot.board;
  let entries = boot.history;
  let at = entries.length;
  const view = new BoardView(document.getElementById("board"), board, null);
  const slider = document.getElementById("step");
  const list = document.getElementById("history-list");

  function entryState(n) {
    if (n === 0) return { placement: boot.initial.placement, to_move: boot.initial.to_move, phase: boot.initial.phase, dice: 0, ruling: null };
    return entries[n - 1];
  }

  function render() {
    const e = entryState(at);
    const st = { ...e, colours: board.colours, actor: e.to_move };
    drawTurn(document.getElementById("turn"), st, board.palette);
    drawDie(document.getElementById("die"), e.dice || (e.move && e.move.value) || 0);
    drawBanner(document.getElementById("banner"), e.ruling, { names: board.names || {} });
    // hidden identities: no colour letters (a red "R" would read as "rock")
    const labels = boot.state.seats ? Object.fromEntries(Object.entries(e.placement || {}).map(([id, c]) => [id, c.includes("+") ? "=" : ""])) : {};
    view.draw(e.placement, rulingMarks(e.ruling), labels);
    slider.max = entries.length;
    slider.value = at;
    document.getElementById("step-label").textContent = at === 0 ? "Start" : `Move ${at} of ${entries.length}`;
    for (const li of list.children) li.setAttribute("aria-current", String(Number(li.dataset.n) === at));
    document.getElementById("prev").disabled = at === 0;
    document.getElementById("first").disabled = at === 0;
    document.getElementById("next").disabled = at === entries.length;
    document.getElementById("last").disabled = at === entries.length;
  }

  function fillList() {
    list.textContent = "";
    const start = el("li", { value: 0, "data-n": 0 }, el("span", { class: "tag legal", text: "Start" }), boot.state.seats ? "Every piece on its back row" : "The starting position");
    list.append(start);
    for (const e of entries) { const li = historyItem(e); li.dataset.n = e.n; list.append(li); }
    for (const li of list.children) li.addEventListener("click", () => { at = Number(li.dataset.n); render(); });
  }

  const go = (n) => { at = Math.max(0, Math.min(entries.length, n)); render(); };
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(at - 1));
  document.getElementById("next").addEventListener("click", () => go(at + 1));
  document.getElementById("last").addEventListener("click", () => go(entries.length));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") go(at - 1);
    if (ev.key === "ArrowRight") go(at + 1);
  });

  connectEvents({
    async state(snapshot) {
      if (snapshot.board_id !== board.board_id) { location.reload(); return; }
      if (snapshot.moves === entries.length) return;
      const following = at === entries.length;
      const kept = entries.filter((e) => e.n <= snapshot.moves);
      const since = kept.length ? kept[kept.length - 1].n : 0;
      const fresh = (await api("GET", `/api/history?since=${since}`)).entries;
      entries = kept.concat(fresh);
      if (following) at = entries.length;
      at = Math.min(at, entries.length);
      fillList();
      render();
    },
    ruling() {},
  });
  fillList();
  render();
}

// --- camera page ------------------------------------------------------------------------------

function cameraPage() {
  const img = document.getElementById("stream");
  const off = document.getElementById("camera-off");
  const cam = (boot.status && boot.status.camera) || {};
  const showOff = () => {
    img.hidden = true;
    off.hidden = false;
    document.getElementById("camera-error").textContent = cam.error || "No frame from the camera.";
  };
  img.addEventListener("error", showOff);
  if (!cam.ok) showOff();
  // The server ends each stream after a few minutes (threads are finite): start a fresh one.
  setInterval(() => { if (!img.hidden) img.src = `/stream.mjpg?t=${Date.now()}`; }, 240000);
}

// --- setup page -------------------------------------------------------------------------------

function setupPage() {
  const games = boot.games;
  const gameSel = document.getElementById("ng-game");
  const playersSel = document.getElementById("ng-players");
  const optionsBox = document.getElementById("ng-options");
  const coloursBox = document.getElementById("ng-colours");
  const palette = boot.board.palette;
  for (const g of games) gameSel.append(el("option", { value: g.name, text: g.title }));
  gameSel.value = boot.current.game;

  function fillGame() {
    const g = games.find((x) => x.name === gameSel.value);
    const current = g.name === boot.current.game ? boot.current : { players: g.default_players, options: {} };
    playersSel.textContent = "";
    for (const n of g.player_counts) playersSel.append(el("option", { value: n, text: `${n} players` }));
    playersSel.value = current.players;
    optionsBox.querySelectorAll("label").forEach((l) => l.remove());
    for (const o of g.option_specs) {
      const sel = el("select", { name: `opt-${o.name}`, "data-option": o.name, "data-type": typeof o.default });
      for (const c of o.choices) sel.append(el("option", { value: String(c), text: String(c) }));
      sel.value = String(o.name in current.options ? current.options[o.name] : o.default);
      optionsBox.append(el("label", {}, o.name.replace(/_/g, " "), sel, el("span", { class: "opt-help", text: o.help })));
    }
    coloursBox.textContent = "";
    const colours = g.colours.slice(0, Number(playersSel.value));
    for (const c of colours) coloursBox.append(el("span", { class: `chip chip-${c}` }, tokenChip(palette, c), ` ${c}`));
  }
  gameSel.addEventListener("change", fillGame);
  playersSel.addEventListener("change", () => {
    const g = games.find((x) => x.name === gameSel.value);
    coloursBox.textContent = "";
    for (const c of g.colours.slice(0, Number(playersSel.value))) coloursBox.append(el("span", { class: `chip chip-${c}` }, tokenChip(palette, c), ` ${c}`));
  });
  fillGame();

  document.getElementById("new-game").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const options = {};
    for (const sel of optionsBox.querySelectorAll("select")) {
      const t = sel.dataset.type;
      options[sel.dataset.option] = t === "number" ? Number(sel.value) : t === "boolean" ? sel.value === "true" : sel.value;
    }
    const error = document.getElementById("ng-error");
    error.textContent = "";
    try {
      await api("POST", "/api/new-game", { game: gameSel.value, players: Number(playersSel.value), options }, { pin: true });
      location.href = "/";
    } catch (e) { error.textContent = e.message; }
  });

  for (const b of document.querySelectorAll("[data-set-mode]")) {
    b.addEventListener("click", async () => {
      const error = document.getElementById("mode-error");
      error.textContent = "";
      try {
        const snap = await api("POST", "/api/settings", { mode: b.dataset.setMode }, { pin: true });
        for (const o of document.querySelectorAll("[data-set-mode]")) o.setAttribute("aria-pressed", String(o.dataset.setMode === snap.mode));
      } catch (e) { error.textContent = e.message; }
    });
  }

  // status
  const dl = document.getElementById("status");
  const st = boot.status || {};
  const row = (name, ok, text) => { dl.append(el("dt", { text: name }), el("dd", {}, el("span", { class: ok ? "ok" : "bad", text: ok ? "✓ OK " : "✕ Off " }), text || "")); };
  const cam = st.camera || {};
  row("Camera", cam.ok, `${cam.source || ""}${cam.error ? ` · ${cam.error}` : ""}`);
  const gpio = st.gpio || null;
  if (gpio) row("GPIO", gpio.ok, gpio.factory || gpio.error || "");
  const panel = st.panel || {};
  dl.append(el("dt", { text: "Panel" }), el("dd", { text: ["green", "amber", "red"].filter((k) => panel[k]).join(", ") || "all LEDs off" }));
  dl.append(el("dt", { text: "Table PIN" }), el("dd", { text: boot.pin_required ? "set: changes need it" : "not set: anyone may change the game" }));

  // calibration: click holes on a snapshot
  const on = document.getElementById("calib-on"), offBox = document.getElementById("calib-off");
  if (!cam.ok) { offBox.hidden = false; return; }
  on.hidden = false;
  const img = document.getElementById("calib-img");
  const marks = document.getElementById("calib-marks");
  // The four outermost holes first (enough for a fit), then every other hole.
  const all = boot.board.spaces;
  const extremes = [(s) => s.x + s.y, (s) => s.x - s.y, (s) => -s.x + s.y, (s) => -s.x - s.y]
    .map((f) => all.reduce((a, b) => (f(b) < f(a) ? b : a)).id);
  const spaces = [...new Set(extremes.concat(all.map((s) => s.id)))];
  const guide = new BoardView(document.getElementById("calib-guide"), boot.board, null);
  let i = 0;
  const points = [];
  const loadSnap = () => { img.src = `/snapshot.jpg?t=${Date.now()}`; };
  img.addEventListener("error", () => { on.hidden = true; offBox.hidden = false; });
  img.addEventListener("load", () => { marks.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`); drawMarks(); });
  function drawMarks() {
    marks.textContent = "";
    for (const p of points) {
      svg("circle", { cx: p.x, cy: p.y, r: 7, fill: "none", stroke: "#ffd24a", "stroke-width": 3 }, marks);
      const t = svg("text", { x: p.x + 9, y: p.y - 6, fill: "#ffd24a", "font-size": 14, "font-weight": 800 }, marks);
      t.textContent = p.space;
    }
    document.getElementById("calib-next").textContent = i < spaces.length ? spaces[i] : "(all done)";
    guide.draw({}, { selected: spaces[i], moved: points.map((p) => p.space) });
    document.getElementById("calib-count").textContent = `${points.length} clicked · ${spaces.length - i} to go`;
  }
  marks.addEventListener("click", (ev) => {
    if (i >= spaces.length || !img.naturalWidth) return;
    const r = marks.getBoundingClientRect();
    const x = ((ev.clientX - r.left) / r.width) * img.naturalWidth;
    const y = ((ev.clientY - r.top) / r.height) * img.naturalHeight;
    points.push({ space: spaces[i], x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
    i++;
    drawMarks();
  });
  document.getElementById("calib-skip").addEventListener("click", () => { if (i < spaces.length) i++; drawMarks(); });
  document.getElementById("calib-undo").addEventListener("click", () => {
    const p = points.pop();
    if (p) i = spaces.indexOf(p.space);
    drawMarks();
  });
  document.getElementById("calib-reload").addEventListener("click", loadSnap);
  document.getElementById("calib-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = document.getElementById("calib-error");
    error.textContent = "";
    try {
      const res = await api("POST", "/api/calibration/profile", {
        name: document.getElementById("calib-name").value, game: boot.board.game,
        image: { width: img.naturalWidth, height: img.naturalHeight }, points }, { pin: true });
      error.textContent = "";
      toast(`Board profile saved: ${res.saved}`, true);
    } catch (e) { error.textContent = e.message; }
  });
  loadSnap();
}

// --- a player's own phone (games with hidden identities) ----------------------------------------

async function playPage() {
  const token = boot.token;
  const base = `/api/play/${encodeURIComponent(token)}`;
  let me = boot.seat;
  let board = await (await fetch("/api/board")).json();
  const view = new BoardView(document.getElementById("board"), board, null);
  const setupBox = document.getElementById("play-setup");
  const openingBox = document.getElementById("play-opening");
  const keepBox = document.getElementById("play-keep");
  const rollBtn = document.getElementById("play-roll");
  let setupShown = false;
  rollBtn.addEventListener("click", async () => {
    rollBtn.disabled = true;
    try { await api("POST", "/api/roll"); } catch (e) { toast(e.message); rollBtn.disabled = false; }
  });

  // The seat as an answer says it, unless a live "seat" event came while we waited: the
  // answer may then be older than what is shown (the other player moved on meanwhile), and
  // the event for this change itself is still to come.
  let heard = 0;
  async function post(path, body) {
    const asked = heard;
    const r = await fetch(`${base}/${path}`, { method: "POST", headers: { "X-CSRF-Token": csrf, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    return heard === asked ? data : me;
  }

  function render() {
    const v = me.view;
    const colour = me.colour;
    const who = document.getElementById("play-who");
    who.textContent = "";
    who.append(tokenChip(board.palette, colour), el("span", {}, `You are ${cap(colour)}`,
      el("span", { class: "phase", text: "Your pieces' identities are shown only on this phone" })));
    const status = document.getElementById("play-status");
    const mover = me.colours[v.actor];
    status.textContent = v.outcome ? `★ ${cap(v.outcome.text)}`
      : v.phase === "setup" ? (v.assigned[me.seat] ? "Pieces entered. Waiting for the other player…" : "Set up: tell the referee what stands where.")
      : v.phase === "opening" ? (me.my_hand ? `You chose ${me.my_hand}. Waiting for the other player…` : "Rock-paper-scissors: who plays first?")
      : mover === colour ? (v.phase === "roll" ? "Your turn: roll the die." : v.phase === "move" ? `Your turn: move a piece ${v.dice} squares.` : v.phase === "keep" ? "Choose which piece stays." : "Move your other piece back to your back row.")
      : `${cap(mover)}'s turn.`;
    // set-up
    const needSetup = v.phase === "setup" && !v.assigned[me.seat];
    setupBox.hidden = !needSetup;
    if (needSetup && !setupShown) {
      setupShown = true;
      setupBox.textContent = "";
      const inner = el("div");
      setupBox.append(el("h2", { text: "Your ten pieces" }), el("p", { class: "hint", text: "Tap each square until it shows the piece you stood there (at least one rock, one paper and one scissors)." }), inner);
      setupGrid(inner, me.back_row, colour, board.palette, async (identities) => {
        me = await post("setup", { identities });
        toast("Sent. Only the referee knows your pieces.", true);
        render();
      });
    }
    if (!needSetup) setupShown = false;
    // opening
    const needHand = v.phase === "opening" && !me.my_hand;
    openingBox.hidden = v.phase !== "opening";
    openingBox.textContent = "";
    if (v.phase === "opening") {
      openingBox.append(el("h2", { text: "Who starts?" }));
      if (needHand) {
        openingBox.append(el("p", { class: "hint", text: "Pick your hand in secret. The referee compares both; a tie is thrown again." }));
        const row = el("div", { class: "hands" });
        for (const k of KINDS) row.append(el("button", { class: "btn hand", type: "button", "data-hand": k, onclick: async () => {
          try { me = await post("hand", { hand: k }); render(); } catch (e) { toast(e.message); }
        } }, kindIcon(k, 40), el("span", { text: cap(k) })));
        openingBox.append(row);
      } else {
        openingBox.append(el("p", { class: "hint" }, "You chose ", kindBadge(me.my_hand), `. Waiting for ${me.hands_in.every(Boolean) ? "the referee" : "the other player"}…`));
      }
    }
    // keep after a rescue
    keepBox.hidden = !me.keep.length;
    keepBox.textContent = "";
    if (me.keep.length) {
      keepBox.append(el("h2", { text: `Which piece stays on ${me.keep[0].space}?` }));
      const row = el("div", { class: "row" });
      for (const m of me.keep) row.append(el("button", { class: "btn", type: "button", "data-stay": m.stay, text: m.stay === "rescuer" ? "The rescuer" : "The freed piece",
        onclick: async () => { try { me = await post("keep", { stay: m.stay }); render(); } catch (e) { toast(e.message); } } }));
      keepBox.append(row);
    }
    drawBanner(document.getElementById("banner"), me.ruling, { names: board.names || {} });
    // Your turn to roll: the same roll as the table's button, from your own phone.
    rollBtn.hidden = !(mover === colour && v.phase === "roll" && !v.outcome);
    rollBtn.disabled = rollBtn.hidden;
    // the board: my pieces' letters; the other side's only if revealed
    const labels = {};
    const stale = {};
    for (const p of v.pieces) {
      if (p.stalemate) stale[p.space] = (stale[p.space] || []).concat([p]);
      else if (p.identity) labels[p.space] = KIND_LETTER[p.identity];
      else labels[p.space] = p.seat !== me.seat ? "?" : "";
    }
    for (const [sq, ps] of Object.entries(stale)) {
      const mine = ps.find((p) => p.seat === me.seat);
      labels[sq] = mine && mine.identity ? `${KIND_LETTER[mine.identity]}=` : "=";
    }
    view.draw(v.placement, {}, labels);
    // my pieces
    const list = document.getElementById("piece-list");
    list.textContent = "";
    const mine = v.pieces.filter((p) => p.seat === me.seat);
    for (const p of mine) {
      list.append(el("li", { "data-space": p.space, "data-identity": p.identity || "" }, el("span", { class: "sq", text: p.space }), kindBadge(p.identity, "not set"),
        p.stalemate ? el("span", { class: "tag unclear", text: "stalemate" }) : null, p.revealed ? el("span", { class: "tag", text: "known to all" }) : null));
    }
    if (!mine.length) list.append(el("li", { class: "empty", text: "No pieces left." }));
  }

  const live = document.getElementById("live");
  live.hidden = false;
  let source = null, retry = 2000;
  const open = () => {
    source = new EventSource(`${base}/events`);
    source.addEventListener("open", () => { live.dataset.state = "up"; live.textContent = "● live"; retry = 2000; });
    source.addEventListener("seat", (ev) => { heard += 1; me = JSON.parse(ev.data); render(); });
    source.addEventListener("ruling", (ev) => { me = { ...me, ruling: JSON.parse(ev.data) }; render(); });
    source.addEventListener("gone", () => { source.close(); document.getElementById("play-status").textContent = "This link is no longer valid: scan the new QR code on the table page."; });
    source.addEventListener("error", () => {
      live.dataset.state = "down"; live.textContent = "○ reconnecting";
      if (source.readyState === EventSource.CLOSED) { setTimeout(open, retry); retry = Math.min(retry * 2, 30000); }
    });
  };
  open();
  render();
}

// --- start ------------------------------------------------------------------------------------

// --- the faults line (every page, phones too): storage, camera, PIN lock-out ---------------------

function watchFaults() {
  const line = document.getElementById("faults");
  if (!line) return;
  const show = async () => {
    try {
      const st = await (await fetch("/api/status", { headers: { Accept: "application/json" } })).json();
      const lines = [...(st.faults || [])];
      if (st.pin_lock && st.pin_lock.locked) lines.push(`Too many wrong PINs: changes are locked until ${st.pin_lock.until}`);
      line.textContent = lines.join(" · ");
      line.hidden = !lines.length;
    } catch (e) { /* the server is away: the live dot says so */ }
  };
  show();
  setInterval(show, 5000);
}

const pages = { table: tablePage, history: historyPage, camera: cameraPage, setup: setupPage, play: playPage };
if (pages[boot.page]) pages[boot.page]();
watchFaults();
