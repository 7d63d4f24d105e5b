// Drives Debian's chromium (headless, through playwright-core) against the Skipper
// dashboard, the way a person would, and saves screenshots.
//
//   node browser.mjs live   URL OUTDIR   a run: the robot moves; pause, step and speed
//                                        work; a click on the map sends a goto and the robot
//                                        heads there; estop stops it
//   node browser.mjs crowd  URL OUTDIR   a run with many robots: frames keep coming
//   node browser.mjs replay URL OUTDIR   a replay: the slider moves the robots, Play plays
//   node browser.mjs xabsl  URL OUTDIR   an XABSL run: the activation path with states, times,
//                                        parameters and basic behaviors; times change in
//                                        place; hostile text is escaped in every view
//   node browser.mjs mission URL OUTDIR  a mission run: the stack with item names and states,
//                                        channel winners, places on the map, a trail that
//                                        reaches back to the start
//   node browser.mjs mission-replay URL OUTDIR T the same in a replay of the whole mission, a WHILE-suspended
//                                        substack's items suspended at T (s), the whole run's trail,
//                                        the AUV panel's compass heading and depth
//   node browser.mjs link-replay URL OUTDIR      the SPS link view in a replay
//   node browser.mjs soar   URL OUTDIR   a Soar run (when the bridge is installed)
//   node browser.mjs ros    URL OUTDIR   an XABSL run with --ros after a run_option goal:
//                                        the action goals with ids, statuses, feedback
//   node browser.mjs page   FILE OUTDIR NAME   a screenshot of a local HTML file (the report)
//   node browser.mjs fleet-report FILE OUTDIR  a fleet's report: the map first, every line
//                                        of a plot in its figure's legend or labelled, at most
//                                        one plot of robots' lines per section, the robots
//                                        table linking each robot's section
//   node browser.mjs look   URL OUTDIR NAME    a screenshot of the dashboard after 5 s (by hand)
//
// Exits non-zero with a message on the first check that fails.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [mode, target, outdir, name] = process.argv.slice(2);
if (!mode || !target || !outdir) {
  console.error('usage: node browser.mjs live|crowd|replay|page URL|FILE OUTDIR [NAME]');
  process.exit(2);
}

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function fail(msg) {
  throw new Error(msg);
}
function check(cond, msg) {
  if (!cond) fail(msg);
  console.log('ok - ' + msg);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(page, fn, arg, what, timeout = 20000) {
  try {
    return await page.waitForFunction(fn, arg, { timeout, polling: 100 });
  } catch (e) {
    fail('timed out waiting for ' + what);
  }
}

const frame = (page) => page.evaluate(() => window.skipper.frame);
const shot = async (page, file) => {
  const p = path.join(outdir, file);
  await page.screenshot({ path: p });
  console.log('screenshot ' + p);
};

async function live(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 5, null, 'the first frames');
  const f0 = await frame(page);
  check(f0.robots.length >= 1, 'the dashboard shows ' + f0.robots.length + ' robot(s)');
  const r0 = f0.robots[0];

  // the robot moves
  await waitFor(page, ([x, y]) => {
    const r = window.skipper.frame.robots[0];
    return Math.hypot(r.x - x, r.y - y) > 0.3;
  }, [r0.x, r0.y], 'the robot to move');
  const f1 = await frame(page);
  check(f1.t > f0.t, `time runs: ${f0.t} s -> ${f1.t} s`);
  check(true, `the robot moved from (${r0.x}, ${r0.y}) to (${f1.robots[0].x}, ${f1.robots[0].y})`);
  await shot(page, 'dashboard-1-moving.png');

  // pause, single step, resume
  await page.click('#pause');
  await waitFor(page, () => window.skipper.frame.paused === true || window.skipper.paused === true, null, 'the run to pause');
  await sleep(400);
  const tp = (await frame(page)).t;
  await sleep(600);
  check((await frame(page)).t === tp, `paused: time stays at ${tp} s`);
  await page.click('#step');
  await waitFor(page, (t) => window.skipper.frame.t > t, tp, 'a single step');
  const ts = (await frame(page)).t;
  check(Math.abs(ts - tp - 0.1) < 1e-6, `one step is one cycle: ${tp} s -> ${ts} s`);
  await page.click('#pause');
  await waitFor(page, (t) => window.skipper.frame.t > t + 0.3, ts, 'the run to resume');
  check(!(await frame(page)).paused, 'resumed');

  // speed factor
  await page.selectOption('#speed', '2');
  await waitFor(page, () => window.skipper.frame.speed === 2, null, 'speed 2x');
  check(true, 'the speed factor is 2x');

  // click the map to send a goto: a point 2.5 m from the robot toward the middle
  const fr = await frame(page);
  const r = fr.robots[0];
  const info = await page.evaluate(() => window.skipper.info);
  const b = info.world.bounds || [-10, -10, 10, 10];
  const cx = (b[0] + b[2]) / 2, cy = (b[1] + b[3]) / 2;
  const d = Math.hypot(cx - r.x, cy - r.y) || 1;
  const gx = r.x + ((cx - r.x) / d) * 2.5;
  const gy = r.y + ((cy - r.y) / d) * 2.5;
  const pt = await page.evaluate(([x, y]) => window.skipper.worldToPage(x, y), [gx, gy]);
  await page.mouse.click(pt.x, pt.y);
  await waitFor(page, () => {
    const g = window.skipper.frame.robots[0].goal;
    return g && (g.status === 'active' || g.status === 'succeeded');
  }, null, 'the goal to become active');
  const g1 = (await frame(page)).robots[0];
  check(g1.target && Math.hypot(g1.target.x - gx, g1.target.y - gy) < 0.05 || g1.goal.status === 'succeeded',
    `the click sent a goto to (${gx.toFixed(2)}, ${gy.toFixed(2)}): goal ${g1.goal.id} ${g1.goal.status}`);
  const dist = (rr) => Math.hypot(rr.x - gx, rr.y - gy);
  const d0 = dist(g1);
  await waitFor(page, ([x, y, d0]) => {
    const rr = window.skipper.frame.robots[0];
    const g = rr.goal;
    return (g && g.status === 'succeeded') || Math.hypot(rr.x - x, rr.y - y) < d0 - 0.5;
  }, [gx, gy, d0], 'the robot to head for the goal', 30000);
  const g2 = (await frame(page)).robots[0];
  check(true, `the robot heads for the goal: ${d0.toFixed(2)} m -> ${dist(g2).toFixed(2)} m (${g2.goal.status})`);
  const text = await page.textContent('#goal-status');
  check(/goal \d+: (active|succeeded)/.test(text), `the page says "${text}"`);
  await shot(page, 'dashboard-2-goto.png');

  // a goal further away, so the robot is driving when the estop comes
  const far = await page.evaluate(([x, y]) => window.skipper.worldToPage(x, y), [cx, cy]);
  await page.mouse.click(far.x, far.y);
  await waitFor(page, () => {
    const rr = window.skipper.frame.robots[0];
    return rr.goal && rr.goal.status === 'active' && rr.view && rr.view.stalled === false;
  }, null, 'the robot to drive to the second goal');
  await sleep(800);

  // estop: the robot stops and stays stopped while time goes on
  await page.click('#estop');
  await waitFor(page, () => window.skipper.frame.estop === true, null, 'the estop to engage');
  check(true, 'the estop is engaged');
  await sleep(700); // the robot brakes
  const e0 = await frame(page);
  await sleep(1500);
  const e1 = await frame(page);
  const moved = Math.hypot(e1.robots[0].x - e0.robots[0].x, e1.robots[0].y - e0.robots[0].y);
  check(e1.t > e0.t + 0.5, `time goes on under estop: ${e0.t} s -> ${e1.t} s`);
  check(moved < 0.005, `the robot stopped: it moved ${moved.toFixed(4)} m in ${(e1.t - e0.t).toFixed(1)} s`);
  const banner = await page.textContent('#banner');
  check(/ESTOP/.test(banner), `the page says "${banner}"`);
  await shot(page, 'dashboard-3-estop.png');
}

