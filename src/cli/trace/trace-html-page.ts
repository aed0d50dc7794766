// The browser side of `mcpwire trace html` (trace-html.ts): the page's one inline style and one
// inline script. The script reads the diagram from the page's JSON data block and builds the
// sequence diagram with createElement and textContent only — no trace text ever becomes markup —
// under a Content-Security-Policy that allows these two blocks by their hash and nothing else.
// Plain JavaScript for any current browser; no `${` or backtick inside (String.raw templates).

/** The page's stylesheet. */
export const PAGE_STYLE = String.raw`
:root { --time: 118px; --lane: 160px; --send: #1f5fbf; --receive: #2e7d32; --server-request: #8e24aa; --error: #c62828; --mark: #6d4c41; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.35 system-ui, sans-serif; color: #1d1d1f; background: #fff; display: flex; flex-direction: column; height: 100vh; }
header { padding: 8px 14px; border-bottom: 1px solid #ddd; display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: baseline; }
header h1 { font-size: 15px; margin: 0; font-weight: 600; overflow-wrap: anywhere; }
header .summary { color: #555; }
header input { font: inherit; padding: 2px 6px; width: 220px; }
.legend span { margin-right: 10px; white-space: nowrap; }
.legend i { display: inline-block; width: 22px; height: 0; vertical-align: middle; margin-right: 4px; border-top: 2px solid; }
.legend .l-request { border-color: var(--send); }
.legend .l-answer { border-color: var(--receive); border-top-style: dashed; }
.legend .l-notification { border-color: #777; border-top-style: dotted; }
.legend .l-server-request { border-color: var(--server-request); }
.legend .l-error { border-color: var(--error); border-top-style: dashed; }
details.problems { flex-basis: 100%; color: #8a4b00; }
main { display: flex; flex: 1; min-height: 0; }
#diagram { flex: 1; overflow: auto; position: relative; }
#panel { width: 38%; min-width: 320px; border-left: 1px solid #ddd; overflow: auto; padding: 10px 14px; background: #fafafa; }
#panel h2 { font-size: 14px; margin: 0 0 8px; overflow-wrap: anywhere; }
#panel dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0 0 10px; }
#panel dt { color: #666; }
#panel dd { margin: 0; overflow-wrap: anywhere; }
#panel pre { background: #fff; border: 1px solid #ddd; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, monospace; }
#panel button { font: inherit; padding: 0 6px; margin: 0 4px 2px 0; cursor: pointer; }
#panel h3 { font-size: 13px; margin: 12px 0 4px; }
#panel table { border-collapse: collapse; margin-bottom: 6px; }
#panel td { border: 1px solid #e2e2e2; padding: 1px 6px; font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.hint { color: #777; }
.inner { min-width: calc(var(--time) + var(--lanes) * var(--lane)); position: relative; }
.lanes { position: sticky; top: 0; z-index: 3; display: flex; background: #fff; border-bottom: 1px solid #ccc; }
.lanes .time, .row .time { width: var(--time); flex: none; padding: 0 8px; text-align: right; color: #666; font: 11px/1.2 ui-monospace, monospace; }
.lanes .time { padding-top: 8px; }
.lanes .track { flex: 1; position: relative; height: 34px; }
.lane-name { position: absolute; top: 6px; transform: translateX(-50%); max-width: var(--lane); padding: 2px 8px; border: 1px solid #999; border-radius: 4px;
  background: #f3f3f3; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.lane-line { position: absolute; top: 0; bottom: 0; width: 0; border-left: 1px dashed #c8c8c8; pointer-events: none; }
.row { display: flex; position: relative; height: 34px; content-visibility: auto; contain-intrinsic-size: auto 34px; }
.row.gap { height: 50px; contain-intrinsic-size: auto 50px; }
.row.has-http { height: 46px; contain-intrinsic-size: auto 46px; }
.row.gap.has-http { height: 62px; contain-intrinsic-size: auto 62px; }
.row.has-http .arrow { bottom: 22px; }
.row .time { padding-top: 12px; }
.row.gap .time { padding-top: 4px; }
.row .time .delta { display: block; color: #aa6c00; border-bottom: 1px dashed #e0b060; margin-bottom: 14px; }
.row.hidden { display: none; }
.row .track { flex: 1; position: relative; }
.arrow { position: absolute; bottom: 12px; height: 16px; border-bottom: 2px solid var(--send); cursor: pointer; color: var(--send); }
.arrow.receive { border-color: var(--receive); color: var(--receive); }
.arrow.answer { border-bottom-style: dashed; }
.arrow.notification { border-bottom-style: dotted; border-color: #777; color: #555; }
.arrow.server-request { border-color: var(--server-request); color: var(--server-request); }
.arrow.error { border-color: var(--error); color: var(--error); }
.arrow::after { content: ""; position: absolute; bottom: -6px; border: 5px solid transparent; }
.arrow.to-right::after { right: -2px; border-left: 8px solid currentColor; border-right: 0; }
.arrow.to-left::after { left: -2px; border-right: 8px solid currentColor; border-left: 0; }
.arrow .label { position: absolute; left: 12px; bottom: 1px; width: max-content; min-width: calc(100% - 24px); max-width: max(calc(100% - 24px), calc(var(--lane) * 2.2));
  text-align: center; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.arrow .http { position: absolute; left: 12px; right: 12px; top: 20px; text-align: center; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
  font: 10px/1.1 ui-monospace, monospace; color: #7a5a00; }
.mark { position: absolute; bottom: 8px; transform: translateX(-12px); max-width: calc(var(--lane) * 1.8); padding: 1px 8px; border-radius: 9px; cursor: pointer;
  background: #efe7e3; border: 1px solid #c9b8b0; color: var(--mark); font-size: 11px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.mark.last-lane { transform: translateX(12px); }
.mark.lifecycle { background: #e6eef9; border-color: #a9bfe0; color: #23477a; }
.mark.stderr { background: #f5f5f5; border-color: #ddd; color: #666; font-family: ui-monospace, monospace; }
.mark.http { background: #fff6dc; border-color: #e3c56b; color: #7a5a00; }
.mark.failed { background: #fdecea; border-color: #e6a19b; color: var(--error); }
.row.selected { background: #fff3c4; }
.row.related { background: #eef5ff; }
`;

