//! The tree HCL 1 parses a file into (`hcl/ast`): a list of items, each
//! with one or more keys and a value that is a literal, an object (a
//! block's body, or `{...}`) or a list. Nothing is merged or interpreted
//! here: a key given twice is two items, in order, and a block with labels
//! (`client "x" {}`) is one item with two keys.

use crate::text::equal_fold_ascii;
use crate::token::{Pos, Token, ValueError};

/// A parsed file.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    pub root: ObjectList,
    /// Read as JSON (its first character that is not a space is `{`).
    pub json: bool,
}

/// The items of a file or an object, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjectList {
    pub items: Vec<ObjectItem>,
}

/// `key = value`, `key "label" { ... }`: the keys (identifiers or
/// strings) and the value.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectItem {
    pub keys: Vec<Token>,
    pub val: Node,
}

/// A value.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A number, float, bool, string or heredoc.
    Literal(Token),
    Object(ObjectType),
    List(ListType),
}

/// `{ ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectType {
    pub lbrace: Pos,
    pub list: ObjectList,
}

/// `[ ... ]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ListType {
    pub lbrack: Pos,
    pub items: Vec<Node>,
}

impl Node {
    /// Where the value starts.
    pub fn pos(&self) -> Pos {
        match self {
            Node::Literal(t) => t.pos,
            Node::Object(o) => o.lbrace,
            Node::List(l) => l.lbrack,
        }
    }
}

impl ObjectItem {
    /// Where the item starts: its first key.
    pub fn pos(&self) -> Pos {
        self.keys.first().map(|k| k.pos).unwrap_or_default()
    }
}

impl ObjectList {
    /// HCL 1's `Filter(name)`: the items whose first key is `name` (as Go's
    /// `strings.EqualFold` compares it, so `Client` and `CLIENT` are
    /// `client`), in order, with that key taken off. Every item's first
    /// key is unquoted to compare it, and one HCL 1 cannot unquote makes
    /// it panic: an error here.
    pub fn filter(&self, name: &str) -> Result<ObjectList, (Pos, ValueError)> {
        let mut items = Vec::new();
        for item in &self.items {
            let Some(first) = item.keys.first() else {
                continue;
            };
            let key = first.string_value().map_err(|e| (first.pos, e))?;
            let matches = std::str::from_utf8(&key).is_ok_and(|k| equal_fold_ascii(k, name));
            if matches {
                items.push(ObjectItem {
                    keys: item.keys[1..].to_vec(),
                    val: item.val.clone(),
                });
            }
        }
        Ok(ObjectList { items })
    }

    /// The items that still have keys (`Children`): nested blocks.
    pub fn children(&self) -> ObjectList {
        ObjectList {
            items: self
                .items
                .iter()
                .filter(|i| !i.keys.is_empty())
                .cloned()
                .collect(),
        }
    }

    /// The items with no key left (`Elem`): the values themselves.
    pub fn elem(&self) -> ObjectList {
        ObjectList {
            items: self
                .items
                .iter()
                .filter(|i| i.keys.is_empty())
                .cloned()
                .collect(),
        }
    }

    /// Where the list starts: its first item (none for an empty list).
    pub fn pos(&self) -> Option<Pos> {
        self.items.first().map(ObjectItem::pos)
    }
}
