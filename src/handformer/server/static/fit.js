/* The matrices of panels the app has just swapped in, fitted to their boxes as the export's
   nav.js fits a page's (the same rules: smaller type down to 11 px, then shorter numbers down to
   10 px, else the matrix scrolls, opened at its worked cell, with a scroll hint), and the head
   labels of small multiples laid out. nav.js does this for the whole page on "hf:panels", which
   on a `small` walk (60k elements) takes seconds: here only the new panels are fitted, the ones
   in view at once, the others when they come near the window. */
(function () {
  "use strict";
  var HF = window.HF;
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

  function fit(s) {
    var table = s.firstElementChild;
    if (!table || !table.classList.contains("grid") || !s.clientWidth) { return; }
    for (var k = 0; k < FITS.length && s.scrollWidth > s.clientWidth + 1; k++) {
      size(table, FITS[k][0], FITS[k][1]);
    }
    if (s.scrollWidth > s.clientWidth + 1) { size(table, "", false); reveal(s); }
    var cut = s.scrollWidth > s.clientWidth + 1;
    s.classList.toggle("overflows", cut);
    var fig = s.closest(".mx");
    if (fig) { fig.classList.toggle("overflows", cut); }
  }

  function reveal(s) {
    var cell = s.querySelector("td.hc");
    if (!cell) { return; }
    var c = cell.getBoundingClientRect(), box = s.getBoundingClientRect();
    var left = s.scrollLeft + c.left - box.left - (s.clientWidth - c.width) / 2;
    s.scrollLeft = Math.max(0, Math.min(left, s.scrollWidth - s.clientWidth));
  }

  function multiples(panel) {
    panel.querySelectorAll(".multiples.labelled").forEach(function (g) {
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

  function fitPanel(panel) {
    panel.hfUnfit = false;
    multiples(panel);
    panel.querySelectorAll(".scroll").forEach(fit);
    panel.querySelectorAll(".formula").forEach(function (f) {  /* a wide formula scrolls, hinted */
      f.classList.toggle("overflows", f.scrollWidth > f.clientWidth + 1);
    });
  }

  var near = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting) { near.unobserve(e.target); if (e.target.hfUnfit) { fitPanel(e.target); } }
    });
  }, {rootMargin: "600px 0px"});

  HF.fitPanels = function (panels) {
    var h = window.innerHeight;
    panels.forEach(function (p) {
      var r = p.getBoundingClientRect();
      if (r.bottom > 0 && r.top < h) { fitPanel(p); }
      else { p.hfUnfit = true; near.observe(p); }
    });
  };
})();
