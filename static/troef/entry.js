// Keyboard entry of paper score sheets: the scores appear as you type, Enter saves and moves on,
// from a table's last board to the next table. Corrections and confirmations are asked in the row
// itself (Enter answers, Escape cancels): nothing needs the mouse, and no browser dialog is used.
// The page speaks to API v1 as every other client does: POST events/<slug>/check/ to score a line,
// POST events/<slug>/results/ to save it; an error is {"code", "message", "field", "params"}.
(function () {
  "use strict";
  const tables = Array.from(document.querySelectorAll("table.entry"));
  if (!tables.length) return;
  const text = document.getElementById("messages-i18n").dataset;
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const roundCounter = document.getElementById("round-counter");
  let timer = null;

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).then((response) => response.json().then((data) => ({ ok: response.ok, data })));
    // An answer that is not JSON (a proxy's error page) fails like a lost connection.
  }

  // A save's own key: sent again (its answer was lost), the server answers with what that save
  // stored instead of storing it twice or calling it a conflict.
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  // A lost connection is tried again a few times with the same key, then left to the keyer.
  function postAgain(url, body, waits) {
    return post(url, body).catch((error) => {
      if (!waits.length) throw error;
      return new Promise((resolve) => setTimeout(resolve, waits[0]))
        .then(() => postAgain(url, body, waits.slice(1)));
    });
  }

  function row(el) { return el.closest("tr"); }
  function tableOf(el) { return el.closest("table.entry"); }
  function isSecond(el) { return tableOf(el).dataset.second === "1"; }
  function lines() { return Array.from(document.querySelectorAll("table.entry input.line")); }
  function lineOf(tr) { return tr.querySelector("input.line"); }

  function status(tr, message, kind) {
    const span = tr.querySelector(".status .message");
    span.textContent = message;
    span.className = "message " + (kind || "");
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
  function sheetKey(tr) { return JSON.stringify(sheet(tr)); }
  function flagSheet(tr, seats) {
    tr.querySelectorAll(".sheet").forEach((input) => {
      input.classList.toggle("mismatch", seats.includes(input.dataset.seat));
    });
  }

  // The counters: boards keyed and missing, for each table and for the round.
  function count(rows) {
    const list = Array.from(rows);
    return [list.filter((tr) => tr.dataset.done === "1").length, list.length];
  }
  function show(counter, done, total) {
    counter.querySelector(".done").textContent = done;
    counter.querySelector(".missing").textContent = total - done;
  }
  function recount() {
    document.querySelectorAll("section.entry-table").forEach((section) => {
      const [done, total] = count(section.querySelectorAll("table.entry tbody tr"));
      show(section.querySelector(".counter"), done, total);
    });
    if (roundCounter) {
      const [done, total] = count(document.querySelectorAll("table.entry tbody tr"));
      show(
        roundCounter,
        done + Number(roundCounter.dataset.otherDone || 0),
        total + Number(roundCounter.dataset.otherTotal || 0)
      );
    }
  }

  // The TD's acceptance of Troef's score over the sheet: a plain form, as the page renders it.
  function acceptForm(tr) {
    const form = document.createElement("form");
    form.method = "post";
    form.action = tr.dataset.acceptUrl;
    form.className = "inline accept";
    const token = document.createElement("input");
    token.type = "hidden"; token.name = "csrfmiddlewaretoken"; token.value = csrf;
    const version = document.createElement("input");
    version.type = "hidden"; version.name = "version"; version.value = tr.dataset.version;
    const back = document.createElement("input");
    back.type = "hidden"; back.name = "back";
    back.value = tables.length > 1 ? "round" : "table";
    const reason = document.createElement("input");
    reason.name = "reason"; reason.placeholder = text.acceptReason; reason.setAttribute("aria-label", text.acceptReason);
    const button = document.createElement("button");
    button.type = "submit"; button.className = "secondary"; button.textContent = text.accept;
    form.append(token, version, back, reason, " ", button);
    return form;
  }
  function showDifference(tr, open, seats) {
    const cell = tr.querySelector(".status");
    const existing = cell.querySelector("form.accept");
    if (existing) existing.remove();
    if (!open) return;
    cell.append(acceptForm(tr));
    status(tr, text.sheet + " " + seats.join(", "), "bad");
  }

  // [line keyed from the sheet, the table's differing keying or ""]: the result holds the first
  // keying as its notation and the second in other_keying; one of the two came from the table.
  function sheetAndTable(result) {
    if (!result.other_keying) return [result.notation, ""];
    if (result.source === "device") return [result.other_keying, result.notation];
    return [result.notation, result.other_keying];
  }
  function showKeying(tr, tableLine) {
    const cell = tr.querySelector(".status .keying");
    tr.dataset.tableKeying = tableLine;
    cell.replaceChildren();
    if (!tableLine) return;
    const said = document.createElement("span");
    said.className = "bad";
    const line = document.createElement("code");
    line.textContent = tableLine;
    said.append(text.differs + " ", line);
    const link = document.createElement("a");
    link.href = tr.dataset.historyUrl;
    link.textContent = text.keepOrCorrect;
    cell.append(said, " ", link);
  }

  // A question asked in the row: a reason for a correction, or the confirmation of a rare result.
  function clearPrompt(tr) { tr.querySelector(".status .prompt").replaceChildren(); }
  function cancel(input) {
    const tr = row(input);
    clearPrompt(tr);
    input.value = input.dataset.saved;
    status(tr, "");
    input.focus();
    check(input);
  }
  function askReason(input, extra) {
    const tr = row(input);
    const label = document.createElement("label");
    const field = document.createElement("input");
    field.className = "reason-inline";
    label.append(text.reason + " ", field, " ");
    const hint = document.createElement("small");
    hint.className = "muted";
    hint.textContent = text.reasonHint;
    label.append(hint);
    clearPrompt(tr);
    tr.querySelector(".status .prompt").append(label);
    field.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { event.preventDefault(); cancel(input); return; }
      if (event.key !== "Enter") return;
      event.preventDefault();
      if (field.value.trim() === "") return;
      saveAndGo(input, Object.assign({}, extra, { reason: field.value.trim() }));
    });
    field.focus();
  }
  function askConfirmation(input, extra, message) {
    const tr = row(input);
    status(tr, message, "warn");
    const yes = document.createElement("button");
    yes.type = "button"; yes.className = "confirm-inline"; yes.textContent = text.confirm;
    const no = document.createElement("button");
    no.type = "button"; no.className = "secondary"; no.textContent = text.cancel;
    yes.addEventListener("click", () => saveAndGo(input, Object.assign({}, extra, { confirmed: true })));
    no.addEventListener("click", () => cancel(input));
    [yes, no].forEach((button) => button.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { event.preventDefault(); cancel(input); }
    }));
    clearPrompt(tr);
    tr.querySelector(".status .prompt").append(" ", yes, " ", no);
    yes.focus();
  }

  // Each check or save of a row takes a new number; an answer that comes back after a later one
  // started (a slow check overtaken by the save of the same line) is dropped, not shown.
  function turn(tr) {
    tr.dataset.turn = String(Number(tr.dataset.turn || 0) + 1);
    return tr.dataset.turn;
  }

  function check(input) {
    const tr = row(input);
    if (input.value.trim() === "") { showScores(tr, null); status(tr, ""); return; }
    const mine = turn(tr);
    const body = { board: Number(tr.dataset.board), text: input.value };
    post(tableOf(input).dataset.checkUrl, body).then(({ ok, data }) => {
      if (tr.dataset.turn !== mine) return;
      if (ok) {
        showScores(tr, data.scores);
        status(tr, data.warnings.join(" "), data.warnings.length ? "warn" : "");
      } else {
        showScores(tr, null);
        status(tr, data.message, "bad");
      }
    }).catch(() => {});  // a lost check is only a preview: the save says what matters
  }

  function save(input, extra) {
    const tr = row(input);
    // One save of a row at a time: a second Enter while the first is on its way would only be
    // refused as a conflict with the first.
    if (tr.dataset.saving === "1") return Promise.resolve(false);
    tr.dataset.saving = "1";
    clearTimeout(timer);
    turn(tr);
    const second = isSecond(input);
    const sent = input.value;
    const table = tableOf(input);
    const body = Object.assign(
      {
        round: Number(table.dataset.round),
        table: Number(table.dataset.table),
        board: Number(tr.dataset.board),
        text: sent,
        version: Number(tr.dataset.version || 0),
        sheet: sheet(tr),
        second: second,
      },
      extra || {}
    );
    // The same line sent again after a failure keeps its key: it may have been stored already.
    const what = JSON.stringify(body);
    if (tr.dataset.pending !== what) {
      tr.dataset.pending = what;
      tr.dataset.submission = newKey();
    }
    body.submission = tr.dataset.submission;
    return postAgain(table.dataset.saveUrl, body, [1000, 3000]).then(({ ok, data }) => {
      tr.dataset.saving = "";
      clearPrompt(tr);
      tr.dataset.pending = "";  // answered: the next save is a new one
      if (ok) {
        tr.dataset.version = data.version;
        // The line as keyed from the sheet: when the table keyed the board otherwise, the result
        // keeps the first keying and the other waits beside it for the TD.
        const keyings = sheetAndTable(data);
        // What was typed after Enter stays; only the line as sent is put in its saved form.
        if (input.value === sent) input.value = keyings[0];
        input.dataset.saved = keyings[0];
        tr.dataset.sheetKey = sheetKey(tr);
        tr.dataset.done = !second || data.status === "confirmed" ? "1" : "";
        const shown = tr.querySelector(".shown");
        if (shown) shown.remove();
        showScores(tr, data.scores);
        flagSheet(tr, data.sheet_mismatch);
        status(tr, second ? text.confirmed : text.saved, "ok");
        showDifference(tr, data.sheet_status === "open", data.sheet_mismatch);
        showKeying(tr, keyings[1]);
        recount();
        return true;
      }
      const error = data;
      if (error.code === "reason_required") {
        askReason(input, extra);
        return false;
      }
      if (error.code === "needs_confirmation") {
        askConfirmation(input, extra, error.message);
        return false;
      }
      const current = error.params || {};
      if ((error.code === "conflict" || error.code === "version_required") && "version" in current) {
        // Someone else saved this board first: show what is there now and key against it.
        tr.dataset.version = current.version;
        input.dataset.saved = current.notation || "";
      }
      status(tr, error.message + " (" + text.failed + ")", "bad");
      input.focus();
      return false;
    }).catch(() => {
      // No answer (the network or the server is down): the line stays typed, to be sent again.
      tr.dataset.saving = "";
      status(tr, text.failed, "bad");
      input.focus();
      return false;
    });
  }
  function saveAndGo(input, extra) {
    return save(input, extra).then((done) => { if (done) next(input); });
  }

  // The next board to key: the following line on the page, else the next table's page.
  function next(input) {
    const all = lines();
    const following = all[all.indexOf(input) + 1];
    if (following) { following.focus(); return; }
    const url = tableOf(input).dataset.nextUrl;
    if (url) window.location.assign(url);
  }

  tables.forEach((table) => {
    table.querySelectorAll("tbody tr").forEach((tr) => { tr.dataset.sheetKey = sheetKey(tr); });
    table.addEventListener("input", (event) => {
      if (!event.target.classList.contains("line")) return;
      clearTimeout(timer);
      const input = event.target;
      timer = setTimeout(() => check(input), 150);
    });
    table.addEventListener("keydown", (event) => {
      const target = event.target;
      if (!target.matches("input.line, input.sheet")) return;  // prompts and forms answer for themselves
      const tr = row(target);
      const input = lineOf(tr);
      if (event.key === "Escape" && target === input) { event.preventDefault(); cancel(input); return; }
      if (event.key !== "Enter") return;
      event.preventDefault();
      if (input.value.trim() === "") { next(input); return; }
      const unchanged = input.value === input.dataset.saved && tr.dataset.sheetKey === sheetKey(tr);
      if (unchanged && !isSecond(input)) { next(input); return; }
      // Keyed at the table and from the sheet, with two results: another line again would only
      // be kept beside them, so it is a correction, with its reason.
      const third = tr.dataset.tableKeying && input.value !== input.dataset.saved
        && input.value.trim() !== tr.dataset.tableKeying;
      if (third && !isSecond(input)) { askReason(input, {}); return; }
      saveAndGo(input);
    });
  });

  // Start at the first board still to key: of the table named in the address (#t3), else the page.
  const section = location.hash ? document.getElementById(location.hash.slice(1)) : null;
  const scope = section || document;
  const rows = Array.from(scope.querySelectorAll("table.entry tbody tr"));
  const first = rows.find((tr) => tr.dataset.done !== "1") || rows[0];
  if (first) lineOf(first).focus();
})();
