// A small agent for `skipper link serve` (the SPS link's JSON lines, docs/soar.md), so the
// dashboard's link view can be tested without a Soar kernel: it adds a waypoint, drives,
// sends a command the link does not know (an error status), prints, then idles and halts.
//
//   node link_agent.mjs HOST:PORT [STEPS]
import net from 'node:net';

const [addr, stepsArg] = process.argv.slice(2);
if (!addr) {
  console.error('usage: node link_agent.mjs HOST:PORT [STEPS]');
  process.exit(2);
}
const i = addr.lastIndexOf(':');
const host = addr.slice(0, i);
const port = Number(addr.slice(i + 1));
const steps = Number(stepsArg || 120);

const cmd = (tt, name, attrs) => ({ tt, name, attrs });
const script = [
  {
    commands: [
      cmd(10, 'add-waypoint', [['id', { i: 1 }], ['x', { f: 3.0 }], ['y', { f: 1.0 }]]),
      cmd(11, 'set-velocity', [['linear-velocity', { f: 0.3 }], ['angular-velocity', { f: 0.1 }]]),
    ],
    print: ['<b>not bold</b> & not markup'],
  },
  { commands: [cmd(12, 'fly', [['to', { s: '<img src=x onerror=alert(1)>' }]])] },
];

let dc = 0;
let buf = '';
let inputs = 0;
const sock = net.connect({ host, port }, () => {
  sock.write(JSON.stringify({ type: 'hello', agent: 'dash-agent' }) + '\n');
});
const send = (o) => sock.write(JSON.stringify(o) + '\n');
sock.on('data', (d) => {
  buf += d.toString('utf8');
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    const m = JSON.parse(line);
    if (m.type === 'error') {
      console.error('link error: ' + m.message);
      process.exit(1);
    }
    if (m.type !== 'input') continue;
    inputs++;
    dc++;
    if (dc > steps) {
      send({ type: 'halted', dc });
      sock.end();
      return;
    }
    const s = script[dc - 1] || {};
    send({ type: 'step', dc, commands: s.commands || [], ids: {}, removed: [], print: s.print || [] });
  }
});
sock.on('close', () => {
  console.log(`ok - the agent ran ${dc - 1} decision cycles (${inputs} inputs)`);
  process.exit(dc > steps ? 0 : 1);
});
sock.on('error', (e) => {
  console.error('link agent: ' + e.message);
  process.exit(1);
});
