//! `hcl.Decode`'s rules, for a program that takes strings and blocks of
//! strings from a file (as Nomad's agent configuration is decoded into
//! its `Config` struct):
//!
//! - A field's items are those whose first key is its name, whatever the
//!   case (`ObjectList.Filter`); a key given twice is decoded twice, in
//!   order, so the later one wins.
//! - A string takes a string, a heredoc, or (as Nomad's own build of the
//!   library, `v1.0.1-nomad-1`, also does) a number, float or bool as
//!   written; `${...}` is kept as written. An object or a list there is an
//!   error.
//! - A block takes `name { ... }` and `name = { ... }`; given twice, the
//!   second is decoded into what the first made (Nomad decodes into a
//!   struct it made beforehand), so fields set only in the first survive.
//!   A labelled block (`client "x" { ... }`) is decoded first, as a list of
//!   its labelled items. A literal or a list there is an error.
//!
//! Only the fields asked for are looked at: the rest of the file is not
//! decoded, so a block of another subsystem never stops the program.

use std::collections::BTreeMap;

use crate::ast::{Node, ObjectList};
use crate::token::{Pos, TokenKind};
use crate::{Error, ErrorKind};

/// A field of the program's struct.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub shape: Shape,
}

/// What a field takes.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    String,
    Block(&'static [Field]),
}

impl Field {
    pub const fn string(name: &'static str) -> Field {
        Field {
            name,
            shape: Shape::String,
        }
    }

    pub const fn block(name: &'static str, fields: &'static [Field]) -> Field {
        Field {
            name,
            shape: Shape::Block(fields),
        }
    }
}

/// A string decoded: its bytes (escapes such as `\xff` make strings that
/// are not UTF-8) and where the value is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringValue {
    pub bytes: Vec<u8>,
    pub pos: Pos,
}

/// Every string field the file set, by its dotted path
/// (`client.node_pool`), with the value that won. A field set to `""` is
/// set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decoded {
    values: BTreeMap<String, StringValue>,
}

impl Decoded {
    pub fn string(&self, path: &str) -> Option<&StringValue> {
        self.values.get(path)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &StringValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// Decodes `fields` from a file's (or an object's) items.
pub fn decode(root: &ObjectList, fields: &[Field]) -> Result<Decoded, Error> {
    let mut out = Decoded::default();
    decode_struct(root, fields, "", &mut out)?;
    Ok(out)
}

/// What a field is decoded from: a value, or a list of items (an object's,
/// or the labelled items of a block).
enum From<'a> {
    Node(&'a Node),
    Items(&'a ObjectList),
}

fn decode_struct(
    list: &ObjectList,
    fields: &[Field],
    prefix: &str,
    out: &mut Decoded,
) -> Result<(), Error> {
    for field in fields {
        let found = list
            .filter(field.name)
            .map_err(|(pos, e)| Error::value(pos, e))?;
        let labelled = found.children();
        let values = found.elem();
        if labelled.items.is_empty() && values.items.is_empty() {
            continue;
        }
        let path = if prefix.is_empty() {
            field.name.to_string()
        } else {
            format!("{prefix}.{}", field.name)
        };
        if !labelled.items.is_empty() {
            decode_value(&path, From::Items(&labelled), field.shape, out)?;
        }
        for item in &values.items {
            let from = match &item.val {
                Node::Object(o) => From::Items(&o.list),
                other => From::Node(other),
            };
            decode_value(&path, from, field.shape, out)?;
        }
    }
    Ok(())
}

fn found(node: &Node) -> &'static str {
    match node {
        Node::Object(_) => "an object",
        Node::List(_) => "a list",
        Node::Literal(t) => match t.kind {
            TokenKind::Number | TokenKind::Float => "a number",
            TokenKind::Bool => "a bool",
            _ => "a string",
        },
    }
}

fn decode_value(path: &str, from: From<'_>, shape: Shape, out: &mut Decoded) -> Result<(), Error> {
    match (shape, from) {
        (Shape::String, From::Node(Node::Literal(t))) => {
            let bytes = match t.kind {
                // Nomad's build of HCL 1 takes these as written.
                TokenKind::Number | TokenKind::Float | TokenKind::Bool => {
                    t.text.as_bytes().to_vec()
                }
                _ => t.string_value().map_err(|e| Error::value(t.pos, e))?,
            };
            out.values
                .insert(path.to_string(), StringValue { bytes, pos: t.pos });
            Ok(())
        }
        (Shape::String, From::Node(node)) => Err(Error::type_error(
            Some(node.pos()),
            path,
            "a string",
            found(node),
        )),
        (Shape::String, From::Items(list)) => {
            if list.items.is_empty() {
                // Debian's HCL 1.0.0 panics here; Nomad's build errs
                // without a position.
                return Err(Error {
                    pos: None,
                    kind: ErrorKind::Type {
                        path: path.to_string(),
                        expected: "a string",
                        found: "an empty object",
                    },
                });
            }
            Err(Error::type_error(list.pos(), path, "a string", "an object"))
        }
        (Shape::Block(fields), From::Items(list)) => decode_struct(list, fields, path, out),
        (Shape::Block(_), From::Node(node)) => Err(Error::type_error(
            Some(node.pos()),
            path,
            "a block",
            found(node),
        )),
    }
}
