/* On a phone the form is a one-line summary bar above the first panel (the sentences and the
   model); a tap opens the whole form, another closes it. Open, it is a sheet under the header
   (app.css), and an edit brings the first panel it changed into sight below the sheet when none
   is. On a wider screen the bar is hidden and the form is always open beside the walkthrough. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$;

  function summary() {
    var body = HF.walkBody(), config = Object.keys(body.config).map(function (k) { return k + " " + body.config[k]; });
    $("form-summary").textContent = body.src + " → " + body.tgt + " · " + [HF.presetName(body.preset)].concat(config).join(", ");
  }

  $("form-bar").addEventListener("click", function () {
    var side = $("form-bar").closest(".side"), open = !side.classList.contains("open");
    side.classList.toggle("open", open);
    $("form-bar").setAttribute("aria-expanded", String(open));
  });
  function sheet() {
    var side = $("form-bar").closest(".side");
    return side.classList.contains("open") && getComputedStyle(side).position === "sticky" ? side : null;
  }

  /* The panels an answer put in (fresh), when the sheet is open: one of them in sight below it. */
  var shown = 0;  /* the edit whose panel was brought into sight (once an edit) */
  document.addEventListener("hf:fresh", function (e) {
    var side = sheet(), panels = e.detail.panels;
    if (!side || !panels.length || !HF.busy() || shown === HF.edits) { return; }
    shown = HF.edits;
    var below = side.getBoundingClientRect().bottom, h = window.innerHeight;
    var seen = panels.some(function (p) { var r = p.getBoundingClientRect(); return r.bottom > below + 40 && r.top < h - 40; });
    if (!seen) { window.scrollBy(0, panels[0].getBoundingClientRect().top - below - 8); }
  });

  HF.onWalk.push(summary);
  document.addEventListener("hf:updated", summary);
})();
