//! Log replication and commitment: AppendEntries on both sides (Raft §5.3, §5.4.2).

use super::event::{RaftEvent, Role};
use super::message::{Entry, Message};
use super::node::RaftNode;
use super::persist::PersistOp;
use super::progress::ProgressState;
use crate::id::NodeId;
use crate::time::Instant;
use alloc::vec::Vec;

impl RaftNode {
    /// Leader, at each heartbeat tick: every follower gets exactly one message. A probing
    /// follower gets a fresh probe (its previous one may be lost); a streaming follower
    /// gets a heartbeat anchored at its `match_index`, which never conflicts, unless its
    /// window has not moved for a whole interval, in which case the window is presumed lost
    /// and probing restarts from `match_index + 1`.
    pub(crate) fn heartbeat(&mut self, now: Instant) {
        let mut peers = core::mem::take(&mut self.scratch.peers);
        peers.extend(self.progress.keys().copied());
        for &peer in &peers {
            let Some(pr) = self.progress.get_mut(&peer) else {
                continue;
            };
            match pr.state {
                ProgressState::Probe => {
                    pr.probe_sent = false;
                    self.maybe_send_append(now, peer, true);
                }
                ProgressState::Replicate => {
                    if pr.inflights.is_empty() || pr.progressed {
                        pr.progressed = false;
                        pr.stalled = false;
                        self.send_heartbeat(now, peer);
                    } else if pr.stalled {
                        pr.become_probe(pr.match_index.saturating_add(1));
                        self.maybe_send_append(now, peer, true);
                    } else {
                        // Something is in flight and nothing was acknowledged since the
                        // last tick: give it one more interval.
                        pr.stalled = true;
                        self.send_heartbeat(now, peer);
                    }
                }
            }
        }
        peers.clear();
        self.scratch.peers = peers;
    }

    /// Leader: an empty AppendEntries at the follower's `match_index`, which it holds.
    fn send_heartbeat(&mut self, now: Instant, peer: NodeId) {
        let Some(pr) = self.progress.get(&peer) else {
            return;
        };
        // Never below the compaction point: every voter holds the compacted prefix.
        let prev_log_index = pr
            .match_index
            .min(self.log.last_index())
            .max(self.log.offset());
        let msg = Message::AppendEntries {
            term: self.term,
            prev_log_index,
            prev_log_term: self.log.term_at(prev_log_index).unwrap_or(0),
            entries: Vec::new(),
            leader_commit: self.commit_index,
            context: now.as_micros(),
        };
        self.send(peer, msg);
    }

    /// Leader: sends `peer` up to `max_entries_per_append` entries from its `next_index`
    /// unless its progress is paused (a probe outstanding, or a full window). An empty
    /// message goes out only if `allow_empty` (a probe). Returns whether it sent.
    pub(crate) fn maybe_send_append(
        &mut self,
        now: Instant,
        peer: NodeId,
        allow_empty: bool,
    ) -> bool {
        let last_index = self.log.last_index();
        let Some(pr) = self.progress.get(&peer) else {
            return false;
        };
        if pr.is_paused() {
            return false;
        }
        let first = self.log.offset().saturating_add(1);
        let next_index = pr.next_index.clamp(first, last_index.saturating_add(1));
        let entries = self
            .log
            .slice_from(next_index, self.config.max_entries_per_append);
        if entries.is_empty() && !allow_empty {
            return false;
        }
        let prev_log_index = next_index.saturating_sub(1);
        let last_sent =
            prev_log_index.saturating_add(u64::try_from(entries.len()).unwrap_or(u64::MAX));
        let carries = !entries.is_empty();
        let msg = Message::AppendEntries {
            term: self.term,
            prev_log_index,
            prev_log_term: self.log.term_at(prev_log_index).unwrap_or(0),
            entries,
            leader_commit: self.commit_index,
            context: now.as_micros(),
        };
        self.send(peer, msg);
        if let Some(pr) = self.progress.get_mut(&peer) {
            match pr.state {
                ProgressState::Probe => pr.probe_sent = true,
                ProgressState::Replicate if carries => {
                    pr.next_index = last_sent.saturating_add(1);
                    pr.inflights.add(last_sent);
                }
                ProgressState::Replicate => {}
            }
        }
        true
    }

