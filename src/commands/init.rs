//! `plugctl init`.

use super::Ctx;
use crate::cli::InitArgs;
use crate::{Error, Result};

pub fn run(_ctx: &Ctx, _args: InitArgs) -> Result<()> {
    Err(Error::Failed("init: not implemented yet".into()))
}
