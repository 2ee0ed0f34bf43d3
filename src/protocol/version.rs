//! TEMPORARY STUB (replaced by the protocol branch).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Malformed version: {0}")]
pub struct VersionError(String);
pub struct Version(String);
impl Version {
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        if s.is_empty() {
            Err(VersionError(s.into()))
        } else {
            Ok(Version(s.into()))
        }
    }
    pub fn original(&self) -> &str {
        &self.0
    }
    pub fn normalized(&self) -> String {
        self.0.clone()
    }
}
