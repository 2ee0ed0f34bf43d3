//! `plugctl test`.

use super::Ctx;
use crate::cli::TestArgs;
use crate::{Error, Result};

pub async fn run(_ctx: &Ctx, _args: TestArgs) -> Result<()> {
    Err(Error::Failed("test: not implemented yet".into()))
}
