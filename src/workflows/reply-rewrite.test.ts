/** Who wrote each call of a reply a person rewrote at a breakpoint (writtenAt): the model's stay the model's. */
import { describe, expect, it } from 'vitest';
import type { Intake, IntakeCall } from './reply-intake.js';
import { writtenAt } from './reply-rewrite.js';

const call = (id: string, name: string, rawArgs: string, extra: Partial<IntakeCall> = {}): IntakeCall => ({
  id,
  modelId: id,
  name,
  rawArgs,
  ...extra,
});
const intake = (...calls: IntakeCall[]): Intake => ({ message: { role: 'assistant', content: null }, calls, droppedCalls: 0 });
const alice = { approver: 'alice', callId: 'break-2', toolName: 'breakpoint:beforeTools' };
const bob = { approver: 'bob', callId: 'break-1', toolName: 'breakpoint:afterModel' };

describe('writtenAt', () => {
  it("keeps a call the edit left as it was, however its JSON is spaced or ordered, and marks every other the editor's", () => {
    const before = intake(call('call-1', 'send_email', '{"to":"a@example.com","body":"hi"}'), call('call-2', 'write_file', '{"path":"a"}'));
    const after = intake(
      call('call-1', 'send_email', '{ "body": "hi", "to": "a@example.com" }'),
      call('call-2', 'write_file', '{"path":"b"}'),
      call('call-3', 'read_data', '{}'),
    );
    expect(writtenAt(before, after, alice).calls.map((c) => c.writtenBy)).toEqual([undefined, alice, alice]);
  });

  it("counts another tool under the same id, or arguments that are not JSON and differ, as the editor's", () => {
    const before = intake(call('call-1', 'send_email', '{}'), call('call-2', 'write_file', 'not json'));
    const after = intake(call('call-1', 'write_file', '{}'), call('call-2', 'write_file', 'not json!'));
    expect(writtenAt(before, after, alice).calls.map((c) => c.writtenBy)).toEqual([alice, alice]);
    expect(writtenAt(before, intake(call('call-2', 'write_file', 'not json')), alice).calls[0]!.writtenBy).toBeUndefined();
  });

  it('keeps the writer of a call an earlier breakpoint gave it, when this edit leaves it as it was', () => {
    const before = intake(call('call-1', 'send_email', '{"to":"a@example.com"}', { writtenBy: bob }));
    expect(writtenAt(before, intake(call('call-1', 'send_email', '{"to":"a@example.com"}')), alice).calls[0]!.writtenBy).toEqual(bob);
    expect(writtenAt(before, intake(call('call-1', 'send_email', '{"to":"b@example.com"}')), alice).calls[0]!.writtenBy).toEqual(alice);
  });
});
