//! XML-RPC as ROS 1 uses it: values, method calls and responses, over a minimal
//! HTTP/1.1 (`POST`, `Content-Length`, one request per connection). Parsing is bounded
//! (body size, nesting depth) and never panics; what does not parse is an error the
//! caller answers with a fault.

use quick_xml::events::Event;
use quick_xml::Reader;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Largest HTTP body accepted (bytes).
pub const MAX_BODY: usize = 4 << 20;
const MAX_HEADER: usize = 16 << 10;
const MAX_DEPTH: usize = 64;

/// An XML-RPC value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `<int>` / `<i4>`
    Int(i32),
    /// `<boolean>`
    Bool(bool),
    /// `<string>` (or bare text)
    Str(String),
    /// `<double>`
    Double(f64),
    /// `<array>`
    Array(Vec<Value>),
    /// `<struct>`
    Struct(Vec<(String, Value)>),
}

impl Value {
    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// The integer, if it is one.
    pub fn as_int(&self) -> Option<i32> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The number (int or double).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(f64::from(*i)),
            Value::Double(d) => Some(*d),
            _ => None,
        }
    }
    /// The array, if it is one.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    fn write(&self, out: &mut String) {
        out.push_str("<value>");
        match self {
            Value::Int(i) => {
                let _ = write!(out, "<i4>{i}</i4>");
            }
            Value::Bool(b) => {
                let _ = write!(out, "<boolean>{}</boolean>", u8::from(*b));
            }
            Value::Str(s) => {
                out.push_str("<string>");
                escape(s, out);
                out.push_str("</string>");
            }
            Value::Double(d) => {
                let _ = write!(out, "<double>{d:?}</double>");
            }
            Value::Array(a) => {
                out.push_str("<array><data>");
                for v in a {
                    v.write(out);
                }
                out.push_str("</data></array>");
            }
            Value::Struct(m) => {
                out.push_str("<struct>");
                for (k, v) in m {
                    out.push_str("<member><name>");
                    escape(k, out);
                    out.push_str("</name>");
                    v.write(out);
                    out.push_str("</member>");
                }
                out.push_str("</struct>");
            }
        }
        out.push_str("</value>");
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}
impl From<i32> for Value {
    fn from(i: i32) -> Self {
        Value::Int(i)
    }
}

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
}

/// What went wrong in XML-RPC.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum XmlRpcError {
    /// The XML is malformed or not XML-RPC.
    #[error("bad XML-RPC: {0}")]
    Parse(String),
    /// Nothing answers at the URL (no such host, connection refused or timed out).
    #[error("cannot connect to {url}: {why}")]
    Connect {
        /// the URL called
        url: String,
        /// why (the system's words)
        why: String,
    },
    /// The HTTP exchange failed.
    #[error("HTTP: {0}")]
    Http(String),
    /// The peer answered with a fault (its `faultCode` and `faultString`).
    #[error("the peer answered with XML-RPC fault {code}: {message}")]
    Fault {
        /// `faultCode` (0 when the fault has none)
        code: i32,
        /// `faultString` (empty when the fault has none)
        message: String,
    },
}

/// An I/O error as a sentence can quote it: its text without the `(os error N)` tail.
fn system_words(e: &std::io::Error) -> String {
    let t = e.to_string();
    match t.rsplit_once(" (os error ") {
        Some((words, _)) => words.to_string(),
        None => t,
    }
}

/// A method call's XML.
pub fn call_xml(method: &str, params: &[Value]) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?><methodCall><methodName>");
    escape(method, &mut s);
    s.push_str("</methodName><params>");
    for p in params {
        s.push_str("<param>");
        p.write(&mut s);
        s.push_str("</param>");
    }
    s.push_str("</params></methodCall>");
    s
}

/// A response's XML.
pub fn response_xml(v: &Value) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?><methodResponse><params><param>");
    v.write(&mut s);
    s.push_str("</param></params></methodResponse>");
    s
}

