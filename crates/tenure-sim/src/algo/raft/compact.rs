//! Log compaction: when the world's logs and the checker's records are compacted, and
//! through which index.

use super::{RaftAdapter, Role, id_of};

impl RaftAdapter {
    /// Sets the compaction point and the committed length that triggers the next try
    /// (`u64::MAX` with compaction off: no committed length reaches it).
    pub(super) fn set_compaction_point(&mut self, compacted: u64) {
        self.compacted = compacted;
        self.compact_at = if self.compact_every > 0 {
            compacted.saturating_add(self.compact_every.saturating_mul(2))
        } else {
            u64::MAX
        };
    }

    /// Compacts every log and the checker through the highest index that every node's log
    /// holds the same as the committed log and that every live leader knows each peer to
    /// hold (so no leader ever needs a compacted entry: Tenure has no snapshot transfer, see
    /// `RaftNode::compact_log`), keeping `compact_every` entries below it.
    pub(super) fn maybe_compact(&mut self) {
        let mut upto = u64::MAX;
        for (p, slot) in self.slots.iter().enumerate() {
            upto = upto.min(self.checker.agrees_through(id_of(p)));
            if let Some(node) = slot.node.as_ref().filter(|n| n.role() == Role::Leader) {
                for q in (0..self.slots.len()).filter(|&q| q != p) {
                    upto = upto.min(node.match_index(id_of(q)).unwrap_or(0));
                }
            }
        }
        let upto = upto.saturating_sub(self.compact_every);
        if upto < self.compacted.saturating_add(self.compact_every) {
            return;
        }
        for slot in &mut self.slots {
            if let Some(node) = slot.node.as_mut() {
                node.compact_log(upto);
            }
            slot.durable.compact(upto);
        }
        self.checker.compact(upto);
        self.set_compaction_point(upto);
    }
}
