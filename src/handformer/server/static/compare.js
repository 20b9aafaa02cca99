/* Compare two runs: pin one, change anything, and see per step how far the numbers moved,
   where the runs part, and for a chosen step both matrices side by side with their Δ. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, pinned = null, result = null, chosen = null, head = null, ticket = 0, asked = "";
  var diffFmt = HF.formatFor([]);  /* the format of the steps' largest |Δ| (one for the list) */
  var lesson = HF.lessonOf, place = HF.placeOf;  /* compare_format.js */

  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) { n.className = cls; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  function rows(v) {
    if (!Array.isArray(v)) { return [[v]]; }
    return Array.isArray(v[0]) ? v : [v];
  }

  /* One matrix of a step: ``side`` "a" or "b" its numbers (or words), "delta" b − a. */
  function grid(step, side, h) {
    var table = node("table", "grid cmp-grid"), tbody = table.createTBody();
    var a = rows(pickHead(step.a, h)), b = rows(pickHead(step.b, h));
    var wa = step.words_a && [step.words_a], wb = step.words_b && [step.words_b];
    var fmt = HF.formatFor(side === "delta" ? a.map(function (row, i) {
      return row.map(function (x, j) { return typeof x === "number" ? b[i][j] - x : 0; });
    }).flat() : HF.flat(a).concat(HF.flat(b)));
    a.forEach(function (row, i) {
      var tr = tbody.insertRow();
      row.forEach(function (x, j) {
        var y = b[i][j], td = tr.insertCell(), same = x === y;
        var d = typeof x === "number" && typeof y === "number" && !wa ? fmt(y - x) : "≠";
        if (side === "delta") { td.textContent = same ? "0" : d; }
        else if (wa) { td.textContent = (side === "a" ? wa : wb)[i][j]; }
        else { td.textContent = fmt(side === "a" ? x : y); }
        if (!same) { td.className = "changed"; td.title = wa ? wa[i][j] + " → " + wb[i][j] : "Δ " + d; }
      });
    });
    HF.labelled(table, HF.labelsOf(HF.drawnAs(step.name, h), a.length, a[0].length),
                !Array.isArray(step.a) || !Array.isArray(step.a[0]));
    return table;
  }

  function pickHead(v, h) { return h === null ? v : v[h]; }

  /* A 3-D step is one matrix per head: the first head that differs, or the one chosen. */
  function headOf(step) {
    if (!Array.isArray(step.a) || !Array.isArray(step.a[0]) || !Array.isArray(step.a[0][0])) { return null; }
    if (head !== null && head < step.a.length) { return head; }
    for (var h = 0; h < step.a.length; h++) {
      if (JSON.stringify(step.a[h]) !== JSON.stringify(step.b[h])) { return h; }
    }
    return 0;
  }

  /* One button per head (aria-pressed on the one shown). */
  function headControl(step, h) {
    var bar = node("div", "cmp-heads");
    bar.id = "cmp-head";
    bar.setAttribute("role", "group");
    bar.appendChild(node("span", null, HF.t("cmp_head")));
    step.a.forEach(function (_, k) {
      var b = node("button", null, String(k + 1));
      b.type = "button"; b.setAttribute("data-head", String(k));
      b.setAttribute("aria-pressed", String(k === h));
      b.addEventListener("click", function () { head = k; render(); });
      bar.appendChild(b);
    });
    return bar;
  }

  function detail(step) {
    var box = node("div", "cmp-detail");
    var h3 = node("h3", null, lesson(step.name));
    h3.title = step.name; h3.setAttribute("data-step", step.name);
    box.appendChild(h3);
    if (step.a === undefined) { box.appendChild(node("p", "muted", step.reshaped ? HF.t("reshaped") : "")); return box; }
    var h = headOf(step);
    if (h !== null) { box.appendChild(headControl(step, h)); }
    [["pinned_col", "a"], ["current_col", "b"], ["delta_col", "delta"]].forEach(function (c) {
      if (c[1] === "delta" && step.words_a) { c[0] = "changed_col"; }
      var fig = node("figure", "cmp-side");
      fig.appendChild(node("figcaption", null, HF.t(c[0])));
      fig.appendChild(grid(step, c[1], h));
      box.appendChild(fig);
    });
    return box;
  }

  function sign(x) {
    var a = Math.abs(x);
    return (x > 0 ? "+" : x < 0 ? "−" : "") + (a >= 1e-4 || a === 0 ? a.toFixed(4) : a.toExponential(2));
  }

  function lossLine(loss) {
    if (!loss || typeof loss.a !== "number" || typeof loss.b !== "number") { return null; }
    var p = node("p", "cmp-loss", HF.t("loss_change", {a: loss.a.toFixed(4), b: loss.b.toFixed(4), delta: sign(loss.delta)}));
    p.setAttribute("data-a", String(loss.a)); p.setAttribute("data-b", String(loss.b));
    return p;
  }

  function diffText(s) {
    return s.reshaped ? HF.t("reshaped") : s.words_a ? HF.t("words_changed") : diffFmt(s.max_abs_diff);
  }

  function render() {
    var box = $("compare");
    if (!pinned || !result) { box.hidden = true; box.replaceChildren(); marked = null; return; }
    var changed = result.steps.filter(function (s) { return s.changed; });
    diffFmt = HF.formatFor(changed.map(function (s) { return s.max_abs_diff; }));
    var title = node("h2", null, HF.t("compare"));
    var summary = node("p", "cmp-summary", result.first_difference === null ? HF.t("identical")
      : HF.t("first_part", {step: lesson(result.first_difference), changed: changed.length, total: result.steps.length}));
    summary.setAttribute("data-step", result.first_difference || "");  /* the raw name, for scripts */
    var table = node("table", "cmp-table");
    var hr = table.createTHead().insertRow();
    ["step", "max_diff", "cells"].forEach(function (k) { hr.appendChild(node("th", null, HF.t(k))); });
    var body = table.createTBody();
    changed.forEach(function (s) {
      var tr = body.insertRow(), b = node("button", "link", lesson(s.name));
      b.type = "button"; b.title = s.name; b.setAttribute("data-step", s.name);
      b.addEventListener("click", function () {
        chosen = s.name; head = null; render();
        var shown = document.querySelector("#panels .cmp-detail");
        if (shown) { shown.scrollIntoView({block: "nearest"}); }
      });
      tr.insertCell().appendChild(b);
      tr.insertCell().textContent = diffText(s);
      tr.insertCell().textContent = s.cells === null ? "–" : String(s.cells);
      if (s.name === result.first_difference) { tr.className = "first"; }
    });
    var parts = [title, lossLine(result.loss), summary].filter(Boolean);
    if (changed.length) { var scroll = node("div", "scroll"); scroll.appendChild(table); parts.push(scroll); }
    var pick = changed.filter(function (s) { return s.name === chosen; })[0] || changed[0];
    document.querySelectorAll("#panels .cmp-detail").forEach(function (d) { d.remove(); });
    var shown = pick ? detail(pick) : null, home = pick ? place(pick.name).panel : null;
    if (home) { home.appendChild(shown); parts.push(beside(pick, shown)); } else if (shown) { parts.push(shown); }
    box.replaceChildren.apply(box, parts);
    box.hidden = false;
    mark(changed);
    marked = {changed: changed, detail: home ? shown : null, name: pick ? pick.name : null};
  }

  /* A panel brought up to date as it comes near (near.js) is a new element: its badges and the
     detail beside it are put back. */
  var marked = null;
  document.addEventListener("hf:fresh", function () {
    if (!marked || HF.busy()) { return; }
    mark(marked.changed);
    var home = marked.detail && !marked.detail.isConnected ? place(marked.name).panel : null;
    if (home) { home.appendChild(marked.detail); }
  });

  /* The detail sits at the end of the panel it describes; the box says where, with a link. */
  function beside(step, shown) {
    var p = node("p", "cmp-where"), go = node("button", "link", HF.t("cmp_beside", {step: lesson(step.name)}));
    go.type = "button";
    go.addEventListener("click", function () { shown.scrollIntoView({block: "nearest"}); });
    p.appendChild(go);
    return p;
  }

  function mark(changed) {
    document.querySelectorAll("#panels .delta-badge").forEach(function (b) { b.remove(); });
    changed.forEach(function (s) {
      document.querySelectorAll('#panels figure.mx[data-name="' + CSS.escape(s.name) + '"] figcaption')
        .forEach(function (cap) {
          cap.appendChild(node("span", "delta-badge", s.reshaped || s.words_a ? diffText(s) : "max |Δ| " + diffFmt(s.max_abs_diff)));
        });
    });
  }

  function refresh() {
    if (!pinned) { return; }
    var current = HF.walkBody();
    if (HF.backward) { current.backward = true; }
    var mine = ++ticket, body = withChange({a: pinned, b: current}), key = JSON.stringify(body);
    HF.post("/api/compare", body).then(function (r) {
      if (mine !== ticket || !pinned) { return; }  /* a newer comparison is on its way */
      HF.clearErrors(["edit", "train_steps"]);
      if (!r.ok) { HF.showAnswer(r.data); return; }
      result = r.data;
      if (key !== asked) { chosen = null; head = null; asked = key; }  /* a new comparison: its own first difference */
      render();
    });
  }

  /* The change asked for ({job, edit, train_steps}: the server applies them), or null. */
  HF.change = function () { var c = withChange({}); return c.job || c.edit || c.train_steps ? c : null; };

  /* B's model: the current run's, or the trained model of this page's job ("B is" chosen as
     trained, train.js offering it once the job has a model); one weight and training steps
     then change that model (the server applies them). */
  function withChange(body) {
    if ($("f-cmp-b").value === "job" && HF.job && HF.job()) { body.job = HF.job(); }
    var name = $("f-edit.param").value.trim(), steps = $("f-train_steps").value.trim();
    if (name !== "") {
      var index = $("f-edit.index").value.split(/[\s,]+/).filter(Boolean).map(Number);
      var value = $("f-edit.value").value;
      body.edit = {param: name, index: index, value: value === "" ? null : Number(value)};
    }
    if (steps !== "" && steps !== "0") { body.train_steps = Number(steps); }
    return body;
  }

  function togglePin() {
    if (pinned) { pin(null); } else {
      var body = HF.walkBody();
      if (HF.backward) { body.backward = true; }
      pin(body);
    }
    HF.link();  /* the comparison is in the address */
  }

  /* Pin ``body`` (a walk body), or unpin with null; url.js pins the run a link names. */
  function pin(body) {
    var button = $("pin"), what = $("pinned-what");
    if (!body) {
      pinned = null; result = null;
      button.setAttribute("data-t", "pin");
      what.hidden = true;
    } else {
      pinned = body;
      button.setAttribute("data-t", "unpin");
      sayPinned();
      what.hidden = false;
      refresh();
    }
    HF.applyText();
    render();
  }

  /* "Pinned: …" in the page's language (said again when it changes), the preset by its name
     there; with B the trained model, A is that model before training, on A's sentences. */
  function sayPinned() {
    if (!pinned) { return; }
    if (withChange({}).job) {
      $("pinned-what").textContent = HF.t("pinned_before", {what: pinned.src + " → " + pinned.tgt});
      return;
    }
    var changes = Object.keys(pinned.config || {}).map(function (k) { return k + " " + pinned.config[k]; });
    $("pinned-what").textContent = HF.t("pinned", {what: pinned.src + " → " + pinned.tgt + " · " +
                                   [HF.presetName(pinned.preset)].concat(changes).join(", ")});
  }

  /* B as the trained model: the current run's sentences are pinned as A when nothing is (the
     server walks A as the same model before training, its initial weights). */
  function chooseB() {
    if ($("f-cmp-b").value === "job" && !pinned) { togglePin(); } else { sayPinned(); refresh(); HF.link(); }
    if (HF.showB) { HF.recompute(); }
  }

  HF.pin = pin;
  HF.pinned = function () { return pinned; };
  $("pin").addEventListener("click", togglePin);
  $("f-cmp-b").addEventListener("change", chooseB);
  ["f-edit.param", "f-edit.index", "f-edit.value", "f-train_steps"].forEach(function (id) {
    $(id).addEventListener("change", function () { refresh(); HF.link(); if (HF.showB) { HF.recompute(); } });
  });
  /* A/B: the walkthrough of the run as configured, or of the model as changed here. */
  HF.setRun = function (which) {
    HF.showB = which === "b";
    document.querySelectorAll("[data-show-run]").forEach(function (o) {
      o.setAttribute("aria-pressed", String(o.getAttribute("data-show-run") === which));
    });
  };
  document.querySelectorAll("[data-show-run]").forEach(function (b) {
    b.addEventListener("click", function () {
      HF.setRun(b.getAttribute("data-show-run"));
      HF.link();
      HF.recompute();
    });
  });
  HF.onWalk.push(function (why) { if (why === "walk") { refresh(); } else { sayPinned(); render(); } });
})();
