/* The walkthrough kept up to date as the form changes: each change asks the server only for
   the panels this page does not already hold (by their digests), the ones in view and near the
   window (a screen above and below; a second request for those a reordering put there); the
   others are checked when they come near
   (near.js), a new one held by an empty stub in its place till then. Unchanged panels stay the
   same elements. One request is out at a time: changes made
   meanwhile are sent together when it returns. After an error the old panels are dimmed. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, busy = false, again = false, frame = null;

  function held() {
    var have = {};
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) {
      if (s.hfDigest) { have[s.getAttribute("data-id")] = s.hfDigest; }
    });
    return have;
  }

  /* The panels within ``screens`` window heights of the window (0: those in view). */
  function within(screens) {
    var ids = [], h = window.innerHeight, low = -screens * h, high = h + screens * h;
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) {
      var r = s.getBoundingClientRect();
      if (r.bottom > low && r.top < high) { ids.push(s.getAttribute("data-id")); }
    });
    return ids;
  }

  function order() {
    return Array.prototype.map.call($("panels").querySelectorAll(":scope > section.panel"),
                                    function (s) { return s.getAttribute("data-id"); });
  }

  /* The panels in the server's order: the ones it sent, else the ones held (a panel held but
     not yet sent again stays until the second answer). */
  function apply(data) {
    var container = $("panels"), old = {}, fresh = {};
    container.querySelectorAll(":scope > section.panel").forEach(function (s) { old[s.getAttribute("data-id")] = s; });
    var ids = Object.keys(data.panels);
    if (ids.length) {
      var tpl = document.createElement("template");
      tpl.innerHTML = ids.map(function (id) { return data.panels[id]; }).join("");
      Array.prototype.forEach.call(tpl.content.children, function (s) {
        var id = s.getAttribute("data-id");
        s.hfDigest = data.digests[id];
        fresh[id] = s;
      });
    }
    var kids = data.order.map(function (id) { return fresh[id] || old[id] || (old[id] = stub(id)); });
    HF.keepInView(function () { place(container, kids, old, fresh); });
    if (data.toc !== null) { setToc(data.toc); frame = data.frame; HF.tocChecked(); }
    paramNames(data.params || {});
    var put = data.order.map(function (id) { return fresh[id]; }).filter(function (s) { return s && s.isConnected; });
    window.HFPage.fitWhenNear(put);  /* nav.js: those in view now, the others as laid out */
    document.dispatchEvent(new CustomEvent("hf:fresh", {detail: {panels: put}}));  /* phone.js */
    return data;
  }
  HF.applyPanels = apply;

  /* A panel the page has not had yet, in its place: filled when it comes near (near.js). */
  function stub(id) {
    var s = document.createElement("section");
    s.className = "panel stub"; s.id = "s-" + id; s.setAttribute("data-id", id);
    return s;
  }

  /* Each new panel takes its old one's place, panels no longer in the walk leave, and the fewest
     panels are moved into the new order (all but the longest run already in it): a panel put
     back into the document is laid out anew, and re-inserting all of them (a switch such as
     pre-norm reorders a few) cost a whole-page layout, 250 ms on the tutorial. Until it is laid
     out (when it comes near: panels.css, content-visibility), a new panel holds its old one's
     height, so the panels after it do not move. */
  function place(container, kids, old, fresh) {
    var wanted = new Set(kids);
    var swaps = Object.keys(fresh).filter(function (id) { return old[id] && old[id].isConnected; });
    swaps.map(function (id) { return old[id].getBoundingClientRect().height; }).forEach(function (h, k) {
      fresh[swaps[k]].style.containIntrinsicSize = "auto " + h + "px";  /* read all, then write */
    });
    swaps.forEach(function (id) { old[id].replaceWith(fresh[id]); });
    Array.prototype.forEach.call(container.querySelectorAll(":scope > section.panel"), function (s) {
      if (!wanted.has(s)) { s.remove(); }
    });
    var kept = inOrder(kids, Array.prototype.slice.call(container.children)), ref = null;
    for (var i = kids.length - 1; i >= 0; i--) {
      if (!kept.has(kids[i])) { container.insertBefore(kids[i], ref); }
      ref = kids[i];
    }
  }

  /* The longest run of ``kids`` that ``now`` already holds in that order (patience sorting). */
  function inOrder(kids, now) {
    var at = new Map(now.map(function (s, k) { return [s, k]; }));
    var tails = [], back = new Map();
    kids.forEach(function (s) {
      if (!at.has(s)) { return; }
      var lo = 0, hi = tails.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (at.get(tails[mid]) < at.get(s)) { lo = mid + 1; } else { hi = mid; } }
      back.set(s, lo ? tails[lo - 1] : null);
      tails[lo] = s;
    });
    var run = new Set(), s = tails.length ? tails[tails.length - 1] : null;
    for (; s; s = back.get(s)) { run.add(s); }
    return run;
  }

  function failed(data) {
    busy = false;
    $("panels").setAttribute("aria-busy", "false");
    $("panels").classList.add("stale");  /* what is shown is no longer what the form says */
    HF.status("", "computing");
    HF.showAnswer(data);
    if (again) { setTimeout(recompute, 0); }  /* after this answer's chain has ended */
  }

  /* With "B" chosen, the walkthrough is of the model as changed in the compare box. */
  function ask(walk, only) {
    if (walk.pretrained && HF.askPretrained) { return HF.askPretrained(walk, only, held(), frame); }  /* pretrained.js */
    var body = {walk: walk, have: held(), only: only, frame: frame}, change = HF.showB && HF.change ? HF.change() : null;
    if (HF.walkJob) { body.job = HF.walkJob; change = null; }  /* train.js: the trained model */
    if (change) { body.job = change.job; body.edit = change.edit; body.train_steps = change.train_steps; }
    return HF.post("/api/panels/changed", body);
  }
  HF.askPanels = ask;
  HF.walkNow = function () { var walk = HF.walkBody(); if (HF.backward) { walk.backward = true; } return walk; };

  /* After the panels asked first: those near the window now that were not (a reordering put
     them there), and the others marked to be checked when they come near (every panel on the
     first walk). */
  function rest(walk, first) {
    if (!first.length) { HF.markChecked(null); return null; }  /* none in view: all came at once */
    var near = within(1).filter(function (id) { return first.indexOf(id) < 0; });
    var asked = first.concat(near);
    HF.markChecked(asked);
    HF.markUnchecked(order().filter(function (id) { return asked.indexOf(id) < 0; }));
    return near.length ? ask(walk, near).then(function (r) { if (r.ok) { apply(r.data); } }) : null;
  }

  function recompute() {
    if (busy) { again = true; return; }
    busy = true; again = false; HF.edits = (HF.edits || 0) + 1;
    var walk = HF.walkNow(), first = within(1), ids = order(), last = ids[ids.length - 1];
    HF.tocStale();  /* near.js: the contents list is asked for when it is open */
    if (first.length && HF.tocOpen() && first.indexOf(last) < 0) { first.push(last); }  /* the last: the whole frame */
    var started = performance.now();
    HF.status("computing");
    $("panels").setAttribute("aria-busy", "true");
    ask(walk, first.length ? first : null).then(function (r) {
      if (!r.ok) { return failed(r.data); }
      HF.clearErrors(["src", "tgt", "corpus", "config", "preset", "family", "edit", "train_steps", ""]);
      $("panels").classList.remove("stale");
      apply(r.data);
      document.dispatchEvent(new CustomEvent("hf:in-view", {detail: {ms: performance.now() - started}}));
      return rest(walk, first);
    }).then(function () {
      if (!busy) { return; }  /* failed already */
      busy = false;
      $("panels").setAttribute("aria-busy", "false");
      HF.status("ready", "computing");
      document.dispatchEvent(new CustomEvent("hf:updated", {detail: {ms: performance.now() - started}}));
      if (again) { recompute(); } else { HF.checkNear(); HF.onWalk.forEach(function (f) { f("walk"); }); }
    }).catch(function (e) {
      busy = false;
      $("panels").setAttribute("aria-busy", "false");
      HF.showError("", HF.t("network", {error: String(e)}));
    });
  }
  HF.recompute = recompute;
  HF.busy = function () { return busy; };

  /* The weight edit's choices: every parameter of the current model, with its shape. */
  function paramNames(params) {
    $("param-names").replaceChildren.apply($("param-names"), Object.keys(params).map(function (name) {
      var o = document.createElement("option");
      o.value = name; o.label = name + " [" + params[name].join(" × ") + "]";
      return o;
    }));
  }

  function setToc(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    $("toc-list").replaceChildren.apply($("toc-list"), Array.prototype.slice.call(tpl.content.children));
  }
})();
