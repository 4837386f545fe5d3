// The coach on the teach page (moves ranked by winning chance) and the win-chance chart on the
// history page. Drawn here from /api/coach and /api/coach/chances; nothing from the internet.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const pct = (x) => `${Math.round(x * 100)}%`;

  async function getJSON(url) {
    const r = await fetch(url, { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    return r.json();
  }

  function el(tag, attrs = {}, text = "") {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text) node.textContent = text;
    return node;
  }

  // Asking again every few seconds: a slow answer may come after a later one, and must not
  // replace it (the coach "thinking" again over a ranking already shown). Each answer is
  // shown only if no later question has been answered yet.
  function latestOnly() {
    let asked = 0, shown = 0;
    return async (url) => {
      const mine = ++asked;
      let data, failed = null;
      try { data = await getJSON(url); } catch (err) { failed = err; }
      if (mine < shown) return { stale: true };
      shown = mine;
      if (failed) throw failed;
      return { data };
    };
  }

  // --- teach page: the ranking ----------------------------------------------------------------
  function coachPanel(section) {
    const status = section.querySelector("#coach-status");
    const list = section.querySelector("#coach-moves");
    const judged = section.querySelector("#coach-judgement");
    const ask = latestOnly();
    async function tick() {
      let data;
      try {
        const answer = await ask(section.dataset.url || "/api/coach");
        if (answer.stale) return;
        data = answer.data;
      } catch (err) {
        status.textContent = "The coach cannot be reached.";
        return;
      }
      if (data.status === "off" || (section.dataset.game && data.game !== section.dataset.game)) {
        section.hidden = true;
        return;
      }
      section.hidden = false;
      const j = data.judgement;
      judged.textContent = j && j.text ? `${j.colour} played ${j.move}: ${j.text} (best was ${j.best}: ${j.best_words}).` : "";
      if (data.status === "thinking") { status.textContent = "The coach is thinking…"; return; }
      if (data.status === "nothing" || !data.ranking) {
        status.textContent = section.dataset.url ? "The coach helps on your turn, once you have rolled." :
          "Nothing to choose right now (a roll, or the game is over).";
        list.replaceChildren();
        return;
      }
      const r = data.ranking;
      status.textContent = `${r.colour} to move — ${r.summary}` + (r.complete ? "" : " (stopped at the time budget)");
      list.replaceChildren(...r.moves.map((m, i) => {
        const li = el("li", { class: i === 0 ? "coach-best" : "" });
        li.append(el("span", { class: "coach-chance" }, pct(m.chance)), " ",
          el("b", {}, m.text), " — ", el("span", { class: "coach-words" }, m.words),
          el("span", { class: "coach-n" }, m.playouts ? ` (${m.playouts} playouts)` : " (at a glance)"));
        return li;
      }));
    }
    tick();
    setInterval(tick, 1500);
  }

  // --- history page: each seat's winning chance over the game ------------------------------------
  function chart(figure) {
    const svg = figure.querySelector("svg");
    const note = figure.querySelector("figcaption");
    const W = 320, H = 140, L = 30, B = 18;
    function draw(data) {
      svg.replaceChildren();
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      const pts = data.points;
      const maxN = Math.max(1, ...pts.map((p) => p.n));
      const x = (n) => L + (n / maxN) * (W - L - 6);
      const y = (c) => 6 + (1 - c) * (H - B - 6);
      for (const level of [0, 0.5, 1]) {
        const line = document.createElementNS(SVG, "line");
        Object.entries({ x1: L, x2: W - 6, y1: y(level), y2: y(level), class: "chart-grid" })
          .forEach(([k, v]) => line.setAttribute(k, v));
        const label = document.createElementNS(SVG, "text");
        Object.entries({ x: 2, y: y(level) + 4, class: "chart-label" }).forEach(([k, v]) => label.setAttribute(k, v));
        label.textContent = pct(level);
        svg.append(line, label);
      }
      data.colours.forEach((colour, seat) => {
        if (pts.length < 1) return;
        const line = document.createElementNS(SVG, "polyline");
        line.setAttribute("points", pts.map((p) => `${x(p.n).toFixed(1)},${y(p.chances[seat]).toFixed(1)}`).join(" "));
        line.setAttribute("class", `chart-line chart-${colour}`);
        line.setAttribute("stroke", colour);
        line.setAttribute("data-seat", String(seat));
        svg.append(line);
      });
      const axis = document.createElementNS(SVG, "text");
      Object.entries({ x: W - 6, y: H - 3, "text-anchor": "end", class: "chart-label" }).forEach(([k, v]) => axis.setAttribute(k, v));
      axis.textContent = `move ${maxN}`;
      svg.append(axis);
      const last = pts[pts.length - 1];
      note.textContent = data.status === "off" ? "The coach is off." :
        last ? "Winning chance now: " + data.colours.map((c, s) => `${c} ${pct(last.chances[s])}`).join(", ") +
          (data.pending ? ` (${data.pending} more points coming)` : "") : "The coach is working out the chances…";
    }
    const ask = latestOnly();
    async function tick() {
      try {
        const answer = await ask("/api/coach/chances");
        if (!answer.stale) draw(answer.data);
      } catch (err) { note.textContent = "The coach cannot be reached."; }
    }
    tick();
    setInterval(tick, 4000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const section = document.getElementById("coach");
    if (section) coachPanel(section);
    const figure = document.getElementById("win-chart");
    if (figure) chart(figure);
  });
})();