/// A fault response's XML.
pub fn fault_xml(code: i32, msg: &str) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?><methodResponse><fault>");
    Value::Struct(vec![
        ("faultCode".into(), Value::Int(code)),
        ("faultString".into(), Value::Str(msg.into())),
    ])
    .write(&mut s);
    s.push_str("</fault></methodResponse>");
    s
}

#[derive(Debug, Default)]
struct Node {
    name: String,
    text: String,
    children: Vec<Node>,
}

fn parse_tree(xml: &str) -> Result<Node, XmlRpcError> {
    let mut r = Reader::from_str(xml);
    let mut stack: Vec<Node> = vec![Node::default()];
    loop {
        let ev = r
            .read_event()
            .map_err(|e| XmlRpcError::Parse(format!("at byte {}: {e}", r.buffer_position())))?;
        match ev {
            Event::Start(e) => {
                if stack.len() > MAX_DEPTH {
                    return Err(XmlRpcError::Parse("nested too deeply".into()));
                }
                stack.push(Node {
                    name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
                    ..Default::default()
                });
            }
            Event::Empty(e) => {
                let n = Node {
                    name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
                    ..Default::default()
                };
                if let Some(top) = stack.last_mut() {
                    top.children.push(n);
                }
            }
            Event::End(_) => {
                let n = stack
                    .pop()
                    .ok_or_else(|| XmlRpcError::Parse("unbalanced tags".into()))?;
                match stack.last_mut() {
                    Some(top) => top.children.push(n),
                    None => return Err(XmlRpcError::Parse("unbalanced tags".into())),
                }
            }
            Event::Text(t) => {
                let s = t
                    .unescape()
                    .map_err(|e| XmlRpcError::Parse(format!("bad text: {e}")))?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&s);
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(XmlRpcError::Parse(
            "the document ends inside an element".into(),
        ));
    }
    stack
        .pop()
        .and_then(|mut root| root.children.pop())
        .ok_or_else(|| XmlRpcError::Parse("empty document".into()))
}

fn child<'a>(n: &'a Node, name: &str) -> Result<&'a Node, XmlRpcError> {
    n.children
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| XmlRpcError::Parse(format!("<{}> has no <{name}>", n.name)))
}

fn value(n: &Node) -> Result<Value, XmlRpcError> {
    let Some(t) = n.children.first() else {
        return Ok(Value::Str(n.text.clone()));
    };
    let bad = |what: &str| XmlRpcError::Parse(format!("bad {what}: `{}`", t.text.trim()));
    Ok(match t.name.as_str() {
        "i4" | "int" => Value::Int(t.text.trim().parse().map_err(|_| bad("int"))?),
        "boolean" => Value::Bool(match t.text.trim() {
            "1" | "true" => true,
            "0" | "false" => false,
            _ => return Err(bad("boolean")),
        }),
        "string" => Value::Str(t.text.clone()),
        "double" => Value::Double(t.text.trim().parse().map_err(|_| bad("double"))?),
        "dateTime.iso8601" | "base64" => Value::Str(t.text.trim().to_string()),
        "nil" => Value::Str(String::new()),
        "array" => {
            let data = child(t, "data")?;
            Value::Array(
                data.children
                    .iter()
                    .filter(|c| c.name == "value")
                    .map(value)
                    .collect::<Result<_, _>>()?,
            )
        }
        "struct" => Value::Struct(
            t.children
                .iter()
                .filter(|c| c.name == "member")
                .map(|m| Ok((child(m, "name")?.text.clone(), value(child(m, "value")?)?)))
                .collect::<Result<_, XmlRpcError>>()?,
        ),
        other => return Err(XmlRpcError::Parse(format!("unknown value type <{other}>"))),
    })
}

