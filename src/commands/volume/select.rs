//! The one volume `volume show` or `volume delete` names (by id, id prefix
//! or name: [`plugctl_core::registry::find`]), or the error an operator
//! reads: several fit (a usage error listing them), or none does (not
//! found, saying what was looked for).

use crate::cli::VolumeSelector;
use crate::{Error, Result};
use plugctl_core::registry::find::{Found, MIN_ID_PREFIX, SHORT_ID, VolumeRef};
use plugctl_core::registry::{State, Volume};

/// How many of the volumes that fit an ambiguous name are listed.
const LISTED: usize = 10;

/// The volume `selector` names.
pub fn one<'s, 'a>(state: &'s State<'a>, selector: &VolumeSelector) -> Result<&'s Volume<'a>> {
    let what = selector.volume_ref();
    let namespace = selector.namespace.as_str();
    match state.lookup_volume(what, namespace) {
        Found::One(v) => Ok(v),
        Found::Ambiguous(fits) => Err(ambiguous(state, what, &fits)),
        Found::None => Err(not_found(what, namespace)),
    }
}

fn ambiguous(state: &State<'_>, what: VolumeRef<'_>, fits: &[&Volume<'_>]) -> Error {
    // Each by as much of its id as names it alone among all volumes (as
    // tables show it), and at least as much as tells these apart.
    let width = distinct_width(fits);
    let ids = state.short_ids();
    let mut list: Vec<String> = fits
        .iter()
        .take(LISTED)
        .map(|v| {
            let shown = ids.of(&v.id);
            let id = if shown.len() >= width {
                shown
            } else {
                v.id.get(..width).unwrap_or(&v.id)
            };
            format!(
                "{id} {} (namespace {})",
                plugctl_core::escape::quote_os(v.name.as_ref()),
                v.namespace
            )
        })
        .collect();
    if fits.len() > LISTED {
        list.push(format!("and {} more", fits.len() - LISTED));
    }
    let how = match what {
        VolumeRef::Any(_) => "give more of the id, or say --id or --name",
        VolumeRef::Id(_) | VolumeRef::Name(_) => "give more of the id",
    };
    Error::usage(format!(
        "{} names {} volumes: {}; {how}",
        plugctl_core::escape::quote_os(what.text()),
        fits.len(),
        list.join(", ")
    ))
}

/// The shortest length, from [`SHORT_ID`] up, at which these ids differ:
/// the list must tell apart what it lists.
fn distinct_width(fits: &[&Volume<'_>]) -> usize {
    let longest = fits.iter().map(|v| v.id.len()).max().unwrap_or(0);
    (SHORT_ID..longest)
        .find(|&n| {
            let mut seen = std::collections::HashSet::new();
            fits.iter()
                .all(|v| seen.insert(v.id.get(..n).unwrap_or(&v.id)))
        })
        .unwrap_or(longest)
}

fn not_found(what: VolumeRef<'_>, namespace: &str) -> Error {
    let text = what.text();
    // Hex digits and dashes, but fewer than a prefix takes: say so, or
    // the rule looks like a missing volume.
    let short_hex = text.len() < MIN_ID_PREFIX
        && !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    // A whole id (36 characters) is an id, never the start of a longer one.
    let as_id = if what.id_prefix().is_some() && text.len() < 36 {
        "that id or an id starting with it"
    } else {
        "that id"
    };
    let note = if short_hex {
        format!("; an id prefix takes at least {MIN_ID_PREFIX} characters")
    } else {
        String::new()
    };
    let why = match what {
        VolumeRef::Any(_) => {
            format!("no volume has that name in namespace {namespace}, nor {as_id}{note}")
        }
        VolumeRef::Id(_) => format!("no volume has {as_id}{note}"),
        VolumeRef::Name(_) => format!("no volume has that name in namespace {namespace}"),
    };
    Error::NotFound {
        what: "volume",
        name: format!(
            "{text_q} ({why})",
            text_q = plugctl_core::escape::quote(text)
        ),
    }
}
