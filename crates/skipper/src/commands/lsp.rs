//! `skipper lsp`: the language server for XABSL files and mission scripts, on stdio
//! (the logic is in `skipper-lsp`).

use crate::exit::Failure;
use clap::Args;

/// `skipper lsp`
#[derive(Debug, Args)]
#[command(
    after_help = "An editor starts it and talks the Language Server Protocol on its standard input
and output; see docs/editors.md for VS Code and Neovim. For example, in Neovim:
  vim.lsp.start({ name = 'skipper', cmd = { 'skipper', 'lsp' } })

It checks .xabsl files as part of their agent (the agents file that includes
them, in their folder or above) and .lua mission scripts, as you type."
)]
pub struct LspArgs {}

/// Serve until the editor says `exit`.
pub fn run(_: LspArgs) -> Result<u8, Failure> {
    skipper_lsp::serve_stdio().map_err(|e| Failure::failed(e.to_string()))?;
    Ok(0)
}