async function crowd(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 3, null, 'the first frames', 30000);
  const f0 = await frame(page);
  const n0 = await page.evaluate(() => window.skipper.frames);
  const w0 = Date.now();
  await sleep(3000);
  const f1 = await frame(page);
  const n1 = await page.evaluate(() => window.skipper.frames);
  const secs = (Date.now() - w0) / 1000;
  check(f1.robots.length === f0.robots.length && f1.robots.length >= 100, `${f1.robots.length} robots on the map`);
  check(n1 > n0, `frames keep coming: ${n1 - n0} in ${secs.toFixed(1)} s (${((n1 - n0) / secs).toFixed(1)} per second)`);
  check(f1.t > f0.t, `time runs: ${f0.t} s -> ${f1.t} s`);
  const movedRobots = f1.robots.filter((r, i) => Math.hypot(r.x - f0.robots[i].x, r.y - f0.robots[i].y) > 0.05).length;
  check(movedRobots > 10, `${movedRobots} robots moved`);
  const stats = await page.evaluate(async () => (await fetch('/api/stats')).json());
  console.log('stats ' + JSON.stringify(stats));
  const size = await page.evaluate(() => JSON.stringify(window.skipper.frame).length);
  console.log(`frame size ${size} bytes`);
  await shot(page, 'dashboard-4-crowd.png');
}

