// Keep the public standings current: poll the JSON (cheap when unchanged: 304) and redraw the table.
// The "Updated" time is the server's text (the event's time zone), never the reader's clock.
(function () {
  "use strict";
  const freshness = document.getElementById("freshness");
  const table = document.getElementById("standings");
  if (!freshness || !table) return;
  const updated = document.getElementById("updated");
  const updatedAt = document.getElementById("updated-at");
  const differences = document.getElementById("open-differences");
  const notices = document.getElementById("standings-notices");
  const separator = table.dataset.decimalSeparator || ".";
  let etag = null;

  // The JSON keeps numbers as text with a point ("52.31"); the page shows the language's own mark.
  function decimal(text) {
    const value = text === null || text === undefined ? "" : String(text);
    return /^[+-]?\d+(\.\d+)?$/.test(value) ? value.replace(".", separator) : value;
  }

  function cell(tag, text, classes) {
    const el = document.createElement(tag);
    el.textContent = text;
    if (classes) el.className = classes;
    return el;
  }

  function tag(text) {
    const el = cell("span", text, "tag");
    return [document.createTextNode(" "), el];
  }

  function draw(data) {
    const head = document.createElement("tr");
    const labels = table.tHead.rows[0].cells;
    head.append(cell("th", labels[0].textContent, "num place"), cell("th", "#", "num entry"),
      cell("th", labels[2].textContent, "name"), cell("th", labels[3].textContent, "club"));
    const roundLabel = table.dataset.roundLabel || "R";
    data.rounds.forEach((r) => head.append(cell("th", roundLabel + r, "num round")));
    head.append(cell("th", table.dataset.totalLabel, "num total"));
    if (table.dataset.pointsLabel) head.append(cell("th", table.dataset.pointsLabel, "num points"));
    head.append(cell("th", table.dataset.boardsLabel, "num boards"));
    const body = document.createElement("tbody");
    data.rows.forEach((row) => {
      const tr = document.createElement("tr");
      const classes = [];
      if (row.withdrawn) classes.push("withdrawn", "muted");
      if (!row.place) classes.push("waiting");
      tr.className = classes.join(" ");
      const name = cell("td", "", "name");
      const link = cell("a", row.name);
      link.href = row.url;
      name.append(link);
      if (row.withdrawn) name.append(...tag(table.dataset.withdrawnLabel));
      if (!row.place) name.append(...tag(table.dataset.waitingLabel));
      tr.append(cell("td", row.place || "–", "num place"), cell("td", row.entry, "num entry"), name,
        cell("td", row.club, "club"));
      data.rounds.forEach((r) => tr.append(cell("td", decimal(row.rounds[String(r)]), "num round")));
      const total = cell("td", "", "num total");
      total.append(cell("strong", row.total ? decimal(row.total) : "–"));
      tr.append(total);
      if (table.dataset.pointsLabel) tr.append(cell("td", row.raw_total, "num points"));
      tr.append(cell("td", row.boards, "num boards"));
      body.append(tr);
    });
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceWith(body);
    if (data.computed_at_display && updated && updatedAt) {
      updatedAt.textContent = data.computed_at_display;
      updatedAt.setAttribute("datetime", data.computed_at);
      updated.hidden = false;
    }
    // The server writes the warning in the reader's language; none open: the line goes.
    if (differences && "open_differences" in data) {
      differences.textContent = data.open_differences_display || "";
      differences.hidden = !data.open_differences;
    }
    // Not current, publication delayed: the server's words, the same as the page's.
    if (notices && Array.isArray(data.notices_display)) {
      notices.replaceChildren(...data.notices_display.map((notice) => {
        const p = cell("p", notice.text, "warn");
        p.id = notice.id;
        return p;
      }));
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
