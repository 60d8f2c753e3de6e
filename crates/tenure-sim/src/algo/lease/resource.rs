//! The fenced resource's side of the lease world: a leader's write arriving, the token
//! check, and the write record the checker reads.

use super::*;

impl LeaseAdapter {
    pub(super) fn deliver_to_resource(&mut self, env: &mut Env<'_>, from: usize, payload: Payload) {
        let resource = self.resource_idx();
        match payload {
            Payload::Establish { token } => {
                let result = self.resource.establish(FencingToken(token));
                let required = self.resource.highest_token().0;
                self.checker.on_resource(required, &mut self.found);
                env.findings(std::mem::take(&mut self.found));
                env.send(
                    resource,
                    from,
                    Payload::Established {
                        token,
                        accepted: result.is_ok(),
                        required,
                    },
                );
            }
            Payload::Write {
                token,
                fenced,
                issued_us,
                late,
            } => {
                let before = if self.fencing {
                    self.resource.highest_token().0
                } else {
                    self.checker.highest_seen()
                };
                let accepted = if fenced {
                    self.resource
                        .write(FencingToken(token), from as u64)
                        .is_ok()
                } else {
                    // Unfenced: the resource checks nothing and accepts every write.
                    true
                };
                let highest = self.resource.highest_token().0;
                let stale =
                    self.checker
                        .on_write(id_of(from), token, accepted, highest, &mut self.found);
                env.findings(std::mem::take(&mut self.found));
                let record = WriteRecord {
                    time_us: env.now.as_micros(),
                    issued_us,
                    from: Proc::Node(id_of(from)),
                    token,
                    accepted,
                    reason: (!accepted).then_some(WriteRefusal::StaleToken),
                    stale,
                    late,
                    presented: fenced.then_some(token),
                    required: before,
                };
                if self.writes.len() >= RECENT_WRITES {
                    self.writes.pop_front();
                }
                self.writes.push_back(record);
                env.notes.push(Note::Write(record));
                env.send(
                    resource,
                    from,
                    Payload::WriteResult {
                        token,
                        accepted,
                        required: before.max(highest),
                    },
                );
            }
            _ => {}
        }
    }
}
