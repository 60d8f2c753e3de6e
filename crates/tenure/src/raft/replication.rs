//! Log replication and commitment: AppendEntries on both sides (Raft §5.3, §5.4.2).

use super::event::{RaftEvent, Role};
use super::message::{Entry, Message};
use super::node::RaftNode;
use super::persist::PersistOp;
use crate::id::NodeId;
use crate::time::Instant;
use alloc::vec::Vec;

impl RaftNode {
    /// Leader: sends every peer its AppendEntries (entries from its `next_index`, or a
    /// heartbeat when it is caught up).
    pub(crate) fn broadcast_append(&mut self) {
        let peers: Vec<NodeId> = self.progress.keys().copied().collect();
        for peer in peers {
            self.send_append(peer);
        }
    }

    /// Leader: sends `peer` up to `max_entries_per_append` entries from its `next_index`.
    pub(crate) fn send_append(&mut self, peer: NodeId) {
        let Some(progress) = self.progress.get(&peer) else {
            return;
        };
        let next_index = progress
            .next_index
            .clamp(1, self.log.last_index().saturating_add(1));
        let prev_log_index = next_index.saturating_sub(1);
        let prev_log_term = self.log.term_at(prev_log_index).unwrap_or(0);
        let entries = self
            .log
            .slice_from(next_index, self.config.max_entries_per_append);
        let msg = Message::AppendEntries {
            term: self.term,
            prev_log_index,
            prev_log_term,
            entries,
            leader_commit: self.commit_index,
        };
        self.send(peer, msg);
    }

    /// Leader: advance the commit index to the highest index stored on a quorum, but only
    /// if that entry is of the current term (§5.4.2, Figure 8; design rule 6; S13).
    /// Older entries are committed indirectly, by the no-op or a later entry.
    pub(crate) fn maybe_commit(&mut self) {
        if self.role != Role::Leader {
            return;
        }
        let mut matched: Vec<u64> = self.progress.values().map(|p| p.match_index).collect();
        matched.push(self.log.last_index());
        matched.sort_unstable_by(|a, b| b.cmp(a));
        let quorum_index = self.config.quorum().saturating_sub(1);
        let Some(&candidate) = matched.get(quorum_index) else {
            return;
        };
        if candidate > self.commit_index && self.log.term_at(candidate) == Some(self.term) {
            self.set_commit_index(candidate);
        }
    }

    fn set_commit_index(&mut self, index: u64) {
        if index > self.commit_index {
            self.commit_index = index;
            self.emit(RaftEvent::Committed { index });
        }
    }

    /// The follower's side of AppendEntries (Raft Figure 2, "AppendEntries RPC", receiver
    /// steps 1-5). A higher term was already adopted by the caller.
    pub(crate) fn handle_append_entries(
        &mut self,
        now: Instant,
        from: NodeId,
        term: u64,
        (prev_log_index, prev_log_term): (u64, u64),
        entries: Vec<Entry>,
        leader_commit: u64,
    ) {
        if term < self.term {
            // Step 1: refuse, and tell the stale leader our term so it steps down.
            self.reply_append(from, false, 0);
            return;
        }
        if self.role == Role::Leader {
            // Two leaders in one term cannot happen with honest peers (§5.2): ignore.
            return;
        }
        // A leader of our term exists: follow it and reset the election timer (§5.2).
        self.become_follower(now, term, Some(from));

        // Step 2: consistency check on the previous entry.
        if self.log.term_at(prev_log_index) != Some(prev_log_term) {
            let hint = prev_log_index.saturating_sub(1).min(self.log.last_index());
            self.reply_append(from, false, hint);
            return;
        }
        // Steps 3-4: skip entries we already hold, truncate at the first conflict, append
        // the rest. Accept at most `max_entries_per_append` so one message stays bounded.
        let entries: Vec<Entry> = entries
            .into_iter()
            .take(self.config.max_entries_per_append)
            .collect();
        let mut new_from = entries.len();
        let mut conflict = false;
        for (offset, entry) in entries.iter().enumerate() {
            let index = prev_log_index
                .saturating_add(u64::try_from(offset).unwrap_or(u64::MAX))
                .saturating_add(1);
            match self.log.term_at(index) {
                Some(t) if t == entry.term => continue,
                Some(_) => {
                    if index <= self.commit_index {
                        // Would rewrite a committed entry: not an honest leader. Ignore.
                        return;
                    }
                    conflict = true;
                }
                None => {}
            }
            new_from = offset;
            break;
        }
        let new_entries = entries.get(new_from..).unwrap_or(&[]).to_vec();
        if !new_entries.is_empty() {
            let first_index = prev_log_index
                .saturating_add(u64::try_from(new_from).unwrap_or(u64::MAX))
                .saturating_add(1);
            if conflict {
                self.log.truncate_from(first_index);
            }
            for entry in &new_entries {
                self.log.push(*entry);
            }
            let op = if conflict {
                PersistOp::TruncateAndAppend {
                    first_index,
                    entries: new_entries,
                }
            } else {
                PersistOp::Append {
                    first_index,
                    entries: new_entries,
                }
            };
            self.persist_log(op);
        }
        let last_new = prev_log_index.saturating_add(u64::try_from(entries.len()).unwrap_or(0));
        // Step 5: commit up to what the leader committed, within what we know matches.
        self.set_commit_index(leader_commit.min(last_new));
        self.reply_append(from, true, last_new);
    }

    fn reply_append(&mut self, to: NodeId, success: bool, match_index: u64) {
        let msg = Message::AppendEntriesResponse {
            term: self.term,
            success,
            match_index,
        };
        self.send(to, msg);
    }

    /// The leader's side: track what each peer holds, commit, and send what is missing.
    /// A higher term was already handled by the caller; older terms are ignored.
    pub(crate) fn handle_append_response(
        &mut self,
        from: NodeId,
        term: u64,
        success: bool,
        match_index: u64,
    ) {
        if term != self.term || self.role != Role::Leader {
            return;
        }
        self.recent_active.insert(from);
        let last_index = self.log.last_index();
        let Some(progress) = self.progress.get_mut(&from) else {
            return;
        };
        if success {
            if match_index > last_index {
                return; // Claims entries we never sent: ignore.
            }
            progress.match_index = progress.match_index.max(match_index);
            progress.next_index = progress
                .next_index
                .max(progress.match_index.saturating_add(1));
            let more = progress.next_index <= last_index;
            self.maybe_commit();
            if more {
                self.send_append(from);
            }
        } else {
            // Back off to the hint, never below what is known to match (§5.3).
            let floor = progress.match_index.saturating_add(1);
            let next = progress
                .next_index
                .saturating_sub(1)
                .min(match_index.saturating_add(1))
                .max(floor);
            if next < progress.next_index {
                progress.next_index = next;
                self.send_append(from);
            }
        }
    }
}
