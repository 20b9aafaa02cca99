/* handformer page: language and theme toggles, previous/next, keys, and "show all". */
(function () {
  "use strict";
  var root = document.documentElement;
  var panels = Array.prototype.slice.call(document.querySelectorAll("section.panel"));
  var links = {};
  document.querySelectorAll("#toc a").forEach(function (a) { links[a.getAttribute("href").slice(1)] = a; });
  var idx = 0, lastMove = 0;
  var main = document.getElementById("panels");
  var words = main ? main.dataset : {};  // the button labels, in the page's language

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
  }

  function go(step) {
    if (!panels.length) { return; }
    var i = Math.max(0, Math.min(panels.length - 1, idx + step));
    lastMove = Date.now();
    panels[i].scrollIntoView({block: "start"});
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
    if (panel) { lastMove = Date.now(); window.scrollBy(0, panel.getBoundingClientRect().top - offset); }
  }

  function toggleTheme() {
    var dark = root.getAttribute("data-theme") === "dark" ||
      (!root.getAttribute("data-theme") && window.matchMedia("(prefers-color-scheme: dark)").matches);
    root.setAttribute("data-theme", dark ? "light" : "dark");
    store("handformer-theme", dark ? "light" : "dark");
  }

  function level(x, top) {
    if (!isFinite(x)) { return "p0"; }
    var k = Math.round(Math.max(-1, Math.min(1, x / top)) * 10);
    return k < 0 ? "n" + (-k) : "p" + k;
  }

  function fullTable(data) {
    var table = document.createElement("table"), head = table.createTHead().insertRow();
    table.className = "grid";
    head.appendChild(document.createElement("th"));
    var first = data.v.split(";", 1)[0].split(" ").length;
    (data.c || Array.from({length: first}, function (_, j) { return String(j); })).forEach(function (c) { var th = document.createElement("th"); th.textContent = c; head.appendChild(th); });
    var body = table.createTBody();
    data.v.split(";").forEach(function (line, i) {
      var row = body.insertRow(), th = document.createElement("th");
      th.textContent = data.r ? data.r[i] : String(i);
      row.appendChild(th);
      line.split(" ").forEach(function (text) {
        var x = text === "-inf" ? -Infinity : parseFloat(text), td = row.insertCell();
        td.textContent = x === -Infinity ? "\u2212\u221e" : text;
        td.className = level(x, data.t);
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
      button.textContent = button.getAttribute("data-complete") === "1" ? words.showCorners
        : words.showFirst.replace("{block}", button.getAttribute("data-block"));
    } else {
      delete scroll.dataset.corners;
      scroll.replaceChild(scroll._corners, scroll.firstElementChild);
      button.textContent = words.showAll;
    }
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

  function layoutMultiples() {
    // Labels on every head while 3 or more fit a row; else on the first head of each row only.
    document.querySelectorAll(".multiples.labelled").forEach(function (g) {
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
    if (!t) { return; }
    if (t.hasAttribute("data-set-lang")) { setLang(t.getAttribute("data-set-lang")); }
    else if (t.id === "theme") { toggleTheme(); }
    else if (t.id === "prev") { go(-1); }
    else if (t.id === "next") { go(1); }
    else if (t.classList.contains("showall")) { showAll(t); }
    else if (t.classList.contains("enlarge")) { enlarge(t); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) { return; }
    if (e.key === "ArrowRight" || e.key === "j") { e.preventDefault(); go(1); }
    else if (e.key === "ArrowLeft" || e.key === "k") { e.preventDefault(); go(-1); }
  });
  var settle = 0;
  window.addEventListener("scroll", function () {
    clearTimeout(settle);  // mark the step once scrolling settles, unless a key just moved us
    settle = setTimeout(function () { if (Date.now() - lastMove > 400) { mark(currentIndex()); } }, 120);
  }, {passive: true});

  var resized = 0;
  window.addEventListener("resize", function () { clearTimeout(resized); resized = setTimeout(layoutMultiples, 150); });
  layoutMultiples();

  var theme = load("handformer-theme");
  if (theme) { root.setAttribute("data-theme", theme); }
  var lang = load("handformer-lang");  // the reader's last choice wins over the page's default
  if (lang && lang !== root.getAttribute("data-lang") && document.querySelector("[data-set-lang]")) { setLang(lang); }
  if (window.innerWidth <= 820) { var d = document.querySelector("#toc details"); if (d) { d.removeAttribute("open"); } }
  var start = panels.findIndex(function (p) { return "#" + p.id === location.hash; });
  mark(start >= 0 ? start : currentIndex());
})();
