/* The page's state in its address: sentences, corpus (when not the tutorial's), tokenizer, family,
   preset, every model setting, "Walk backward", the language, the training job and the comparison
   (the pinned run, B as the trained model, the weight edit or training steps, A or B shown) in the query; the panel being read in
   the hash (#s-<step>), as the export's keys write it. An edit that changes the query is a new
   history entry (pushState), so Back returns to the sentence and settings before it (popstate
   puts them back in the form); scrolling and the language only rewrite the current entry. A
   reload or a copied link opens the same view. "Copy link" puts the address on the clipboard. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, restored = null, written = false, popped = false;

  function query() {
    var body = HF.walkBody(), q = new URLSearchParams();
    q.set("src", body.src); q.set("tgt", body.tgt);
    if (body.preset !== "tutorial") { q.set("preset", body.preset); }
    if (body.family) { q.set("family", body.family); }
    if (body.tokenizer) { q.set("tokenizer", body.tokenizer); }
    Object.keys(body.config).forEach(function (k) { q.set("c." + k, String(body.config[k])); });
    if (body.corpus !== undefined && body.corpus !== HF.defaults.corpus) { q.set("corpus", body.corpus); }
    if (HF.backward) { q.set("backward", "1"); }
    q.set("lang", HF.lang);
    if (HF.job && HF.job()) { q.set("job", HF.job()); }
    comparison(q);
    return q.toString();
  }

  var CHANGE_FIELDS = {"edit.param": "f-edit.param", "edit.index": "f-edit.index",
                       "edit.value": "f-edit.value", "steps": "f-train_steps", "b": "f-cmp-b"};

  /* The pinned run (its walk body as JSON), the change of the current run, A or B. */
  function comparison(q) {
    var pinned = HF.pinned && HF.pinned();
    if (!pinned) { return; }
    q.set("pin", JSON.stringify(pinned));
    Object.keys(CHANGE_FIELDS).forEach(function (k) {
      var v = $(CHANGE_FIELDS[k]).value.trim();
      if (v !== "" && !(k === "steps" && v === "0")) { q.set(k, v); }
    });
    if (HF.showB) { q.set("run", "b"); }
  }

  function restoreComparison(q) {
    Object.keys(CHANGE_FIELDS).forEach(function (k) { if (q.has(k)) { $(CHANGE_FIELDS[k]).value = q.get(k); } });
    if (q.get("run") === "b" && HF.setRun) { HF.setRun("b"); }
    var pinned = null;
    try { pinned = JSON.parse(q.get("pin")); } catch (e) { pinned = null; }
    if (pinned && typeof pinned === "object" && HF.pin) { HF.pin(pinned); }
  }

  /* The panel nearest the top of the window, as "#s-<id>" ("" above the first one). */
  function reading() {
    var panels = document.querySelectorAll("#panels > section.panel");
    for (var i = 0; i < panels.length; i++) {
      if (panels[i].getBoundingClientRect().bottom > 90) { return "#" + panels[i].id; }
    }
    return "";
  }

  /* ``push``: a new history entry when the query changed (an edit), the first write excepted. */
  function write(push) {
    if (restored) { return; }  /* the linked panel is not there yet: keep its hash */
    var search = "?" + query(), edited = written && !popped && search !== location.search;
    popped = false;
    history[push && edited ? "pushState" : "replaceState"](null, "", search + reading());
    written = true;
  }
  HF.link = function () { write(false); return location.href; };

  /* The walk's fields as ``q`` says; a field it does not name takes its default. */
  function formFrom(q) {
    ["src", "tgt", "corpus", "preset", "family", "tokenizer"].forEach(function (k) {
      if (q.has(k)) { $("f-" + k).value = q.get(k); }
    });
    if (HF.familyChanged) { HF.familyChanged(); }  /* the family's own fields, to be filled below */
    document.querySelectorAll("#walk-form [data-config]").forEach(function (el) {
      el.value = q.has("c." + el.name) ? q.get("c." + el.name) : "";
    });
    HF.backward = q.get("backward") === "1";
  }

  /* Back or Forward: the form as that entry says, its walk recomputed. */
  window.addEventListener("popstate", function () {
    var q = new URLSearchParams(location.search);
    formFrom(q);
    if (!q.has("corpus")) { $("f-corpus").value = HF.defaults.corpus; }
    if (!q.has("preset")) { $("f-preset").value = "tutorial"; }
    if (!q.has("family")) { $("f-family").value = "transformer"; }
    if (!q.has("tokenizer")) { $("f-tokenizer").value = "tutorial"; }
    HF.applyText();
    popped = true;  /* its walk's answer rewrites this entry, not a new one (Forward stays) */
    HF.recompute();
  });

  /* The form as the address says (called once, after the defaults are in); the language. */
  HF.restore = function () {
    var q = new URLSearchParams(location.search);
    formFrom(q);
    restored = location.hash.length > 1 ? location.hash : null;
    if (q.get("job") && HF.attach) { HF.attach(q.get("job")); }  /* the job, if it still lives */
    if (q.has("pin")) { restoreComparison(q); }
    return q.get("lang");
  };

  /* Once the walk is in, the linked panel is brought to the top. */
  document.addEventListener("hf:updated", function () {
    if (!restored) { write(true); return; }
    var panel = document.getElementById(decodeURIComponent(restored.slice(1)));
    restored = null;
    if (panel) { HF.toTop(panel); }
    write(false);
  });
  HF.onWalk.push(function (why) { if (why === "lang") { write(false); } });
  /* Scrolling rewrites only the hash: a query changed by typing not yet sent stays for its push. */
  var settle = 0;
  window.addEventListener("scroll", function () {
    clearTimeout(settle);
    settle = setTimeout(function () {
      if (!restored) { history.replaceState(null, "", location.search + reading()); }
    }, 300);
  }, {passive: true});

  $("copy-link").addEventListener("click", function () {
    var url = HF.link();
    var done = function () { HF.status("link_copied"); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(done, function () { window.prompt(HF.t("copy_link"), url); });
    } else {
      window.prompt(HF.t("copy_link"), url);
    }
  });
})();
