// The table device: a phone at the table keys the table's boards, and an opponent confirms them.
// Everything goes through the device's API. A save carries its own key: sent again after a lost
// answer it is answered with what it stored, so a result typed here is kept on the phone
// (localStorage) until the server has answered it, and sent again whenever the connection is back.
(function () {
  "use strict";
  const root = document.getElementById("device");
  if (!root) return;
  const text = document.getElementById("device-i18n").dataset;
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const api = root.dataset.api;
  const storage = root.dataset.storage;
  const contracts = JSON.parse(root.dataset.contracts || "[]");
  const list = document.getElementById("device-boards");
  const connection = document.getElementById("device-connection");
  const form = document.getElementById("device-entry");
  const title = document.getElementById("entry-title");
  const line = document.getElementById("device-line");
  const preview = document.getElementById("device-preview");
  const reasonBox = document.getElementById("device-reason");
  const reasonText = document.getElementById("device-reason-text");
  const sendStatus = document.getElementById("device-send");
  const resend = document.getElementById("device-resend");
  const confirmBox = document.getElementById("device-confirm");
  const confirmTitle = document.getElementById("confirm-title");
  const confirmStatus = document.getElementById("confirm-status");
  const POLL = 5000;
  const WAITS = [1000, 3000];

  let state = null;       // the table as the API last described it
  let etag = "";
  let board = null;       // the board being keyed
  let confirmed = false;  // the keyer confirmed an unlikely result
  let checkTimer = null;
  let turn = 0;
  let sending = false;
  let waitingOpen = null;  // a board tapped before the table had loaded

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }

  // A save's own key, as static/troef/entry.js makes it.
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function request(method, url, body, headers) {
    return fetch(url, {
      method: method,
      headers: Object.assign(
        { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
        headers || {}
      ),
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  }
  function post(url, body) {
    return request("POST", url, body).then((response) =>
      response.json().then((data) => ({ ok: response.ok, status: response.status, data }))
    );
  }

  // --- the outbox: saves not answered yet, kept across reloads and lost connections -----------
  const OUTBOX = storage + ":";
  function outbox() {
    const out = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const name = localStorage.key(i);
      if (!name || !name.startsWith(OUTBOX) || name === storage + ":seat") continue;
      try { out.push({ name, body: JSON.parse(localStorage.getItem(name)) }); } catch (e) { localStorage.removeItem(name); }
    }
    return out;
  }
  function keep(body) { localStorage.setItem(OUTBOX + body.board + ":" + body.submission, JSON.stringify(body)); }
  function drop(body) { localStorage.removeItem(OUTBOX + body.board + ":" + body.submission); }
  function unsentBoards() { return new Set(outbox().map((item) => String(item.body.board))); }

  // --- the table -------------------------------------------------------------------------------
  function stateText(result) {
    if (!result) return text.notKeyed;
    if (result.state === "waiting") return text.waiting;
    if (result.state === "differs") return text.differs;
    if (result.confirmed_by) return format(text.confirmedBy, { seat: result.confirmed_by });
    if (result.state === "confirmed") return text.confirmed;
    return text.keyed;
  }
  function scoresOf(scores) {
    const span = document.createElement("span");
    span.className = "scores";
    ["N", "E", "S", "W"].forEach((seat) => {
      const one = document.createElement("span");
      one.dataset.seat = seat;
      one.textContent = seat + " " + scores[seat];
      span.append(one, " ");
    });
    return span;
  }
  function render() {
    if (!state) return;
    const unsent = unsentBoards();
    const rows = state.boards.map((row) => {
      const li = document.createElement("li");
      li.className = "board" + (board && board.board === row.board ? " selected" : "");
      li.dataset.board = row.board;
      li.dataset.state = row.result ? row.result.state : "none";
      const pick = document.createElement("button");
      pick.type = "button";
      pick.className = "board-pick";
      pick.textContent = text.board + " " + row.board;
      const result = document.createElement("div");
      result.className = "board-result";
      if (row.result) {
        const words = document.createElement("span");
        words.className = "words";
        words.textContent = row.result.words;
        result.append(words, scoresOf(row.result.scores));
      }
      const status = document.createElement("span");
      status.className = "state";
      status.textContent = stateText(row.result);
      result.append(status);
      if (unsent.has(String(row.board))) {
        const mark = document.createElement("span");
        mark.className = "unsent";
        mark.textContent = text.unsent;
        result.append(mark);
      }
      li.append(pick, result);
      return li;
    });
    list.replaceChildren(...rows);
    document.querySelectorAll("#device-seats .total").forEach((span) => {
      span.textContent = state.totals[span.dataset.seat];
    });
  }
  function rowOf(number) {
    return state ? state.boards.find((row) => row.board === Number(number)) : null;
  }

  // Polling: cheap when nothing changed (304 to the ETag).
  let pollTimer = null;
  function load() {
    clearTimeout(pollTimer);
    const headers = etag ? { "If-None-Match": etag } : {};
    return request("GET", api, undefined, headers).then((response) => {
      connection.textContent = "";
      if (response.status === 304) return null;
      if (!response.ok) {
        return response.json().then((data) => {
          connection.textContent = data.message;
          // The round was closed or the PIN changed: the page asks again.
          if (response.status === 403) window.setTimeout(() => window.location.reload(), 3000);
        });
      }
      etag = response.headers.get("ETag") || "";
      return response.json().then((data) => {
        state = data;
        render();
        root.dataset.ready = "1";
        if (waitingOpen !== null) { open(waitingOpen); waitingOpen = null; }
      });
    }).catch(() => {
      connection.textContent = text.offline;
    }).then(() => {
      flush();
      pollTimer = setTimeout(load, POLL);
    });
  }

  // --- keying ----------------------------------------------------------------------------------
  function seat() { return localStorage.getItem(storage + ":seat") || ""; }
  function showSeat() {
    form.querySelectorAll(".keyer .seat-button").forEach((button) => {
      button.setAttribute("aria-pressed", button.dataset.seat === seat() ? "true" : "false");
    });
  }
  function setPreview(words, scores, message, kind) {
    preview.querySelector(".words").textContent = words || "";
    const shown = preview.querySelector(".scores");
    shown.replaceChildren();
    if (scores) shown.append(scoresOf(scores));
    const note = preview.querySelector(".message");
    note.textContent = message || "";
    note.className = "message " + (kind || "");
  }
  function setSend(message, kind) {
    sendStatus.textContent = message || "";
    sendStatus.className = "send-status " + (kind || "");
  }

  function open(number) {
    const row = rowOf(number);
    if (!row) return;
    board = { board: row.board, version: row.result ? row.result.version : 0 };
    confirmed = false;
    confirmBox.hidden = true;
    title.textContent = format(row.result ? text.correctBoard : text.keyBoard, { board: row.board });
    line.value = row.result && row.result.kind === "played" ? row.result.notation : "";
    reasonBox.hidden = true;
    reasonText.value = "";
    resend.hidden = true;
    setSend("");
    setPreview("", null, "");
    resetTaps();
    form.hidden = false;
    showSeat();
    render();
    line.focus();
    if (line.value) check();
  }
  function close() {
    form.hidden = true;
    board = null;
    render();
  }

  function check() {
    clearTimeout(checkTimer);
    if (!board || line.value.trim() === "") { setPreview("", null, ""); return; }
    turn += 1;
    const mine = turn;
    post(api + "check/", { board: board.board, text: line.value }).then(({ ok, data }) => {
      if (mine !== turn) return;  // overtaken by a later check
      if (ok) setPreview(data.words, data.scores, data.warnings.join(" "), data.warnings.length ? "warn" : "");
      else setPreview("", null, data.message, "bad");
    }).catch(() => {});
  }

  // One save: kept in the outbox before it leaves, dropped once the server has answered it.
  function send(body, waits) {
    return post(api + "results/", body).then((answer) => {
      drop(body);
      return answer;
    }).catch((error) => {
      if (!waits.length) throw error;
      setSend(text.notSent, "bad");
      return new Promise((resolve) => setTimeout(resolve, waits[0])).then(() => send(body, waits.slice(1)));
    });
  }

  function save(extra) {
    if (!board || sending) return;
    if (!seat()) { setSend(text.chooseSeat, "bad"); return; }
    if (line.value.trim() === "") { line.focus(); return; }
    const body = Object.assign({
      board: board.board,
      text: line.value,
      seat: seat(),
      version: board.version,
      confirmed: confirmed,
      reason: reasonText.value.trim(),
      submission: newKey(),
    }, extra || {});
    keep(body);
    deliver(body);
  }

  function deliver(body) {
    sending = true;
    resend.hidden = true;
    setSend(text.sending, "");
    render();
    send(body, WAITS).then(({ ok, data }) => {
      sending = false;
      if (ok) {
        answered(body, data);
        return;
      }
      refused(body, data);
    }).catch(() => {
      // No answer after the retries: the line stays in the outbox, to be sent when back.
      sending = false;
      setSend(text.notSentFinal, "bad");
      resend.hidden = false;
      resend.dataset.name = OUTBOX + body.board + ":" + body.submission;
      render();
    });
  }

  function answered(body, data) {
    const row = rowOf(body.board);
    if (row) {
      row.result = data;
      state.totals = totals();
    }
    etag = "";
    if (board && board.board === body.board) {
      board.version = data.version;
      setSend(text.saved, "ok");
      form.hidden = true;
      board = null;
    }
    render();
    if (data.state === "waiting") askConfirmation(body.board, data);
  }
  function totals() {
    const out = { N: 0, E: 0, S: 0, W: 0 };
    state.boards.forEach((row) => {
      if (row.result) Object.keys(out).forEach((s) => { out[s] += row.result.scores[s]; });
    });
    return out;
  }

  function refused(body, data) {
    render();
    if (!board || board.board !== body.board) { connection.textContent = data.message; return; }
    if (data.code === "reason_required") {
      reasonBox.hidden = false;
      reasonText.focus();
      setSend(data.message, "bad");
      return;
    }
    if (data.code === "needs_confirmation") {
      confirmed = false;
      setSend(data.message, "bad");
      const again = document.createElement("button");
      again.type = "button";
      again.className = "big";
      again.textContent = text.confirmAnyway;
      again.addEventListener("click", () => { confirmed = true; again.remove(); save(); });
      sendStatus.append(" ", again);
      return;
    }
    if ((data.code === "conflict" || data.code === "version_required") && data.params) {
      // Someone else saved the board meanwhile: key against what is there now.
      board.version = data.params.version;
      reasonBox.hidden = false;
    }
    setSend(data.message, "bad");
  }

  // Unsent saves: sent again whenever the connection may be back (a poll, "online", a tap).
  function flush() {
    if (sending) return;
    const waiting = outbox();
    if (!waiting.length) return;
    const next = waiting[0].body;
    sending = true;
    post(api + "results/", next).then(({ ok, data }) => {
      sending = false;
      drop(next);
      resend.hidden = true;
      if (ok) answered(next, data);
      else refused(next, data);
      flush();
    }).catch(() => {
      sending = false;
    });
  }

  // --- an opponent confirms --------------------------------------------------------------------
  let confirming = null;
  function askConfirmation(number, result) {
    confirming = { board: number, version: result.version };
    confirmTitle.textContent = format(text.confirmTitle, { board: number, result: result.words });
    confirmStatus.textContent = "";
    confirmBox.querySelectorAll(".seat-button").forEach((button) => {
      button.hidden = button.dataset.seat === result.keyed_at_seat;
    });
    confirmBox.hidden = false;
    confirmBox.scrollIntoView({ block: "nearest" });
  }
  confirmBox.addEventListener("click", (event) => {
    const button = event.target.closest(".seat-button");
    if (!button || !confirming) return;
    const asked = confirming;
    post(api + "boards/" + asked.board + "/confirm/", { seat: button.dataset.seat, version: asked.version })
      .then(({ ok, data }) => {
        if (!ok) {
          confirmStatus.textContent = data.message;
          confirmStatus.className = "confirm-status bad";
          return;
        }
        const row = rowOf(asked.board);
        if (row) row.result = data;
        etag = "";
        confirming = null;
        confirmBox.hidden = true;
        setSend(text.confirmedNow, "ok");
        render();
      })
      .catch(() => {
        confirmStatus.textContent = text.offline;
        confirmStatus.className = "confirm-status bad";
      });
  });
  document.getElementById("confirm-later").addEventListener("click", () => {
    confirming = null;
    confirmBox.hidden = true;
  });

  // --- taps: a few buttons that write the same line as typing ----------------------------------
  const taps = { declarers: [], contract: null, level: null, trump: "", tricks: [] };
  const groups = {};
  form.querySelectorAll(".tap-group").forEach((group) => { groups[group.dataset.part] = group; });
  function tapButton(label, pressed, onTap) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
    button.addEventListener("click", onTap);
    return button;
  }
  function fill(part, buttons) {
    const group = groups[part];
    const label = group.querySelector(".tap-label");
    group.replaceChildren(label, ...buttons);
    group.hidden = buttons.length === 0;
  }
  function resetTaps() {
    taps.declarers = [];
    taps.contract = null;
    taps.level = null;
    taps.trump = "";
    taps.tricks = [];
    drawTaps();
  }
  function drawTaps() {
    const contract = taps.contract;
    fill("contract", contracts.map((c) => tapButton(c.name, c === contract, () => {
      taps.contract = c;
      taps.level = c.levels.length ? c.levels[0] : null;
      taps.trump = "";
      taps.declarers = taps.declarers.slice(0, c.declarers[1]);
      taps.tricks = [];
      drawTaps();
      writeLine();
    })));
    fill("declarers", ["N", "E", "S", "W"].map((s) => tapButton(s, taps.declarers.includes(s), () => {
      const at = taps.declarers.indexOf(s);
      if (at >= 0) taps.declarers.splice(at, 1);
      else taps.declarers.push(s);
      const most = contract ? contract.declarers[1] : 4;
      while (taps.declarers.length > most) taps.declarers.shift();
      taps.declarers.sort((a, b) => "NESW".indexOf(a) - "NESW".indexOf(b));
      drawTaps();
      writeLine();
    })));
    fill("level", contract ? contract.levels.map((level) => tapButton(String(level), level === taps.level, () => {
      taps.level = level;
      drawTaps();
      writeLine();
    })) : []);
    fill("trump", contract && contract.trump ? ["H", "D", "C", "S"].map((suit) =>
      tapButton({ H: "♥", D: "♦", C: "♣", S: "♠" }[suit], suit === taps.trump, () => {
        taps.trump = suit;
        drawTaps();
        writeLine();
      })) : []);
    // Tricks: one stepper, or one per declarer of a misère-like contract.
    const counted = contract && contract.negative ? taps.declarers : [""];
    const steppers = [];
    if (contract) {
      counted.forEach((who, index) => {
        if (taps.tricks[index] === undefined) taps.tricks[index] = contract.negative ? 0 : 7;
        const minus = tapButton("−", false, () => { taps.tricks[index] = Math.max(0, taps.tricks[index] - 1); drawTaps(); writeLine(); });
        const plus = tapButton("+", false, () => { taps.tricks[index] = Math.min(13, taps.tricks[index] + 1); drawTaps(); writeLine(); });
        const shown = document.createElement("span");
        shown.className = "tricks";
        shown.textContent = (who ? who + " " : "") + taps.tricks[index];
        steppers.push(minus, shown, plus);
      });
    }
    fill("tricks", steppers);
  }
  function writeLine() {
    const c = taps.contract;
    if (!c) return;
    const seats = taps.declarers.join(c.negative ? "," : "");
    let part = c.word;
    if (c.levels.length) part += String(taps.level);
    if (c.trump) part += (c.levels.length ? "" : " ") + (taps.trump || "?");
    const tricks = c.negative
      ? taps.declarers.map((_, i) => taps.tricks[i] === undefined ? 0 : taps.tricks[i]).join(",")
      : String(taps.tricks[0] === undefined ? 7 : taps.tricks[0]);
    line.value = [seats, part, tricks].filter((piece) => piece !== "").join(" ");
    check();
  }

  // --- events ----------------------------------------------------------------------------------
  list.addEventListener("click", (event) => {
    const pick = event.target.closest(".board-pick");
    if (!pick) return;
    // Tapped before the table has loaded (the page's own list): opened once it has.
    if (state) open(pick.closest("li").dataset.board);
    else waitingOpen = pick.closest("li").dataset.board;
  });
  form.querySelector(".keyer").addEventListener("click", (event) => {
    const button = event.target.closest(".seat-button");
    if (!button) return;
    localStorage.setItem(storage + ":seat", button.dataset.seat);
    showSeat();
    setSend("");
  });
  line.addEventListener("input", () => {
    clearTimeout(checkTimer);
    confirmed = false;
    checkTimer = setTimeout(check, 200);
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); save(); });
  document.getElementById("device-cancel").addEventListener("click", close);
  resend.addEventListener("click", () => {
    const kept = localStorage.getItem(resend.dataset.name || "");
    if (kept) deliver(JSON.parse(kept));
    else flush();
  });
  window.addEventListener("online", () => { flush(); load(); });

  state = null;
  load();
})();
