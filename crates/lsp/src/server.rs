//! The protocol: initialize, then one message at a time until `shutdown` and `exit`.
//! Documents are synchronised whole (every change sends the full text); each open or
//! change re-checks the file's agent (or mission) and publishes the diagnostics of every
//! file of that check.

use crate::workspace::{is_mission, FileDiagnostics, Workspace};
use crate::{outline, xabsl, Error};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::{
    CompletionOptions, CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse, Hover,
    HoverContents, HoverProviderCapability, MarkupContent, MarkupKind, OneOf,
    PublishDiagnosticsParams, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, Url,
};
use serde_json::Value;
use std::path::PathBuf;

/// What the server can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "@".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// Serve an editor on standard input and output until it says `exit`.
pub fn serve_stdio() -> Result<(), Error> {
    let (connection, threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    threads.join().map_err(|e| Error::Protocol(e.to_string()))
}

/// Serve an editor on a connection until it says `exit`.
pub fn serve(connection: &Connection) -> Result<(), Error> {
    let caps = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo { name: "skipper".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    let (id, _params) = connection
        .initialize_start()
        .map_err(|e| Error::Protocol(e.to_string()))?;
    connection
        .initialize_finish(id, caps)
        .map_err(|e| Error::Protocol(e.to_string()))?;
    let mut s = Server {
        connection,
        ws: Workspace::new(),
    };
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection
                    .handle_shutdown(&req)
                    .map_err(|e| Error::Protocol(e.to_string()))?
                {
                    return Ok(());
                }
                s.request(req)?;
            }
            Message::Notification(n) => s.notification(n)?,
            Message::Response(_) => {}
        }
    }
    Ok(())
}

struct Server<'a> {
    connection: &'a Connection,
    ws: Workspace,
}

fn path_of(uri: &Url) -> Option<PathBuf> {
    uri.to_file_path().ok()
}

impl Server<'_> {
    fn send(&self, m: Message) -> Result<(), Error> {
        self.connection
            .sender
            .send(m)
            .map_err(|e| Error::Protocol(e.to_string()))
    }

    fn publish(&self, files: Vec<FileDiagnostics>) -> Result<(), Error> {
        for f in files {
            let Ok(uri) = Url::from_file_path(&f.path) else {
                continue;
            };
            let params = PublishDiagnosticsParams::new(uri, f.diagnostics, None);
            self.send(Message::Notification(Notification::new(
                PublishDiagnostics::METHOD.into(),
                params,
            )))?;
        }
        Ok(())
    }

    fn notification(&mut self, n: Notification) -> Result<(), Error> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams = serde_json::from_value(n.params)?;
                if let Some(path) = path_of(&p.text_document.uri) {
                    let d = self.ws.update(&path, p.text_document.text);
                    self.publish(d)?;
                }
            }
            DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams = serde_json::from_value(n.params)?;
                // full synchronisation: the last change holds the whole text
                if let (Some(path), Some(c)) = (
                    path_of(&p.text_document.uri),
                    p.content_changes.into_iter().last(),
                ) {
                    let d = self.ws.update(&path, c.text);
                    self.publish(d)?;
                }
            }
            DidSaveTextDocument::METHOD => {
                let p: lsp_types::DidSaveTextDocumentParams = serde_json::from_value(n.params)?;
                if let Some(path) = path_of(&p.text_document.uri) {
                    let d = self.ws.check(&path);
                    self.publish(d)?;
                }
            }
            DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams = serde_json::from_value(n.params)?;
                if let Some(path) = path_of(&p.text_document.uri) {
                    self.ws.close(&path);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn request(&mut self, req: Request) -> Result<(), Error> {
        let id = req.id.clone();
        let result = match self.answer(req) {
            Ok(v) => Response::new_ok(id, v),
            Err(msg) => Response::new_err(id, ErrorCode::InvalidParams as i32, msg),
        };
        self.send(Message::Response(result))
    }

    /// The result of a request (JSON), or why there is none.
    fn answer(&mut self, req: Request) -> Result<Value, String> {
        let json = |v: &dyn erased::Ser| v.to_value();
        match req.method.as_str() {
            GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = params(req)?;
                let tp = p.text_document_position_params;
                let Some(path) = path_of(&tp.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let c = self.ws.compilation(&path);
                let r = xabsl::definition(&c.program, &path, tp.position)
                    .map(GotoDefinitionResponse::Scalar);
                Ok(json(&r))
            }
            References::METHOD => {
                let p: lsp_types::ReferenceParams = params(req)?;
                let tp = p.text_document_position;
                let Some(path) = path_of(&tp.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let c = self.ws.compilation(&path);
                let decl = p.context.include_declaration;
                Ok(json(&xabsl::references(
                    &c.program,
                    &path,
                    tp.position,
                    decl,
                )))
            }
            HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = params(req)?;
                let tp = p.text_document_position_params;
                let Some(path) = path_of(&tp.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let c = self.ws.compilation(&path);
                let h = xabsl::hover(&c.program, &path, tp.position).map(|(md, range)| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: md,
                    }),
                    range: Some(range),
                });
                Ok(json(&h))
            }
            Completion::METHOD => {
                let p: lsp_types::CompletionParams = params(req)?;
                let tp = p.text_document_position;
                let Some(path) = path_of(&tp.text_document.uri) else {
                    return Ok(Value::Null);
                };
                if is_mission(&path) {
                    return Ok(Value::Null);
                }
                let text = self.ws.text(&path).unwrap_or_default();
                let c = self.ws.compilation(&path);
                let c = match c.diagnostics.has_errors() {
                    true => self.ws.good_compilation(&path).unwrap_or(c),
                    false => c,
                };
                let items = xabsl::completion(&c.program, &path, &text, tp.position);
                Ok(json(&CompletionResponse::Array(items)))
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params(req)?;
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                if is_mission(&path) {
                    return Ok(json(&DocumentSymbolResponse::Nested(Vec::new())));
                }
                let text = self.ws.text(&path).unwrap_or_default();
                Ok(json(&DocumentSymbolResponse::Nested(outline::outline(
                    &text,
                ))))
            }
            other => Err(format!("`{other}` is not supported")),
        }
    }
}

fn params<T: serde::de::DeserializeOwned>(req: Request) -> Result<T, String> {
    serde_json::from_value(req.params).map_err(|e| e.to_string())
}

/// Serialising any answer to JSON.
mod erased {
    pub(super) trait Ser {
        fn to_value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Ser for T {
        fn to_value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
        }
    }
}
