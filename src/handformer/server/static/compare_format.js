/* The compare detail's numbers and labels: one number format per table, a step's rows and
   columns labelled as its walkthrough matrix labels them (tokens, dimensions), and a step named
   in lesson words by the panel that shows it. Used by compare.js. */
(function () {
  "use strict";
  var HF = window.HF;

  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) { n.className = cls; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  /* One number format for a whole table (never 0.002 beside 9.64e-4): 3 decimals when every
     non-zero number is at least 0.001, else all in powers of ten with 3 significant digits. */
  HF.formatFor = function (numbers) {
    var small = numbers.some(function (x) { return typeof x === "number" && x !== 0 && Math.abs(x) < 1e-3; });
    return function (x) {
      if (typeof x === "string") { return x; }
      if (x === null || x === undefined) { return "–"; }
      return small ? x.toExponential(2) : x.toFixed(3);
    };
  };

  HF.flat = function (v) { return Array.isArray(v) ? [].concat.apply([], v.map(HF.flat)) : [v]; };

  /* The labels of a step's rows and columns as its walkthrough matrix shows them (tokens,
     dimensions), in the page's language; a row or column that matrix leaves out by its index. */
  HF.labelsOf = function (names, nRows, nCols) {
    var fig = names.map(function (name) {
      return document.querySelector('#panels figure.mx[data-name="' + CSS.escape(name) + '"]');
    }).filter(Boolean)[0];
    function said(th) {
      var own = th && (th.querySelector(".l-" + HF.lang) || th);
      return own ? own.textContent.trim() : "";
    }
    function at(selector, k) { return (fig && said(fig.querySelector(selector.replace("K", k)))) || String(k); }
    return {rows: Array.from({length: nRows}, function (_, i) { return at('tbody tr[data-i="K"] > th', i); }),
            cols: Array.from({length: nCols}, function (_, j) { return at('thead th[data-j="K"]', j); })};
  };

  /* A header row of column labels and a label before each row (none for a single vector). */
  HF.labelled = function (table, labels, oneRow) {
    var hr = table.createTHead().insertRow();
    hr.appendChild(node("th", "corner"));
    labels.cols.forEach(function (c) { hr.appendChild(node("th", null, c)); });
    Array.prototype.forEach.call(table.tBodies[0].rows, function (tr, i) {
      tr.insertBefore(node("th", null, oneRow ? "" : labels.rows[i]), tr.firstChild);
    });
  };

  /* Where a step's matrix is drawn: head h's own panel for a per-head step ("….scores" of head
     h is "….head.h.scores"), else under its own name. */
  HF.drawnAs = function (name, h) {
    var per = h === null ? null : /^(.*)\.(\w+)$/.exec(name);
    return per ? [per[1] + ".head." + h + "." + per[2], name] : [name];
  };

  /* A step in lesson words: the walkthrough panel that shows it, by its number and heading in
     the page's language ("step 5 · Compute the embedding"); the raw name when no panel has it. */
  HF.lessonOf = function (name) {
    var at = place(name), panel = at.panel, fig = at.fig, outer = at.outer;
    var h = panel && panel.querySelector("h2");
    var title = h && (h.querySelector(".title:lang(" + HF.lang + ")") || h.querySelector(".title"));
    var number = h && h.querySelector(".num");
    if (!title) { return name; }
    var words = HF.t("step_n", {n: number ? number.textContent.trim() : "", title: title.textContent.trim()});
    if (outer) { return words + " · " + outer.rest; }  /* which of the step's parts: q, k, v, ... */
    var caption = fig && fig.querySelector("figcaption");
    var symbol = caption && (caption.querySelector(".l-" + HF.lang) || caption);
    return symbol && symbol.textContent.trim() ? words + " · " + symbol.textContent.trim() : words;
  };

  /* The walkthrough panel that shows step ``name``: its own, the one drawing its matrix, or the
     nearest enclosing step's ({panel, fig, outer}; panel null when none does). */
  function place(name) {
    var panel = document.querySelector('#panels section.panel[data-id="' + CSS.escape(name) + '"]');
    var fig = panel ? null : document.querySelector('#panels figure.mx[data-name="' + CSS.escape(name) + '"]');
    var outer = panel || fig ? null : enclosing(name);
    panel = panel || (fig && fig.closest("section.panel")) || (outer && outer.panel);
    return {panel: panel, fig: fig, outer: outer};
  }

  /* The panel of the nearest enclosing step ("encoder.0.self_attn.q" → "encoder.0.self_attn"). */
  function enclosing(name) {
    for (var cut = name.lastIndexOf("."); cut > 0; cut = name.lastIndexOf(".", cut - 1)) {
      var p = document.querySelector('#panels section.panel[data-id="' + CSS.escape(name.slice(0, cut)) + '"]');
      if (p) { return {panel: p, rest: name.slice(cut + 1)}; }
    }
    return null;
  }

  HF.placeOf = place;
})();
