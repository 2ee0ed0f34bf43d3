//! `plugctl completions`.

use super::Ctx;
use crate::cli::CompletionsArgs;
use crate::{Error, Result};

pub fn run(_ctx: &Ctx, _args: CompletionsArgs) -> Result<()> {
    Err(Error::Failed("completions: not implemented yet".into()))
}
