//! `volume create -f FILE`: Nomad's volume specification made into the
//! flags it stands for (see [`crate::volume_spec`]), so that a plugin
//! gets from a file exactly what it gets from the flags.

use std::path::Path;

use plugctl_core::trust::{CheckedDir, Refusal};

use crate::cli::VolumeCreateArgs;
use crate::commands::Ctx;
use crate::node_identity::NodeIdentity;
use crate::volume_spec::{self, Located};
use crate::{Error, Result};

/// A specification is a few hundred bytes; this bounds a mistaken file.
pub const SPEC_FILE_MAX: u64 = 1 << 20;

/// `args` with the file's values in the flags' places (clap has made sure
/// no flag names them too). A value only a server could honour is a
/// warning on stderr; a node or pool that is not this node's, a type other
/// than host, or a file that does not parse is a usage error naming the
/// file and line.
pub fn into_flags(
    ctx: &Ctx,
    node: &NodeIdentity,
    mut args: VolumeCreateArgs,
    file: &Path,
) -> Result<VolumeCreateArgs> {
    let shown = file.display();
    let bytes = read(ctx, file)?;
    let spec = volume_spec::parse(&bytes).map_err(|e| Error::usage(format!("-f {shown}: {e}")))?;
    let at = |v: &Located| format!("-f {shown}, line {}", v.line);
    if let Some(pool) = &spec.node_pool
        && pool.value != ctx.settings.node_pool
    {
        return Err(Error::usage(format!(
            "{}: node_pool = {}, but this node is in pool {}: a Nomad server would not \
             place the volume here (--node-pool sets this node's pool)",
            at(pool),
            plugctl_core::escape::quote(&pool.value),
            plugctl_core::escape::quote(&ctx.settings.node_pool)
        )));
    }
    if let Some(id) = &spec.node_id {
        let this = match node.fixed() {
            Some(id) => id.to_string(),
            None => ctx.registry.read()?.state().node_id_to_be(),
        };
        if !id.value.eq_ignore_ascii_case(&this) {
            return Err(Error::usage(format!(
                "{}: node_id = {} is another node (this one is {this}): plugctl creates \
                 volumes on this node only",
                at(id),
                plugctl_core::escape::quote(&id.value)
            )));
        }
    }
    let required = |v: Option<Located>, key: &str| {
        v.map(|v| v.value).ok_or_else(|| {
            Error::usage(format!(
                "-f {shown}: no {key}: a host volume's specification names its {key}"
            ))
        })
    };
    args.plugin = Some(required(spec.plugin_id, "plugin_id")?);
    args.name = Some(required(spec.name, "name")?);
    args.id = spec.id.map(|v| v.value);
    if let Some(ns) = spec.namespace {
        args.namespace = ns.value;
    }
    let size = |v: Option<Located>, key: &str| -> Result<Option<u64>> {
        v.map(|v| {
            crate::units::parse_size(&v.value)
                .map_err(|e| Error::usage(format!("{}: {key}: {e}", at(&v))))
        })
        .transpose()
    };
    args.capacity_min = size(spec.capacity_min, "capacity_min")?;
    args.capacity_max = size(spec.capacity_max, "capacity_max")?;
    args.params = spec.parameters.into_iter().collect();
    // Said once the file is taken: a refusal above is the one message.
    for (what, line) in &spec.unhonoured {
        ctx.printer
            .warn(format!("-f {shown}, line {line}: {}", what.sentence()));
    }
    Ok(args)
}

/// The file, through the trust gate (plugctl runs as root; the file is
/// someone's): not through a symlink, in a directory only its owner and
/// root can change.
fn read(ctx: &Ctx, file: &Path) -> Result<Vec<u8>> {
    let refused = |r: Refusal| match r {
        Refusal::Symlink(_) => Error::usage(format!(
            "cannot read -f {}: it is a symbolic link, which plugctl does not follow; name the \
             file itself",
            file.display()
        )),
        r => Error::refused(format_args!("cannot read -f {}", file.display()), &r),
    };
    let dir = CheckedDir::open(
        ctx.settings.policy(),
        plugctl_core::registry::parent_dir(file),
    )
    .map_err(refused)?;
    dir.read(file.file_name().unwrap_or_default(), SPEC_FILE_MAX)
        .map_err(refused)
}
