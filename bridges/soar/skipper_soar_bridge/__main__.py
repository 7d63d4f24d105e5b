"""skipper-soar-bridge: run one Soar agent against Skipper's SPS link.

Protocol (JSON lines): the bridge says `hello`, Skipper answers with the first
`input` (the whole input-link); then each decision cycle the bridge sends a `step`
with the new commands from its after-output callback and applies the `input` reply
there. See docs/soar.md.

    skipper-soar-bridge AGENT.soar [--name robot1] [--seed 0] [--connect 127.0.0.1:PORT]

Without --connect it speaks on stdin/stdout (how `skipper run --soar` starts it).
"""

import argparse
import json
import os
import socket
import sys

try:
    import soar_sml as sml
except ImportError:  # pragma: no cover - reported to the user
    sml = None

MAX_IDS = 10000  # identifiers sent per decision cycle (word lists are walked flat)


def log(*a):
    print("skipper-soar-bridge:", *a, file=sys.stderr, flush=True)


def clean_load_error(text):
    """Soar's load error without its progress marks: `source` prints a `*` for every
    production it adds (and `#` for other constructs) before the message, often dozens of
    lines of them; keep only the lines that say something."""
    out = []
    for line in text.splitlines():
        line = line.lstrip("*#").rstrip()
        if line.strip():
            out.append(line)
    return "\n".join(out)


class Channel:
    """One JSON object per line, over a pair of binary streams."""

    def __init__(self, rfile, wfile):
        self.r = rfile
        self.w = wfile

    def send(self, obj):
        self.w.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
        self.w.flush()

    def recv(self):
        line = self.r.readline()
        if not line:
            raise EOFError("Skipper closed the link")
        return json.loads(line)


def constant(wme):
    """A constant WME value as a wire value: {"i":..}, {"f":..} or {"s":..}."""
    t = wme.GetValueType()
    s = wme.GetValueAsString()
    if t == "int":
        try:
            return {"i": int(s)}
        except ValueError:
            return {"s": s}
    if t in ("double", "float"):
        try:
            return {"f": float(s)}
        except ValueError:
            return {"s": s}
    return {"s": s}


def attrs_of(ident, table, queue):
    """The children of an identifier, queueing identifier values not yet in `table`."""
    out = []
    for j in range(ident.GetNumberChildren()):
        ch = ident.GetChild(j)
        if ch is None:
            continue
        attr = ch.GetAttribute()
        if ch.IsIdentifier():
            name = ch.GetValueAsString()
            out.append([attr, {"id": name}])
            if name not in table and len(table) < MAX_IDS:
                table[name] = []
                queue.append((name, ch.ConvertToIdentifier()))
        else:
            out.append([attr, constant(ch)])
    return out


class Mirror:
    """The input-link as Skipper describes it: WME ids to SML elements."""

    def __init__(self, agent):
        self.agent = agent
        self.ids = {0: agent.GetInputLink()}
        self.wmes = {}
        self.kinds = {}
        self.children = {}

    def _forget(self, w):
        stack = [w]
        while stack:
            k = stack.pop()
            self.wmes.pop(k, None)
            self.ids.pop(k, None)
            self.kinds.pop(k, None)
            stack.extend(self.children.pop(k, ()))

    def apply(self, msg, commands):
        for st in msg.get("statuses", ()):
            cmd = commands.get(st.get("tt"))
            if cmd is None:
                continue  # the agent removed the command already
            cmd.CreateStringWME("status", st.get("status", ""))
            if st.get("message"):
                cmd.CreateStringWME("message", st["message"])
        for w in msg.get("remove", ()):
            e = self.wmes.get(w)
            if e is not None:
                e.DestroyWME()
            self._forget(w)
        for a in msg.get("add", ()):
            parent = self.ids.get(a["p"])
            if parent is None:
                log("add under unknown identifier", a["p"])
                continue
            t, attr, w = a["t"], a["a"], a["w"]
            if t == "id":
                e = parent.CreateIdWME(attr)
                self.ids[w] = e
            elif t == "int":
                e = parent.CreateIntWME(attr, int(a["v"]))
            elif t == "float":
                e = parent.CreateFloatWME(attr, float(a["v"]))
            else:
                e = parent.CreateStringWME(attr, str(a["v"]))
            self.wmes[w] = e
            self.kinds[w] = t
            self.children.setdefault(a["p"], []).append(w)
        for u in msg.get("update", ()):
            w = u["w"]
            e = self.wmes.get(w)
            if e is None:
                continue
            t = u["t"]
            if t == "int":
                e.Update(int(u["v"]))
            elif t == "float":
                e.Update(float(u["v"]))
            elif t == "string":
                e.Update(str(u["v"]))


