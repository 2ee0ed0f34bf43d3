//! `plugctl completions SHELL`.

use super::Ctx;
use crate::Result;
use crate::cli::CompletionsArgs;

/// Prints the same script that is committed under `completions/`, through the
/// printer so that `plugctl completions bash | head` ends quietly.
pub fn run(ctx: &Ctx, args: CompletionsArgs) -> Result<()> {
    ctx.printer.text(&crate::generate::completion(args.shell))
}
