/**
 * The gate a call a person wrote waits under (a proposal by an edit, or an edit that waits again): its tool's, except
 * that its deadline never approves it (patch deadlinesApproveNoProposal). Silence may consent to the model's calls
 * where the policy says so, but arguments a person chose wait for someone who may approve them, as a standing
 * `always` approval does not settle them either (run-decisions.ts).
 */
import type { GateSettings } from '../schemas/call-record.js';

export function proposalGate(gate: GateSettings, deadlinesApproveNoProposal: boolean): GateSettings {
  return deadlinesApproveNoProposal && gate.onTimeout === 'approve' ? { ...gate, onTimeout: 'reject' } : gate;
}
