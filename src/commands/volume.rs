//! `plugctl volume ...`: dynamic host volumes end to end.

use super::Ctx;
use crate::cli::VolumeCommand;
use crate::{Error, Result};

pub async fn run(_ctx: &Ctx, _cmd: VolumeCommand) -> Result<()> {
    Err(Error::Failed("volume: not implemented yet".into()))
}
