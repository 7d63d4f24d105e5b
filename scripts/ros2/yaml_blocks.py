"""Checks `skipper action send --ros2`'s output against real PyYAML: every block (goal,
feedback, result: `key:` and the message under it, indented by two spaces) must read
back with yaml.safe_load and be exactly what PyYAML writes for those values in the
layout of `ros2 topic echo` (rosidl_runtime_py's message_to_yaml: block style, fields in
order, unlimited width). Usage: yaml_blocks.py OUTPUT_FILE [KEY=VALUE ...], each
KEY=VALUE a goal field whose value must read back as that string. Prints how many
blocks it checked."""
import sys
import yaml

text = open(sys.argv[1], encoding="utf-8").read().splitlines()
want_goal = dict(a.split("=", 1) for a in sys.argv[2:])
blocks, key = [], None
for line in text:
    if line.startswith("  ") and key:
        blocks[-1][1].append(line[2:])
    elif line.endswith(":") and line[:-1] in ("goal", "feedback", "result"):
        key = line[:-1]
        blocks.append((key, []))
    else:
        key = None
assert blocks and blocks[0][0] == "goal", f"no goal block in:\n{chr(10).join(text)}"
assert any(k == "result" for k, _ in blocks), "no result block"
for k, lines in blocks:
    body = "\n".join(lines) + "\n"
    values = yaml.safe_load(body)
    again = yaml.dump(values, allow_unicode=True, width=sys.maxsize, sort_keys=False,
                      default_flow_style=False)
    assert again == body, f"{k}: PyYAML writes\n{again}\nwe wrote\n{body}"
goal = yaml.safe_load("\n".join(blocks[0][1]))
for f, v in want_goal.items():
    assert goal.get(f) == v, f"goal field {f}: read back {goal.get(f)!r}, sent {v!r}"
print(f"{len(blocks)} blocks")
