/* What training did, shown in the main column: after "One epoch", the update that ended the
   epoch (one weight: θ, g, η, θ′, and the arithmetic by hand); after training, the sentence
   pair under random weights beside the trained ones (p(target) and the word each position picks). */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, update = null, beside = null;

  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) { n.className = cls; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  function num(x) { return Number(x.toPrecision(6)).toString().replace("-", "−"); }

  function paren(x) { return x < 0 ? "(" + num(x) + ")" : num(x); }

  function rowOf(table, label, value, key) {
    var tr = table.insertRow();
    tr.appendChild(node("th", null, label));
    var td = tr.insertCell();
    td.className = "num"; td.textContent = typeof value === "number" ? num(value) : value;
    if (key) { td.setAttribute("data-v", key); td.setAttribute("data-value", String(value)); }
  }

  /* θ′ computed here from the numbers shown, as the learner would by hand. */
  function byHand(u) {
    if (u.optimizer === "adam") {
      return num(u.theta) + " − " + num(u.lr) + " · " + paren(u.m_hat) + " / (√" + num(u.v_hat) + " + " +
        u.eps + ") = " + num(u.theta - u.lr * u.m_hat / (Math.sqrt(u.v_hat) + u.eps));
    }
    var v = u.velocity === undefined ? u.g : u.velocity;
    return num(u.theta) + " − " + num(u.lr) + " · " + paren(v) + " = " + num(u.theta - u.lr * v);
  }

  function drawUpdate() {
    var box = $("step-update"), u = update;
    if (!u) { box.hidden = true; return; }
    var table = node("table", "upd-table");
    rowOf(table, HF.t("upd.weight"), u.param + "[" + u.index.join(", ") + "]");
    rowOf(table, HF.t("upd.theta"), u.theta, "theta");
    rowOf(table, HF.t("upd.g"), u.g, "g");
    rowOf(table, HF.t("upd.lr"), u.lr, "lr");
    if (u.optimizer === "adam") {
      rowOf(table, HF.t("upd.m_hat"), u.m_hat, "m_hat");
      rowOf(table, HF.t("upd.v_hat"), u.v_hat, "v_hat");
    } else if (u.velocity !== undefined) {
      rowOf(table, HF.t("upd.velocity", {mu: u.momentum}), u.velocity, "velocity");
    }
    rowOf(table, HF.t("upd.new"), u.theta_new, "theta_new");
    var formula = u.optimizer === "adam" ? "θ′ = θ − η · m̂ / (√v̂ + ε)"
      : u.velocity === undefined ? "θ′ = θ − η · g" : "θ′ = θ − η · v";
    box.replaceChildren(node("h2", null, HF.t("upd.title", {epoch: u.epoch, batch: u.batch})),
                        node("p", "upd-formula", formula), table,
                        node("p", "upd-check", HF.t("upd.check") + " " + byHand(u)));
    box.setAttribute("data-epoch", String(u.epoch));
    box.hidden = false;
  }

  /* train.js calls this with every status: the update is shown while the job is held. */
  HF.showUpdate = function (s) {
    update = s.state === "running" && s.paused && s.update ? s.update : null;
    drawUpdate();
    if (update && HF.stepAsked && window.innerWidth > 820) {  /* the step just asked for, in view */
      $("step-update").scrollIntoView({block: "nearest"});
    }
    if (update) { HF.stepAsked = false; }
  };

  function drawBeside() {
    var box = $("beside"), b = beside;
    if (!b) { box.hidden = true; return; }
    var table = node("table", "beside-table"), head = table.createTHead().insertRow();
    var trained = HF.t("beside.trained", {epochs: b.epochs});
    [HF.t("beside.target"), HF.t("beside.random") + " · p", HF.t("beside.random") + " · " + HF.t("beside.picked"),
     trained + " · p", trained + " · " + HF.t("beside.picked")].forEach(function (t) {
      head.appendChild(node("th", null, t));
    });
    var body = table.createTBody();
    b.targets.forEach(function (word, i) {
      var tr = body.insertRow();
      tr.insertCell().textContent = word;
      [b.untrained, b.trained].forEach(function (side) {
        var p = tr.insertCell(), pick = tr.insertCell();
        p.className = "num"; p.textContent = side.p_target[i].toFixed(3);
        pick.textContent = side.picked[i];
        if (side.picked[i] === word) { pick.className = "right"; }
      });
    });
    var foot = table.createTFoot().insertRow();
    foot.appendChild(node("th", null, HF.t("beside.loss")));
    [b.untrained, b.trained].forEach(function (side) {
      var c = foot.insertCell(); c.colSpan = 2; c.className = "num"; c.textContent = side.loss.toFixed(4);
    });
    var scroll = node("div", "scroll"); scroll.appendChild(table);
    box.replaceChildren(node("h2", null, HF.t("beside.title")), scroll);
    box.hidden = false;
  }

  /* After training: the walk's sentence pair under the job's initial and trained weights. */
  HF.showBeside = function (job) {
    if (!job) { beside = null; drawBeside(); return; }
    HF.post("/api/train/" + encodeURIComponent(job) + "/beside", {src: $("f-src").value, tgt: $("f-tgt").value})
      .then(function (r) { beside = r.ok ? r.data : null; drawBeside(); });
  };

  HF.onWalk.push(function (why) { if (why === "lang") { drawUpdate(); drawBeside(); } });
})();
