/* Compare two runs: pin one, change anything, and see per step how far the numbers moved,
   where the runs part, and for a chosen step both matrices side by side with their Δ. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, pinned = null, result = null, chosen = null, head = null, ticket = 0, asked = "";

  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) { n.className = cls; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  function fmt(x) {
    if (typeof x === "string") { return x; }
    if (x === null || x === undefined) { return "–"; }
    return Math.abs(x) >= 1e-3 || x === 0 ? x.toFixed(3) : x.toExponential(2);
  }

  function rows(v) {
    if (!Array.isArray(v)) { return [[v]]; }
    return Array.isArray(v[0]) ? v : [v];
  }

  /* One matrix of a step: ``side`` "a" or "b" its numbers (or words), "delta" b − a. */
  function grid(step, side, h) {
    var table = node("table", "grid cmp-grid");
    var a = rows(pickHead(step.a, h)), b = rows(pickHead(step.b, h));
    var wa = step.words_a && [step.words_a], wb = step.words_b && [step.words_b];
    a.forEach(function (row, i) {
      var tr = table.insertRow();
      row.forEach(function (x, j) {
        var y = b[i][j], td = tr.insertCell(), same = x === y;
        var d = typeof x === "number" && typeof y === "number" && !wa ? fmt(y - x) : "≠";
        if (side === "delta") { td.textContent = same ? "0" : d; }
        else if (wa) { td.textContent = (side === "a" ? wa : wb)[i][j]; }
        else { td.textContent = fmt(side === "a" ? x : y); }
        if (!same) { td.className = "changed"; td.title = wa ? wa[i][j] + " → " + wb[i][j] : "Δ " + d; }
      });
    });
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
    box.appendChild(node("h3", null, step.name));
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

  function diffText(s) {
    return s.reshaped ? HF.t("reshaped") : s.words_a ? HF.t("words_changed") : fmt(s.max_abs_diff);
  }

  function render() {
    var box = $("compare");
    if (!pinned || !result) { box.hidden = true; box.replaceChildren(); return; }
    var changed = result.steps.filter(function (s) { return s.changed; });
    var title = node("h2", null, HF.t("compare"));
    var summary = node("p", "cmp-summary", result.first_difference === null ? HF.t("identical")
      : HF.t("first_part", {step: result.first_difference, changed: changed.length, total: result.steps.length}));
    var table = node("table", "cmp-table");
    var hr = table.createTHead().insertRow();
    ["step", "max_diff", "cells"].forEach(function (k) { hr.appendChild(node("th", null, HF.t(k))); });
    var body = table.createTBody();
    changed.forEach(function (s) {
      var tr = body.insertRow(), b = node("button", "link", s.name);
      b.type = "button";
      b.addEventListener("click", function () { chosen = s.name; head = null; render(); });
      tr.insertCell().appendChild(b);
      tr.insertCell().textContent = diffText(s);
      tr.insertCell().textContent = s.cells === null ? "–" : String(s.cells);
      if (s.name === result.first_difference) { tr.className = "first"; }
    });
    var parts = [title, summary];
    if (changed.length) { parts.push(node("div", "scroll", undefined)); parts[2].appendChild(table); }
    var pick = changed.filter(function (s) { return s.name === chosen; })[0] || changed[0];
    if (pick) { parts.push(detail(pick)); }
    box.replaceChildren.apply(box, parts);
    box.hidden = false;
    mark(changed);
  }

  function mark(changed) {
    document.querySelectorAll("#panels .delta-badge").forEach(function (b) { b.remove(); });
    changed.forEach(function (s) {
      document.querySelectorAll('#panels figure.mx[data-name="' + CSS.escape(s.name) + '"] figcaption')
        .forEach(function (cap) {
          cap.appendChild(node("span", "delta-badge", s.reshaped || s.words_a ? diffText(s) : "max |Δ| " + fmt(s.max_abs_diff)));
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

  /* The change asked for ({edit, train_steps}: the server applies them), or null. */
  HF.change = function () { var c = withChange({}); return c.edit || c.train_steps ? c : null; };

  /* One weight and training steps change the current run's model (the server applies them). */
  function withChange(body) {
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
    var button = $("pin"), what = $("pinned-what");
    if (pinned) {
      pinned = null; result = null;
      button.setAttribute("data-t", "pin");
      what.hidden = true;
    } else {
      pinned = HF.walkBody();
      if (HF.backward) { pinned.backward = true; }
      button.setAttribute("data-t", "unpin");
      var changes = Object.keys(pinned.config).map(function (k) { return k + " " + pinned.config[k]; });
      what.textContent = HF.t("pinned", {what: pinned.src + " → " + pinned.tgt + " · " +
                                         [pinned.preset].concat(changes).join(", ")});
      what.hidden = false;
      refresh();
    }
    HF.applyText();
    render();
  }

  $("pin").addEventListener("click", togglePin);
  ["f-edit.param", "f-edit.index", "f-edit.value", "f-train_steps"].forEach(function (id) {
    $(id).addEventListener("change", function () { refresh(); if (HF.showB) { HF.recompute(); } });
  });
  /* A/B: the walkthrough of the run as configured, or of the model as changed here. */
  document.querySelectorAll("[data-show-run]").forEach(function (b) {
    b.addEventListener("click", function () {
      HF.showB = b.getAttribute("data-show-run") === "b";
      document.querySelectorAll("[data-show-run]").forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
      HF.recompute();
    });
  });
  HF.onWalk.push(function (why) { if (why === "walk") { refresh(); } else { render(); } });
})();
