// The payouts of a scoring table as the TD types it: the text goes to the server, which scores
// it with the engine, and the table below is redrawn (or the engine's message naming the key).
(function () {
  "use strict";
  const box = document.getElementById("scoring-preview");
  if (!box) return;
  const source = document.getElementById(box.dataset.source);
  const token = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (!source || !token) return;
  const WAIT_MS = 400;
  let timer = null;
  let asked = 0;

  function el(tag, text, classes) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (classes) node.className = classes;
    return node;
  }

  function drawTable(data) {
    const note = el("p", [data.title, data.game,
      data.per_player ? box.dataset.labelPerPlayer : box.dataset.labelPerSide].join(" · "), "muted");
    const table = el("table", null, "data compact payouts");
    const head = table.createTHead();
    const top = head.insertRow();
    top.append(el("th", box.dataset.labelBid));
    const tricks = el("th", box.dataset.labelTricks);
    tricks.colSpan = data.columns.length;
    top.append(tricks);
    const numbers = head.insertRow();
    numbers.append(el("th", ""));
    data.columns.forEach((n) => numbers.append(el("th", String(n), "num")));
    const body = table.createTBody();
    data.rows.forEach((row) => {
      const tr = body.insertRow();
      tr.append(el("th", row.label));
      row.cells.forEach((c) => {
        const td = el("td", null, c && c.made ? "num made" : "num");
        if (c && c.made) td.append(el("strong", c.text));
        else td.textContent = c ? c.text : "";
        tr.append(td);
      });
    });
    box.replaceChildren(note, table);
  }

  function drawError(message) {
    box.replaceChildren(el("p", message, "bad"));
  }

  function refresh() {
    const mine = ++asked;
    const body = new FormData();
    body.append("toml", source.value);
    fetch(box.dataset.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": token.value, "Accept": "application/json" },
    })
      .then((response) => response.json())
      .then((data) => {
        if (mine !== asked) return; // an older answer arriving after a newer one
        if (data.ok) drawTable(data);
        else drawError(data.message);
      })
      .catch(() => {
        if (mine === asked) drawError(box.dataset.labelOffline);
      });
  }

  source.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, WAIT_MS);
  });
})();
