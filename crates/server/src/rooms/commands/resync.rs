//! `{"type":"resync"}`: a fresh snapshot (then `hello` and any preview).

use super::After;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::CommandError;
use crate::rooms::room::Room;

/// Sends the snapshot to this connection only.
pub(super) fn handle(room: &mut Room, conn: ConnId) -> Result<After, CommandError> {
    room.send_snapshot(conn);
    room.send_previews(Some(conn));
    Ok(After::Stay)
}
