/* A known pretrained model (SmolLM2-135M) as a choice of the model family: offered when its
   file is installed, else the choice is greyed and a line says which pip command adds it. Its
   walk is asked of /api/pretrained/panels (live.js and near.js ask as for any walk: the panels
   in view first, the others when they come near); while the server reads the model, the box
   says for how long and asks again. Block 0 is shown in full, the others as one line each (the
   summary panel); its buttons open a block: one more number in "blocks in full", whose panels
   come when scrolled to. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, models = {}, scrollTo = null, wasOn = false, lastWalk = null, fresh = false;
  var ELIDED = /^decoder\.(\d+)-(\d+)\.elided$/, OPENED = /^decoder\.(\d+)\.ln1\.out$/;
  /* What a pretrained model brings itself: hidden while one is chosen. */
  var HIDE = ["#f-tgt", "label[for=f-tgt]", "#f-corpus", "label[for=f-corpus]",
              "#f-tokenizer", "label[for=f-tokenizer]", "#no-jieba", "#f-preset",
              "label[for=f-preset]", "#walk-form .grid2 [data-config]", "#family-options",
              "#sample-box", "#walk-form .no-walk", "#family-note"];

  function chosen() { return models[$("f-family").value] || null; }

  HF.pretrainedStart = function (bundle) {
    (bundle.pretrained || []).forEach(function (m) {
      models[m.name] = m;
      var o = document.createElement("option");
      o.value = m.name; o.disabled = !!m.missing;
      $("f-family").appendChild(o);
    });
    HIDE.forEach(function (sel) {
      document.querySelectorAll(sel).forEach(function (el) {
        el.classList.add("not-pretrained");
        var label = el.id && document.querySelector('label[for="' + el.id + '"]');
        if (label && el.closest(".grid2")) { label.classList.add("not-pretrained"); }
      });
    });
    var plain = HF.familyChanged;
    HF.familyChanged = function () { plain(); mode(); };  /* url.js: a link's family */
    $("f-family").addEventListener("change", mode);
    HF.onWalk.push(function (why) { if (why === "lang") { words(); } summary(); });
    words();
  };

  /* The options' and the box's words in the page's language. */
  function words() {
    var missing = [];
    Object.keys(models).forEach(function (name) {
      var m = models[name], o = $("f-family").querySelector('option[value="' + CSS.escape(name) + '"]');
      o.textContent = HF.t(m.missing ? "pretrained.option_missing" : "pretrained.option", {name: name});
      if (m.missing) { missing.push(HF.t("pretrained.missing", {line: m.missing})); }
    });
    $("pretrained-missing").textContent = missing.join(" ");
    $("pretrained-missing").hidden = !missing.length;
    var m = chosen();
    if (m) { $("blocks-hint").textContent = HF.t("pretrained.blocks_hint", {last: m.layers - 1}); }
    if (m && lastWalk && $("pretrained-progress").hidden) { walked(lastWalk); }
  }

  /* The form as the chosen family asks: a pretrained model's prompt and blocks alone. */
  function mode() {
    var m = chosen(), form = $("walk-form");
    form.classList.toggle("pretrained", !!m);
    $("pretrained-box").hidden = !m;
    document.querySelector("label[for=f-src]").setAttribute("data-t", m ? "pretrained.prompt" : "src");
    var src = $("f-src").value;
    if (m && !wasOn && src === HF.defaults.src) { $("f-src").value = m.text; }
    if (!m && wasOn && models[Object.keys(models)[0]].text === src) { $("f-src").value = HF.defaults.src; }
    wasOn = !!m;
    words();
    HF.applyText();
    if ($("f-src").value !== src && HF.edits) { HF.recompute(); }  /* the choice's walk was of the old text */
  }

  /* "0, 5" → [0, 5]; what is not a block number is sent as written (the server names it). */
  function blocks() {
    var parts = $("f-blocks_shown").value.split(/[,，\s]+/).filter(function (p) { return p !== ""; });
    return parts.length ? parts.map(function (p) { return /^\d+$/.test(p) ? Number(p) : p; }) : null;
  }

  var plainBody = HF.walkBody;
  HF.walkBody = function () {
    var body = plainBody();
    if (chosen()) { body.pretrained = $("f-family").value; body.blocks_shown = blocks(); delete body.sample; }
    return body;
  };

  function wait(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }

  /* live.js's request for a pretrained walk; while the model loads, its progress, then again. */
  HF.askPretrained = function (walk, only, have, frame) {
    if (only === null && !Object.keys(have).length) { only = ["overview"]; fresh = true; }  /* a page with no panels yet: the first, the others as they come near */
    var body = {walk: {pretrained: walk.pretrained, src: walk.src, blocks_shown: walk.blocks_shown},
                have: have, only: only, frame: frame};
    return HF.post("/api/pretrained/panels", body).then(function (r) {
      if (r.ok && r.data.loading) {
        loading(r.data.loading);
        return wait(1000).then(function () { return HF.askPretrained(walk, only, have, frame); });
      }
      $("pretrained-progress").hidden = true;
      if (r.ok && r.data.pretrained) { walked(r.data.pretrained); }
      return r;
    });
  };

  function loading(s) {
    $("panels").classList.add("stale");  /* the panels shown are not this model's yet (live.js clears it) */
    var bar = $("pretrained-progress"), line = HF.t("pretrained.loading", {name: s.name, s: Math.round(s.seconds || 0), expected: s.expected_seconds});
    bar.hidden = false;
    bar.value = Math.min(0.95, (s.seconds || 0) / s.expected_seconds);
    $("pretrained-status").textContent = line;
    $("status").textContent = HF.t("pretrained.loading_short", {name: s.name, s: Math.round(s.seconds || 0)});
  }

  /* What the last walk was (said again in another language). */
  function walked(p) {
    lastWalk = p;
    $("pretrained-status").textContent = HF.t("pretrained.walked", {n: p.tokens, shown: p.shown.join(", "), last: p.layers - 1});
  }

  /* On a phone, the form's one-line bar (phone.js) says the prompt, the model and its blocks. */
  function summary() {
    if (!chosen()) { return; }
    $("form-summary").textContent = $("f-src").value + " · " + $("f-family").value + " · " +
      HF.t("pretrained.blocks") + " " + (blocks() || [0]).join(", ");
  }

  /* The summary panel of elided blocks: a button per block, which opens it. */
  function openers() {
    if (!chosen()) { return; }
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) {
      var m = ELIDED.exec(s.getAttribute("data-id") || "");
      if (!m || s.classList.contains("stub") || s.querySelector(".open-blocks")) { return; }
      var box = document.createElement("div"), label = document.createElement("span");
      box.className = "open-blocks";
      label.setAttribute("data-t", "pretrained.open"); label.textContent = HF.t("pretrained.open");
      box.appendChild(label);
      for (var b = Number(m[1]); b <= Number(m[2]); b++) {
        var button = document.createElement("button");
        button.type = "button"; button.textContent = String(b);
        button.setAttribute("data-open-block", String(b));
        button.title = HF.t("pretrained.open_one", {n: b});
        box.appendChild(button);
      }
      s.appendChild(box);
    });
  }

  /* An opened block's first panel: a button that closes it again (while another is open). */
  function closers() {
    var open = (blocks() || []).filter(function (b) { return typeof b === "number"; });
    if (open.length < 2) { return; }
    $("panels").querySelectorAll(":scope > section.panel").forEach(function (s) {
      var m = OPENED.exec(s.getAttribute("data-id") || "");
      if (!m || s.classList.contains("stub") || s.querySelector(".close-block") || open.indexOf(Number(m[1])) < 0) { return; }
      var button = document.createElement("button");
      button.type = "button"; button.className = "close-block";
      button.setAttribute("data-close-block", m[1]);
      button.setAttribute("data-t", "pretrained.close");
      button.textContent = HF.t("pretrained.close");
      s.insertBefore(button, s.children[1] || null);
    });
  }

  function close(block) {
    var now = (blocks() || []).filter(function (b) { return b !== block && typeof b === "number"; });
    $("f-blocks_shown").value = (now.length ? now : [0]).join(", ");
    HF.recompute();
  }

  function open(block) {
    var now = blocks() || [0];
    if (now.indexOf(block) < 0) { now.push(block); }
    now = now.filter(function (b) { return typeof b === "number"; }).sort(function (a, b) { return a - b; });
    $("f-blocks_shown").value = now.join(", ");
    scrollTo = "s-decoder." + block + ".ln1.out";
    HF.recompute();
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-open-block]");
    if (b) { open(Number(b.getAttribute("data-open-block"))); }
    var c = e.target.closest && e.target.closest("[data-close-block]");
    if (c) { close(Number(c.getAttribute("data-close-block"))); }
  });
  document.addEventListener("hf:fresh", function () { openers(); closers(); });
  /* After a first walk asked for its first panel alone: the others are filled as they come
     near (near.js), as after any walk. */
  function markStubs() {
    if (!fresh) { return; }
    fresh = false;
    HF.markUnchecked(Array.prototype.map.call($("panels").querySelectorAll(":scope > section.panel.stub"),
                                              function (s) { return s.getAttribute("data-id"); }));
  }

  document.addEventListener("hf:updated", function () {
    markStubs();
    openers(); closers();
    summary();
    var panel = scrollTo && document.getElementById(scrollTo);
    scrollTo = null;
    if (panel) { HF.toTop(panel); }
  });
})();
