/* The matrices of panels the app has just swapped in, fitted to their boxes by the export's own
   rules (nav.js: smaller type down to 11 px, then shorter numbers down to 10 px, else the matrix
   scrolls, opened at its worked cell, with a scroll hint; small multiples' head labels laid
   out). nav.js does the whole page on "hf:panels", which on a `small` walk (60k elements) takes
   seconds: here only the new panels are fitted, the ones in view at once, the others when they
   come near the window and are laid out. */
(function () {
  "use strict";
  var HF = window.HF;

  HF.fitPanels = function (panels) { window.HFPage.fitWhenNear(panels); };
})();
