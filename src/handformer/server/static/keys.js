/* The keys help: "?" (outside the form's fields) or the header's "?" button opens a list of the
   keys the page has (nav.js: j/k and the arrows; app.js: Enter; the browser's Back), Escape or
   its Close button closes it and gives the focus back. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, before = null;

  function open() {
    before = document.activeElement;
    $("keys-help").hidden = false;
    $("keys-close").focus();
  }

  function close() {
    if ($("keys-help").hidden) { return; }
    $("keys-help").hidden = true;
    if (before && before.focus) { before.focus(); }
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { close(); return; }
    if (e.key !== "?" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (/INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) { return; }  /* a "?" typed in a field */
    e.preventDefault();
    open();
  });
  $("keys-open").addEventListener("click", open);
  $("keys-close").addEventListener("click", close);
  $("keys-help").addEventListener("click", function (e) { if (e.target === $("keys-help")) { close(); } });
  HF.onWalk.push(function (why) {  /* the button's name in the page's language */
    if (why === "lang") { $("keys-open").setAttribute("aria-label", HF.t("keys.button_label")); }
  });
})();
