//! `plugctl completions SHELL`.

use super::Ctx;
use crate::cli::CompletionsArgs;
use crate::{Error, Result};

/// Prints the same script that is committed under `completions/`, through the
/// printer so that `plugctl completions bash | head` ends quietly.
pub fn run(ctx: &Ctx, args: CompletionsArgs) -> Result<()> {
    if ctx.printer.json {
        return Err(Error::usage(
            "--json: completions prints a shell script, never JSON; drop --json",
        ));
    }
    ctx.printer.text(&crate::generate::completion(args.shell))
}
