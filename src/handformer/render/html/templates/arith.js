/* handformer page: a clicked cell's arithmetic, with the numbers the page shows. The equation
   says what it computes (data-arith, render/html/arith.py): a product's dot product term by
   term, a sum, an update, a softmax, a layer norm, the loss. */
(function () {
  "use strict";

  function num(text) {
    var t = String(text).trim().replace(/\u2212/g, "-");
    if (t === "-\u221e" || t === "-inf") { return -Infinity; }
    return parseFloat(t);
  }

  function fmt(x) {
    if (x === -Infinity) { return "\u2212\u221e"; }
    var s = Math.abs(x) < 5e-4 ? "0.000" : x.toFixed(3);
    return s.charAt(0) === "-" ? "\u2212" + s.slice(1) : s;
  }

  function minus(text) {
    // A number as the page writes it, with a true minus sign (never a hyphen).
    return String(text).trim().replace(/^-/, "\u2212");
  }

  function paren(text) {
    // A negative factor or subtrahend in brackets: 2·(−0.5), a − (−b), never "− −".
    var t = minus(text);
    return t.charAt(0) === "\u2212" ? "(" + t + ")" : t;
  }

  function sig(x, n) {
    // ``x`` with ``n`` significant digits, in plain decimals (no e-notation).
    if (x === 0 || !isFinite(x)) { return fmt(x); }
    var decimals = Math.min(12, Math.max(0, n - 1 - Math.floor(Math.log(Math.abs(x)) / Math.LN10)));
    return minus(x.toFixed(decimals));
  }

  function decimalsFor(d) {
    // Decimals that keep three significant digits of a difference d (where terms cancel).
    if (d === 0 || !isFinite(d)) { return 3; }
    return Math.min(12, Math.max(3, 2 - Math.floor(Math.log(Math.abs(d)) / Math.LN10)));
  }

  var SUPERSCRIPT = {"-": "\u207b", "0": "\u2070", "1": "\u00b9", "2": "\u00b2", "3": "\u00b3",
                     "4": "\u2074", "5": "\u2075", "6": "\u2076", "7": "\u2077", "8": "\u2078", "9": "\u2079"};

  function tenTo(n) {
    // " × 10⁻²": a power of ten as the page's captions write it.
    return " \u00d7 10" + String(n).split("").map(function (c) { return SUPERSCRIPT[c]; }).join("");
  }

  function exact(fig) {
    // The matrix's numbers to six significant digits (data-exact), where a share cancels
    // digits (a softmax's g − Σ a·g); null where the page carries none.
    var text = fig.getAttribute("data-exact");
    return text ? text.split(";").map(function (r) { return r.split(" ").map(num); }) : null;
  }

  function grid(fig) {
    // The matrix's numbers by (row, column) index: all of them when "show all" holds the whole
    // matrix, else the cells drawn (a hidden one is null).
    var button = fig.querySelector("button.showall[data-complete='1']");
    if (button) {
      var data = JSON.parse(button.getAttribute("data-full"));
      var rows = data.v.split(";").map(function (r) { return r.split(" "); });
      return {rows: rows.map(function (_, i) { return i; }), cols: rows[0].map(function (_, j) { return j; }),
              at: function (i, j) { return rows[i] && rows[i][j] !== undefined ? rows[i][j] : null; }, whole: true};
    }
    var table = fig.querySelector("table.grid"), heads = table.tHead.rows[0].cells, cols = [], byRow = {};
    var shownCols = [], whole = !fig.querySelector(".gap");
    for (var c = 1; c < heads.length; c++) { cols.push(heads[c].getAttribute("data-j")); }
    table.querySelectorAll("tbody tr[data-i]").forEach(function (tr) {
      var row = {};
      Array.prototype.forEach.call(tr.cells, function (td, k) {
        if (k > 0 && cols[k - 1] !== null) { row[cols[k - 1]] = td.dataset.full || td.textContent; }
      });
      byRow[tr.getAttribute("data-i")] = row;
    });
    cols.forEach(function (j) { if (j !== null) { shownCols.push(+j); } });
    return {rows: Object.keys(byRow).map(Number), cols: shownCols, whole: whole,
            at: function (i, j) { var r = byRow[String(i)]; return r && r[String(j)] !== undefined ? r[String(j)] : null; }};
  }

  function span(cls, attrs, text) {
    var s = document.createElement("span");
    s.className = cls;
    Object.keys(attrs).forEach(function (k) { s.setAttribute("data-" + k, attrs[k]); });
    s.textContent = text;
    return s;
  }

  function line(out, parts) {
    parts.forEach(function (p) { out.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
  }

  function matmul(eq, figs, out, i, j) {
    var a = grid(figs[0]), b = grid(figs[1]), sum = 0, first = true;
    a.cols.forEach(function (k) {
      var x = a.at(i, k), y = b.at(k, j);
      if (x === null || y === null) { return; }
      if (!first) { line(out, [" + "]); }
      line(out, [span("t", {a: x, b: y}, (first ? minus(x) : paren(x)) + "\u00b7" + paren(y))]);
      first = false;
      sum += num(x) * num(y);
    });
    if (!a.whole || !b.whole) { line(out, [" + \u22ef"]); out.setAttribute("data-partial", "1"); }
    var value = sum;
    line(out, [" = " + fmt(sum)]);
    if (eq.dataset.div) {
      value = sum / Math.sqrt(num(eq.dataset.div));
      out.setAttribute("data-div", eq.dataset.div);
      line(out, [" \u00f7 \u221a" + eq.dataset.div + " = " + fmt(value)]);
    }
    if (eq.dataset.bias) {
      var bias = grid(figs[2]).at(0, j);
      out.setAttribute("data-bias", bias);
      value += num(bias);
      line(out, [" + " + bias + " = " + fmt(value)]);
    }
    return value;
  }

  function softmax(source, out, i, j) {
    var s = grid(source), xs = s.cols.map(function (k) { return s.at(i, k); }).filter(function (x) { return x !== null; });
    var top = Math.max.apply(null, xs.map(num)), total = 0, mine = num(s.at(i, j));
    out.setAttribute("data-max", String(top));
    line(out, ["e^(" + s.at(i, j) + " \u2212 " + fmt(top) + ") / \u03a3 e^(x \u2212 " + fmt(top) + ") = "
               + fmt(Math.exp(mine - top)) + " / ("]);
    xs.forEach(function (x, k) {
      var e = Math.exp(num(x) - top);
      total += e;
      line(out, [k ? " + " : "", span("t", {x: x}, fmt(e))]);
    });
    if (!s.whole) { line(out, [" + \u22ef"]); out.setAttribute("data-partial", "1"); }
    var value = Math.exp(mine - top) / total;
    line(out, [") = " + fmt(Math.exp(mine - top)) + " / " + fmt(total) + " = " + fmt(value)]);
    out.setAttribute("data-x", s.at(i, j));
    return value;
  }

  function norm(figs, out, i, j) {
    var x = grid(figs[0]).at(i, j), st = grid(figs[1]), mu = st.at(i, 0), sd = st.at(i, 1);
    var extra = JSON.parse(figs[1].getAttribute("data-extra") || "{}");
    var g = extra.gamma ? extra.gamma.split(" ")[j] : "1", b = extra.beta ? extra.beta.split(" ")[j] : "0";
    var hat = (num(x) - num(mu)) / num(sd), value = hat * num(g) + num(b);
    [["x", x], ["mu", mu], ["sd", sd], ["gamma", g], ["beta", b]].forEach(function (p) { out.setAttribute("data-" + p[0], p[1]); });
    line(out, ["(x \u2212 \u03bc) / \u221a(\u03c3\u00b2+\u03b5) \u00b7 \u03b3 + \u03b2 = (" + x + " \u2212 " + mu + ") / " + sd
               + " \u00b7 " + g + " + " + b + " = " + fmt(hat) + " \u00b7 " + g + " + " + b + " = " + fmt(value)]);
    return value;
  }

  function elementwise(kind, eq, figs, out, i, j) {
    var a = grid(figs[0]).at(i, j), b = grid(figs[1]).at(i, j), value;
    if (kind === "add") {
      value = num(a) + num(b);
      line(out, [span("t", {a: a, b: b}, a + " + " + b), " = " + fmt(value)]);
    } else {
      var eta = eq.dataset.eta;
      value = num(a) - num(eta) * num(b);
      out.setAttribute("data-eta", eta);
      line(out, [span("t", {a: a, b: b}, a + " \u2212 " + eta + " \u00b7 " + (num(b) < 0 ? "(" + b + ")" : b)), " = " + fmt(value)]);
    }
    return value;
  }

  function loss(fig, out, i, j) {
    var t = grid(fig), p = t.at(i, 0);
    if (j !== 1) { return null; }
    var value = -Math.log(num(p)), total = 0, n = 0;
    out.setAttribute("data-p", p);
    var cell = t.at(i, 1);
    line(out, ["\u2212log p = \u2212ln " + p + " = " + fmt(value) + (fmt(value) !== fmt(num(cell)) ? " \u2248 " + cell : "") + "; L = ("]);
    out.setAttribute("data-told", "1");
    t.rows.forEach(function (r, k) { var c = t.at(r, 1); if (c !== null) { total += num(c); n++; line(out, [k ? " + " : "", span("t", {x: c}, c)]); } });
    line(out, [") / " + n + " = " + fmt(total / n)]);
    return value;
  }

  // --- a gradient's cell: the sum of what each reader sends back (data-terms, one share each,
  // narrate/grad_terms.py), every number the one a drawn matrix shows (× 10^its data-power)

  function power(fig) { return +(fig.getAttribute("data-power") || 0); }

  function named(panel, name) {
    return panel.querySelector(":scope > .equation > .term > figure.mx[data-name='" + name + "']");
  }

  function along(g, axis, at, off) {
    // The indices and shown numbers of row ``at`` (axis "row") or column ``at`` of a grid,
    // read from ``off`` on (one head's columns of W).
    var ks = axis === "row" ? g.cols : g.rows;
    return ks.filter(function (k) { return k >= off; }).map(function (k) {
      return {k: k - off, v: axis === "row" ? g.at(at, k) : g.at(k, at)};
    });
  }

  function exactAlong(rows, axis, at, off) {
    // As ``along``, from a matrix's six-digit numbers: every index, none hidden.
    var line = axis === "row" ? rows[at] : rows.map(function (r) { return r[at]; });
    return line.map(function (v, k) { return {k: k - off, v: sig(v, 4)}; })
      .filter(function (e) { return e.k >= 0; });
  }

  function dotShare(term, figs, out, i, j) {
    var a = grid(figs.a), b = grid(figs.b), pa = power(figs.a), pb = power(figs.b);
    var ea = exact(figs.a), eb = exact(figs.b);
    if (ea && eb) {  // four significant digits of each factor: a sum that cancels keeps its digits
      a = {whole: true, along: exactAlong(ea, term.ax, i, 0)};
      b = {whole: true, along: exactAlong(eb, term.bx, j + (term.bshift || 0), term.boff || 0)};
    }
    var bs = {}, sum = 0, parts = [];
    (b.along || along(b, term.bx, j + (term.bshift || 0), term.boff || 0)).forEach(function (e) { bs[e.k] = e.v; });
    (a.along || along(a, term.ax, i, 0)).forEach(function (e) {
      var y = bs[e.k];
      if (e.v === null || y === undefined || y === null) { out.setAttribute("data-partial", "1"); return; }
      sum += num(e.v) * Math.pow(10, pa) * num(y) * Math.pow(10, pb);
      parts.push(span("t", {a: e.v, b: y, pa: pa, pb: pb}, (parts.length ? paren(e.v) : minus(e.v)) + "\u00b7" + paren(y)));
    });
    if (!a.whole || !b.whole) { out.setAttribute("data-partial", "1"); }
    var scale = term.scale || 1, label = [];
    parts.forEach(function (p, k) { label.push(k ? " + " : "", p); });
    var wrap = span("share", {kind: "dot", value: sum * scale, scale: scale}, "");
    line(wrap, ["("].concat(label).concat([")" + (pa || pb ? tenTo(pa + pb) : "")
      + (scale !== 1 ? " \u00d7 " + fmt(scale) : "")]));
    return {value: sum * scale, el: wrap};
  }

  function oneShare(term, figs, out, i, j) {
    var a = grid(figs.a), pa = Math.pow(10, power(figs.a)), v, text;
    if (term.kind === "copy") {
      var ex = exact(figs.a), x = ex ? sig(ex[i][j + (term.off || 0)], 4) : a.at(i, j + (term.off || 0));
      if (x === null) { return null; }
      v = num(x) * pa; text = x;
    } else if (term.kind === "gate" || term.kind === "mask") {
      var g = a.at(i, j), h = grid(figs.x).at(i, j);
      if (g === null || h === null) { return null; }
      var on = term.kind === "gate" ? num(h) > 0 : isFinite(num(h));
      v = on ? num(g) * pa : 0; text = g + " \u00d7 [" + h + (term.kind === "gate" ? " > 0]" : " \u2260 \u2212\u221e]");
    } else if (term.kind === "softmax" && exact(figs.p) && exact(figs.a)) {
      return softmaxShare(exact(figs.p)[i], exact(figs.a)[i].map(function (x) { return x * pa; }), j);
    } else if (term.kind === "softmax") {
      var p = grid(figs.p), inner = 0;
      p.cols.forEach(function (k) { var q = p.at(i, k), z = a.at(i, k); if (q !== null && z !== null) { inner += num(q) * num(z) * pa; } });
      if (!p.whole || !a.whole) { out.setAttribute("data-partial", "1"); }
      v = num(p.at(i, j)) * (num(a.at(i, j)) * pa - inner);
      text = p.at(i, j) + "\u00b7(" + fmt(num(a.at(i, j)) * pa) + " \u2212 " + fmt(inner) + ")";
    } else if (term.kind === "colsum") {
      var total = 0, shown = [];
      a.rows.forEach(function (r) { var c = a.at(r, j); if (c !== null) { total += num(c) * pa; shown.push(c); } });
      if (!a.whole) { out.setAttribute("data-partial", "1"); }
      v = total; text = "\u03a3 " + shown.join(" + ");
    } else { return null; }
    var s = span("share", {kind: term.kind, value: v}, text);
    if (term.kind === "copy") { s.setAttribute("data-x", text); s.setAttribute("data-p", power(figs.a)); }
    return {value: v, el: s};
  }

  function softmaxShare(a, g, j) {
    // a_j·(g_j − Σ a·g) from six-digit numbers, the difference written with three significant
    // digits and its two terms with as many decimals (they cancel), so each "=" recomputes.
    var inner = 0;
    a.forEach(function (x, k) { if (isFinite(g[k]) && x) { inner += x * g[k]; } });
    var d = g[j] - inner, dec = decimalsFor(d), v = a[j] * d;
    var text = sig(a[j], 4) + "\u00b7(" + minus(g[j].toFixed(dec)) + " \u2212 " + paren(inner.toFixed(dec))
      + ") = " + sig(a[j], 4) + "\u00b7" + paren(sig(d, 3)) + " = " + sig(v, 3);
    var s = span("share", {kind: "softmax", value: v}, text);
    return {value: v, el: s};
  }

  function gradientCell(fig, out, i, j) {
    var panel = fig.closest("section.panel") || document, terms = JSON.parse(fig.getAttribute("data-terms"));
    var total = 0, shares = [];
    for (var n = 0; n < terms.length; n++) {
      var t = terms[n], figs = {};
      ["a", "b", "x", "p"].forEach(function (k) { if (t[k]) { figs[k] = named(panel, t[k]); } });
      if (Object.keys(figs).some(function (k) { return !figs[k]; })) { return null; }
      var share = t.kind === "dot" ? dotShare(t, figs, out, i, j) : oneShare(t, figs, out, i, j);
      if (!share) { return null; }
      total += share.value;
      shares.push(share.el);
    }
    shares.forEach(function (el, k) { line(out, [k ? " + " : "", el]); });
    var p = power(fig);
    // one digit more than the cell: the sum of rounded factors may sit on the cell's rounding edge
    line(out, [" = " + (p ? sig(total / Math.pow(10, p), 4) + tenTo(p) : sig(total, 4))]);
    out.setAttribute("data-power", String(p));
    return total / Math.pow(10, p);  // as the cell shows it
  }

  window.hfArith = function (fig, td, i, j) {
    // The arithmetic of cell (i, j) of ``fig``, as an element to show under it (null when the
    // equation computes nothing the script can redo, or the cell is not the one it makes).
    var eq = fig.closest(".equation"), kind = fig.hasAttribute("data-terms") ? "terms" : eq && eq.dataset.arith;
    if (!kind) { return null; }
    var figs = Array.prototype.slice.call(eq.querySelectorAll(":scope > .term > figure.mx"));
    var out = document.createElement("div"), value = null;
    out.className = "arith";
    out.setAttribute("data-kind", kind);
    i = +i; j = +j;
    var last = figs[figs.length - 1] === fig;
    if (kind === "terms") { value = gradientCell(fig, out, i, j); }
    else if (kind === "matmul" && last) { value = matmul(eq, figs, out, i, j); }
    else if ((kind === "add" || kind === "update") && last) { value = elementwise(kind, eq, figs, out, i, j); }
    else if (kind === "softmax" && figs.length === 2 && last) { value = softmax(figs[0], out, i, j); }
    else if (kind === "softmax" && figs.length === 1) {
      var src = document.querySelector("figure.mx[data-name='" + eq.dataset.from + "']");
      value = src ? softmax(src, out, i, j) : null;
    }
    else if (kind === "norm" && last) { value = norm(figs, out, i, j); }
    else if (kind === "loss") { value = loss(fig, out, i, j); }
    if (value === null || !isFinite(value) && value !== -Infinity) { return null; }
    var cell = td.dataset.full || td.textContent;
    if (!out.getAttribute("data-told") && fmt(value) !== fmt(num(cell))) { line(out, [" \u2248 " + minus(cell)]); }  // from rounded numbers
    out.setAttribute("data-value", String(value));
    out.setAttribute("data-cell", td.dataset.full || td.textContent);
    return out;
  };
})();
