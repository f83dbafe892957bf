/** Who may decide a call: typed approver entries name one kind of approver, bare ones either. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approverMatches, approverWithin, decisionRules, effectOf, mayDecide } from './may-decide.js';

describe('approverMatches', () => {
  const financeGroupMember = { approver: 'alice', groups: ['finance'] };
  const personNamedFinance = { approver: 'finance', groups: [] };

  it('a bare name matches a person or a group of that name', () => {
    expect(approverMatches(['finance'], financeGroupMember)).toBe(true);
    expect(approverMatches(['finance'], personNamedFinance)).toBe(true);
  });

  it('group:<name> matches the group only, user:<id> the person only', () => {
    expect(approverMatches(['group:finance'], financeGroupMember)).toBe(true);
    expect(approverMatches(['group:finance'], personNamedFinance)).toBe(false);
    expect(approverMatches(['user:finance'], personNamedFinance)).toBe(true);
    expect(approverMatches(['user:finance'], financeGroupMember)).toBe(false);
    expect(approverMatches(['user:alice', 'group:ops'], financeGroupMember)).toBe(true);
  });

  it('runs before typed entries read every entry as a bare name, prefix included', () => {
    expect(approverMatches(['group:finance'], financeGroupMember, false)).toBe(false);
    expect(approverMatches(['group:finance'], { approver: 'group:finance' }, false)).toBe(true);
    expect(approverMatches(['user:bob'], { approver: 'user:bob' }, false)).toBe(true);
  });

  it('an empty name after the prefix matches nobody', () => {
    expect(approverMatches(['user:', 'group:'], { approver: 'alice', groups: ['finance'] })).toBe(false);
  });

  const name = fc.stringMatching(/^[a-z:]{1,8}$/);
  const decider = fc.record({ approver: name, groups: fc.array(name, { maxLength: 3 }) });

  it('matches exactly when some entry names the approver (user:, bare) or one of their groups (group:, bare)', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 4 }), decider, (entries, who) => {
        const expected = entries.some((e) =>
          e.startsWith('user:')
            ? e.slice(5) === who.approver
            : e.startsWith('group:')
              ? who.groups.includes(e.slice(6))
              : e === who.approver || who.groups.includes(e),
        );
        expect(approverMatches(entries, who)).toBe(expected);
        // Untyped, as runs before patch set 13 decided.
        expect(approverMatches(entries, who, false)).toBe(entries.some((e) => e === who.approver || who.groups.includes(e)));
      }),
    );
  });

  it('a group: entry never lets in a person for their identity alone', () => {
    fc.assert(
      fc.property(name, (group) => {
        expect(approverMatches([`group:${group}`], { approver: group, groups: [] })).toBe(false);
        expect(approverMatches([`user:${group}`], { approver: 'someone-else', groups: [group] })).toBe(false);
      }),
    );
  });
});

describe('mayDecide', () => {
  it('refuses a person who only shares a group’s name, and says who may decide', () => {
    expect(mayDecide({ approvers: ['group:finance'] }, { approver: 'finance' }, 'runs')).toEqual({
      ok: false,
      code: 'approver_not_allowed',
      reason: 'approvers: group:finance',
    });
    expect(mayDecide({ approvers: ['group:finance'] }, { approver: 'finance' }, 'runs', { typedApprovers: false })).toMatchObject({
      ok: false,
    });
    expect(mayDecide({ approvers: ['finance'] }, { approver: 'finance' }, 'runs')).toEqual({ ok: true });
  });

  it('keeps its other rules whatever the entries: four eyes, a named approver, one approval each', () => {
    const call = { approvers: ['group:finance'], excludedApprovers: ['alice'], approvals: [{ approver: 'carol' }] };
    expect(mayDecide(call, { approver: 'alice', groups: ['finance'] }, 'runs')).toMatchObject({ ok: false, code: 'four_eyes' });
    expect(mayDecide(call, { approver: 'alice', groups: ['finance'] }, 'refuses')).toEqual({ ok: true });
    expect(mayDecide(call, { groups: ['finance'] }, 'runs')).toMatchObject({ ok: false, code: 'approver_required' });
    expect(mayDecide(call, { approver: 'carol', groups: ['finance'] }, 'runs')).toMatchObject({ ok: false, code: 'already_approved' });
    expect(mayDecide(call, { approver: 'dave', groups: ['finance'] }, 'runs')).toEqual({ ok: true });
  });

  it('holds a response to four eyes from decision rules v6: the agent takes it as the tool’s result', () => {
    const call = { approvers: ['group:finance'], excludedApprovers: ['alice'] };
    const alice = { approver: 'alice', groups: ['finance'] };
    expect(mayDecide(call, alice, 'answers', decisionRules(6))).toMatchObject({ ok: false, code: 'four_eyes' });
    expect(mayDecide(call, alice, 'answers', decisionRules(5))).toEqual({ ok: true });
    expect(mayDecide(call, alice, 'refuses', decisionRules(6))).toEqual({ ok: true });
    expect(mayDecide(call, { groups: ['finance'] }, 'answers', decisionRules(6))).toMatchObject({ code: 'approver_required' });
    // An approver who has approved may still answer for the tool instead: a quorum counts approvals only.
    expect(mayDecide({ ...call, approvals: [{ approver: 'carol' }] }, { approver: 'carol', groups: ['finance'] }, 'answers')).toEqual({
      ok: true,
    });
    expect([effectOf('approve'), effectOf('edit'), effectOf('respond'), effectOf('reject'), effectOf('ignore')]).toEqual([
      'runs',
      'runs',
      'answers',
      'refuses',
      'refuses',
    ]);
  });

  it('takes names that differ only in ASCII case as one person, for four eyes and a quorum, from decision rules v7', () => {
    const v7 = decisionRules(7);
    const v6 = decisionRules(6);
    const requested = { excludedApprovers: ['alice'] };
    expect(mayDecide(requested, { approver: 'Alice' }, 'runs', v7)).toMatchObject({ ok: false, code: 'four_eyes' });
    expect(mayDecide(requested, { approver: 'ALICE' }, 'answers', v7)).toMatchObject({ ok: false, code: 'four_eyes' });
    expect(mayDecide(requested, { approver: 'Alice' }, 'runs', v6)).toEqual({ ok: true });
    const written = { excludedApprovers: ['pat'], proposedBy: { approver: 'pat', toolName: 'write_file' } };
    expect(mayDecide(written, { approver: 'Pat' }, 'runs', v7)).toMatchObject({ ok: false, code: 'four_eyes', proposer: true });
    const counted = { approvals: [{ approver: 'bob' }] };
    expect(mayDecide(counted, { approver: 'BoB' }, 'runs', v7)).toMatchObject({ ok: false, code: 'already_approved' });
    expect(mayDecide(counted, { approver: 'BoB' }, 'runs', v6)).toEqual({ ok: true });
    // Only ASCII is folded (the same on every engine), and approver entries still match exactly: no one gains
    // authority by a name's case.
    expect(mayDecide(requested, { approver: 'ÁLICE' }, 'runs', v7)).toEqual({ ok: true });
    expect(mayDecide({ approvers: ['user:alice'] }, { approver: 'Alice' }, 'runs', v7)).toMatchObject({
      ok: false,
      code: 'approver_not_allowed',
    });
  });

  it('under decision rules v1, four eyes lets an unnamed approver through', () => {
    expect(mayDecide({ excludedApprovers: ['alice'] }, {}, 'runs', { strictFourEyes: false })).toEqual({ ok: true });
    expect(mayDecide({ excludedApprovers: ['alice'] }, {}, 'runs')).toMatchObject({ ok: false, code: 'approver_required' });
  });
});

describe('approverWithin', () => {
  it('a run’s entry is within its agent’s when it lets in no one they do not', () => {
    expect(approverWithin('finance', ['finance'])).toBe(true);
    expect(approverWithin('group:finance', ['finance'])).toBe(true);
    expect(approverWithin('user:finance', ['finance'])).toBe(true);
    expect(approverWithin('finance', ['group:finance'])).toBe(false);
    expect(approverWithin('user:finance', ['group:finance'])).toBe(false);
    expect(approverWithin('group:finance', ['finance'], false)).toBe(false);
  });

  it('whoever a narrowed entry lets in, the agent’s entries let in too', () => {
    const name = fc.stringMatching(/^[a-z:]{1,8}$/);
    const entries = fc.array(
      fc.oneof(
        name,
        name.map((n) => `user:${n}`),
        name.map((n) => `group:${n}`),
      ),
      { minLength: 1, maxLength: 3 },
    );
    const kind = fc.constantFrom('', 'user:', 'group:');
    const who = fc.record({ approver: name, groups: fc.array(name, { maxLength: 3 }) });
    fc.assert(
      fc.property(entries, fc.nat(), kind, who, (agentEntries, i, prefix, decider) => {
        const entry = prefix + agentEntries[i % agentEntries.length]!;
        if (approverWithin(entry, agentEntries) && approverMatches([entry], decider)) {
          expect(approverMatches(agentEntries, decider)).toBe(true);
        }
      }),
    );
    expect(approverWithin('group:user:x', ['user:x'])).toBe(false);
  });
});
