/* Panels far from the window are not brought up to date with every edit (live.js asks for the
   ones in view and near them): each is marked unchecked (data-unchecked), and checked against the current form
   when it comes within a screen of the window (the server sends it only if it changed). The
   contents list likewise: checked when it is open, or when it is opened. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, queued = {}, timer = 0, inFlight = null, tocUnchecked = false;

  function panelOf(id) {
    return $("panels").querySelector(':scope > section.panel[data-id="' + CSS.escape(id) + '"]');
  }

  var near = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting && e.target.hasAttribute("data-unchecked")) { queued[e.target.getAttribute("data-id")] = true; }
    });
    schedule();
  }, {rootMargin: "100% 0px"});

  /* ``ids`` (null: every panel) are as the last edit made them. */
  HF.markChecked = function (ids) {
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) {
      if (ids === null || ids.indexOf(s.getAttribute("data-id")) >= 0) { s.removeAttribute("data-unchecked"); near.unobserve(s); }
    });
    if (ids === null) { queued = {}; }
  };

  HF.tocStale = function () { tocUnchecked = true; };

  HF.markUnchecked = function (ids) {
    var all = {};
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) { all[s.getAttribute("data-id")] = s; });
    ids.forEach(function (id) {
      var s = all[id];
      if (!s) { return; }
      s.setAttribute("data-unchecked", "");
      near.unobserve(s); near.observe(s);  /* observed again: an entry says where it is now */
    });
  };

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, 30);
  }

  /* Ask for the queued panels (the ones near the window now) unless an edit is on its way:
     that edit marks them again, and asks for those near then. */
  function check() {
    var ids = Object.keys(queued).filter(function (id) { var s = panelOf(id); return s && s.hasAttribute("data-unchecked"); });
    if (tocUnchecked && HF.tocOpen() && ids.length === 0) { ids = lastId(); }
    if (!ids.length || inFlight || HF.busy()) { return; }  /* after an edit: checkNear */
    queued = {};
    var edit = HF.edits;
    if (tocUnchecked && HF.tocOpen() && ids.indexOf(lastId()[0]) < 0) { ids = ids.concat(lastId()); }
    inFlight = HF.askPanels(HF.walkNow(), ids).then(function (r) {
      inFlight = null;
      if (r.ok && !HF.busy() && edit === HF.edits) { checked(HF.applyPanels(r.data), ids); }
      if (Object.keys(queued).length) { schedule(); }
    });
  }

  function checked(data, ids) {
    HF.markChecked(ids);
    return data;
  }

  function lastId() {
    var all = $("panels").querySelectorAll(":scope > section.panel");
    return all.length ? [all[all.length - 1].getAttribute("data-id")] : [];
  }

  HF.checking = function () { return !!inFlight; };
  HF.tocOpen = function () { return $("app-toc").querySelector("details").open; };
  HF.tocChecked = function () { tocUnchecked = false; };

  /* After an edit: the unchecked panels already near the window are asked for now. */
  HF.checkNear = function () {
    var h = window.innerHeight;
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) {
      if (!s.hasAttribute("data-unchecked")) { return; }
      var r = s.getBoundingClientRect();
      if (r.bottom > -h && r.top < 2 * h) { queued[s.getAttribute("data-id")] = true; }
    });
    if (Object.keys(queued).length || (tocUnchecked && HF.tocOpen())) { schedule(); }
  };

  document.addEventListener("hf:ready", function () {
    $("app-toc").querySelector("details").addEventListener("toggle", function () {
      if (HF.tocOpen() && tocUnchecked) { schedule(); }
    });
  });
})();
