//! `skipper lsp` driven over stdio with JSON-RPC, as an editor does: initialize, open a
//! file with an error (its diagnostic arrives with the checker's number), change it to
//! fix the error (the diagnostics clear), go to definition, find references, hover,
//! completion, document symbols, a mission script with an error, shutdown and exit.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Editor {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Editor {
    fn start() -> Editor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skipper"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Editor {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message from the server.
    fn read(&mut self) -> Value {
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                len = n.parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// A request's result (notifications that come first are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.read();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{m}");
                return m["result"].clone();
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.read();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

const SYM: &str = "namespace sym(\"Symbols\") {
  /** how far the ball is */
  float input ball.distance [0..5000] \"mm\";
  enum mode { fast, slow };
  enum mode output out.mode;
}
";
const BBS: &str = "namespace bbs(\"Behaviors\") {
  /** walk on */
  behavior walk { float x; }
}
";
const SUB: &str = "option sub {\n  initial target state s { action { } }\n}\n";
const FIXED: &str = "option o {
  initial state s {
    decision { if (ball.distance > 10) goto t; else stay; }
    action { sub(); }
  }
  target state t {
    action { out.mode = fast; walk(x = ball.distance); }
  }
}
";

#[test]
fn an_editor_session() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().canonicalize().unwrap();
    let files = [
        ("agents.xabsl", "include \"sym.xabsl\";\ninclude \"bbs.xabsl\";\ninclude \"sub.xabsl\";\ninclude \"o.xabsl\";\nagent a(\"A\", o);\n"),
        ("sym.xabsl", SYM),
        ("bbs.xabsl", BBS),
        ("sub.xabsl", SUB),
        ("o.xabsl", FIXED),
    ];
    for (n, t) in files {
        std::fs::write(d.join(n), t).unwrap();
    }
    let o = uri(&d.join("o.xabsl"));
    let mut ed = Editor::start();
    let init = ed.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&d), "capabilities": {}}),
    );
    let caps = &init["capabilities"];
    for c in [
        "definitionProvider",
        "referencesProvider",
        "hoverProvider",
        "documentSymbolProvider",
    ] {
        assert_eq!(caps[c], json!(true), "{c}: {init}");
    }
    assert!(caps["completionProvider"].is_object(), "{init}");
    ed.notify("initialized", json!({}));

    // opened with a misspelt symbol: the checker's message and number
    let broken = FIXED.replace("if (ball.distance", "if (ball.distanse");
    ed.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": o, "languageId": "xabsl", "version": 1, "text": broken}}),
    );
    let diags = ed.diagnostics_for(&o);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "X5552");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(
        diags[0]["range"]["start"],
        json!({"line": 2, "character": 19})
    );
    let msg = diags[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("`ball.distanse`") && msg.contains("did you mean `ball.distance`?"),
        "{msg}"
    );

    // fixed: the diagnostics clear
    ed.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": o, "version": 2}, "contentChanges": [{"text": FIXED}]}),
    );
    assert_eq!(ed.diagnostics_for(&o), Vec::<Value>::new());

    // go to definition: the option called, the symbol read
    let def = ed.request("textDocument/definition", at(&o, 3, 14));
    assert_eq!(def["uri"], uri(&d.join("sub.xabsl")), "{def}");
    assert_eq!(def["range"]["start"], json!({"line": 0, "character": 7}));
    let def = ed.request("textDocument/definition", at(&o, 2, 22));
    assert_eq!(def["uri"], uri(&d.join("sym.xabsl")), "{def}");
    assert_eq!(def["range"]["start"], json!({"line": 2, "character": 14}));
    // a state
    let def = ed.request("textDocument/definition", at(&o, 2, 45));
    assert_eq!(
        (def["uri"].as_str(), &def["range"]["start"]),
        (Some(o.as_str()), &json!({"line": 5, "character": 15})),
        "{def}"
    );

    // find references: the declaration and both uses
    let refs = ed.request(
        "textDocument/references",
        json!({"textDocument": {"uri": o}, "position": {"line": 2, "character": 22}, "context": {"includeDeclaration": true}}),
    );
    assert_eq!(refs.as_array().unwrap().len(), 3, "{refs}");

    // hover: declaration with type, range, unit, and the doc comment
    let h = ed.request("textDocument/hover", at(&o, 2, 22));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("float input ball.distance [0..5000] \"mm\""),
        "{text}"
    );
    assert!(text.contains("how far the ball is"), "{text}");
    let h = ed.request("textDocument/hover", at(&o, 6, 32));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("behavior walk { float x; }") && text.contains("walk on"),
        "{text}"
    );

    // completion: after `goto` the states; in an action symbols, options, behaviors,
    // enumeration elements
    let labels = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let c = ed.request("textDocument/completion", at(&o, 2, 44));
    assert_eq!(labels(&c), vec!["s", "t"]);
    let c = labels(&ed.request("textDocument/completion", at(&o, 6, 13)));
    for want in [
        "ball.distance",
        "out.mode",
        "sub",
        "o",
        "walk",
        "fast",
        "slow",
        "s",
        "t",
    ] {
        assert!(c.iter().any(|l| l == want), "{want} in {c:?}");
    }

    // the outline: the option and its states
    let syms = ed.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": o}}),
    );
    assert_eq!(syms[0]["name"], "o");
    let kids: Vec<&str> = syms[0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(kids, vec!["s", "t"]);

    // a mission script with an unknown behavior
    let m = d.join("m.lua");
    let mission = "NAME = \"m\"\nSTACK = {\n  BEHAVIOR(Guidance.Hover)\n}\n";
    std::fs::write(&m, mission).unwrap();
    let mu = uri(&m);
    ed.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": mu, "languageId": "lua", "version": 1, "text": mission}}),
    );
    let diags = ed.diagnostics_for(&mu);
    let err = diags.iter().find(|d| d["severity"] == 1).expect("an error");
    assert_eq!(err["range"]["start"]["line"], 2);
    assert!(
        err["message"].as_str().unwrap().contains("Guidance.Hover"),
        "{err}"
    );

    assert_eq!(ed.request("shutdown", Value::Null), Value::Null);
    ed.notify("exit", Value::Null);
    let status = ed.child.wait().unwrap();
    assert!(status.success(), "{status}");
}