async function replay(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.info && window.skipper.frame, null, 'the replay');
  const info = await page.evaluate(() => window.skipper.info);
  check(info.mode === 'replay' && info.end_t > 1, `a replay of ${info.end_t} s`);
  const a = await frame(page);
  // drag the slider to the middle
  await page.evaluate((t) => {
    const s = document.getElementById('slider');
    s.value = String(t);
    s.dispatchEvent(new Event('input'));
  }, info.end_t / 2);
  await waitFor(page, (t) => Math.abs(window.skipper.frame.t - t) < 0.2, info.end_t / 2, 'the frame at the slider');
  const b = await frame(page);
  const moved = Math.hypot(b.robots[0].x - a.robots[0].x, b.robots[0].y - a.robots[0].y);
  check(moved > 0.2, `the slider moves the robot: ${moved.toFixed(2)} m between ${a.t} s and ${b.t} s`);
  await waitFor(page, () => (window.skipper.trails[0] || []).length > 5, null, 'the trail up to the slider');
  await page.click('#play');
  await waitFor(page, (t) => window.skipper.frame.t > t + 0.5, b.t, 'Play to advance time');
  check(true, 'Play advances time');
  await page.click('#play');
  const clock = await page.textContent('#clock');
  check(/t = [\d.]+ s \/ [\d.]+ s/.test(clock), `the clock says "${clock}"`);
  await shot(page, 'replay.png');
}

// ---- the behavior view ---------------------------------------------------------------

// How long an update of the behavior view takes for the frame shown (printed, not checked).
async function viewCost(page, what) {
  const us = await page.evaluate(() => {
    const r = window.skipper.frame.robots[window.skipper.selected];
    const v = window.skipper.behavior;
    const n = 200;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) v.show(r);
    return ((performance.now() - t0) / n) * 1000;
  });
  console.log(`behavior view: ${us.toFixed(0)} us per update of an unchanged ${what} state`);
}

async function waitView(page, kind) {
  await waitFor(page, (k) => {
    const b = document.querySelector('#behavior .bv');
    return b && b.dataset.view === k;
  }, kind, `the ${kind} view`);
  check(true, `the behavior view is the ${kind} view`);
}

// Replay: move the slider to time t and wait for its frame.
async function seekTo(page, t) {
  await page.evaluate((t) => {
    const s = document.getElementById('slider');
    s.value = String(t);
    s.dispatchEvent(new Event('input'));
  }, t);
  await waitFor(page, (t) => window.skipper.frame && Math.abs(window.skipper.frame.t - t) < 0.3, t, 'the frame at the slider');
  await sleep(400); // the panel updates at 5 Hz
}

