import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { SubAgentMirror, type Forwarded } from './sub-agent-mirror.js';
import type { ChildApprovals } from './sub-agent-report.js';

const CHILD = 'run-1/call-1';
const waiting = (id: string) => ({ id, toolName: 'write_file' }) as PendingApproval;
/** A report of the owner at `seq` that answers call-1, as `answers` say. */
const answering = (seq: number, answers: ChildApprovals['answers'], pending: PendingApproval[] = []): ChildApprovals => ({
  workflowId: CHILD,
  seq,
  pending,
  tools: [],
  answered: ['call-1'],
  answers,
});
const passedOn = (over: Partial<Forwarded> = {}): Forwarded => ({
  shownId: 'call-1/call-1',
  owner: CHILD,
  toolName: 'write_file',
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
  it("taken when the owner answers it as taken, in this approver's name", () => {
    const mirror = mirrorWithForward();
    const { verdicts } = mirror.take(answering(2, [{ id: 'call-1', approver: 'pat' }]));
    expect(verdicts).toEqual([expect.objectContaining({ kind: 'taken', shownId: 'call-1/call-1', owner: CHILD })]);
  });

  it("refused, with the owner's reason, when the owner refused what this approver sent", () => {
    const mirror = mirrorWithForward();
    const refusal = { code: 'token_refused', message: 'bad token' };
    const answers = [{ id: 'call-1', approver: 'pat', refusal }];
    const { verdicts } = mirror.take({ workflowId: CHILD, seq: 2, pending: [waiting('call-1')], tools: [], answered: ['call-1'], answers });
    expect(verdicts).toEqual([expect.objectContaining({ kind: 'refused', refusal, type: 'approve' })]);
    // Heard once: a later report says nothing more of it.
    expect(mirror.take({ workflowId: CHILD, seq: 3, pending: [], tools: [], answered: ['call-1'], answers }).verdicts).toEqual([]);
  });

  it("waits on when the owner answers another's decision for the call: a report sent before this one reached it", () => {
    const mirror = mirrorWithForward();
    // Decided straight at the owner by mallory first: the call is gone there, and this decision has yet to arrive.
    const first = { workflowId: CHILD, seq: 2, pending: [], tools: [], answered: ['call-1'] };
    expect(mirror.take({ ...first, answers: [{ id: 'call-1', approver: 'mallory' }] }).verdicts).toEqual([]);
    const refusal = { code: 'already_decided', message: 'call-1 was already decided (approve by mallory).' };
    const later = { workflowId: CHILD, seq: 3, pending: [], tools: [], answered: ['call-1'] };
    expect(mirror.take({ ...later, answers: [{ id: 'call-1', approver: 'pat', refusal }] }).verdicts).toEqual([
      expect.objectContaining({ kind: 'refused', refusal }),
    ]);
  });

  it('hears no older report than one it took', () => {
    const mirror = mirrorWithForward();
    expect(mirror.take({ workflowId: CHILD, seq: 2, pending: [waiting('call-2')], tools: [] })).toEqual({ changed: true, verdicts: [] });
    const stale = answering(2, [{ id: 'call-1', approver: 'pat' }]);
    expect(mirror.take(stale)).toEqual({ changed: false, verdicts: [] });
    expect(mirror.take({ ...stale, seq: 3 }).verdicts).toHaveLength(1);
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
    const answers = [{ id: 'call-1', approver: 'pat' }];
    expect(
      mirror.take({ workflowId: CHILD, seq: 2, pending: [waiting('call-1')], tools: [], answered: ['call-1'], answers }).verdicts,
    ).toEqual([]);
    expect(mirror.ended(CHILD)).toEqual([]);
  });
});

describe("SubAgentMirror: checks of a sub-agent's reports", () => {
  it('runs them one at a time per sub-agent, in the order they came', async () => {
    const mirror = new SubAgentMirror();
    const order: string[] = [];
    let release!: () => void;
    const first = mirror.queueCheck(CHILD, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first');
    });
    const second = mirror.queueCheck(CHILD, async () => {
      order.push('second');
    });
    const other = mirror.queueCheck('run-1/call-2', async () => {
      order.push('other sub-agent');
    });
    await other;
    expect(order).toEqual(['other sub-agent']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['other sub-agent', 'first', 'second']);
  });

  it('knows which report numbers are no newer than the last one confirmed', () => {
    const mirror = new SubAgentMirror();
    expect(mirror.confirmedSince(CHILD, 0)).toBe(false);
    mirror.noteConfirmed(CHILD, 3);
    expect([2, 3, 4].map((seq) => mirror.confirmedSince(CHILD, seq))).toEqual([true, true, false]);
    expect(mirror.confirmedSince('run-1/call-2', 1)).toBe(false);
  });
});
