//! Rebuild when the web client changes: release builds embed `web/`, and a
//! file added there must trigger a rebuild (cargo scans the whole directory).
fn main() {
    println!("cargo:rerun-if-changed=web");
}