async function xabslView(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 2, null, 'the first frames');
  await waitView(page, 'xabsl');
  await waitFor(page, () => document.querySelectorAll('#behavior li.bv-opt').length >= 2, null, 'an activation path of two options or more');
  const path = await page.$$eval('#behavior li.bv-opt', (ls) => ls.map((li) => ({
    option: li.dataset.option,
    state: li.dataset.state,
    badge: li.querySelector('.st').textContent,
    times: li.querySelector('.bv-t').textContent,
    indent: parseFloat(getComputedStyle(li).marginLeft),
    text: li.textContent,
  })));
  const names = path.map((p) => `${p.option}.${p.state}`).join(' > ');
  check(path[0].option === 'deliver', `the root option is deliver: ${names}`);
  check(path.every((p) => p.state && p.badge === p.state), 'each option shows its active state as a badge');
  check(path.every((p) => /^state \d+\.\d s, option \d+\.\d s$/.test(p.times)), `with its state and option times (${path[0].times})`);
  check(path.every((p, i) => i === 0 || p.indent > path[i - 1].indent), 'options nest by depth');
  const withParams = path.find((p) => p.option === 'turn_and_release');
  check(withParams && /angle = -?[\d.]+/.test(withParams.text), `parameters shown: ${withParams && withParams.text}`);
  const bbs = await page.$$eval('#behavior li[data-behavior]', (ls) => ls.map((l) => l.dataset.behavior));
  check(bbs.length >= 1, `executed basic behaviors: ${bbs.join(', ')}`);
  const outs = await page.$$eval('#behavior tr[data-symbol]', (ts) => ts.length);
  check(outs >= 1, `${outs} output symbols shown`);

  // the times change in place: paused, a single step writes new times into the same
  // elements without rebuilding the view (a step that changes a state may rebuild it)
  await page.click('#pause');
  await waitFor(page, () => window.skipper.paused === true, null, 'the run to pause');
  await sleep(1800); // highlights fade
  let ok = false;
  for (let k = 0; k < 5 && !ok; k++) {
    const before = await page.evaluate(() => {
      const li = document.querySelector('#behavior li.bv-opt');
      window.__opt = li;
      return { t: window.skipper.frame.t, text: li.querySelector('.bv-t').textContent, builds: window.skipper.behavior.stats.builds };
    });
    await page.click('#step');
    await waitFor(page, (t) => window.skipper.frame.t > t, before.t, 'a single step');
    await sleep(500);
    const after = await page.evaluate(() => ({
      same: window.__opt.isConnected,
      text: window.__opt.querySelector('.bv-t').textContent,
      builds: window.skipper.behavior.stats.builds,
    }));
    if (after.same && after.builds === before.builds && after.text !== before.text) {
      ok = true;
      check(true, `a step changes the times in place, the view is not rebuilt: "${before.text}" -> "${after.text}"`);
    }
  }
  if (!ok) fail('the times did not change in place over five single steps');
  await page.click('#pause');
  await waitFor(page, () => window.skipper.paused === false, null, 'the run to resume');
  await waitFor(page, () => document.querySelector('#behavior li.bv-opt.chg'), null, 'a state change highlighted', 20000);
  check(true, 'a state change is highlighted');
  await shot(page, 'behavior-xabsl.png');
  const st = await page.evaluate(() => window.skipper.behavior.stats);
  console.log(`behavior view: ${st.shows} updates, ${st.builds} rebuilds, ${st.writes} values written`);
  await viewCost(page, 'XABSL');
  await hostile(page);
}

