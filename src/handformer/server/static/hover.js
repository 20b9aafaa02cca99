/* Where a number comes from and where it goes: hovering (or focusing) a cell lights, in every
   panel that draws them, the cells it was computed from ("hf-from") and the cells it feeds
   ("hf-to"). An attention head's matrices follow RULES; every other step its equations. S = Q·Kᵀ/√d_k, so S[i][j] comes from row i of Q
   and row j of K; softmax row by row, so A[i][j] comes from row i of S; Z = A·V, so Z[i][j] comes
   from row i of A and column j of V. */
(function () {
  "use strict";
  var HF = window.HF;

  /* Per kind of step (its name's last part): [step, "row" | "col" | "cell", index "i" | "j"]. */
  var RULES = {
    q: {from: [], to: [["scores", "row", "i"]]},
    k: {from: [], to: [["scores", "col", "i"]]},
    v: {from: [], to: [["z", "col", "j"]]},
    scores: {from: [["q", "row", "i"], ["k", "row", "j"]], to: [["pattern", "cell"]]},
    pattern: {from: [["scores", "row", "i"]], to: [["z", "row", "i"]]},
    z: {from: [["pattern", "row", "i"], ["v", "col", "j"]], to: []}
  };

  function clear() {
    document.querySelectorAll("#panels td.hf-from, #panels td.hf-to").forEach(function (td) {
      td.classList.remove("hf-from", "hf-to");
    });
  }

  /* Row ``i``, column ``i`` or cell (i, j) of every matrix drawn for ``name``; of one drawn
     transposed (its symbol says ⊤: Kᵀ beside the scores), the column, row or cell (j, i). */
  function cells(name, how, i, j) {
    var out = [];
    document.querySelectorAll('#panels figure.mx[data-name="' + CSS.escape(name) + '"]').forEach(function (fig) {
      var sym = fig.querySelector("figcaption .sym"), t = fig.querySelector("table");
      if (!t || !t.tHead || !t.tBodies[0]) { return; }
      var flipped = sym && sym.textContent.indexOf("⊤") >= 0;
      if (!flipped) { out.push.apply(out, pick(t, how, i, j)); }
      else if (how === "cell") { out.push.apply(out, pick(t, "cell", j, i)); }
      else { out.push.apply(out, pick(t, how === "row" ? "col" : "row", i, j)); }
    });
    return out;
  }

  function pick(t, how, i, j) {
    var out = [], th = how === "row" ? null : t.querySelector('thead th[data-j="' + (how === "col" ? i : j) + '"]');
    Array.prototype.forEach.call(t.tBodies[0].rows, function (tr) {
      var inRow = tr.getAttribute("data-i") === String(i);
      if (how === "row" && inRow) { out.push.apply(out, tr.querySelectorAll("td")); }
      else if (th && (how === "col" || inRow) && tr.cells[th.cellIndex]) { out.push(tr.cells[th.cellIndex]); }
    });
    return out;
  }

  function flipped(fig) {
    var sym = fig.querySelector("figcaption .sym");
    return !!sym && sym.textContent.indexOf("⊤") >= 0;
  }

  /* Every other step, from the equations the panels draw (data-arith, render/html/arith.py):
     what the cell (i, j) of an equation's result is made of, per operand (by its place), and
     what an operand's cell (i, j) feeds in the result. A product A·B (+ b) = C: C[i][j] comes
     from row i of A and column j of B (and b[j]); a sum, an update: the same cell; a softmax,
     a layer norm: row i. */
  var MADE_OF = {
    matmul: function (k) { return k === 0 ? "row" : "col"; },  /* A; B and the bias b */
    add: function () { return "cell"; },
    update: function () { return "cell"; },
    softmax: function () { return "row"; },
    norm: function (k) { return k === 0 ? "row" : null; }
  };

  function operands(eq) {
    return Array.prototype.filter.call(eq.querySelectorAll("figure.mx"), function (f) {
      return f.closest(".equation") === eq;
    });
  }

  /* Cells of the matrix drawn as ``fig`` (logical row/col/cell of its name everywhere), with
     ``how`` meant as drawn in ``fig``: a transposed drawing's column is the matrix's row. */
  function asDrawn(fig, how, i, j) {
    var name = fig.getAttribute("data-name");
    if (!flipped(fig)) { return cells(name, how, i, j); }
    return how === "cell" ? cells(name, "cell", j, i) : cells(name, how === "row" ? "col" : "row", j, i);
  }

  function lightEquations(fig, at) {
    var name = fig.getAttribute("data-name");
    var i = flipped(fig) ? at.j : at.i, j = flipped(fig) ? at.i : at.j;  /* the matrix's own (i, j) */
    document.querySelectorAll("#panels .equation[data-arith]").forEach(function (eq) {
      var made = MADE_OF[eq.getAttribute("data-arith")], figs = operands(eq), n = figs.length;
      if (!made || n < 2) { return; }
      var result = figs[n - 1];
      figs.forEach(function (f, k) {
        if (k === n - 1) { return; }
        var how = made(k);
        if (!how) { return; }
        if (result.getAttribute("data-name") === name) {
          var idx = how === "col" ? [j, i] : [i, j];  /* where it comes from */
          asDrawn(f, how, idx[0], idx[1]).forEach(function (c) { c.classList.add("hf-from"); });
        } else if (f.getAttribute("data-name") === name) {
          var fi = flipped(f) ? j : i, fj = flipped(f) ? i : j;  /* as drawn in this equation */
          var out = how === "col" ? ["col", fj, fi] : [how, fi, fj];  /* where it goes */
          cells(result.getAttribute("data-name"), out[0], out[1], out[2]).forEach(function (c) { c.classList.add("hf-to"); });
        }
      });
    });
  }

  function light(td) {
    var fig = td.closest("figure.mx"), tr = td.closest("tr"), table = td.closest("table");
    var name = fig && fig.getAttribute("data-name"), cut = name ? name.lastIndexOf(".") : -1;
    if (!name || !tr || !table.tHead) { return; }
    var head = table.tHead.rows[0].cells[td.cellIndex];
    var at = {i: tr.getAttribute("data-i"), j: head ? head.getAttribute("data-j") : null};
    if (at.i === null || at.j === null) { return; }
    var rule = cut > 0 && /\.head\.\d+\.[a-z]+$/.test(name) ? RULES[name.slice(cut + 1)] : null;
    if (!rule) { lightEquations(fig, at); return; }
    var prefix = name.slice(0, cut + 1);
    [["from", "hf-from"], ["to", "hf-to"]].forEach(function (way) {
      rule[way[0]].forEach(function (r) {
        cells(prefix + r[0], r[1], at[r[2] || "i"], at.j).forEach(function (c) { c.classList.add(way[1]); });
      });
    });
  }

  function over(e) {
    var td = e.target.closest ? e.target.closest("#panels figure.mx td") : null;
    clear();
    if (td) { light(td); }
  }

  document.addEventListener("mouseover", over);
  document.addEventListener("focusin", over);
  HF.lightCell = function (td) { clear(); if (td) { light(td); } };
})();
