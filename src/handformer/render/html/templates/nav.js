/* handformer page: language and theme toggles, previous/next, keys, and "show all". */
(function () {
  "use strict";
  var root = document.documentElement;
  var panels = Array.prototype.slice.call(document.querySelectorAll("section.panel"));
  var links = {};
  document.querySelectorAll("#toc a").forEach(function (a) { links[a.getAttribute("href").slice(1)] = a; });
  var idx = 0, lastMove = 0;

  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function load(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }

  function currentIndex() {
    var best = 0;
    for (var i = 0; i < panels.length; i++) {
      if (panels[i].getBoundingClientRect().top <= 90) { best = i; } else { break; }
    }
    return best;
  }

  function mark(i) {
    idx = i;
    panels.forEach(function (p, j) {
      p.classList.toggle("here", j === i);
      var a = links[p.id];
      if (a) { a.classList.toggle("here", j === i); }
    });
    var where = document.getElementById("where");
    if (where && panels.length) { where.textContent = (i + 1) + " / " + panels.length; }
    var a = links[panels[i] && panels[i].id];
    if (a && a.scrollIntoView && window.innerWidth > 820) { a.scrollIntoView({block: "nearest"}); }
    light(panels[i] ? panels[i].getAttribute("data-block") : "");
  }

  function light(block) {
    // The map's box of the step being read is lit (and kept in view in the map).
    document.querySelectorAll("svg.arch .blk").forEach(function (g) {
      var on = !!block && g.getAttribute("data-block") === block;
      g.classList.toggle("here", on);
      var map = g.closest("#map");
      // one map per language: only the one shown scrolls (a hidden one measures nothing)
      if (on && map && g.getClientRects().length) { map.scrollTop = Math.max(0, g.getBBox().y * map.scrollHeight / g.ownerSVGElement.viewBox.baseVal.height - 40); }
    });
    var here = document.getElementById("strip-here");
    if (here) {  // the strip names the block being read, in the language shown
      var lit = Array.prototype.filter.call(document.querySelectorAll("#strip .blk.here"),
        function (g) { return g.getClientRects().length; })[0];
      here.textContent = lit ? lit.querySelector("title").textContent : "";
      var strip = here.parentNode, box = lit && lit.getBoundingClientRect(), edge = strip.getBoundingClientRect();
      if (box && (box.left < edge.left || box.right > edge.right)) { strip.scrollLeft += box.left - edge.left - 24; }
    }
  }

  var FITS = [["", false], ["f13", false], ["f12", false], ["f11", false],
              ["f12", true], ["f11", true], ["f10", true]];

  function size(table, cls, short) {
    FITS.forEach(function (f) { if (f[0]) { table.classList.remove(f[0]); } });
    if (cls) { table.classList.add(cls); }
    table.querySelectorAll("td[data-c]").forEach(function (td) {
      if (short && !td.dataset.full) {
        td.dataset.full = td.textContent; td.title = td.textContent; td.textContent = td.dataset.c;
      } else if (!short && td.dataset.full) {
        td.textContent = td.dataset.full; delete td.dataset.full; td.removeAttribute("title");
      }
    });
  }

  // The size the last matrix of a shape took (its box's width, its columns, the language shown):
  // the next one of that shape starts there. Each size tried costs a layout of the table (a
  // d_model-wide matrix tried from full size takes seven; from its neighbour's size, two).
  var lastFit = new Map();

  function overflows(s) { return s.scrollWidth > s.clientWidth + 1; }

  function fit(s) {
    // A matrix wider than its box is shown whole if it can be, with smaller type (not under 11 px),
    // then shorter numbers (not under 10 px); if it cannot, it scrolls at full size. The first
    // size of FITS at which it is whole, found from a guess: down while it is cut, up while the
    // size before is whole too.
    var table = s.firstElementChild;
    if (!table || !table.classList.contains("grid") || !s.clientWidth) { return; }
    var key = [s.clientWidth, root.getAttribute("data-lang"), table.tHead ? table.tHead.rows[0].cells.length : 0].join(" ");
    var k = Math.min(lastFit.get(key) || 0, FITS.length - 1), at = function (i) { size(table, FITS[i][0], FITS[i][1]); };
    at(k);
    if (overflows(s)) {
      while (++k < FITS.length) { at(k); if (!overflows(s)) { break; } }
    } else {
      while (k > 0) { at(k - 1); if (overflows(s)) { at(k); break; } k--; }
    }
    lastFit.set(key, k);
    if (k === FITS.length) { at(0); reveal(s); }  // it scrolls
  }

  function reveal(s) {
    // A matrix that scrolls opens scrolled to its worked cell, so the cell the text names shows.
    var cell = s.querySelector("td.hc");
    if (!cell) { return; }
    var c = cell.getBoundingClientRect(), box = s.getBoundingClientRect();
    var left = s.scrollLeft + c.left - box.left - (s.clientWidth - c.width) / 2;
    s.scrollLeft = Math.max(0, Math.min(left, s.scrollWidth - s.clientWidth));
  }

  function markOverflow(root) {
    // A scroll hint on every matrix cut by its box: a dashed edge and "⇆" in its caption; a
    // formula wider than its box scrolls, hinted too. ``root``: one panel (else the page).
    var scrolls = root ? root.querySelectorAll(".scroll") : document.querySelectorAll(".hf .scroll");
    scrolls.forEach(fit);
    scrolls.forEach(function (s) {
      var cut = overflows(s);
      s.classList.toggle("overflows", cut);
      var fig = s.closest(".mx");
      if (fig) { fig.classList.toggle("overflows", cut); }
    });
    (root || document).querySelectorAll(".formula").forEach(function (f) {
      f.classList.toggle("overflows", overflows(f));
    });
  }

  function columnOf(td) {
    var th = td.closest("table").tHead.rows[0].cells[td.cellIndex];
    return th ? th.getAttribute("data-j") : null;
  }

  function band(fig, i, j, rowCls, colCls) {
    fig.querySelectorAll("tbody tr").forEach(function (tr) {
      var inRow = i !== null && tr.getAttribute("data-i") === i;
      Array.prototype.forEach.call(tr.cells, function (td) {
        if (td.tagName !== "TD") { return; }
        if (inRow) { td.classList.add(rowCls); }
        if (j !== null && columnOf(td) === j) { td.classList.add(colCls); }
      });
    });
  }

  function pick(td) {
    // A click on a cell lights its row and column; on the output of A · B = C it lights row i of
    // A and column j of B instead: the two that make C[i][j].
    var panel = td.closest("section.panel") || document;
    // the reader's cell replaces the narration's worked cell: one cell lit, not two
    panel.querySelectorAll(".pick,.pr,.pk,.hc,.hr,.hk").forEach(function (c) { c.classList.remove("pick", "pr", "pk", "hc", "hr", "hk"); });
    panel.querySelectorAll("output.picked,.arith").forEach(function (o) { o.remove(); });
    var fig = td.closest("figure.mx"), tr = td.closest("tr");
    var i = tr.getAttribute("data-i"), j = columnOf(td);
    if (i === null || j === null) { return; }
    td.classList.add("pick");
    say(fig, tr, td);
    var term = fig.closest(".term"), eq = fig.closest(".equation");
    var op = term && term.querySelector(".op");
    var figs = eq ? Array.prototype.slice.call(eq.querySelectorAll(":scope > .term > figure.mx")) : [];
    var k = figs.indexOf(fig);
    if (op && op.textContent.trim() === "=" && k >= 2) {
      band(figs[k - 2], i, null, "pr", "pk");
      band(figs[k - 1], null, j, "pr", "pk");
    } else {
      band(fig, i, j, "pr", "pk");
    }
  }

  function say(fig, tr, td) {
    // The picked cell's number in full (a wide matrix may show it shorter), where a tap can read
    // it, and under it how it was computed (arith.js).
    var cap = fig.querySelector("figcaption"), th = td.closest("table").tHead.rows[0].cells[td.cellIndex];
    if (!cap) { return; }
    var out = document.createElement("output");
    out.className = "picked";
    out.textContent = tr.cells[0].innerText + " · " + (th ? th.innerText : "") + " = " + (td.dataset.full || td.textContent);
    cap.insertBefore(out, cap.firstChild);
    var arith = window.hfArith && window.hfArith(fig, td, tr.getAttribute("data-i"), th && th.getAttribute("data-j"));
    if (arith) { cap.insertBefore(arith, out.nextSibling); }
  }

  function gloss(word) {
    // A tap shows a glossary word's definition (hover and focus show it too), one at a time;
    // opened towards the page's middle so that it stays on the screen.
    var open = !word.classList.contains("open");
    document.querySelectorAll("dfn.gl.open").forEach(function (w) { w.classList.remove("open"); });
    word.classList.toggle("open", open);
    word.classList.toggle("right", word.getBoundingClientRect().left > window.innerWidth / 2);
  }

  function go(step) {
    if (!panels.length) { return; }
    var i = Math.max(0, Math.min(panels.length - 1, idx + step));
    lastMove = Date.now();
    toTop(panels[i]);
    history.replaceState(null, "", "#" + panels[i].id);
    mark(i);
  }

  function setLang(lang) {
    var panel = panels[idx];
    var offset = panel ? panel.getBoundingClientRect().top : 0;
    root.setAttribute("data-lang", lang);
    var tagged = document.querySelector("[lang].l-" + lang);
    root.setAttribute("lang", tagged ? tagged.getAttribute("lang") : lang);
    document.querySelectorAll("[data-set-lang]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-set-lang") === lang));
    });
    store("handformer-lang", lang);
    if (panels.length) { light(panels[idx].getAttribute("data-block")); }
    if (panel) { lastMove = Date.now(); window.scrollBy(0, panel.getBoundingClientRect().top - offset); hold(panel); }
  }

  // A panel out of view is not laid out (style.css: content-visibility) and takes its height
  // when it comes near, a frame or two later: one above the panel being read would push that
  // panel down. hold() keeps the panel's top where it is now for the next frames, till the page
  // is scrolled (the panel moved by the distance scrolled, or by more than a screen: not by a
  // panel above it laid out), the reader reaches for the wheel, a key or the scroll bar, or
  // another panel is held.
  var HOLD_FRAMES = 8, holding = null;
  function hold(panel) {
    var top = panel.getBoundingClientRect().top, y = window.scrollY, frames = 0, mine = holding = {};
    (function next() {
      requestAnimationFrame(function () {
        if (holding !== mine || !panel.isConnected) { return; }
        var moved = panel.getBoundingClientRect().top - top, scrolled = window.scrollY - y;
        if ((scrolled && Math.abs(moved + scrolled) < 0.5) || Math.abs(moved) > window.innerHeight) {
          holding = null; return;  // the page scrolled, or taken far: not held any more
        }
        if (Math.abs(moved) > 0.5) { window.scrollBy(0, moved); }
        y = window.scrollY;
        if (++frames < HOLD_FRAMES) { next(); } else { holding = null; }
      });
    })();
  }
  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (type) {
    window.addEventListener(type, function () { holding = null; }, {passive: true, capture: true});
  });

  function toTop(panel) {  // brought to the top of the window, held there
    panel.scrollIntoView({block: "start"});
    hold(panel);
  }

  // A link to a step (the contents, an address with its #step): the step is held at the top.
  window.addEventListener("hashchange", function () {
    var panel = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    panels = Array.prototype.slice.call(document.querySelectorAll("section.panel"));  // the app's now
    var i = panels.indexOf(panel);
    if (i >= 0) { lastMove = Date.now(); toTop(panel); mark(i); }
  });

  function toggleTheme() {
    var dark = root.getAttribute("data-theme") === "dark" ||
      (!root.getAttribute("data-theme") && window.matchMedia("(prefers-color-scheme: dark)").matches);
    root.setAttribute("data-theme", dark ? "light" : "dark");
    store("handformer-theme", dark ? "light" : "dark");
  }

  function level(x, top, kind) {
    // The page's colour steps (render/colour.py): q0…q10 on 0…1, n10…p10 around 0, "c" clipped.
    if (kind === "ids") { return "z"; }
    if (!isFinite(x)) { return kind === "prob" ? "q0" : "p0"; }
    var t = Math.max(-1, Math.min(1, x / top)), k = Math.round(t * 10);
    if (kind === "prob") { return "q" + Math.max(0, k); }
    return (k < 0 ? "n" + (-k) : "p" + k) + (Math.abs(x) > top * (1 + 1e-12) ? " c" : "");
  }

  function fullTable(data) {
    var table = document.createElement("table"), head = table.createTHead().insertRow();
    table.className = "grid";
    head.appendChild(document.createElement("th"));
    var first = data.v.split(";", 1)[0].split(" ").length;
    (data.c || Array.from({length: first}, function (_, j) { return String(j); })).forEach(function (c, j) {
      var th = document.createElement("th"); th.textContent = c; th.setAttribute("data-j", String(j)); head.appendChild(th);
    });
    var body = table.createTBody();
    data.v.split(";").forEach(function (line, i) {
      var row = body.insertRow(), th = document.createElement("th");
      row.setAttribute("data-i", String(i));
      th.textContent = data.r ? data.r[i] : String(i);
      row.appendChild(th);
      line.split(" ").forEach(function (text) {
        var x = text === "-inf" ? -Infinity : parseFloat(text), td = row.insertCell();
        td.textContent = x === -Infinity ? "\u2212\u221e" : text;
        td.className = level(x, data.t, data.s);
        if (x === -Infinity || (data.k === "pattern" && x === 0)) { td.classList.add("m"); }
      });
    });
    return table;
  }

  function showAll(button) {
    var scroll = button.closest("figure").querySelector(".scroll");
    if (!scroll.dataset.corners) {
      scroll.dataset.corners = "1";
      scroll._corners = scroll.firstElementChild;
      scroll.replaceChild(fullTable(JSON.parse(button.getAttribute("data-full"))), scroll._corners);
    } else {
      delete scroll.dataset.corners;
      scroll.replaceChild(scroll._corners, scroll.firstElementChild);
    }
    button.classList.toggle("open", !!scroll.dataset.corners);  // its label, in every language
    markOverflow(button.closest("section.panel"));  // its panel (else the page)
  }

  function enlarge(button) {
    var open = button.getAttribute("aria-expanded") === "true";
    var wrap = button.closest(".multiples-wrap");
    wrap.querySelectorAll(".enlarge").forEach(function (b) {
      b.setAttribute("aria-expanded", "false");
      b.closest(".sm").classList.remove("open");
    });
    wrap.querySelectorAll(".zoom").forEach(function (z) { z.hidden = true; });
    if (open) { return; }
    button.setAttribute("aria-expanded", "true");
    button.closest(".sm").classList.add("open");
    var zoom = document.getElementById(button.getAttribute("aria-controls"));
    zoom.hidden = false;
    zoom.scrollIntoView({block: "nearest"});
  }

  function layoutMultiples(root) {
    // Labels on every head while 3 or more fit a row; else on the first head of each row only.
    (root || document).querySelectorAll(".multiples.labelled").forEach(function (g) {
      var tiles = Array.prototype.slice.call(g.children);
      var bottom = function (t) { return t.offsetTop + t.offsetHeight; };
      g.classList.remove("short");
      tiles.forEach(function (t) { t.classList.remove("first"); });
      if (tiles.length < 3 || tiles.filter(function (t) { return bottom(t) === bottom(tiles[0]); }).length >= 3) { return; }
      g.classList.add("short");
      tiles.forEach(function (t, i) {
        if (i === 0 || bottom(t) > bottom(tiles[i - 1]) + 1) { t.classList.add("first"); }
      });
    });
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("button") : null;
    var map = !t && e.target.closest ? e.target.closest(".sm .hm") : null;
    if (map) { enlarge(map.parentNode.querySelector(".enlarge")); return; }
    var word = !t && e.target.closest ? e.target.closest("dfn.gl") : null;
    if (word) { gloss(word); return; }
    var td = !t && e.target.closest ? e.target.closest(".grid td") : null;
    if (td) { pick(td); return; }
    if (!t) { return; }
    if (t.id === "drawer") { drawer(); return; }
    if (t.hasAttribute("data-set-lang")) { setLang(t.getAttribute("data-set-lang")); }
    else if (t.id === "theme") { toggleTheme(); }
    else if (t.id === "prev") { go(-1); }
    else if (t.id === "next") { go(1); }
    else if (t.classList.contains("showall")) { showAll(t); }
    else if (t.classList.contains("enlarge")) { enlarge(t); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) { return; }
    var now = document.querySelectorAll("section.panel");  // the web app swaps panels in later
    if (now.length !== panels.length || Array.prototype.some.call(now, function (p, j) { return p !== panels[j]; })) {
      panels = Array.prototype.slice.call(now);
      idx = currentIndex();
    }
    if (e.key === "ArrowRight" || e.key === "j") { e.preventDefault(); go(1); }
    else if (e.key === "ArrowLeft" || e.key === "k") { e.preventDefault(); go(-1); }
  });
  var settle = 0;
  window.addEventListener("scroll", function () {
    clearTimeout(settle);  // mark the step once scrolling settles, unless a key just moved us
    settle = setTimeout(function () { if (Date.now() - lastMove > 400) { mark(currentIndex()); } }, 120);
  }, {passive: true});

  function drawer(open) {
    // On a phone the contents are a drawer: the button opens it, choosing an entry closes it.
    var body = document.body, button = document.getElementById("drawer");
    var now = open === undefined ? !body.classList.contains("drawer-open") : open;
    body.classList.toggle("drawer-open", now);
    if (button) { button.setAttribute("aria-expanded", String(now)); }
  }
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("#side a")) { drawer(false); }
  });

  // A panel's matrices are fitted to its box when the browser lays it out (in view or near it:
  // style.css, content-visibility), not all at load: the page lays out only the panels read.
  function fitPanel(panel) {
    panel.hfUnfit = false;
    layoutMultiples(panel);
    markOverflow(panel);
  }
  function onLaidOut(e) {
    if (!e.skipped && e.target.hfUnfit) { fitPanel(e.target); }
  }
  // Those in view now, the others as the browser lays them out; ``drawn``: panels the browser
  // may have laid out already (a page's own, drawn while it loaded), whose event has gone by:
  // those near the window are fitted at the next frame.
  function fitWhenNear(list, drawn) {
    var h = window.innerHeight, near = [];
    list.forEach(function (p) {
      var r = p.getBoundingClientRect();
      if (r.bottom > 0 && r.top < h) { fitPanel(p); return; }
      p.hfUnfit = true;
      p.addEventListener("contentvisibilityautostatechange", onLaidOut);
      if (drawn && p.firstElementChild && p.firstElementChild.checkVisibility({contentVisibilityAuto: true})) { near.push(p); }
    });
    if (near.length) {
      requestAnimationFrame(function () { near.forEach(function (p) { if (p.hfUnfit) { fitPanel(p); } }); });
    }
  }
  function fitPage() { fitWhenNear(Array.prototype.slice.call(document.querySelectorAll("section.panel")), true); }

  var resized = 0;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(fitPage, 150);
  });
  // the web app replaces panels after the page loads: it says so, and they are fitted anew
  document.addEventListener("hf:panels", fitPage);
  // the web app fits the panels it swaps in (server/static/live.js) and holds the one being read
  window.HFPage = {fitPanel: fitPanel, fitWhenNear: fitWhenNear, hold: hold, toTop: toTop};
  fitPage();

  var theme = load("handformer-theme");
  if (theme) { root.setAttribute("data-theme", theme); }
  var lang = load("handformer-lang");  // the reader's last choice wins over the page's default
  if (lang && lang !== root.getAttribute("data-lang") && document.querySelector("[data-set-lang]")) { setLang(lang); }
  var start = panels.findIndex(function (p) { return "#" + p.id === location.hash; });
  if (start >= 0) { toTop(panels[start]); }
  mark(start >= 0 ? start : currentIndex());
})();
