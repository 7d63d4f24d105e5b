// Skipper dashboard: draws frames of a live run (server-sent events from /api/stream) or
// of a replay (/api/frame?t=...), and sends the controls to /api/control.
// Served by the skipper binary; no build step.
'use strict';

const params = new URLSearchParams(location.search);
const token = params.get('token');
const COLORS = ['#1F77B4', '#FF7F0E', '#2CA02C', '#D62728', '#9467BD', '#8C564B', '#E377C2', '#BCBD22', '#17BECF'];
// trails of the whole run, decimated as the server keeps them (dashboard/trail.rs): a
// point when the robot moved a step; when full, every other point goes and the step doubles
const TRAIL_STEP = 0.05;
const TRAIL_MAX = 3000;

// Everything the page knows; window.skipper lets a test look inside.
const S = {
  info: null,
  frame: null,
  frames: 0,
  trails: [],
  trailSteps: [],
  selected: 0,
  view: { cx: 0, cy: 0, scale: 20 },
  dirty: true,
  events: [],
  ended: null,
  paused: false,
  estop: false,
  playing: false,
  t: 0,
  inflight: false,
  lastWall: null,
  lastPanel: 0,
  error: null,
  places: [],
};
window.skipper = S;

function api(path) {
  if (!token) return path;
  return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
}

async function getJSON(path) {
  const r = await fetch(api(path), { cache: 'no-store' });
  if (!r.ok) throw new Error(path + ': ' + r.status + ' ' + (await r.text()));
  return r.json();
}

