// OpsBench HTML report: renders the embedded run data into tables, SVG charts and an episode
// browser. No network, no libraries: the file must open anywhere, years later.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("opsbench-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#0969da", "#cf222e", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a3069",
                  "#bc4c00", "#116329", "#57606a"];

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children.flat()) {
      if (child == null) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const child of children.flat()) {
      if (child == null) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const pct = (v) => (v == null ? "–" : (100 * v).toFixed(1) + "%");
  const color = (i) => COLORS[i % COLORS.length];
  const json = (v) => JSON.stringify(v);

  function rateCell(rate) {
    if (!rate || rate.value == null) return el("td", {}, "–");
    return el("td", {title: `${rate.successes} of ${rate.n}`}, pct(rate.value),
      el("span", {class: "ci"}, `${(100 * rate.low).toFixed(1)}–${(100 * rate.high).toFixed(1)}`));
  }

  // Scorer version, the servers the models were sent to, and the SDK versions.
  function provenance(p) {
    if (!p.scorer_version) return "scorer version unrecorded (a run stored before provenance was kept)";
    const urls = Object.entries(p.base_urls || {}).filter(([, url]) => url)
      .map(([model, url]) => `${model} → ${url}`);
    const sdks = Object.entries(p.sdks || {}).map(([name, version]) => `${name} ${version}`);
    return [`scorer ${p.scorer_version}`,
      urls.length ? `base URL ${urls.join(", ")}` : "",
      sdks.length ? `SDKs ${sdks.join(", ")}` : ""].filter(Boolean).join(" · ");
  }

  function header() {
    const run = DATA.run;
    const root = document.getElementById("header");
    root.append(
      el("h1", {}, `OpsBench report — run ${run.id}`),
      el("div", {class: "meta"},
        `opsbench ${run.opsbench_version} · commit ${run.git_commit || "?"} · seed ${run.seed} · ` +
        `caller ${run.caller} · judge ${run.judge || "lexicon claim checker"} · ` +
        `${Object.keys(run.task_versions).length} tasks (set hash ${run.task_set_hash}) · ` +
        `${DATA.stored_episodes} of ${DATA.planned_episodes} episodes stored · started ${run.created_at}` +
        ((run.config.mitigations || []).length
          ? ` · mitigation arms: ${run.config.mitigations.join(" | ")}` : "")),
      el("div", {class: "meta", id: "provenance"}, provenance(run.provenance || {})),
      el("div", {class: "note"}, DATA.note),
      ...Object.entries(DATA.retries || {}).map(([model, r]) => el("div", {class: "note"},
        `retries: ${model}: ${r.failed_requests} failed requests in ${r.episodes} episodes (` +
        Object.entries(r.reasons).map(([k, n]) => `${k} x${n}`).join(", ") +
        `), ${r.waited_s.toFixed(1)} s waited`)));
  }

  function scorecard() {
    const root = document.getElementById("scorecard");
    const trials = DATA.run.config.trials || 1;
    const head = el("tr", {}, el("th", {class: "name"}, "model"),
      DATA.metric_list.map((m) => el("th", {}, m.label)),
      trials > 1 ? el("th", {}, `pass^${trials}`) : null,
      el("th", {}, "scored"), el("th", {}, "infra errors"), el("th", {}, "caller errors"),
      el("th", {}, "tokens (in/out)"), el("th", {}, "cost"));
    const rows = DATA.models.map((m) => {
      const u = m.metrics.usage.assistant;
      const extra = ["caller", "judge"].map((r) => m.metrics.usage[r]).filter((x) => x && x.requests);
      const all = [u, ...extra];
      const unknown = all.some((x) => x.cost_usd == null);
      const known = all.reduce((s, x) => s + (x.known_cost_usd || 0), 0);
      return el("tr", {"data-model": m.model}, el("td", {class: "name"}, m.model),
        DATA.metric_list.map((k) => rateCell(m.metrics.rates[k.name])),
        trials > 1 ? rateCell(m.metrics.pass_hat_k[String(trials)]) : null,
        el("td", {}, m.metrics.scored), el("td", {}, m.metrics.infrastructure_errors),
        el("td", {}, m.metrics.caller_errors),
        el("td", {}, `${u.input_tokens}/${u.output_tokens}`),
        el("td", {}, unknown ? (known ? `unknown (≥ $${known.toFixed(4)})` : "unknown") : `$${known.toFixed(4)}`));
    });
    root.append(el("table", {id: "scorecard-table"}, el("thead", {}, head), el("tbody", {}, rows)),
      el("div", {class: "note"}, "Cells: rate over scored episodes, and below it the Wilson 95% interval in percentage points."));
  }

  function legend() {
    return el("div", {class: "legend"}, DATA.models.map((m, i) =>
      el("span", {}, el("span", {class: "swatch", style: `background:${color(i)}`}), m.model)));
  }

  // One bar chart: a bar per model with its 95% interval as a whisker.
  function metricChart(metric) {
    const W = 250, H = 170, left = 34, bottom = 20, top = 8;
    const n = DATA.models.length, slot = (W - left - 6) / Math.max(n, 1);
    const y = (v) => top + (H - top - bottom) * (1 - v);
    const g = svg("svg", {width: W, height: H, class: "metric-chart", "data-metric": metric.name,
                          role: "img", "aria-label": metric.label});
    for (const t of [0, 0.5, 1]) {
      g.append(svg("line", {class: "axis", x1: left, x2: W - 4, y1: y(t), y2: y(t)}),
        svg("text", {x: left - 4, y: y(t) + 4, "text-anchor": "end"}, `${t * 100}%`));
    }
    DATA.models.forEach((m, i) => {
      const r = m.metrics.rates[metric.name];
      const x = left + i * slot + slot * 0.15, w = slot * 0.7;
      if (!r || r.value == null) {
        g.append(svg("text", {x: x + w / 2, y: y(0) - 4, "text-anchor": "middle"}, "–"));
        return;
      }
      g.append(svg("rect", {class: "bar", x, y: y(r.value), width: w,
                            height: Math.max(y(0) - y(r.value), 0.5), fill: color(i)},
        svg("title", {}, `${m.model}: ${pct(r.value)} [${pct(r.low)}–${pct(r.high)}], n=${r.n}`)));
      const cx = x + w / 2;
      g.append(svg("line", {class: "whisker", x1: cx, x2: cx, y1: y(r.low), y2: y(r.high)}),
        svg("line", {class: "whisker", x1: cx - 4, x2: cx + 4, y1: y(r.low), y2: y(r.low)}),
        svg("line", {class: "whisker", x1: cx - 4, x2: cx + 4, y1: y(r.high), y2: y(r.high)}));
    });
    g.append(svg("text", {x: W / 2, y: H - 4, "text-anchor": "middle"},
      metric.higher_better ? "higher is better" : "lower is better"));
    return el("div", {class: "chart"}, el("h3", {}, metric.label), g);
  }

  // Failure classes: for each class, the share of each model's scored episodes that show it.
  function failureChart() {
    const classes = [...new Set(DATA.models.flatMap((m) => Object.keys(m.metrics.failure_classes)))].sort();
    const left = 170, W = 560, bar = 9;
    const rows = classes.map((c) => DATA.models.map((m, i) => [m, i]).filter(([m]) => m.metrics.failure_classes[c]));
    const H = rows.reduce((s, r) => s + r.length * (bar + 2) + 10, 0) + 10;
    const g = svg("svg", {width: W, height: Math.max(H, 30), id: "failure-chart", role: "img", "aria-label": "failure classes"});
    if (!classes.length) g.append(svg("text", {x: 10, y: 20}, "No failures."));
    let y0 = 6;
    classes.forEach((c, row) => {
      const height = rows[row].length * (bar + 2);
      g.append(svg("text", {x: left - 6, y: y0 + height / 2 + 4, "text-anchor": "end"}, c));
      rows[row].forEach(([m, i], j) => {
        const count = m.metrics.failure_classes[c];
        const share = m.metrics.scored ? count / m.metrics.scored : 0;
        const w = (W - left - 40) * share, y = y0 + j * (bar + 2);
        g.append(svg("rect", {class: "bar failure-bar", x: left, y, width: Math.max(w, 0.5),
                              height: bar, fill: color(i)},
          svg("title", {}, `${m.model}: ${count} of ${m.metrics.scored} scored episodes`)));
        g.append(svg("text", {x: left + w + 4, y: y + bar - 1}, count));
      });
      y0 += height + 10;
    });
    return el("div", {class: "chart"}, el("h3", {}, "Failure classes (share of scored episodes)"), g);
  }

  // Public vs held-out: pass rate per task set for each model; the gap is the headline.
  function gapChart() {
    const sets = [...new Set(DATA.models.flatMap((m) => Object.keys(m.breakdowns.task_set || {})))].sort();
    const W = 420, H = 190, left = 34, bottom = 34, top = 8;
    const y = (v) => top + (H - top - bottom) * (1 - v);
    const slot = (W - left) / Math.max(DATA.models.length, 1);
    const g = svg("svg", {width: W, height: H, id: "gap-chart", role: "img", "aria-label": "public vs held-out"});
    for (const t of [0, 0.5, 1]) g.append(svg("line", {class: "axis", x1: left, x2: W, y1: y(t), y2: y(t)}),
      svg("text", {x: left - 4, y: y(t) + 4, "text-anchor": "end"}, `${t * 100}%`));
    DATA.models.forEach((m, i) => {
      sets.forEach((s, j) => {
        const r = (m.breakdowns.task_set || {})[s];
        if (!r || r.rates.pass.value == null) return;
        const w = slot * 0.8 / sets.length, x = left + i * slot + slot * 0.1 + j * w;
        g.append(svg("rect", {class: "bar", x, y: y(r.rates.pass.value), width: w - 1,
                              height: Math.max(y(0) - y(r.rates.pass.value), 0.5), fill: color(i),
                              "fill-opacity": s === "public" ? 1 : 0.45},
          svg("title", {}, `${m.model} · ${s}: ${pct(r.rates.pass.value)} (n=${r.rates.pass.n})`)));
      });
    });
    g.append(svg("text", {x: left, y: H - 6},
      sets.length > 1 ? `solid: public, light: ${sets.filter((s) => s !== "public").join(", ")}`
                      : `one task set in this run (${sets[0] || "none"}); add --set heldout=DIR for the gap`));
    const gapped = DATA.models.filter((m) => m.heldout_gap != null);
    const gaps = gapped.map((m) => `${m.model}: ${(100 * m.heldout_gap).toFixed(1)} pts`);
    // The other set is named by its own label (heldout, or whatever --set LABEL=DIR gave).
    const other = gapped.length ? gapped[0].gap_against : "other sets";
    return el("div", {class: "chart"}, el("h3", {}, `Public vs ${other} pass rate`), g,
      gaps.length ? el("div", {class: "note"}, `public − ${other}: ` + gaps.join(" · ")) : null);
  }

  function charts() {
    const root = document.getElementById("charts");
    root.append(legend(), el("div", {class: "charts"}, DATA.metric_list.map(metricChart)),
      el("div", {class: "charts"}, failureChart(), gapChart()));
  }

  // Public, the other set and the gap on every metric, each with its 95% interval.
  function gapTables() {
    const points = (v) => `${v >= 0 ? "+" : ""}${(100 * v).toFixed(1)}`;
    return DATA.models.filter((m) => (m.set_gaps || []).length).map((m) =>
      el("div", {}, el("h3", {}, `${m.model}: public vs ${m.gap_against}, per metric`),
        el("table", {class: "breakdown", "data-gap": m.model},
          el("thead", {}, el("tr", {}, ["metric", "public", m.gap_against, "gap (pts, 95%)"].map(
            (h, i) => el("th", {class: i ? "" : "name"}, h)))),
          el("tbody", {}, m.set_gaps.map((r) => el("tr", {"data-metric": r.metric},
            el("td", {class: "name"}, r.label), rateCell(r.public), rateCell(r.other),
            el("td", {}, r.gap == null ? "–"
              : `${points(r.gap)} [${points(r.low)} to ${points(r.high)}]`))))),
        el("div", {class: "note"}, `gap = public − ${m.gap_against}; an interval spanning 0 cannot tell the sets apart`)));
  }

  function breakdowns() {
    const root = document.getElementById("breakdowns");
    root.append(...gapTables());
    for (const [dim, label] of [["business", "business"], ["caller_kind", "caller kind"],
                                ["tactic", "tactic"], ["task_set", "task set"],
                                ["sessions", "sessions"]]) {
      const groups = [...new Set(DATA.models.flatMap((m) => Object.keys(m.breakdowns[dim] || {})))].sort();
      root.append(el("h3", {}, `Pass rate by ${label}`),
        el("table", {class: "breakdown", "data-dimension": dim},
          el("thead", {}, el("tr", {}, el("th", {class: "name"}, "model"), groups.map((g) => el("th", {}, g)))),
          el("tbody", {}, DATA.models.map((m) => el("tr", {}, el("td", {class: "name"}, m.model),
            groups.map((g) => rateCell(((m.breakdowns[dim] || {})[g] || {rates: {}}).rates.pass)))))));
    }
  }

  function verdict(e) {
    if (e.status !== "scored") return el("span", {class: "badge error"}, e.status.replace("_", " "));
    return e.score.passed ? el("span", {class: "badge pass"}, "passed") : el("span", {class: "badge fail"}, "failed");
  }

  function transcript(e) {
    const trace = Object.fromEntries((e.result.trace || []).map((t) => [t.call_id, t]));
    return el("div", {class: "transcript"}, (e.result.transcript || []).map((u) =>
      el("div", {class: `turn ${u.speaker}`},
        el("div", {class: "who"}, `${u.speaker} · session ${u.session}`),
        u.text ? el("div", {}, u.text) : null,
        u.original_text != null
          ? el("div", {class: "original"}, `assistant's own words (replaced by a mitigation): ${u.original_text}`)
          : null,
        (u.tool_calls || []).map((c) => {
          const t = trace[c.id] || {};
          return el("div", {class: `call ${t.outcome || ""}`},
            `→ ${c.name}(${c.arguments})  [${t.outcome || "?"}${t.effect ? ", " + t.effect : ""}]\n← ${json(t.result)}`);
        }))));
  }

  function ledger(e) {
    const rows = (e.result.ledger || []).map((x) => el("tr", {},
      el("td", {}, x.seq), el("td", {}, x.session), el("td", {}, x.time), el("td", {class: "name"}, x.tool),
      el("td", {}, x.outcome), el("td", {}, x.effect), el("td", {class: "name"}, el("pre", {}, json(x.arguments)))));
    if (!rows.length) return el("p", {}, "No side-effecting call.");
    return el("table", {class: "ledger"}, el("thead", {}, el("tr", {},
      ["#", "session", "time", "tool", "outcome", "effect", "arguments"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows));
  }

  function diffTable(e) {
    if (!e.diff || !e.diff.length) return el("p", {}, "The state did not change.");
    return el("table", {class: "diff"}, el("thead", {}, el("tr", {},
      ["op", "record", "changes"].map((h) => el("th", {}, h)))),
      el("tbody", {}, e.diff.map((d) => el("tr", {}, el("td", {}, d.op), el("td", {class: "name"}, `${d.table}/${d.id}`),
        el("td", {class: "name"}, el("pre", {}, d.op === "update"
          ? Object.entries(d.changes).map(([k, v]) => `${k}: ${json(v.before)} → ${json(v.after)}`).join("\n")
          : json(d.after || d.before)))))));
  }

  function scoreBlock(e) {
    if (!e.score) return el("p", {}, `Not scored: ${e.status}. ${e.error || ""}`);
    const s = e.score;
    const facts = `completed=${s.completed} · escalation=${s.escalation} · disclosed=${s.disclosed} · ` +
      `confident_partial=${s.confident_partial} · collateral=${s.collateral.length} · ` +
      `violations=${s.violations.length} · unrecoverable=${s.unrecoverable.length}`;
    const reasons = s.reasons.length ? s.reasons.map((r) => el("li", {}, r)) : [el("li", {class: "none"}, "Nothing wrong: every check passed.")];
    const claims = (s.claims || []).map((c) => el("tr", {}, el("td", {class: "name"}, c.kind),
      el("td", {}, c.done ? "done" : "not done"), el("td", {}, c.true ? "true" : "FALSE"),
      el("td", {class: "name"}, c.text || "")));
    return el("div", {class: "score"}, el("p", {}, facts), el("ul", {class: "reasons"}, reasons),
      claims.length ? el("table", {class: "claims"}, el("thead", {}, el("tr", {},
        ["claim", "said", "ledger agrees", "words"].map((h) => el("th", {}, h)))), el("tbody", {}, claims)) : null,
      e.status !== "scored" ? el("p", {}, `Status ${e.status}: ${e.error || ""} (excluded from rates)`) : null);
  }

  function episodeBody(e) {
    return el("div", {class: "episode-body"},
      el("div", {class: "meta"}, `episode ${e.id} · ${e.task_set}:${e.task_id} · ${e.business} · ${e.coverage}` +
        ` · trial ${e.trial} · seed ${e.seed} · task version ${e.task_version}` +
        ` · tokens ${e.usage.assistant.input_tokens}/${e.usage.assistant.output_tokens}` +
        ` · cost ${e.cost_usd == null ? "unknown" : "$" + e.cost_usd.toFixed(4)}`),
      el("h4", {}, "Why the scorer said so"), scoreBlock(e),
      el("div", {class: "cols"},
        el("div", {}, el("h4", {}, "Transcript and tool calls"), transcript(e)),
        el("div", {}, el("h4", {}, "Ledger"), ledger(e), el("h4", {}, "State diff"), diffTable(e))));
  }

  function episodes() {
    const root = document.getElementById("episodes");
    const list = el("div", {id: "episode-list"});
    const model = el("select", {id: "filter-model"}, el("option", {value: ""}, "all models"),
      DATA.models.map((m) => el("option", {value: m.model}, m.model)));
    const status = el("select", {id: "filter-status"}, ["all", "passed", "failed", "errors"].map((s) => el("option", {value: s}, s)));
    const search = el("input", {id: "filter-text", type: "search", placeholder: "task id, title, business…"});
    const count = el("span", {class: "meta"});
    function apply() {
      let shown = 0;
      for (const node of list.children) {
        const e = DATA.episodes[Number(node.dataset.index)];
        const text = `${e.task_id} ${e.title} ${e.business} ${e.coverage}`.toLowerCase();
        const okStatus = status.value === "all" ||
          (status.value === "errors" ? e.status !== "scored"
            : e.status === "scored" && e.score.passed === (status.value === "passed"));
        const visible = (!model.value || e.model === model.value) && okStatus &&
          text.includes(search.value.toLowerCase());
        node.classList.toggle("hidden", !visible);
        shown += visible;
      }
      count.textContent = `${shown} of ${DATA.episodes.length} episodes` +
        (DATA.episodes_omitted ? ` in this file` : "");
    }
    for (const control of [model, status, search]) control.addEventListener("input", apply);
    DATA.episodes.forEach((e, i) => {
      const d = el("details", {class: "episode", id: e.id, "data-index": i, "data-model": e.model},
        el("summary", {}, verdict(e), el("b", {}, e.task_id), el("span", {}, e.title || ""),
          el("span", {class: "meta"}, `${e.model} · trial ${e.trial}`)));
      d.addEventListener("toggle", () => {
        if (d.open && !d.dataset.rendered) { d.append(episodeBody(e)); d.dataset.rendered = "1"; }
      });
      list.append(d);
    });
    root.append(el("div", {class: "filters"}, model, status, search, count), list);
    if (DATA.episodes_omitted) {
      // The file is bounded (it must open at any run size): the rest stay in the store.
      root.append(el("p", {id: "episodes-omitted", class: "note"},
        `${DATA.episodes_omitted} more episodes are not in this file (failing episodes come ` +
        `first); the results store holds every one: \`opsbench show ID\`, \`opsbench export\` or ` +
        `\`opsbench report ${DATA.run.id} --json\`.`));
    }
    apply();
    // ?episode=ID opens one episode with the list filtered to its model (for screenshots and
    // links); #ID opens it and scrolls there.
    const query = new URLSearchParams(location.search).get("episode");
    const wanted = query || decodeURIComponent(location.hash.slice(1));
    const target = wanted && document.getElementById(wanted);
    if (target && target.tagName === "DETAILS") {
      const e = DATA.episodes[Number(target.dataset.index)];
      if (query) { model.value = e.model; apply(); }
      target.open = true;
      target.append(episodeBody(e));
      target.dataset.rendered = "1";
      if (!query) target.scrollIntoView();
    }
  }

  try {
    header(); scorecard(); charts(); episodes(); breakdowns();
    document.body.dataset.rendered = "ok";
  } catch (err) {
    document.body.dataset.rendered = "error";
    document.body.prepend(el("pre", {id: "render-error"}, String(err && err.stack || err)));
  }
})();
