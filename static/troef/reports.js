// Reports page: while a document is being made, poll its status and move its progress bar; show
// the download link when it is ready and the reason when it failed.
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
    if (data.download_url) {
      link.href = data.download_url;
      link.querySelector(".filename").textContent = " (" + data.filename + ")";
      link.hidden = false;
    }
    return finished;
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
