// Keyboard entry of a paper score sheet: the scores appear as you type, Enter saves and moves on.
(function () {
  "use strict";
  const table = document.getElementById("entry");
  if (!table) return;
  const text = document.getElementById("messages-i18n").dataset;
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const second = table.dataset.second === "1";
  let timer = null;

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).then((response) => response.json().then((data) => ({ ok: response.ok, data })));
  }

  function row(el) { return el.closest("tr"); }
  function status(tr, message, kind) {
    const cell = tr.querySelector(".status");
    cell.textContent = message;
    cell.className = "status " + (kind || "");
  }
  function showScores(tr, scores) {
    tr.querySelectorAll(".score").forEach((div) => {
      div.textContent = scores ? scores[div.dataset.seat] : "";
    });
  }
  function sheet(tr) {
    const out = {};
    tr.querySelectorAll(".sheet").forEach((input) => {
      if (input.value.trim() !== "") out[input.dataset.seat] = input.value.trim();
    });
    return out;
  }
  function flagSheet(tr, seats) {
    tr.querySelectorAll(".sheet").forEach((input) => {
      input.classList.toggle("mismatch", seats.includes(input.dataset.seat));
    });
  }

  function check(input) {
    const tr = row(input);
    if (input.value.trim() === "") { showScores(tr, null); status(tr, ""); return; }
    post(table.dataset.checkUrl, { board: tr.dataset.board, text: input.value }).then(({ ok, data }) => {
      if (ok) {
        showScores(tr, data.scores);
        status(tr, data.warnings.join(" "), data.warnings.length ? "warn" : "");
      } else {
        showScores(tr, null);
        status(tr, data.error.message, "bad");
      }
    });
  }

  function save(input, extra) {
    const tr = row(input);
    const body = Object.assign(
      { board: tr.dataset.board, text: input.value, version: tr.dataset.version, sheet: sheet(tr), second: second },
      extra || {}
    );
    return post(table.dataset.saveUrl, body).then(({ ok, data }) => {
      if (ok) {
        tr.dataset.version = data.version;
        input.value = data.notation;
        input.dataset.saved = data.notation;
        showScores(tr, data.scores);
        flagSheet(tr, data.sheet_mismatch);
        if (data.sheet_mismatch.length) {
          status(tr, text.sheet + " " + data.sheet_mismatch.join(", "), "bad");
        } else {
          status(tr, second ? text.confirmed : text.saved, "ok");
        }
        return true;
      }
      const error = data.error;
      if (error.code === "reason_required") {
        const reason = window.prompt(text.reason);
        if (reason) return save(input, Object.assign({}, extra, { reason: reason }));
      } else if (error.code === "needs_confirmation") {
        if (window.confirm(error.message + "\n\n" + text.confirm)) {
          return save(input, Object.assign({}, extra, { confirmed: true }));
        }
      }
      if (error.code === "conflict" && error.current) {
        // Someone else saved this board first: show what is there now and key against it.
        tr.dataset.version = error.current.version;
        input.dataset.saved = error.current.notation;
      }
      status(tr, error.message + " (" + text.failed + ")", "bad");
      return false;
    });
  }

  function next(input) {
    const inputs = Array.from(table.querySelectorAll("input.line"));
    const following = inputs[inputs.indexOf(input) + 1];
    if (following) following.focus();
  }

  table.addEventListener("input", (event) => {
    if (!event.target.classList.contains("line")) return;
    clearTimeout(timer);
    const input = event.target;
    timer = setTimeout(() => check(input), 150);
  });
  table.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const tr = row(event.target);
    const input = tr.querySelector("input.line");
    if (input.value.trim() === "") { next(input); return; }
    if (input.value === input.dataset.saved && !second && Object.keys(sheet(tr)).length === 0) { next(input); return; }
    save(input).then((done) => { if (done) next(input); });
  });
  const first = Array.from(table.querySelectorAll("input.line")).find((i) => i.value === "");
  (first || table.querySelector("input.line")).focus();
})();
