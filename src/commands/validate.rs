//! `plugctl validate`.

use super::Ctx;
use crate::cli::ValidateArgs;
use crate::{Error, Result};

pub async fn run(_ctx: &Ctx, _args: ValidateArgs) -> Result<()> {
    Err(Error::Failed("validate: not implemented yet".into()))
}