// Every view with hostile text in every field: shown as text, never as markup; and the
// action goals (goto, run_option, run_mission) listed with their statuses.
async function hostile(page) {
  const res = await page.evaluate(() => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const el = document.createElement('div');
    document.body.appendChild(el);
    const v = new window.SkipperBehavior.View(el);
    const o = { [evil]: evil };
    const cases = {
      xabsl: { inner: { agent: evil, path: [{ option: evil, state: evil, state_time: 100, option_time: 200, depth: 0, parameters: o }], basic_behaviors: [{ name: evil, parameters: o }], outputs: o, inputs: o, option_goal: { status: 'active', id: 3, path: evil } }, goal: null, target: null },
      mission: { mission: evil, status: evil, items: [{ id: evil, state: 'preempted', by: evil, cursor: 0, iteration: 1, place: { kind: evil, x: 1, y: 2, capture_radius: 3 } }], channels: { horizontal: evil, [evil]: evil }, mission_goal: { status: 'ended', id: 4, outcome: evil } },
      link: { agent: evil, decision_cycle: 3, input: {}, input_link: { [evil]: evil, self: { [evil]: o } }, commands: [{ tt: 1, command: evil, status: evil, message: evil }], running: { tt: 1, command: evil, executing: true } },
      tree: { [evil]: [{ name: evil, x: evil }], n: 1.5 },
    };
    const out = {};
    for (const [k, state] of Object.entries(cases)) {
      v.reset();
      v.show({ name: 'r', state, goal: { status: 'active', id: 2, distance: 1.25 } });
      out[k] = {
        kind: v.kind,
        markup: el.querySelectorAll('img, script, [onerror]').length,
        shown: el.textContent.split(evil).length - 1,
        goals: [...el.querySelectorAll('tr.bv-goal')].map((t) => t.dataset.action + ':' + t.dataset.status),
      };
    }
    el.remove();
    return out;
  });
  await sleep(300);
  for (const [k, r] of Object.entries(res)) {
    check(r.kind === k && r.markup === 0 && r.shown >= 3, `${k} view: hostile text shown ${r.shown} times as text, no markup`);
  }
  check(res.xabsl.goals.join() === 'goto:active,run_option:active', `action goals listed: ${res.xabsl.goals.join(', ')}`);
  check(res.mission.goals.join() === 'goto:active,run_mission:ended', `action goals listed: ${res.mission.goals.join(', ')}`);
  check(!(await page.evaluate(() => window.__pwned === 1)), 'no script from the state ran');
}

async function missionItems(page) {
  return page.$$eval('#behavior li.bv-item', (ls) => ls.map((l) => ({
    id: l.dataset.id,
    state: l.dataset.state,
    badge: l.querySelector('.st').textContent,
    indent: parseFloat(getComputedStyle(l).marginLeft),
    text: l.textContent,
  })));
}

async function checkMission(page) {
  await waitView(page, 'mission');
  const items = await missionItems(page);
  check(items.length >= 10, `${items.length} items in the stack`);
  const at = (id) => items.findIndex((i) => i.id === id);
  const [a, b, c] = ['NeedSatFix', 'NeedSatFix/SurfOps', 'NeedSatFix/SurfOps/1'].map(at);
  check(a >= 0 && a < b && b < c && items[a].indent < items[b].indent && items[b].indent < items[c].indent,
    'pre-order, indented by nesting: NeedSatFix > SurfOps > 1');
  check(items.every((i) => i.state && i.badge.startsWith(i.state)), 'every item has its state badge');
  // items are named by what they are, not by their place in the stack
  const names = await page.$$eval('#behavior li.bv-item .bv-name', (ns) => ns.map((n) => n.textContent));
  check(names.length === items.length && !names.some((n) => /^\d+$/.test(n)), `no item is named by a number: ${names.slice(0, 6).join(', ')}, ...`);
  check(['Waypoint', 'YoYo', 'ReadSensor(SEA_WATER_SALINITY)'].every((n) => names.includes(n)), 'items named Waypoint, YoYo, ReadSensor(SEA_WATER_SALINITY)');
  const active = items.filter((i) => i.state === 'active').map((i) => i.id);
  check(active.length >= 1, `active items: ${active.join(', ')}`);
  const stacks = items.filter((i) => /cursor \d+, iteration \d+/.test(i.text)).length;
  check(stacks >= 3, `${stacks} substacks show their cursor and iteration`);
  const ch = await page.$$eval('#behavior tr[data-channel]', (ts) => Object.fromEntries(ts.map((t) => [t.dataset.channel, t.dataset.winner])));
  const chText = Object.entries(ch).map(([k, w]) => `${k} ${w}`).join(', ');
  check(['horizontal', 'vertical', 'speed', 'buoyancy'].every((k) => ch[k] && at(ch[k]) >= 0), `channel winners are items of the stack: ${chText}`);
  await waitFor(page, () => window.skipper.places.length >= 4 && window.skipper.places.some((p) => p.active), null, 'the mission places on the map');
  const places = await page.evaluate(() => window.skipper.places);
  check(true, `${places.length} places drawn on the map (active: ${places.filter((p) => p.active).map((p) => p.name).join(', ')})`);
  return items;
}

