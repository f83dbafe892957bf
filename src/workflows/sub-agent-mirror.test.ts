import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { SubAgentMirror, type Forwarded } from './sub-agent-mirror.js';

const CHILD = 'run-1/call-1';
const waiting = (id: string) => ({ id, toolName: 'write_file' }) as PendingApproval;
const passedOn = (over: Partial<Forwarded> = {}): Forwarded => ({
  shownId: 'call-1/call-1',
  owner: CHILD,
  toolName: 'write_file',
  via: 'update',
  type: 'approve',
  approver: 'pat',
  sentAs: 'pat',
  ...over,
});

function mirrorWithForward(awaited = true): SubAgentMirror {
  const mirror = new SubAgentMirror();
  mirror.started(CHILD);
  mirror.name(CHILD, 'call-1');
  mirror.take({ workflowId: CHILD, seq: 1, pending: [waiting('call-1')], tools: ['write_file'] });
  mirror.forward(passedOn(), awaited);
  return mirror;
}

describe('SubAgentMirror: what became of a decision passed on', () => {
  it('taken when the owner answers the call without refusing this approver', () => {
    const mirror = mirrorWithForward();
    const { verdicts } = mirror.take({
      workflowId: CHILD,
      seq: 2,
      pending: [],
      tools: [],
      answered: ['call-1'],
      // Someone else's decision for the same call, refused there: not this one.
      refused: [{ id: 'call-1', approver: 'mallory', code: 'already_decided', message: 'no' }],
    });
    expect(verdicts).toEqual([expect.objectContaining({ kind: 'taken', shownId: 'call-1/call-1', owner: CHILD })]);
  });

  it("refused, with the owner's reason, when the owner refused what this approver sent", () => {
    const mirror = mirrorWithForward();
    const refusal = { id: 'call-1', approver: 'pat', code: 'token_refused', message: 'bad token' };
    const { verdicts } = mirror.take({
      workflowId: CHILD,
      seq: 2,
      pending: [waiting('call-1')],
      tools: [],
      answered: ['call-1'],
      refused: [refusal],
    });
    expect(verdicts).toEqual([expect.objectContaining({ kind: 'refused', refusal, type: 'approve' })]);
    // Heard once: a later report says nothing more of it.
    expect(mirror.take({ workflowId: CHILD, seq: 3, pending: [], tools: [], answered: ['call-1'] }).verdicts).toEqual([]);
  });

  it('waits while the owner has not answered, even once the call no longer waits there', () => {
    const mirror = mirrorWithForward();
    expect(mirror.take({ workflowId: CHILD, seq: 2, pending: [waiting('call-2')], tools: [] })).toEqual({ changed: true, verdicts: [] });
    // A report older than one already taken is not heard.
    expect(mirror.take({ workflowId: CHILD, seq: 2, pending: [], tools: [], answered: ['call-1'] })).toEqual({
      changed: false,
      verdicts: [],
    });
    expect(mirror.take({ workflowId: CHILD, seq: 3, pending: [], tools: [], answered: ['call-1'] }).verdicts).toHaveLength(1);
  });

  it('lost when the owner ends without answering, or the decision could not reach it', () => {
    expect(mirrorWithForward().ended(CHILD)).toEqual([expect.objectContaining({ kind: 'lost', reason: expect.stringContaining('ended') })]);
    const mirror = mirrorWithForward();
    expect(mirror.undelivered(CHILD, 'call-1/call-1', 'not found')).toEqual([
      expect.objectContaining({ kind: 'lost', reason: 'not found' }),
    ]);
    expect(mirror.ended(CHILD)).toEqual([]);
  });

  it('hears nothing back for a run from before the note (not awaited), and hides the call the same way', () => {
    const mirror = mirrorWithForward(false);
    expect(mirror.pending()).toEqual([]);
    expect(mirror.take({ workflowId: CHILD, seq: 2, pending: [waiting('call-1')], tools: [], answered: ['call-1'] }).verdicts).toEqual([]);
    expect(mirror.ended(CHILD)).toEqual([]);
  });
});
