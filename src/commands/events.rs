//! `plugctl events`.

use super::Ctx;
use crate::cli::EventsArgs;
use crate::{Error, Result};

pub async fn run(_ctx: &Ctx, _args: EventsArgs) -> Result<()> {
    Err(Error::Failed("events: not implemented yet".into()))
}
