// Skipper dashboard: the behavior view. It shows the selected robot's controller state
// (the run log's /controller topic) with a view chosen by the state's shape:
//
//   XABSL     {agent, path: [{option, state, state_time, option_time, depth, parameters}],
//              basic_behaviors: [{name, parameters}], outputs, inputs}
//   mission   {mission, status, items: [{id, state, by, cursor, iteration, place}], channels}
//   SPS link  {agent, decision_cycle, input, input_link, commands: [{tt, command, status,
//              message}], running}
//   anything else: a generic tree.
//
// The goal runner (--serve, --ros) wraps the engine's state as {inner, goal, target}; the
// action goals (goto, run_option's `option_goal`, run_mission's `mission_goal`) are
// listed above the engine's view.
//
// Cost: a view is built as an HTML skeleton (structure, names, states) plus the values
// that change every frame (times, numbers), which go into slots. The DOM is rebuilt only
// when the skeleton changes; otherwise only the slots whose value changed are written.
// Every text that comes from the state is escaped: the state comes from users' files.
'use strict';

window.SkipperBehavior = (function () {
  // how long a change stays highlighted (ms)
  const HOLD = 1500;
  const MAX_DEPTH = 12;
  const CHANNELS = ['horizontal', 'vertical', 'speed', 'buoyancy'];

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

  function fmt(v) {
    if (v === null || v === undefined) return 'none';
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
    if (typeof v === 'string' || typeof v === 'boolean') return String(v);
    return JSON.stringify(v);
  }
  // XABSL times are milliseconds
  const secs = (ms) => (typeof ms === 'number' ? (ms / 1000).toFixed(1) + ' s' : '?');
  // a status as a CSS class name (anything odd gets a neutral class)
  const cls = (s) => (typeof s === 'string' && /^[a-z_]{1,24}$/.test(s) ? s : 'other');

  // A view under construction: the skeleton's HTML and the values of its slots.
  class Out {
    constructor() { this.h = []; this.v = []; }
    raw(s) { this.h.push(s); return this; }
    text(s) { this.h.push(esc(s)); return this; }
    val(s, c) { this.h.push(c ? '<span class="v ' + c + '"></span>' : '<span class="v"></span>'); this.v.push(String(s)); return this; }
    badge(status, label) {
      return this.raw('<span class="st st-' + cls(status) + '">').text(label == null ? (status ?? '?') : label).raw('</span>');
    }
  }

  // Which keys changed their value lately (an option's state, an item's state).
  class Changes {
    constructor() { this.last = new Map(); this.at = new Map(); this.primed = false; }
    see(key, value, now) {
      const had = this.last.has(key);
      if ((had && this.last.get(key) !== value) || (!had && this.primed)) this.at.set(key, now);
      this.last.set(key, value);
      const t = this.at.get(key);
      return t !== undefined && now - t < HOLD;
    }
  }

  // ---- shape ----------------------------------------------------------------------

  function engineState(s) {
    if (isObj(s) && 'inner' in s && ('goal' in s || 'target' in s)) return s.inner;
    return s;
  }

  function kindOf(s) {
    if (!isObj(s)) return 'tree';
    if (Array.isArray(s.path) && ('basic_behaviors' in s || s.path.length > 0) &&
        s.path.every((p) => isObj(p) && typeof p.option === 'string' && typeof p.state === 'string')) return 'xabsl';
    if (Array.isArray(s.items) && isObj(s.channels) &&
        s.items.every((it) => isObj(it) && typeof it.id === 'string' && typeof it.state === 'string')) return 'mission';
    if ('decision_cycle' in s && ('input_link' in s || 'input' in s)) return 'link';
    return 'tree';
  }

  // ---- pieces ---------------------------------------------------------------------

  function params(out, p) {
    if (!isObj(p)) return;
    const keys = Object.keys(p);
    if (!keys.length) return;
    out.raw(' <span class="bv-params">(');
    keys.forEach((k, i) => { out.raw(i ? ', ' : '').text(k).raw(' = ').val(fmt(p[k])); });
    out.raw(')</span>');
  }

  function table(out, obj, attr) {
    if (!isObj(obj) || !Object.keys(obj).length) { out.raw('<div class="none">none</div>'); return; }
    out.raw('<table class="bv-kv">');
    for (const k of Object.keys(obj)) {
      out.raw('<tr ' + attr + '="').text(k).raw('"><td>').text(k).raw('</td><td>').val(fmt(obj[k])).raw('</td></tr>');
    }
    out.raw('</table>');
  }

  function details(out, view, key, title, openByDefault, body) {
    const open = view.open.has(key) ? view.open.get(key) : openByDefault;
    out.raw('<details data-key="').text(key).raw('"' + (open ? ' open' : '') + '><summary>').text(title).raw('</summary>');
    if (open) body();
    out.raw('</details>');
  }

  // The action goals: the goal runner's goto goal, run_option and run_mission goals.
  function goals(out, r, s) {
    const list = [];
    if (isObj(r.goal)) list.push(['goto', r.goal]);
    if (isObj(s) && isObj(s.option_goal)) list.push(['run_option', s.option_goal]);
    if (isObj(s) && isObj(s.mission_goal)) list.push(['run_mission', s.mission_goal]);
    if (!list.length) return;
    out.raw('<div class="bv-h">action goals</div><table class="bv-goals">');
    for (const [name, g] of list) {
      out.raw('<tr class="bv-goal" data-action="' + name + '" data-status="').text(g.status).raw('"><td>' + name + '</td><td>#').text(g.id).raw('</td><td>').badge(g.status).raw('</td><td class="bv-fb">');
      if (typeof g.distance === 'number') out.val(g.distance.toFixed(2)).raw(' m to go');
      if (typeof g.path === 'string') out.val(g.path);
      if (typeof g.items === 'string') out.val(g.items);
      if (g.outcome != null) out.text(g.outcome);
      if (g.reason != null) out.text(g.reason);
      out.raw('</td></tr>');
    }
    out.raw('</table>');
  }

  // ---- XABSL ----------------------------------------------------------------------

  function xabsl(out, s, view, now) {
    out.raw('<div class="bv-xabsl">');
    if (s.agent != null) out.raw('<div>agent <b>').text(s.agent).raw('</b></div>');
    out.raw('<div class="bv-h">activation path</div><ul class="bv-path">');
    s.path.forEach((p, k) => {
      const depth = Number.isInteger(p.depth) ? Math.max(0, Math.min(p.depth, 20)) : k;
      const changed = view.changes.see('o' + depth + ':' + p.option, p.state, now);
      out.raw('<li class="bv-opt' + (changed ? ' chg' : '') + '" style="margin-left:' + depth + 'em" data-option="')
        .text(p.option).raw('" data-state="').text(p.state).raw('"><span class="bv-name">').text(p.option)
        .raw('</span> ').badge('state', p.state).raw(' <span class="bv-t">state ').val(secs(p.state_time))
        .raw(', option ').val(secs(p.option_time)).raw('</span>');
      params(out, p.parameters);
      out.raw('</li>');
    });
    if (!s.path.length) out.raw('<li class="none">no option runs</li>');
    out.raw('</ul>');
    const bbs = Array.isArray(s.basic_behaviors) ? s.basic_behaviors : [];
    out.raw('<div class="bv-h">basic behaviors executed</div><ul class="bv-bb">');
    for (const b of bbs) {
      const name = isObj(b) ? b.name : b;
      out.raw('<li data-behavior="').text(name).raw('"><span class="bv-name">').text(name).raw('</span>');
      if (isObj(b)) params(out, b.parameters);
      out.raw('</li>');
    }
    if (!bbs.length) out.raw('<li class="none">none</li>');
    out.raw('</ul>');
    details(out, view, 'xabsl/outputs', 'output symbols', true, () => table(out, s.outputs, 'data-symbol'));
    details(out, view, 'xabsl/inputs', 'input symbols', false, () => table(out, s.inputs, 'data-symbol'));
    out.raw('</div>');
  }

  // ---- mission --------------------------------------------------------------------

  function mission(out, s, view, now) {
    out.raw('<div class="bv-mission"><div>mission <b>').text(s.mission == null ? '' : s.mission).raw('</b> ').badge(s.status).raw('</div>');
    // channel winners
    const ch = s.channels;
    const wins = new Map();
    const names = CHANNELS.concat(Object.keys(ch).filter((k) => !CHANNELS.includes(k)));
    out.raw('<div class="bv-h">channels</div><table class="bv-kv bv-channels">');
    for (const c of names) {
      const w = ch[c];
      out.raw('<tr data-channel="').text(c).raw('" data-winner="').text(w == null ? '' : w).raw('"><td>').text(c).raw('</td><td>');
      if (w == null) out.raw('<span class="none">none</span>');
      else {
        out.text(w);
        if (!wins.has(w)) wins.set(w, []);
        wins.get(w).push(c);
      }
      out.raw('</td></tr>');
    }
    out.raw('</table>');
    // the priority stack in pre-order, indented by nesting
    out.raw('<div class="bv-h">stack</div><ul class="bv-items">');
    const stacks = [];
    let root = false;
    s.items.forEach((it, k) => {
      const id = it.id;
      const isStack = 'cursor' in it || 'iteration' in it;
      let depth;
      if (k === 0 && isStack) { root = true; depth = 0; }
      else {
        while (stacks.length && !id.startsWith(stacks[stacks.length - 1] + '/')) stacks.pop();
        depth = (root ? 1 : 0) + stacks.length;
        if (isStack) stacks.push(id);
      }
      // what the item is (`Waypoint`, `ReadSensor(SEA_WATER_SALINITY)`), else its place in the stack
      const label = typeof it.name === 'string' && it.name ? it.name : (depth === 0 ? id : id.slice(id.lastIndexOf('/') + 1));
      const changed = view.changes.see('i:' + id, it.state + '/' + (it.by || ''), now);
      out.raw('<li class="bv-item' + (changed ? ' chg' : '') + '" style="margin-left:' + Math.min(depth, 20) + 'em" data-id="')
        .text(id).raw('" data-state="').text(it.state).raw('" title="').text(id).raw('"><span class="bv-name">').text(label).raw('</span> ');
      out.badge(it.state, it.state === 'preempted' && it.by != null ? 'preempted by ' + it.by : it.state);
      if (isStack) out.raw(' <span class="bv-t">cursor ').val(fmt(it.cursor)).raw(', iteration ').val(fmt(it.iteration)).raw('</span>');
      const p = it.place;
      if (isObj(p)) {
        out.raw(' <span class="bv-place">').text(p.kind || 'place').raw(' (').val(fmt(p.x)).raw(', ').val(fmt(p.y)).raw(')');
        const r = p.capture_radius != null ? p.capture_radius : p.radius;
        if (r != null) out.raw(' r ').val(fmt(r));
        out.raw('</span>');
      }
      for (const c of wins.get(id) || []) out.raw(' <span class="bv-win" title="wins the ' + esc(c) + ' channel">').text(c).raw('</span>');
      out.raw('</li>');
    });
    out.raw('</ul></div>');
  }

  // ---- SPS link -------------------------------------------------------------------

  // The input-link: an identifier is a collapsible list of its WMEs (open down to two
  // levels, a repeated attribute's identifiers closed); a closed one shows a preview of
  // its constants. A closed identifier's WMEs are not built.
  function wmes(out, view, obj, path, depth) {
    out.raw('<ul class="bv-wme">');
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      const many = Array.isArray(v);
      (many ? v : [v]).forEach((x, i) => {
        const p = path + '/' + key + (many ? '[' + i + ']' : '');
        if (!isObj(x)) {
          out.raw('<li data-wme="').text(p).raw('">^').text(key).raw(' ').val(fmt(x), 'bv-val').raw('</li>');
          return;
        }
        const keys = Object.keys(x);
        const open = view.open.has(p) ? view.open.get(p) : !many && depth < 2;
        out.raw('<li data-wme="').text(p).raw('"><details data-key="').text(p).raw('"' + (open ? ' open' : '') + '><summary>^').text(key);
        if (!keys.length) out.raw(' <span class="none">(empty)</span>');
        else if (!open) {
          const consts = keys.filter((k) => !isObj(x[k]) && !Array.isArray(x[k]));
          out.raw(' <span class="bv-t">');
          consts.slice(0, 3).forEach((k, j) => { out.raw(j ? ', ' : '').text(k).raw(' ').val(fmt(x[k])); });
          if (keys.length > Math.min(3, consts.length)) out.raw(consts.length ? ', …' : '…');
          out.raw('</span>');
        }
        out.raw('</summary>');
        if (open && depth < MAX_DEPTH) wmes(out, view, x, p, depth + 1);
        out.raw('</details></li>');
      });
    }
    out.raw('</ul>');
  }

  function link(out, s, view) {
    out.raw('<div class="bv-link"><div>agent <b>').text(s.agent == null ? '' : s.agent).raw('</b>, decision cycle ').val(fmt(s.decision_cycle)).raw('</div>');
    if (isObj(s.running)) {
      out.raw('<div>running: <b>').text(s.running.command).raw('</b> (tt ').text(s.running.tt).raw(')</div>');
    }
    const cmds = Array.isArray(s.commands) ? s.commands : null;
    if (cmds) {
      out.raw('<div class="bv-h">output-link commands</div>');
      if (!cmds.length) out.raw('<div class="none">none yet</div>');
      else {
        out.raw('<table class="bv-cmds"><tr><th>tt</th><th>command</th><th>status</th></tr>');
        // newest first: Soar's timetags grow
        const byTt = cmds.filter(isObj).sort((a, b) => (Number(b.tt) || 0) - (Number(a.tt) || 0));
        for (const c of byTt) {
          out.raw('<tr data-command="').text(c.command).raw('" data-status="').text(c.status).raw('"><td>').text(c.tt).raw('</td><td>')
            .text(c.command).raw('</td><td>').badge(c.status);
          if (c.message != null) out.raw(' <span class="bv-msg">').text(c.message).raw('</span>');
          out.raw('</td></tr>');
        }
        out.raw('</table>');
      }
    }
    if (isObj(s.input_link)) {
      out.raw('<div class="bv-h">input-link</div><div class="bv-il">');
      wmes(out, view, s.input_link, 'il', 0);
      out.raw('</div>');
    } else if (s.input !== undefined) {
      details(out, view, 'link/input', 'last input message', true, () => tree(out, s.input, 0));
    }
    out.raw('</div>');
  }

  // ---- anything else --------------------------------------------------------------

  function tree(out, v, depth) {
    if (depth > MAX_DEPTH) { out.raw('…'); return; }
    if (v === null || v === undefined) { out.raw('<span class="none">none</span>'); return; }
    if (typeof v === 'string') { out.val(v, 's'); return; }
    if (typeof v === 'number') { out.val(fmt(v), 'n'); return; }
    if (typeof v === 'boolean') { out.val(String(v), 'b'); return; }
    if (Array.isArray(v)) {
      if (!v.length) { out.raw('<span class="none">[]</span>'); return; }
      out.raw('<ul>');
      v.forEach((x, k) => {
        const name = isObj(x) && (x.name ?? x.option ?? x.id ?? x.behavior ?? x.command ?? x.item);
        out.raw('<li><span class="k">').text(name != null && name !== false ? name : k).raw('</span>: ');
        tree(out, x, depth + 1);
        out.raw('</li>');
      });
      out.raw('</ul>');
      return;
    }
    const keys = Object.keys(v);
    if (!keys.length) { out.raw('<span class="none">{}</span>'); return; }
    out.raw('<ul>');
    for (const k of keys) { out.raw('<li><span class="k">').text(k).raw('</span>: '); tree(out, v[k], depth + 1); out.raw('</li>'); }
    out.raw('</ul>');
  }

  // ---- the view -------------------------------------------------------------------

  class View {
    constructor(el) {
      this.el = el;
      this.open = new Map();
      this.stats = { shows: 0, builds: 0, writes: 0 };
      this.reset();
      // a section opened or closed by hand stays so; a closed one is not even built
      el.addEventListener('toggle', (e) => {
        const d = e.target;
        const key = d && d.dataset ? d.dataset.key : undefined;
        if (key === undefined || this.open.get(key) === d.open) return;
        this.open.set(key, d.open);
        this.refresh();
      }, true);
    }

    // Another robot: forget what was seen.
    reset() {
      this.html = null;
      this.slots = [];
      this.vals = [];
      this.changes = new Changes();
      this.last = null;
      this.kind = null;
    }

    // Show robot `r` of a frame (its `state` and `goal`).
    show(r) {
      this.last = r;
      const now = performance.now();
      const out = new Out();
      const s = engineState(r ? r.state : null);
      this.kind = kindOf(s);
      out.raw('<div class="bv" data-view="' + this.kind + '">');
      if (r) goals(out, r, s);
      if (this.kind === 'xabsl') xabsl(out, s, this, now);
      else if (this.kind === 'mission') mission(out, s, this, now);
      else if (this.kind === 'link') link(out, s, this);
      else if (s === null || s === undefined) out.raw('<div class="none">no controller state</div>');
      else { out.raw('<div class="tree">'); tree(out, s, 0); out.raw('</div>'); }
      out.raw('</div>');
      this.changes.primed = true;
      this.apply(out);
    }

    refresh() { if (this.last) this.show(this.last); }

    apply(out) {
      this.stats.shows++;
      const html = out.h.join('');
      if (html !== this.html) {
        this.el.innerHTML = html;
        this.html = html;
        this.slots = Array.from(this.el.querySelectorAll('.v'));
        this.vals = [];
        this.stats.builds++;
      }
      for (let i = 0; i < out.v.length && i < this.slots.length; i++) {
        if (this.vals[i] !== out.v[i]) {
          this.slots[i].textContent = out.v[i];
          this.vals[i] = out.v[i];
          this.stats.writes++;
        }
      }
    }
  }

  return { View, kindOf, engineState, esc };
})();
