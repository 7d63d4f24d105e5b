// Drives Debian's chromium (headless, through playwright-core) against the Skipper
// dashboard, the way a person would, and saves screenshots.
//
//   node browser.mjs live   URL OUTDIR   a run: the robot moves; pause, step and speed
//                                        work; a click on the map sends a goto and the robot
//                                        heads there; estop stops it
//   node browser.mjs crowd  URL OUTDIR   a run with many robots: frames keep coming
//   node browser.mjs replay URL OUTDIR   a replay: the slider moves the robots, Play plays
//   node browser.mjs page   FILE OUTDIR NAME   a screenshot of a local HTML file (the report)
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

async function pageShot(page) {
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto('file://' + path.resolve(target));
  const p = path.join(outdir, name || 'page.png');
  await page.screenshot({ path: p, fullPage: true });
  const svgs = await page.evaluate(() => document.querySelectorAll('figure svg').length);
  check(svgs >= 4, `the report shows ${svgs} plots`);
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
  else if (mode === 'page') await pageShot(page);
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