/// Parse a method call: (method name, parameters).
pub fn parse_call(xml: &str) -> Result<(String, Vec<Value>), XmlRpcError> {
    let root = parse_tree(xml)?;
    if root.name != "methodCall" {
        return Err(XmlRpcError::Parse(format!(
            "expected <methodCall>, found <{}>",
            root.name
        )));
    }
    let name = child(&root, "methodName")?.text.trim().to_string();
    let params = match root.children.iter().find(|c| c.name == "params") {
        Some(p) => p
            .children
            .iter()
            .filter(|c| c.name == "param")
            .map(|p| value(child(p, "value")?))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    Ok((name, params))
}

/// Parse a method response (a fault is an error).
pub fn parse_response(xml: &str) -> Result<Value, XmlRpcError> {
    let root = parse_tree(xml)?;
    if root.name != "methodResponse" {
        return Err(XmlRpcError::Parse(format!(
            "expected <methodResponse>, found <{}>",
            root.name
        )));
    }
    if let Some(f) = root.children.iter().find(|c| c.name == "fault") {
        return Err(fault(&value(child(f, "value")?)?));
    }
    let params = child(&root, "params")?;
    value(child(child(params, "param")?, "value")?)
}

/// The error of a fault's value: its `faultCode` and `faultString` (a fault without
/// them, or not a struct, is still a fault: code 0, its value as text).
fn fault(v: &Value) -> XmlRpcError {
    let member = |name: &str| match v {
        Value::Struct(m) => m.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    };
    let code = member("faultCode").and_then(Value::as_int).unwrap_or(0);
    let message = match member("faultString") {
        Some(s) => s.as_str().map(str::to_string).unwrap_or_default(),
        None => match v {
            Value::Str(s) => s.clone(),
            _ => String::new(),
        },
    };
    XmlRpcError::Fault { code, message }
}

/// Split `http://host:port/path` into (host, port).
pub fn split_url(url: &str) -> Result<(String, u16), XmlRpcError> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| XmlRpcError::Http(format!("`{url}` is not an http:// URI")))?;
    let hostport = rest.split('/').next().unwrap_or("");
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) => (
            h,
            p.parse()
                .map_err(|_| XmlRpcError::Http(format!("bad port in `{url}`")))?,
        ),
        None => (hostport, 80),
    };
    if host.is_empty() {
        return Err(XmlRpcError::Http(format!("no host in `{url}`")));
    }
    Ok((host.to_string(), port))
}

/// Call `method` at `url`; returns the response value.
pub fn call(
    url: &str,
    method: &str,
    params: &[Value],
    timeout: Duration,
) -> Result<Value, XmlRpcError> {
    let (host, port) = split_url(url)?;
    let unreachable = |why: String| XmlRpcError::Connect {
        url: url.to_string(),
        why,
    };
    let addr = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| unreachable(system_words(&e)))?
        .next()
        .ok_or_else(|| unreachable("the host has no address".into()))?;
    let mut s =
        TcpStream::connect_timeout(&addr, timeout).map_err(|e| unreachable(system_words(&e)))?;
    let _ = s.set_nodelay(true);
    let _ = s.set_read_timeout(Some(timeout));
    let _ = s.set_write_timeout(Some(timeout));
    let body = call_xml(method, params);
    let req = format!(
        "POST /RPC2 HTTP/1.1\r\nHost: {host}:{port}\r\nUser-Agent: skipper\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .map_err(|e| XmlRpcError::Http(format!("{url}: {e}")))?;
    let mut r = BufReader::new(s);
    let (status, body) = read_message(&mut r)?;
    if !status.contains(" 200") {
        return Err(XmlRpcError::Http(format!("{url}: {status}")));
    }
    parse_response(&body)
}

