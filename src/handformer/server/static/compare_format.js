/* The compare detail's numbers and labels: one number format per table, and a step's rows and
   columns labelled as its walkthrough matrix labels them (tokens, dimensions). Used by compare.js. */
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
})();
