/* The training pairs, listed and editable before training: the server cuts the corpus into
   pairs (POST /api/pairs, as training cuts it: a line with no separator is refused by its
   number); the learner may then edit, add or remove pairs. Train sends this list. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, timer = 0, ticket = 0, loaded = false, pending = null;  /* loaded: asked once */

  function input(cls, key, value) {
    var el = document.createElement("input");
    el.type = "text"; el.className = cls; el.value = value; el.spellcheck = false;
    el.setAttribute("data-t-label", key); el.setAttribute("aria-label", HF.t(key));
    return el;
  }

  function row(src, tgt) {
    var li = document.createElement("li"), remove = document.createElement("button");
    remove.type = "button"; remove.className = "pair-remove"; remove.setAttribute("data-t", "pair_remove");
    remove.textContent = HF.t("pair_remove");
    remove.addEventListener("click", function () { li.remove(); });
    li.append(input("pair-src", "pair_src", src), input("pair-tgt", "pair_tgt", tgt), remove);
    return li;
  }

  function fill(pairs) {
    var list = $("pairs-list");
    list.replaceChildren.apply(list, pairs.map(function (p) { return row(p[0], p[1]); }));
  }

  /* The corpus as pairs, from the server (the one place lines are cut). */
  function load() {
    var body = {}, corpus = $("f-corpus").value, mine = ++ticket;
    if (corpus.trim() !== "") { body.corpus = corpus; }
    loaded = true;
    pending = HF.post("/api/pairs", body).then(function (r) {
      if (mine !== ticket) { return; }
      HF.clearErrors(["pairs"]);
      if (!r.ok) { HF.showAnswer(Object.assign({}, r.data, {field: "pairs"}), true); return; }  /* not scrolled to while the corpus is typed */
      fill(r.data.pairs);
    });
    return pending;
  }

  /* Once the list holds the corpus's pairs (a corpus typed a moment ago is read first). */
  HF.whenPairs = function () {
    if (timer) { clearTimeout(timer); timer = 0; return load(); }
    return pending || load();
  };

  /* The list as "source<TAB>target" lines, or null after saying which pair is incomplete. */
  HF.pairsText = function () {
    var lines = [], bad = 0;
    HF.clearErrors(["pairs"]);
    document.querySelectorAll("#pairs-list li").forEach(function (li, i) {
      var s = li.querySelector(".pair-src").value.replace(/\t/g, " ").trim();
      var t = li.querySelector(".pair-tgt").value.replace(/\t/g, " ").trim();
      li.removeAttribute("aria-invalid");
      if (s === "" && t === "") { return; }
      if ((s === "" || t === "") && !bad) { bad = i + 1; li.setAttribute("aria-invalid", "true"); }
      lines.push(s + "\t" + t);
    });
    if (bad) { HF.showError("pairs", HF.t("pair_empty", {n: bad}), true); return null; }
    if (!lines.length) { HF.showError("pairs", HF.t("pairs_none"), true); return null; }
    return lines.join("\n");
  };

  $("f-corpus").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { timer = 0; load(); }, 250); });
  $("pair-add").addEventListener("click", function () {
    var li = row("", "");
    $("pairs-list").appendChild(li);
    li.querySelector("input").focus();
  });
  document.addEventListener("hf:ready", function () { if (!loaded) { load(); } });
  HF.onWalk.push(function (why) {
    if (why !== "lang") { return; }
    document.querySelectorAll("#pairs-list [data-t-label]").forEach(function (el) {
      el.setAttribute("aria-label", HF.t(el.getAttribute("data-t-label")));
    });
  });
})();