/// Read one HTTP message (request or response): its first line and body.
pub fn read_message(r: &mut impl BufRead) -> Result<(String, String), XmlRpcError> {
    let mut first = String::new();
    let mut len: Option<usize> = None;
    let mut total = 0;
    let mut line = String::new();
    loop {
        line.clear();
        let n = r
            .by_ref()
            .take((MAX_HEADER - total.min(MAX_HEADER)) as u64 + 1)
            .read_line(&mut line)
            .map_err(|e| XmlRpcError::Http(e.to_string()))?;
        if n == 0 {
            return Err(XmlRpcError::Http(
                "connection closed inside the HTTP header".into(),
            ));
        }
        total += n;
        if total > MAX_HEADER {
            return Err(XmlRpcError::Http("HTTP header too long".into()));
        }
        let l = line.trim_end();
        if first.is_empty() {
            if l.is_empty() {
                continue;
            }
            first = l.to_string();
            continue;
        }
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                len = Some(
                    v.trim()
                        .parse()
                        .map_err(|_| XmlRpcError::Http("bad Content-Length".into()))?,
                );
            }
        }
    }
    let mut body = Vec::new();
    match len {
        Some(n) if n > MAX_BODY => {
            return Err(XmlRpcError::Http(format!("body of {n} bytes is too large")))
        }
        Some(n) => {
            super::tcpros::read_exactly(r, n, &mut body)
                .map_err(|e| XmlRpcError::Http(format!("truncated body: {e}")))?;
        }
        None => {
            r.take(MAX_BODY as u64 + 1)
                .read_to_end(&mut body)
                .map_err(|e| XmlRpcError::Http(e.to_string()))?;
            if body.len() > MAX_BODY {
                return Err(XmlRpcError::Http("body too large".into()));
            }
        }
    }
    let body =
        String::from_utf8(body).map_err(|_| XmlRpcError::Http("body is not UTF-8".into()))?;
    Ok((first, body))
}

/// Write an HTTP 200 response with an XML body.
pub fn write_response(w: &mut impl Write, body: &str) -> std::io::Result<()> {
    let msg = format!(
        "HTTP/1.1 200 OK\r\nServer: skipper\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    w.write_all(msg.as_bytes())?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_responses_round_trip() {
        let params = vec![
            Value::from("/node"),
            Value::Array(vec![Value::Array(vec!["TCPROS".into()])]),
            Value::Int(-3),
            Value::Bool(true),
            Value::Double(0.25),
            Value::Struct(vec![("a<b".into(), "x&y".into())]),
        ];
        let (m, p) = parse_call(&call_xml("requestTopic", &params)).unwrap();
        assert_eq!(m, "requestTopic");
        assert_eq!(p, params);
        let v = Value::Array(vec![1.into(), "ok".into(), Value::Array(vec![])]);
        assert_eq!(parse_response(&response_xml(&v)).unwrap(), v);
        let e = parse_response(&fault_xml(-1, "method \"getUri\" is not supported")).unwrap_err();
        assert_eq!(
            e,
            XmlRpcError::Fault {
                code: -1,
                message: "method \"getUri\" is not supported".into()
            }
        );
        // a sentence with the code and the string, not a debug dump of the struct
        assert_eq!(
            e.to_string(),
            "the peer answered with XML-RPC fault -1: method \"getUri\" is not supported"
        );
    }

    #[test]
    fn python_style_documents_parse() {
        // Python's xmlrpc.client writes bare strings and <int>, with whitespace
        let xml = "<?xml version='1.0'?>\n<methodCall>\n<methodName>getPid</methodName>\n<params>\n<param>\n<value><string>/rosnode</string></value>\n</param>\n<param><value>bare</value></param><param><value><int>5</int></value></param>\n</params>\n</methodCall>\n";
        let (m, p) = parse_call(xml).unwrap();
        assert_eq!(m, "getPid");
        assert_eq!(p, vec!["/rosnode".into(), "bare".into(), Value::Int(5)]);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bad in [
            "",
            "garbage",
            "<methodCall>",
            "<methodCall><methodName>x</methodName><params><param><value><i4>nope</i4></value></param></params></methodCall>",
            "<a></b>",
            "<methodResponse><params></params></methodResponse>",
            &"<value>".repeat(1000),
        ] {
            assert!(parse_call(bad).is_err(), "{bad:.40}");
            assert!(parse_response(bad).is_err());
        }
        assert!(split_url("ftp://x").is_err());
        assert_eq!(
            split_url("http://127.0.0.1:11311/").unwrap(),
            ("127.0.0.1".into(), 11311)
        );
    }
}