    /// Leader: advance the commit index to the highest index stored on a quorum, but only
    /// if that entry is of the current term (§5.4.2, Figure 8; design rule 6; S13).
    /// Older entries are committed indirectly, by the no-op or a later entry.
    pub(crate) fn maybe_commit(&mut self) {
        if self.role != Role::Leader {
            return;
        }
        let mut matched = core::mem::take(&mut self.scratch.indexes);
        matched.extend(self.progress.values().map(|p| p.match_index));
        matched.push(self.log.last_index());
        crate::sort::sort_by(&mut matched, |a, b| a > b);
        let quorum_index = self.config.quorum().saturating_sub(1);
        let found = matched.get(quorum_index).copied();
        matched.clear();
        self.scratch.indexes = matched;
        let Some(candidate) = found else {
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
        (leader_commit, context): (u64, u64),
    ) {
        if term < self.term {
            // Step 1: refuse, and tell the stale leader our term so it steps down.
            self.reply_append(from, false, 0, context);
            return;
        }
        if self.role == Role::Leader {
            // Two leaders in one term cannot happen with honest peers (§5.2): ignore.
            return;
        }
        if !entries_fit(prev_log_term, term, &entries) {
            // Entries no leader sends: terms that fall along the log (§5.3) or pass the
            // message's own term (a leader of `term` holds no later entry). Appending them
            // would persist a log `restart` refuses (`PersistentState::validate`): ignored.
            return;
        }
        // A leader of our term exists: follow it and reset the election timer (§5.2).
        self.become_follower(now, term, Some(from));

        // Accept at most `max_entries_per_append` so one message stays bounded; a success
        // acknowledges through the last index the message covers.
        let mut entries = entries;
        entries.truncate(self.config.max_entries_per_append);
        let last_new = prev_log_index.saturating_add(u64::try_from(entries.len()).unwrap_or(0));
        // Below the compaction point every entry is committed and held by every voter
        // (`compact_log`): skip what the message repeats of it and check at the point itself.
        let (prev_log_index, prev_log_term) = if prev_log_index < self.log.offset() {
            let skip = usize::try_from(self.log.offset().saturating_sub(prev_log_index))
                .unwrap_or(usize::MAX);
            entries.drain(..skip.min(entries.len()));
            (self.log.offset(), self.log.offset_term())
        } else {
            (prev_log_index, prev_log_term)
        };
        // Step 2: consistency check on the previous entry.
        if self.log.term_at(prev_log_index) != Some(prev_log_term) {
            let hint = prev_log_index.saturating_sub(1).min(self.log.last_index());
            self.reply_append(from, false, hint, context);
            return;
        }
        // Steps 3-4: skip entries we already hold, truncate at the first conflict, append
        // the rest.
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
        // The message's own buffer becomes the persist op's: no copy.
        let mut new_entries = entries;
        new_entries.drain(..new_from.min(new_entries.len()));
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
        // Step 5: commit up to what the leader committed, within what we know matches.
        self.set_commit_index(leader_commit.min(last_new));
        self.reply_append(from, true, last_new, context);
    }

    fn reply_append(&mut self, to: NodeId, success: bool, match_index: u64, context: u64) {
        let msg = Message::AppendEntriesResponse {
            term: self.term,
            success,
            match_index,
            context,
        };
        self.send(to, msg);
    }

    /// The leader's side: record the contact, track what the peer holds, commit, and send
    /// only what the response makes newly sendable. A response that tells nothing new (a
    /// duplicate, a reordered or stale one) sends nothing, so no response can start a
    /// second resend chain. A higher term was already handled; older terms are ignored.
    pub(crate) fn handle_append_response(
        &mut self,
        now: Instant,
        from: NodeId,
        term: u64,
        (success, match_index): (bool, u64),
        context: u64,
    ) {
        if term != self.term || self.role != Role::Leader {
            return;
        }
        let last_index = self.log.last_index();
        let since = self.leader_since;
        let Some(pr) = self.progress.get_mut(&from) else {
            return;
        };
        pr.last_heard = now;
        // The follower accepted an AppendEntries of this term sent at `context`, so it
        // refuses votes until `T` after it got it (leader stickiness): the lease's anchor.
        let sent = Instant::from_micros(context);
        let lease_news =
            sent >= since && sent <= now && pr.acked_sent_at.is_none_or(|at| at < sent);
        if lease_news {
            pr.acked_sent_at = Some(sent);
        }
        if success {
            if match_index > last_index {
                return; // Claims entries we never sent: ignore.
            }
            let probing = pr.state == ProgressState::Probe;
            let news = pr.acknowledge(match_index);
            let probe_answered = probing && match_index.saturating_add(1) >= pr.next_index;
            if probing && (news || probe_answered) {
                pr.become_replicate();
            }
            if news || probe_answered {
                self.maybe_commit();
                while self.maybe_send_append(now, from, false) {}
            }
        } else if match_index >= pr.match_index {
            // A fresh rejection says the follower holds at least `match_index` entries (it
            // holds `match_index` acknowledged ones) but not the entry before `next_index`;
            // one with a hint at or above the current probe's is stale and ignored (§5.3).
            let resend = match pr.state {
                ProgressState::Replicate => {
                    let next = match_index.saturating_add(1).min(pr.next_index);
                    pr.become_probe(next);
                    true
                }
                ProgressState::Probe if match_index.saturating_add(1) < pr.next_index => {
                    pr.next_index = match_index
                        .saturating_add(1)
                        .max(pr.match_index.saturating_add(1));
                    pr.probe_sent = false;
                    true
                }
                ProgressState::Probe => false,
            };
            if resend {
                self.maybe_send_append(now, from, true);
            }
        }
        if lease_news {
            self.refresh_lease();
        }
    }
}

/// Whether `entries` can follow an entry of term `prev_term` in the log of a leader of
/// `term`: their terms never fall, from `prev_term` on, and none passes `term`.
fn entries_fit(prev_term: u64, term: u64, entries: &[Entry]) -> bool {
    let mut last = prev_term;
    entries.iter().all(|e| {
        let fits = e.term >= last && e.term <= term;
        last = e.term;
        fits
    })
}
