//! TEMPORARY STUB (replaced by the protocol branch).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct JsonError(String);
pub struct Object {
    m: serde_json::Map<String, serde_json::Value>,
}
pub fn parse_object(bytes: &[u8]) -> Result<Object, JsonError> {
    serde_json::from_slice(bytes)
        .map(|m| Object { m })
        .map_err(|e| JsonError(e.to_string()))
}
impl Object {
    pub fn raw(&self, f: &str) -> Option<&serde_json::Value> {
        self.m.get(f).filter(|v| !v.is_null())
    }
    pub fn string(&self, f: &str) -> Result<Option<String>, JsonError> {
        match self.raw(f) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(JsonError("type".into())),
        }
    }
    pub fn int64(&self, f: &str) -> Result<Option<i64>, JsonError> {
        Ok(self.raw(f).and_then(|v| v.as_i64()))
    }
    pub fn string_map(
        &self,
        _f: &str,
    ) -> Result<Option<std::collections::BTreeMap<String, String>>, JsonError> {
        Ok(None)
    }
    pub fn has_key_folded(&self, f: &str) -> bool {
        self.m.contains_key(f)
    }
}
