import { describe, expect, it } from 'vitest';
import { DecisionRefusedError } from '../errors.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import { awaitOwnersAnswers, type ReadAudit } from './forward-verdicts.js';

const CHILD = 'run-1/call-1';
const applied = [{ id: 'call-1/call-1', type: 'approve' as const, toolName: 'write_file', argsHash: 'h', forwardedTo: CHILD }];
const at = '2026-12-01T00:00:00.000Z';
const forwarded: AuditEntry = { seq: 1, at, via: 'update', outcome: 'forwarded', type: 'approve', id: 'call-1/call-1', forwardedTo: CHILD };
const noted = (
  seq: number,
  event: 'forward_taken' | 'forward_refused' | 'forward_lost',
  refusal?: { code: string; message: string },
): AuditEntry => ({
  seq,
  at,
  via: 'run',
  outcome: 'noted',
  event,
  id: 'call-1/call-1',
  forwardedTo: CHILD,
  ...(refusal && { refusal }),
});

/** The audit log as it grows: each read sees one more of `later`, after `first`. */
function growingAudit(first: AuditEntry[], later: AuditEntry[] = []): { read: ReadAudit; reads: number[] } {
  const reads: number[] = [];
  const read: ReadAudit = async (from) => {
    reads.push(from);
    const all = [...first, ...later.slice(0, reads.length - 1)];
    return { decisions: all.filter((e) => e.seq > from) };
  };
  return { read, reads };
}

describe('awaitOwnersAnswers', () => {
  it("throws the owner's refusal, with its code, once the run notes it", async () => {
    const { read, reads } = growingAudit([forwarded], [noted(2, 'forward_refused', { code: 'token_refused', message: 'bad token' })]);
    const err = await awaitOwnersAnswers(read, applied, 5000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecisionRefusedError);
    expect(err).toMatchObject({ code: 'token_refused', message: `${CHILD} owns call-1/call-1 and refused the decision: bad token` });
    // Read on from what was seen, not from the start each time.
    expect(reads).toEqual([0, 1]);
  });

  it('a code it does not know is an internal refusal, still refused', async () => {
    const { read } = growingAudit([forwarded, noted(2, 'forward_refused', { code: 'something_new', message: 'why' })]);
    await expect(awaitOwnersAnswers(read, applied, 5000)).rejects.toMatchObject({ code: 'internal' });
  });

  it('resolves when the owner took it; one that never reached its owner is refused as closed', async () => {
    await expect(awaitOwnersAnswers(growingAudit([forwarded], [noted(2, 'forward_taken')]).read, applied, 5000)).resolves.toBeUndefined();
    const lost = { ...noted(2, 'forward_lost'), message: 'the decision was not taken: it could not be delivered' };
    await expect(awaitOwnersAnswers(growingAudit([forwarded, lost]).read, applied, 5000)).rejects.toMatchObject({
      code: 'run_closed',
      message: 'call-1/call-1: the decision was not taken: it could not be delivered',
    });
  });

  it('gives up after its wait, and does not wait on a run from before the note', async () => {
    const started = Date.now();
    await expect(awaitOwnersAnswers(growingAudit([forwarded]).read, applied, 300)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const old = growingAudit([{ ...forwarded, outcome: 'applied' }]);
    await expect(awaitOwnersAnswers(old.read, applied, 5000)).resolves.toBeUndefined();
    expect(old.reads).toEqual([0]);
  });

  it('reads nothing when no decision was passed on', async () => {
    const { read, reads } = growingAudit([]);
    await awaitOwnersAnswers(read, [{ ...applied[0]!, forwardedTo: undefined }]);
    expect(reads).toEqual([]);
  });

  it('pairs a refusal with the latest time the decision was passed on', async () => {
    // Refused once, passed on again: the first refusal is not the answer to the second.
    const again = { ...forwarded, seq: 3 };
    const { read } = growingAudit(
      [forwarded, noted(2, 'forward_refused', { code: 'already_decided', message: 'x' }), again],
      [noted(4, 'forward_taken')],
    );
    await expect(awaitOwnersAnswers(read, applied, 5000)).resolves.toBeUndefined();
  });
});
