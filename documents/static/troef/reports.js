// Reports page: while a document is being made, poll its status and move its progress bar; show
// the download link when it is ready and the reason when it failed, and whether the finished file
// still matches the event (what changed since, if not).
(function () {
  "use strict";
  const rows = document.querySelectorAll("#reports tr[data-status-url]");

  function update(row, data) {
    row.dataset.status = data.status;
    const bar = row.querySelector("progress");
    const label = row.querySelector(".label");
    const error = row.querySelector(".error");
    const link = row.querySelector("a.download");
    bar.value = data.progress;
    bar.textContent = data.progress + "%";
    label.textContent = data.label;
    error.textContent = data.error || "";
    const finished = data.status === "done" || data.status === "failed";
    bar.hidden = finished;
    showFreshness(row, data.freshness);
    if (data.download_url) {
      link.href = data.download_url;
      link.querySelector(".filename").textContent = " (" + data.filename + ")";
      link.hidden = false;
    }
    return finished;
  }

  function showFreshness(row, freshness) {
    const label = row.querySelector(".freshness");
    const changes = row.querySelector(".changes");
    const explanation = row.querySelector(".explanation");
    const again = row.querySelector("form button");
    changes.replaceChildren();
    if (!freshness) {
      delete row.dataset.freshness;
      label.hidden = true;
      explanation.textContent = "";
      again.classList.add("secondary");
      return;
    }
    row.dataset.freshness = freshness.state;
    label.textContent = freshness.label;
    label.hidden = false;
    freshness.changes.forEach((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      changes.appendChild(item);
    });
    explanation.textContent = freshness.explanation;
    again.classList.toggle("secondary", freshness.state !== "out_of_date");
  }

  function poll(row) {
    fetch(row.dataset.statusUrl, { cache: "no-cache", credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => {
        // No answer (the document was deleted, or the session ended): stop asking.
        if (data && !update(row, data)) setTimeout(() => poll(row), 1000);
      })
      .catch(() => setTimeout(() => poll(row), 3000));
  }

  rows.forEach((row) => {
    if (row.dataset.status === "queued" || row.dataset.status === "running") poll(row);
  });
})();
