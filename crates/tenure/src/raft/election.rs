//! Leader election: PreVote and RequestVote, on both sides (Raft §5.2, §5.4.1;
//! dissertation §9.6 for PreVote and §4.2.3 for leader stickiness).

use super::event::{RaftEvent, Role};
use super::message::Message;
use super::node::RaftNode;
use crate::id::NodeId;
use crate::time::Instant;
use alloc::vec::Vec;

impl RaftNode {
    /// Starts an election round: PreVote first when enabled, else a real campaign.
    pub(crate) fn start_election(&mut self, now: Instant) {
        if self.config.pre_vote {
            self.become_pre_candidate(now);
        } else {
            self.become_candidate(now);
        }
    }

    /// Asks the peers whether they would vote for us in `term + 1`, without raising the term
    /// (dissertation §9.6). At term `u64::MAX` there is no higher term: stay a follower.
    fn become_pre_candidate(&mut self, now: Instant) {
        self.arm_election_timer(now);
        let Some(next_term) = self.term.checked_add(1) else {
            return;
        };
        self.role = Role::PreCandidate;
        self.leader_id = None;
        self.last_leader_contact = None;
        self.votes.clear();
        self.votes.insert(self.config.id);
        self.emit(RaftEvent::BecamePreCandidate { term: self.term });
        self.request_votes(next_term, true);
        self.check_votes(now);
    }

    /// Raises the term, votes for itself and asks for votes (Raft §5.2). At term `u64::MAX`
    /// there is no higher term: stay a follower.
    pub(crate) fn become_candidate(&mut self, now: Instant) {
        self.arm_election_timer(now);
        let Some(next_term) = self.term.checked_add(1) else {
            return;
        };
        self.role = Role::Candidate;
        self.term = next_term;
        self.voted_for = Some(self.config.id);
        self.leader_id = None;
        self.last_leader_contact = None;
        self.votes.clear();
        self.votes.insert(self.config.id);
        self.emit(RaftEvent::BecameCandidate { term: self.term });
        // `send` persists the new term and self-vote before the first RequestVote (S11).
        self.request_votes(next_term, false);
        self.check_votes(now);
    }

    fn request_votes(&mut self, term: u64, pre_vote: bool) {
        let msg = Message::RequestVote {
            term,
            last_log_index: self.log.last_index(),
            last_log_term: self.log.last_term(),
            pre_vote,
        };
        let peers: Vec<NodeId> = self.config.peers.clone();
        for peer in peers {
            self.send(peer, msg.clone());
        }
    }

    /// Moves on once a quorum granted: pre-candidate to candidate, candidate to leader.
    fn check_votes(&mut self, now: Instant) {
        if self.votes.len() < self.config.quorum() {
            return;
        }
        match self.role {
            Role::PreCandidate => self.become_candidate(now),
            Role::Candidate => self.become_leader(now),
            Role::Follower | Role::Leader => {}
        }
    }

    /// The voter's side of RequestVote and PreVote. A higher term was NOT adopted yet.
    pub(crate) fn handle_request_vote(
        &mut self,
        now: Instant,
        from: NodeId,
        term: u64,
        (last_log_index, last_log_term): (u64, u64),
        pre_vote: bool,
    ) {
        let up_to_date = self.log.is_up_to_date(last_log_index, last_log_term);
        if pre_vote {
            // §9.6: grant only if no leader was heard from within T and the log is up to
            // date; never change term or vote. A refusal carries our term, so a pre-candidate
            // behind us catches up (etcd-io/etcd#8501).
            let can_vote = term > self.term
                || (term == self.term
                    && self.leader_id.is_none()
                    && self.voted_for.is_none_or(|v| v == from));
            let granted = can_vote && up_to_date && !self.in_lease(now);
            let reply_term = if granted { term } else { self.term };
            self.send(
                from,
                Message::RequestVoteResponse {
                    term: reply_term,
                    granted,
                    pre_vote: true,
                },
            );
            return;
        }
        if term > self.term {
            if self.config.check_quorum && self.in_lease(now) {
                // Leader stickiness (§4.2.3): a live leader exists, so keep our term and
                // refuse; the refusal carries our lower term, which the candidate ignores.
                self.refuse_vote(from);
                return;
            }
            self.become_follower(now, term, None);
        }
        if term < self.term {
            self.refuse_vote(from);
            return;
        }
        // Same term: one vote per term (§5.2), only for an up-to-date log (§5.4.1).
        let can_vote = match self.voted_for {
            Some(v) => v == from,
            None => self.leader_id.is_none(),
        };
        let granted = can_vote && up_to_date;
        if granted {
            self.voted_for = Some(from);
            self.arm_election_timer(now);
        }
        // `send` persists the vote before the response leaves (design rule 6, S11).
        self.send(
            from,
            Message::RequestVoteResponse {
                term: self.term,
                granted,
                pre_vote: false,
            },
        );
    }

    fn refuse_vote(&mut self, to: NodeId) {
        self.send(
            to,
            Message::RequestVoteResponse {
                term: self.term,
                granted: false,
                pre_vote: false,
            },
        );
    }

    /// The candidate's side: count each granting voter once, for the current round only
    /// (design rule 6, scenario S12). Higher-term refusals were handled by the caller.
    pub(crate) fn handle_vote_response(
        &mut self,
        now: Instant,
        from: NodeId,
        term: u64,
        granted: bool,
        pre_vote: bool,
    ) {
        if !granted {
            return;
        }
        let current_round = match (self.role, pre_vote) {
            (Role::PreCandidate, true) => Some(term) == self.term.checked_add(1),
            (Role::Candidate, false) => term == self.term,
            _ => false,
        };
        if current_round {
            self.votes.insert(from);
            self.check_votes(now);
        }
    }
}