async function control(cmd) {
  const r = await fetch(api('/api/control'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(cmd),
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { showError(body.error || ('HTTP ' + r.status)); return null; }
  if ('paused' in body) setPaused(body.paused);
  if ('estop' in body) setEstop(body.estop);
  return body;
}

function showError(msg) {
  S.error = msg;
  const b = document.getElementById('banner');
  b.textContent = msg; b.hidden = false; b.className = '';
  setTimeout(() => { if (S.error === msg) { S.error = null; updateBanner(); } }, 4000);
}

const $ = (id) => document.getElementById(id);
const canvas = $('map');
const ctx = canvas.getContext('2d');

// ---- coordinates ----------------------------------------------------------------------

function size() {
  const r = canvas.getBoundingClientRect();
  return { w: r.width, h: r.height };
}
function toScreen(x, y) {
  const { w, h } = size();
  return [(x - S.view.cx) * S.view.scale + w / 2, h / 2 - (y - S.view.cy) * S.view.scale];
}
function toWorld(sx, sy) {
  const { w, h } = size();
  return [(sx - w / 2) / S.view.scale + S.view.cx, S.view.cy - (sy - h / 2) / S.view.scale];
}
// page coordinates of a world point (for tests that click the map)
S.worldToPage = (x, y) => {
  const [sx, sy] = toScreen(x, y);
  const r = canvas.getBoundingClientRect();
  return { x: r.left + sx, y: r.top + sy };
};

function worldBounds() {
  const w = S.info && S.info.world;
  const b = w && Array.isArray(w.bounds) ? w.bounds : null;
  return b && b[2] > b[0] && b[3] > b[1] ? b.slice() : null;
}

// Fit the world's bounds; a world without bounds (the sea) fits the robots and their
// trails, and keeps fitting them as they go until the view is moved by hand.
function fit() {
  let b = worldBounds();
  if (!b) {
    const pts = [];
    for (const r of (S.frame && S.frame.robots) || []) {
      pts.push([r.x, r.y]);
      // a mission's places (waypoints, circle centres)
      const st = window.SkipperBehavior.engineState(r.state);
      for (const it of (st && Array.isArray(st.items) ? st.items : [])) {
        const p = it && it.place;
        if (p && typeof p.x === 'number' && typeof p.y === 'number') pts.push([p.x, p.y]);
      }
    }
    for (const tr of S.trails) for (const p of tr || []) pts.push(p);
    if (pts.length === 0) b = [-5, -5, 5, 5];
    else {
      b = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [x, y] of pts) { b[0] = Math.min(b[0], x); b[1] = Math.min(b[1], y); b[2] = Math.max(b[2], x); b[3] = Math.max(b[3], y); }
      const m = Math.max(5, 0.15 * Math.max(b[2] - b[0], b[3] - b[1]));
      b = [b[0] - m, b[1] - m, b[2] + m, b[3] + m];
    }
    S.autoFit = S.autoFit !== false;
  }
  const { w: cw, h: ch } = size();
  S.view.cx = (b[0] + b[2]) / 2;
  S.view.cy = (b[1] + b[3]) / 2;
  S.view.scale = Math.max(1e-3, Math.min(cw / (b[2] - b[0]), ch / (b[3] - b[1])) * 0.94);
  S.dirty = true;
}

function resize() {
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  S.dirty = true;
}

// ---- drawing --------------------------------------------------------------------------

function color(i) { return COLORS[i % COLORS.length]; }

function line(x1, y1, x2, y2) {
  const [a, b] = toScreen(x1, y1);
  const [c, d] = toScreen(x2, y2);
  ctx.moveTo(a, b); ctx.lineTo(c, d);
}

function drawWorld() {
  const w = (S.info && S.info.world) || {};
  if (Array.isArray(w.points) && w.points.length) {
    ctx.fillStyle = '#999';
    for (const p of w.points) { const [x, y] = toScreen(p[0], p[1]); ctx.fillRect(x - 1, y - 1, 2, 2); }
  }
  if (Array.isArray(w.coastline)) {
    ctx.strokeStyle = '#4682B4'; ctx.lineWidth = 2; ctx.beginPath();
    const lines = w.coastline.length && typeof w.coastline[0][0] === 'number' ? [w.coastline] : w.coastline;
    for (const l of lines) l.forEach((p, k) => { const [x, y] = toScreen(p[0] ?? p.x, p[1] ?? p.y); k ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    ctx.stroke();
  }
  if (Array.isArray(w.walls)) {
    ctx.strokeStyle = '#303030'; ctx.lineWidth = 2; ctx.beginPath();
    for (const s of w.walls) line(s[0], s[1], s[2], s[3]);
    ctx.stroke();
  }
  ctx.font = '11px sans-serif';
  for (const g of w.goals || []) {
    const [x, y] = toScreen(g.x, g.y);
    ctx.strokeStyle = '#006400'; ctx.lineWidth = 2; ctx.beginPath();
    ctx.moveTo(x - 5, y - 5); ctx.lineTo(x + 5, y + 5); ctx.moveTo(x - 5, y + 5); ctx.lineTo(x + 5, y - 5); ctx.stroke();
    ctx.fillStyle = '#006400'; ctx.fillText(g.name || '', x + 7, y - 4);
  }
  for (const l of w.landmarks || []) {
    const [x, y] = toScreen(l.x, l.y);
    ctx.fillStyle = '#8B4513'; ctx.beginPath(); ctx.moveTo(x, y - 6); ctx.lineTo(x + 5, y + 4); ctx.lineTo(x - 5, y + 4); ctx.fill();
    ctx.fillText(l.name || '', x + 7, y + 4);
  }
}

function drawObjects(objects) {
  if (!Array.isArray(objects)) return;
  for (const o of objects) {
    const [x, y] = toScreen(o.x, o.y);
    ctx.fillStyle = o.kind === 'ball' ? '#FF8C00' : o.kind === 'can' ? '#B22222' : '#777';
    ctx.beginPath(); ctx.arc(x, y, Math.max(2, (o.r || 0.05) * S.view.scale), 0, 2 * Math.PI); ctx.fill();
  }
}

function drawTrails() {
  ctx.lineWidth = 1.5;
  S.trails.forEach((tr, i) => {
    if (!tr || tr.length < 2) return;
    ctx.strokeStyle = color(i); ctx.globalAlpha = 0.55; ctx.beginPath();
    tr.forEach((p, k) => { const [x, y] = toScreen(p[0], p[1]); k ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    ctx.stroke();
  });
  ctx.globalAlpha = 1;
}

function drawRays(r, i, all) {
  const v = r.view || {};
  const c = Math.cos(r.yaw), s = Math.sin(r.yaw);
  const at = (lx, ly) => [r.x + c * lx - s * ly, r.y + s * lx + c * ly];
  if (v.laser && Array.isArray(v.laser.ranges) && (all || i === S.selected)) {
    let ox, oy, oyaw;
    if (Array.isArray(v.laser.origin)) [ox, oy, oyaw] = v.laser.origin;
    else { [ox, oy] = at(v.laser.x || 0, 0); oyaw = r.yaw; }
    ctx.strokeStyle = 'rgba(220,40,40,0.22)'; ctx.lineWidth = 1; ctx.beginPath();
    v.laser.ranges.forEach((d, k) => {
      if (d == null) return;
      const a = oyaw + v.laser.first + k * v.laser.step;
      line(ox, oy, ox + Math.cos(a) * d, oy + Math.sin(a) * d);
    });
    ctx.stroke();
  }
  if (Array.isArray(v.sonar) && (all || i === S.selected)) {
    ctx.strokeStyle = 'rgba(30,120,200,0.45)'; ctx.lineWidth = 1; ctx.beginPath();
    const hits = [];
    for (const sn of v.sonar) {
      const [sx, sy] = at(sn[0], sn[1]);
      const a = r.yaw + sn[2];
      const d = sn[3];
      if (d == null) continue;
      const ex = sx + Math.cos(a) * d, ey = sy + Math.sin(a) * d;
      line(sx, sy, ex, ey);
      if (d < 4.99) hits.push([ex, ey]);
    }
    ctx.stroke();
    ctx.fillStyle = 'rgba(30,120,200,0.9)';
    for (const h of hits) { const [x, y] = toScreen(h[0], h[1]); ctx.fillRect(x - 1.5, y - 1.5, 3, 3); }
  }
}

// A mission's places (waypoints with their capture circles, circle centres with their
// circles) from the controller's state; the active ones drawn solid. What was drawn is
// listed in S.places (for tests).
function drawPlaces(r) {
  const st = window.SkipperBehavior.engineState(r.state);
  const items = st && Array.isArray(st.items) ? st.items : [];
  ctx.font = '11px sans-serif';
  for (const it of items) {
    const p = it.place;
    if (!p || typeof p.x !== 'number' || typeof p.y !== 'number') continue;
    const [x, y] = toScreen(p.x, p.y);
    const rad = Math.max(3, (p.capture_radius || p.radius || 0) * S.view.scale);
    const active = it.state === 'active';
    ctx.strokeStyle = '#800080'; ctx.lineWidth = active ? 2 : 1;
    ctx.setLineDash(active ? [] : [3, 3]);
    ctx.beginPath(); ctx.arc(x, y, rad, 0, 2 * Math.PI); ctx.stroke(); ctx.setLineDash([]);
    ctx.fillStyle = '#800080'; ctx.fillRect(x - 2, y - 2, 4, 4);
    ctx.fillText(p.name || it.id || '', x + 6, y - 6);
    S.places.push({ robot: r.name, name: p.name || it.id || '', x: p.x, y: p.y, active });
  }
}

function drawTarget(r, i) {
  const t = r.target;
  if (!t) return;
  const [x, y] = toScreen(t.x, t.y);
  ctx.strokeStyle = '#C71585'; ctx.lineWidth = 2; ctx.beginPath();
  ctx.moveTo(x - 6, y - 6); ctx.lineTo(x + 6, y + 6); ctx.moveTo(x - 6, y + 6); ctx.lineTo(x + 6, y - 6); ctx.stroke();
  ctx.beginPath(); ctx.arc(x, y, Math.max(3, (t.tolerance || 0.15) * S.view.scale), 0, 2 * Math.PI); ctx.stroke();
  ctx.setLineDash([4, 4]); ctx.beginPath();
  const [rx, ry] = toScreen(r.x, r.y); ctx.moveTo(rx, ry); ctx.lineTo(x, y); ctx.stroke(); ctx.setLineDash([]);
}

function drawRobot(r, i, labels) {
  const rad = ((r.view && r.view.radius) || 0.25) * S.view.scale;
  const [x, y] = toScreen(r.x, r.y);
  const R = Math.max(3, rad);
  ctx.fillStyle = color(i); ctx.globalAlpha = 0.85;
  ctx.beginPath(); ctx.arc(x, y, R, 0, 2 * Math.PI); ctx.fill(); ctx.globalAlpha = 1;
  ctx.strokeStyle = i === S.selected ? '#000' : '#fff'; ctx.lineWidth = i === S.selected ? 2.5 : 1;
  ctx.stroke();
  ctx.strokeStyle = '#fff'; ctx.lineWidth = 2; ctx.beginPath();
  ctx.moveTo(x, y); ctx.lineTo(x + Math.cos(r.yaw) * R, y - Math.sin(r.yaw) * R); ctx.stroke();
  if (labels || i === S.selected) {
    ctx.fillStyle = '#000'; ctx.font = '11px sans-serif'; ctx.fillText(r.name, x + R + 3, y - R);
  }
}

function draw() {
  const { w, h } = size();
  ctx.clearRect(0, 0, w, h);
  drawWorld();
  drawTrails();
  const f = S.frame;
  S.places = [];
  if (f) {
    drawObjects(f.objects);
    const rs = f.robots || [];
    const all = rs.length <= 10;
    rs.forEach((r, i) => drawRays(r, i, all));
    rs.forEach((r) => drawPlaces(r));
    rs.forEach((r, i) => drawTarget(r, i));
    rs.forEach((r, i) => drawRobot(r, i, rs.length <= 20));
  }
  if (S.estop) { ctx.strokeStyle = '#c00'; ctx.lineWidth = 8; ctx.strokeRect(4, 4, w - 8, h - 8); }
}

function loop() {
  if (S.info && S.info.mode === 'replay') replayTick();
  if (S.dirty) { S.dirty = false; draw(); }
  const now = performance.now();
  if (now - S.lastPanel > 200) { S.lastPanel = now; updatePanel(); }
  if (S.autoFit && !worldBounds() && now - (S.lastFit || 0) > 1000) { S.lastFit = now; fit(); }
  requestAnimationFrame(loop);
}

// ---- side panel -----------------------------------------------------------------------

function esc(s) { return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

// An AUV's facts in the units an operator reads them in: the vehicle gives SI units and
// radians; heading is the compass heading (clockwise from north), as missions use it.
const FACT_UNITS = {
  depth: [1, 1, ' m'], altitude: [1, 1, ' m'], speed: [1, 2, ' m/s'],
  pitch: [180 / Math.PI, 1, '°'], heading: [180 / Math.PI, 0, '° from N'], buoyancy: [1, 2, ''],
};

function isAuv(r) { return !!(r && r.view && typeof r.view.depth === 'number'); }

// The heading row of the selected robot: an AUV's compass heading (clockwise from north),
// a ground robot's yaw (counter-clockwise from +x, as its world file gives it).
function headingText(r) {
  if (isAuv(r) && typeof r.view.heading === 'number') {
    const h = ((r.view.heading * 180 / Math.PI) % 360 + 360) % 360;
    return h.toFixed(0) + '° from N';
  }
  return (r.yaw * 180 / Math.PI).toFixed(0) + '°';
}

// The vehicle's own scalar facts (depth, altitude, speed, stalled...), one line.
function viewFacts(v) {
  if (!v || typeof v !== 'object') return '';
  const parts = [];
  for (const [k, x] of Object.entries(v)) {
    if (k === 'radius' || (k === 'heading' && typeof v.depth === 'number')) continue;
    const u = typeof x === 'number' && typeof v.depth === 'number' ? FACT_UNITS[k] : null;
    if (u) parts.push(esc(k) + ' ' + (x * u[0]).toFixed(u[1]) + u[2]);
    else if (typeof x === 'number') parts.push(esc(k) + ' ' + (Number.isInteger(x) ? x : x.toFixed(2)));
    else if (typeof x === 'boolean' || typeof x === 'string') parts.push(esc(k) + ' ' + esc(String(x)));
  }
  return parts.length ? '<div class="facts">' + parts.join(' · ') + '</div>' : '';
}

function goalText(g) {
  if (!g) return '';
  let s = 'goal ' + g.id + ': ' + g.status;
  if (g.status === 'active' && typeof g.distance === 'number') s += ', ' + g.distance.toFixed(2) + ' m to go';
  if (g.reason) s += ' (' + g.reason + ')';
  return s;
}

function eventText(e) {
  const d = e.data;
  if (d == null) return '';
  if (typeof d !== 'object') return String(d);
  // a state change names its item (a mission item, an option) first
  const item = d.option ?? (d.name && d.item ? d.name + ' (' + d.item + ')' : d.item);
  if (item != null && 'to' in d) return item + ': ' + (d.from ?? 'start') + ' → ' + (d.to ?? 'end') + (d.reason ? ' (' + d.reason + ')' : '');
  for (const k of ['text', 'message', 'reason', 'engaged', 'event']) if (k in d) return String(d[k]);
  if ('status' in d) return Object.entries(d).filter(([k, v]) => typeof v !== 'object').map(([k, v]) => k + ' ' + (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : v)).join(', ');
  if ('with' in d) return 'with ' + d.with;
  const who = d.option ?? d.item;
  if (who != null && 'to' in d) return who + ': ' + (d.from ?? 'start') + ' → ' + (d.to ?? 'end');
  return JSON.stringify(d);
}

// the behavior view (behavior.js): a view per engine, chosen by the state's shape
const behavior = new window.SkipperBehavior.View($('behavior'));
S.behavior = behavior;
let lastEvents = '';
function updatePanel() {
  const f = S.frame;
  if (S.info) {
    const t = f ? f.t : 0;
    $('clock').textContent = 't = ' + Number(t).toFixed(1) + ' s' + (S.info.mode === 'replay' && S.info.end_t ? ' / ' + Number(S.info.end_t).toFixed(1) + ' s' : '');
    const st = [];
    if (S.info.mode === 'live') {
      if (f && f.cycle != null) st.push('cycle ' + f.cycle);
      if (f && f.speed != null) st.push(f.speed + '×');
      if (S.paused) st.push('PAUSED');
      if (S.estop) st.push('ESTOP');
      st.push(S.frames + ' frames');
    }
    $('status').textContent = st.join(' · ');
  }
  if (!f || !f.robots) return;
  const r = f.robots[S.selected];
  $('sel-name').textContent = r ? r.name : 'Selected robot';
  if (r) {
    $('selected').innerHTML = '<table><tr><td>x</td><td id="sel-x">' + r.x.toFixed(2) + ' m</td><td>y</td><td id="sel-y">' + r.y.toFixed(2) +
      ' m</td><td>heading</td><td id="sel-heading">' + headingText(r) + '</td></tr></table>' +
      '<div>controller: ' + esc(r.controller || 'none') + '</div>' + viewFacts(r.view);
    $('goal-status').textContent = goalText(r.goal);
    behavior.show(r);
  }
  const ev = S.events.slice(-40).reverse().map((e) =>
    '<li><span class="t">' + Number(e.t).toFixed(1) + '</span><span class="kind">' + esc(e.kind) + '</span>' + esc(e.robot) + ' ' + esc(eventText(e)) + '</li>').join('');
  if (ev !== lastEvents) { lastEvents = ev; $('events').innerHTML = ev; }
  document.querySelectorAll('#robot-list li').forEach((li, i) => li.classList.toggle('sel', i === S.selected));
}

function buildRobotList() {
  const ul = $('robot-list');
  ul.innerHTML = '';
  (S.info.robots || []).forEach((r, i) => {
    const li = document.createElement('li');
    li.innerHTML = '<span class="swatch" style="background:' + color(i) + '"></span>' + esc(r.name);
    li.onclick = () => select(i);
    ul.appendChild(li);
  });
}

// Select a robot: the panel shows it, and (with many robots) the frames carry its rays.
function select(i) {
  S.selected = i; behavior.reset(); S.dirty = true; updatePanel();
  if (S.info.mode === 'live') control({ cmd: 'select', robot: i });
  else fetchFrame();
}

function updateBanner() {
  const b = $('banner');
  if (S.error) return;
  if (S.ended) { b.textContent = 'run ended: ' + S.ended.outcome; b.className = 'ended'; b.hidden = false; }
  else if (S.estop) { b.textContent = 'ESTOP engaged: every robot is stopped'; b.className = ''; b.hidden = false; }
  else b.hidden = true;
}

function setPaused(p) { S.paused = p; $('pause').textContent = p ? 'Resume' : 'Pause'; }
function setEstop(on) {
  S.estop = on;
  const b = $('estop');
  b.textContent = on ? 'Release estop' : 'ESTOP';
  b.classList.toggle('engaged', on);
  updateBanner();
  S.dirty = true;
}

// ---- frames ---------------------------------------------------------------------------

// The step of a trail the server sent: the first step, doubled as often as it was thinned
// (the least gap between its points tells).
function trailStep(tr) {
  let step = TRAIL_STEP;
  if (tr.length < TRAIL_MAX / 2) return step;
  let gap = Infinity;
  for (let k = 1; k < tr.length; k++) gap = Math.min(gap, Math.hypot(tr[k][0] - tr[k - 1][0], tr[k][1] - tr[k - 1][1]));
  while (step * 2 <= gap) step *= 2;
  return step;
}

function takeFrame(f, appendTrails) {
  S.frame = f;
  S.frames++;
  // a world without bounds is fitted to what the first frame shows
  if (S.frames === 1 && S.autoFit && !worldBounds()) fit();
  if (appendTrails) {
    (f.robots || []).forEach((r, i) => {
      const tr = S.trails[i] || (S.trails[i] = []);
      const step = S.trailSteps[i] || (S.trailSteps[i] = trailStep(tr));
      const last = tr[tr.length - 1];
      if (!last || Math.hypot(last[0] - r.x, last[1] - r.y) >= step) {
        if (tr.length >= TRAIL_MAX) {
          const kept = S.trails[i] = tr.filter((_, k) => k % 2 === 0);
          const [a, b] = kept.slice(-2);
          S.trailSteps[i] = Math.max(step * 2, a && b ? Math.hypot(b[0] - a[0], b[1] - a[1]) : 0);
        }
        S.trails[i].push([r.x, r.y]);
      }
    });
  }
  if (S.info.mode === 'replay') {
    // a replay frame carries the events of the last seconds before its time
    S.events = Array.isArray(f.events) ? f.events.slice() : [];
  } else if (Array.isArray(f.events) && f.events.length) {
    S.events.push(...f.events);
    if (S.events.length > 200) S.events.splice(0, S.events.length - 200);
  }
  if (typeof f.paused === 'boolean' && f.paused !== S.paused) setPaused(f.paused);
  if (typeof f.estop === 'boolean' && f.estop !== S.estop) setEstop(f.estop);
  if (f.speed != null && $('speed').value !== String(f.speed)) {
    let o = [...$('speed').options].find((x) => Number(x.value) === f.speed);
    if (!o) {
      o = document.createElement('option');
      o.value = String(f.speed); o.textContent = f.speed + '×';
      $('speed').appendChild(o);
    }
    $('speed').value = o.value;
  }
  S.dirty = true;
}

function startStream() {
  const es = new EventSource(api('/api/stream'));
  es.onmessage = (m) => {
    let f;
    try { f = JSON.parse(m.data); } catch (e) { return; }
    if (f.ended) { S.ended = f.ended; updateBanner(); es.close(); return; }
    takeFrame(f, true);
  };
  es.onerror = () => { if (!S.ended) { $('mode').textContent = 'live (reconnecting…)'; } };
  es.onopen = () => { $('mode').textContent = 'live'; };
}

// ---- replay ---------------------------------------------------------------------------

let trailTimer = null;
function seek(t, reloadTrails) {
  S.t = Math.max(0, Math.min(t, S.info.end_t || 0));
  $('slider').value = S.t;
  if (reloadTrails) {
    clearTimeout(trailTimer);
    trailTimer = setTimeout(async () => {
      try { S.trails = (await getJSON('/api/trails?t=' + S.t)).trails; S.trailSteps = []; S.dirty = true; } catch (e) { showError(String(e)); }
    }, 120);
  }
}

async function fetchFrame() {
  if (S.inflight) return;
  S.inflight = true;
  const want = S.t;
  try {
    const f = await getJSON('/api/frame?t=' + want + '&robot=' + S.selected);
    takeFrame(f, S.playing);
  } catch (e) { showError(String(e)); }
  S.inflight = false;
  if (Math.abs(S.t - want) > 1e-9 && !S.playing) fetchFrame();
}

function replayTick() {
  const now = performance.now();
  if (S.playing) {
    const dt = S.lastWall == null ? 0 : (now - S.lastWall) / 1000;
    const speed = Number($('rspeed').value) || 1;
    seek(S.t + dt * speed, false);
    if (S.t >= (S.info.end_t || 0)) { S.playing = false; $('play').textContent = 'Play'; }
    fetchFrame();
  }
  S.lastWall = now;
}

function startReplay() {
  const sl = $('slider');
  sl.max = S.info.end_t || 0;
  sl.step = S.info.period_s || 0.1;
  $('mode').textContent = 'replay: ' + (S.info.log || '');
  sl.oninput = () => { seek(Number(sl.value), true); fetchFrame(); };
  $('play').onclick = () => {
    if (!S.playing && S.t >= (S.info.end_t || 0)) seek(0, true);
    S.playing = !S.playing;
    $('play').textContent = S.playing ? 'Pause' : 'Play';
  };
  seek(0, true);
  fetchFrame();
}

// ---- input ----------------------------------------------------------------------------

function pick(wx, wy) {
  const rs = (S.frame && S.frame.robots) || [];
  let best = -1, bd = Infinity;
  rs.forEach((r, i) => {
    const d = Math.hypot(r.x - wx, r.y - wy);
    const reach = ((r.view && r.view.radius) || 0.25) + 6 / S.view.scale;
    if (d < reach && d < bd) { bd = d; best = i; }
  });
  return best;
}

function setupInput() {
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.offsetX, y: e.offsetY, cx: S.view.cx, cy: S.view.cy, moved: false }; });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const r = canvas.getBoundingClientRect();
    const dx = e.clientX - r.left - drag.x, dy = e.clientY - r.top - drag.y;
    if (Math.hypot(dx, dy) > 4) drag.moved = true;
    if (drag.moved) { S.autoFit = false; S.view.cx = drag.cx - dx / S.view.scale; S.view.cy = drag.cy + dy / S.view.scale; S.dirty = true; }
  });
  window.addEventListener('mouseup', (e) => {
    const d = drag; drag = null;
    if (!d || d.moved || e.target !== canvas) return;
    const [wx, wy] = toWorld(e.offsetX, e.offsetY);
    const hit = pick(wx, wy);
    if (hit >= 0) { select(hit); return; }
    if (S.info.mode === 'live' && (S.info.goto || [])[S.selected]) {
      control({ cmd: 'goto', robot: S.selected, x: wx, y: wy }).then((b) => { if (b) S.lastGoal = { id: b.goal, x: wx, y: wy }; });
    }
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    S.autoFit = false;
    const [wx, wy] = toWorld(e.offsetX, e.offsetY);
    const k = Math.exp(-e.deltaY * 0.0015);
    S.view.scale = Math.min(2000, Math.max(0.01, S.view.scale * k));
    const [nx, ny] = toWorld(e.offsetX, e.offsetY);
    S.view.cx += wx - nx; S.view.cy += wy - ny; S.dirty = true;
  }, { passive: false });
  canvas.addEventListener('dblclick', (e) => { e.preventDefault(); S.autoFit = true; fit(); });
  window.addEventListener('resize', () => { resize(); });
  $('pause').onclick = () => control({ cmd: S.paused ? 'resume' : 'pause' });
  $('step').onclick = () => control({ cmd: 'step' });
  $('speed').onchange = () => control({ cmd: 'speed', factor: Number($('speed').value) });
  $('estop').onclick = () => control({ cmd: 'estop', on: !S.estop });
  window.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key === ' ' && S.info.mode === 'live') { e.preventDefault(); control({ cmd: S.paused ? 'resume' : 'pause' }); }
    if (e.key === 'Escape' && S.info.mode === 'live') control({ cmd: 'estop', on: true });
  });
}

async function main() {
  try {
    S.info = await getJSON('/api/info');
  } catch (e) {
    $('mode').textContent = 'cannot reach the run';
    showError(String(e));
    return;
  }
  document.body.classList.add(S.info.mode);
  $('mode').textContent = S.info.mode;
  const gotos = (S.info.goto || []).some((g) => g);
  $('hint').textContent = S.info.mode === 'live'
    ? 'click a robot to select it · ' + (gotos ? 'click the map to send the selected robot there · ' : '') + 'wheel zooms, drag pans, double-click fits · Esc = estop'
    : 'drag the slider or press Play · wheel zooms, drag pans, double-click fits';
  if (S.info.ended) S.ended = S.info.ended;
  resize();
  fit();
  buildRobotList();
  setupInput();
  try { S.trails = (await getJSON('/api/trails')).trails || []; } catch (e) { S.trails = []; }
  S.trailSteps = [];
  if (S.info.mode === 'live') startStream(); else startReplay();
  updateBanner();
  requestAnimationFrame(loop);
}

main();