/** The page's script: reads #trace-data, draws the lanes and rows, answers clicks, keys and the filter. */
export const PAGE_SCRIPT = String.raw`
"use strict";
(function () {
  var started = performance.now();
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  // Characters that reorder or hide text (controls, bidi, separators) shown as escapes.
  var UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  function vis(text) {
    return String(text).replace(UNSAFE, function (c) { return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"); });
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = vis(text);
    return node;
  }
  function timeText(t) {
    return t < 1000 ? t.toFixed(1) + " ms" : (t / 1000).toFixed(3) + " s";
  }
  var lanes = data.lanes;
  var rows = data.rows;
  var events = data.events;
  function center(lane) { return (lane + 0.5) / lanes.length; }
  function trackLeft(fraction) { return "calc(var(--time) + (100% - var(--time)) * " + fraction + ")"; }

  document.title = vis("mcpwire trace: " + data.title);
  var header = el("header");
  header.appendChild(el("h1", "", data.title));
  var messages = rows.filter(function (row) { return row.kind === "message"; }).length;
  header.appendChild(el("span", "summary", messages + " messages, " + (rows.length - messages) + " other events, " + (lanes.length - 1) + " server" +
    (lanes.length === 2 ? "" : "s") + ", " + timeText(rows.reduce(function (most, row) { return Math.max(most, row.t); }, 0))));
  var filter = el("input");
  filter.type = "search";
  filter.placeholder = "filter: method, server, text";
  header.appendChild(filter);
  var legend = el("span", "legend");
  [["request", "request"], ["answer", "answer"], ["error", "error answer"], ["notification", "notification"], ["server-request", "server → client request"]]
    .forEach(function (entry) {
      var item = el("span");
      item.appendChild(el("i", "l-" + entry[0]));
      item.appendChild(document.createTextNode(entry[1]));
      legend.appendChild(item);
    });
  header.appendChild(legend);
  if (data.problems.length) {
    var problems = el("details", "problems");
    problems.appendChild(el("summary", "", data.problems.length + " line(s) of the file skipped: not trace events"));
    var list = el("ul");
    data.problems.slice(0, 200).forEach(function (problem) { list.appendChild(el("li", "", "line " + problem.line + ": " + problem.message)); });
    problems.appendChild(list);
    header.appendChild(problems);
  }
  document.body.appendChild(header);

  var main = el("main");
  var diagram = el("div");
  diagram.id = "diagram";
  var inner = el("div", "inner");
  inner.style.setProperty("--lanes", String(lanes.length));
  var head = el("div", "lanes");
  head.appendChild(el("div", "time", "time"));
  var headTrack = el("div", "track");
  lanes.forEach(function (name, lane) {
    var label = el("div", "lane-name", name);
    label.title = vis(name);
    label.style.left = (center(lane) * 100) + "%";
    headTrack.appendChild(label);
  });
  head.appendChild(headTrack);
  inner.appendChild(head);
  var body = el("div");
  body.id = "rows";
  body.style.position = "relative";
  lanes.forEach(function (_, lane) {
    var line = el("div", "lane-line");
    line.style.left = trackLeft(center(lane));
    body.appendChild(line);
  });

  var rowEls = new Array(rows.length);
  var related = new Array(rows.length);
  rows.forEach(function (row, index) {
    if (row.pair !== undefined) (related[row.pair] = related[row.pair] || []).push(index);
  });
  var previous = rows.length ? rows[0].t : 0;
  var fragment = document.createDocumentFragment();
  rows.forEach(function (row, index) {
    var rowEl = el("div", "row");
    var time = el("div", "time");
    var delta = row.t - previous;
    previous = row.t;
    if (delta >= 100) {
      rowEl.classList.add("gap");
      time.appendChild(el("span", "delta", "+" + timeText(delta)));
    }
    time.appendChild(document.createTextNode(timeText(row.t)));
    rowEl.appendChild(time);
    var track = el("div", "track");
    if (row.kind === "message") {
      var from = row.dir === "send" ? 0 : row.lane;
      var to = row.dir === "send" ? row.lane : 0;
      var arrow = el("div", "arrow " + row.dir + " " + row.role + (to > from ? " to-right" : " to-left"));
      arrow.setAttribute("data-method", row.method);
      arrow.setAttribute("data-dir", row.dir);
      arrow.setAttribute("data-server", lanes[row.lane]);
      arrow.style.left = (center(Math.min(from, to)) * 100) + "%";
      arrow.style.width = (Math.abs(center(to) - center(from)) * 100) + "%";
      arrow.title = vis(row.label + (row.http ? "\n" + row.http : ""));
      arrow.appendChild(el("span", "label", row.label));
      if (row.http) {
        arrow.appendChild(el("span", "http", row.http));
        rowEl.classList.add("has-http");
      }
      track.appendChild(arrow);
    } else {
      // A mark starts at its lane and runs right; on the last lane it ends there and runs left.
      var last = row.lane === lanes.length - 1 && lanes.length > 1;
      var mark = el("div", "mark " + row.role + (last ? " last-lane" : ""), row.label);
      mark.title = vis(row.label);
      if (last) mark.style.right = ((1 - center(row.lane)) * 100) + "%";
      else mark.style.left = (center(row.lane) * 100) + "%";
      track.appendChild(mark);
    }
    rowEl.appendChild(track);
    rowEl.addEventListener("click", function () { select(index, false); });
    rowEls[index] = rowEl;
    fragment.appendChild(rowEl);
  });
  body.appendChild(fragment);
  inner.appendChild(body);
  diagram.appendChild(inner);
  main.appendChild(diagram);
  var panel = el("aside");
  panel.id = "panel";
  panel.appendChild(el("p", "hint", "Click an arrow or a mark to see its JSON here. Keys: ↑ ↓ (or k j) move, Esc clears; #N at the end of the address selects row N."));
  main.appendChild(panel);
  document.body.appendChild(main);

  var selected = -1;
  var lit = [];
  function clear() {
    if (selected >= 0) rowEls[selected].classList.remove("selected");
    lit.forEach(function (index) { rowEls[index].classList.remove("related"); });
    lit = [];
    selected = -1;
  }
  function jumpButton(index, text) {
    var button = el("button", "", text);
    button.type = "button";
    button.addEventListener("click", function (event) { event.stopPropagation(); select(index, true); });
    return button;
  }
  function field(list, name, value) {
    if (value === undefined || value === null || value === "") return;
    list.appendChild(el("dt", "", name));
    var dd = el("dd");
    if (typeof value === "string" || typeof value === "number") dd.textContent = vis(value);
    else dd.appendChild(value);
    list.appendChild(dd);
  }
  function headerTable(title, headers) {
    var names = Object.keys(headers || {});
    if (!names.length) return undefined;
    var table = el("table");
    var caption = el("caption", "", title);
    table.appendChild(caption);
    names.forEach(function (name) {
      var tr = el("tr");
      tr.appendChild(el("td", "", name));
      tr.appendChild(el("td", "", headers[name]));
      table.appendChild(tr);
    });
    return table;
  }
  function show(index) {
    var row = rows[index];
    var event = events[row.event];
    panel.textContent = "";
    panel.appendChild(el("h2", "", row.label));
    var list = el("dl");
    field(list, "time", timeText(event.t) + " (" + event.wall + ")");
    field(list, "server", event.server + " over " + event.transport);
    field(list, "kind", event.kind + (event.phase ? " " + event.phase : "") + (event.dir ? ", " + event.dir : ""));
    field(list, "method", event.method);
    if (event.id !== undefined) field(list, "id", JSON.stringify(event.id));
    if (event.latencyMs !== undefined) field(list, "latency", event.latencyMs + " ms");
    if (event.size !== undefined) field(list, "size", event.size + " characters");
    if (event.taskId !== undefined) field(list, "task", event.taskId);
    if (row.pair !== undefined) field(list, row.role === "notification" ? "belongs to" : "answers", jumpButton(row.pair, rows[row.pair].label));
    if (related[index]) {
      var buttons = el("span");
      related[index].slice(0, 50).forEach(function (other) { buttons.appendChild(jumpButton(other, rows[other].label)); });
      if (related[index].length > 50) buttons.appendChild(el("span", "", "… " + related[index].length + " in all"));
      field(list, "followed by", buttons);
    }
    panel.appendChild(list);
    (row.httpEvents || []).forEach(function (eventIndex) {
      var http = events[eventIndex];
      var title = http.phase === "response" ? http.method + " " + http.url + " → " + http.status + (http.reconnect ? " (reconnect)" : "")
        : http.phase === "body" ? http.status + " body of " + http.method + " " + http.url
        : http.phase === "failed" ? http.method + " " + http.url + " failed: " + http.error
        : "SSE event id " + http.eventId + " (" + http.event + ")";
      panel.appendChild(el("h3", "", "HTTP at " + timeText(http.t) + ": " + title));
      var sent = headerTable("sent", http.requestHeaders);
      if (sent) panel.appendChild(sent);
      var got = headerTable("received", http.responseHeaders);
      if (got) panel.appendChild(got);
      if (http.phase === "body") panel.appendChild(el("pre", "", http.body));
    });
    panel.appendChild(el("h3", "", event.kind === "message" ? "message" : "event"));
    panel.appendChild(el("pre", "", JSON.stringify(event.kind === "message" ? event.message : event, null, 2)));
  }
  function select(index, scroll) {
    clear();
    if (index < 0 || index >= rows.length) return;
    selected = index;
    rowEls[index].classList.add("selected");
    var row = rows[index];
    lit = (related[index] || []).slice();
    if (row.pair !== undefined) lit.push(row.pair);
    lit.forEach(function (other) { rowEls[other].classList.add("related"); });
    if (scroll) rowEls[index].scrollIntoView({ block: "center" });
    show(index);
    try {
      history.replaceState(null, "", "#" + index);
    } catch (_) {
      // a page opened where its address cannot change: the selection is not kept in it
    }
  }
  function step(by) {
    var index = selected;
    do index += by; while (index >= 0 && index < rows.length && rowEls[index].classList.contains("hidden"));
    if (index >= 0 && index < rows.length) select(index, true);
  }
  document.addEventListener("keydown", function (event) {
    if (event.target === filter) return;
    if (event.key === "ArrowDown" || event.key === "j") { step(1); event.preventDefault(); }
    else if (event.key === "ArrowUp" || event.key === "k") { step(-1); event.preventDefault(); }
    else if (event.key === "Escape") { clear(); }
  });
  var searchText;
  var timer;
  filter.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (!searchText) searchText = rows.map(function (row) { return (lanes[row.lane] + " " + row.label + " " + (row.http || "")).toLowerCase(); });
      var query = filter.value.trim().toLowerCase();
      rowEls.forEach(function (rowEl, index) { rowEl.classList.toggle("hidden", query !== "" && searchText[index].indexOf(query) === -1); });
    }, 150);
  });
  // #N in the address selects row N (a link to one message of the trace).
  var wanted = /^#(\d+)$/.exec(location.hash);
  if (wanted) select(Number(wanted[1]), true);
  document.body.setAttribute("data-render-ms", (performance.now() - started).toFixed(1));
  document.body.setAttribute("data-ready-ms", performance.now().toFixed(1));
})();
`;
