//! `plugctl secret fetch`.

use super::Ctx;
use crate::cli::SecretCommand;
use crate::{Error, Result};

pub async fn run(_ctx: &Ctx, _cmd: SecretCommand) -> Result<()> {
    Err(Error::Failed("secret: not implemented yet".into()))
}