async function missionView(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 2, null, 'the first frames');
  const items = await checkMission(page);
  const active0 = items.filter((i) => i.state === 'active').map((i) => i.id).join();
  await waitFor(page, (a) => [...document.querySelectorAll('#behavior li.bv-item[data-state=active]')].map((l) => l.dataset.id).join() !== a,
    active0, 'an item state to change', 60000);
  const active1 = (await missionItems(page)).filter((i) => i.state === 'active').map((i) => i.id);
  check(true, `the stack follows the mission: active now ${active1.join(', ')}`);
  await viewCost(page, 'mission');
  await shot(page, 'behavior-mission.png');
  // a page that connects after 25 simulated minutes (7500 cycles, more than the 3000
  // points a trail keeps) gets the trail from the start of the run (the site's origin):
  // decimated, not cut
  await waitFor(page, () => window.skipper.frame.t > 1500, null, '25 simulated minutes', 60000);
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 0 && (window.skipper.trails[0] || []).length > 0, null, 'the trails');
  const tr = await page.evaluate(() => { const t = window.skipper.trails[0]; return { n: t.length, first: t[0], t: window.skipper.frame.t }; });
  check(tr.n <= 3000 && Math.hypot(tr.first[0], tr.first[1]) < 1, `at ${tr.t.toFixed(0)} s the trail starts where the run started: ${tr.n} points from (${tr.first})`);
}

// At time t of the replay a substack is suspended by its WHILE: every item under it
// shows suspended.
async function checkSuspended(page, t) {
  await seekTo(page, t);
  const items = await missionItems(page);
  const sus = items.find((i) => i.state === 'suspended' && items.some((c) => c.id.startsWith(i.id + '/')));
  if (!sus) fail(`no suspended substack at ${t} s: ${items.map((i) => i.id + ' ' + i.state).join(', ')}`);
  const kids = items.filter((c) => c.id.startsWith(sus.id + '/'));
  check(kids.every((c) => c.state === 'suspended'), `at ${t} s ${sus.id} is suspended and so are its ${kids.length} items: ${kids.map((c) => c.state).join(', ')}`);
}

async function missionReplay(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.info && window.skipper.frame, null, 'the replay');
  const info = await page.evaluate(() => window.skipper.info);
  await seekTo(page, info.end_t / 2);
  await checkMission(page);
  await shot(page, 'behavior-mission-replay.png');
  await checkSuspended(page, Number(name));
  // at the end, the trail is the whole run's: from the start to where the AUV ended
  await seekTo(page, info.end_t);
  await waitFor(page, () => (window.skipper.trails[0] || []).length > 1, null, 'the trail at the end');
  const r = await page.evaluate(() => ({ t: window.skipper.trails[0], p: window.skipper.frame.robots[0] }));
  const [first, last] = [r.t[0], r.t[r.t.length - 1]];
  check(r.t.length <= 3001 && Math.hypot(first[0], first[1]) < 1 && Math.hypot(last[0] - r.p.x, last[1] - r.p.y) < 1,
    `the replay's trail is the whole run: ${r.t.length} points from (${first}) to the AUV`);
  // an AUV's panel: compass heading, depth in metres (the replay has the depth)
  const sel = await page.$eval('#selected', (e) => e.textContent);
  check(/from N/.test(sel) && /depth \d+(\.\d)? m/.test(sel), `the AUV panel: ${sel.replace(/\s+/g, ' ').slice(0, 160)}`);
}

