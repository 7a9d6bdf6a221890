// Keep the public standings current: poll the JSON (cheap when unchanged: 304) and redraw the table.
(function () {
  "use strict";
  const freshness = document.getElementById("freshness");
  const table = document.getElementById("standings");
  if (!freshness || !table) return;
  let etag = null;

  function cell(tag, text, numeric) {
    const el = document.createElement(tag);
    el.textContent = text;
    if (numeric) el.className = "num";
    return el;
  }

  function draw(data) {
    const head = document.createElement("tr");
    const labels = table.tHead.rows[0].cells;
    head.append(cell("th", labels[0].textContent, true), cell("th", "#", true),
      cell("th", labels[2].textContent), cell("th", labels[3].textContent));
    const roundLabel = table.dataset.roundLabel || "R";
    data.rounds.forEach((r) => head.append(cell("th", roundLabel + r, true)));
    head.append(cell("th", table.dataset.totalLabel, true));
    if (table.dataset.pointsLabel) head.append(cell("th", table.dataset.pointsLabel, true));
    head.append(cell("th", table.dataset.boardsLabel, true));
    const body = document.createElement("tbody");
    data.rows.forEach((row) => {
      const tr = document.createElement("tr");
      if (row.withdrawn) tr.className = "muted";
      tr.append(cell("td", row.place, true), cell("td", row.entry, true), cell("td", row.name), cell("td", row.club));
      data.rounds.forEach((r) => tr.append(cell("td", row.rounds[String(r)] || "", true)));
      const total = cell("td", "", true);
      const strong = document.createElement("strong");
      strong.textContent = row.total;
      total.append(strong);
      tr.append(total);
      if (table.dataset.pointsLabel) tr.append(cell("td", row.raw_total, true));
      tr.append(cell("td", row.boards, true));
      body.append(tr);
    });
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceWith(body);
    if (data.computed_at) {
      const when = new Date(data.computed_at);
      freshness.textContent = freshness.textContent.replace(/[\d:]+$/, "") .trim() + " " + when.toLocaleTimeString();
    }
  }

  function poll() {
    const headers = etag ? { "If-None-Match": etag } : {};
    fetch(freshness.dataset.url, { headers, cache: "no-cache" })
      .then((response) => {
        if (response.status === 200) {
          etag = response.headers.get("ETag");
          return response.json().then(draw);
        }
        return null;
      })
      .catch(() => null)
      .finally(() => setTimeout(poll, 3000));
  }
  setTimeout(poll, 3000);
})();