class Bridge:
    def __init__(self, args, chan):
        self.args = args
        self.chan = chan
        self.kernel = sml.Kernel.CreateKernelInCurrentThread(True, sml.Kernel.kSuppressListener)
        if self.kernel.HadError():
            raise RuntimeError(self.kernel.GetLastErrorDescription())
        self.agent = self.kernel.CreateAgent(args.name)
        if self.agent is None:
            raise RuntimeError(self.kernel.GetLastErrorDescription())
        self.printed = []
        self.sent = set()
        self.dc = 0
        self.fired = False
        self.error = None
        # The SPS agents call (exec player-print ...): a no-op, as in the reference's hosts.
        self.kernel.AddRhsFunction("player-print", self.player_print, None)
        self.agent.RegisterForPrintEvent(sml.smlEVENT_PRINT, self.on_print, None)
        self.kernel.RegisterForUpdateEvent(sml.smlEVENT_AFTER_ALL_OUTPUT_PHASES, self.on_output, None)
        self.mirror = Mirror(self.agent)

    def player_print(self, _id, _data, _agent, _fn, _arg):
        return ""

    def on_print(self, _id, _data, _agent, message):
        text = message.strip()
        if text:
            self.printed.append(text)
            if self.args.echo:
                log(text)

    def load(self, path):
        path = os.path.abspath(path)
        if not os.path.isfile(path):
            raise RuntimeError(f"{path}: no such agent file")
        self.agent.ExecuteCommandLine(f"watch {self.args.watch}")
        self.agent.ExecuteCommandLine(f"srand {self.args.seed}")
        # relative `source` and `pushd` in the agent resolve from its own directory
        d = os.path.dirname(path)
        self.agent.ExecuteCommandLine('cd "%s"' % d)
        self.agent.LoadProductions(path)
        if self.agent.HadError():
            raise RuntimeError(f"{path}: {clean_load_error(self.agent.GetLastErrorDescription())}")

    def output_commands(self):
        """Commands on the output-link now, by timetag."""
        cur = {}
        ol = self.agent.GetOutputLink()
        if ol is None:
            return cur
        for i in range(ol.GetNumberChildren()):
            ch = ol.GetChild(i)
            if ch is not None and ch.IsIdentifier():
                cur[ch.GetTimeTag()] = ch.ConvertToIdentifier()
        return cur

    def on_output(self, *_):
        if self.error is not None:
            return
        try:
            self.fired = True
            self.dc += 1
            current = self.output_commands()
            commands, table, queue = [], {}, []
            for i in range(self.agent.GetNumberCommands()):
                c = self.agent.GetCommand(i)
                tt = c.GetTimeTag()
                if tt in self.sent:
                    continue
                self.sent.add(tt)
                commands.append({"tt": tt, "name": c.GetCommandName(), "attrs": attrs_of(c, table, queue)})
            while queue:
                name, ident = queue.pop()
                table[name] = attrs_of(ident, table, queue)
            removed = [tt for tt in self.sent if tt not in current]
            for tt in removed:
                self.sent.discard(tt)
            self.agent.ClearOutputLinkChanges()
            step = {"type": "step", "dc": self.dc, "commands": commands, "ids": table,
                    "removed": removed, "print": self.printed}
            self.printed = []
            self.chan.send(step)
            reply = self.chan.recv()
            if reply.get("type") == "error":
                raise RuntimeError(reply.get("message", "Skipper refused the step"))
            self.mirror.apply(reply, current)
            self.agent.Commit()
        except Exception as e:  # stop the run loop; reported after RunSelf returns
            self.error = e
            self.agent.StopSelf() if hasattr(self.agent, "StopSelf") else None

    def run(self):
        hello = {"type": "hello", "agent": self.args.name, "soar": getattr(sml, "__version__", "")}
        if self.args.robot:
            hello["robot"] = self.args.robot
        self.chan.send(hello)
        first = self.chan.recv()
        if first.get("type") == "error":
            raise RuntimeError(first.get("message", "refused"))
        if first.get("type") == "welcome":
            first = self.chan.recv()
        self.mirror.apply(first, {})
        self.agent.Commit()
        idle = 0
        while True:
            self.fired = False
            # one decision cycle; its output phase calls on_output (the very first run
            # of a new agent stops before its output phase, so it does not)
            self.agent.RunSelf(1)
            if self.error is not None:
                raise self.error
            if self.agent.GetRunState() == sml.sml_RUNSTATE_HALTED:
                self.chan.send({"type": "halted", "dc": self.dc, "print": self.printed})
                return
            idle = 0 if self.fired else idle + 1
            if idle > 100:
                raise RuntimeError("the agent no longer reaches its output phase")

    def close(self):
        try:
            self.kernel.Shutdown()
        except Exception:
            pass


def main(argv=None):
    ap = argparse.ArgumentParser(prog="skipper-soar-bridge", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("agent", help="the agent's .soar file (source/pushd paths resolve from its directory)")
    ap.add_argument("--name", default="robot1", help="the agent's name (Skipper uses the robot's)")
    ap.add_argument("--robot", help="with --connect: the robot to drive")
    ap.add_argument("--seed", type=int, default=0, help="Soar's random seed (srand)")
    ap.add_argument("--watch", type=int, default=0, help="Soar watch level (default 0)")
    ap.add_argument("--echo", action="store_true", help="copy the agent's print output to stderr")
    ap.add_argument("--connect", metavar="HOST:PORT", help="talk to `skipper link serve` over TCP instead of stdin/stdout")
    args = ap.parse_args(argv)

    if args.connect:
        host, _, port = args.connect.rpartition(":")
        sock = socket.create_connection((host or "127.0.0.1", int(port)))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        chan = Channel(sock.makefile("rb"), sock.makefile("wb"))
    else:
        # The protocol keeps the real stdout; anything else printing to fd 1 (the Soar
        # kernel's own messages) goes to stderr instead.
        proto = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        chan = Channel(sys.stdin.buffer, proto)

    if sml is None:
        chan.send({"type": "error", "message": "the Python package soar-sml is not installed (pip install soar-sml)"})
        return 2
    try:
        bridge = Bridge(args, chan)
    except Exception as e:
        chan.send({"type": "error", "message": f"cannot start a Soar kernel: {e}"})
        return 2
    try:
        bridge.load(args.agent)
    except Exception as e:
        chan.send({"type": "error", "message": str(e)})
        bridge.close()
        return 2
    try:
        bridge.run()
    except EOFError:
        return 0
    except Exception as e:
        try:
            chan.send({"type": "error", "message": f"bridge: {e}"})
        except Exception:
            pass
        log(e)
        return 1
    finally:
        bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