async function linkReplay(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.info && window.skipper.frame, null, 'the replay');
  const info = await page.evaluate(() => window.skipper.info);
  await seekTo(page, Math.min(3, info.end_t / 2));
  await waitView(page, 'link');
  const cmds = await page.$$eval('#behavior tr[data-command]', (ts) => ts.map((t) => ({
    command: t.dataset.command, status: t.dataset.status, text: t.textContent,
  })));
  const line = cmds.map((c) => `${c.command} ${c.status}`).join(', ');
  const has = (c, s) => cmds.some((x) => x.command === c && s.includes(x.status));
  check(has('add-waypoint', ['complete']) && has('set-velocity', ['executing', 'complete']), `output-link commands with statuses: ${line}`);
  const err = cmds.find((c) => c.status === 'error');
  check(err && /unknown command: fly/.test(err.text), `an error status with its message: "${err && err.text}"`);
  const name = await page.textContent('#behavior li[data-wme="il/self/name"]');
  check(/\^name robot1/.test(name), `the input-link tree: "${name}"`);
  check(await page.$('#behavior li[data-wme="il/self/waypoints/waypoint"]') !== null
    || await page.$('#behavior li[data-wme="il/self/waypoints/waypoint[0]"]') !== null, 'the agent\'s waypoint is on the input-link');
  // collapse and expand by hand
  await page.click('#behavior li[data-wme="il/self"] > details > summary');
  await waitFor(page, () => !document.querySelector('#behavior li[data-wme="il/self/name"]'), null, '^self to collapse');
  await page.click('#behavior li[data-wme="il/self"] > details > summary');
  await waitFor(page, () => document.querySelector('#behavior li[data-wme="il/self/name"]'), null, '^self to expand');
  await page.click('#behavior li[data-wme="il/ranges/range[0]"] > details > summary');
  await waitFor(page, () => document.querySelector('#behavior li[data-wme="il/ranges/range[0]/distance"]'), null, 'a range to expand');
  check(true, 'input-link identifiers collapse and expand');
  await viewCost(page, 'link');
  const ev = await page.evaluate(() => ({ text: document.getElementById('events').textContent, bold: document.querySelectorAll('#events b').length }));
  check(ev.text.includes('<b>not bold</b>') && ev.bold === 0, 'the agent\'s print is shown as text');
  await shot(page, 'behavior-link.png');
}

async function soarView(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 2, null, 'the first frames');
  await waitView(page, 'link');
  await waitFor(page, () => document.querySelectorAll('#behavior tr[data-command]').length >= 1, null, 'a command on the output-link', 30000);
  const cmds = await page.$$eval('#behavior tr[data-command]', (ts) => ts.map((t) => `${t.dataset.command} ${t.dataset.status}`));
  check(true, `the Soar agent's commands: ${cmds.join(', ')}`);
  check(await page.$('#behavior li[data-wme="il/self/pose"]') !== null, 'the input-link tree');
  await shot(page, 'behavior-soar.png');
}

async function rosGoals(page) {
  await page.goto(target);
  await waitFor(page, () => window.skipper && window.skipper.frames > 2, null, 'the first frames');
  await waitView(page, 'xabsl');
  await waitFor(page, () => document.querySelector('#behavior tr.bv-goal[data-action=run_option]'), null, 'the run_option goal');
  const row = await page.$eval('#behavior tr.bv-goal[data-action=run_option]', (t) => ({ status: t.dataset.status, text: t.textContent }));
  check(row.status === 'succeeded' && /#1/.test(row.text) && /turn_to\.there/.test(row.text),
    `the run_option goal with its id, status and feedback: "${row.text}"`);
  // a goto goal from the map joins it
  const fr = await frame(page);
  const r = fr.robots[0];
  const pt = await page.evaluate(([x, y]) => window.skipper.worldToPage(x, y), [r.x + 1.5, r.y]);
  await page.mouse.click(pt.x, pt.y);
  await waitFor(page, () => document.querySelector('#behavior tr.bv-goal[data-action=goto]'), null, 'the goto goal');
  const g = await page.$eval('#behavior tr.bv-goal[data-action=goto]', (t) => ({ status: t.dataset.status, text: t.textContent }));
  check(['active', 'succeeded'].includes(g.status), `the goto goal: "${g.text}"`);
  await shot(page, 'behavior-goals.png');
}

async function pageShot(page) {
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto('file://' + path.resolve(target));
  const p = path.join(outdir, name || 'page.png');
  await page.screenshot({ path: p, fullPage: true });
  const svgs = await page.evaluate(() => document.querySelectorAll('figure svg').length);
  check(svgs >= 4, `the report shows ${svgs} plots`);
  console.log('screenshot ' + p);
}

