/* handformer app: the form, the language, and the walkthrough redrawn on every change.
   No inline handlers: everything is bound here with addEventListener; all user text goes into
   the page as textContent; panels are the server's (escaped) HTML export panels. */
(function () {
  "use strict";
  var HF = window.HF = {lang: "en", text: {}, backward: false, onWalk: []};
  var root = document.documentElement;
  var form = document.getElementById("walk-form");
  var statusKey = "";

  function $(id) { return document.getElementById(id); }
  HF.$ = $;

  HF.t = function (key, values) {
    var s = (HF.text[HF.lang] || {})[key];
    if (s === undefined) { s = (HF.text.en || {})[key] || key; }
    return String(s).replace(/\{(\w+)\}/g, function (m, k) {
      return values && values[k] !== undefined ? values[k] : m;
    });
  };

  function applyText() {
    document.querySelectorAll("[data-t]").forEach(function (el) {
      var key = el.getAttribute("data-t");
      el.textContent = key === "train_button" ? HF.t(key, {n: $("f-epochs").value || "?"}) : HF.t(key);
    });
    $("backward").setAttribute("aria-pressed", String(HF.backward));
    document.title = HF.t("title");
    document.querySelectorAll(".field-error").forEach(function (p) { if (p.answer) { sayAnswer(p); } });
    $("status").textContent = statusKey ? HF.t(statusKey) : "";
    var words = $("panels").dataset;  /* the export's nav.js reads its button labels here */
    words.showAll = HF.t("show_all"); words.showCorners = HF.t("show_corners");
    words.showFirst = HF.t("show_first");
  }
  HF.applyText = applyText;

  function setLang(lang) {
    keepInView(function () { switchLang(lang); });
  }

  function switchLang(lang) {
    HF.lang = lang;
    root.setAttribute("data-lang", lang);
    root.setAttribute("lang", (HF.tags || {})[lang] || lang);
    document.querySelectorAll("[data-set-lang]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-set-lang") === lang));
    });
    try { localStorage.setItem("handformer-lang", lang); } catch (e) { /* private mode */ }
    applyText();
    HF.onWalk.forEach(function (f) { f("lang"); });
  }

  HF.walkBody = function () {
    var config = {};
    form.querySelectorAll("[data-config]").forEach(function (el) {
      if (el.value === "") { return; }
      var kind = el.getAttribute("data-config");
      config[el.name] = kind === "int" || kind === "float" ? Number(el.value) : kind === "bool" ? el.value === "true" : el.value;
    });
    var body = {src: $("f-src").value, tgt: $("f-tgt").value, preset: $("f-preset").value, config: config};
    if ($("f-family").value !== "transformer") { body.family = $("f-family").value; }
    if ($("f-corpus").value.trim() !== "") { body.corpus = $("f-corpus").value; }
    if ($("f-tokenizer").value !== "tutorial") { body.tokenizer = $("f-tokenizer").value; }
    if (HF.sampleOf) { var sample = HF.sampleOf(); if (sample) { body.sample = sample; } }  /* sample.js */
    return body;
  };

  /* Every answer as {ok, status, data}: its JSON object; an answer that is not one (a plain-text
     404, a proxy's page) or no answer at all becomes an error the page says in its language. */
  HF.answerOf = function (r) {
    return r.text().then(function (text) {
      var data = null;
      try { data = JSON.parse(text); } catch (e) { data = null; }
      if (data && typeof data === "object" && !Array.isArray(data)) {
        return {ok: r.ok, status: r.status, data: data};
      }
      return {ok: false, status: r.status, data: {error: "HTTP " + r.status + ": " + text.slice(0, 200),
              field: "", key: "err.bad_answer", values: {status: String(r.status)}}};
    });
  };
  HF.unreachable = function (err) {
    return {ok: false, status: 0, data: {error: String(err), field: "", key: "err.offline", values: {}}};
  };
  HF.fetch = function (url, options) {
    var o = Object.assign({credentials: "same-origin"}, options || {});
    return fetch(url, o).then(HF.answerOf).catch(HF.unreachable);
  };
  HF.post = function (url, body) {
    return HF.fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                          body: JSON.stringify(body)});
  };

  var FIELD_ALIAS = {"config.decoder_heads": "config.heads", "config.d_v": "config.d_k",
                     "config.encoder_layers": "config.layers", "config.decoder_layers": "config.layers"};

  HF.clearErrors = function (scope) {
    document.querySelectorAll(".field-error").forEach(function (p) {
      var f = p.getAttribute("data-for");
      if (!scope || scope.indexOf(f) >= 0 || scope.indexOf(f.split(".")[0]) >= 0) {
        p.hidden = true; p.textContent = ""; p.answer = null; p.removeAttribute("title");
      }
    });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
  };

  /* The words a field is shown with (its label), for a raw name like "src" or "config.seed". */
  function labelOf(name) {
    var el = $("f-" + String(name).replace(/^config\./, ""));
    var label = el && document.querySelector('label[for="' + CSS.escape(el.id) + '"]');
    return label ? label.textContent : name;
  }
  HF.labelOf = labelOf;

  /* The slot right under a model setting (made on first use), so the message is where the eye is. */
  function slotAt(input) {
    var next = input.nextElementSibling;
    if (next && next.classList.contains("at-field")) { return next; }
    var p = document.createElement("p");
    p.className = "field-error at-field"; p.setAttribute("data-for", "config." + input.name); p.hidden = true;
    input.after(p);
    return p;
  }

  /* ``localised``: the message is already in the page's language (no English-engine prefix);
     ``stay``: not scrolled into view (a message about another part of the form than the one typed in). */
  HF.showError = function (field, message, localised, stay) {
    field = FIELD_ALIAS[field] || field || "";
    var input = $("f-" + field.replace(/^config\./, "")), slot = null;
    if (field.indexOf("config.") === 0 && input) { slot = slotAt(input); }
    else {
      slot = document.querySelector('.field-error[data-for="' + field + '"]') ||
        document.querySelector('.field-error[data-for="' + field.split(".")[0] + '"]');
    }
    slot = slot || document.querySelector('.field-error[data-for=""]');
    if (input) { input.setAttribute("aria-invalid", "true"); }
    if (!localised) {  /* the engine's English, its raw names as the form's labels */
      message = message.replace(/config\.(\w+)/g, function (m, k) { return "“" + labelOf(k) + "”"; });
      if (input && field) { message = labelOf(field) + ": " + message; }
    }
    slot.textContent = localised ? message : HF.t("error_prefix") + message;
    slot.hidden = false;
    var side = slot.closest(".side");
    if (side) { side.classList.add("open"); }  /* on a phone the form may be folded to its bar */
    if (slot.scrollIntoView && !stay) { slot.scrollIntoView({block: "nearest"}); }
    return slot;
  };

  /* The field to outline: the engine names the first setting its message mentions (d_ff 12
     against d_model 6 names d_model); the one the user set, when only that one is set. */
  function fieldOf(data) {
    var field = data.field || "", name = field.replace(/^config\./, "");
    if (field.indexOf("config.") !== 0) { return field; }
    var set = Object.keys(HF.walkBody().config);
    if (set.indexOf(name) >= 0) { return field; }
    var named = set.filter(function (k) { return new RegExp("\\b" + k + "\\b").test(data.error || ""); });
    return named.length ? "config." + named[named.length - 1] : field;
  }

  /* An API error: a common one in the page's language with the English as a detail (said
     again when the language changes), any other in the server's English. */
  HF.showAnswer = function (data, stay) {
    var slot = HF.showError(fieldOf(data), data.key ? "" : data.error, !!data.key, stay);
    slot.answer = data.key ? data : null;
    if (data.key) { sayAnswer(slot); }
  };

  /* Said once: the engine's English is the slot's tooltip, not a second sentence below it;
     only an answer the page could not read shows it, since there it is the news. */
  var ANSWER_SHOWN = {"err.bad_answer": true, "err.offline": true};

  function sayAnswer(slot) {
    var data = slot.answer, values = {};
    Object.keys(data.values || {}).forEach(function (k) { values[k] = data.values[k]; });
    if (values.name) { values.name = labelOf(values.name); }
    slot.title = data.error;
    slot.replaceChildren(document.createTextNode(HF.t(data.key, values)));
    if (!ANSWER_SHOWN[data.key]) { return; }
    var detail = document.createElement("small");
    detail.className = "detail"; detail.lang = "en";
    detail.textContent = " " + HF.t("engine_said") + " " + data.error;
    slot.appendChild(detail);
  }

  function anchorPanel() {
    var panels = document.querySelectorAll("#panels section.panel");
    for (var i = 0; i < panels.length; i++) {
      var r = panels[i].getBoundingClientRect();
      if (r.bottom > 60) { return {id: panels[i].getAttribute("data-id"), top: r.top}; }
    }
    return null;
  }

  /* Run change() and scroll back so that the panel at the top of the window stays there. */
  function keepInView(change) {
    var anchor = anchorPanel();
    change();
    if (!anchor) { return; }
    var now = document.querySelector('#panels section.panel[data-id="' + CSS.escape(anchor.id) + '"]');
    if (now) { window.scrollBy(0, now.getBoundingClientRect().top - anchor.top); window.HFPage.hold(now); }
  }

  HF.keepInView = keepInView;

  /* ``panel`` brought to the top of the window and held there while the panels near it take
     their heights (nav.js: panels out of view are not laid out). */
  HF.toTop = function (panel) { window.HFPage.toTop(panel); };

  HF.swapPanels = function (container, html) {
    if (container.id === "panels") { keepInView(function () { replacePanels(container, html); }); }
    else { replacePanels(container, html); }
  };

  function replacePanels(container, html) {
    var old = {};
    container.querySelectorAll(":scope > section.panel").forEach(function (s) { old[s.getAttribute("data-id")] = s; });
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var fresh = Array.prototype.slice.call(tpl.content.children);
    var kept = fresh.map(function (s) {
      var prev = old[s.getAttribute("data-id")];
      s.hfSource = s.innerHTML;  /* as the server sent it: nav.js may refit its matrices */
      return prev && prev.hfSource === s.hfSource ? prev : s;  /* unchanged panels stay */
    });
    container.replaceChildren.apply(container, kept);
    document.dispatchEvent(new Event("hf:panels"));  /* nav.js fits the new matrices to their boxes */
  }

  /* A preset by its name in the page's language ("tutorial" is 教程); another as it is. */
  var PRESET_KEYS = {tutorial: "preset.tutorial", small: "preset.small", paper: "preset.paper"};
  HF.presetName = function (name) { return PRESET_KEYS[name] ? HF.t(PRESET_KEYS[name]) : name; };

  /* With `over`, the status changes only while it still says `over`: a walk's end ("ready") does
     not wipe a message given meanwhile ("link copied"). */
  HF.status = function (key, over) {
    if (over !== undefined && statusKey !== over) { return; }
    statusKey = key; $("status").textContent = key ? HF.t(key) : "";
  };

  function placeholders() {
    var p = HF.presets[$("f-preset").value] || {};
    form.querySelectorAll("[data-config=int]").forEach(function (el) {
      var v = el.name === "layers" ? p.encoder_layers : p[el.name];
      el.placeholder = v === undefined || v === null ? (el.name === "d_k" ? "d_model / heads" : "0") : String(v);
    });
  }

  /* The decoder-only family reads the source as its prompt and the target as the continuation;
     training and translating below stay the encoder-decoder's, so they wait for it. */
  function familyChanged() {
    var family = $("f-family").value, other = family !== "transformer";
    $("family-note").hidden = !other;
    $("train").disabled = other;
    $("sample-box").hidden = (HF.generates || []).indexOf(family) < 0;  /* sample.js */
    familyOptions(family);
    familyPresets(family);
  }

  HF.familyChanged = familyChanged;

  /* The switches the chosen family declares (families/<name>/options.py, sent in the bundle):
     one field each, read by walkBody as a config field; another family's are removed. */
  function familyOptions(family) {
    var box = $("family-options");
    box.textContent = "";
    ((HF.familyOptions || {})[family] || []).forEach(function (o) {
      var id = "f-" + o.name, label = document.createElement("label"), field;
      label.htmlFor = id;
      label.setAttribute("data-t", "opt." + o.name);
      if (o.choices.length) {
        field = document.createElement("select");
        ["default"].concat(o.choices).forEach(function (c) {
          var option = document.createElement("option");
          option.value = c === "default" ? "" : c;
          option.setAttribute("data-t", c === "default" ? "opt.default" : "opt." + o.name + "." + c);
          field.appendChild(option);
        });
      } else {
        field = document.createElement("input");
        field.type = "number";
        if (o.lo !== null) { field.min = String(o.lo); }
        if (o.kind === "float") { field.step = "any"; }
      }
      field.id = id;
      field.name = o.name;
      field.setAttribute("data-config", o.kind);
      box.appendChild(label);
      box.appendChild(field);
    });
    applyText();
  }

  /* Only the chosen family's presets are offered; a preset it lacks falls back to tutorial. */
  function familyPresets(family) {
    var names = (HF.familyPresets || {})[family];
    if (!names) { return; }
    Array.prototype.forEach.call($("f-preset").options, function (option) {
      option.hidden = names.indexOf(option.value) < 0;
    });
    if (names.indexOf($("f-preset").value) < 0) { $("f-preset").value = "tutorial"; }
  }

  /* One button per language the server's tables hold (handformer.i18n), in its own name. */
  function languageButtons(languages) {
    HF.tags = {};
    languages.forEach(function (l) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = l.name; b.lang = l.tag;
      b.setAttribute("data-set-lang", l.code); b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", function () { setLang(l.code); });
      $("langs").appendChild(b);
      HF.tags[l.code] = l.tag;
    });
  }

  /* Typing is sent when it pauses (PAUSE_MS) or at a space, Enter or leaving the field, so a
     half-typed word is never asked about ("not in the vocabulary: 'sto'"); a choice at once. */
  var PAUSE_MS = 350, pending = 0;
  function later() { clearTimeout(pending); pending = setTimeout(sendNow, PAUSE_MS); }
  function sendNow() { clearTimeout(pending); pending = 0; HF.recompute(); }
  function flush() { if (pending) { sendNow(); } }
  HF.flushTyping = flush;

  function listen() {
    form.addEventListener("input", function (e) {
      if (e.target.closest(".no-walk")) { return; }
      var choice = e.target.tagName === "SELECT" || e.target.type === "range" || e.target.type === "checkbox";
      if (choice || e.data === " ") { sendNow(); } else { later(); }
    });
    form.addEventListener("change", function (e) { if (!e.target.closest(".no-walk")) { flush(); } });
    form.addEventListener("keydown", function (e) { if (e.key === "Enter") { flush(); } });
  }

  function start(bundle) {
    HF.text = bundle.text;
    languageButtons(bundle.languages);
    HF.presets = bundle.presets || {};
    HF.familyOptions = bundle.family_options || {};
    HF.familyPresets = bundle.family_presets || {};
    HF.generates = bundle.generates || [];
    (bundle.refused_presets || []).forEach(function (name) {  /* this server refuses them */
      var o = $("f-preset").querySelector('option[value="' + CSS.escape(name) + '"]');
      if (o) { o.remove(); }
    });
    HF.limits = bundle.limits;
    $("f-src").value = bundle.defaults.src;
    $("f-tgt").value = bundle.defaults.tgt;
    $("f-corpus").value = bundle.defaults.corpus;
    $("f-sentence").value = bundle.defaults.src;
    $("f-epochs").max = bundle.limits.max_epochs;
    listen();
    placeholders();
    $("f-preset").addEventListener("change", placeholders);
    $("f-family").addEventListener("change", familyChanged);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    $("backward").addEventListener("click", function () {
      HF.backward = !HF.backward; applyText(); HF.recompute();
    });
    HF.defaults = bundle.defaults;
    if (HF.pretrainedStart) { HF.pretrainedStart(bundle); }  /* pretrained.js: its models, before the link's form */
    var linked = HF.restore(), saved = null;  /* url.js: the form as the link says, its language */
    try { saved = localStorage.getItem("handformer-lang"); } catch (e) { saved = null; }
    setLang(linked && HF.tags[linked] ? linked : saved && HF.tags[saved] ? saved : bundle.languages[0].code);
    if (!(bundle.tokenizers || {}).jieba) {  /* an optional extra (pip install -e '.[corpus]') */
      $("f-tokenizer").querySelector('option[value="jieba"]').disabled = true;
      $("no-jieba").hidden = false;
    }
    familyChanged(); placeholders(); applyText();
    document.dispatchEvent(new Event("hf:ready"));
    HF.recompute();
  }

  /* The texts fetched while the other deferred scripts load; start once both are here: the
     answer can come before url.js or pairs.js has run (their HF.restore, their hf:ready). */
  var scriptsRun = new Promise(function (done) {  /* deferred scripts run before DOMContentLoaded */
    if (document.readyState === "complete") { done(); return; }
    document.addEventListener("DOMContentLoaded", done);
    window.addEventListener("load", done);
  });
  Promise.all([fetch("/static/ui_text.json").then(function (r) { return r.json(); }), scriptsRun])
    .then(function (both) { start(both[0]); })
    .catch(function (err) {  /* no words to say it in yet: English, where the status goes */
      $("status").textContent = "The page could not start (" + err + "); reload it.";
    });
})();
