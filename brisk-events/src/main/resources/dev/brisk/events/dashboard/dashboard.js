// The dashboard's script: polls dashboard/data once a second, shows the figures and draws the last
// two minutes of each series as an SVG line. No library: the charts are a polyline scaled to the
// series' own maximum.
(function () {
  'use strict';
  var EVERY_MS = 1000;
  var KEEP = 120;
  var SVG = 'http://www.w3.org/2000/svg';
  var series = { rps: [], p99: [], events: [], provider: [], lag: [] };
  var previous = null;

  function el(id) { return document.getElementById(id); }

  function show(id, text, bad) {
    var e = el(id);
    if (e.textContent !== text) { e.textContent = text; }
    if (bad !== undefined) { e.classList.toggle('bad', bad); }
  }

  function number(n) { return n === null || n === undefined ? '-' : Math.round(n).toLocaleString('en-US'); }

  function ms(n) { return n === null || n === undefined || n < 0 ? '-' : (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')) + ' ms'; }

  function push(name, value) {
    var s = series[name];
    s.push(value === null || value === undefined || value < 0 ? null : value);
    if (s.length > KEEP) { s.shift(); }
  }

  // p99 of the responses between two samples of the engine's latency histogram (per-bucket counts):
  // the upper bound of the bucket holding the 99th percentile; null when none were answered.
  function p99(bounds, before, after) {
    var window = [], total = 0, i;
    for (i = 0; i < after.length; i++) {
      window[i] = after[i] - (before ? before[i] : 0);
      total += window[i];
    }
    if (total <= 0) { return null; }
    var rank = Math.ceil(total * 0.99), seen = 0;
    for (i = 0; i < window.length; i++) {
      seen += window[i];
      if (seen >= rank) { return i < bounds.length ? bounds[i] : bounds[bounds.length - 1] * 2; }
    }
    return null;
  }

  function draw(id, values) {
    var svg = el(id), top = 12, bottom = 80, left = 4, right = 316;
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var max = 0, i;
    for (i = 0; i < values.length; i++) { if (values[i] !== null && values[i] > max) { max = values[i]; } }
    var axis = document.createElementNS(SVG, 'line');
    axis.setAttribute('x1', left); axis.setAttribute('x2', right);
    axis.setAttribute('y1', bottom); axis.setAttribute('y2', bottom);
    axis.setAttribute('class', 'axis');
    svg.appendChild(axis);
    var label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', left); label.setAttribute('y', 10);
    label.textContent = 'max ' + (max < 10 ? max.toFixed(1) : Math.round(max).toLocaleString('en-US'));
    svg.appendChild(label);
    var points = [], step = (right - left) / (KEEP - 1), offset = KEEP - values.length;
    for (i = 0; i < values.length; i++) {
      if (values[i] === null) { continue; }
      var x = left + (offset + i) * step;
      var y = max > 0 ? bottom - (values[i] / max) * (bottom - top) : bottom;
      points.push(x.toFixed(1) + ',' + y.toFixed(1));
    }
    if (points.length > 0) {
      var line = document.createElementNS(SVG, 'polyline');
      line.setAttribute('points', points.join(' '));
      line.setAttribute('class', 'line');
      svg.appendChild(line);
    }
    svg.setAttribute('data-points', String(points.length));
  }

  function update(d) {
    show('status', 'live');
    el('status').className = 'tag good';
    show('events', number(d.events_stored));
    show('sequence', number(d.sequence));
    show('polls-ok', number(d.polls.ok));
    show('polls-failed', number(d.polls.failed), d.polls.failed > 0);
    show('backoff', d.polls.backing_off ? 'yes (' + d.polls.failures_in_a_row + ' failed)' : 'no', d.polls.backing_off);
    show('last-poll', 'last: ' + d.polls.last_result + (d.polls.last_reason ? ' (' + d.polls.last_reason + ')' : ''));
    show('provider', ms(d.polls.provider_latency_ms));
    if (d.cluster) {
      show('instance', d.cluster.instance);
      show('role', d.cluster.role);
      el('role').className = 'tag role ' + d.cluster.role;
      show('lag', ms(d.cluster.lag_ms));
      show('max-lag', 'max ' + ms(d.cluster.max_lag_ms));
      show('database', 'database ' + d.cluster.database + ' at ' + number(d.cluster.database_sequence), d.cluster.database !== 'up');
    } else {
      show('role', 'single');
      show('lag', 'n/a');
      show('max-lag', 'not in a cluster');
      show('database', 'single instance');
    }
    var rps = null, tail = null;
    if (d.requests) {
      if (previous && previous.requests && d.time_ms > previous.time_ms) {
        rps = (d.requests.total - previous.requests.total) * 1000 / (d.time_ms - previous.time_ms);
        tail = p99(d.requests.latency_bounds_ms, previous.requests.latency_counts, d.requests.latency_counts);
      }
      show('rps', rps === null ? '-' : (rps < 10 ? rps.toFixed(1) : number(rps)));
      show('p99', tail === null ? '-' : '\u2264 ' + ms(tail));
    }
    push('rps', rps);
    push('p99', tail);
    push('events', d.events_stored);
    push('provider', d.polls.provider_latency_ms);
    push('lag', d.cluster ? d.cluster.lag_ms : null);
    draw('chart-rps', series.rps);
    draw('chart-p99', series.p99);
    draw('chart-events', series.events);
    draw('chart-provider', series.provider);
    draw('chart-lag', series.lag);
    show('updated', new Date(d.time_ms).toISOString());
    previous = d;
  }

  function unreachable(why) {
    show('status', 'unreachable: ' + why);
    el('status').className = 'tag bad';
  }

  // polling, where a browser has no EventSource
  function tick() {
    fetch('dashboard/data', { cache: 'no-store' })
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
      .then(update)
      .catch(function (e) { unreachable(e.message); })
      .then(function () { setTimeout(tick, EVERY_MS); });
  }

  if (window.EventSource) {
    // the server pushes the figures once a second; the browser reconnects by itself after an error
    document.body.setAttribute('data-feed', 'sse');
    var source = new EventSource('dashboard/stream');
    source.onmessage = function (e) { update(JSON.parse(e.data)); };
    source.onerror = function () { unreachable('reconnecting'); };
  } else {
    document.body.setAttribute('data-feed', 'polling');
    tick();
  }
}());