// A fleet's report as a reader sees it. The report marks each line of a plot as an SVG
// polyline of class `line` (`line robot` for one robot's) with `data-legend`, the text of
// its legend entry or label; axes and grid are black.
async function fleetReport(page) {
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto('file://' + path.resolve(target));
  const r = await page.evaluate(() => {
    const figs = [...document.querySelectorAll('figure')];
    const out = { first: figs.length ? figs[0].id : '', lines: 0, unmarked: [], unknown: [], crowded: [] };
    const perSection = new Map();
    for (const f of figs) {
      if (f.id.startsWith('timeline')) continue; // lanes and event ticks, labelled by lane
      const texts = new Set();
      for (const el of f.querySelectorAll('text, figcaption span.entry')) {
        texts.add(el.textContent.trim());
      }
      let robots = false;
      for (const l of f.querySelectorAll('svg polyline')) {
        if ((l.getAttribute('stroke') || '').toUpperCase() === '#000000') continue;
        if (!l.classList.contains('line')) { out.unmarked.push(f.id); continue; }
        const legend = l.dataset.legend;
        if (!texts.has(legend)) out.unknown.push(`${f.id}: ${legend}`);
        robots = robots || l.classList.contains('robot');
        out.lines += 1;
      }
      if (robots) {
        const s = f.closest('section');
        const id = s ? s.id : '';
        perSection.set(id, (perSection.get(id) || 0) + 1);
      }
    }
    out.robotPlots = perSection.size;
    for (const [id, n] of perSection) if (n > 1) out.crowded.push(`${id}: ${n}`);
    const links = new Set([...document.querySelectorAll('#robots-section table a')]
      .map((a) => a.getAttribute('href')));
    const sections = [...document.querySelectorAll('section.robot')];
    out.robots = sections.length;
    out.unlinked = sections.filter((s) => !links.has('#' + s.id)).map((s) => s.id);
    const map = document.querySelector('#map svg');
    out.mapHeight = map ? map.getBoundingClientRect().height : 0;
    return out;
  });
  check(r.first === 'map', `the map is the first figure (${r.first})`);
  check(r.mapHeight > 100, `the map is drawn (${Math.round(r.mapHeight)} px high)`);
  check(r.unmarked.length === 0, `every line is marked (${r.lines} lines; unmarked in ${r.unmarked.slice(0, 3)})`);
  check(r.unknown.length === 0, `every line has a legend entry or a label (${r.unknown.slice(0, 3)})`);
  check(r.crowded.length === 0, `at most one plot of robots' lines per section, ${r.robotPlots} sections (${r.crowded.slice(0, 3)})`);
  check(r.robots > 9 && r.unlinked.length === 0,
    `the robots table links each of the ${r.robots} robots' sections (${r.unlinked.slice(0, 3)})`);
  const p = path.join(outdir, 'fleet-report.png');
  await page.screenshot({ path: p });
  console.log('screenshot ' + p);
}

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-chromium-'));
let context;
let code = 0;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => { console.error('page error: ' + e.message); code = 1; });
  if (mode === 'live') await live(page);
  else if (mode === 'crowd') await crowd(page);
  else if (mode === 'replay') await replay(page);
  else if (mode === 'xabsl') await xabslView(page);
  else if (mode === 'mission') await missionView(page);
  else if (mode === 'mission-replay') await missionReplay(page);
  else if (mode === 'link-replay') await linkReplay(page);
  else if (mode === 'soar') await soarView(page);
  else if (mode === 'ros') await rosGoals(page);
  else if (mode === 'page') await pageShot(page);
  else if (mode === 'fleet-report') await fleetReport(page);
  else if (mode === 'look') {
    await page.goto(target);
    await sleep(5000);
    await shot(page, name || 'look.png');
  }
  else fail('unknown mode ' + mode);
} catch (e) {
  console.error('FAILED: ' + e.message);
  try {
    const page = context && context.pages()[0];
    if (page) await page.screenshot({ path: path.join(outdir, `failed-${mode}.png`) });
  } catch (_) { /* no screenshot */ }
  code = 1;
} finally {
  if (context) await context.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
process.exit(code);
